// Names a title page gives by label or by place rather than in a byline: "by" over or under the
// title, a thesis cover's student and supervisor fields, a name over the title, a corresponding
// author named in a note; and the cover sheet a submission system or a repository sets before a
// manuscript, whose pages the header is not read from.
import type { Block, DocumentModel, ParsedAuthor } from '../types.ts';
import { findEmails, ORCID_RE } from '../text-utils.ts';
import { validOrcid } from '../../corpus/openalex/ids.ts';
import { foldWords } from '../../infra/text-fold.ts';
import {
  CASELESS_NAME,
  emailMatchesName,
  HANGUL_NAME,
  HAN_NAME,
  isNameLike,
  splitByline,
  surnameOf,
} from '../names.ts';
import { INSTITUTION, INSTITUTION_WORD } from '../institutions.ts';
import { withoutDegrees } from '../../corpus/authors/name-titles.ts';
import {
  bareTitleLabel,
  type Entry,
  FRONT_LABEL,
  isNameList,
  kindOfWork,
  markedNameCount,
  namesOnly,
  STUDENT_LABELS,
  SUPERVISOR_LABELS,
  type EntriesRead,
} from './front-matter.ts';
import { capitalsByline, DFG_FORM_HEADING, FRONT_INSERT_LABEL } from './title.ts';
import { FIRST_LINES, LETTER_OPENING, LETTER_WORDS, MAX_LETTER_PAGES, opensAsLetter } from '../letters.ts';

/**
 * The name alone under a title in capitals at the body's size (capitalsByline) is its author's; the
 * lines further down a cover ("Jere Behrman, Primary Advisor") or the unlabelled abstract under a
 * working paper's byline are not read for names.
 */
export function nameUnderCapitalsTitle(
  blocks: Block[],
  titleIndex: number | null,
  titleEnd: number,
): EntriesRead | null {
  if (titleIndex !== 0 || capitalsByline(blocks) !== titleEnd) return null;
  const b = blocks[titleEnd]!;
  const names = splitByline(b.runs).filter((n) => isNameLike(n.name) && !INSTITUTION_WORD.test(n.name));
  if (!names.length) return null;
  return {
    entries: names.map((n) => ({ name: n.name, marks: n.marks, lines: [], links: [] })),
    used: new Set([titleEnd]),
  };
}

/**
 * A cover that sets its author's name over the title (a seminar paper's or a thesis's: the name in
 * a larger type than the body's, then the title): read when no byline follows the title. The block
 * right over the title holds names and nothing else; a running head in the body's type or smaller,
 * an anonymised line, is none.
 */
export function nameOverTitle(blocks: Block[], titleIndex: number | null): EntriesRead | null {
  if (titleIndex === null || titleIndex === 0) return null;
  // The kind of work may stand between the name and the title ("Jan Novák" / "DIPLOMOVÁ PRÁCE" /
  // the title, a thesis's title page): the name is the line over it.
  const at = titleIndex >= 2 && kindOfWork(blocks[titleIndex - 1]!) ? titleIndex - 2 : titleIndex - 1;
  const b = blocks[at]!;
  const title = blocks[titleIndex]!;
  if (
    b.page !== title.page ||
    b.relSize < 1.1 ||
    b.lines.length > 1 ||
    /anonym/i.test(b.text) ||
    kindOfWork(b) ||
    !namesOnly(b) ||
    FRONT_LABEL.test(b.text.trim()) ||
    bareTitleLabel(b)
  )
    return null;
  const names = splitByline(b.runs).filter((n) => isNameLike(n.name) && !INSTITUTION_WORD.test(n.name));
  if (!names.length) return null;
  return {
    entries: names.map((n) => ({ name: n.name, marks: n.marks, lines: [], links: [] })),
    used: new Set([at]),
  };
}

type NamesReader = (blocks: Block[], from: number, to: number) => EntriesRead | null;

/**
 * Names a cover labels over its title, read by `read` on the title's page before it: a student
 * under "作 者:" with "题 目:" and the title after (namedByRoleLabels), or a French thesis's author
 * under "Par" with the jury under the title, whose names are none (namesAfterBy).
 */
export function labelledOverTitle(
  blocks: Block[],
  titleIndex: number | null,
  read: NamesReader,
): EntriesRead | null {
  if (titleIndex === null) return null;
  let from = titleIndex;
  while (from > 0 && blocks[from - 1]!.page === blocks[titleIndex]!.page) from--;
  return from < titleIndex ? read(blocks, from, titleIndex) : null;
}

/**
 * A paragraph of one line that holds one name and nothing else: no mark, no institution, not the
 * kind of work ("ΔΙΠΛΩΜΑΤΙΚΗ ΕΡΓΑΣΙΑ" reads as two capitalised words).
 */
