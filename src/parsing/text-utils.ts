// Text clean-up shared by both readers: whitespace, ligatures, hyphenation across lines.

import { validOrcid } from '../corpus/openalex/ids.ts';

const LIGATURES: Record<string, string> = {
  '\ufb00': 'ff',
  '\ufb01': 'fi',
  '\ufb02': 'fl',
  '\ufb03': 'ffi',
  '\ufb04': 'ffl',
  '\ufb05': 'st',
  '\ufb06': 'st',
};

/**
 * Spacing accents that TeX fonts without precomposed letters (OT1) draw as glyphs of their own,
 * set before the letter they go on ("Thørv¨ald", "Hubiˇcka", "Fran¸cois"), with the combining
 * mark each stands for.
 */
export const SPACING_ACCENTS: Record<string, string> = {
  '\u00a8': '\u0308', // ¨
  '\u00b4': '\u0301', // ´
  '\u02c6': '\u0302', // ˆ
  '\u02dc': '\u0303', // ˜
  '\u02c7': '\u030c', // ˇ
  '\u02da': '\u030a', // ˚
  '\u02d8': '\u0306', // ˘
  '\u02d9': '\u0307', // ˙
  '\u00b8': '\u0327', // ¸
  '\u02db': '\u0328', // ˛
  '\u00af': '\u0304', // ¯
  '\u02dd': '\u030b', // ˝
  '\u02cb': '\u0300', // ˋ
};

/**
 * ASCII characters a font may map an accent glyph to. In running text each is far more often
 * itself (a quote mark, a caret in a formula, a tilde in a URL, a degree sign), so they are read
 * as accents only where the page's geometry says so: drawn over the letter (see geometry.ts).
 */
export const AMBIGUOUS_ACCENTS: Record<string, string> = {
  '`': '\u0300',
  '^': '\u0302',
  '~': '\u0303',
  '\u00b0': '\u030a', // ° standing for a ring
};

/** The characters as a regular-expression character class, each escaped where a class needs it. */
function charClass(chars: readonly string[]): string {
  return `[${chars.map((c) => c.replace(/[\\\]^-]/, '\\$&')).join('')}]`;
}

/** Any spacing accent, as a character class: the regular expressions that find them use this one set. */
export const SPACING_ACCENT_CLASS = charClass(Object.keys(SPACING_ACCENTS));
/** Any spacing accent or ASCII stand-in, as a character class. */
export const ANY_ACCENT_CLASS = charClass([
  ...Object.keys(SPACING_ACCENTS),
  ...Object.keys(AMBIGUOUS_ACCENTS),
]);

/** The precomposed letter for `letter` under `combining`, or null when Unicode has none. */
export function composedLetter(letter: string, combining: string): string | null {
  // TeX sets an accent over a dotless i or j ("\'{\i}"): the accent replaces the dot.
  const base = letter === 'ı' ? 'i' : letter === 'ȷ' ? 'j' : letter;
  const c = `${base}${combining}`.normalize('NFC');
  return [...c].length === 1 ? c : null;
}

/** The accents of the first group, always accents; the grave between two letters ("Rich`el"). */
const ACCENT_BEFORE_LETTER = new RegExp(
  `(?<!\\/)(${SPACING_ACCENT_CLASS})(\\p{L})|(?<=\\p{L})\`(\\p{L})`,
  'gu',
);
/** Whether a text holds anything composeAccents would change: most texts hold no accent at all. */
const MAY_HOLD_ACCENT = new RegExp(charClass([...Object.keys(SPACING_ACCENTS), '`']), 'u');
/** The six accents the reader combined before the others were added, composable or not. */
const ALWAYS_COMBINED = /[\u00a8\u00b4\u02c6\u02dc\u02c7\u02da]/;

/**
 * A cedilla or an ogonek set after its letter (TeX's \\c and \\k draw the letter, then the mark
 * under it: "Franc¸ois"), with the letter after it, if any.
 */
