// Section structure from typography: which blocks are headings, where the front matter ends, where
// the references are. Section names are matched only for the few that every discipline shares.
import type { Block } from './types.ts';
import { RAISED_LABEL_OPENING, findEmails, findOrcids, median, submissionField } from './text-utils.ts';

/**
 * The reference list's heading, in English or in the other languages manuscripts are written in
 * (German "Literaturverzeichnis", French "Références", Spanish and Portuguese "Referencias",
 * "Referências bibliográficas", Italian "Bibliografia", Czech and Slovak "Seznam použité literatury",
 * "Použitá literatura", "Zoznam použitej literatúry", Polish "Literatura", Dutch "Referenties",
 * "Literatuurlijst", "Bronnen", Chinese and Japanese "参考文献", Japanese "文献" (IEICE) and "引用文献"
 * (cited literature, a Japanese thesis), Korean
 * "참고문헌", Persian "منابع", Arabic "المراجع", Russian "Список литературы", "Ссылки", "Список
 * источников", Ukrainian "Список літератури", "Список використаних джерел", "Література", Hungarian "Hivatkozások", "Irodalomjegyzék", Greek "Βιβλιογραφία", Turkish
 * "Kaynaklar", Indonesian "Daftar Pustaka", Vietnamese "Tài liệu tham khảo", Swedish, Norwegian and
 * Danish "Referenser", "Referanser", "Litteratur", "Källor", Finnish "Lähteet", Lithuanian
 * "Literatūros sąrašas", "Naudota literatūra", Latvian "Literatūras saraksts"), with a full stop after it as a draft typed by hand may set one ("4. Ссылки."). The list is the last such heading, so a
 * section of that name earlier in the body ("3.1 Literaturverzeichnis", a template's guide to
 * citing) does not open it.
 */
/** A list heading that names the language of its sources ("English References", "מקורות בעברית"). */
const BY_LANGUAGE =
  /\b(?:english|hebrew|arabic|persian|russian|chinese|japanese|korean|foreign)\b|\sב\p{L}{3,10}ית$/iu;
// Its number may be a chapter's set with a zero after it ("7.0 Bibliography", a thesis template's
// chapters numbered like their sections).
// The DFG's project description names its list by the form's words, qualified ("3 Project- and
// subject-related list of publications", "3 Projekt- und themenbezogenes Literaturverzeichnis").
// Czech lists are headed by their sources too ("Literatura a další zdroje", "Použité zdroje"),
// Bulgarian ones by the literature used ("Използвана литература", "Използвани източници").
export const REFERENCES_HEADING =
  /^(?:[\dIVX]+(?:\.0)?\.?\s*)?(?:(?:english|hebrew|arabic|persian|russian|chinese|japanese|korean|foreign)[- ]language\s+|(?:english|hebrew|arabic|persian|russian|chinese|japanese|korean)\s+(?=references?$|bibliography$))?(?:(?:cited )?references?(?: and notes| cited)?|bibliography|literature(?: cited)?|works? cited|cited literature|citations|(?:projekt- und themenbezogenes )?literatur(?:verzeichnis)?|(?:project- and subject-related )?list of (?:publications|references)|quellenverzeichnis|bibliographie|bibliograf[ií]a|r[ée]f[ée]rences(?: bibliographiques)?|refer[eê]ncias(?: bibliogr[aá]ficas)?|referencias(?: bibliogr[aá]ficas)?|riferimenti bibliografici|(?:(?:seznam|zoznam) použit(?:é|ej) )?literat[uú]r[ay](?: a (?:další|ostatní|jiné) (?:zdroje|prameny))?|použitá literatura|(?:seznam )?použit(?:é|ých) (?:zdroje|zdrojů|pramen[yů])|bibliografie|referenties|literatuur(?:lijst)?|bronnen(?:lijst)?|(?:参\s*考\s*|引\s*用\s*)?文\s*献|참\s*고\s*문\s*헌|منابع|مراجع|المراجع|فهرست منابع|список(?: использованной)? литературы|(?:използвана|цитирана) литература|използвани източници|литература|библиография|ссылки|список (?:использованных )?источников|источники|список (?:використаної )?літератури|список використаних джерел|використані джерела|література|hivatkozások|irodalomjegyzék|(?:felhasznált )?irodalom|βιβλιογραφία|αναφορές|kaynak(?:lar|ça)|daftar pustaka|tài liệu tham khảo|referenser|referanser|litteratur(?:liste|förteckning)?|källor|lähteet|kirjallisuus|literatūr(?:os|as) (?:ir šaltinių )?(?:sąrašas|saraksts)|(?:naudota |izmantotā )?literatūra|(?:רשימת )?מקורות(?: ב\p{L}{3,10}ית)?|ביבליוגרפיה|רשימה ביבליוגרפית)\s*[.:：]?$/iu;
/**
 * A second list under its own heading after the methods section, as Nature's layout prints it
 * ("Methods References", numbered on from the first list): the paper's references too.
 */
const METHODS_REFERENCES_HEADING = /^(?:online\s+)?methods\s+references?\s*[.:]?$/i;
/**
 * A float's caption by its label: "Figure 2.", "Table S1:", and an algorithm's ("Algorithm 1
 * Compute the mean ...", LaTeX's algorithm package, which sets no stop after the number); the
 * label alone on its line ("Figure 1:") is one too.
 */
export const CAPTION_LABEL =
  /^(?:(?:supplementary\s+)?(?:fig(?:ure)?\.?|table)\s+[A-Z]?\d+[.:](?:\s|$)|algorithm\s+\d+[.:]?\s+[A-Z])/i;
/**
 * APA 7's label of a table or figure: alone on its line, in bold, with no stop, over the float's
 * title on the next line ("Table 1", then "Summary of Scores by Group"). A manuscript sets its
 * tables and figures after the references so, one to a page; no entry of a list is that alone.
 */
const FLOAT_LABEL_ALONE = /^(?:table|figure)\s+[A-Z]?\d{1,3}$/i;
/** A float's caption by its label, with a stop after the number or alone on its line (APA 7). */
function floatLabel(block: Block): boolean {
  return (
    CAPTION_LABEL.test(block.text) || (block.lines.length === 1 && FLOAT_LABEL_ALONE.test(block.text.trim()))
  );
}
/**
 * The label over the captions a draft sets after its references ("Figure captions:", "Figure
 * legends", "Legends to figures", "Tables"), alone on its line; no reference is only that.
 */