export function isLoneName(b: Block): boolean {
  return (
    b.lines.length <= 1 &&
    !kindOfWork(b) &&
    b.text.length <= 60 &&
    !b.runs.some((r) => r.sup && r.text.trim() !== '') &&
    isNameLike(b.text) &&
    !INSTITUTION_WORD.test(b.text) &&
    splitByline(b.runs).length === 1
  );
}

/**
 * "By:" alone on its line: a thesis title page's label over its authors' names; Spanish and
 * Portuguese covers say it with "presenta" / "presentada por" / "apresentado por" / "sustentante"
 * ("Tesis que para obtener el título de ... / presenta / Jane Roe"), French ones with "par" /
 * "présentée par", German ones with "vorgelegt von" / "eingereicht von".
 */
const BY_LABEL =
  /^(?:by|presenta|presentad[ao]\s+por|apresentad[ao]\s+por|sustentante|por|(?:présenté|soutenu|rédigé)e?s?\s+par|par|(?:vorgelegt|eingereicht)\s+von)\s*:?$/iu;

/**
 * A thesis cover's line that says the work and who presents it, the name run in after the label:
 * "Thèse présentée par Jane Roe", "Thesis defended by Jane Roe", "Tesi presentata da ...",
 * "Tese apresentada por ...". The work's word opens the line, so a sentence that goes on about
 * the thesis is none ("This thesis was presented by ..." is a sentence, not a cover's field).
 */
const THESIS_PRESENTED_BY =
  /^(?:th[èe]se|m[ée]moire|thesis|dissertation|tesi|tese|tesis|proefschrift|scriptie|avhandling|afhandling)\s+(?:pr[ée]sent[ée]e?|soutenue?|r[ée]dig[ée]e?|defended|presented|submitted|presentat[ao]|discuss[ao]|apresentad[ao]|presentad[ao]|defendid[ao]|ingediend|verdedigd)\s+(?:par|by|da|por|door)\s+(?=\p{Lu})/iu;

/** The name a thesis cover's line gives after THESIS_PRESENTED_BY, or null. */
export function thesisPresentedBy(b: Block): string | null {
  if (b.lines.length !== 1 || b.text.length > 120) return null;
  const text = b.text.replace(/\s+/g, ' ').trim();
  const m = THESIS_PRESENTED_BY.exec(text);
  if (!m) return null;
  const name = text.slice(m[0].length);
  return isNameLike(name) && !INSTITUTION_WORD.test(name) ? name : null;
}

/**
 * The author a thesis cover names on such a line on the title's page, over or under the title: the
 * author, whatever people the cover names after it (its supervisors, its jury).
 */
export function presentedOnCover(blocks: Block[], titleIndex: number | null): EntriesRead | null {
  if (titleIndex === null) return null;
  const page = blocks[titleIndex]!.page;
  let i = titleIndex;
  while (i > 0 && blocks[i - 1]!.page === page) i--;
  for (; i < blocks.length && blocks[i]!.page === page; i++) {
    const name = thesisPresentedBy(blocks[i]!);
    if (name) return { entries: [{ name, marks: [], lines: [], links: [] }], used: new Set([i]) };
  }
  return null;
}

/** The role a title page names under a person who is no author ("Adviser", "Thesis Supervisor"). */
const ROLE_LINE =
  /^(?:(?:thesis|research|capstone|project|faculty|academic|co-?)\s*)?(?:advis[eo]rs?|supervisors?|mentors?|promot[eo]rs?|instructors?|panel(?:ists)?|(?:committee\s+)?chair)\s*:?$/i;

/**
 * The names of a thesis or proposal title page ("A Capstone Research Proposal / Presented to the
 * Faculty of ... / By: / Jane Roe / John Doe / Alex Poe / Adviser"): one to a line after "By:",
 * until a line that is no lone name; a name over a role line (the adviser) is no author.
 */
export function namesAfterBy(blocks: Block[], from: number, to: number): EntriesRead | null {
  const by = blocks.slice(from, Math.min(to, from + 16)).findIndex((b) => BY_LABEL.test(b.text.trim()));
  if (by < 0) return null;
  let end = from + by + 1;
  while (end < to && isLoneName(blocks[end]!)) end++;
  if (ROLE_LINE.test(blocks[end]?.text.trim() ?? '')) end--;
  const entries: Entry[] = [];
  const used = new Set<number>();
  for (let i = from + by + 1; i < end; i++) {
    entries.push({ name: blocks[i]!.text.trim(), marks: [], lines: [], links: [] });
    used.add(i);
  }
  return entries.length ? { entries, used } : null;
}

const STUDENT_LABEL = new RegExp(`^${STUDENT_LABELS.source}\\s*[:：]?$`, 'iu');

