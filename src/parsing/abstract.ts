// The abstract: under its label ("Abstract", "Summary", a Word "Abstract" style, a label in another
// language when there is no English one), or, with no label at all, the paragraph set apart between
// the front matter and the first section heading. Its text runs until a heading, a keywords line,
// another front-matter label, a note, a change of type size, or the body's face coming back after an
// abstract set in a face of its own; a column or page break inside it (a footnote between its halves)
// does not end it.
import type { Block } from './types.ts';
import {
  ABSTRACT_LABEL,
  CAPTION_LABEL,
  KEYWORDS_LABEL,
  isContentsEntry,
  isHeading,
  isKeywordTermsLine,
  opensWithKeywordsLabel,
  isProse,
} from './sections.ts';
import { joinLines, meetInCjk } from './text-utils.ts';
import { INSTITUTION_WORD } from './institutions.ts';
import { inCapitals, isNameLike } from './names.ts';

export interface FoundAbstract {
  text: string | null;
  used: number[];
}

/**
 * The abstract's label in another language, read only when no English label is found (its end is
 * told by no letter after it, where `\b` sees no edge after the "é" of "Résumé"): an English
 * abstract printed beside it is the one kept, printed first or not (retrieval stems the abstract
 * as English). Indonesian and Malay write "Abstrak" (or "Intisari"); Chinese "摘要" (set letter-spaced
 * as "摘 要" on a thesis's page), Japanese "要旨", "あらまし" (IEICE) and "概要：" (IPSJ; run in with
 * its colon, as a heading alone "概要" is an overview), Korean "초록", Hungarian "Összefoglaló",
 * "Összefoglalás" or "Kivonat", Russian "Реферат" or "Аннотация", Ukrainian "Анотація", Vietnamese
 * "Tóm tắt"; Persian "چکیده", Arabic "ملخص" or "مستخلص", Urdu "خلاصہ", Hebrew "תקציר", Hindi
 * "सारांश", Bengali "সারসংক্ষেপ" or "সারাংশ", Tamil "சுருக்கம்" (a word joined on by a Persian half-space,
 * "چکیده‌ی ...", is another word, not the label). Portuguese "Sumário" is a label only run in with its stop
 * ("Sumário: ..."): alone on its line it heads a table of contents.
 */
const OTHER_LANGUAGE_WORDS =
  'реферат|аннотация|анотація|resumen|resumo|résumé|zusammenfassung|kurzfassung|riassunto|samenvatting|sammanfattning|sammendrag|streszczenie|abstrakt|abstrak|intisari|összefoglal(?:ó|ás)|kivonat|tóm\\s+tắt|摘\\s*要|内容摘要|要\\s*旨|あらまし|概\\s*要(?=\\s*[:：])|초\\s*록|چکیده|(?:ال)?ملخص|(?:ال)?مستخلص|خلاصہ|תקציר|सारांश|সারসংক্ষেপ|সারাংশ|சுருக்கம்';
/** A word that says the abstract is short, before its label: Dutch "Korte samenvatting", "Mini samenvatting". */
const SHORT_QUALIFIER = '(?:korte|beknopte|mini|kurze|breve|krótkie)\\s+';
export const OTHER_LANGUAGE_LABEL = new RegExp(
  `^(?:${SHORT_QUALIFIER})?(?:${OTHER_LANGUAGE_WORDS}|sum[aá]rio(?=\\s*[:.—–-]\\s*\\S))(?![\\p{L}\\p{N}\\u200c])\\s*[:：.—–-]?\\s*`,
  'iu',
);

/** "2. Abstract", "I. SUMMARY": the label numbered as the document's first section. */
const NUMBERED_LABEL = /^(?:\d{1,2}|[IVX]{1,4})\.?\s+(?:abstract|summary)\s*$/i;

/**
 * Labels of what a journal prints beside the abstract, each its own part: the abstract ends where
 * one begins (a significance statement, an author or plain-language summary, ACM's concepts and
 * reference format, a word count, subject codes, a received line, a copyright line). IMS's
 * "MSC2020 subject classifications:" sets the scheme's year against its name.
 */
const OTHER_FRONT_LABEL =
  /^(?:(?:statement of )?significance(?: statement)?|author summary|plain language summary|lay summary|(?:research )?highlights|graphical abstract|ccs concepts|(?:\d{4}\s+)?(?:acm|ams|mathematics)\s+subject\s+classifications?|acm reference format|additional key ?words(?: and phrases)?|general terms|word count|abbreviations|jel(?: classification)?|msc(?:\s?\d{4})?(?:\s+subject\s+classifications?)?|pacs|received|accepted|correspondence|corresponding authors?|copyright|©|palabras clave|palavras-chave|kata kunci|anahtar kelimeler|schlüsselwörter|parole chiave|trefwoorden|nyckelord|mots-clés|słowa kluczowe|klíčová slova|kľúčové slová)(?:\b|(?=\s|:))/iu;

/**
 * What follows "Abstract" or "Summary" in a line that is about it, not its label: a word count or a
 * length ("word count: 300 words", "(250 words)", "length: 250"), another part's name run on
 * into the label ("statement", "of changes"), or a template's instruction about it (jfm.cls prints
 * "Abstract must not spill onto p.2" at the first page's foot).
 */