const BELOW_ACCENT_AFTER_LETTER = /(\p{L})([\u00b8\u02db])(\p{L}?)/gu;

/**
 * Puts a spacing accent set before its letter onto the letter: "Thørv¨ald" to "Thørväld",
 * "Hubiˇcka" to "Hubička". A tilde after a slash stays (a URL's "/˜user"); an accent with no
 * precomposed letter for it stays as it is, except the six the reader has always combined. A mark
 * set under a letter goes onto the letter before it when the letter after takes no such mark
 * ("Franc¸ois" to "François"; "Fran¸cois" keeps its cedilla for the "c").
 */
export function composeAccents(s: string): string {
  if (!MAY_HOLD_ACCENT.test(s)) return s;
  return s
    .replace(BELOW_ACCENT_AFTER_LETTER, (whole, before: string, accent: string, after: string) => {
      const combining = SPACING_ACCENTS[accent]!;
      if (after && composedLetter(after, combining)) return whole;
      const composed = composedLetter(before, combining);
      return composed ? `${composed}${after}` : whole;
    })
    .replace(
      ACCENT_BEFORE_LETTER,
      (whole, accent: string | undefined, letter: string | undefined, graveOn: string | undefined) => {
        if (accent !== undefined && letter !== undefined) {
          const combining = SPACING_ACCENTS[accent]!;
          const composed = composedLetter(letter, combining);
          if (composed) return composed;
          // The first six were always combined, composable or not (a combining mark still shows).
          return ALWAYS_COMBINED.test(accent) ? `${letter}${combining}`.normalize('NFC') : whole;
        }
        return (graveOn && composedLetter(graveOn, '\u0300')) ?? whole;
      },
    );
}

/**
 * Arabic-script letters in their contextual shapes (Presentation Forms A and B: initial, medial,
 * final, isolated, and the lam-alef ligatures). Fonts without a shaping engine's cmap map their
 * glyphs there (XeTeX's xepersian and bidi output, Word's PDF export of Persian or Arabic), so a
 * title read as "ﻋﻨﻮﺍﻥ" is not the word "عنوان" a reader sees, searches for, or a heading list
 * holds. Their compatibility decomposition is the letter; a spacing vowel mark loses its space.
 */
const ARABIC_PRESENTATION_FORMS = /[\ufb50-\ufdff\ufe70-\ufefc]+/g;

/**
 * Letters that join only the letter before them, or none (alef, dal, reh, waw and their kin, teh
 * marbuta, hamza): after one of them a letter always starts a new shape.
 */
const RIGHT_OR_NON_JOINING = new Set('ءآأؤإاةدذرزوٱژۀەۃۄۅۆۇۈۉۊۋۍۏ');

/**
 * The shapes a letter takes where it is not joined to the letter before it: isolated and initial.
 * Unicode orders each letter's forms isolated, final, initial, medial (a letter that joins only
 * before it has the first two), so they are the first and third of each run of forms of one letter.
 */
const UNJOINED_SHAPES: ReadonlySet<string> = (() => {
  const shapes = new Set<string>();
  const ranges: [number, number][] = [
    [0xfb50, 0xfbff],
    [0xfe70, 0xfefc],
  ];
  for (const [from, to] of ranges) {
    let letter = '';
    let position = 0;
    for (let cp = from; cp <= to; cp++) {
      const c = String.fromCodePoint(cp);
      const nominal = c.normalize('NFKC');
      if (nominal === c || !/\p{L}/u.test(nominal)) {
        letter = '';
        continue;
      }
      position = nominal === letter ? position + 1 : 0;
      letter = nominal;
      if (position === 0 || position === 2) shapes.add(c);
    }
  }
  return shapes;
})();