/**
 * The same label run in before what it labels on its line ("Выполнил студент гр. 123 В.В. Иванов",
 * "作 者: 张三 学 号: 123"): a Russian cover sets the label, the student's group and the name on one
 * line, a Chinese one sets the next field's label after the name.
 */
const STUDENT_LABEL_HEAD = new RegExp(`^${STUDENT_LABELS.source}\\s*[:：]?\\s+(?=\\S)`, 'iu');

export const SUPERVISOR_LABEL = new RegExp(`^${SUPERVISOR_LABELS.source}\\s*[:：]?$`, 'iu');

/**
 * The supervisor named after the label on the label's own line, the label perhaps qualified by a
 * word before it ("Eindproef begeleider: Jan Peeters", "Betreuer: Dr. Anna Roth", "Supervisor: Jane
 * Roe"): a cover's field, whose person is no author.
 */
const SUPERVISOR_NAMED = new RegExp(
  `^(?:\\p{L}+\\s+)?(?:${SUPERVISOR_LABELS.source}|advis[eo]r|supervisor|mentor)\\s*[:：]\\s*\\p{L}`,
  'iu',
);

/** A cover's line that names a supervisor after the label ("Co-promotor: S. Beekman (...)"). */
export function namesSupervisor(line: string): boolean {
  return SUPERVISOR_NAMED.test(line.trim());
}

/**
 * A lone name right under the title with a cover's field naming the supervisor a few lines under
 * it on its page (a college report's cover: title, the student, the kind of work, "Eindproef
 * begeleider: ...", place and date): a cover that names its supervisor names its student, the
 * name over the field.
 */
export function overNamedSupervisor(blocks: Block[], i: number): boolean {
  const page = blocks[i]?.page;
  for (let k = i + 1; k < Math.min(blocks.length, i + 4); k++) {
    const b = blocks[k]!;
    if (b.page !== page || b.text.length > 120) return false;
    if (SUPERVISOR_NAMED.test(b.text.trim())) return true;
    if (isLoneName(b)) return false;
  }
  return false;
}

/**
 * The label of a student's register number set on a line of its own under the student's name on a
 * thesis cover, the number after it: Polish "Nr albumu: 123456" (album number), German
 * "Matrikelnummer: 123456", "Student ID: 123456". The name over it is the author.
 */
