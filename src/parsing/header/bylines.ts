// The authors' entries: bylines (names separated by commas and "and", with raised marks), author
// blocks stacked or side by side, Word's author styles, and which reader's entries are taken.
import type { Block } from '../types.ts';
import { findEmails, findOrcids } from '../text-utils.ts';
import {
  BYLINE_LABEL,
  emailMatchesName,
  inCapitals,
  invertedBylineLines,
  isMarkedNameLike,
  isMononym,
  isNameLike,
  isNameSlot,
  readsAsPersonName,
  splitByline,
  splitMarks,
} from '../names.ts';
import { INSTITUTION, INSTITUTION_WORD } from '../institutions.ts';
import { isAuthorStyle } from '../style-names.ts';
import { isProse } from '../sections.ts';
import { foldWords } from '../../infra/text-fold.ts';
import {
  isLoneName,
  labelledOverTitle,
  labelledStudents,
  scriptNameOnCover,
  namedByRoleLabels,
  namedApplicants,
  namedCorresponding,
  nameOverTitle,
  namesAfterBy,
  nameUnderCapitalsTitle,
  overNamedSupervisor,
  presentedOnCover,
  SUPERVISOR_LABEL,
} from './covers.ts';
import {
  bareTitleLabel,
  bracketedAffiliations,
  DATE_ALONE,
  type Entry,
  FRONT_LABEL,
  kindOfWork,
  markedNameCount,
  opensWithNoteMark,
  supervisorsRow,
  type EntriesRead,
} from './front-matter.ts';
import { opensOnProposalPart, type TitleSpan } from './title.ts';

/**
 * A Chinese byline right under the title: two names or more in Han script and nothing else, each
 * of two to four characters, parted by spaces or by Chinese commas ("胡悦 朱萌", "张伟，李娜"),
 * marks after each allowed. Under a title written with kana (Japanese), a space parts a family
 * name from a given name ("山田 太郎"), so there only the commas part names.
 */
function hanByline(blocks: Block[], from: number, titleIndex: number | null): Entry[] {
  const b = blocks[from];
  if (b === undefined || titleIndex === null || b.text.length > 80 || b.lines.length > 1) return [];
  const kana = /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(blocks[titleIndex]!.text);
  const pieces = b.text
    .trim()
    .split(kana ? /\s*[，、,;；]\s*/u : /\s*[，、,;；]\s*|\s+/u)
    .map((p) => p.replace(/[\d*†‡,]+$/u, ''));
  if (pieces.length < 2 || !pieces.every((p) => /^\p{Script=Han}{2,4}$/u.test(p))) return [];
  return pieces.map((name) => ({ name, marks: [], lines: [], links: [] }));
}

/**
 * The end of a column of two or more lone names that starts at `from`, all in the same type;
 * `from` when there is none.
 */
function nameColumnEnd(blocks: Block[], from: number, to: number): number {
  const first = blocks[from];
  if (first === undefined || !isLoneName(first)) return from;
  let end = from + 1;
  while (
    end < to &&
    isLoneName(blocks[end]!) &&
    blocks[end]!.emphasis === first.emphasis &&
    Math.abs(blocks[end]!.relSize - first.relSize) <= 0.03 * first.relSize
  )
    end++;
  return end - from >= 2 ? end : from;
}

/** A line that holds email addresses and nothing else, but the note mark that ties one to its author ("*roe@x.org"). */
/** An email address's label before it on its line. */
const EMAIL_LABEL = /^\s*(?:e-?mail|courriel|e-?post|correo(?:\s+electr[óo]nico)?)\s*[:：]\s*/iu;

/** A line of addresses after their label ("E-mail: jane@uni.be", "Courriel : ..."). */
function labelledEmailLine(text: string): boolean {
  return EMAIL_LABEL.test(text) && isEmailLine(text.replace(EMAIL_LABEL, ''));
}

function isEmailLine(text: string): boolean {
  const emails = findEmails(text);
  return (
    emails.length > 0 &&
    emails.reduce((rest, e) => rest.replace(e, ''), text).replace(/[\s,;{}*∗⋆†‡]/gu, '') === ''
  );
}

/**
 * A byline written as a sentence with the affiliation run on after it, in one paragraph ("Ana
 * Lima, Bo Park, and Cy Diaz. Institute of Things, City, Country.", pandoc's plain author
 * paragraph): the first sentence, when it is a list of two names or more joined by "and", is the
 * byline; the rest is no name. The stop must follow a word of two letters or more (no initial,
 * no "Jr"). Blocks with marks or no such sentence are read whole.
 */
function bylineSentence(b: Block): Block['runs'] {
  if (b.runs.some((r) => r.sup && r.text.trim() !== '') || b.text.length > 400) return b.runs;
  const text = b.text.replace(/\s+/g, ' ');
  const stop = [...text.matchAll(/(\p{L}+)\.\s+(?=\p{Lu})/gu)].find(
    (m) => /\p{Ll}{2}$/u.test(m[1]!) && !/^(?:jr|sr)$/i.test(m[1]!),
  );
  if (stop === undefined) return b.runs;
  const head = text.slice(0, stop.index + stop[1]!.length);
  if (!/(?:\band|&)\s+\S+/.test(head)) return b.runs;
  const names = splitByline([{ text: head, sup: false }]);
  const people = names.filter((n) => readsAsPersonName(n.name));
  return names.length >= 2 && people.length === names.length ? [{ text: head, sup: false }] : b.runs;
}

/** A line that opens with an affiliation's mark and names an institution ("2 Valley Agency, ..."). */
const MARKED_AFFILIATION_LINE = /^\s*(?:\d{1,2}|[a-z]|[*†‡§¶])\s*\p{Lu}/u;