/**
 * A letter shaped as unjoined right after a letter that joins the next one stands after a zero-width
 * non-joiner the text layer lost (Persian "ﭘﺎﯾﺎنﻧﺎﻣﻪ", the half-space of "پایان‌نامه" drawn as no
 * glyph): the non-joiner is put back, so the word reads as written.
 */
function arabicLetters(forms: string, at: number, whole: string): string {
  let out = '';
  for (const [k, c] of [...forms].entries()) {
    // The character before the run, read in place (it took the text before the run, then its last).
    const before = k === 0 ? (at > 0 ? whole[at - 1]! : '') : forms[k - 1]!;
    const letterBefore = before.normalize('NFKC');
    if (
      UNJOINED_SHAPES.has(c) &&
      /^\p{Script=Arabic}$/u.test(letterBefore) &&
      /\p{L}/u.test(letterBefore) &&
      !RIGHT_OR_NON_JOINING.has(letterBefore)
    )
      out += '\u200c';
    out += c.normalize('NFKC');
  }
  return out.replace(/ (?=\p{M})/gu, '');
}

/** Letters only Persian (and Urdu) writes: peh, tcheh, jeh, gaf, keheh, Farsi yeh. */
const PERSIAN_LETTER = /[\u067e\u0686\u0698\u06af\u06a9\u06cc]/u;

/**
 * Whether a page's text is written in Persian letters: then its Arabic yeh and kaf are Persian's.
 * A font made for Persian draws "ي" and "ی" (and "ك", "ک") with one glyph, and a PDF's text layer
 * can name only one of the two for it: "احمدي" on a cover that prints "احمدی".
 */
export function writesPersian(texts: readonly string[]): boolean {
  return texts.some((t) => PERSIAN_LETTER.test(t));
}

/** Arabic yeh and kaf as the Persian letters (see writesPersian). */
export function asPersianLetters(text: string): string {
  return text.replace(/\u064a/g, '\u06cc').replace(/\u0643/g, '\u06a9');
}

/** Whatever cleanText changes; a string without any is returned as it is. */
const NEEDS_CLEANING =
  /[\ufb00-\ufb06\u00ad\u200b\ufeff\u00a0\u2002-\u200a\u202f\ufb50-\ufdff\ufe70-\ufefc]|\p{Cc}| {2}|^\s|\s$/u;

export function cleanText(s: string): string {
  if (!NEEDS_CLEANING.test(s)) return s;
  return (
    s
      .replace(/[\ufb00-\ufb06]/g, (c) => LIGATURES[c] ?? c)
      .replace(ARABIC_PRESENTATION_FORMS, arabicLetters)
      .replace(/[\u00ad\u200b\ufeff]/g, '')
      // Glyphs a font could not map to Unicode (often ligatures) come out as control characters.
      .replace(/\p{Cc}/gu, (c) => (c === '\t' || c === '\n' ? c : ''))
      .replace(/[\u00a0\u2002-\u200a\u202f]/g, ' ')
      .replace(/[ \t]+/g, ' ')
      .trim()
  );
}

/**
 * A line set letter-spaced by hand, one space between letters and more between words ("W A N G
 * Y U N C O N G" with three spaces at the word's gap, a cover page's name): each word's letters.
 */
const LETTER_SPACED = /^\p{L}(?: \p{L})+(?:(?: {2,}|\u3000+)\p{L}(?: \p{L})+)*$/u;

/** The words of a letter-spaced line ("WANG YUNCONG"), or null for any other text. */
export function closedLetterSpacing(raw: string): string | null {
  const text = raw.trim();
  if (text.length > 200 || text.length < 7 || !LETTER_SPACED.test(text)) return null;
  return text
    .split(/(?: {2,}|\u3000+)/)
    .map((w) => w.replace(/ /g, ''))
    .join(' ');
}