/** A student's name and register number alone on a cover's line ("JAN KOWALSKI   210601708"). */
const NAME_THEN_REGISTER_NUMBER = /^(\p{L}[\p{L}.' -]{2,60}?)\s+\d{6,12}$/u;

const REGISTER_NUMBER_LINE =
  /^(?:nr\.?\s*albumu|numer\s+albumu|matrikel(?:nummer|-?nr\.?)|matr\.-?\s?nr\.?|student\s+(?:id|number|no\.?)|学\s*籍\s*番\s*号|学\s*号|학\s*번)\s*[:：]?\s*\d[\d /-]{2,15}$/iu;

/**
 * A student's index number after the name on a cover ("Ana Pop 1234/2019"), or the student's
 * register number in brackets ("Lê Văn An (60131234)") or run in after its label ("Lê Văn An
 * MSSV: 20121234", "NIM: 1301xxxx"): a number's digits, some perhaps masked with x's or stars in
 * the copy made public.
 */
const INDEX_NUMBER =
  /\s+\d{1,6}\/\d{2,4}$|\s*[(（]\d{4,12}[)）]$|\s+(?:[–—-]\s+)?\p{Lu}[\p{L}.]{1,14}\s*[:：]\s*\d{2,12}[xX*]{0,10}$/u;

/** A name of initials and a surname closing a cover's line ("студент гр. 4931101/90102 В.В. Иванов"). */
const INITIALLED_NAME_AT_END = /(?:^|\s)(\p{Lu}\.\s?(?:\p{Lu}\.\s?)?\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?)$/u;

/**
 * A Chinese name letter-spaced to fill its field, and nothing after it ("薛 瑞 尼", a thesis cover
 * spreading each field's value to one width): read joined.
 */
const SPACED_HAN_NAME = /^\p{Script=Han}(?: \p{Script=Han}){1,3}$/u;

/** A Chinese name opening a cover's line (two to four characters), its next field after a space. */
const HAN_NAME_FIRST = /^(\p{Script=Han}{2,4})(?:\s|$)/u;

/**
 * The student's name in what a cover sets under or after the student's label: the whole of it when
 * it reads as a name; else a Chinese name that opens it, or a name of initials and a surname that
 * closes it, the student's group or position set before it ("студент гр. 123/45 В.В. Иванов").
 */
/** The caption of the line left to sign on after a name ("(parašas)", "(signature)"): a lower-case word in brackets. */
const SIGNATURE_CAPTION = /\s*\(\p{Ll}{3,15}\)$/u;

function studentName(value: string, whole = true): string | null {
  const text = withoutDegrees(
    value.replace(/\s+/g, ' ').trim().replace(INDEX_NUMBER, '').replace(SIGNATURE_CAPTION, ''),
  );
  const name =
    whole && (isNameLike(text) || HAN_NAME.test(text) || CASELESS_NAME.test(text))
      ? text
      : SPACED_HAN_NAME.test(text)
        ? text.replace(/ /g, '')
        : (HAN_NAME_FIRST.exec(text)?.[1] ?? INITIALLED_NAME_AT_END.exec(text)?.[1] ?? null);
  if (!name || INSTITUTION_WORD.test(name) || INSTITUTION.test(name)) return null;
  return name;
}

/**
 * The student named over a register number's line on a cover ("Jan Kowalski" / "Nr albumu:
 * 123456"): the name on the line above the label, in the same block or the block before; or the
 * name on a line of its own with the bare number after it (a student's paper in Word).
 */
function nameOverRegisterNumber(blocks: Block[], from: number, i: number): EntriesRead | null {
  const lines = blocks[i]!.text.split('\n').map((l) => l.replace(/\s+/g, ' ').trim());
  // The register number's own label ("学籍番号 123456") names no student.
  const numbered =
    lines.length === 1 && !REGISTER_NUMBER_LINE.test(lines[0]!)
      ? NAME_THEN_REGISTER_NUMBER.exec(lines[0]!)
      : null;
  const own = numbered ? studentName(numbered[1]!) : null;
  if (own) return { entries: [{ name: own, marks: [], lines: [], links: [] }], used: new Set([i]) };
  const at = lines.findIndex((l) => REGISTER_NUMBER_LINE.test(l));
  if (at < 0) return null;
  const above = at > 0 ? lines[at - 1]! : i > from ? blocks[i - 1]!.text.replace(/\s+/g, ' ').trim() : '';
  const name = above ? studentName(above) : null;
  if (name)
    return { entries: [{ name, marks: [], lines: [], links: [] }], used: new Set(at > 0 ? [i] : [i - 1, i]) };
  // Or the name on a line of its own right under the number's (a Japanese thesis cover: "学籍番号
  // 123456" / "奥村 曉"), when nothing above it is one.
  const below = at === lines.length - 1 ? blocks[i + 1] : undefined;
  const under =
    below && below.lines.length === 1 && below.page === blocks[i]!.page ? studentName(below.text) : null;
  return under
    ? { entries: [{ name: under, marks: [], lines: [], links: [] }], used: new Set([i, i + 1]) }
    : null;
}

/**
 * A cover's line that opens on the student in the genitive, the work's kind over it ("Кваліфікаційна
 * робота бакалавра" / "студента 4 року навчання" / "факультету ..." / "Вадима ГАВРИЛЮКА"): Ukrainian
 * and Russian "студента", "студентки". The student's name follows on a line of its own, before
 * the supervisor's label.
 */
const GENITIVE_STUDENT = /^студент(?:а|ки)(?!\p{L})/iu;

/** A student's register number run in after the name ("NGUYỄN VĂN AN – MSSV: 51403229"). */
const RUN_IN_REGISTER = /\s+[–—-]\s+[\p{L}.]{1,15}\s*[:：]\s*\d{4,12}$/u;

/**
 * The students a cover names after their label and a colon, on the label's line, under the title
 * ("Φοιτητές: Μακρής Δημήτριος, Θεοδοσιάδης Αλέξανδρος", "Students: Jane Roe, John Doe"): each a
 * name of two words or more; with a register number run in after a name, the lines under it that
 * name another student the same way are students too ("Người thực hiện: NGUYỄN VĂN AN – MSSV: 1" /
 * "TRẦN THỊ BÌNH – MSSV: 2"). Or the name on a line of its own a few lines under a line that opens
 * on the student in the genitive (GENITIVE_STUDENT), before any supervisor's label. They are the
 * authors, whatever else the cover sets around them.
 */
export function labelledStudents(blocks: Block[], from: number, to: number): EntriesRead | null {
  for (let i = from; i < Math.min(to, from + 8); i++) {
    const text = blocks[i]!.text.replace(/\s+/g, ' ').trim();
    // A cover's fields set one to a line in one block ("培养单位：..." / "学科：..." / "研究生：...",
    // a Chinese thesis): the student's label opens a line of the block, the first too when other
    // fields follow it ("Sinh viên thực hiện : ..." / "Giảng viên hướng dẫn : ..." / "Ngành : ...").
    const labelLine = blocks[i]!.lines.find(
      (l, k) => (k > 0 || blocks[i]!.lines.length > 1) && STUDENT_LABEL_HEAD.test(l.text.trim()),
    );
    if (labelLine && /[:：]/.test(labelLine.text)) {
      const field = labelLine.text.replace(/\s+/g, ' ').trim();
      const name = studentName(
        field.slice(STUDENT_LABEL_HEAD.exec(field)![0].length).replace(/^[:：]\s*/, ''),
      );
      if (name) return { entries: [{ name, marks: [], lines: [], links: [] }], used: new Set([i]) };
    }
    if (GENITIVE_STUDENT.test(text)) {
      for (let k = i + 1; k < Math.min(to, i + 5); k++) {
        const line = blocks[k]!.text.trim();
        if (SUPERVISOR_LABEL.test(line) || ROLE_LINE.test(line)) break;
        const name = isLoneName(blocks[k]!) ? studentName(line) : null;
        if (name) return { entries: [{ name, marks: [], lines: [], links: [] }], used: new Set([k]) };
      }
    }
    const head = STUDENT_LABEL_HEAD.exec(text);
    if (!head || !/[:：]/.test(head[0])) continue;
    const rest = text.slice(head[0].length);
    const registered = RUN_IN_REGISTER.test(rest);
    const pieces = rest.replace(RUN_IN_REGISTER, '').split(/\s*[,;]\s*|\s+(?:and|&|και|và)\s+/u);
    if (pieces.some((p) => p.trim().split(/\s+/).length < 2)) return null;
    const names = pieces.map((p) => studentName(p));
    if (names.some((n) => n === null)) return null;
    const used = new Set([i]);
    for (let k = i + 1; registered && k < to && RUN_IN_REGISTER.test(blocks[k]!.text.trim()); k++) {
      const next = studentName(blocks[k]!.text.replace(/\s+/g, ' ').trim().replace(RUN_IN_REGISTER, ''));
      if (!next) break;
      names.push(next);
      used.add(k);
    }
    return { entries: names.map((name) => ({ name: name!, marks: [], lines: [], links: [] })), used };
  }
  return null;
}

/**
 * The author of a thesis whose cover labels its people by role (the student and the supervisor):
 * each label alone on its line, its name under it, or the labels set side by side in a row over
 * the names in the same order (read as a run of labels, then a run of as many names). The name
 * under the student's label is the author; the supervisor's is no author.
 */
export function namedByRoleLabels(blocks: Block[], from: number, to: number): EntriesRead | null {
  const end = Math.min(to, from + 24);
  const isLabel = (b: Block | undefined) =>
    !!b &&
    (STUDENT_LABEL.test(b.text.trim()) ||
      SUPERVISOR_LABEL.test(b.text.trim()) ||
      ROLE_LINE.test(b.text.trim()));
  for (let i = from; i < end; i++) {
    const registered = nameOverRegisterNumber(blocks, from, i);
    if (registered) return registered;
    const head = STUDENT_LABEL_HEAD.exec(blocks[i]!.text.replace(/\s+/g, ' ').trim());
    if (head) {
      // With no colon after it the label may open a phrase ("Student Research Paper"): only a name
      // of the shapes a cover sets after its student's group is read then, never the rest whole.
      const name = studentName(
        blocks[i]!.text.replace(/\s+/g, ' ').trim().slice(head[0].length),
        /[:：]/.test(head[0]),
      );
      if (name) return { entries: [{ name, marks: [], lines: [], links: [] }], used: new Set([i]) };
    }
    if (!isLabel(blocks[i])) continue;
    let j = i;
    while (j < end && isLabel(blocks[j])) j++;
    const labels = blocks.slice(i, j);
    const values = blocks.slice(j, j + labels.length);
    if (values.length < labels.length || values.some((v) => isLabel(v))) return null;
    const k = labels.findIndex((b) => STUDENT_LABEL.test(b.text.trim()));
    if (k >= 0) {
      const name = studentName(values[k]!.text);
      if (!name) return null;
      const used = new Set<number>();
      for (let u = i; u < j + labels.length; u++) used.add(u);
      return { entries: [{ name, marks: [], lines: [], links: [] }], used };
    }
    i = j + labels.length - 1;
  }
  return null;
}

/** "Corresponding author(s):" run in before the names it gives. */
const CORRESPONDING_NAMES = /^\s*corresponding\s+authors?\s*:\s*/iu;

/**
 * A byline that names no person (a collaboration's name alone, PoS proceedings: "The X
 * Collaboration" with a link to its author list) leaves the paper's people to the line that
 * names its corresponding authors on the first page ("Corresponding authors: Jane Roe*¹"): they
 * are the authors to report. Null when no such line lists names.
 */
export function namedCorresponding(blocks: Block[], from: number): EntriesRead | null {
  const page = blocks[from]?.page;
  for (let i = from; i < Math.min(blocks.length, from + 20) && blocks[i]!.page === page; i++) {
    const b = blocks[i]!;
    const label = CORRESPONDING_NAMES.exec(b.runs[0]?.text ?? '');
    if (!label || b.runs[0]!.sup || b.text.length > 300 || b.text.includes('@')) continue;
    // The line of names only: an affiliation set under it may share its block.
    const runs: Block['runs'] = [];
    for (const [k, r] of b.runs.entries()) {
      const text = k === 0 ? r.text.slice(label[0].length) : r.text;
      const cut = text.indexOf('\n');
      runs.push({ ...r, text: cut < 0 ? text : text.slice(0, cut) });
      if (cut >= 0) break;
    }
    const names = splitByline(runs);
    if (!names.length || !names.every((n) => isNameLike(n.name) && !INSTITUTION_WORD.test(n.name)))
      return null;
    return {
      entries: names.map((n) => ({ name: n.name, marks: n.marks, lines: [], links: [] })),
      used: new Set([i]),
    };
  }
  return null;
}

/**
 * The student's name alone on its line on a thesis's cover (the kind of work over or under the
 * title), written in Hangul ("이재호") or as a Japanese name with its space ("山田 太郎"), in the
 * cover's last lines: the author, where the cover's English title, wrapped, leaves a line of two
 * capitalised words ("React Hooks") that reads as a name. A Chinese name written together is left
 * to the labelled fields: four characters together may be a department.
 */
export function scriptNameOnCover(
  blocks: Block[],
  titleIndex: number | null,
  titleEnd: number,
): EntriesRead | null {
  if (titleIndex === null) return null;
  const page = blocks[titleIndex]!.page;
  const kindOver = titleIndex > 0 && kindOfWork(blocks[titleIndex - 1]!);
  const kindUnder =
    blocks[titleEnd] !== undefined && blocks[titleEnd]!.page === page && kindOfWork(blocks[titleEnd]!);
  if (!kindOver && !kindUnder) return null;
  for (let i = titleEnd; i < blocks.length && blocks[i]!.page === page; i++) {
    const b = blocks[i]!;
    const text = b.text.trim();
    if (b.lines.length !== 1 || INSTITUTION_WORD.test(text)) continue;
    if (HANGUL_NAME.test(text) || (HAN_NAME.test(text) && text.includes(' ')))
      return { entries: [{ name: text, marks: [], lines: [], links: [] }], used: new Set([i]) };
  }
  return null;
}

/** How many pages a cover sheet set before a manuscript may take (Editorial Manager's runs to two). */
const MAX_COVER_PAGES = 3;

/** How far down its page the manuscript's own title is looked for. */
const TITLE_PAGE_HEAD = 12;

/**
 * A field or stamp only a submission system's or a repository's cover sheet prints, never a
 * thesis's cover: ScholarOne's "For Peer Review" and "Manuscript ID", Editorial Manager's
 * "Manuscript Number" and its name, a repository's "Take down policy" and "Citation for
 * published version". ("Submitted to" is none: a thesis is submitted to its university.)
 */
const SUBMISSION_COVER =
  /\b(?:for peer review\b|manuscript (?:id|number|type)\s*:|date submitted by the author\b|editorial manager\b|scholarone\b|take[- ]?down policy\b|citation for published version\b)/i;

/**
 * A cover sheet set before the manuscript by a submission system or a repository (Editorial
 * Manager's field table, a repository's record page with the title, a citation and its rights, a
 * publisher's accepted-article page): its pages print the title, alone, in a field or in a
 * citation, and the manuscript's own first page prints it again, set above the body's size, over
 * its byline of names (one name alone when the cover prints a submission system's or a
 * repository's own fields, SUBMISSION_COVER: a thesis's cover and title page print the title twice
 * over one name too, and stay read). The index of that page's first block: the header is read
 * from there; 0 when the file opens on its manuscript (a PDF only: a Word file is the manuscript
 * itself).
 */
export function coverSheetEnd(doc: DocumentModel): number {
  if (doc.format !== 'pdf') return 0;
  const { blocks } = doc;
  for (let page = 2; page <= MAX_COVER_PAGES + 1; page++) {
    const start = blocks.findIndex((b) => b.page === page);
    // A file shorter than a cover and its manuscript: no cover, but letters or inserts may stand
    // before a short manuscript.
    if (start <= 0) break;
    const head = blocks.slice(start, start + TITLE_PAGE_HEAD).filter((b) => b.page === page);
    const maxSize = Math.max(0, ...head.map((b) => b.relSize));
    const cover = ` ${foldWords(
      blocks
        .slice(0, start)
        .map((b) => b.text)
        .join(' '),
    )} `;
    const submitted = blocks.slice(0, start).some((b) => SUBMISSION_COVER.test(b.text));
    const printedAgain = head.some((b, k) => {
      const words = foldWords(b.text);
      const next = head[k + 1];
      return (
        b.relSize >= 1.1 &&
        b.relSize >= 0.97 * maxSize &&
        b.text.length <= 300 &&
        words.split(' ').length >= 3 &&
        cover.includes(` ${words} `) &&
        next !== undefined &&
        (markedNameCount(next) >= 2 ||
          isNameList(next) ||
          (submitted && (markedNameCount(next) >= 1 || isLoneName(next))))
      );
    });
    if (printedAgain) return start;
  }
  return lettersEnd(doc);
}

/**
 * How many pages a journal's inserts before the paper may take: a graphical abstract, highlights,
 * and SoftwareX's two code-metadata tables, each a page of its own in a preprint.
 */
const MAX_INSERT_PAGES = 4;

/**
 * The pages bound before a manuscript's own first page that need not print its title: the letters
 * an author binds before a revised manuscript in one file (a cover letter, the response to the
 * reviewers, then the manuscript or its marked-up copy), when the file's first page opens as a
 * letter does (LETTER_OPENING); or a journal's inserts set before the paper (elsarticle's
 * "Highlights" page, then a SoftwareX submission's code-metadata tables), when the file opens on
 * an insert's label (FRONT_INSERT_LABEL). The manuscript's first page is the first after page one
 * whose head sets a title above the body's size over a byline of names, with none of a letter's
 * words in that head (the response's own first page may repeat the title and the authors over its
 * "We thank the reviewers ..."). The index of that page's first block, or 0.
 */
function lettersEnd(doc: DocumentModel): number {
  const { blocks } = doc;
  const opening = blocks.filter((b) => b.page === 1).slice(0, FIRST_LINES);
  const letters = opensAsLetter(opening.map((b) => b.text));
  // The label may head the block of the insert's first lines ("Highlights" over its bullets).
  const label = opening[0]?.lines[0]?.text ?? '';
  if (!letters && !FRONT_INSERT_LABEL.test(label)) return 0;
  const reach = letters ? MAX_LETTER_PAGES : MAX_INSERT_PAGES;
  const last = Math.min(blocks[blocks.length - 1]?.page ?? 0, reach + 1);
  for (let page = 2; page <= last; page++) {
    const start = blocks.findIndex((b) => b.page === page);
    if (start <= 0) continue;
    const head = blocks.slice(start, start + TITLE_PAGE_HEAD).filter((b) => b.page === page);
    if (head.some((b) => LETTER_OPENING.test(b.text.trim()) || LETTER_WORDS.test(b.text))) continue;
    const maxSize = Math.max(0, ...head.map((b) => b.relSize));
    const titled = head.some((b, k) => {
      const next = head[k + 1];
      return (
        b.relSize >= 1.1 &&
        b.relSize >= 0.97 * maxSize &&
        b.text.length <= 300 &&
        foldWords(b.text).split(' ').length >= 3 &&
        next !== undefined &&
        (markedNameCount(next) >= 1 || isNameList(next) || isLoneName(next))
      );
    });
    if (titled) return start;
  }
  return 0;
}

/**
 * What a cover sheet says of the manuscript's authors that the manuscript may not print, given to
 * authors that have none: an email whose address spells one author's surname (a field table's
 * "Corresponding Author E-Mail:", a preprint server's "Jane Roe ( jr@x.org )"), and an ORCID set
 * after an author's surname on its line ("Roe, J. orcid.org/…" in a repository's citation, "Roe Jane
 * (Orcid ID: …)" on an accepted-article page: the last surname before it, after the ORCID before
 * it) or under the line that names the author (the name, then the institution and the ORCID). The
 * repository's own addresses (its deposit or take-down mailbox) spell no author and are left.
 */
export function fromCoverSheet(cover: readonly Block[], authors: ParsedAuthor[]): void {
  const surnames = authors.map((a) => foldWords(surnameOf(a.name)));
  const lastNamed = (text: string): number | null => {
    const folded = ` ${foldWords(text.replace(/(\p{L})(\d)/gu, '$1 $2'))} `;
    let best: { i: number; at: number } | null = null;
    surnames.forEach((s, i) => {
      if (s.length < 2) return;
      const at = folded.lastIndexOf(` ${s} `);
      if (at >= 0 && (!best || at > best.at)) best = { i, at };
    });
    return best === null ? null : (best as { i: number }).i;
  };
  cover.forEach((b, k) => {
    for (const email of findEmails(b.text)) {
      const spelt = authors.flatMap((a, i) => (emailMatchesName(email, a.name) === 2 ? [i] : []));
      const owner = spelt.length === 1 ? authors[spelt[0]!]! : null;
      if (owner && owner.emails.length === 0 && !authors.some((a) => a.emails.includes(email)))
        owner.emails.push(email);
    }
    const text = b.text.replace(/(?<=\d)\s?[\u2010-\u2013\u2212]\s?(?=[\dX])/g, '-');
    let from = 0;
    for (const m of text.matchAll(ORCID_RE)) {
      const orcid = m[1]!;
      const at = m.index;
      const owner =
        lastNamed(text.slice(from, at)) ?? (from === 0 && k > 0 ? lastNamed(cover[k - 1]!.text) : null);
      from = at + orcid.length;
      if (owner === null || !validOrcid(orcid) || authors.some((a) => a.orcid === orcid)) continue;
      const a = authors[owner]!;
      if (a.orcid === null) a.orcid = orcid;
    }
  });
}

/**
 * The field of a grant application's form that names its applicants by role, run in before the
 * name on its line ("Name of the Principal Investigator (PI): Jane Roe", ERC's cover page; "Co-PI:
 * ...", "Applicant: ...", DFG's "Antragstellerin: ..."), a marker of a list item before it.
 */
const APPLICANT_FIELD =
  /^(?:[–—•-]\s*)?(?:name\s+of\s+the\s+)?(?:(?:co-?)?principal\s+investigator|co-?investigator|(?:co-?)?pi|(?:co-?)?applicant|antragsteller(?:in)?)(?:\s*\([^)]{1,12}\))?\s*[:：]\s*/iu;

/** A form's bare field for the person it is about ("NAME: Hunt, Morgan Casey", NIH's and NSF's biographical sketch). */
const NAME_FIELD = /^name\s*[:：]\s*/iu;

/** A name written family name first, a comma, then the given names ("Hunt, Morgan Casey"). */
const FAMILY_FIRST =
  /^(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?),\s*(\p{Lu}[\p{L}.'’-]*(?:\s+\p{Lu}[\p{L}.'’-]*){0,2})$/u;