const CAPTIONS_LABEL =
  /^(?:(?:figure|table)s?\s+(?:captions?|legends?|titles?)|(?:captions?|legends?)\s+(?:to|for|of)\s+(?:the\s+)?(?:figures?|tables?)|(?:list\s+of\s+)?(?:figures|tables)(?:\s+and\s+(?:figures|tables))?)\s*:?$/i;
/**
 * An entry of a table of contents as a PDF prints it: its name, dot leaders, its page number
 * ("Abstract ........ 6", "1.2 Methods…… 12", a front-matter page in roman numerals). No label of
 * a part is one: the part is on the page it names.
 */
// The leaders read from where their run starts (a look-behind: a run that ends in a page number
// from inside ends in one from its start): a paragraph of 40,000 dots, tested as every block is, was
// read again from each dot (2 s; 160,000: over 30 s).
export const CONTENTS_LINE =
  /(?<!\.\s?)(?:\.\s?){4,}\s*(?:\d{1,4}|[ivxlcdm]{1,7})\s*$|(?<!…)…{2,}\s*(?:\d{1,4}|[ivxlcdm]{1,7})\s*$/iu;
/** Word's styles of a table of contents' entries and of a list of figures' ("toc 1", "table of figures"). */
export const CONTENTS_ENTRY_STYLE = /^(?:toc \d|table of figures)$/i;
/** An entry of a table of contents: a Word paragraph in an entry's style, or a PDF's `CONTENTS_LINE`. */
export function isContentsEntry(b: Block): boolean {
  return CONTENTS_ENTRY_STYLE.test(b.styleName?.trim() ?? '') || CONTENTS_LINE.test(b.text);
}
export const ABSTRACT_LABEL = /^(?:abstract|summary)\b\s*[:.—–-]?\s*/i;
/**
 * "Keywords:", "Index Terms—", French "Mots-clés" (or "Mots clefs"), Dutch "Trefwoorden" /
 * "Sleutelwoorden" / "Kernwoorden", Italian "Parole chiave", Portuguese "Palavras-chave", Spanish
 * "Palabras clave", Swedish "Nyckelord", Norwegian "Nøkkelord" / "Stikkord" / "Emneord", Danish
 * "Nøgleord", Finnish "Avainsanat", Chinese "关键词：", Japanese "キーワード", Korean "주제어", Persian
 * "کلمات کلیدی" / "واژه‌های کلیدی" / "کلیدواژه‌ها", Arabic "الكلمات المفتاحية" / "كلمات مفاتيح", Urdu
 * "کلیدی الفاظ", Hebrew "מילות מפתח", Hindi "मुख्य शब्द" / "कुंजी शब्द".
 */
export const KEYWORDS_LABEL =
  /^(?:key\s?-?words?|index terms|mots[- ]cl(?:[ée]s|efs?)|(?:tref|sleutel|kern)woorden|parole[- ]chiave|palavras[- ]chave|palabras[- ]clave|nyckelord|n[øo]kkelord|stikkord|emneord|n[øo]gleord|avainsanat|ключевые\s+слова|ключові\s+слова|关\s*键\s*[词字]|關\s*鍵\s*[詞字]|キーワード|키워드|주제어|کلمات\s+کلیدی|واژه[\u200c\s]?های\s+کلیدی|کلیدواژه[\u200c\s]?ها|(?:ال)?كلمات\s+(?:ال)?(?:مفتاحية|مفاتيح)|کلیدی\s+الفاظ|מילות\s+מפתח|(?:मुख्य|कुंजी)\s+शब्द)\s*[:：.—–-]?\s*/i;

/**
 * A line opened by the keywords label, which a separator ends, or its own line, or terms: not a
 * sentence whose subject the word is ("Keywords are terms used for indexing, ...", a thesis
 * template's advice in its English abstract). Without a separator the words after the label read
 * as a sentence when the first is in lower case and no term's separator (comma, semicolon, middle
 * dot, bar, slash) comes among the first five of five or more.
 */
export function opensWithKeywordsLabel(text: string): boolean {
  const m = KEYWORDS_LABEL.exec(text);
  if (!m) return false;
  if (/[:：.—–-]\s*$/u.test(m[0])) return true;
  const words = text.slice(m[0].length).trim().split(/\s+/);
  return !(words.length >= 5 && /^\p{Ll}/u.test(words[0]!) && !/[,;·•|/]/u.test(words.slice(0, 5).join(' ')));
}

/**
 * A keywords line with no label: three terms or more, of four words at most each, set apart by
 * vertical bars ("networks | heritability | common garden", PNAS's keywords under its abstract).
 */
export function isKeywordTermsLine(text: string): boolean {
  if (text.length > 300) return false;
  const terms = text.trim().split(/\s+\|\s+/);
  return (
    terms.length >= 3 && terms.every((t) => /^\p{L}[\p{L}\p{N}'’-]*(?:\s[\p{L}\p{N}'’-]+){0,3}$/u.test(t))
  );
}

export function isHeading(block: Block): boolean {
  if (block.styleLevel !== null && block.styleLevel >= 1) return true;
  if (block.styleLevel === 0) return false;
  const text = block.text;
  const words = text.split(/\s+/).length;
  if (text.length > 120 || words > 14 || block.lines.length > 2) return false;
  if (/[,;]$/.test(text) || /@/.test(text)) return false;
  if (/[.]$/.test(text) && !/^[\dIVX]+\.\s*\S+$/.test(text)) return false;
  if (!/^[\p{Lu}\d]/u.test(text)) return false;
  return (block.emphasis && block.relSize >= 0.95) || block.relSize >= 1.15;
}

const SECTION_NUMBER = /^(?:\d+|[A-Z]|[IVX]+)(?:\.\d+)*\.?\s+(?=\p{Lu})/u;
/** An entry's number as SECTION_NUMBER reads it, whatever the case of the word after it. */
const LISTED_NUMBER = /^\d+(?:\.\d+)*\.?\s+/u;

/**
 * Notes a publisher sets after the reference list, each opening with its label and a colon
 * ("Disclaimer/Publisher's Note: The statements ..."). No entry opens with one of these labels, and
 * the note is no heading by size, so without this test it runs on as part of the last entry.
 */
