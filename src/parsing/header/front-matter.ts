// What the front matter's readers share: an author entry as a reader finds it, where the front matter
// ends, the labels of its parts, a cover's kind-of-work and role lines, note marks, link icons.
import type { Block } from '../types.ts';
import { isNameLike, normalizeStars, splitByline } from '../names.ts';
import { INSTITUTION, INSTITUTION_WORD } from '../institutions.ts';
import { ABSTRACT_LABEL, CONTENTS_ENTRY_STYLE, CONTENTS_LINE, isHeading, isProse } from '../sections.ts';
import { OTHER_LANGUAGE_LABEL } from '../abstract.ts';

export const CORRESPONDENCE = /correspond|e-?mail|✉/i;

/**
 * A date and nothing else: "January 30, 2026", "30 January 2026", "March 2025", "2026-01-30",
 * "30.01.2026" (a month's name in any language, a year of this or the last century), the day of
 * the week before it and an ordinal's ending after the day ("Thursday, December 20th, 2018"), or a
 * cover's place before it ("Zagreb, May 2022"). Croatian, Serbian, Slovene and Hungarian write the
 * year as an ordinal, with its stop ("Zagreb, svibanj 2022.", "30.01.2026.").
 */
export const DATE_ALONE =
  /^(?:(?:\p{L}{3,12},\s+)?(?:\d{1,2}\.?\s+)?\p{L}{3,12}\.?\s+(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?(?:19|20)\d\d|(?:19|20)\d\d[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.](?:19|20)\d\d)\.?$/u;

export const MAX_FRONT_BLOCKS = 120;

/**
 * A heading that names a part of the front matter ("Authors", "Affiliations", "Corresponding
 * author", "Author information"): a Word or Quarto title page may set each part under such a
 * heading, and the part it opens is still front matter, not the body.
 */
export const FRONT_LABEL =
  /^(?:authors?|authors?\s+(?:information|details|list)|affiliations?|authors?['’]?\s+affiliations?|corresponding\s+authors?|correspondence)\s*:?$/i;

export interface Entry {
  name: string;
  marks: string[];
  lines: string[];
  links: string[];
  /** The same name in Latin letters, from the byline printed again romanized ("Taro KIKAI" for "機械 太郎"). */
  romanized?: string;
}

/** The entries one reader found, and the blocks it read them from. */
export interface EntriesRead {
  entries: Entry[];
  used: Set<number>;
}

/** "Abstract. The ...", "Abstract: ...", "Abstract — ...", "ABSTRACT The ...": a run-in label. */
export const RUN_IN_ABSTRACT = /^(?:[Aa]bstract|ABSTRACT|[Ss]ummary|SUMMARY)\s*[:.—–-]|^ABSTRACT\s/;

/**
 * A thesis's cover line that names what it is, not what it is about: "硕士学位论文" (master's
 * thesis), "2019年度春学期 卒業論文" (bachelor's thesis of a term), "학위논문": short, and ending in the
 * word for a thesis or paper, where a title says its subject; a bachelor's design project's
 * "毕业设计说明书" (graduation design's report) ends in the word for its report; the line may be in
 * brackets ("(申请清华大学工学硕士学位论文)", ThuThesis: applying for a master's degree). A Japanese
 * journal's kind of paper set over the title reads the same: "研究速報" (a letter), "ショートノート",
 * "研究ノート", "レター".
 */
const THESIS_KIND =
  /^[^\n]{0,16}(?:论文|論文|논문|说明书|說明書|速報|(?:研究|ショート|テクニカル)ノート|レター)[)）]?\s*$/;

/**
 * The same line in a European language: "Projekt dyplomowy", "Praca magisterska", "Bachelor's
 * thesis", "Diplomarbeit", "Bakalářská práce", "Trabajo fin de grado", Romanian "Proiect de
 * diplomă", "Lucrare de licență", Serbian "Мастер рад", "Дипломски рад", Hungarian "Szakdolgozat",
 * "Diplomamunka", Greek "Διπλωματική εργασία", Russian "Выпускная квалификационная работа",
 * "Работа бакалавра", "Магистерская диссертация", Ukrainian "Кваліфікаційна робота", Bulgarian
 * "Дипломна работа", "MSc thesis",
 * "Undergraduate thesis", Indonesian "Skripsi", "Tesis", "Disertasi", "Tugas akhir", Turkish
 * "Yüksek Lisans Tezi", "DOKTORA TEZİ" (its capital İ), "Bitirme Projesi", Vietnamese "Luận văn thạc
 * sĩ", "Khóa luận tốt nghiệp", "Đồ án tốt nghiệp", "Luận án tiến sĩ",
 * set large on a cover over the title (Greek in capitals drops its accents: "ΔΙΠΛΩΜΑΤΙΚΗ ΕΡΓΑΣΙΑ");
 * the whole line names the kind of work and nothing else, one
 * kind or two run together ("ВЫПУСКНАЯ КВАЛИФИКАЦИОННАЯ РАБОТА РАБОТА БАКАЛАВРА").
 */
const WORK_KINDS =
  /(?:(?:projekt|praca)\s+(?:dyplomow[ya]|magistersk[ai]|in[żz]yniersk[ai]|licencjack[ai])|(?:(?:bachelor|master|doctoral|diploma|senior|honou?rs|undergraduate|b\.?sc|m\.?sc|ph\.?d|[bm]\.\s?[sa]\.)(?:['’]?s)?\s+)(?:thesis|dissertation|project)|skripsi|tesis|disertasi|tugas\s+akhir|(?:proiect|lucrare)\s+de\s+(?:diplom[ăa]|licen[țţt][ăa]|diserta[țţt]ie|master(?:at)?)|(?:мастер|дипломски|завршни|магистарски|докторски)\s+рад|szakdolgozat|diplomamunka|diplomaterv|(?:διπλωματικ[ηή]|πτυχιακ[ηή]|μεταπτυχιακ[ηή])\s+εργασ[ιί]α|(?:bachelor|master|diplom|seminar)arbeit|(?:bakal[áa][řr]sk[áa]|diplomov[áa])\s+pr[áa]ce|trabajo\s+(?:de\s+)?fin\s+de\s+(?:grado|m[áa]ster)|(?:выпускная\s+)?квалификационная\s+работа|(?:дипломная|курсовая|бакалаврская|магистерская|выпускная)\s+работа|работа\s+(?:бакалавра|магистра|специалиста)|(?:магистерская|кандидатская|докторская)\s+диссертация|(?:дипломна|курсова|бакалаврська|магістерська|кваліфікаційна)\s+робота|(?:дипломна|курсова|бакалавърска|магистърска)\s+работа|(?:yüksek\s+lisans|doktora|lisans|bitirme)\s+tez[iİ]|bitirme\s+projes[iİ]|(?:luận\s+văn|khóa\s+luận|khoá\s+luận|đồ\s+án)\s+(?:tốt\s+nghiệp|thạc\s+sĩ|cử\s+nhân|kỹ\s+sư)|luận\s+án\s+tiến\s+sĩ)/iu;

const WORK_KIND = new RegExp(`^\\s*${WORK_KINDS.source}(?:\\s+${WORK_KINDS.source})?\\s*$`, 'iu');

/** A cover's line that names the kind of work: a thesis's in a European language or in CJK. */
export function kindOfWork(b: Block): boolean {
  return WORK_KIND.test(b.text) || THESIS_KIND.test(b.text);
}

/** The words that label a title, in the languages a cover or a submission form is met in. */
export const TITLE_WORDS =
  /(?:(?:full|article|paper|manuscript)\s+)?(?:title|t[ií]tulo|titre|titel|titolo|название|заглавие|назва|tytu[łl]|judul|ba[şs]l[ıi]k|题\s*目|題\s*目|(?:tên\s+)?đề\s+tài|тема)/iu;

/**
 * The words that label a report's or a thesis's topic on its cover (Vietnamese "Đề tài", "Tên đề
 * tài", Bulgarian, Russian and Ukrainian "Тема:"): what follows is the work's own title, whatever the cover sets larger over it (the course
 * or the kind of report: "Báo cáo đồ án cuối kỳ Môn ...").
 */
export const TOPIC_LABEL = /^(?:(?:tên\s+)?đề\s+tài|тема)\s*[:：]\s*(?=\S)/iu;

/** The title's label alone in its paragraph ("Title:"), the title typed in the next one. */
const BARE_TITLE_LABEL = new RegExp(`^\\s*(?:${TITLE_WORDS.source}\\s*[:：]|đề\\s+tài\\s*:?)\\s*$`, 'iu');

const TITLE_WORDS_ALONE = new RegExp(`^\\s*${TITLE_WORDS.source}\\s*$`, 'iu');

/**
 * The title's label alone in its paragraph: closed by a colon ("Title:"), or with none in a heading's
 * style, as a Word submission's front page heads each of its fields ("Title", "Authors",
 * "Affiliations", "Corresponding Author", each a Heading 1 over its value): the style stands for the
 * colon. A word "Title" set large or in bold with no style is none: a template's placeholder title
 * printed as the title (Quarto's JASA template) is set so.
 */
export function bareTitleLabel(b: Block): boolean {
  if (BARE_TITLE_LABEL.test(b.text)) return true;
  return b.styleLevel !== null && b.styleLevel > 0 && TITLE_WORDS_ALONE.test(b.text);
}

/** An affiliation list opens with its mark: a raised run, or a note symbol typed before the text. */
export function opensWithNoteMark(block: Block): boolean {
  const first = block.runs.find((r) => r.text.trim() !== '');
  // A raised mark may be a glyph the font maps to no known character ("?").
  const raised = first?.sup === true && /^(?:[^\p{L}\s]{1,4}|[a-z])$/u.test(first.text.trim());
  return raised || /^\s*[*†‡§¶]/u.test(normalizeStars(block.text));
}

/** Raised marks that follow text: one after each name in a byline. */
export function markedNameCount(block: Block): number {
  return block.runs.filter(
    (r, k) => r.sup && r.text.trim() !== '' && k > 0 && /\p{L}/u.test(block.runs[k - 1]!.text),
  ).length;
}

/** A block that splits into two names or more and nothing else ("Ann Roe, Bo Li, and Cy Dunn"). */
export function isNameList(block: Block): boolean {
  if (block.text.length > 300) return false;
  const pieces = splitByline(block.runs);
  return pieces.length >= 2 && pieces.every((n) => isNameLike(n.name) && !INSTITUTION_WORD.test(n.name));
}

/** A byline of one name or more and nothing else ("Alma Q. Roe"). */
export function namesOnly(block: Block): boolean {
  const text = block.text.trim();
  return isNameList(block) || (text.length <= 60 && isNameLike(text) && !INSTITUTION_WORD.test(text));
}

/**
 * Word's styles for a table of contents and its heading, and for a list of figures: what comes
 * after the front matter (a thesis's or a seminar paper's cover), whose lines ("Unit Tests 5")
 * are no names.
 */
const CONTENTS_STYLE = /^(?:toc(?: \d| heading)|table of figures)$/i;

/**
 * Where a table of contents opens: an entry of it, or its heading over one (a heading in the
 * contents' style with no entries under it, the field never updated, opens nothing).
 */
function opensContents(blocks: Block[], i: number): boolean {
  const style = (k: number) => blocks[k]?.styleName?.trim() ?? '';
  return (
    CONTENTS_ENTRY_STYLE.test(style(i)) ||
    (CONTENTS_STYLE.test(style(i)) && CONTENTS_ENTRY_STYLE.test(style(i + 1)))
  );
}

/**
 * The heading of a table of contents alone on its line, in the languages of the theses met:
 * "Contents", Ukrainian "Зміст", Russian "Содержание" / "Оглавление", Bulgarian "Съдържание",
 * Czech and Slovak "Obsah", Polish "Spis treści", Hungarian "Tartalomjegyzék", Greek
 * "Περιεχόμενα", German "Inhaltsverzeichnis", French "Table des matières" / "Sommaire", Spanish,
 * Italian and Portuguese "Índice" / "Sumário", Serbian and Croatian "Sadržaj", Romanian "Cuprins",
 * Turkish "İçindekiler". No name is one; the front matter ends there (a cover's lines are over it).
 */
const CONTENTS_HEADING =
  /^(?:(?:table\s+of\s+)?contents|зміст|содержание|оглавление|съдържание|obsah|spis\s+treści|tartalom(?:jegyzék)?|περιεχόμενα|inhalt(?:sverzeichnis)?|table\s+des\s+matières|sommaire|[íi]ndice|sumário|sadržaj|садржај|cuprins|[iİ]çindek[iİ]ler)\s*$/iu;

/**
 * A contents heading by its words. One in Word's own contents style is left to `opensContents`,
 * which knows whether entries follow it (a "TOC Heading" over no entries opens nothing).
 */
function headsContents(b: Block): boolean {
  return CONTENTS_HEADING.test(b.text.trim()) && !CONTENTS_STYLE.test(b.styleName?.trim() ?? '');
}

/** The first block after the table of contents that opens at `i` (`i` itself when none does). */
export function afterContents(blocks: Block[], i: number): number {
  let k = i;
  if (blocks[k] !== undefined && CONTENTS_HEADING.test(blocks[k]!.text.trim())) k++;
  while (
    k < blocks.length &&
    (CONTENTS_STYLE.test(blocks[k]!.styleName?.trim() ?? '') || CONTENTS_LINE.test(blocks[k]!.text))
  )
    k++;
  return k;
}

/** Word's list paragraph styles ("List Paragraph", "List Number 2", "List Bullet"). */
const WORD_LIST_STYLE = /^list (?:paragraph|number|bullet)(?: \d)?$/i;

export function findFrontEnd(blocks: Block[], from: number): number {
  const limit = Math.min(blocks.length, MAX_FRONT_BLOCKS);
  for (let i = from; i < limit; i++) {
    const b = blocks[i]!;
    // A PDF's table of contents opens it too: its lines, dot leaders and page numbers, name the
    // abstract and the sections without being them.
    if (opensContents(blocks, i) || CONTENTS_LINE.test(b.text) || headsContents(b)) return i;
    // The abstract's label in the paper's own language ends it as the English one does
    // ("RESUMO" over the Portuguese abstract, then "ABSTRACT" over the English one).
    const label = ABSTRACT_LABEL.test(b.text) || OTHER_LANGUAGE_LABEL.test(b.text);
    if (label && (b.text.length < 20 || isHeading(b) || b.styleName === 'Abstract')) return i;
    if (label && b.text.length > 100) return i;
    if (b.styleName?.toLowerCase() === 'abstract') return i;
    // A byline in bold over a long affiliation list looks like a heading over a paragraph; its
    // marks after each name and the list's opening mark tell them apart.
    const next = blocks[i + 1];
    // So is a byline right under the title over an abstract that has no label (International
    // Press: "First Author†, Second Author, and Third Author"): a list of two names or more.
    const byline = i === from && isNameList(b);
    // And a short title set emphasised under the title ("Tool – a short title", medical journals
    // ask for one) is no heading when a byline of names with marks follows it, long as that is.
    // A Word heading over a heading one level under it over prose is a section opening on its
    // first subsection ("Análise dos Dados" / "Participantes e Protocolo" / text): the body, where
    // a byline set in a heading style is followed by its affiliations, never by a subheading.
    const after = blocks[i + 2];
    if (
      b.styleLevel !== null &&
      b.styleLevel >= 1 &&
      next?.styleLevel === b.styleLevel + 1 &&
      after &&
      isProse(after)
    )
      return i;
    if (
      isHeading(b) &&
      !FRONT_LABEL.test(b.text.trim()) &&
      next &&
      isProse(next) &&
      markedNameCount(b) < 2 &&
      markedNameCount(next) < 2 &&
      !byline &&
      !opensWithNoteMark(next)
    )
      return i;
    // A long author list may fill pages; past the fourth page it is not front matter any more.
    if (b.page > 4) return i;
    // A thesis's second cover (the same in English, "UNDERGRADUATE THESIS" over the title
    // translated) opens with its kind of work on a later page: its title is no byline.
    if (b.page > (blocks[from]?.page ?? b.page) && kindOfWork(b)) return i;
    if (RUN_IN_ABSTRACT.test(b.text)) return i;
    // A Word list paragraph right under the title (a numbered heading, "1. MODELS") opens the
    // body: a byline is never typed as a list item there.
    if (i === from && WORD_LIST_STYLE.test(b.styleName ?? '')) return i;
  }
  return limit;
}

/**
 * A name in Chinese or Japanese script: the family name and the given name, with or without a space
 * between them ("陳 旭東", "ホドシチェク ボル"), a few characters each.
 */
const CJK_PERSON =
  /^[\p{Script=Han}\p{Script=Katakana}\p{Script=Hiragana}ー・]{1,8}(?:[ \u3000][\p{Script=Han}\p{Script=Katakana}\p{Script=Hiragana}ー・]{1,8})?$/u;

/** One author and the institution in brackets after the name: "Jane Roe (Harbour University)". */
const NAME_THEN_BRACKETS = /([^()（）]{2,60})[(（]([^()（）]{2,160})[)）][,，、・]?/gu;

/**
 * A byline that gives each author's institution in brackets after the name, the pieces one after
 * the other ("陳 旭東（東京大学 文学部）山田 花子（京都大学）", Japanese symposia; "Jane Roe (Harbour
 * University) John Doe (...)"): every piece a name, in Latin or in Chinese or Japanese script, and
 * an institution, and nothing else in the block. In a byline of two pieces or more, one bracket
 * that names an institution by its words vouches for the others, which may name a studio, a
 * collective or a company by its own name only ("Jane Roe (Harbour University, Lakeside) John Doe
 * (Wavecraft Kernel)", a pandoc author field); no bracket holds an address.
 */
export function bracketedAffiliations(block: Block | undefined): Entry[] {
  if (block === undefined || block.text.length > 600) return [];
  const entries: Entry[] = [];
  let consumed = 0;
  let institutions = 0;
  for (const m of block.text.matchAll(NAME_THEN_BRACKETS)) {
    if (m.index !== consumed) return [];
    consumed = m.index + m[0].length;
    const name = m[1]!.trim();
    const affiliation = m[2]!.trim();
    if (affiliation.includes('@') || !(CJK_PERSON.test(name) || isNameLike(name))) return [];
    if (INSTITUTION.test(affiliation)) institutions++;
    entries.push({ name, marks: [], lines: [affiliation], links: [] });
  }
  const vouched = institutions === entries.length || (entries.length >= 2 && institutions >= 1);
  return consumed === block.text.trimEnd().length && vouched ? entries : [];
}

/**
 * A thesis cover's label over the student who wrote it, in the languages of the covers met:
 * Romanian "Absolvent:", Serbian "Кандидат:" / "Студент:", "Candidate:", "Student:", Hungarian
 * "Készítette" (made by) and "Hallgató", Greek "Φοιτητής" (plural "Φοιτητές"), "Submitted by:",
 * Russian "Выполнил(а)" (done by), Ukrainian "Виконав(ла)", Bulgarian "Дипломант(ка)", Lithuanian "Atliko" (done by), Chinese
 * "作 者:" (author), "研 究 生:" (graduate student) and "申 请 人:" (applicant), Vietnamese "Người thực hiện" (done by), "Sinh viên (thực hiện)" (student);
 * Persian "نگارش" / "نگارنده" (written by, writer) and "دانشجو" (student), Arabic "إعداد (الطالب)"
 * (prepared by) and "الطالب", Urdu "مقالہ نگار" (thesis writer), Hebrew "על ידי" (by) and "מגיש/ה"
 * (submitted by), Hindi "शोधार्थी" (researcher) and "प्रस्तुतकर्ता" (presenter).
 */
export const STUDENT_LABELS =
  /(?:absolvent(?:ul|a)?|candidat(?:ul|a|e)?|кандидат|студент|student(?:s|ul|a)?|készítette|hallgató|φοιτητ(?:ής|ές|ρια|ριες)|người\s+thực\s+hiện|sinh\s+viên(?:\s+thực\s+hiện)?|(?:submitted|prepared|presented)\s+by|выполнил[аи]?|виконав(?:ла)?|дипломант(?:ка)?|atliko|作\s*者|研\s*究\s*生|申\s*请\s*人|نگارش|نگارنده|دانشجو|(?:من\s+)?إعداد(?:\s+الطالبة?)?|الطالبة?|مقالہ\s+نگار|על\s+ידי|מגיש(?:ה|ים)?|शोधार्थी|प्रस्तुतकर्ता)/iu;

/**
 * The label over the supervisor on the same cover: Romanian "Coordonator științific:", Serbian
 * "Ментор:", Bulgarian "(Дипломен) ръководител", Hungarian "Konzulens" / "Témavezető", Greek "Επιβλέπων (Καθηγητής)", Vietnamese
 * "Người hướng dẫn" / "Giảng viên hướng dẫn", German "Betreuer", Lithuanian
 * "Darbo vadovas" / "Recenzentas", Dutch "Begeleider" / "Promotor", Portuguese and Spanish
 * "Orientador(a)" / "Coorientador(a)", and the English roles of ROLE_LINE.
 */
export const SUPERVISOR_LABELS =
  /(?:(?:co-?)?orientador(?:a)?|(?:darbo\s+)?vadovas|begeleider|(?:co-?)?promotor|recenzentas|(?:coordonator|conduc[ăa]tor)(?:\s+[șşs]tiin[țţt]ific)?|ментор|(?:научни\s+)?руководилац|konzulens|témavezető|επιβλέπ(?:ων|ουσα)(?:\s+καθηγ(?:ητής|ήτρια))?|(?:người|giảng\s+viên|giáo\s+viên)\s+hướng\s+dẫn|betreuer(?:in)?|(?:научный\s+)?руководитель|консультант|рецензент|(?:науковий\s+)?керівник|(?:(?:дипломен|научен)\s+)?ръководител|指\s*导\s*(?:者|教\s*师|老\s*师)|评\s*阅\s*(?:者|人))/iu;

/**
 * A cover's role label run in before its name with a colon ("指导者： 张三 副教授"): a field of the
 * cover, no line of the title set over it in the same type.
 */
export const ROLE_FIELD = new RegExp(
  `^(?:${STUDENT_LABELS.source}|${SUPERVISOR_LABELS.source})\\s*[:：]`,
  'iu',
);

/**
 * A row of the supervisors' labels set side by side over their names, with no student's label in
 * it ("Konzulens:   Témavezető:", a Hungarian cover's table): the names under it are theirs, and
 * the byline (the student's name, over the title) is over it.
 */
const ROLE_ROW = new RegExp(`^(?:${SUPERVISOR_LABELS.source}\\s*[:：]\\s*){2,}$`, 'iu');

export function supervisorsRow(text: string): boolean {
  return ROLE_ROW.test(text.replace(/\s+/g, ' ').trim());
}

/**
 * Icons linked after a name (an envelope for the email, a house for the home page, the ORCID
 * logo: LIPIcs sets all three) come out of their icon font as one glyph each, mapped to any letter
 * or sign ("Jane Roe # Ñ"). Words of one glyph at the end of a one-line block that carries links,
 * no more of them than it has links, are those icons and no part of the name. Digits and the
 * usual note signs stay: they are marks.
 */
const LINK_ICONS = /(?:\s+[^\s\p{N}*†‡§¶⋆∗★✉.,;:()[\]])+$/u;

/** The text with up to `most` single-glyph icon words cut from its end. */
export function iconsCut(text: string, most: number): string {
  const m = LINK_ICONS.exec(text);
  if (!m || m[0].trim().split(/\s+/).length > most) return text;
  return text.slice(0, m.index);
}

export function withoutLinkIcons(b: Block): Block {
  if (b.lines.length > 1) return withoutLinkIconsByLine(b);
  if (b.lines.length !== 1 || b.links.length === 0 || b.text.length > 150) return b;
  const text = iconsCut(b.text, b.links.length);
  let cut = b.text.length - text.length;
  if (cut === 0) return b;
  const runs = b.runs.map((r) => ({ ...r }));
  for (let k = runs.length - 1; k >= 0 && cut > 0; k--) {
    const take = Math.min(cut, runs[k]!.text.length);
    runs[k]!.text = runs[k]!.text.slice(0, runs[k]!.text.length - take);
    cut -= take;
  }
  return { ...b, text, runs: runs.filter((r) => r.text), lines: [{ ...b.lines[0]!, text }] };
}

/**
 * A column of names set one to a line, each with its icons linked after it (a web page's title
 * block: "Jane Roe ✉ iD" over "John Doe ✉"): each line's icon words are cut from its end, no more
 * of them in all than the block has links. Only a block of short lines in one type, none raised.
 */
function withoutLinkIconsByLine(b: Block): Block {
  if (b.links.length === 0 || b.lines.length > 12 || b.runs.some((r) => r.sup)) return b;
  if (b.lines.some((l) => l.text.length > 80)) return b;
  let left = b.links.length;
  const texts = b.lines.map((l) => {
    const cut = iconsCut(l.text.trimEnd(), left);
    if (cut.length < l.text.trimEnd().length)
      left -= l.text.trimEnd().slice(cut.length).trim().split(/\s+/).length;
    return cut;
  });
  if (texts.every((t, k) => t === b.lines[k]!.text)) return b;
  return {
    ...b,
    text: texts.join(' '),
    runs: texts.flatMap((t, k) =>
      k
        ? [
            { text: '\n', sup: false },
            { text: t, sup: false },
          ]
        : [{ text: t, sup: false }],
    ),
    lines: b.lines.map((l, k) => ({ ...l, text: texts[k]! })),
  };
}
