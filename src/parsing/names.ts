// What a personal name looks like in a byline, and how a byline splits into names and their marks.
import type { Run } from './types.ts';
import { isDegreeList, withoutDegrees } from '../corpus/authors/name-titles.ts';
import { foldWords } from '../infra/text-fold.ts';
import { INSTITUTION_WORD } from './institutions.ts';

const PARTICLES = new Set([
  'van',
  'von',
  'de',
  'der',
  'den',
  'del',
  'della',
  'di',
  'da',
  'das',
  'dos',
  'du',
  'la',
  'le',
  'bin',
  'binti',
  'al',
  'el',
  'y',
  'e',
  'ten',
  'ter',
  'zu',
  'st.',
  // Spanish, Italian, Dutch, German, Scandinavian and Arabic particles ("María de los Ángeles
  // García"); not "do", an English word in headings ("Why do Birds Sing").
  'los',
  'las',
  'dei',
  'degli',
  'het',
  'vom',
  'zum',
  'zur',
  'af',
  'av',
  'ibn',
  'ben',
]);
const SUFFIX = /^(jr\.?|sr\.?|ii|iii|iv|phd|md)$/i;
/** A generational suffix kept with the name ("Jane Roe, Jr."); degrees after a name are dropped instead. */
const KEPT_SUFFIX = /^(?:jr\.?|sr\.?|ii|iii|iv)$/i;

/**
 * Words that name a kind of document or publication, never a person: a line under the title set
 * like a byline ("Extended Abstract", "Research Article", a journal's name) is none.
 */
const DOCUMENT_WORD =
  /^(?:abstracts?|articles?|papers?|preprints?|manuscripts?|journals?|proceedings|transactions|reports?|communications?|letters|reviews?|templates?|supplement(?:ary)?|conference|symposium|workshop|edition|version|draft|volume|issue|chapter|appendix|contents|keywords|notes?|correspondence|affiliations?|theses|thesis|dissertations?|proposals?)$/i;