const BACK_MATTER_NOTE =
  /^(?:disclaimer(?:\/publisher['’]s note)?|publisher['’]s note|conflicts? of interests?|competing interests?|declaration of (?:competing )?interests?|author contributions?|data availability(?: statement)?|institutional review board statement|informed consent statement|supplementary materials?|funding|acknowledge?ments?)\s?:/i;

/**
 * An appendix's heading after the list, alone or run into its first sentence ("Appendix A. Proofs
 * of ...", "APPENDIX B: DATA", "Appendices"; Portuguese and Spanish "APÊNDICE A – Título", "ANEXO
 * B – ...", ABNT's dash after the letter; French "Annexe"), or Japanese "付録" alone (letter-spaced "付 録"). Journals set it at the body's size, so size does not
 * tell it; no entry opens with the word and a label.
 */
const APPENDIX_HEADING =
  /^(?:(?:appendix|ap[êé]ndice|anexo|annexe)(?:\s+[A-Z\d]{1,3})?(?:\s?[.:–—]\s+\p{Lu}|[.:]?$)|(?:appendices|ap[êé]ndices|anexos|annexes)[.:]?$|付\s*録$)/iu;

/**
 * A chart's tick labels: numbers and nothing else ("0", "−6.8 −6.6 −6.4", "10%"), in any size; a
 * chart's axis set in the text's size reads as blocks of the list before its caption.
 */
const AXIS_TICKS = /^[-−–+]?\d+(?:[.,]\d+)?%?(?:\s*[-−–+]?\d+(?:[.,]\d+)?%?)*$/u;

/**
 * A biography's opening: a name of two to four words, maybe a member grade in brackets, then a
 * verb in lower case ("Jane Q. Keeper (M'05) received").
 */
const BIOGRAPHY_OPENING =
  /^(?:\p{Lu}[\p{L}.'’-]*\s){1,3}\p{Lu}[\p{L}'’-]+(?:\s\([^()]{1,40}\))?\s+\p{Ll}{2,}\s/u;
const NUMBER_LABEL = /^(?:\[\d{1,4}\]|\d{1,4}\.)\s/;
/** An entry's bracketed number inside a block (a PDF's block may open with the entry before's last lines). */
const BRACKET_LABEL_INSIDE = /(?:^|\s)\[\d{1,4}\]\s/;

/**
 * An author's biography after a numbered list (an IEEE journal's last page): a paragraph of five
 * lines or more, none opened by an entry's number, whose first line names a person and goes on
 * with a verb ("Jane Q. Keeper (M'05) received the B.S. degree ..."), after an entry closed by its
 * stop, in a list numbered in the last blocks read. A numbered entry's lines run on under its
 * number, and the part of one broken over a column is a few lines at most.
 */
function biographyAfterList(block: Block, listed: string[]): boolean {
  const last = listed[listed.length - 1]?.trim() ?? '';
  return (
    block.lines.length >= 5 &&
    /\.$/.test(last) &&
    listed.slice(-3).some((t) => NUMBER_LABEL.test(t.trim()) || BRACKET_LABEL_INSIDE.test(t)) &&
    BIOGRAPHY_OPENING.test(block.lines[0]!.text.trim()) &&
    !block.lines.some((l) => NUMBER_LABEL.test(l.text.trim()))
  );
}

/**
 * Stricter test inside a reference list, where bold names or journal titles are common. `listed`
 * holds the texts of the list's blocks so far: an entry set in bold whose number goes on
 * from theirs ("5. Foundations of ..."). `listSize` is the entries' font size (relative to the
 * body's): a short block set clearly larger than them is a heading even with a digit or a final
 * period in it ("A PROOF OF LEMMA 3", "A. You can have an appendix here."), as appendix headings
 * after natbib lists are.
 */
export function endsReferenceList(
  block: Block,
  listed: string[] = [],
  listSize?: number,
  next?: Block,
): boolean {
  // A Word list may number its entries with paragraphs of their own in a heading style, larger
  // than the entries ("1", the entry under it, "2", ...): the number after the list's last one
  // goes on with it.
  if (nextEntryNumber(block, listed)) return false;
  if (betweenNumberedEntries(listed, next)) return false;
  if (block.styleLevel !== null && block.styleLevel >= 1) return true;
  // Figure and table captions set after the list (a draft that puts its figures at the end)
  // open with their label; no reference does.
  if (floatLabel(block) || CAPTIONS_LABEL.test(block.text.trim())) return true;
  if (BACK_MATTER_NOTE.test(block.text)) return true;
  if (APPENDIX_HEADING.test(block.text)) return true;
  if (authorAddress(block, next)) return true;
  if (contactLabelled(block, next)) return true;
  if (biographyAfterList(block, listed)) return true;
  if (
    listSize !== undefined &&
    block.relSize >= 1.15 &&
    block.relSize >= listSize + 0.15 &&
    block.lines.length <= 2 &&
    block.text.length <= 120 &&
    /^[\p{Lu}\d]/u.test(block.text)
  )
    return true;
  // A URL set in a typewriter face reads as emphasis, and a short line of one ("URL https://...
  // Retrieved") as a heading; no heading holds a URL.
  if (!isHeading(block) || /:\/\/|\bwww\./.test(block.text)) return false;
  // A line in the entries' size under an entry left in mid-sentence (its last block ends on a word:
  // "... the Lexeme-Lection-Lect Triangle, Lexical") goes on with that entry, though a face read
  // wrongly as bold makes it look like a heading (a Japanese PDF's Latin text).
  const last = listed[listed.length - 1]?.trim() ?? '';
  if (
    listSize !== undefined &&
    Math.abs(block.relSize - listSize) <= 0.03 * listSize &&
    /\p{Ll}$/u.test(last) &&
    !SECTION_NUMBER.test(block.text)
  )
    return false;
  // A block that ends in a word broken by a hyphen goes on in the next line: a journal's name set
  // in italics on a line of its own ("Meta-Analysis. Organizational Research Meth-") reads as an
  // emphasised short block, but no heading breaks a word at its end.
  if (/\p{L}-$/u.test(block.text.trim())) return false;
  // Nor does one whose next block goes on with its sentence: a word in lower case or a comma
  // ("Psychological Methods" over ", 10(4), 444–467."), where a heading's section opens anew.
  if (next && /^(?:\p{Ll}{2}|[,;])/u.test(next.text.trim())) return false;
  // A section number ("4. Appendix", "A.1 Proofs") may open a heading that has no other digit,
  // comma or period; digits elsewhere (a volume in bold) do not make one.
  const numbered = SECTION_NUMBER.exec(block.text);
  const text = numbered ? block.text.slice(numbered[0].length) : block.text;
  if (numbered) {
    if (text.includes('.')) return false;
    const n = Number(/^\d+/.exec(numbered[0])?.[0] ?? NaN);
    const form = (s: string) => s.replace(/\d+/, '#').trim();
    // The entry before may open on a word in lower case after its number ("56. leeping/geomeTRIC",
    // a repository's name), which no heading's number is followed by: its number still counts.
    const goesOn = listed.some((l) => {
      const m = LISTED_NUMBER.exec(l);
      return m !== null && Number(/^\d+/.exec(m[0])?.[0]) === n - 1 && form(m[0]) === form(numbered[0]);
    });
    if (goesOn) return false;
  }
  return !/\d/.test(text) && !/,/.test(text) && text.split(/\s+/).length <= 6;
}

/** A block that is a number alone, the one after the last such block the list has read. */
function nextEntryNumber(block: Block, listed: string[]): boolean {
  const m = /^(\d{1,4})$/.exec(block.text.trim());
  if (!m) return false;
  const last = listed.findLast((t) => /^\d{1,4}$/.test(t.trim()));
  return last !== undefined && Number(m[1]) === Number(last.trim()) + 1;
}

/**
 * A block between two entries of a bracket-numbered list, the next block opening with the number
 * after the last one listed ("[5] ..." listed, "[6] ..." next): a piece of a figure read in among
 * the entries ("800 2005.", a chart's tick glued to an entry's last line), not the list's end.
 */
function betweenNumberedEntries(listed: string[], next: Block | undefined): boolean {
  const opens = /^\[(\d{1,4})\]/.exec(next?.text.trim() ?? '');
  if (!opens) return false;
  const holder = listed.findLast((t) => /\[\d{1,4}\]/.test(t)) ?? '';
  const numbers = [...holder.matchAll(/\[(\d{1,4})\]/g)];
  const last = numbers[numbers.length - 1];
  return last !== undefined && Number(opens[1]) === Number(last[1]) + 1;
}

/** A personal name alone on its line: two to four capitalised words, initials among them. */
const NAME_ALONE = /^\p{Lu}[\p{Ll}'’-]+(?:\s(?:\p{Lu}\.|\p{Lu}[\p{Ll}'’-]+)){1,3}$/u;