/** The persons a field's value names: one name, family name first or not, or several parted by ";" or "and". */
function fieldNames(value: string): string[] | null {
  const text = withoutDegrees(value.replace(/\s+/g, ' ').trim());
  const inverted = FAMILY_FIRST.exec(text);
  if (inverted) return [`${inverted[2]} ${inverted[1]}`];
  const names = text.split(/\s*;\s*|\s+(?:and|&)\s+/u).map((n) => n.trim());
  if (!names.length || names.some((n) => !isNameLike(n) || INSTITUTION_WORD.test(n) || INSTITUTION.test(n)))
    return null;
  return names;
}

/**
 * The applicants a grant application's first page names in its form's fields, one field to a
 * line: the principal investigator and any co-investigators. Such a page prints no byline; its
 * fields are what names the people. The bare "Name:" field is read only where the file has no
 * title (a biographical sketch, a form of one person). Null when no field names a person.
 */
export function namedApplicants(blocks: Block[], titleIndex: number | null): EntriesRead | null {
  const entries: Entry[] = [];
  const used = new Set<number>();
  // The DFG's form sets its applicants between its heading and the title, a block each, the name
  // on the block's first line and the institution under it; a name this reads not (a template's
  // "Applicant 1") is left out, and the form's lines are no byline either way.
  const form =
    titleIndex === null
      ? -1
      : blocks.slice(0, titleIndex).findLastIndex((b) => DFG_FORM_HEADING.test(b.text.trim()));
  if (titleIndex !== null && form >= 0 && titleIndex - form <= 8) {
    for (let i = form + 1; i < titleIndex; i++) {
      const names = fieldNames(blocks[i]!.lines[0]?.text ?? blocks[i]!.text);
      for (const name of names ?? []) entries.push({ name, marks: [], lines: [], links: [] });
      used.add(i);
    }
    return { entries, used };
  }
  for (let i = 0; i < Math.min(blocks.length, 30) && blocks[i]!.page === 1; i++) {
    const b = blocks[i]!;
    for (const line of b.lines.length ? b.lines.map((l) => l.text) : [b.text]) {
      const text = line.replace(/\s+/g, ' ').trim();
      const label = APPLICANT_FIELD.exec(text) ?? (titleIndex === null ? NAME_FIELD.exec(text) : null);
      if (!label) continue;
      const names = fieldNames(text.slice(label[0].length));
      if (!names) continue;
      for (const name of names) entries.push({ name, marks: [], lines: [], links: [] });
      used.add(i);
    }
  }
  return entries.length ? { entries, used } : null;
}