/**
 * A capitalised word set letter-spaced inside a piece of text ("D. S. G u i c e"): a class that
 * spaces its author names by kerns (Cambridge's jpp.cls puts a kern between a surname's letters and
 * a wider one between words) is read by pdf.js with a space at each kern, so a word and a gap look
 * alike. A capital then lower-case letters one space apart is one word: prose and names never set
 * single lower-case letters in a row. Four letters mark the piece as letter-spaced; in such a piece
 * a shorter run ("X i e") is a word too.
 */
const SPACED_WORD = /(?<![\p{L}\p{N}.])\p{Lu}(?: \p{Ll}){1,}(?![\p{L}\p{N}])/gu;
const LONG_SPACED_WORD = /(?<![\p{L}\p{N}.])\p{Lu}(?: \p{Ll}){3,}(?![\p{L}\p{N}])/u;

/** A PDF piece's letter-spaced words closed up ("G u i c e" to "Guice"); other text as it is. */
export function closeSpacedWords(str: string): string {
  if (!LONG_SPACED_WORD.test(str)) return str;
  return str.replace(SPACED_WORD, (w) => w.replaceAll(' ', ''));
}

/** Ends like a URL or DOI cut at a line end, where the break character belongs to the identifier. */
const IDENTIFIER_TAIL = /(?:https?:\/\/|www\.|doi:|\b10\.\d{4,9}\/)\S*$/i;
const DOI_PREFIX = /\b10\.\d{4,9}\//;

/** The text after the last white space of `s` (all of `s` when it has none). */
function lastWord(s: string): string {
  let i = s.length;
  while (i > 0 && !/\s/.test(s[i - 1]!)) i--;
  return s.slice(i);
}

/**
 * A line that opens with a label and then a link ("URL https://...", "Available: http://...",
 * "DOI 10.1145/..."): it starts a new item after an identifier that ended with a full stop, and
 * goes on with none (plainurl and elsarticle print "doi: 10.1145/3241377." then "URL https://...").
 */
const LABELLED_LINK = /^\p{L}+[.:]?\s+(?:https?:|doi:|www\.|10\.\d)/iu;

/**
 * A line that opens with a capitalised word and then a space or comma ("Appendix A. ...",
 * "Accessed 2 May 2020"): after an identifier that ended with a full stop, it starts a sentence.
 * An identifier's piece after a break is one unbroken word, never a word and then a space.
 */
const SENTENCE_START = /^\p{Lu}\p{Ll}+[\s,]/u;

/**
 * A PubMed number printed after a DOI that ends the entry's sentence ("doi:10.1371/journal.pcbi.
 * 1008618." then "33577550."): a number of seven or eight digits with no leading zero, whole,
 * closed by a stop, a comma or a semicolon. A DOI's piece after a break at its stop holds another
 * separator ("03.002") or a letter, or follows one of letters ("pcbi." then "1008618"); after a
 * piece of digits and a stop, a bare number of this length is the next identifier.
 */
const PUBMED_NUMBER = /^[1-9]\d{6,7}[.,;]?(?:\s|$)/;
const DIGITS_AND_STOP = /[./]\d+\.$/;

/** Words of English grammar that no other language written in Latin letters uses as words. */
const ENGLISH_GRAMMAR = new Set(
  'the of and for with from by to into towards toward through between among using based its their this these'.split(
    ' ',
  ),
);
/**
 * Grammar words of the other languages a paper gives its title and abstract in beside English
 * (Portuguese, Spanish, French, Italian, German, Dutch, Turkish, Indonesian and Malay), none of
 * them an English word.
 */
const OTHER_GRAMMAR = new Set(
  [
    'de da do das dos e em na nas nos para com um uma pela pelo ao sobre entre', // Portuguese
    'y el la los las del con por un una al sobre entre desde hacia', // Spanish
    'et le les des du une pour dans sur au aux avec par', // French
    'il della delle degli dei nel nella con per tra sulla', // Italian
    'und der die das für mit von zur zum bei im', // German
    'het een van voor en bij naar', // Dutch
    've ile için bir', // Turkish
    'dan yang pada untuk dengan dalam di ke sebagai', // Indonesian and Malay
  ]
    .join(' ')
    .split(' '),
);