/**
 * An author's address printed after the list (The R Journal, JSS): the name alone on the first
 * line, the address under it, and an email or ORCID in the block or the next one. No entry is a
 * name alone over an address.
 */
function authorAddress(block: Block, next?: Block): boolean {
  if (!NAME_ALONE.test(block.lines[0]?.text.trim() ?? '')) return false;
  const contact = (b: Block) =>
    findEmails(b.text).length > 0 ||
    findOrcids(b.text).length > 0 ||
    b.links.some((l) => /^mailto:|orcid\.org\//i.test(l));
  return contact(block) || (next !== undefined && next.text.length < 200 && contact(next));
}

/**
 * amsart prints each author's address after the list, labelled lines under it ("Email address:",
 * "Current address:"): no entry opens on such a label, holds a line that does, or is followed by one.
 */
const CONTACT_LABEL = /^(?:e-?mail\s+address(?:es)?|current\s+address)\s*:/iu;

function contactLabelled(block: Block, next?: Block): boolean {
  if (CONTACT_LABEL.test(block.text.trim())) return true;
  // The address and its label read as one block: a line of it opens on the label.
  if (block.lines.length <= 4 && block.lines.some((l) => CONTACT_LABEL.test(l.text.trim()))) return true;
  return next !== undefined && block.text.length <= 200 && CONTACT_LABEL.test(next.text.trim());
}

export function isProse(block: Block): boolean {
  return block.text.length > 250 && !/@|\b\d{4}-\d{4}-\d{4}-\d{3}[\dX]\b/.test(block.text);
}

export interface ReferenceRange {
  start: number;
  end: number;
  headingIndex: number | null;
  /** Lines of the start block before the list: 1 when the heading was set into the list's block. */
  skipLines: number;
  /**
   * Floats (a table or figure: caption, then cells) a layout set between two entries, as block
   * ranges [start, end): inside the list, and part of the document's text, but no entries.
   */
  floats: Array<{ start: number; end: number }>;
}

/** The blocks of a reference list that hold its entries: its range without the floats set in it. */
export function entryBlocks(blocks: readonly Block[], range: ReferenceRange): Block[] {
  return blocks
    .slice(range.start, range.end)
    .filter((_, k) => !range.floats.some((f) => range.start + k >= f.start && range.start + k < f.end));
}

/** The first entry of a numbered list: "[1]", "1.", "(1)". */
const FIRST_ENTRY = /^(?:\[1\]|1\.|\(1\))\s/;
/**
 * A first entry numbered by a bare "1" (RSC's lists): "1 G. Boyd, A. Adamson and ...", or "1 Boyd,
 * G.". A bare number opens body lines too ("1 Introduction"), so a name with initials must follow.
 */
const BARE_FIRST_ENTRY = /^1\s+(?:(?:\p{Lu}\.\s?)+\p{Lu}[\p{L}'’-]+|\p{Lu}[\p{L}'’-]+,\s\p{Lu}\.)/u;
/** Entry markers a list without a heading is recognised by. */
// "1. Name", or "1.Name" with no space after the stop (a Word list typed by hand); a space before.
// Or a raised number read glued to the word after it ("1W. Chen", AIP's REVTeX).
const ENTRY_MARKERS = [
  /^\[(\d{1,4})\]\s/,
  /^\s?(\d{1,4})\.(?:\s+\S|(?=\p{Lu}\p{Ll}))/u,
  RAISED_LABEL_OPENING,
];
/** What a reference carries and a numbered list item in the body seldom does. */
const YEAR = /\b(?:1[5-9]\d\d|20\d\d)\b/;
// Or initials after the surname with no stops, spaced as IOP's and Vancouver styles set them
// ("Roe J A, Fox T and ...", "Lee B C et al 2001").
const NAME_SHAPE =
  /(?:^|[\s,(])\p{Lu}\.\s?|\b\p{Lu}[\p{L}'’-]+,\s\p{Lu}|\b\p{Lu}\p{Ll}[\p{L}'’-]*(?:\s\p{Lu}){1,3}(?:,|\s(?:et al|and)\b)/u;
/** The most lines one entry of a headless list may take before its next number. */
const MAX_ENTRY_LINES = 20;

/**
 * A line that opens an author-year or numbered entry: "Surname, I.", "Surname, Firstname", "[4]",
 * "4.", or initials before the surname as natbib's plain styles set them ("T. D. Roe. Title ...",
 * "T.-Y. Roe and B. Poe.", "A. B. Roe, C. Poe, and ...").
 */
function opensEntry(text: string): boolean {
  return (
    /^(?:\[\d{1,4}\]|\d{1,4}\.)\s/.test(text) ||
    /^\p{Lu}[\p{L}'’-]+,\s(?:\p{Lu}\.|\p{Lu}\p{Ll}+)/u.test(text) ||
    // Initials after the surname with no stops, as jss.bst and Vancouver styles set them: "Roe AB,
    // Poe C (2019)", "Roe AB (2019).", "Roe AB. Title".
    /^\p{Lu}[\p{L}'’-]+\s\p{Lu}{1,3}(?:,\s\p{Lu}[\p{L}'’-]+\s\p{Lu}{1,3}\b|\s\(|\.\s)/u.test(text) ||
    /^\p{Lu}\.(?:\s?-?\p{Lu}\.)*\s\p{Lu}[\p{Ll}'’-]+(?:\s\p{Lu}[\p{Ll}'’-]+)?(?:[.,]\s|\s(?:and|&)\s)/u.test(
      text,
    )
  );
}

/**
 * A reference list with no heading (REVTeX prints none): the last run of entries numbered 1, 2,
 * 3, ... at line starts, each within a few lines of the one before, that read as references (most
 * carry a year and a name with initials or "Surname, "). A numbered list in the body rarely has
 * both. The run must come late in the document (or count ten entries or more) and count at least
 * three entries, except a bracketed run that closes the document, which may be a single entry.
 */
function headlessList(blocks: Block[]): { start: number; last: number } | null {
  interface Run {
    start: number;
    last: number;
    texts: string[];
  }
  const all: Run[] = [];
  for (const re of ENTRY_MARKERS) {
    let run: Run | null = null;
    let expected = 0;
    let sinceMarker = 0;
    blocks.forEach((b, i) => {
      b.lines.forEach((line, j) => {
        const m = re.exec(line.text);
        const n = m ? Number(m[1]) : NaN;
        sinceMarker++;
        if (run && sinceMarker > MAX_ENTRY_LINES) run = null;
        if (n === 1 && j === 0) {
          run = { start: i, last: i, texts: [line.text] };
          all.push(run);
          expected = 2;
          sinceMarker = 0;
        } else if (run && n === expected) {
          run.texts.push(line.text);
          run.last = i;
          expected++;
          sinceMarker = 0;
        } else if (run && run.texts.length && sinceMarker <= 3) {
          // The first lines of an entry hold its names and often its year.
          run.texts[run.texts.length - 1] += ` ${line.text}`;
        }
      });
    });
  }
  // The last block that could not follow a closing list: another entry, or a body paragraph.
  let lastBody = -1;
  blocks.forEach((b, i) => {
    if (opensEntry(b.text) || b.text.length >= 400) lastBody = i;
  });
  all.sort((a, b) => b.start - a.start);
  for (const run of all) {
    // A long run of reference-shaped entries is the list wherever it stands (a letter's list comes
    // before its Methods, whose tables and text fill the document's second half).
    const long = run.texts.length >= 10;
    if (run.start < blocks.length / 2 && !long) continue;
    const bracketed = run.texts[0]!.startsWith('[');
    const closesDocument = run.last >= lastBody;
    if (run.texts.length < 3 && !(bracketed && closesDocument)) continue;
    const referenceLike = run.texts.filter((t) => YEAR.test(t) && NAME_SHAPE.test(t)).length;
    if (referenceLike < 0.6 * run.texts.length) continue;
    return { start: run.start, last: run.last };
  }
  return null;
}

/**
 * A float (table or figure: its caption, then its cells) that a layout sets between two entries
 * of the list. It ends the list unless reference-shaped entries follow before the next heading;
 * then the float's blocks are skipped. Returns the index of the block the list resumes at.
 */
function resumeAfterFloat(blocks: Block[], at: number): number | null {
  const limit = Math.min(blocks.length, at + 80);
  const page = blocks[at]!.page;
  // A table on a page of its own has row labels in bold ("Glass", "Olivine") that look like
  // headings: on the caption's page they end nothing, when the list resumes on a later page and
  // no prose stands on the caption's page (a heading there opens a section of text).
  let rowLabels = false;
  for (let j = at + 1; j < limit; j++) {
    const b = blocks[j]!;
    if (floatLabel(b)) continue;
    if (b.page === page && isProse(b) && rowLabels) return null;
    if (endsReferenceList(b)) {
      if (b.page !== page || !rowLabelOnly(b)) return null;
      rowLabels = true;
      continue;
    }
    if (rowLabels && b.page === page) continue;
    // An entry's opening line, its year in the block or, where every line is a block of its own
    // (a layout with line numbers in the margin), in the next block that goes on with it.
    const next = blocks[j + 1];
    // Or a DOI: a style prints "????" for a year the entry lacks (jss.bst), and a DOI is no prose's.
    const year =
      YEAR.test(b.text) ||
      /\b10\.\d{4,9}\//.test(b.text) ||
      (b.lines.length === 1 &&
        next !== undefined &&
        !opensEntry(next.lines[0]?.text ?? '') &&
        !CAPTION_LABEL.test(next.text) &&
        YEAR.test(next.text));
    if (opensEntry(b.lines[0]?.text ?? '') && year) return j;
    // A figure's caption set between the halves of an entry broken over a page: the block under it
    // opens with the entry's last lines, then opens entries of its own.
    if (b.lines.length >= 3 && b.lines.some((l) => opensEntry(l.text)) && YEAR.test(b.text)) return j;
    // A two-line block of a two-column list broken by a figure set across the page's top (REVTeX):
    // the entry's last line, its year in it, then the next entry's bracketed number.
    if (
      b.lines.length === 2 &&
      YEAR.test(b.lines[0]!.text) &&
      /^\[\d{1,4}\]\s/.test(b.lines[1]!.text) &&
      !CAPTION_LABEL.test(b.text)
    )
      return j;
  }
  return null;
}

/**
 * A block that ends the list by its look alone (short, emphasised, at the body's size), and by
 * nothing it says: no outline level, no section's name, no note's label, no appendix, no address.
 */
function rowLabelOnly(b: Block): boolean {
  return (
    b.styleLevel === null &&
    b.relSize < 1.15 &&
    b.lines.length === 1 &&
    b.text.length <= 40 &&
    !CAPTIONS_LABEL.test(b.text.trim()) &&
    !BACK_MATTER_NOTE.test(b.text) &&
    !APPENDIX_HEADING.test(b.text) &&
    !/^(?:acknowledge?ments?|funding|notes?|data availability|conflicts? of interests?)\b/i.test(
      b.text.trim(),
    ) &&
    !SECTION_NUMBER.test(b.text)
  );
}

/**
 * A table's cells set inside the list with no caption of their own in it (the caption stood above
 * the column the list opens in): plain figures, one with a decimal point at least ("0.816 4.713"),
 * or a dash alone. An entry's number set apart ("12.", "[3]") has no decimal figure, and a DOI's
 * broken-off end ("10.1145/20.30.") is not plain figures.
 */
const CELL = /^(?:[−–+-]?\d+(?:[.,]\d+)?%?|[−–—-])$/;
function tableCells(block: Block): boolean {
  const cells = block.text.trim().split(/\s+/);
  return (
    cells.every((c) => CELL.test(c)) &&
    (cells.length === 1 ? /^[−–—-]$/.test(cells[0]!) : cells.some((c) => /\d[.,]\d/.test(c)))
  );
}

/** A line of dots alone (". . .", "…"): a part of a draft left to be written. */
const ELIDED = /^(?:\.\s?){3}$|^…$/;

/**
 * A heading line set inside a block and followed at once by the list's first entry. When the block
 * is itself a heading that the line closes (an empty section's heading stacked over the list's,
 * "Data availability" then "References", read as one bold block), an author-year entry opens the
 * list as well as a numbered one.
 */
function headingInBlock(blocks: Block[], i: number): number | null {
  const block = blocks[i]!;
  const lines = block.lines;
  for (let k = 1; k < lines.length; k++) {
    const text = lines[k]!.text.trim();
    if (text.length >= 60 || !REFERENCES_HEADING.test(text)) continue;
    // A line of dots alone stands for a section left empty in a draft (". . ."): the list's first
    // entry is the line after it.
    const after = [...lines.slice(k + 1), ...(blocks[i + 1]?.lines ?? [])].map((l) => l.text);
    const next = after.find((t) => !ELIDED.test(t.trim())) ?? '';
    if (FIRST_ENTRY.test(next) || BARE_FIRST_ENTRY.test(next)) return k;
    if (k === lines.length - 1 && isHeading(block) && opensEntry(next)) return k;
  }
  return null;
}

/**
 * A footnote at the foot of a page the list runs over (a note of the body's last page, "1https://
 * ..."): the page's last block, set smaller than the entries, opening with its mark. Read into the
 * list, it would run on as part of the entry before it.
 */
function pageFootNote(blocks: Block[], k: number, entrySize: number): boolean {
  const b = blocks[k]!;
  const next = blocks[k + 1];
  return (
    next !== undefined &&
    next.page > b.page &&
    b.text.length < 300 &&
    b.relSize < 0.92 * entrySize &&
    /^(?:\d{1,2}|[*†‡§¶])\s?\S/u.test(b.text)
  );
}

/**
 * A list's label alone in its block ("[Pav05]", "[STU+02]", "[12]"): the labels of a list set in a
 * column of their own, wide of the entries, are read before them as blocks of their own.
 */
const ENTRY_LABEL_ALONE = /^\[[\p{L}\d+]{1,12}\]$/u;

/**
 * A "Reference" heading that heads a table's column (a table after the list that cites a source
 * for each row): the cells under it are short lines ("Roe et al., 2012", a place, a number), where
 * entries of a list are sentences, and most cells carry no year, where nearly every entry does.
 * Eight short blocks in a row under it, fewer than half with a year, say so.
 */
function overTableCells(blocks: Block[], i: number): boolean {
  const under = blocks.slice(i + 1, i + 9);
  return (
    under.length === 8 &&
    !under.every((b) => ENTRY_LABEL_ALONE.test(b.text.trim())) &&
    under.every((b) => b.text.trim().length < 60) &&
    under.filter((b) => YEAR.test(b.text)).length < 4
  );
}

/**
 * A line of code typed at a console's prompt ("> fit <- lm(y ~ x)", "R> ", ">>> "), as knitr and
 * Sweave set a chunk with the chart it draws: a figure's body at the entries' size, never an entry.
 */
const CONSOLE_PROMPT = /^(?:R>|>>>|>) \S/;

/**
 * A book class's running head over the list's second page, one short line, its page number beside
 * the list's name ("66 Referências", memoir's even pages), kept where the name's chapter is too short for
 * the head to recur: the first block of its page, smaller than the body, with the list's own
 * heading on one of the two pages before it; or with no number, the heading's own words. The list
 * opens under that heading, not under the head, which had left it only the entries of its last page.
 */
function listRunningHead(blocks: Block[], i: number): boolean {
  const b = blocks[i]!;
  // One short line: a list set smaller than the body has blocks of entries that also end on a
  // number ("..., 2022") at a page's top.
  // Or the list's name alone, as the heading over the first page prints it (ThuThesis: "参考文献"
  // at each page's top, the page numbers at the foot).
  const head = b.text.trim();
  const numbered = /^\d+\s+\S|\S\s+\d+$/.test(head);
  if (!(b.relSize < 1 && b.lines.length === 1 && head.length < 60 && blocks[i - 1]?.page !== b.page))
    return false;
  // The head may be the name in capitals (a book class's \MakeUppercase: "BIBLIOGRAPHY" over
  // "Bibliography"), and a long list prints it on page after page: the same head opening an
  // earlier page is this list's too, and the heading is looked for two pages before that one.
  const same = (t: string) => t.trim().toLocaleLowerCase() === head.toLocaleLowerCase();
  let from = b.page - 2;
  for (let k = i - 1; k >= 0 && blocks[k]!.page >= from; k--) {
    const earlier = blocks[k]!;
    if (
      earlier.relSize > b.relSize &&
      earlier.text.length < 60 &&
      REFERENCES_HEADING.test(earlier.text.trim()) &&
      (numbered || same(earlier.text))
    )
      return true;
    if (!numbered && same(earlier.text) && blocks[k - 1]?.page !== earlier.page) from = earlier.page - 2;
  }
  return false;
}

/**
 * A thesis's back cover after the list: the document's last page, a few short lines and nothing
 * else (the university's name, its postal address, telephone, web address), in a type of another
 * size than the entries', and no year on any line, where every entry gives one or goes on in the
 * entries' type. The list ends on the page before.
 */
function backCover(blocks: readonly Block[], i: number, listSize: number): boolean {
  const b = blocks[i]!;
  if (i === 0 || blocks[i - 1]!.page >= b.page) return false;
  const page = blocks.slice(i);
  if (page.some((x) => x.page !== b.page)) return false;
  const lines = page.flatMap((x) => x.lines);
  return (
    lines.length <= 8 &&
    lines.every((l) => l.text.length <= 60 && !YEAR.test(l.text)) &&
    page.every((x) => Math.abs(x.relSize - listSize) > 0.1 * listSize)
  );
}

/** A back-of-book index's page locators closing an entry ("référence, 13", "citation, 9, 10-12"). */
const INDEX_LOCATORS = /,\s*\d{1,4}(?:[-–]\d{1,4})?(?:,\s*\d{1,4}(?:[-–]\d{1,4})?)*$/u;

/**
 * A term of a back-of-book index that names the list ("bibliographie", its sub-entry "référence,
 * 13" under it, in its block or the next): set in lower case, as an index sets its terms and no
 * heading is, with the line after it closing on page locators. The list's heading is the one
 * before the index.
 */
function indexTerm(blocks: readonly Block[], i: number): boolean {
  const b = blocks[i]!;
  const next = blocks[i + 1];
  const after =
    b.lines.length > 1
      ? b.lines[1]!.text
      : next !== undefined && next.page === b.page && next.lines.length === 1
        ? next.text
        : '';
  return /^\p{Ll}/u.test(b.lines[0]?.text.trim() ?? '') && INDEX_LOCATORS.test(after.trim());
}

/** A bracketed label opening an entry ("[16] ...", "[Ab00] ..."), its label. */
const BRACKET_LABEL = /^\[([^\]\s]{1,12})\]\s/;

/**
 * A heading inside the list over a part of it (biblatex's sub-bibliographies by type: "Books",
 * "RFC documents", "Web pages", each under its own heading, the labels numbered through all of
 * them): a short heading with no digit over an entry whose bracketed label the list has not given
 * yet, in a list whose entries open with such labels. A second list numbered anew ("[1]" again:
 * a supplement's own) is no part of it; nor is an appendix, a caption or a back-matter note.
 */
function subListHeading(blocks: readonly Block[], i: number, listed: readonly string[]): boolean {
  const b = blocks[i]!;
  const text = b.text.trim();
  if (b.lines.length > 2 || text.length > 60 || /[\d,.:;]/.test(text) || !/^\p{Lu}/u.test(text)) return false;
  if (APPENDIX_HEADING.test(text) || CAPTION_LABEL.test(text) || CAPTIONS_LABEL.test(text)) return false;
  const label = BRACKET_LABEL.exec(blocks[i + 1]?.text.trim() ?? '')?.[1];
  if (label === undefined) return false;
  if (listed.length === 0) return true; // the first part's heading: its labels are not yet read
  const given = new Set(
    listed.flatMap((t) => [...t.matchAll(/(?:^|\s)\[([^\]\s]{1,12})\]\s/g)].map((m) => m[1])),
  );
  return given.size >= 2 && !given.has(label);
}