const ABOUT_ABSTRACT =
  /^(?:\(?\d[\d,]*\s*words?\b|(?:word(?:s| count)?|count|length|limit|statement|of\s+(?:changes|revisions?))\b|(?:must|should|shall)\s+(?:not\s+)?\p{Ll})/iu;

/** A section heading by its number alone, set at the body's size ("I. INTRODUCTION", "1 Introduction"). */
const NUMBERED_HEADING = /^(?:\d{1,2}|[IVX]{1,4})\.?\s+\p{Lu}[^.!?]{1,60}$/u;
export const INTRODUCTION = /^(?:(?:\d{1,2}|[IVX]{1,4})\.?\s+)?introduction\s*$/i;

/** Run-in parts of a structured abstract ("Objectives. ...", "Methods: ..."). */
const STRUCTURED_PART =
  /^(?:background|materials?\s+and\s+methods?|methods?\s+and\s+materials?|objectives?|aims?|purpose|context|methods?|methodology|design|setting|participants|patients|interventions?|measurements|results?|findings|conclusions?|interpretation)\s*[:.—–-]?\s+\p{Lu}/iu;

/**
 * A structured abstract's part named alone, as a heading of its own ("Background", "Methods:",
 * "Materials and methods").
 */
const STRUCTURED_HEAD =
  /^(?:background|materials?\s+and\s+methods?|methods?\s+and\s+materials?|objectives?|aims?|purpose|context|methods?|methodology|design|setting|participants|patients|interventions?|measurements|results?|findings|conclusions?|interpretation)\s*[:.]?$/i;

/** The part a structured abstract's heading names, lower-cased; null for any other block. */
const partName = (b: Block | undefined): string | null =>
  b && STRUCTURED_HEAD.test(b.text.trim())
    ? b.text
        .trim()
        .replace(/\s*[:.]$/, '')
        .toLowerCase()
    : null;

/** Front matter that is prose but no abstract: licences, permissions, notes on how a file was made. */
const NOT_ABSTRACT =
  /\b(?:copyright|licen[cs]ed?|creative commons|open access|permission to make|all rights reserved|automatically generated|correspondence|e-?mail)\b|©|@/i;

/** Footnote marks that open a note under the front matter. */
const NOTE_MARK = /^\s*[*†‡§¶∗]/u;

/**
 * The line a thesis's abstract opens with under Russian and Ukrainian rules (GOST 7.32): the work's
 * extent in counts ("43 pages, 15 figures, 6 tables, 0 appendixes", "На 43 с., 15 рисунков, ..."),
 * then its keywords, then the abstract's prose.
 */
const EXTENT_LINE =
  /^(?:на\s+|on\s+)?\d+\s*(?:pages?|pp?\.|с\.|стр\.|страниц[аы]?|сторін(?:ок|ки)?|s\.|stron)[,.]?\s+\d+\s*\p{L}[^\n]{0,160}$/iu;

const MAX_CHARS = 6000;
const MAX_BLOCKS = 80;

const endsSentence = (s: string) => /[.!?:;)"”’\]。！？：；）]\s*$/u.test(s);
const opensLower = (b: Block | undefined) => !!b && /^\s*\p{Ll}/u.test(b.text);

/**
 * A paragraph's half that goes on after a break in a sentence left open: in lower case, or with a
 * quantity, a number and its unit or word in lower case ("... a separation of" / "5 µm. For ...").
 * A numbered heading ("1 Introduction") opens in capitals.
 */
const goesOn = (b: Block) => opensLower(b) || /^\s*\d[\d.,]*\s?\p{Ll}/u.test(b.text);

/**
 * A section heading by its number or its name, at any size. A numbered line that names an
 * institution is an affiliation after its mark ("1 Northfield University"), not a section.
 */
function sectionHeading(n: Block): boolean {
  const text = n.text.trim();
  return (
    (NUMBERED_HEADING.test(text) &&
      n.lines.length <= 1 &&
      text.length <= 70 &&
      !INSTITUTION_WORD.test(text)) ||
    INTRODUCTION.test(text)
  );
}

/**
 * A heading's look, unless the block runs on: a structured abstract's part opening with its label
 * in bold ("Background Recent guidelines ..."), a line that goes on in lower case in the next block,
 * or any block after a sentence left open (a heading never breaks into a sentence; an italic
 * name at the head of a line makes it look like one).
 */
function headingHere(blocks: Block[], j: number, openSentence = false): boolean {
  const n = blocks[j]!;
  if (sectionHeading(n)) return true;
  if (!isHeading(n) || openSentence) return false;
  // A paragraph of sentences given a heading's outline level in Word (the abstract's text set
  // "Level 1" by hand) reads as one; it is prose, no heading.
  if (n.text.length > 400 && /[.!?]\s+\p{Lu}/u.test(n.text)) return false;
  if (STRUCTURED_PART.test(n.text) && n.text.split(/\s+/).length > 3) return false;
  return endsSentence(n.text) || !opensLower(blocks[j + 1]);
}

/** A cover's or form's field: a short label and a colon, then its value ("Keuzerichting: ..."). */
const FIELD_LINE = /^\p{Lu}[\p{L}' -]{1,30}\s?[:：]\s*\S/u;

/**
 * A few labelled fields under the abstract, one of them the keywords ("Keuzerichting: ..." then
 * "Sleutelwoorden: ...", a proposal's specialisation and keywords read as one block): the
 * keywords' block, though another field opens it.
 */
function labelledFieldsWithKeywords(n: Block): boolean {
  return (
    n.lines.length >= 2 &&
    n.lines.length <= 4 &&
    n.lines.every((l) => FIELD_LINE.test(l.text.trim())) &&
    n.lines.some((l) => opensWithKeywordsLabel(l.text.trim()))
  );
}

/** Where the abstract stops: a heading, a keywords line, another front label, a note. */
function endsAbstract(blocks: Block[], j: number, styled: boolean, openSentence = false): boolean {
  const n = blocks[j]!;
  const text = n.text.trim();
  if (opensWithKeywordsLabel(text) || OTHER_FRONT_LABEL.test(text) || isKeywordTermsLine(text)) return true;
  if (labelledFieldsWithKeywords(n)) return true;
  if (styled) return false;
  return headingHere(blocks, j, openSentence) || NOTE_MARK.test(text) || cjkHeading(n);
}

/**
 * A heading in Chinese, Japanese or Korean, which no capital opens: a short line or two set larger
 * than the body, closed by no sentence's stop ("目次" over a thesis's contents, after its 概要).
 */
function cjkHeading(n: Block): boolean {
  const text = n.text.trim();
  return (
    /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(text) &&
    text.length <= 30 &&
    n.lines.length <= 2 &&
    n.relSize >= 1.15 &&
    !/[。．！？.!?]$/u.test(text)
  );
}

/**
 * Joins the abstract's blocks: lines of one paragraph with a space (none between two Chinese or
 * Japanese characters), a word broken at a hyphen whole.
 */
function joinParts(parts: string[]): string {
  let text = '';
  for (const part of parts) {
    if (!text) text = part;
    else if (/\p{Ll}-$/u.test(text) && /^\p{Ll}/u.test(part)) text = text.slice(0, -1) + part;
    else text += endsSentence(text) ? `\n\n${part}` : meetInCjk(text, part) ? part : ` ${part}`;
  }
  return text;
}

/**
 * A keywords line set inside the abstract's last block ends it there; the lines before it are
 * joined as the block's own text is, a word broken at a line's end whole ("Identifica-" / "tion").
 */
function beforeKeywords(b: Block): string {
  const at = b.lines.findIndex((l, k) => k > 0 && opensWithKeywordsLabel(l.text.trim()));
  return at > 0 ? joinLines(b.lines.slice(0, at).map((l) => l.text)) : b.text;
}

/**
 * The part named by the next heading after the paragraph under part heading `j`: the paragraph may
 * be one block or, where a PDF's lines are blocks of their own (LibreOffice), a few lines of one
 * type, a part's length at most. Null when another heading, a second Word paragraph or more text
 * comes first.
 */
function nextPartName(blocks: Block[], j: number): string | null {
  let chars = 0;
  for (let k = j + 2; k < blocks.length && k < j + 24; k++) {
    const part = partName(blocks[k]);
    if (part !== null) return part;
    const b = blocks[k]!;
    // A Word paragraph is a paragraph (styleName is set on DOCX blocks only): a second one under
    // the heading is a body's "Background" section, no part of a structured abstract.
    if (b.styleName !== undefined) return null;
    chars += b.text.length;
    if (isHeading(b) || chars > 1500 || Math.abs(b.relSize - blocks[j + 1]!.relSize) > 0.03 * b.relSize)
      return null;
  }
  return null;
}

/**
 * A thesis's abstract page that repeats its fields under the label before the prose (a Turkish
 * thesis's ÖZET and SUMMARY: the title in capitals, the author's name alone, the university, the
 * institute, the department, "Supervisor: ..." and "2021, 138 Pages" in one block): the index of
 * the prose after them, or `j` when the blocks from `j` are no such fields. The fields are a
 * line in capitals, a name alone, and lines naming an institution with no sentence's end; a name
 * alone must be among them, and a paragraph of prose must follow.
 */
function thesisAbstractFields(blocks: Block[], j: number): number {
  const page = blocks[j]?.page;
  let k = j;
  let named = false;
  for (; k < j + 4 && k < blocks.length && blocks[k]!.page === page; k++) {
    const b = blocks[k]!;
    const text = b.text.trim();
    if (isNameLike(text)) named = true;
    else if (
      !(inCapitals(text) && text.length <= 250 && !/[.!?]$/.test(text)) &&
      !(
        INSTITUTION_WORD.test(text) &&
        b.lines.every((l) => l.text.trim().length <= 80 && !/[.!?]$/.test(l.text.trim()))
      )
    )
      break;
  }
  return named && k > j && (blocks[k]?.text.length ?? 0) >= 200 && blocks[k]!.page === page ? k : j;
}

/** The text from block `from` on, until the abstract ends; `size` is its type size. */
function collect(
  blocks: Block[],
  from: number,
  labelPage: number,
  styled: boolean,
  first: string[],
  used: number[],
): FoundAbstract {
  const parts = [...first];
  let size = parts.length ? blocks[used[used.length - 1]!]!.relSize : 0;
  let chars = parts.join('').length;
  // An abstract set in a face of its own, known from its first paragraph (the label's block when
  // the text runs in after the label).
  let ownFace = parts.length > 0 && blocks[used[used.length - 1]!]!.emphasis && parts[0]!.length >= 200;
  const partHeads = new Set<string>();
  for (let j = from; j < blocks.length && j < from + MAX_BLOCKS && chars < MAX_CHARS; j++) {
    const n = blocks[j]!;
    if (styled && n.styleName?.toLowerCase() !== 'abstract') break;
    // A structured abstract whose parts have headings of their own ("Background", then its
    // paragraph): a part's heading goes on with the abstract, each name once (the body's own
    // "Methods" heading comes after the abstract's), when the abstract opens with one.
    const part = partName(n);
    if (
      !styled &&
      part !== null &&
      // It opens one: a second part's heading right after the first part's paragraph (an empty
      // abstract over a body that opens with "Background" is not read as one).
      ((parts.length === first.length && ![null, part].includes(nextPartName(blocks, j))) ||
        partHeads.size > 0) &&
      !partHeads.has(part) &&
      blocks[j + 1] &&
      !isHeading(blocks[j + 1]!)
    ) {
      partHeads.add(part);
      parts.push(n.text.trim());
      used.push(j);
      continue;
    }
    // A float's caption the layout set under the label or among the abstract's paragraphs (a
    // figure at the top of the other column, read between them): no part of the abstract, and
    // no end of it. One in smaller type is left to the tests of type below.
    if (
      !styled &&
      CAPTION_LABEL.test(n.text.trim()) &&
      (!parts.length || Math.abs(n.relSize - size) <= 0.03 * size)
    )
      continue;
    // A thesis's extent line under the label, and the keywords line after it, come before the
    // abstract's prose: skipped, not its end.
    // The keywords, set in capitals, may run over several lines, a block each in a PDF.
    if (!parts.length && !styled && EXTENT_LINE.test(n.text.trim())) {
      if (blocks[j + 1] && KEYWORDS_LABEL.test(blocks[j + 1]!.text.trim())) {
        j++;
        while (blocks[j + 1] && !/\p{Ll}/u.test(blocks[j + 1]!.text) && /\p{Lu}/u.test(blocks[j + 1]!.text))
          j++;
      }
      continue;
    }
    if (!parts.length && !styled) {
      const prose = thesisAbstractFields(blocks, j);
      if (prose > j) {
        j = prose - 1; // the loop's j++ lands on the prose
        continue;
      }
    }
    // A page's folio alone ("iii", a thesis's front pages numbered in roman) is no part of the
    // abstract, nor a sentence the next heading would break into.
    if (!styled && parts.length && /^(?:[ivxlc]{1,7}|\d{1,3})$/u.test(n.text.trim())) continue;
    const open = parts.length > 0 && /[\p{Ll},-]$/u.test(parts[parts.length - 1]!.trimEnd());
    // A line in smaller type at the page's foot (a preprint server's licence, "© 2023 by the
    // author(s). Distributed under ...", stamped on the manuscript's first page) between the halves
    // of a sentence left open, which the next page takes up in the abstract's type: no end of it.
    const next = blocks[j + 1];
    if (
      !styled &&
      open &&
      n.relSize < 0.9 * size &&
      next !== undefined &&
      next.page > n.page &&
      Math.abs(next.relSize - size) <= 0.03 * size &&
      goesOn(next)
    )
      continue;
    if (endsAbstract(blocks, j, styled, open) || (n.page > labelPage + 1 && !styled)) break;
    // The label's block is one line whose type the label set, larger than the text run in after
    // it (eLife's "Abstract" set large beside its first line): a sentence left open there goes
    // on in the next block, in lower case, and that block's type is the abstract's.
    if (
      !styled &&
      open &&
      parts.length === 1 &&
      first.length === 1 &&
      blocks[used[0]!]!.lines.length === 1 &&
      opensLower(n) &&
      n.relSize < size
    )
      size = n.relSize;
    if (!styled && parts.length && n.relSize < 0.9 * (size || 1)) {
      // A footnote or a running head between the halves of a paragraph broken over a column or
      // a page: the paragraph goes on in the abstract's type, starting in lower case.
      const last = parts[parts.length - 1]!;
      const resume = endsSentence(last)
        ? -1
        : blocks
            .slice(j + 1, j + 5)
            .findIndex((m) => Math.abs(m.relSize - size) <= 0.03 * size && opensLower(m));
      if (resume < 0) break;
      j += resume; // the loop's j++ lands on the resumed block
      continue;
    }
    // A new paragraph in other type after a finished sentence: the text after the abstract
    // (an introduction set with no heading).
    if (
      !styled &&
      parts.length &&
      endsSentence(parts[parts.length - 1]!) &&
      n.text.length >= 200 &&
      Math.abs(n.relSize - size) > 0.03 * size
    )
      break;
    // A new paragraph back in the body's face after a finished sentence, where the abstract's
    // first paragraph was set in a face of its own (a sans-serif or bold abstract box): the text
    // after the abstract (a data statement, the introduction).
    if (!styled && parts.length && endsSentence(parts[parts.length - 1]!) && ownFace && !n.emphasis) break;
    if (!parts.length) {
      size = n.relSize;
      ownFace = n.emphasis && n.text.length >= 200;
    }
    const text = beforeKeywords(n);
    parts.push(text);
    used.push(j);
    chars += text.length;
    if (text !== n.text) break;
  }
  return parts.length ? { text: joinParts(parts), used } : { text: null, used: [] };
}

interface Label {
  /** The label, with what follows it up to the text. */
  label: RegExp;
  /** The label and a stop after it ("Abstract:", "Resumen."): a label even in a long block. */
  stopped: RegExp;
  /** The label run into a sentence with no stop ("Abstract This ..."). */
  runIn: RegExp;
}

const ENGLISH: Label = {
  label: ABSTRACT_LABEL,
  stopped: /^(?:abstract|summary)\s*[:.—–-]/i,
  // Each case spelt out: under the i flag \p{Lu} would match a lower-case letter too.
  runIn: /^(?:abstract|summary|Abstract|Summary|ABSTRACT|SUMMARY)\s+\p{Lu}/u,
};
/** The abstract's own label, not "Summary". */
const ABSTRACT_ONLY: Label = {
  label: /^abstract\b\s*[:.—–-]?\s*/i,
  stopped: /^abstract\s*[:.—–-]/i,
  runIn: /^(?:Abstract|ABSTRACT)\s+\p{Lu}/u,
};
const OTHER_LANGUAGE: Label = {
  label: OTHER_LANGUAGE_LABEL,
  stopped: new RegExp(`^(?:${OTHER_LANGUAGE_WORDS}|sum[aá]rio)\\s*[:：.—–-]`, 'iu'),
  runIn: new RegExp(`^(?:${OTHER_LANGUAGE_WORDS})\\s+\\p{Lu}`, 'iu'),
};

/**
 * On a thesis's own page after its cover, "概要" (Japanese: summary) alone as the page's heading
 * labels its abstract (a Japanese master's thesis), where in a paper the same word alone heads an
 * overview section.
 */
const THESIS_OTHER_LANGUAGE: Label = {
  label: /^概\s*要\s*$/u,
  stopped: /^概\s*要\s*[:：]/u,
  runIn: /^(?!)/u,
};

/** A label set letter-spaced ("A B S T R A C T", Elsevier's CAS and elsarticle), read as one word. */
function withoutLetterSpacing(text: string): string {
  return /^(?:\p{L} ){3,}\p{L}\s*:?$/u.test(text.trim()) ? text.replace(/ /g, '') : text;
}

/** Greek and Cyrillic letters drawn as Latin ones, by the Latin letter they look like. */
const LATIN_LOOKALIKE: Record<string, string> = {
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  х: 'x',
  у: 'y',
};
const LOOKALIKE = /[ΑΒΕΖΗΙΚΜΝΟΡΤΥΧАВЕКМНОРСТХаеорсху]/gu;

/**
 * A label typed on a Greek or Cyrillic keyboard left in its script for a letter or two
 * ("ΑBSTRACT" with a Greek capital Alpha, a Greek thesis): a word that mixes those letters with
 * Latin ones is read with them as the Latin letters they look like. A word wholly in Greek or
 * Cyrillic is left as it is.
 */
function withLatinLookalikes(text: string): string {
  return text.replace(/[\p{L}]+/gu, (word) =>
    /\p{Script=Latin}/u.test(word) && /[\p{Script=Greek}\p{Script=Cyrillic}]/u.test(word)
      ? word.replace(LOOKALIKE, (c) => LATIN_LOOKALIKE[c] ?? c)
      : word,
  );
}

/** Whether `a` turns into `b` by one letter added, dropped or changed. */
function oneLetterApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const rest = (x: string, skip: number) => x.slice(i + skip);
  return (
    rest(a, 1) === rest(b, 1) || // changed
    rest(a, 1) === rest(b, 0) || // added in a
    rest(a, 0) === rest(b, 1) // dropped from a
  );
}

/**
 * A heading that misspells "Abstract" by one letter ("Apstract", "Abstact", "Absract": a student's
 * report), one word alone on its line, is read as the label. The label's spellings in other
 * languages one letter off ("Abstrakt", "Abstrak") keep their own reading.
 */
function withMisspeltLabel(text: string, b: Block): string {
  const word = text.trim();
  if (!/^\p{L}{7,9}$/u.test(word) || OTHER_LANGUAGE_LABEL.test(word) || !isHeading(b)) return text;
  return oneLetterApart(word.toLowerCase(), 'abstract') ? 'Abstract' : text;
}

/** A heading that names a language alone, in that language or in English ("Français", "English"). */
const LANGUAGE_HEADING =
  /^(?:english|fran[çc]ais|french|deutsch|german|espa[ñn]ol|spanish|portugu[êe]s|portuguese|italiano|italian|nederlands|dutch|polski|polish|русский|russian|[čc]e[šs]tina|czech|türkçe|turkish|bahasa indonesia|indonesian)\s*:?$/iu;

/** How many paragraphs past the front matter's end an abstract's label is looked for. */
const LABEL_REACH = 12;
/**
 * A thesis's reach: its cover's pages (a translated cover, an approval sheet with its signatures,
 * a signed statement of authorship) may come between the cover and the abstract.
 */
export const THESIS_LABEL_REACH = 40;

/**
 * Where the label alone on its line comes again a few rows under the label at `i` on its page,
 * over the text, every row between a short field of a form (a name, a title, a programme, a date):
 * its index, or -1.
 */
function labelAgainOverText(blocks: Block[], i: number, label: RegExp): number {
  const page = blocks[i]!.page;
  for (let k = i + 1; k < Math.min(blocks.length, i + 16); k++) {
    const b = blocks[k]!;
    if (b.page !== page || b.text.length > 200) return -1;
    const text = b.text.trim();
    if (label.test(text) && text.replace(label, '').trim() === '') return k > i + 2 ? k : -1;
  }
  return -1;
}

/**
 * The label alone on the last line of a short block of lines over it (a thesis's abstract page
 * sets the title again, then "Abstract" centred under it, close enough to be read as one block):
 * the label heads the text under it, and the lines over it are none of the abstract.
 */
function labelClosingBlock(b: Block, label: RegExp): boolean {
  const last = b.lines[b.lines.length - 1]?.text.trim() ?? '';
  return (
    b.lines.length >= 2 &&
    b.lines.length <= 4 &&
    b.lines.every((l) => l.text.length <= 100) &&
    label.test(last) &&
    last.replace(label, '').trim() === ''
  );
}

function findLabelled(
  blocks: Block[],
  frontEnd: number,
  { label, stopped, runIn }: Label,
  from = 0,
  reach = LABEL_REACH,
): FoundAbstract | null {
  // Twelve paragraphs past the front matter's end (or past `from`). A table of contents' entry, or
  // a line of a paragraph that goes on in the next block (a Word file at 1.5 spacing printed to PDF
  // gives a block a line), is no paragraph of its own: the reach goes on past it.
  let limit = Math.min(blocks.length, Math.max(frontEnd, from) + reach);
  for (let i = from; i < limit; i++) {
    const b = blocks[i]!;
    // A keywords line inside the label's own block ("Abstract: ..." then "Keywords: ..." in one
    // block) ends the abstract there.
    const closed = b.lines.some((l, k) => k > 0 && opensWithKeywordsLabel(l.text.trim()));
    const text = withMisspeltLabel(
      withLatinLookalikes(withoutLetterSpacing(closed ? beforeKeywords(b) : b.text)),
      b,
    );
    // An entry of a table of contents names the abstract on its page; it is not its label. A
    // contents list whose page numbers stand in a column of their own gives each number a block
    // ("1 Abstract", then "2" beside it): a bare number is no paragraph either.
    if (isContentsEntry(b) || /^\d{1,3}$/.test(text.trim())) {
      limit = Math.min(blocks.length, limit + 1);
      continue;
    }
    const next = blocks[i + 1];
    if (
      b.lines.length === 1 &&
      !/[.!?:]$/.test(text.trim()) &&
      next?.page === b.page &&
      /^\p{Ll}/u.test(next.text)
    )
      limit = Math.min(blocks.length, limit + 1);
    const styled = b.styleName?.toLowerCase() === 'abstract';
    const numbered = !styled && NUMBERED_LABEL.test(text.trim()) && isHeading(b);
    if (!styled && !numbered && !label.test(text)) {
      if (labelClosingBlock(b, label)) {
        const found = collect(blocks, i + 1, b.page, false, [], [i]);
        if (found.text) return found;
      }
      continue;
    }
    // "Summary of ..." in running text is not a label.
    if (!styled && !numbered && text.length > 30 && !stopped.test(text) && !isHeading(b) && !runIn.test(text))
      continue;
    const rest = styled ? text : numbered ? '' : text.replace(label, '');
    // "Abstract word count: 300 words", "Summary statement: ...": a line about the abstract or
    // another front-matter part (a submission's declarations), not the abstract's label.
    if (!styled && !numbered && !stopped.test(text) && ABOUT_ABSTRACT.test(rest)) continue;
    const first = rest.length > 20 ? [rest] : [];
    if (closed && first.length) return { text: joinParts(first), used: [i] };
    // A university's abstract form: the label heads its page, the form's fields in short rows
    // under it (author, title, programme, date), and the label again over the text. The label
    // nearest the text is the abstract's; the fields are none of it.
    const again = !first.length && !styled && !numbered ? labelAgainOverText(blocks, i, label) : -1;
    if (again > i) {
      limit = Math.max(limit, Math.min(blocks.length, again + 1));
      i = again - 1;
      continue;
    }
    // An abstract given in two languages, each under a heading naming its language ("Abstract",
    // then "Français" and its paragraph, then "English"): the first language's paragraph is read.
    const language =
      !first.length && blocks[i + 1] !== undefined && LANGUAGE_HEADING.test(blocks[i + 1]!.text.trim());
    const found = collect(
      blocks,
      language ? i + 2 : i + 1,
      b.page,
      styled,
      first,
      language ? [i, i + 1] : [i],
    );
    if (found.text) return found;
  }
  return null;
}

/**
 * A copyright notice set in the margin beside the abstract's last line and read into it ("... and
 * © 2024 International Union of Crystallography simple concepts ..."): the notice, capitalised
 * words after "©" and a year, with the sentence going on in lower case after it. A notice with a
 * stop in it ("© 2024 Elsevier Ltd. All rights reserved") is not cut: it is the block's own.
 */
const MARGIN_NOTICE =
  /\s©\s?(?:\d{4}\s+)?(?:\p{Lu}[\p{L}&'’-]*\s+|(?:of|for|and|the|de|des|du|für)\s+){1,8}(?=\p{Ll})/u;

function withoutMarginNotice(text: string): string {
  return text.includes('©') ? text.replace(MARGIN_NOTICE, ' ') : text;
}

/**
 * An abstract set in smaller type than the body (IMS's imsart, in \small under the byline): prose
 * before any at the body's size, no smaller than a footnote's type, and followed on its page by
 * the body's type (a heading or the introduction), the keywords' line between at most, where a
 * note at the page's foot is followed by the next page or by more notes.
 */
function smallAbstract(blocks: Block[], i: number, b: Block, bodyProse: boolean): boolean {
  // The keywords' line may come between, in the abstract's type (Econometrica's "KEYWORDS:").
  const k = KEYWORDS_LABEL.test(blocks[i + 1]?.text ?? '') ? i + 2 : i + 1;
  const next = blocks[k];
  return (
    !bodyProse &&
    b.relSize >= 0.75 &&
    next !== undefined &&
    next.page === b.page &&
    blocks[i + 1]!.page === b.page &&
    next.relSize >= 0.95 &&
    isAbstractProse(b)
  );
}

/** Prose by its look: sentences, most words in lower case, nothing of an address or a licence. */
function isAbstractProse(b: Block): boolean {
  const text = b.text.trim();
  if (text.length < 250 || !endsSentence(text) || NOT_ABSTRACT.test(text) || NOTE_MARK.test(text))
    return false;
  const words = text.split(/\s+/).filter((w) => /^\p{L}{4,}/u.test(w));
  const capitalised = words.filter((w) => /^\p{Lu}/u.test(w)).length;
  return words.length >= 30 && capitalised / words.length < 0.35 && /[.!?]\s+\p{Lu}/u.test(text);
}

/**
 * Set apart from what follows: a heading, a keywords line, another label, a note, other type, or
 * the body's face after a paragraph set in a face of its own (a letter's summary paragraph in bold).
 */
function setApart(blocks: Block[], j: number, size: number, ownFace = false): boolean {
  const n = blocks[j];
  if (!n) return true;
  return (
    endsAbstract(blocks, j, false) || Math.abs(n.relSize - size) >= 0.05 * size || (ownFace && !n.emphasis)
  );
}

/**
 * A draft that sets its unlabelled abstract alone on the page after its title page, the body
 * from the page after (a pandoc template's title page, then the abstract, then the line-numbered
 * text): the paragraph of prose that is all that page holds, in the body's type. Looked for when
 * no abstract was found on the title page, whose last lines (a date, a licence) may read as a
 * heading and end the search there.
 */
function pageAfterTitlePage(blocks: Block[], titleEnd: number): FoundAbstract | null {
  const titlePage = blocks[Math.max(titleEnd - 1, 0)]?.page;
  if (titlePage === undefined) return null;
  const start = blocks.findIndex((b, k) => k >= titleEnd && b.page > titlePage);
  if (start < 0 || blocks[start]!.page !== titlePage + 1) return null;
  const page = blocks[start]!.page;
  let end = start;
  while (end < blocks.length && blocks[end]!.page === page) end++;
  if (end - start !== 1 || end >= blocks.length) return null;
  const b = blocks[start]!;
  if (Math.abs(b.relSize - 1) > 0.05 || !isAbstractProse(b)) return null;
  return { text: withoutMarginNotice(b.text).trim(), used: [start] };
}

/** The most one-line blocks read as one paragraph of a double-spaced draft. */
const MAX_RUN_LINES = 60;

/**
 * The end of the run of one-line blocks from `i` that are the lines of one paragraph: on one
 * page, in one type and face, at one left edge (a first line's indent opens the next paragraph),
 * each as far under the one before as the second is under the first (the space over a paragraph,
 * a byline or an affiliation is wider). Returns `i + 1` when block `i` is no such line.
 */
function lineRun(blocks: Block[], i: number): number {
  const first = blocks[i]!;
  const head = first.lines[0];
  if (first.lines.length !== 1 || !head) return i + 1;
  const step = blocks[i + 1]?.lines[0]?.gapAbove;
  let j = i + 1;
  while (j < blocks.length && j - i < MAX_RUN_LINES) {
    const b = blocks[j]!;
    const line = b.lines[0];
    if (
      b.lines.length !== 1 ||
      !line ||
      b.page !== first.page ||
      b.styleLevel !== null ||
      b.emphasis !== first.emphasis ||
      Math.abs(b.relSize - first.relSize) > 0.03 * first.relSize ||
      Math.abs(line.indent - head.indent) > 0.5 ||
      step === undefined ||
      Math.abs(line.gapAbove - step) > 0.15
    )
      break;
    j++;
  }
  return j;
}

/** The most paragraphs read as one abstract that has no label. */
const MAX_UNLABELLED_PARAGRAPHS = 5;

/**
 * A short abstract with no label (two or three sentences, too short for prose read anywhere else):
 * the first paragraph of some length after the title, in a smaller type than the body and indented
 * from it on every line, over the body's prose on its page (Tufte's handout, under the date).
 */
function shortAbstractOverBody(blocks: Block[], i: number, titleEnd: number): boolean {
  const b = blocks[i]!;
  const next = blocks[i + 1];
  if (
    next === undefined ||
    next.page !== b.page ||
    b.relSize < 0.75 ||
    b.relSize > 0.95 ||
    next.relSize < 0.95 ||
    !isProse(next) ||
    blocks.slice(Math.max(titleEnd, 1), i).some((o) => o.text.length >= 100)
  )
    return false;
  return isShortAbstract(b.text) && indentedFrom(b, next);
}

/** Two or three sentences of some length that are no notice and no note: a short abstract's text. */
function isShortAbstract(raw: string): boolean {
  const text = raw.trim();
  return (
    text.length >= 120 &&
    /[.!?]$/.test(text) &&
    /[.!?]\s+\p{Lu}/u.test(text) &&
    !NOT_ABSTRACT.test(text) &&
    !NOTE_MARK.test(text)
  );
}

/** Every line of `b` indented from the left margin of the prose in `body`. */
function indentedFrom(b: Block, body: Block): boolean {
  const margin = Math.min(...body.lines.map((l) => l.indent));
  return b.lines.every((l) => l.indent >= margin + 0.5);
}

/**
 * A short abstract with no label set as a quote in a face of its own (Science's `sciabstract`: a
 * bold paragraph indented on both sides, in the body's size, right over the first section's
 * heading): emphasised, at the body's size, every line indented from the margin of the prose that
 * follows the heading, and no prose before it after the title.
 */
function quotedAbstractOverHeading(blocks: Block[], i: number, titleEnd: number): boolean {
  const b = blocks[i]!;
  const [heading, prose] = [blocks[i + 1], blocks[i + 2]];
  if (
    heading === undefined ||
    prose === undefined ||
    heading.page !== b.page ||
    !b.emphasis ||
    Math.abs(b.relSize - 1) > 0.05 ||
    !headingHere(blocks, i + 1) ||
    !isProse(prose) ||
    blocks.slice(Math.max(titleEnd, 1), i).some((o) => isProse(o))
  )
    return false;
  return isShortAbstract(b.text) && indentedFrom(b, prose);
}

/**
 * An abstract with no label: the first paragraph of prose after the title and byline and before
 * the first section heading, set apart from what follows it; or the parts of a structured
 * abstract, each opening with its run-in label; or a sentence or two right above the keywords.
 */
function findUnlabelled(
  blocks: Block[],
  frontEnd: number,
  titleEnd: number,
  laidOut: boolean,
): FoundAbstract {
  const limit = Math.min(blocks.length, frontEnd + 12);
  const textOf = (k: number) => withoutMarginNotice(blocks[k]!.text);
  // Prose at the body's size passed on the way: a smaller paragraph after it is a note.
  let bodyProse = false;
  for (let i = Math.max(titleEnd, 1); i < limit; i++) {
    const b = { ...blocks[i]!, text: textOf(i) };
    if (b.page > 2) break;
    // Before the front matter's end, a block set like a heading is a byline or a label there;
    // after it, one that names an institution is still an affiliation line in the byline's type.
    if (sectionHeading(b) || (i >= frontEnd && headingHere(blocks, i) && !INSTITUTION_WORD.test(b.text)))
      break;
    if (KEYWORDS_LABEL.test(b.text)) break;
    if (b.styleLevel === 0) continue;
    const text = b.text.trim();
    // Sentences in small type right over a keywords line in that type (World Scientific's journal
    // classes set a short abstract in 8 pt, then "Keywords:"): the keywords line says what they are.
    const keywordsUnder = blocks[i + 1];
    const overOwnKeywords =
      keywordsUnder !== undefined &&
      KEYWORDS_LABEL.test(keywordsUnder.text) &&
      Math.abs(keywordsUnder.relSize - b.relSize) <= 0.05 * b.relSize &&
      /[.!?]\s+\p{Lu}/u.test(text);
    if (b.relSize < 0.85 && !smallAbstract(blocks, i, b, bodyProse) && !overOwnKeywords) continue;
    // A keywords line set as the last line of the paragraph's own block (Typst's preprint template
    // sets the abstract with no label and "Keywords: ..." under it, read as one block): the line
    // says what the prose over it is, and ends it, as it ends a labelled abstract's block.
    if (blocks[i]!.lines.some((l, k) => k > 0 && opensWithKeywordsLabel(l.text.trim()))) {
      const before = withoutMarginNotice(beforeKeywords(blocks[i]!));
      if (isAbstractProse({ ...b, text: before })) return { text: before, used: [i] };
    }
    const structured = STRUCTURED_PART.test(text) && text.length >= 40 && !NOT_ABSTRACT.test(text);
    if (structured) {
      const used = [i];
      let j = i + 1;
      while (j < blocks.length && STRUCTURED_PART.test(blocks[j]!.text) && !endsAbstract(blocks, j, false))
        used.push(j++);
      if (used.length > 1 || (isAbstractProse(b) && setApart(blocks, j, b.relSize)))
        return { text: joinParts(used.map((k) => blocks[k]!.text)), used };
    }
    // A double-spaced draft sets each line of a paragraph as a block of its own (nature.cls's
    // summary paragraph in bold, with no label, over the body): the lines are read as one.
    const run = laidOut ? lineRun(blocks, i) : i + 1;
    if (run - i >= 3) {
      const used = Array.from({ length: run - i }, (_, k) => i + k);
      const paragraph = { ...b, text: joinLines(used.map(textOf)) };
      if (isAbstractProse(paragraph) && setApart(blocks, run, b.relSize, b.emphasis))
        return { text: paragraph.text, used };
      i = run - 1;
      continue;
    }
    if (isAbstractProse(b)) {
      if (b.relSize >= 0.95) bodyProse = true;
      const used = [i];
      let j = i + 1;
      // A paragraph broken over a column: its tail opens in lower case, in the same type.
      while (
        j < blocks.length &&
        !endsSentence(blocks[j - 1]!.text) &&
        opensLower(blocks[j]) &&
        Math.abs(blocks[j]!.relSize - b.relSize) <= 0.03 * b.relSize
      )
        used.push(j++);
      if (setApart(blocks, j, b.relSize, b.emphasis)) return { text: joinParts(used.map(textOf)), used };
      // A Word abstract of a few paragraphs with no label (a notebook exported to Word: the
      // keywords, the abstract's paragraphs, then the first heading): the paragraphs of prose
      // that follow in its type and style, up to the heading that sets them apart, are read with
      // it, where the last of them alone was taken. Not tried on a PDF's blocks, which a column
      // or a page may break.
      if (!laidOut) {
        let k = j;
        const sameType = (n: Block) =>
          Math.abs(n.relSize - b.relSize) <= 0.03 * b.relSize &&
          n.emphasis === b.emphasis &&
          n.styleLevel === b.styleLevel;
        while (
          k < blocks.length &&
          k - i < MAX_UNLABELLED_PARAGRAPHS &&
          sameType(blocks[k]!) &&
          isAbstractProse(blocks[k]!)
        )
          k++;
        if (k > j && setApart(blocks, k, b.relSize, b.emphasis)) {
          const run = Array.from({ length: k - i }, (_, n) => i + n);
          return { text: joinParts(run.map(textOf)), used: run };
        }
      }
      continue;
    }
    if (
      text.length >= 30 &&
      /[.!?]$/.test(text) &&
      !NOT_ABSTRACT.test(text) &&
      KEYWORDS_LABEL.test(blocks[i + 1]?.text ?? '')
    )
      return { text, used: [i] };
    if (
      laidOut &&
      (shortAbstractOverBody(blocks, i, titleEnd) || quotedAbstractOverHeading(blocks, i, titleEnd))
    )
      return { text, used: [i] };
  }
  return { text: null, used: [] };
}

/**
 * `laidOut`: the blocks were read from a page's layout (a PDF), where a line may be a block of its
 * own. `reach`: how many paragraphs past the front matter the label may come.
 */
/**
 * A thesis that sets its abstracts at its end, after the reference list, each on a page of its own
 * under its label, with the title and the author's name repeated under the label (a Croatian
 * "diplomski rad": "Sažetak", then "Abstract"): when nothing was found near the front matter, the
 * English label alone at the top of a page is looked for after it. The repeated lines, set like
 * headings and with no stop, are skipped. A Word file has no pages: there the label is a chapter's,
 * in the first heading level, which such a template opens on a page of its own ("Sažetak", then
 * "Summary", after the bibliography and the appendices).
 */
function abstractPage(blocks: Block[], from: number, laidOut: boolean): FoundAbstract | null {
  for (let i = Math.max(from, 1); i < blocks.length; i++) {
    const b = blocks[i]!;
    const text = b.text.trim();
    const pageTop = laidOut ? blocks[i - 1]!.page !== b.page : b.styleLevel === 1;
    if (!pageTop || text.length > 20 || !isHeading(b)) continue;
    if (!ENGLISH.label.test(text) || text.replace(ENGLISH.label, '').trim()) continue;
    const used = [i];
    for (let j = i + 1; j <= i + 3 && j < blocks.length; j++) {
      const n = blocks[j]!;
      if (n.page !== b.page || !isHeading(n) || n.text.length > 150 || endsSentence(n.text)) break;
      used.push(j);
    }
    const found = collect(blocks, used[used.length - 1]! + 1, b.page, false, [], used);
    if (found.text) return found;
  }
  return null;
}

/**
 * The label of an abstract printed on a thesis's back cover, run in with its colon: "RÉSUMÉ :",
 * "RESUME :" (French capitals drop their accents), "Abstract:", "Summary:".
 */
const BACK_COVER_LABEL = /^(?:r[ée]sum[ée]|abstract|summary)\s*[:：]\s*/iu;

/**
 * A thesis that prints its abstract on its back cover (a French one's last page: the author, the
 * title, "RESUME : ...", "MOTS CLEFS :", the jury): read there when no abstract is found in front.
 * The label must be run in with its colon, on the last page, and open its block.
 */
function backCoverAbstract(blocks: Block[]): FoundAbstract | null {
  const last = blocks[blocks.length - 1]?.page;
  if (last === undefined || last < 2) return null;
  for (let i = blocks.length - 1; i >= 0 && blocks[i]!.page === last; i--) {
    const b = blocks[i]!;
    const m = BACK_COVER_LABEL.exec(b.text.trim());
    if (!m) continue;
    const closed = b.lines.some((l, k) => k > 0 && opensWithKeywordsLabel(l.text.trim()));
    const rest = (closed ? beforeKeywords(b) : b.text).trim().replace(BACK_COVER_LABEL, '');
    if (rest.length < 100) continue;
    if (closed) return { text: joinParts([rest]), used: [i] };
    const found = collect(blocks, i + 1, b.page, false, [rest], [i]);
    if (found.text) return found;
  }
  return null;
}

export function findAbstract(
  blocks: Block[],
  frontEnd: number,
  titleEnd: number,
  laidOut: boolean,
  reach = LABEL_REACH,
): FoundAbstract {
  const english = findLabelled(blocks, frontEnd, ENGLISH, 0, reach);
  if (english) {
    // A cover page's "Summary" (a conference's cover page: summary and contributions, then the
    // paper with its "Abstract"): the paragraph under the label "Abstract" after it is the abstract.
    const first = Math.min(...english.used);
    if (!/^\s*summary\b/i.test(blocks[first]?.text ?? '')) return english;
    const after = Math.max(...english.used) + 1;
    return findLabelled(blocks, after, ABSTRACT_ONLY, after) ?? english;
  }
  const other =
    findLabelled(blocks, frontEnd, OTHER_LANGUAGE, 0, reach) ??
    (reach > LABEL_REACH ? findLabelled(blocks, frontEnd, THESIS_OTHER_LANGUAGE, 0, reach) : null);
  if (!other) {
    const unlabelled = findUnlabelled(blocks, frontEnd, titleEnd, laidOut);
    return unlabelled.text
      ? unlabelled
      : (abstractPage(blocks, frontEnd, laidOut) ??
          backCoverAbstract(blocks) ??
          (laidOut ? pageAfterTitlePage(blocks, titleEnd) : null) ??
          unlabelled);
  }
  // A thesis prints its abstract in its own language first and the English one right after it
  // (Hungarian "Összefoglaló", then "Abstract"), each under its heading, past where the label is
  // looked for after a long front matter (a cover, contents, a signed statement): the English one
  // is kept, as when both are found. A Persian or Arabic thesis sets its English abstract at its
  // end instead, on a page of its own after the references, before the English cover: kept too.
  const after = Math.max(...other.used) + 1;
  return findLabelled(blocks, after, ENGLISH, after) ?? abstractPage(blocks, after, laidOut) ?? other;
}