/**
 * The language of a short text in Latin letters by its grammar words ("Platform for Buffaloes" is
 * English, "Plataforma de Controle e Manejo de Búfalas" is not): null when it holds none, or as
 * many of either kind.
 */
export function englishOrOther(text: string): 'english' | 'other' | null {
  let english = 0;
  let other = 0;
  for (const word of text.toLowerCase().split(/[^\p{L}]+/u)) {
    if (ENGLISH_GRAMMAR.has(word)) english++;
    else if (OTHER_GRAMMAR.has(word)) other++;
  }
  return english > other ? 'english' : other > english ? 'other' : null;
}

/**
 * The end of a word of Latin script, in a pattern source without the Unicode flag: no letter, digit
 * or underscore of Latin script after it. `\b` is that only for ASCII: after a word ending in an
 * accented letter ("Université", "Università", "Faculté") it sees no edge before the space, and
 * it sees one inside "Universitéx". (The Unicode flag would make the long patterns several times
 * slower: see TURKISH in institutions.ts.)
 */
export const LATIN_WORD_END = '(?![0-9A-Za-z_\\u00C0-\\u024F])';

/**
 * Chinese and Japanese script (kana, ideographs, their full-width punctuation and forms): written
 * with no space between words, so a line break between two of its characters is no space either.
 * Korean writes spaces between words and is not in it.
 */
const CJK = '\\u3001-\\u303f\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\uff00-\\uffef';
const CJK_END = new RegExp(`[${CJK}]$`);
const CJK_START = new RegExp(`^[${CJK}]`);
/** Four characters of Chinese or Japanese in a row: a text of words though it has no space. */
export const CJK_WORDS = new RegExp(`[${CJK}]{4}`);
/**
 * Four characters in a row of a script written with no space between its words: Chinese and
 * Japanese, or Thai, Lao, Khmer and Burmese (whose vowel signs and tone marks are of the script).
 */
export const UNSPACED_WORDS = new RegExp(
  `[${CJK}]{4}|[\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}]{4}`,
  'u',
);

/** Whether `before` and `after` meet between two Chinese or Japanese characters: no space between. */
export function meetInCjk(before: string, after: string): boolean {
  return CJK_END.test(before) && CJK_START.test(after);
}

const CJK_BREAK = new RegExp(`(?<=[${CJK}])[^\\S\\n]*\\n\\s*(?=[${CJK}])`, 'g');

/** Lines joined by line breaks, each break between two Chinese or Japanese characters taken out. */
export function joinCjkBreaks(text: string): string {
  return text.includes('\n') ? text.replace(CJK_BREAK, '') : text;
}

// Japanese typesetting (pLaTeX's xkanjiskip, Word's automatic spacing) sets a narrow gap between a
// Japanese or Chinese character and a Latin letter or digit, which a PDF's text gives as a space;
// the text as written has none ("可能なP2Pライブ").
const CJK_LATIN_GAP = new RegExp(
  `(?<=[${CJK}])[^\\S\\n](?=[A-Za-z0-9])|(?<=[A-Za-z0-9])[^\\S\\n](?=[${CJK}])`,
  'g',
);

/** A title's text without the typeset gaps between Chinese or Japanese and Latin letters or digits. */
export function withoutCjkLatinGaps(text: string): string {
  return text.replace(CJK_LATIN_GAP, '');
}

/** `end`, the last word of a text, once `line` is appended to that text with no space. */
function wordAfterJoin(end: string, line: string): string {
  const word = lastWord(line);
  return word.length === line.length ? end + line : word;
}