/** Two fields of a submission system's cover sheet on page one: the PDF bundles the files sent. */
function submissionBundle(blocks: readonly Block[]): boolean {
  let fields = 0;
  for (const b of blocks) {
    if (b.page > 1) break;
    if (submissionField(b.text)) fields++;
  }
  return fields >= 2;
}

/**
 * A note on the sources set as a paragraph under the list's heading ("All quotations are from the
 * 1996 translation ...", a humanities essay's bibliography), over a list that hangs its entries:
 * every line of the note flush at one indent, broken inside its sentences, the last closing one,
 * the first opening no entry. An entry of two lines or more hangs the lines after its first, so
 * the note's lines, read as the list's, would each open an entry of their own.
 */
function noteOverHangingList(blocks: readonly Block[], start: number, end: number): boolean {
  const note = blocks[start];
  if (!note || note.lines.length < 2 || start + 1 >= end) return false;
  const indents = note.lines.map((l) => l.indent);
  const flushAt = Math.min(...indents);
  if (Math.max(...indents) - flushAt > 0.4) return false;
  const texts = note.lines.map((l) => l.text.trim());
  if (!/[.!?]$/.test(texts[texts.length - 1]!) || opensEntry(texts[0]!)) return false;
  if (!texts.slice(0, -1).some((t) => /[\p{Ll}\d,]$/u.test(t))) return false;
  const under = blocks.slice(start + 1, Math.min(end, start + 6)).flatMap((b) => b.lines);
  return (
    under.some((l) => l.indent > flushAt + 0.6) &&
    under.some((l) => Math.abs(l.indent - flushAt) <= 0.4 && opensEntry(l.text.trim()))
  );
}