// A surname may carry its elided particle glued before it, in lower case: French and Italian
// "d’Alché-Buc", "dell’Acqua". A double surname may be joined by an en dash, LaTeX's "--" typed for
// the hyphen ("Derousseaux–Lebert").
const NAME_WORD =
  /^(?:\p{Lu}[\p{L}'’`-]*(?:–\p{Lu}[\p{L}'’`-]*)?\.?|(?:\p{Lu}\.-?)+\p{Lu}?\.?|\p{Lu}\p{Ll}*-\p{Lu}\.?|(?:d|l|dell|dall|degl)['’]\p{Lu}[\p{L}'’-]*)$/u;

/** "Abstract", "Journal", "Preprint": a word that names a kind of document. */
export function isDocumentWord(word: string): boolean {
  return DOCUMENT_WORD.test(word.trim());
}

/**
 * A nickname set in brackets or quotes between a given name and the surname ("Chun-Kai (Karl)
 * Huang", "Robert “Bob” Roe"): one capitalised word, with words on both sides. The name is kept
 * as printed; its form is read without the nickname.
 */
const MIDDLE_NICKNAME = /(?<=\S) (?:\(\p{Lu}\p{Ll}[\p{Ll}'’-]*\)|[“"]\p{Lu}\p{Ll}[\p{Ll}'’-]*[”"]) (?=\S)/u;

export function isNameLike(raw: string): boolean {
  const text = raw.replace(/\s+/g, ' ').trim().replace(MIDDLE_NICKNAME, ' ');
  if (text.length < 4 || text.length > 60 || /[\d@:;()[\]/]/.test(text)) return false;
  if (text.replace(/,\s*(?:jr|sr|ii|iii|iv)\.?$/i, '').includes(',')) return false;
  const words = text.split(' ');
  if (words.length < 2 || words.length > 6) return false;
  if (words.some((w) => DOCUMENT_WORD.test(w.replace(/[.,]$/, '')))) return false;
  // A word written out and closed by a stop ends a sentence ("... Kabul Edilen Tezdir.", a
  // cover's statement in title case); a name ends on its surname, an initial or a suffix.
  if (/^\p{Lu}\p{Ll}{2,}\.$/u.test(words[words.length - 1]!) && !SUFFIX.test(words[words.length - 1]!))
    return false;
  let letters = 0;
  let capitalised = 0;
  for (const w of words) {
    if (PARTICLES.has(w.toLowerCase()) && w === w.toLowerCase()) continue;
    if (SUFFIX.test(w.replace(/,$/, ''))) continue;
    if (!NAME_WORD.test(w.replace(/,$/, ''))) return false;
    capitalised++;
    letters += w.replace(/[^\p{L}]/gu, '').length;
  }
  // A name has a surname of two letters or more: "A. B." alone is initials, not a name.
  return capitalised >= 2 && letters >= 4 && words.some((w) => /\p{L}{2,}/u.test(w));
}

/**
 * A name that reads as a person's by its words alone, not by its place in a byline: name-like, and
 * no whole word of an institution ("Department Of Engines", "Eaton Innovation Center" are none). A
 * parsed author that passes may speak for a person where a misread line must not
 * (src/manuscripts/merge.ts: the file's authors counted for conflicts).
 */
export function readsAsPersonName(raw: string): boolean {
  return isNameLike(raw) && !INSTITUTION_WORD.test(raw);
}

/**
 * One capitalised word that could be a person's only name ("Amartyaveer"): letters alone, three or
 * more, and no word for a kind of document. Only its place in a byline can make it a name.
 */
export function isMononym(raw: string): boolean {
  const word = raw.trim();
  return /^\p{Lu}[\p{L}'’-]{2,40}$/u.test(word) && !DOCUMENT_WORD.test(word);
}

/**
 * A Korean name in Hangul: a surname and a given name of two to four syllables in all, written
 * together ("김진호") or spaced by syllable ("김 진 호"). Read as a name only where a superscript
 * mark sets it in a byline: alone, the same syllables may be any word.
 */
export const HANGUL_NAME = /^(?:\p{Script=Hangul}{2,4}|\p{Script=Hangul}(?: \p{Script=Hangul}){1,3})$/u;

/**
 * A Chinese or Japanese name in Han script: two to four characters together ("薛瑞尼"), or a family
 * name of one to three characters, a space, and a given name of one to four in Han script or kana
 * ("機械 太郎", "技術 さくら", Japanese journals' bylines). Read as a name only where a superscript
 * mark sets it in a byline, as HANGUL_NAME is: a longer run ("日本機械大学") is no name.
 */
export const HAN_NAME =
  /^(?:\p{Script=Han}{2,4}|\p{Script=Han}{1,3} [\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]{1,4})$/u;

/**
 * A name in a script written without capitals (Arabic, Persian, Urdu, Hebrew, Devanagari, Bengali,
 * Tamil): two to four words of its letters (a Persian name's half-space and a Hebrew geresh inside
 * a word kept). No capital says it is a name, so it is read as one only where a label vouches for
 * it (a thesis cover's "نگارش" or "על ידי" over it), as HAN_NAME is where a mark sets it.
 */
const CASELESS_LETTER =
  '\\p{Script=Arabic}\\p{Script=Hebrew}\\p{Script=Devanagari}\\p{Script=Bengali}\\p{Script=Tamil}';
// Han and Hangul are left to HAN_NAME and HANGUL_NAME: a Chinese name set letter-spaced ("王 小 明")
// is one word, not three.
const CASELESS_WORD = `[${CASELESS_LETTER}][${CASELESS_LETTER}\\u200c'’׳״-]*`;
export const CASELESS_NAME = new RegExp(`^${CASELESS_WORD}(?: ${CASELESS_WORD}){1,3}$`, 'u');

/**
 * A byline entry that carries superscript marks is a name by its place: digits inside its words
 * ("Name1 Surname", a template's sample author as printed) do not make it something else, nor
 * does a lower-case word after initials ("X. X. First author", the Royal Society's sample): the
 * initials and the mark together say it names a person.
 */
export function isMarkedNameLike(raw: string, supMarked: boolean): boolean {
  if (isNameLike(raw)) return true;
  if (!supMarked) return false;
  if (HANGUL_NAME.test(raw.trim()) || HAN_NAME.test(raw.trim())) return true;
  if (LEADING_INITIALS.test(raw.trim()) && isNameSlot(raw)) return true;
  return /\p{L}-?\d/u.test(raw) && isNameLike(raw.replace(/(\p{L})-?\d+/gu, '$1'));
}

/** One to three initials ("X.", "X. X.", "J.-P.") followed by a word. */
const LEADING_INITIALS = /^(?:\p{Lu}\.(?:-\p{Lu}\.)?\s?){1,3}\s?\p{L}/u;

/**
 * A line whose place makes it a name (the first line of an author group, the top line of an
 * author block beside a named one): a short run of words with no sentence or address punctuation,
 * no institution or document word. A template's sample name ("Author 1") passes; a lower-case
 * first word passes only where the caller allows it.
 */
export function isNameSlot(raw: string, lowerCase = false): boolean {
  const text = raw
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/,\s*(?:jr|sr|ii|iii|iv)\.?$/i, '');
  if (text.length < 3 || text.length > 60 || /[@:;,()[\]/!?]|[.]$/.test(text)) return false;
  const words = text.split(' ');
  if (words.length > 6 || words.some((w) => DOCUMENT_WORD.test(w))) return false;
  if (words.filter((w) => /\d/.test(w)).length > 1 || words.some((w) => /\d/.test(w) && !/^\d{1,2}$/.test(w)))
    return false;
  if (!lowerCase && !/^\p{Lu}/u.test(text)) return false;
  return /\p{L}{2}/u.test(text);
}

const SUPERSCRIPT_DIGITS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const TYPED_SUPERSCRIPT = /[⁰¹²³⁴⁵⁶⁷⁸⁹]+(?:[,⁄]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)*/gu;

/**
 * Marks typed as superscript characters ("Student¹", Typst's and Word's superscript digits) are
 * the same marks as raised runs: they become superscript runs of plain digits.
 */
export function typedSuperscripts(runs: Run[]): Run[] {
  const out: Run[] = [];
  const push = (text: string, sup: boolean) => {
    const last = out[out.length - 1];
    if (last && last.sup === sup) last.text += text;
    else if (text) out.push({ text, sup });
  };
  for (const run of runs) {
    if (run.sup) {
      push(run.text, true);
      continue;
    }
    let at = 0;
    for (const m of run.text.matchAll(TYPED_SUPERSCRIPT)) {
      push(run.text.slice(at, m.index), false);
      const digits = [...m[0]].map((c) => {
        const d = SUPERSCRIPT_DIGITS.indexOf(c);
        return d >= 0 ? String(d) : ',';
      });
      push(digits.join(''), true);
      at = m.index + m[0].length;
    }
    push(run.text.slice(at), false);
  }
  return out;
}

export function hasTypedSuperscripts(text: string): boolean {
  return /[⁰¹²³⁴⁵⁶⁷⁸⁹]/u.test(text);
}

/** Set in capitals (small caps): "JOHN SMITH", not "John Smith" nor "J. Smith". */
export function inCapitals(text: string): boolean {
  return text === text.toUpperCase() && /\p{Lu}{2}/u.test(text);
}

export interface BylineName {
  name: string;
  marks: string[];
  /** Some of its marks were set as superscripts. */
  sup?: boolean;
}

const MARK_SYMBOLS = /[*†‡§¶#✉]/u;
/** Stars other than the asterisk that mark a note (math "∗", MNRAS's "⋆"): each is read as "*". */
const STAR_LIKE = /[∗⋆★]/gu;

export function normalizeStars(text: string): string {
  return text.replace(STAR_LIKE, '*');
}

/** What an OCR layer reads for a raised mark's small shape (a "1" as "!", a "2" as "”"). */
const OCR_MARK = /[!?®°”’“‘>]/u;

export function splitMarks(raw: string): string[] {
  const marks: string[] = [];
  for (const part of normalizeStars(raw).split(/[\s,;]+/)) {
    if (!part) continue;
    // A note symbol may come before the affiliation's letter or number as well as after it
    // ("∗a", RSC's corresponding author; "b‡").
    const m = /^([*†‡§¶#✉]*)([0-9]+|[a-z])?([*†‡§¶#✉]*)$/u.exec(part);
    if (m) {
      if (m[2]) marks.push(m[2]);
      for (const sym of `${m[1] ?? ''}${m[3] ?? ''}`) marks.push(sym);
      continue;
    }
    // A number followed by a note symbol the font maps to no known character ("2¤b", "1Y"):
    // the number still keys an affiliation.
    const numbered = /^([0-9]+)\P{N}/u.exec(part);
    if (numbered) marks.push(numbered[1]!, ...[...part].filter((c) => MARK_SYMBOLS.test(c)));
  }
  return marks;
}

/**
 * Splits a byline into names with their marks. Superscript runs are marks; so are digits and
 * symbols glued to the end of a name in bylines typed without superscripts.
 */
/** A bracket at a name's end that holds a few characters of another script and nothing Latin. */
const OTHER_SCRIPT_IN_BRACKETS = /\s*[(（][^()（）\p{Script=Latin}\d]{1,20}[)）]$/u;

/** The phrase that sets a collaboration after a speaker's name, and all after it. */
const ON_BEHALF_OF =
  /(?:^|,?\s+)(?:on\s+behalf\s+of|for\s+the\b(?=.*\b(?:collaboration|consortium)s?\b))\b.*$/iu;

/** "Ordonez, Carlos": one name written surname first, a comma between; letters only. */
const SURNAME_COMMA_GIVEN =
  /^(\p{Lu}[\p{L}'’.-]*(?:\s+[\p{L}'’.-]+){0,3}),\s*(\p{Lu}[\p{L}'’.-]*(?:\s+[\p{L}'’.-]+){0,3})$/u;

/**
 * A byline line whose names are set apart by semicolons, each written surname first with a comma
 * ("Ordonez, Carlos; Guerrero, Mari; España, Elena", Latin American papers), given names first
 * ("Carlos Ordonez; Mari Guerrero; Elena España"): its commas would split each name in two.
 * Every piece must be such a name, two pieces or more; other lines are left as they are.
 */
export function invertedBylineLines(text: string): string {
  if (!text.includes(';')) return text;
  return text
    .split('\n')
    .map((line) => {
      const pieces = line.split(';').map((p) => p.trim());
      if (pieces[pieces.length - 1] === '') pieces.pop();
      const names = pieces.map((p) => SURNAME_COMMA_GIVEN.exec(p.replace(/\.$/, '')));
      if (pieces.length < 2 || names.some((m) => m === null)) return line;
      return names.map((m) => `${m![2]} ${m![1]}`).join('; ');
    })
    .join('\n');
}

/** "Authors:" typed before a byline, in the languages manuscripts are written in. */
export const BYLINE_LABEL =
  /^(?:authors?|author\(s\)|autor(?:es|as|en|i)?|auteurs?|autores\(as\)|authors?['’]?\s+names?|author\s+name\(s\)|names?\s+of\s+(?:the\s+)?authors?)\s*:\s*/iu;

export function splitByline(runs: Run[]): BylineName[] {
  const out: BylineName[] = [];
  let current = '';
  let currentMarks: string[] = [];
  let currentSup = false;
  // The text being read came right after a name's superscript marks, with no space between.
  let afterMarks = false;
  const close = () => {
    // A word broken at a line's end by the hyphenation of a Word file ("Leslie D. Ve- larde") is
    // one word: a lower-case letter after the break continues it, a capital opens another part.
    let name = current
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/(\p{L})- (\p{Ll})/gu, '$1$2');
    // Digits glued to a name's end are its marks, unless an earlier word carries digits too: a
    // template's numbered sample ("Firstname1 SURNAME1", VTeX) prints them as part of the name.
    const numbered = name.length <= 80 && /\p{L}\d+\s+\S/u.test(name);
    // So are they after a caret, Markdown's superscript typed and left as text ("Ameye^1*").
    // An OCR text layer reads the raised marks on the name's line, as what their small shapes look
    // like ("Ward!", "Roe?®", "Fox” °", "Krishnan*!*"): these never end a name either.
    const glued =
      name.length <= 80 && !numbered
        ? /^(.*\p{L}\.?)\s*\^?([\d*†‡§¶#✉!?®°”’“‘][\d\s,*†‡§¶#✉!?®°”’“‘>]*)\^?$/u.exec(name)
        : null;
    if (glued && glued[1]) {
      name = glued[1];
      currentMarks.push(...splitMarks(glued[2] ?? ''));
      // An OCR layer's misread marks key no affiliation, but they are marks: kept as read.
      currentMarks.push(...[...(glued[2] ?? '')].filter((c) => OCR_MARK.test(c)));
    }
    // A name followed by itself in another script ("Bin Ren (任彬)", AASTeX) is the first one:
    // the bracket holds no Latin letter and no digit.
    name = name.replace(OTHER_SCRIPT_IN_BRACKETS, '');
    // A byline led in by a phrase that ends in "by" ("By Jane Roe", IMS; "Written by ...",
    // "Style contributions by ...") names its people after it.
    // So does one led in by a label ("Authors:", in the manuscript's language: "Autores:").
    name = name
      .replace(BYLINE_LABEL, '')
      .replace(/^(?:and|&)\s+/i, '')
      // The journal's copyright year set before the first name ("© 2018 г. И.А. Иванов", the
      // Russian journals) is no part of it.
      .replace(/^(?:©\s*)?(?:19|20)\d\d\s*(?:г\.\s*)?(?=\p{Lu})/u, '')
      // A stop spaced from the last name ("В.К. Орлова .") closes the byline.
      .replace(/\s+\.$/u, '')
      // The stop that closes a byline written as a sentence ("..., Cristian Núñez-Espinosa.¹")
      // is no part of the last name; an initial's period ("Roe J.", "Jr.") is.
      .replace(/(\p{L}\p{Ll}{2,})\.$/u, '$1')
      .replace(/^(?:[\p{L}-]+\s+){0,4}by\s+(?=\p{Lu})/iu, '')
      // A speaker who reports for a collaboration ("Jane Roe on behalf of the CMS Collaboration",
      // "Jane Roe for the ALICE Collaboration", the proceedings of physics meetings) is the author;
      // the collaboration named after the phrase is no person.
      .replace(ON_BEHALF_OF, '')
      // A student's or staff number set after the name with a dash or in brackets ("Jane Roe -
      // 221102871", "Jane Roe (221102871)", the student papers of many universities) is no part of it.
      .replace(/(\p{L}\.?)\s*(?:[-–—]\s*\d{5,}|\(\s*\d{5,}\s*\))$/u, '$1')
      .trim();
    // A symbol left after a name's superscript marks ("author¹ʼ²*") is one more of its marks.
    if (/^[*†‡§¶#✉]+$/u.test(name) && out.length && currentMarks.length === 0) {
      out[out.length - 1]!.marks.push(...splitMarks(name));
      name = '';
    }
    // So is one set on the line right after them and spaced from the next name ("Lopes,ᵃ* Jane
    // Roe,ᵃ", IUCr): the symbol closes the name before, it does not open this one.
    const leading =
      afterMarks && /^[*†‡§¶#✉]/u.test(current) ? /^([*†‡§¶#✉]+)\s+(?=\p{L})/u.exec(name) : null;
    if (leading && out.length) {
      out[out.length - 1]!.marks.push(...splitMarks(leading[1]!));
      name = name.slice(leading[0].length);
    }
    // Degrees after a name ("Jane Roe MD, PhD¹"): cut from the name, and a piece that holds
    // nothing else gives its marks to the name before it.
    if (name && out.length && isDegreeList(name)) {
      out[out.length - 1]!.marks.push(...currentMarks);
      out[out.length - 1]!.sup ||= currentSup;
      name = '';
      currentMarks = [];
    }
    name = withoutDegrees(name);
    if (name) {
      const prev = out[out.length - 1];
      if (prev && KEPT_SUFFIX.test(name)) {
        prev.name += `, ${name}`;
        prev.marks.push(...currentMarks);
        prev.sup ||= currentSup;
      } else out.push({ name, marks: currentMarks, sup: currentSup });
    } else if (currentMarks.length && out.length) {
      out[out.length - 1]!.marks.push(...currentMarks);
    }
    current = '';
    afterMarks = false;
    currentMarks = [];
    currentSup = false;
  };
  // Plain runs side by side are one text: a line break is a run of its own between them. A star
  // other than the asterisk set at the body's size after a raised mark (GENETICS' "Baumdicker¹,⋆")
  // is read as the asterisk, a note's mark, as the marks themselves are.
  const merged: Run[] = [];
  for (const run of runs) {
    const last = merged[merged.length - 1];
    const text = run.sup ? run.text : normalizeStars(run.text);
    if (last && !last.sup && !run.sup) last.text += text;
    else merged.push({ ...run, text });
  }
  // A membership in brackets holds a comma that would split it into two pieces; it names no one.
  for (const run of merged)
    if (!run.sup) run.text = invertedBylineLines(run.text.replace(MEMBERSHIP_IN_BRACKETS, ''));
  const words = (s: string) =>
    s
      .replace(/[\d*†‡§¶#✉]+$/u, '')
      .trim()
      .split(/\s+/)
      .filter(Boolean).length;
  for (const run of merged) {
    if (run.sup) {
      const marks = splitMarks(run.text);
      if (current.trim()) {
        currentMarks.push(...marks);
        currentSup ||= run.text.trim() !== '';
        // Marks end a name: bylines that set names apart by their marks alone ("Tanya
        // Strydom¹ʼ² Giulio V. Dalla Riva³") have no comma to split on.
        if (marks.length) {
          close();
          afterMarks = true;
        }
      } else if (out.length) {
        out[out.length - 1]!.marks.push(...marks);
        out[out.length - 1]!.sup ||= run.text.trim() !== '';
        afterMarks = marks.length > 0;
      }
      continue;
    }
    // Names are set apart by commas (the Chinese and Japanese "，" and "、" too), semicolons, line breaks, wide gaps (a tab) and "and" ("AND" in a byline set in
    // capitals, French "et" but for "et al.", German "und", Indonesian and Malay "dan", Vietnamese
    // "và", each in lower case: "Dan" is a given name; not Spanish "y" nor Portuguese "e",
    // which join the two surnames of one name); some templates set them apart by a rule or a dot between them (Wiley's
    // "Name1 | Name2", "Name · Name"). A middle dot inside a word is a letter's part (Catalan
    // "l·l"), so dots need a space on both sides.
    const parts = run.text.split(
      /(\s*(?:,|;|，|、|；|\n|\t|\band\b|\bAND\b|\bet\b(?!\s*al\b)|\bund\b|\bdan\b|(?<!\S)và(?!\S)|&|\|)\s*|\s+[·•]\s+)/,
    );
    parts.forEach((part, i) => {
      if (i % 2 === 0) {
        current += part;
        return;
      }
      // A name wrapped at the line's end ("Brooke L" / "Fridley"): a bare line break with one
      // word on either side, no mark before it, after a name (not after an affiliation's
      // "..., USA"), all three in the same case (names in capitals, affiliations not).
      const next = parts[i + 1] ?? '';
      const prev = out[out.length - 1];
      const wrapped =
        /^\s*\n\s*$/.test(part) &&
        currentMarks.length === 0 &&
        current.trim() !== '' &&
        next.trim() !== '' &&
        (words(current) === 1 || words(next) === 1) &&
        (prev === undefined || (isNameLike(prev.name) && inCapitals(prev.name) === inCapitals(current))) &&
        inCapitals(current) === inCapitals(next);
      if (wrapped) current += ' ';
      else close();
    });
  }
  close();
  return dropMemberships(withoutEtAl(familyFirst(out.filter((n) => n.name))));
}

/** A name's initials alone, as a reference list prints them ("P.", "M.P.", "F. J.", "J.-P."). */
const INITIALS_ONLY = /^(?:\p{Lu}\.\s?-?)+$/u;
/** A family name and its initials with a stop where the comma goes: "Roe. J. W.". */
const STOP_FOR_COMMA = /^(\p{Lu}[\p{L}'’-]*\p{Ll})\.\s+((?:\p{Lu}\.\s?-?)+)$/u;

/**
 * A byline printed as a reference list prints names, family name first and initials after a comma
 * ("Roe, J.ᵃ, Lind, M. P.ᵇ"): a comma split it into the family name and the initials, every name
 * in turn. Read so, the pieces alternate (a family name with no initial and no mark, then its
 * initials); each pair is one name, the initials first. A piece that keeps out of the pairs (a
 * name typed with a stop for its comma, "Roe. J.", or one cut off at the page's edge) stays as it
 * is, so long as pairs make most of the line: one stray piece does not undo the others.
 */
function familyFirst(names: BylineName[]): BylineName[] {
  if (names.length < 2) return names;
  const isFamily = (n: BylineName) =>
    n.marks.length === 0 &&
    !/\p{Lu}\./u.test(n.name) &&
    /\p{Ll}/u.test(n.name) &&
    n.name.split(' ').length <= 3;
  const out: BylineName[] = [];
  let paired = 0;
  let slips = 0;
  for (let k = 0; k < names.length; k++) {
    const family = names[k]!;
    const initials = names[k + 1];
    if (initials && isFamily(family) && INITIALS_ONLY.test(initials.name.trim())) {
      out.push({ name: `${initials.name.trim()} ${family.name}`, marks: initials.marks, sup: initials.sup });
      paired += 2;
      k++;
      continue;
    }
    // "Roe. J.": the stop typed for the comma, read so only in a line the pairs prove family-first.
    const slip = STOP_FOR_COMMA.exec(family.name.trim());
    if (slip) slips++;
    out.push(slip ? { ...family, name: `${slip[2]!} ${slip[1]!}` } : family);
  }
  // Every piece paired, or pairs enough that the line is plainly one of family names and initials
  // (three names at least, four pieces in five).
  if (paired === names.length) return out;
  return paired >= 6 && paired + slips >= 0.8 * names.length ? out : names;
}

/** "et al." closing a byline ("Jane Roe, et al.", a draft's short author list): "and others", no name. */
export const ET_AL = /^et\.?\s+al\b\.?$/i;

function withoutEtAl(names: BylineName[]): BylineName[] {
  const last = names[names.length - 1];
  if (names.length < 2 || last === undefined || !ET_AL.test(last.name)) return names;
  const out = names.slice(0, -1);
  out[out.length - 1]!.marks.push(...last.marks);
  return out;
}

/**
 * "Member", "Senior Member", "Life Fellow", "Student Member": a grade of a society's membership;
 * "Members" after the last of several names that share it (IEICE: "..., and Jiro TANAKA, Members").
 */
const GRADE = String.raw`(?:(?:senior|student|graduate student|life|associate|honorary)\s+)?(?:member|fellow)s?`;
const MEMBERSHIP = new RegExp(`^${GRADE}$`, 'i');
/** The grade and its society in brackets after a name ("JANE ROE (Student Member, IEEE)", IEEE Access). */
// No white space before the bracket in the pattern: on a long run of spaces that would try every
// start, quadratic time; the space left behind is trimmed with the name.
const MEMBERSHIP_IN_BRACKETS = new RegExp(String.raw`\(${GRADE},\s*\p{Lu}{2,6}\)`, 'giu');
/**
 * The grade abbreviated and glued to its society ("Jane Roe, M.ASCE¹; ...", ASCE's journals:
 * "M." member, "F." fellow, "A.M." associate, "S.M." student, "Dist.M." distinguished member).
 */
const COMPACT_GRADE = /^(?:(?:A|S|Aff|Dist)\.\s?)?[MF]\.\s?\p{Lu}{2,6}$/u;
/**
 * What a student author is, set after the name ("Jane Roe, Estudiante de Ciencias Geográficas",
 * "Student of Law"): a standing, no name.
 */
const STANDING =
  /^(?:students?|estudiantes?|[ée]tudiant(?:e|s|es)?|alun[oa]s?|alumn[oa]s?|mahasiswa)\s+(?:de|of|d[aeo]s?|du|in)\s/iu;
/** A society set in capitals after the grade: "IEEE", "ACM", "OSA". */
const SOCIETY = /^\p{Lu}{2,6}$/u;

/**
 * IEEE's journals set each author's membership after the name ("Jane Roe, Member, IEEE"): the
 * grade and the society are two comma-separated pieces that are no names. Dropped, they neither
 * count as names nor as bad entries that make the byline look like something else. Marks set on
 * them belong to the name before. IEICE's English byline sets the grade alone, its society
 * understood ("Taro YAMADA, Student Member, Hanako SATO, Member"): dropped as well, as is a
 * student's standing.
 */
function dropMemberships(names: BylineName[]): BylineName[] {
  const out: BylineName[] = [];
  for (let k = 0; k < names.length; k++) {
    const n = names[k]!;
    const society = names[k + 1];
    if (out.length && MEMBERSHIP.test(n.name)) {
      const withSociety = society !== undefined && SOCIETY.test(society.name);
      out[out.length - 1]!.marks.push(...n.marks, ...(withSociety ? society.marks : []));
      if (withSociety) k++;
      continue;
    }
    if (out.length && STANDING.test(n.name)) {
      out[out.length - 1]!.marks.push(...n.marks);
      continue;
    }
    if (out.length && COMPACT_GRADE.test(n.name)) {
      out[out.length - 1]!.marks.push(...n.marks);
      continue;
    }
    out.push(n);
  }
  return out;
}

export function hasMarkSymbol(s: string): boolean {
  return MARK_SYMBOLS.test(s);
}

/** Surname for matching a name mentioned elsewhere ("Dr P Xiong", an email's local part). */
export function surnameOf(name: string): string {
  const words = name
    .replace(/,?\s+(jr\.?|sr\.?|ii|iii|iv)$/i, '')
    .split(/\s+/)
    .filter((w) => /\p{L}{2,}/u.test(w));
  return words[words.length - 1] ?? name;
}

/**
 * How well an email's local part spells a name: 2 when it holds the surname (a short one, "Ng",
 * as a word of its own), 1 another of the name's words, 0.5 its initials, 0 nothing of it.
 */
export function emailMatchesName(email: string, name: string): number {
  const local = foldWords(email.split('@')[0] ?? '').replace(/\s/g, '');
  const parts = foldWords(name).split(' ').filter(Boolean);
  const surname = foldWords(surnameOf(name)).replace(/\s/g, '');
  if (surname.length >= 3 && local.includes(surname)) return 2;
  // A short surname ("Ng", "Li") counts as a word of the address of its own ("kaisze.ng").
  const words = foldWords(email.split('@')[0] ?? '').split(' ');
  if (surname.length >= 2 && words.length >= 2 && words.includes(surname)) return 2;
  if (parts.some((p) => p.length >= 3 && local.includes(p))) return 1;
  const initials = parts.map((p) => p[0]).join('');
  if (initials.length >= 2 && local.startsWith(initials)) return 0.5;
  return 0;
}