/** The word broken at `end`'s closing hyphen holds another hyphen, before the break or after it. */
function inCompound(end: string, line: string): boolean {
  const next = /^\S+/u.exec(line)?.[0] ?? '';
  return /\p{L}[-\u2010\u2011]\p{L}/u.test(end.slice(0, -1)) || /\p{L}[-\u2010\u2011]\p{L}/u.test(next);
}

/**
 * Joins the lines of one paragraph. A hyphen at a line end between lower-case letters is a
 * typesetter's break and is removed; a break between two Chinese or Japanese characters adds no space; inside a URL or DOI the break character is kept and no space
 * is added, so identifiers survive the join.
 */
export function joinLines(lines: string[]): string {
  // The text is kept in pieces, joined once at the end, and its last word apart: every test below
  // looks at the end of the text so far, which lies in its last word. Reading the end of a string
  // built by appending makes V8 copy it whole first, so a paragraph's join cost in the square of its
  // length (a block of 12,000 lines, 2 M characters: 7.6 s).
  const parts: string[] = [];
  let end = '';
  for (const raw of lines) {
    const line = raw.trim();
    if (!line) continue;
    if (parts.length === 0) {
      parts.push(line);
      end = lastWord(line);
      continue;
    }
    const tail = IDENTIFIER_TAIL.exec(end);
    if (/\bhttps?:$/i.test(end) && line.startsWith('//')) {
      parts.push(line);
      end = wordAfterJoin(end, line);
    } else if (
      tail &&
      // A colon inside a DOI's suffix ("...(2001)42:" then "7(1130).", ASCE's) breaks it like
      // a slash when the next line goes on with a digit or a bracket. The last word holds no space:
      // a DOI's prefix anywhere in it, and the colon at its end (as one pattern, `\S*:$` read the
      // word again from each prefix: 400,000 characters of prefixes, seconds).
      (/[-/._=?&#]$/.test(end) || (end.endsWith(':') && DOI_PREFIX.test(end) && /^[\d(]/.test(line))) &&
      !/^(?:https?:|doi:|www\.)/i.test(line) &&
      !LABELLED_LINK.test(line) &&
      !(end.endsWith('.') && SENTENCE_START.test(line)) &&
      !(DIGITS_AND_STOP.test(end) && PUBMED_NUMBER.test(line))
    ) {
      parts.push(line);
      end = wordAfterJoin(end, line);
    } else if (meetInCjk(end, line)) {
      parts.push(line);
      end = wordAfterJoin(end, line);
    } else if (/\p{Ll}[-\u2010\u2011]$/u.test(end) && /^\p{Ll}/u.test(line)) {
      // TeX breaks a word that holds a hyphen at that hyphen only: a hyphen at a line's end with
      // another in the same word ("coupled-" then "reaction-channel", "state-of-" then "the-art")
      // is the word's own, and stays. Any other is the typesetter's: it ends the last piece, as it
      // ends the last word, and goes.
      const own = inCompound(end, line);
      if (!own) parts[parts.length - 1] = parts[parts.length - 1]!.slice(0, -1);
      parts.push(line);
      end = wordAfterJoin(own ? end : end.slice(0, -1), line);
    } else {
      parts.push(' ', line);
      end = lastWord(line);
    }
  }
  return parts.join('');
}

/**
 * A list entry's number set raised and read glued to the entry's first word ("¹W. Chen" read
 * "1W. Chen and ..."), as AIP's REVTeX styles set their numbered lists: digits, then an initial
 * and another capital ("W. Chen"), a capitalised word ("Siemens, ...") or a one-letter word and a
 * capitalised one (a title first: "A Study of ..."). Not a formula or an acronym ("7YSZ coatings"
 * opening a line of an entry), nor "3D printing". The source, for a marker pattern that takes it in.
 */
export const RAISED_LABEL = String.raw`(\d{1,4})(?=\p{Lu}(?:\.\s?\p{Lu}|\p{Ll}|\s\p{Lu}\p{Ll}))`;
/** A line that opens with a raised entry number glued to the initial after it (see `RAISED_LABEL`). */
export const RAISED_LABEL_OPENING = new RegExp(`^${RAISED_LABEL}`, 'u');

/**
 * An address, read from where a run of its characters starts (the look-behind): the same matches as
 * without it, but a long run is read once, where it was read again from each of its characters
 * (40,000 letters and an "@": a second in the parser).
 */
export const EMAIL_RE =
  /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;
/** `{a,b}@host` lists, as computer-science papers write them. */
export const EMAIL_GROUP_RE = /\{([^{}@]+)\}\s*@\s*([\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+)/gu;
export const ORCID_RE = /\b(\d{4}-\d{4}-\d{4}-\d{3}[\dX])\b/g;

/** Longest list of local parts read as one `{…}@host` group. */
const MAX_GROUP_CHARS = 2_000;
const LOCAL_PART = /^[\p{L}\p{N}._%+-]+$/u;

/** `list` is a list of email local parts ("a.b, c_d"), with nothing else in it. */
function onlyLocalParts(list: string): boolean {
  if (list.length > MAX_GROUP_CHARS) return false;
  const tokens = list.split(/[,;|\s]+/).filter(Boolean);
  return tokens.length > 0 && tokens.every((t) => LOCAL_PART.test(t));
}

/**
 * `text` ends inside a `{a, b, c` group of local parts whose `}@host` comes on a later line or
 * block ("{ana.lima, bo.chen," then "cy.diaz}@uni.edu").
 */
export function opensEmailGroup(text: string): boolean {
  const at = text.lastIndexOf('{');
  if (at < 0 || text.includes('}', at)) return false;
  const list = text.slice(at + 1);
  return !list.includes('@') && onlyLocalParts(list);
}

/**
 * `text` goes on with a group left open by the text before it: local parts, then either the
 * group's end with its host (`cy.diaz}@uni.edu`) or nothing else (a middle line of the list).
 */
export function continuesEmailGroup(text: string): boolean {
  const close = text.indexOf('}');
  const list = close < 0 ? text : text.slice(0, close);
  if (list.includes('{') || list.includes('@') || !onlyLocalParts(list)) return false;
  return (
    close < 0 ||
    /^\}\s*@\s*[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/u.test(text.slice(close, close + 300))
  );
}

/**
 * An address in angle brackets with a space in its local part ("<xuelong li@ieee.org>"): LaTeX's
 * "\_" in its old text encoding is a drawn rule, no glyph, so the text layer has a gap where the
 * underscore stands. No address holds a space; inside the brackets it is one address.
 */
const RULED_UNDERSCORE = /<([\w.+-]+) ([\w.+-]+@[\w-]+(?:\.[\w-]+)+)>/gu;

/**
 * The same gap in a PDF piece that holds one address and a word before it, nothing else but an
 * address label: "E-mail: Andrew Beam@hms.harvard.edu", or alone "first author@university.edu"
 * (World Scientific's classes set the address on a line of its own, in the old encoding). A word
 * glued by that gap to an address and set before it, where a line holds only its address, is the
 * address's start. Alone, the word is in lower case (a capitalised word there may be a name) and
 * no label or joining word ("e-mail jd@x.org", "and jd@x.org" name the address, they are not its start).
 */
const LABELLED_RULED_ADDRESS =
  /^((?:\p{So}|[*∗†‡])?\s*e-?mail(?: address)?\s*:\s*)([\w.+-]+) ([\w.+-]+@[\w-]+(?:\.[\w-]+)+)([.,;]?)$/iu;
const LONE_RULED_ADDRESS =
  /^(?!(?:e-?mail|mail|contact|correspondence|address|and|or|to|at|by|via|see)\s)([\p{Ll}\p{N}][\w.+-]*) ([\w.+-]+@[\w-]+(?:\.[\w-]+)+)([.,;]?)$/u;

/** A PDF piece's address with its underscore mended ("first author@x.edu" to "first_author@x.edu"). */
export function mendRuledUnderscore(str: string): string {
  if (!str.includes('@')) return str;
  return str.replace(LABELLED_RULED_ADDRESS, '$1$2_$3$4').replace(LONE_RULED_ADDRESS, '$1_$2$3');
}

/**
 * A space before the dot of an address's host ("roe@north .edu"): an OCR layer reads the gap the
 * scan shows around a small dot as a word's end. No address holds a space, and no sentence goes
 * on with a dot and a word in lower case right after one.
 */
const SPACED_HOST_DOT = /(@[\w-]+(?:\.[\w-]+)*) \.(?=\p{Ll}{2,}\b)/gu;

export function findEmails(text: string): string[] {
  // Both patterns need an "@": most texts (every line of a long article) have none.
  if (!text.includes('@')) return [];
  text = text.replace(RULED_UNDERSCORE, '<$1_$2>').replace(SPACED_HOST_DOT, '$1.');
  const found: string[] = [];
  for (const m of text.matchAll(EMAIL_GROUP_RE)) {
    for (const local of (m[1] ?? '').split(/[,;|\s]+/)) {
      if (local) found.push(`${local.trim()}@${m[2]}`);
    }
  }
  const withoutGroups = text.replace(EMAIL_GROUP_RE, ' ');
  for (const m of withoutGroups.matchAll(EMAIL_RE)) {
    // "@user@server.social" is a fediverse handle, not an address.
    if (withoutGroups[(m.index ?? 0) - 1] === '@') continue;
    found.push(m[0].replace(/\.$/, ''));
  }
  return unique(found.map((e) => e.replace(/^mailto:/i, '')));
}

/**
 * The addresses that "mailto:" links give. A link may hold spaces around its address
 * ("mailto: jr@x.org", AASTeX) and a query after it; neither is part of the address. Nor is
 * punctuation after its host's last letter (Markdown's emphasis taken into the link by its
 * converter, "mailto:jr@x.org*"): an address ends in a letter.
 */
export function mailtoAddresses(links: readonly string[]): string[] {
  return links
    .filter((l) => /^mailto:/i.test(l))
    .map((l) =>
      l
        .replace(/^mailto:/i, '')
        .split('?')[0]!
        .trim()
        .replace(/[^\p{L}\p{N}]+$/u, ''),
    )
    .filter((e) => e.includes('@'));
}

/**
 * A dash between digits that a font or a template set as a minus sign or a typographic dash
 * ("0000−0002−2593−1114": LNCS prints the ORCID in brackets after each name in math mode).
 */
const DASH_BETWEEN_DIGITS = /(?<=\d)\s?[\u2010-\u2013\u2212]\s?(?=[\dX])/g;

export function findOrcids(text: string): string[] {
  const hyphened = text.replace(DASH_BETWEEN_DIGITS, '-');
  return unique([...hyphened.matchAll(ORCID_RE)].map((m) => m[1] ?? '').filter(validOrcid));
}

export function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}

/**
 * A field of a submission system's cover sheet (ScholarOne's review PDF): "Journal: <name>",
 * "Manuscript ID <id>", "Manuscript Type: <kind>" ("Manuscript Number", "Article Type:"), with
 * the value printed after it; null for any other line.
 */
export function submissionField(text: string): { field: 'journal' | 'id' | 'type'; value: string } | null {
  const m =
    /^\s*(?:(journal)\s*:|manuscript\s+(id|number)\b\s*:?|(?:manuscript|article)\s+(type)\s*:)\s*(.*)$/i.exec(
      text,
    );
  if (!m) return null;
  return { field: m[1] ? 'journal' : m[2] ? 'id' : 'type', value: m[4]!.trim() };
}

/** The middle value (the upper one of an even count); `none` for no values. */
export function median(values: number[], none = 0): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? none;
}