/**
 * A list heading whose first entry is numbered by an appendix's letter ("[A.1] ...", an appendix's
 * own references numbered apart from the body's, as GB/T 7713 has a thesis do): the appendix's
 * list, not the manuscript's, which is looked for before it.
 */
function appendixOwnList(blocks: Block[], i: number): boolean {
  const next = blocks[i + 1];
  return next !== undefined && /^\[[A-Z]\.?\d{1,2}\]\s/u.test(next.text.trim());
}

export function findReferences(blocks: Block[]): ReferenceRange | null {
  const bibliography = blocks.findIndex((b) => /^bibliography$/i.test(b.styleName ?? ''));
  let headingIndex: number | null = null;
  let inBlock: number | null = null;
  let skipLines = 0;
  // A submission system's review PDF (its cover sheet's fields on page one) bundles the
  // manuscript with the files sent after it (figures, supplements, each with its own "Literature
  // Cited"): the manuscript's list is the first one, not the last.
  const bundle = submissionBundle(blocks);
  let methodsList: number | null = null;
  for (let n = 0; n < blocks.length; n++) {
    const i = bundle ? n : blocks.length - 1 - n;
    const b = blocks[i]!;
    if (
      !bundle &&
      methodsList === null &&
      b.text.length < 60 &&
      METHODS_REFERENCES_HEADING.test(b.text.trim()) &&
      (isHeading(b) || b.lines.length === 1)
    ) {
      methodsList = i;
      continue;
    }
    if (
      b.text.length < 60 &&
      REFERENCES_HEADING.test(b.text.trim()) &&
      (isHeading(b) || b.lines.length === 1) &&
      !overTableCells(blocks, i) &&
      !listRunningHead(blocks, i) &&
      !appendixOwnList(blocks, i) &&
      !indexTerm(blocks, i)
    ) {
      headingIndex = i;
      break;
    }
    // A heading in the entries' own face and size, with no space under it, is read as the first
    // line of the list's first paragraph.
    if (b.lines.length > 1 && REFERENCES_HEADING.test(b.lines[0]!.text.trim()) && !indexTerm(blocks, i)) {
      inBlock = i;
      skipLines = 1;
      break;
    }
    // Or it shares a block with the heading of an empty section before it ("IX. DISCUSSION" then
    // "REFERENCES" then "[1] ..."): the heading is then known by the first entry under it.
    const k = headingInBlock(blocks, i);
    if (k !== null) {
      if (k === b.lines.length - 1) headingIndex = i;
      else {
        inBlock = i;
        skipLines = k + 1;
      }
      break;
    }
  }
  // A list split in two by language under headings of its own (the sources in the document's
  // language, then "English References"): when the last list heading or the nearest one before
  // it names a language, with no other heading between them, the list opens under the earlier
  // one and the later heading stays out of the entries.
  const innerHeadings: number[] = [];
  while (headingIndex !== null) {
    let k = headingIndex - 1;
    const listHeading = (b: Block) => b.text.length < 60 && REFERENCES_HEADING.test(b.text.trim());
    while (k >= 0 && !isHeading(blocks[k]!) && !listHeading(blocks[k]!) && headingIndex - k <= 400) k--;
    const earlier = blocks[k];
    const later = blocks[headingIndex]!;
    if (
      k < 0 ||
      earlier === undefined ||
      !listHeading(earlier) ||
      headingIndex - k < 2 ||
      !(BY_LANGUAGE.test(earlier.text.trim()) || BY_LANGUAGE.test(later.text.trim()))
    )
      break;
    innerHeadings.push(headingIndex);
    headingIndex = k;
  }
  if (headingIndex === null && inBlock === null && methodsList !== null) {
    headingIndex = methodsList;
    methodsList = null;
  }
  let start: number;
  if (headingIndex !== null) start = headingIndex + 1;
  else if (inBlock !== null) start = inBlock;
  else if (bibliography >= 0) start = bibliography;
  else {
    const headless = headlessList(blocks);
    if (!headless) return null;
    start = headless.start;
  }
  let end = start;
  const listed: string[] = [];
  // The entries' size, from the list's first blocks (enough to know it; a bound on the work).
  const sizes: number[] = [];
  let listSize = 1;
  // The sizes of the blocks that open an entry: a figure's labels read into the list do not.
  const entrySizes: number[] = [];
  const floats: ReferenceRange['floats'] = [];
  // Reads the list on from `end` to where it ends, past any float set inside it.
  const readOn = () => {
    for (;;) {
      while (
        end < blocks.length &&
        !(
          !innerHeadings.includes(end) &&
          // The heading's first block is an entry, but for an address under an empty list (amsart).
          (end > start
            ? endsReferenceList(blocks[end]!, listed, listSize, blocks[end + 1]) ||
              backCover(blocks, end, listSize)
            : contactLabelled(blocks[end]!, blocks[end + 1]))
        )
      ) {
        listed.push(blocks[end]!.text);
        if (sizes.length < 50) {
          sizes.push(blocks[end]!.relSize);
          listSize = median(sizes, 1);
        }
        if (entrySizes.length < 50 && opensEntry(blocks[end]!.lines[0]?.text ?? ''))
          entrySizes.push(blocks[end]!.relSize);
        end++;
      }
      // A sub-list's heading: the list reads on under it; the heading is no entry.
      if (end < blocks.length && end > start && subListHeading(blocks, end, listed)) {
        floats.push({ start: end, end: end + 1 });
        end++;
        continue;
      }
      if (end >= blocks.length || !floatLabel(blocks[end]!)) break;
      // A figure captioned under its body (a chart at the top of the page the list goes on to, or
      // after its end): its labels and legends, set smaller than the entries on the caption's page,
      // were read before the caption as lines of the list; they are the float's.
      let body = end;
      const entrySize = entrySizes.length ? median(entrySizes) : listSize;
      while (
        body - 1 > start &&
        blocks[body - 1]!.page === blocks[end]!.page &&
        (blocks[body - 1]!.relSize < 0.92 * entrySize ||
          CONSOLE_PROMPT.test(blocks[body - 1]!.text) ||
          blocks[body - 1]!.lines.every((l) => AXIS_TICKS.test(l.text.trim()))) &&
        !opensEntry(blocks[body - 1]!.lines[0]?.text ?? '')
      )
        body--;
      const resume = resumeAfterFloat(blocks, end);
      end = body;
      if (resume === null) break;
      // The float's blocks stay in the document's text but give the entry splitter no lines: they
      // would read as entries, and their positions would skew the page's indentation (entryBlocks).
      floats.push({ start: end, end: resume });
      end = resume;
    }
  };
  readOn();
  // The methods section and its headings between the two lists are no entries: the list reads on
  // under the second heading.
  if (methodsList !== null && end > start && methodsList >= end) {
    floats.push({ start: end, end: methodsList + 1 });
    end = methodsList + 1;
    readOn();
  }
  if (end <= start) return null;
  for (const k of innerHeadings) if (k < end) floats.push({ start: k, end: k + 1 });
  for (let k = start; k < end; k++) if (listRunningHead(blocks, k)) floats.push({ start: k, end: k + 1 });
  // A column of labels read before the entries it labels, each alone in its block: the labels
  // give the entries nothing the splitter needs, and read as entries of their own they would
  // double the count.
  for (let k = start; k < end; k++) {
    let run = k;
    while (run < end && ENTRY_LABEL_ALONE.test(blocks[run]!.text.trim())) run++;
    if (run - k >= 2) floats.push({ start: k, end: run });
    k = Math.max(k, run - 1);
  }
  // The first part's own heading right under the list's ("Bibliography" over "Books" over "[8] ..."),
  // when a later part's heading was read as one.
  if (
    start + 1 < end &&
    floats.some((f) => f.start > start && f.end - f.start === 1 && subListHeading(blocks, f.start, [])) &&
    isHeading(blocks[start]!) &&
    subListHeading(blocks, start, [])
  )
    floats.push({ start, end: start + 1 });
  if (headingIndex !== null && noteOverHangingList(blocks, start, end))
    floats.push({ start, end: start + 1 });
  const entrySize = entrySizes.length ? median(entrySizes) : null;
  for (let k = start; k < end; k++)
    if (
      (tableCells(blocks[k]!) || (entrySize !== null && pageFootNote(blocks, k, entrySize))) &&
      !floats.some((f) => k >= f.start && k < f.end)
    )
      floats.push({ start: k, end: k + 1 });
  floats.sort((a, b) => a.start - b.start);
  return { start, end, headingIndex, skipLines, floats };
}