/** A street address closed by its town and postcode, or opened by the postcode ("..., Surabaya 60111"). */
const STREET_ADDRESS_LINE =
  /^(?=[^@]{6,120}$)[^,]+,\s*(?:\p{L}[\p{L} .'-]*\s+\d{4,6}|\d{4,6}\s+\p{L}[\p{L} .'-]*)(?:,\s*\p{L}[\p{L} .'-]*)?$/u;

/** A line that gives an email after its label and nothing else ("e-mail: jr@uni.ac.id"). */
const CONTACT_LINE = /^(?:e-?mail|surel|email\s+address)\s*:?\s*\S+@\S+$/iu;

/**
 * An affiliation written with its institutions' abbreviations, joined by "&", "and" or commas
 * ("MIT & NBER", "NYU Stern", "UCL and CEPR"): an abbreviation in capitals is no word of a name.
 */
const ABBREVIATED_AFFILIATION =
  /^(?=.*\b\p{Lu}{2,6}\b)(?:\p{Lu}{2,6}|\p{Lu}\p{Ll}+)(?:(?:\s*(?:&|,)\s*|\s+(?:and\s+)?)(?:\p{Lu}{2,6}|\p{Lu}\p{Ll}+)){0,4}$/u;

/**
 * A list of two or more names on a line: commas or "and" between short capitalised pieces, no
 * digit and no sentence (what a byline's first line holds and an affiliation's never does alone).
 */
function listsNames(text: string): boolean {
  // Names written surname first between semicolons ("Roe, Jane; Doe, John") are read given names first.
  const pieces = invertedBylineLines(text)
    .replace(/[*†‡§¶∗]/g, '')
    .split(/\s*[,;]\s*(?:(?:and|dan|và)\s+)?|\s+(?:and|dan|và|&)\s+/u)
    .filter((p) => p.trim() !== '');
  return pieces.length >= 2 && !/\d/.test(text) && pieces.every((p) => isNameLike(p.trim()));
}

/**
 * A byline on its first line with the affiliations under it in one block (the layout set them at
 * the same size and spacing): every later line opens with its mark and names an institution, the
 * first names none. The first line is the byline; its runs are read alone. The one shared
 * affiliation of a conference byline may come unmarked (JACoW's "A. Name, B. Name, C. Name" over
 * "Laboratory, City, Country"): then the first line must list two names or more.
 */
function bylineOverAffiliations(b: Block): Block {
  const [first, ...rest] = b.lines;
  if (!first || rest.length === 0 || INSTITUTION_WORD.test(first.text)) return b;
  // One author's name over the lines of its affiliation written with abbreviations, unmarked (a
  // working paper's "\author{Name \\ MIT \& NBER}").
  // Or over its institution's lines unmarked, the country closing them (R Markdown's "author: |"
  // block: the name, then "Department of ..., University of ..., UK" in the same paragraph).
  const names = listsNames(first.text);
  const oneName = isNameLike(first.text.trim()) && !names;
  const affiliationLine = (l: Block['lines'][number]) =>
    (INSTITUTION.test(l.text) &&
      (MARKED_AFFILIATION_LINE.test(l.text) || names || (oneName && !l.text.includes('@')))) ||
    (oneName && ABBREVIATED_AFFILIATION.test(l.text.trim()));
  const other = rest.findIndex((l) => !affiliationLine(l));
  // A list of names over their institution's lines may go on to the institution's street address
  // and a line that gives the email ("Jl. ..., Surabaya 60111" / "e-mail: ..."), an Indonesian
  // journal's author block, all in one paragraph: the address and the contact close it.
  const addressTail =
    names &&
    other > 0 &&
    rest
      .slice(other)
      .every((l) => STREET_ADDRESS_LINE.test(l.text.trim()) || CONTACT_LINE.test(l.text.trim()));
  if (other >= 0 && !addressTail) return b;
  // The runs that hold the first line's characters, white space aside.
  let left = first.text.replace(/\s/g, '').length;
  const runs: Block['runs'] = [];
  for (const run of b.runs) {
    if (left <= 0) break;
    const chars = run.text.replace(/\s/g, '');
    if (chars.length <= left) runs.push(run);
    else {
      // Cut the run after the line's last character.
      let k = 0;
      let seen = 0;
      while (k < run.text.length && seen < left) if (!/\s/.test(run.text[k++]!)) seen++;
      runs.push({ ...run, text: run.text.slice(0, k) });
    }
    left -= chars.length;
  }
  return { ...b, text: first.text, lines: [first], runs };
}

/**
 * A byline led in by its label with what belongs to its people in brackets ("Authors: Jane Roe*
 * (jr@uni.de), Ann Lee, Tom Fox (Institute of Botany, University of Northvale, Germany)", a
 * manuscript typed in a word processor): the bracket that holds an address and a last one that
 * names an institution are cut from the names. The addresses are read from the block as the
 * header's other lines are (a name's address in brackets after it).
 */
function labelledBylineWithoutBrackets(b: Block): Block {
  const text = b.text.trim();
  if (text.length > 500 || !BYLINE_LABEL.test(text) || !text.includes('(')) return b;
  const cut = (t: string) =>
    t
      .replace(/\s*\(\s*[^\s()@]+@[^\s()]+\s*\)/g, '')
      // The last bracket may be closed on the next line, set as a block of its own.
      .replace(/\s*\(([^()]{4,})\)?\s*$/u, (whole, inner: string) => (INSTITUTION.test(inner) ? '' : whole));
  const left = cut(text);
  if (left === text || left.includes('(') || !listsNames(left.replace(BYLINE_LABEL, '').replace(/\s+/g, ' ')))
    return b;
  // A bracket may run over a line's end (two runs): with no raised mark to keep, the cut text is
  // the one run; with marks, each run is cut alone.
  const runs = b.runs.some((r) => r.sup)
    ? b.runs.map((r) => ({ ...r, text: cut(r.text) }))
    : [{ ...b.runs[0]!, text: left }];
  return { ...b, text: left, lines: [{ ...b.lines[0]!, text: left }], runs };
}

/**
 * A byline of marked names over lines that each open with a raised mark, in one block (llncs set
 * small: "Jane Roe¹,², John Doe²" / "¹ KU Leuven"): the lines from the first that opens so are
 * affiliations, whether or not they name an institution by a word; the names end in their marks,
 * no name opens with one.
 */
function bylineOverRaisedAffiliations(b: Block): Block {
  const groups: Block['runs'][] = [[]];
  for (const r of b.runs) {
    if (r.text === '\n') groups.push([]);
    else groups[groups.length - 1]!.push(r);
  }
  if (groups.length !== b.lines.length || groups.length < 2) return b;
  const opensRaised = (g: Block['runs']) => {
    const first = g.find((r) => r.text.trim() !== '');
    return first?.sup === true && /^[\d,*†‡§¶]+$/u.test(first.text.trim());
  };
  const cut = groups.findIndex(opensRaised);
  if (
    cut < 1 ||
    !groups.slice(cut).every((g, k) => opensRaised(g) && MARKED_AFFILIATION_LINE.test(b.lines[cut + k]!.text))
  )
    return b;
  // The names above carry their marks at their ends.
  if (!groups.slice(0, cut).some((g) => g.some((r, k) => r.sup && k > 0 && r.text.trim() !== ''))) return b;
  const lines = b.lines.slice(0, cut);
  const runs = groups.slice(0, cut).flatMap((g, k) => (k === 0 ? g : [{ text: '\n', sup: false }, ...g]));
  return { ...b, text: lines.map((l) => l.text).join(' '), lines, runs };
}

/** A byline block as its names are read: affiliation lines under it and labelled brackets cut. */
export function bylineBlock(b: Block): Block {
  return labelledBylineWithoutBrackets(bylineOverAffiliations(bylineOverRaisedAffiliations(b)));
}

/**
 * One author a line with the affiliation run on after a comma, no address ("Carol Corrado,
 * formerly of the Division of Research and Statistics", a Word paper's author lines): the name
 * before the first comma, on a line of its own with no marks, when the rest names an institution
 * and no piece of it reads as a name (a byline's other authors would).
 */
function nameBeforeInstitution(text: string): string | null {
  if (text.length > 200 || /[@\d*∗†‡§¶‖⊥]/u.test(text)) return null;
  const m = /^([^,()]+),\s*(.+)$/u.exec(text.trim());
  if (!m) return null;
  const name = m[1]!.trim();
  const rest = m[2]!.trim();
  const pieces = rest.split(/\s*,\s*|\s+(?:and|&)\s+/);
  return readsAsPersonName(name) && INSTITUTION.test(rest) && !pieces.some((p) => isNameLike(p))
    ? name
    : null;
}

/**
 * One author a line with the affiliation and the address run on ("Ana Lima, Institute of Things
 * (ana.lima@things.org)", pandoc's plain author field): the name before the first comma, when
 * the line ends in its one address in parentheses and what lies between is no name or the address
 * is the name's.
 */
function nameBeforeAffiliation(text: string): string | null {
  if (text.length > 200) return null;
  const m = /^([^,()@]+),([^()@]+)\(\s*([^\s()]+@[^\s()]+)\s*\)\s*$/u.exec(text.trim());
  if (!m || findEmails(m[3]!).length !== 1) return null;
  const name = m[1]!.trim();
  const rest = m[2]!.trim();
  if (!readsAsPersonName(name) || !rest) return null;
  // "Ana Lima, Bo Park (...)" is a byline of two whose address is not told apart; an address
  // that spells the first name out, or a rest that reads as no name, says the rest is her affiliation.
  const noName = rest.split(/\s*,\s*/).every((p) => !readsAsPersonName(p));
  return noName || emailMatchesName(m[3]!, name) > 0 ? name : null;
}

/**
 * The marks of a byline set high enough over it to be read as a line of their own ("*1  1  1",
 * pazh's class, with the copyright sign that the same line holds): one group of marks a name, in
 * order. Null when the line holds anything else than marks and a leftover or two of no letters.
 */
function raisedMarks(b: Block): string[][] | null {
  if (b.lines.length > 1 || b.text.length > 80) return null;
  const groups = b.runs
    .map((r) => r.text)
    .join('\t')
    .trim()
    .split(/\s*\t\s*|\s{2,}/u)
    .filter(Boolean);
  const marks = groups.filter((g) => /^[\d*†‡§¶#✉][\d,*†‡§¶#✉]*$/u.test(g.trim()));
  const other = groups.filter((g) => !marks.includes(g));
  if (marks.length < 2 || other.length > 1 || other.some((g) => g.length > 3 || !/[©@]/u.test(g)))
    return null;
  return marks.map((g) => splitMarks(g));
}

/**
 * A byline of some forty names or more (A&A's collaboration papers) runs longer than any byline
 * read as a paragraph: it is still one when nearly every entry carries superscript marks, which
 * prose, however long, does not.
 */
function longMarkedByline(b: Block): boolean {
  if (b.text.length > 5000) return false;
  const names = splitByline(b.runs);
  const marked = names.filter((n) => n.sup === true && n.marks.length > 0).length;
  return marked >= 10 && marked >= 0.8 * names.length;
}

/**
 * A thesis cover that names its author in the line saying what the document is, in a Romance
 * language ("Mémoire de fin d'études d'Ana LIMA, août 2020", "Thèse de doctorat de ...", "Tesis de
 * maestría de ..."): the name after the last "de" / "d'" of the line's first part that a
 * capitalised name follows. The part after a comma (a date, a place) is no part of it.
 */
const KIND_OF_DOCUMENT =
  /^(?:m[ée]moire|th[èe]se|rapport|projet|tesis|tesina|trabajo|tese|disserta[çc][ãa]o|monografia|relat[óo]rio)\b/iu;

function namedInKindLine(blocks: Block[], from: number, to: number): EntriesRead | null {
  for (let i = from; i < Math.min(to, from + 8); i++) {
    const text = blocks[i]!.text.replace(/\s+/g, ' ').trim();
    if (text.length > 160 || !KIND_OF_DOCUMENT.test(text)) continue;
    const head = text.split(',')[0]!;
    for (const m of head.matchAll(/\s(?:de|d['’])\s*(?=\p{Lu})/gu)) {
      const name = head.slice(m.index + m[0].length).trim();
      if (readsAsPersonName(name) && !INSTITUTION.test(name))
        return { entries: [{ name, marks: [], lines: [], links: [] }], used: new Set([i]) };
    }
  }
  return null;
}

/** The script a name is written in, as far as telling a name from its transliteration goes. */
function scriptOf(name: string): string {
  if (/\p{Script=Latin}/u.test(name)) return 'latin';
  if (/\p{Script=Greek}/u.test(name)) return 'greek';
  if (/\p{Script=Cyrillic}/u.test(name)) return 'cyrillic';
  return 'other';
}

/**
 * The block holds an "@" that is no raised note mark. achemso's note symbols run on past ∥, ⊥
 * and # to "@": the author with the most affiliations carries it after her name ("Roe∗,‡,¶,@"),
 * a mark like the others, where an "@" elsewhere in a block says it holds an address.
 */
function atOutsideMarks(b: Block): boolean {
  if (!b.text.includes('@')) return false;
  return b.runs.some((r) => r.text.includes('@') && !(r.sup && !/[\p{L}\p{N}]/u.test(r.text)));
}

/**
 * The block after the address block `at` is one line of names in the type of the byline read at
 * `byline`, and an address (an "@" or an institution) stands under it: the next author group.
 * Only after a group of two names or more: single names each over their address are a column of
 * author blocks, read with their own lines by `stackedAuthors`.
 */
function bylineResumes(blocks: Block[], at: number, byline: number): boolean {
  const first = blocks[byline];
  const next = blocks[at + 1];
  const after = blocks[at + 2];
  if (first === undefined || next === undefined || after === undefined) return false;
  if (splitByline(first.runs).filter((n) => isNameLike(n.name)).length < 2) return false;
  if (next.lines.length !== 1 || next.text.length > 200 || next.text.includes('@')) return false;
  if (Math.abs(next.relSize - first.relSize) > 0.05 * first.relSize || next.emphasis !== first.emphasis)
    return false;
  const names = splitByline(next.runs);
  return (
    names.length > 0 &&
    names.every((n) => isNameLike(n.name) && !INSTITUTION.test(n.name)) &&
    (atOutsideMarks(after) || INSTITUTION.test(after.lines[0]?.text ?? ''))
  );
}

/** A date alone, or a month and a year parted by a comma ("March, 2021", a due date as typed). */
function dateAlone(text: string): boolean {
  return (
    DATE_ALONE.test(text) || DATE_ALONE.test(text.replace(/^(\p{L}{3,12}),(?=\s+(?:19|20)\d\d\.?$)/u, '$1'))
  );
}

/**
 * An APA student paper's title page: under the author and the affiliation, the course, the
 * instructor and the due date, each alone on its line ("PSY 210: Research Methods", "Dr. Jane Roe",
 * "March 31, 2021"). The two lines between an institution's line and the date are no byline: the
 * index of the first of them, where the byline ends.
 */
function studentCourseLines(blocks: Block[], from: number, to: number): number | null {
  for (let i = from + 3; i < Math.min(to, from + 12); i++) {
    if (!dateAlone(blocks[i]!.text.trim())) continue;
    const [affiliation, course, instructor] = [blocks[i - 3]!, blocks[i - 2]!, blocks[i - 1]!];
    if (
      [affiliation, course, instructor].every((b) => b.lines.length === 1 && !b.text.includes('@')) &&
      INSTITUTION.test(affiliation.text) &&
      !INSTITUTION.test(course.text) &&
      !INSTITUTION.test(instructor.text)
    )
      return i - 2;
  }
  return null;
}

/** A line that names the group of the names over it: "(Paper Authors)", "(Astropy contributors)". */
const GROUP_LABEL = /^\(\p{L}[^()]{0,60}\)$/u;
/** "et al." alone on its line, under a first group of names that more groups follow. */
const ET_AL_ALONE = /^et\.?\s+al\.?$/iu;

/**
 * Where a byline of author groups goes on after block `i`, which is none of its names; -1 where it
 * ends there. A collaboration's author list (AASTeX's author groups) sets a label under each group
 * ("(Paper Authors)", "et al." under the first), and the list runs on over the next page, the
 * first page's notes (the corresponding author, the footnote on the list) set smaller at its foot
 * between. Each goes on only into a block of names in the byline's type (or the next label), with
 * a superscript mark after two of them or more where a page is turned.
 */
function bylineGoesOn(blocks: Block[], i: number, byline: Block, lastUsed: number): number {
  const sameType = (b: Block | undefined) =>
    b !== undefined &&
    Math.abs(b.relSize - byline.relSize) <= 0.05 * byline.relSize &&
    b.emphasis === byline.emphasis;
  const names = (b: Block | undefined) => {
    if (!sameType(b)) return false;
    const pieces = splitByline(b!.runs);
    const people = pieces.filter((n) => isNameLike(n.name) && !INSTITUTION.test(n.name));
    return pieces.length > 0 && people.length >= 0.7 * pieces.length;
  };
  const b = blocks[i]!;
  const text = b.text.trim();
  if (b.lines.length === 1 && sameType(b) && (GROUP_LABEL.test(text) || ET_AL_ALONE.test(text)))
    return names(blocks[i + 1]) || GROUP_LABEL.test(blocks[i + 1]?.text.trim() ?? '') ? i + 1 : -1;
  const page = blocks[lastUsed]!.page;
  if (b.page !== page || b.relSize >= byline.relSize) return -1;
  let k = i;
  while (blocks[k] !== undefined && blocks[k]!.page === page && blocks[k]!.relSize < byline.relSize) k++;
  const next = blocks[k];
  return next !== undefined && next.page === page + 1 && names(next) && markedNameCount(next) >= 2 ? k : -1;
}

/**
 * A web page's title block printed from a browser (Quarto's and Distill's HTML) sets its fields as
 * a grid: a small label in capitals alone on its line ("AUTHORS", "AFFILIATIONS", "PUBLISHED",
 * "OTHER FORMATS") over each field's lines. Under the authors' label the names stand one to a
 * line, with no marks and no commas between them (an envelope or ORCID icon after a name is a
 * link, cut before this reads); the column ends at the first line that is no name (the next
 * label, an institution). Read as the one field it is: across the grid, a byline reader takes the
 * labels for names and the names for one name's lines.
 */
function namesUnderAuthorsLabel(blocks: Block[], from: number, to: number): EntriesRead | null {
  for (let i = from; i < Math.min(to, from + 4); i++) {
    const label = blocks[i]!;
    const text = label.text.trim();
    if (label.lines.length !== 1 || !/^AUTHORS?$/u.test(text)) continue;
    const entries: Entry[] = [];
    const used = new Set<number>([i]);
    for (let k = i + 1; k < to && blocks[k]!.page === label.page; k++) {
      const b = blocks[k]!;
      const lines = b.lines.map((l) => l.text.trim()).filter(Boolean);
      const names = lines.every(
        (l) => isNameLike(l) && !INSTITUTION.test(l) && !INSTITUTION_WORD.test(l) && l !== l.toUpperCase(),
      );
      if (!lines.length || !names || b.runs.some((r) => r.sup)) break;
      for (const name of lines) entries.push({ name, marks: [], lines: [], links: [] });
      used.add(k);
    }
    return entries.length ? { entries, used } : null;
  }
  return null;
}

/** Bylines: names separated by commas and "and", with superscript marks. */
function inlineAuthors(blocks: Block[], from: number, bylineTo: number): EntriesRead {
  const to = studentCourseLines(blocks, from, bylineTo) ?? bylineTo;
  const byLabel =
    namesAfterBy(blocks, from, to) ??
    namedByRoleLabels(blocks, from, to) ??
    namedInKindLine(blocks, from, to);
  if (byLabel) return byLabel;
  const entries: Entry[] = [];
  const used = new Set<number>();
  // A name wrapped at the end of a byline block ("Susanne" / "K. Laborator") runs on into the next.
  let carry: string | null = null;
  // Authors set one to a paragraph right under the title, with no marks and nothing else on their
  // lines (a hand-written Word draft): one such line alone may be a subtitle, but two or more in a
  // row, in the same type, are a column of names. A date alone on its line between the title and
  // the column (a proposal's or a report's cover) is stepped over.
  const columnStart =
    blocks[from] !== undefined && DATE_ALONE.test(blocks[from].text.trim()) ? from + 1 : from;
  const columnEnd = nameColumnEnd(blocks, columnStart, to);
  for (let i = from; i < Math.min(to, from + 16); i++) {
    if (entries.length && i > Math.max(...used)) {
      const resumes = bylineGoesOn(blocks, i, blocks[Math.min(...used)]!, Math.max(...used));
      if (resumes > i) {
        i = resumes - 1;
        continue;
      }
    }
    const b = labelledBylineWithoutBrackets(blocks[i]!);
    // An "@" in the contact line that closes the names' own paragraph (bylineOverAffiliations)
    // makes it no address block.
    const namesOverContact = atOutsideMarks(b) && !atOutsideMarks(bylineOverAffiliations(b));
    if ((b.text.length > 700 && !longMarkedByline(b)) || (atOutsideMarks(b) && !namesOverContact)) {
      const own = nameBeforeAffiliation(b.text);
      if (own) {
        entries.push({ name: own, marks: [], lines: [], links: [] });
        used.add(i);
        continue;
      }
      // The address under one group of names, with more names and their own address under it
      // (World Scientific's proceedings: each \\author over its \\address): the byline goes on.
      if (entries.length && !bylineResumes(blocks, i, Math.min(...used))) break;
      continue;
    }
    const before = b.lines.length === 1 && !b.runs.some((r) => r.sup) ? nameBeforeInstitution(b.text) : null;
    if (before) {
      entries.push({ name: before, marks: [], lines: [], links: [] });
      used.add(i);
      continue;
    }
    // A heading over the byline ("Authors") is its label, no name; one after it opens the next part.
    // So is a title's label alone on its line (a second cover's "ĐỀ TÀI" over its title), and the
    // kind of work a cover sets under its student ("ΔΙΠΛΩΜΑΤΙΚΗ ΕΡΓΑΣΙΑ", "SZAKDOLGOZAT").
    if (FRONT_LABEL.test(b.text.trim()) || bareTitleLabel(b) || kindOfWork(b)) {
      if (entries.length) break;
      continue;
    }
    if (supervisorsRow(b.text)) break;
    // Marks follow the names in a byline; a block that opens with a superscript mark is the
    // list of affiliations under it.
    if (entries.length && b.runs[0]?.sup && splitMarks(b.runs[0].text).length) break;
    const unraised = bylineOverRaisedAffiliations(b);
    const overOwnLines = bylineOverAffiliations(unraised);
    // The name set over its own affiliation's lines in one block says it is a byline by them.
    const overOwnAffiliation = overOwnLines.lines.length < unraised.lines.length;
    // A role's word standing where a name goes ("Jane Roe¹ and Orientador²", a student template's
    // placeholder for the advisor) names no one: it is neither an author nor counted against the line.
    const names = splitByline(bylineSentence(overOwnLines)).filter((n) => !SUPERVISOR_LABEL.test(n.name));
    const raised = i > from ? raisedMarks(blocks[i - 1]!) : null;
    if (raised && raised.length === names.length && names.every((n) => n.marks.length === 0))
      names.forEach((n, k) => {
        n.marks = raised[k]!;
        n.sup = true;
      });
    if (carry && names[0] && inCapitals(carry) === inCapitals(names[0].name))
      names[0].name = `${carry} ${names[0].name}`;
    const last = names[names.length - 1];
    const beforeLast = names[names.length - 2];
    // Only a word of letters is a name's wrapped part: a rule drawn as a dash ("—") over the
    // byline separates it from the title, and is no part of its first name.
    carry =
      last &&
      last.marks.length === 0 &&
      !last.name.includes(' ') &&
      /^\p{L}/u.test(last.name) &&
      (beforeLast === undefined ||
        (isNameLike(beforeLast.name) && inCapitals(beforeLast.name) === inCapitals(last.name))) &&
      !/(?:[,;&]|\band)$/.test(b.text.trim())
        ? last.name
        : null;
    let good = names.filter(
      (n) => isMarkedNameLike(n.name, n.sup === true) && !INSTITUTION_WORD.test(n.name),
    );
    // A person known by one name ("Saurabh Kumar, Amartyaveer, Prasanta Kumar Ghosh", Interspeech):
    // one word reads as no name alone, but set between two names of the same list it is one by
    // its place. At either end of the list it could be an affiliation run on, so it stays out.
    good = names.filter(
      (n, k) =>
        good.includes(n) ||
        (isMononym(n.name) &&
          !INSTITUTION.test(n.name) &&
          good.includes(names[k - 1]!) &&
          good.includes(names[k + 1]!)),
    );
    // Names set in capitals (small caps) beside affiliations in ordinary case: the case tells them apart.
    const upper = (t: string) => t === t.toUpperCase() && /\p{Lu}{2}/u.test(t);
    if (good.some((n) => upper(n.name)) && good.some((n) => !upper(n.name)))
      good = good.filter((n) => upper(n.name));
    // In a byline the other entries prove (two names or more, each with superscript marks), an
    // entry with superscript marks is a name by its place, though it reads as none ("Senior
    // author", a template's sample).
    if (good.filter((n) => n.sup === true).length >= 2)
      good = names.filter(
        (n) =>
          good.includes(n) ||
          (n.sup === true &&
            n.name.includes(' ') &&
            isNameSlot(n.name) &&
            !INSTITUTION.test(n.name) &&
            !INSTITUTION_WORD.test(n.name)),
      );
    // "GANG ZHOU, College of William and Mary": an affiliation set after the names on the same
    // line (ACM journals) is neither a name nor a reason to doubt the line.
    const capitals = good.some((g) => upper(g.name));
    const institutional = names.filter(
      (n) => !good.includes(n) && (INSTITUTION.test(n.name) || (capitals && !upper(n.name))),
    ).length;
    // Such a line still opens with a name; an affiliation line opens with its institution.
    const opensWithName = institutional === 0 || (names[0] !== undefined && good.includes(names[0]));
    // A byline block in smaller type than this one follows: this one is a subtitle ("A Short
    // Subtitle" under the title), not a name.
    const next = blocks[i + 1];
    const nextIsByline = (size: number) => {
      if (next === undefined || next.text.length >= 300 || Math.abs(next.relSize - size) > 0.05 * size)
        return false;
      const pieces = splitByline(next.runs);
      const people = pieces.filter((n) => isNameLike(n.name) && !INSTITUTION.test(n.name));
      return people.length >= Math.max(1, 0.7 * pieces.length);
    };
    if (names.length && opensWithName && good.length >= Math.max(1, 0.7 * (names.length - institutional))) {
      // A lone unmarked name in the body's face may be a subtitle or a running line; one set right
      // over a line of nothing but its email address (ACL's single author) is a byline. So is one
      // right under the title and over a short line naming an institution, in the same size (APA's
      // title page: title, name, affiliation, all at the body's size and face).
      // The address may open a block of the cover's labelled fields under the name ("E-mail: ..."
      // then "Co-promotor: ..."): its first line is the name's.
      const overEmail =
        next !== undefined &&
        next.text.length <= 200 &&
        (isEmailLine(next.text) || labelledEmailLine(next.lines[0]?.text ?? ''));
      // The institution's line may have the author's email address under it, on lines of their own
      // (SciPost: title, name, institution, "*roe@cern.ch").
      const institutionLine = next?.lines[0]?.text ?? '';
      const overInstitution =
        i === from &&
        next !== undefined &&
        institutionLine.length <= 120 &&
        INSTITUTION_WORD.test(institutionLine) &&
        !institutionLine.includes('@') &&
        next.lines.slice(1).every((l) => isEmailLine(l.text)) &&
        Math.abs(next.relSize - b.relSize) <= 0.05 * b.relSize;
      // Or right under the title's institution line, in its size (a thesis's cover: title,
      // university and department, the student's name, then labelled lines).
      const prev = blocks[i - 1];
      const underInstitution =
        i === from + 1 &&
        prev !== undefined &&
        prev.lines.length === 1 &&
        prev.text.length <= 120 &&
        INSTITUTION_WORD.test(prev.text) &&
        !prev.text.includes('@') &&
        Math.abs(prev.relSize - b.relSize) <= 0.05 * b.relSize;
      // So is one right under the title and over a line that holds a date alone, in its size
      // (LaTeX's \maketitle: title, author, date; a working paper's or a proposal's first page).
      const overDate =
        i === from &&
        next !== undefined &&
        next.lines.length === 1 &&
        DATE_ALONE.test(next.text.trim()) &&
        Math.abs(next.relSize - b.relSize) <= 0.05 * b.relSize;
      // Or one right under the title over a cover's field naming the supervisor (the student's),
      // or over the kind of work (a thesis cover: title, the student, "Diplomová práce").
      const overSupervisor =
        i === from && (overNamedSupervisor(blocks, i) || (next !== undefined && kindOfWork(next)));
      // A byline that closes with "et al." ("Jane Roe, et al.") says it is one by that phrase.
      const etAl = /,?\s*et\.?\s+al\b\.?\s*$/i.test(b.text);
      // So does one led in by its label ("Autor: Jane Roe", a thesis cover's labelled lines).
      const labelled = BYLINE_LABEL.test(b.text.trim());
      if (
        names.length === 1 &&
        !etAl &&
        !labelled &&
        !b.emphasis &&
        good[0]!.marks.length === 0 &&
        entries.length === 0 &&
        !overEmail &&
        !overInstitution &&
        !underInstitution &&
        !overDate &&
        !overSupervisor &&
        !overOwnAffiliation &&
        i >= columnEnd
      )
        continue;
      const subtitle =
        entries.length === 0 &&
        i === from &&
        names.length === 1 &&
        good[0]!.marks.length === 0 &&
        next !== undefined &&
        next.relSize < 0.95 * b.relSize &&
        nextIsByline(next.relSize);
      if (subtitle) continue;
      // The byline printed again in Latin letters under the one in the document's own script (a
      // Japanese or Korean paper's romanized names under its translated title, "Taro KIKAI∗1"
      // under "機械 太郎∗1"), as many names: the same people, read once, as written first.
      if (romanizedAgain(entries, good)) break;
      for (const n of good) entries.push({ name: n.name, marks: n.marks, lines: [], links: [] });
      used.add(i);
    } else if (entries.length) {
      // "University of Virginia and": an affiliation line that leaves the byline's sentence open
      // (ACM journals set one per author group) is stepped over, not the end of the byline. It
      // reads as an institution, or it is set in another size than the names ("Google and").
      // So is an affiliation set smaller under each name, with the next name after it
      // (elsarticle's separate affiliations).
      // Or in another face (AMS: the affiliation in italics under each author group).
      const bylineBlock = blocks[Math.min(...used)]!;
      const bylineSize = bylineBlock.relSize;
      const apart =
        institutional === names.length ||
        Math.abs(b.relSize - bylineSize) > 0.05 * bylineSize ||
        (b.emphasis && !bylineBlock.emphasis && institutional > 0);
      const continues =
        names.length > 0 && apart && (/(?:,|\band)$/.test(b.text) || nextIsByline(bylineSize));
      if (!continues) break;
    }
  }
  // Each romanized name is kept beside its own, to tie an address to it ("taro@..."): the
  // romanized byline is looked for in the few blocks after the one read (a translated title between).
  if (entries.length && entries.every((e) => scriptOf(e.name) === 'other')) {
    const last = Math.max(...used);
    for (let k = last + 1; k < Math.min(to, last + 4); k++) {
      const again = splitByline(blocks[k]!.runs).filter(
        (n) => isNameLike(n.name) && !INSTITUTION.test(n.name),
      );
      if (!romanizedAgain(entries, again)) continue;
      entries.forEach((e, j) => (e.romanized = again[j]!.name));
      break;
    }
  }
  return { entries, used };
}

/** Names in Latin letters as many as the entries read in another script (Han, kana, Hangul). */
function romanizedAgain(entries: Entry[], names: { name: string }[]): boolean {
  return (
    entries.length > 0 &&
    entries.length === names.length &&
    entries.every((e) => scriptOf(e.name) === 'other') &&
    names.every((n) => scriptOf(n.name) === 'latin')
  );
}

/**
 * Paragraphs in a Word style named for the byline ("Author"): the style says what they are, so a
 * lone name without marks is an author too. A paragraph of several lines (IEEE's Word template:
 * name, department, institution, email) is one author: its first line is the name (or names
 * joined by "and"), the lines under it are that author's affiliation and email. A paragraph of
 * one line is a byline, split like any other.
 */
function styledAuthors(
  blocks: Block[],
  from: number,
  to: number,
): { entries: Entry[]; used: Set<number>; perEntry: boolean } {
  const entries: Entry[] = [];
  const used = new Set<number>();
  let perEntry = false;
  for (let i = from; i < Math.min(to, from + 40); i++) {
    const b = blocks[i]!;
    if (!isAuthorStyle(b.styleName ?? '') || b.text.length > 700) continue;
    // Affiliations set in the byline's style (apaquarto's Word output) open with their mark.
    if (opensWithNoteMark(b)) continue;
    const [head, ...rest] = b.lines.map((l) => l.text.trim()).filter(Boolean);
    if (head === undefined) continue;
    // A first line that ends on a comma or "and" leaves the byline's sentence open: the lines
    // under it are more names (a byline wrapped by hand), not the address of an author.
    if (rest.length && !/(?:,|\band|&)$/u.test(head)) {
      const names = splitByline([{ text: head, sup: false }]).filter(
        (n) => isNameSlot(n.name) && !INSTITUTION.test(n.name) && findEmails(n.name).length === 0,
      );
      if (!names.length) continue;
      const lines = [...rest];
      const links = [...b.links];
      for (const n of names) entries.push({ name: n.name, marks: n.marks, lines, links });
      perEntry = true;
    } else {
      const names = splitByline(b.runs).filter(
        (n) => isMarkedNameLike(n.name, n.sup === true) && !INSTITUTION_WORD.test(n.name),
      );
      if (!names.length) continue;
      for (const n of names) entries.push({ name: n.name, marks: n.marks, lines: [], links: [] });
    }
    used.add(i);
  }
  return { entries, used, perEntry };
}

/** Affiliation marks raised after a name: digits and note signs ("1", "2,3", "*"); no icon's text ("ID"). */
const AFFILIATION_MARKS = /^[\d*∗†‡§¶#✉,]+$/u;

/**
 * The text of the superscript run of marks that ends each of a block's lines ("1" after "Jane Roe"), or ''
 * when the line ends in its own type; a block's runs mark its line breaks with "\n".
 */
function supTailsByLine(b: Block): string[] {
  const tails: string[] = [''];
  for (const r of b.runs) {
    const parts = r.text.split('\n');
    parts.forEach((part, k) => {
      if (k > 0) tails.push('');
      if (part.trim())
        tails[tails.length - 1] = r.sup && AFFILIATION_MARKS.test(part.trim()) ? part.trim() : '';
    });
  }
  return tails.length === b.lines.length ? tails : b.lines.map(() => '');
}

/**
 * A paragraph of the body: prose of two sentences or more at the body's size or larger, in the
 * body's face, most of its words in lower case (a list of affiliations is mostly capitalised).
 */
function bodyParagraph(b: Block): boolean {
  if (!isProse(b) || b.relSize < 0.95 || b.emphasis || !/[.!?]\s+\p{Lu}/u.test(b.text)) return false;
  const words = b.text.split(/\s+/).filter((w) => /^\p{L}{4,}/u.test(w));
  return words.length >= 30 && words.filter((w) => /^\p{Lu}/u.test(w)).length < 0.35 * words.length;
}

/**
 * The note marks and affiliation numbers a byline's name ends with ("Jane Roe*¹,"). The look-behind
 * lets a match start only where their run starts: read once, not again from each mark (without it,
 * a paragraph of 40,000 "*" and a letter held a parser worker 13 s).
 */
export const NAME_END_MARKS = /(?<![*∗†‡§¶✉⁰¹²³⁴⁵⁶⁷⁸⁹,])[*∗†‡§¶✉⁰¹²³⁴⁵⁶⁷⁸⁹,]+$/u;

/**
 * Icons after a name that a font without them prints as glyphs: the envelope of a mailto link
 * ("@", or "#" from fontawesome's envelope), the ORCID mark ("ORCID", "iD"). LIPIcs sets them so
 * ("Jane Roe @ ORCID") when fontawesome5 is missing.
 */
const ICON_LABELS = /(?:\s+(?:[@#✉]|ORCID(?: ?iD)?|iD))+$/u;

/** A line's icon labels cut from its end, where the line holds the links they stand for. */
function withoutIconLabels(text: string, links: string[]): string {
  if (!links.some((u) => /^mailto:/i.test(u) || findOrcids(u).length > 0)) return text;
  return text.replace(ICON_LABELS, '');
}

/** One author per paragraph or line: a name line, then lines with identifiers and affiliations. */
function stackedAuthors(
  blocks: Block[],
  from: number,
  until: number,
): { entries: Entry[]; used: Set<number>; sideBySide: boolean } {
  // Author blocks stand before the body: a heading under a paragraph of the body's prose (a
  // handout's "Page Layout" after its opening paragraph) is no name over its lines.
  const prose = blocks.slice(from, until).findIndex(bodyParagraph);
  const to = prose < 0 ? until : from + prose;
  const entries: Entry[] = [];
  const used = new Set<number>();
  const lines: { text: string; block: number; emphasis: boolean; links: string[]; cellTop?: boolean }[] = [];
  for (let i = from; i < to; i++) {
    const b = blocks[i]!;
    // A line's last run raised as a superscript is its affiliation mark ("Jane Roe" and a raised
    // "1", BMVC): no part of the name, whatever it is made of.
    const raisedTails = supTailsByLine(b);
    b.lines.forEach((l, n) =>
      lines.push({
        text: withoutIconLabels(
          raisedTails[n] && l.text.endsWith(raisedTails[n])
            ? l.text.slice(0, -raisedTails[n].length)
            : l.text,
          l.links ?? b.links,
        ),
        block: i,
        emphasis: b.emphasis,
        links: l.links ?? b.links,
        cellTop: l.cellTop,
      }),
    );
  }
  let current: Entry | null = null;
  let sideBySide = false;
  const markOnly = (text: string) => /^[\s*∗†‡§¶#✉,]+$/u.test(text);
  const unmarked = (text: string) => text.replace(NAME_END_MARKS, '').trim();
  const andLine = (text: string) => /^(?:and|&)$/i.test(text.trim());
  // Author groups joined by a line "and" (a name, its affiliation lines, "and", the next name):
  // the first line of each group is a name by its place, whatever it looks like ("Author 1").
  const groupOpeners = new Set<number>();
  for (const block of new Set(lines.filter((l) => andLine(l.text)).map((l) => l.block))) {
    const own = lines.map((l, k) => ({ l, k })).filter(({ l }) => l.block === block);
    const openers = own.filter(({ l }, j) => j === 0 || (andLine(own[j - 1]!.l.text) && !andLine(l.text)));
    const identified = openers.every(({ k }) => {
      const after = lines[k + 1];
      return (
        isNameSlot(unmarked(lines[k]!.text)) &&
        !INSTITUTION.test(lines[k]!.text) &&
        after !== undefined &&
        after.block === block &&
        (INSTITUTION.test(after.text) || findEmails(after.text).length > 0)
      );
    });
    if (openers.length >= 2 && identified) openers.forEach(({ k }) => groupOpeners.add(k));
  }
  // Blocks set side by side: a block's top line beside blocks that open with a name, in the same
  // type, opens with a name too, even one a byline reader would not take ("his friend").
  const sizeOf = (l: (typeof lines)[number]) => blocks[l.block]!.relSize;
  const namedCellSizes = lines
    .filter((l) => l.cellTop === true && isNameLike(unmarked(l.text)) && !INSTITUTION.test(l.text))
    .map(sizeOf);
  const besideNamedCell = (l: (typeof lines)[number]) =>
    l.cellTop === true &&
    isNameSlot(unmarked(l.text), true) &&
    !INSTITUTION.test(l.text) &&
    namedCellSizes.some((size) => Math.abs(size - sizeOf(l)) <= 0.05 * size);
  // Author paragraphs in a row (Manubot): a paragraph that opens with a name followed by its
  // ORCID, or set in bold, proves the layout; a neighbouring paragraph of the same shape opens
  // with a name too when its other lines identify a person (an affiliation, a handle, an email),
  // though its author has no ORCID.
  const firstLine = new Map<number, number>();
  lines.forEach((l, k) => {
    if (!firstLine.has(l.block)) firstLine.set(l.block, k);
  });
  const namedParagraph = (block: number): boolean => {
    const k = firstLine.get(block);
    const first = k === undefined ? undefined : lines[k];
    return (
      first !== undefined &&
      first.cellTop === undefined &&
      isNameLike(unmarked(first.text)) &&
      !INSTITUTION.test(first.text) &&
      lines.some((l) => l.block === block && l !== first)
    );
  };
  const identifies = (block: number) =>
    lines.some(
      (l, k) =>
        l.block === block &&
        k !== firstLine.get(block) &&
        (INSTITUTION.test(l.text) || findEmails(l.text).length > 0 || findOrcids(l.text).length > 0),
    );
  const proven = new Set(
    [...firstLine.keys()].filter((block) => {
      if (!namedParagraph(block)) return false;
      const k = firstLine.get(block)!;
      const next = lines.slice(k + 1).find((l) => !markOnly(l.text));
      // Or its own lines name the person's institution and give her email (a Word manuscript's
      // author paragraphs, ASME's: the name, its department and university, "email: ..." on
      // lines of their own, none of it in bold).
      const own = lines.filter((l, j) => l.block === block && j > k);
      const addressed =
        own.some((l) => INSTITUTION.test(l.text)) && own.some((l) => findEmails(l.text).length === 1);
      return lines[k]!.emphasis || (next?.block === block && findOrcids(next.text).length > 0) || addressed;
    }),
  );
  for (let grew = proven.size > 0; grew;) {
    grew = false;
    for (const block of firstLine.keys()) {
      if (proven.has(block) || !(proven.has(block - 1) || proven.has(block + 1))) continue;
      if (namedParagraph(block) && identifies(block)) {
        proven.add(block);
        grew = true;
      }
    }
  }
  // A column of names beside a column of as many emails (JMLR's names joined by "\AND"): each
  // name takes the email on its row, and the email column is read.
  const rowEmail = new Map<number, string>();
  const emailColumn = new Set<number>();
  for (const [block, k0] of firstLine) {
    const names = lines.filter((l) => l.block === block);
    const emails = lines.filter((l) => l.block === block + 1);
    const single = (t: string) => findEmails(t).length === 1 && t.trim().split(/\s+/).length === 1;
    if (
      names.length >= 2 &&
      emails.length === names.length &&
      names.every((l) => isNameLike(unmarked(l.text)) && !INSTITUTION.test(l.text)) &&
      emails.every((l) => single(l.text))
    ) {
      names.forEach((_, n) => rowEmail.set(k0 + n, findEmails(emails[n]!.text)[0]!));
      emailColumn.add(block + 1);
    }
  }
  let firstPage: number | null = null;
  lines.forEach((line, k) => {
    if (emailColumn.has(line.block)) {
      used.add(line.block);
      return;
    }
    // Marks set on a line of their own (✉, †) sit between a name and its identifiers.
    if (markOnly(line.text)) {
      if (current) current.marks.push(...splitMarks(line.text));
      return;
    }
    const next = lines.slice(k + 1).find((l) => !markOnly(l.text));
    // In blocks set side by side, a name opens a block; elsewhere it stands out by its face or
    // by the ORCID under it.
    if (andLine(line.text) && groupOpeners.size) return;
    // A name with its email on the same line (JMLR's "\name ... \email ..."): the email
    // identifies the person, and it is the first of the entry's lines.
    const besideEmail = nameBesideEmail(line.text);
    const rowed = rowEmail.get(k);
    const withEmail = besideEmail ?? (rowed === undefined ? null : { name: line.text, email: rowed });
    const nameText = withEmail?.name ?? line.text;
    const nameLine =
      groupOpeners.has(k) ||
      rowed !== undefined ||
      besideNamedCell(line) ||
      (proven.has(line.block) && firstLine.get(line.block) === k) ||
      ((isNameLike(unmarked(nameText)) ||
        (line.cellTop === true && sharedHead(unmarked(nameText)) !== null)) &&
        !INSTITUTION.test(nameText) &&
        (withEmail !== null ||
          (line.cellTop ?? (line.emphasis || (next !== undefined && findOrcids(next.text).length > 0)))));
    // A cover printed again in the document's other language on a later page (a Greek thesis's
    // English cover, then its Greek one) names the same people in another script: no author.
    const page = blocks[line.block]!.page;
    if (
      nameLine &&
      entries.length &&
      firstPage !== null &&
      page > firstPage &&
      scriptOf(unmarked(nameText)) !== scriptOf(entries[0]!.name)
    ) {
      current = null;
      return;
    }
    if (nameLine) {
      firstPage ??= page;
      sideBySide ||= line.cellTop === true;
      // Authors who share an address share a column head ("Jane Roe and John Doe", IEEEtran):
      // each is an author, and the lines under the head are theirs alike.
      const lines: string[] = withEmail ? [withEmail.email] : [];
      const links = [...line.links];
      const heads = sharedHead(unmarked(nameText));
      for (const name of heads ?? [unmarked(nameText)]) {
        // An ORCID or mailto link may lie on the name itself.
        current = { name, marks: [], lines, links };
        entries.push(current);
      }
      used.add(line.block);
      return;
    }
    // A column head too long for its line goes on with "and" and the next name ("Jane Roe" /
    // "and John Doe"): read before any line of the address under the head.
    const more = current && current.lines.length === 0 ? /^(?:and|&)\s+(.+)$/iu.exec(line.text) : null;
    if (current && more && isNameLike(unmarked(more[1]!)) && !INSTITUTION.test(more[1]!)) {
      current = { name: unmarked(more[1]!), marks: [], lines: current.lines, links: current.links };
      entries.push(current);
      used.add(line.block);
      return;
    }
    // A sentence in a paragraph of its own after the last block (a correspondence or an
    // equal-contribution note) belongs to no one author: it is read with the other notes. Its
    // words are counted by their letters: an address's dashes and numbers ("Université de
    // Lorraine - ERPI - F-54000, Nancy, France.") make no sentence of it.
    const sentence =
      /\.$/.test(line.text) && line.text.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length >= 8;
    if (current && sentence && line.block !== lines[k - 1]?.block) current = null;
    if (current) {
      current.lines.push(line.text);
      current.links.push(...line.links);
      used.add(line.block);
    }
  });
  // A name followed by nothing that identifies a person is more likely a heading or a caption.
  const real = entries.filter((e) => e.lines.length > 0);
  return { entries: real.length >= 2 ? real : [], used, sideBySide };
}

/** The closing bracket of each opening one an address may be set in. */
const CLOSING_BRACKET: Record<string, string> = { '<': '>', '(': ')', '[': ']', '{': '}' };

/**
 * "Jane Roe jane@example.org": a name and an email, nothing else, on one line; else null. The
 * address may be set in brackets of its own ("Jane Roe { jane@example.org }", a Brazilian
 * template's byline; "Jane Roe <jane@example.org>").
 */
function nameBesideEmail(text: string): { name: string; email: string } | null {
  // Such a line is short; the bound keeps the pattern's backtracking small on a hostile one.
  if (text.length > 200) return null;
  const m = /^(.+?)\s+(?:([<([{])\s*)?([^\s<>()[\]{}]+@[^\s<>()[\]{}]+\.\w+)(?:\s*([>)\]}]))?$/u.exec(
    text.trim(),
  );
  if (!m || (m[2] === undefined) !== (m[4] === undefined)) return null;
  if (m[2] !== undefined && CLOSING_BRACKET[m[2]] !== m[4]) return null;
  if (findEmails(m[3]!).length !== 1 || findEmails(m[1]!).length) return null;
  return { name: m[1]!.trim(), email: m[3]! };
}

/**
 * "Jane Roe and John Doe", "Jane Roe, John Doe": names joined by "and" (or "&") or by commas in one
 * column head, else null. Joined by commas, each is a name of two words or more: "Roe, Jane" is
 * one name written surname first.
 */
function sharedHead(text: string): string[] | null {
  const parts = text.split(/\s+(?:and|&)\s+|,\s+(?:(?:and|&)\s+)?/i);
  if (parts.length < 2) return null;
  const byComma = /,/.test(text);
  return parts.every(
    (p) => isNameLike(p) && !INSTITUTION.test(p) && (!byComma || p.trim().split(/\s+/).length >= 2),
  )
    ? parts
    : null;
}

/** "JOHN A. STANKOVIC" (small caps) to "John A. Stankovic"; a name in mixed case is left alone. */
export function fromCapitals(name: string): string {
  if (name !== name.toUpperCase() || !/\p{Lu}{2}/u.test(name)) return name;
  return name.replace(/\p{Lu}+/gu, (w, at: number) =>
    w.length === 1 || name[at + w.length] === '.' ? w : w[0] + w.slice(1).toLowerCase(),
  );
}

/**
 * The entries a reader found for the authors, the blocks it read them from, and whether each entry
 * carries its own lines (an author block and its addresses) or reads them from marked lines around.
 */
export interface AuthorEntries {
  entries: Entry[];
  used: Set<number>;
  ownLines: boolean;
  /** The title printed again over the manuscript's own byline (after a cover sheet): no one's line. */
  titleAgain: number | null;
}

/** The authors as the readers of bylines, author blocks and covers find them between the title and `frontEnd`. */
export function readAuthorEntries(
  blocks: Block[],
  { title, titleIndex, titleEnd }: TitleSpan,
  start: number,
  frontEnd: number,
): AuthorEntries {
  // A cover sheet set before the manuscript ("Manuscript Title: ...", its corresponding author's
  // address), then the manuscript's own title page printing the title again on a later page: the
  // title printed again is no byline, and the byline is read under it, the manuscript's own (a
  // cover may name its corresponding author alone); the cover's lines are still read for emails.
  // The title printed again is set as one, no smaller than the body: a form's field that gives the
  // title in small print (a thesis's abstract form, "Title" and the title) repeats no title page.
  const folded = title ? foldWords(title) : '';
  const repeated =
    titleIndex === null || folded.split(' ').length < 3
      ? -1
      : blocks.findIndex(
          (b, i) =>
            i >= start &&
            i < frontEnd &&
            b.page > blocks[titleIndex]!.page &&
            // No smaller than the body, to the rounding of sizes (a cover set all at the body's size).
            b.relSize >= 0.98 &&
            foldWords(b.text) === folded,
        );
  const bylineStart = repeated >= 0 ? repeated + 1 : start;
  // A thesis prints its title page more than once (the cover, the title page with the ORCIDs, the
  // jury's approval page): the byline under the title printed again ends where it is printed a
  // third time, whose lines ("... Tarafından Hazırlanan", the jury) are no one's byline.
  const again =
    repeated >= 0
      ? blocks.findIndex(
          (b, i) =>
            i > repeated && i < frontEnd && b.page > blocks[repeated]!.page && foldWords(b.text) === folded,
        )
      : -1;
  // A cover's label over its supervisor alone on its line ("Επιβλέπων") under the student's name
  // alone on its line ends the byline: the name under the label is no author's.
  const supervisorAt = blocks.findIndex(
    (b, i) =>
      i > bylineStart &&
      i < frontEnd &&
      b.page === blocks[bylineStart]?.page &&
      SUPERVISOR_LABEL.test(b.text.trim()),
  );
  const nameBefore =
    supervisorAt > bylineStart && blocks.slice(bylineStart, supervisorAt).some((b) => isLoneName(b));
  const bylineEnd = nameBefore ? supervisorAt : again >= 0 ? again : frontEnd;
  const inline = inlineAuthors(blocks, bylineStart, bylineEnd);
  const stacked = stackedAuthors(blocks, bylineStart, bylineEnd);
  // Blocks set side by side are read as such: across them, a byline reader would take each
  // block's affiliation lines for names.
  const styled = styledAuthors(blocks, bylineStart, bylineEnd);
  // Author blocks that each carry their person's email or ORCID link (LIPIcs: the name, its
  // icons, the affiliation under it) are read as blocks where a byline reader finds as many names:
  // across them, it takes an affiliation's last word for a wrapped name ("Switzerland Jane Roe").
  // Where both read the same names, the byline reader's reading stands (its marks: "Jane Roe *").
  const sameNames = (a: Entry[], b: Entry[]) =>
    a.map((e) => foldWords(e.name)).join('|') === b.map((e) => foldWords(e.name)).join('|');
  const linkedEach =
    stacked.entries.length > 0 &&
    !sameNames(stacked.entries, inline.entries) &&
    stacked.entries.every((e) => e.links.some((u) => /^mailto:/i.test(u) || findOrcids(u).length > 0));
  const read = styled.entries.length
    ? styled
    : stacked.entries.length > inline.entries.length ||
        (stacked.sideBySide && stacked.entries.length) ||
        (linkedEach && stacked.entries.length === inline.entries.length)
      ? stacked
      : inline;
  const bracketed = bracketedAffiliations(blocks[bylineStart]);
  const hanNamed = (k: number) => {
    const entries = hanByline(blocks, k, titleIndex);
    return entries.length ? { entries, used: new Set([k]) } : null;
  };
  const underCapitals = nameUnderCapitalsTitle(blocks, titleIndex, titleEnd);
  const proposalPart = titleIndex === null && opensOnProposalPart(blocks);
  // A grant application's form names its people in fields (the PI, the co-investigators; a
  // biographical sketch's "NAME:"), over any reading of its lines as a byline.
  const applicants = namedApplicants(blocks, titleIndex);
  const chosen = applicants
    ? applicants
    : proposalPart
      ? { entries: [], used: new Set<number>() }
      : underCapitals
        ? underCapitals
        : (labelledStudents(blocks, start, frontEnd) ??
          presentedOnCover(blocks, titleIndex) ??
          scriptNameOnCover(blocks, titleIndex, titleEnd) ??
          labelledOverTitle(blocks, titleIndex, namesAfterBy) ??
          namesUnderAuthorsLabel(blocks, bylineStart, bylineEnd) ??
          (read.entries.length
            ? read
            : bracketed.length
              ? { entries: bracketed, used: new Set([start]) }
              : (namedCorresponding(blocks, start) ??
                nameOverTitle(blocks, titleIndex) ??
                labelledOverTitle(blocks, titleIndex, namedByRoleLabels) ??
                hanNamed(start) ??
                read)));
  // Entries that carry their own lines (an author block and its addresses) read their emails and
  // affiliations from them; a byline's entries read them from the marked lines around it.
  const ownLines =
    chosen === stacked || (chosen === styled && styled.perEntry) || chosen.entries === bracketed;
  return {
    entries: chosen.entries,
    used: chosen.used,
    ownLines,
    titleAgain: repeated >= 0 ? repeated : null,
  };
}
