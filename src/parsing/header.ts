// Header metadata: title, authors (in order, with marks, emails, ORCIDs, affiliations), abstract,
// keywords. The rules read typography and position (the largest type on the first page, the lines
// under it, superscript marks, links, labelled lines), never strings of particular files.
import type { Block, DocumentModel, ParsedAuthor } from './types.ts';
import {
  CJK_WORDS,
  UNSPACED_WORDS,
  ORCID_RE,
  findEmails,
  findOrcids,
  joinCjkBreaks,
  joinLines,
  withoutCjkLatinGaps,
  mailtoAddresses,
  unique,
  submissionField,
} from './text-utils.ts';
import { foldWords } from '../infra/text-fold.ts';
import { withoutDegrees, withoutHonorifics } from '../corpus/authors/name-titles.ts';
import { validOrcid } from '../corpus/openalex/ids.ts';
import {
  BYLINE_LABEL,
  hasTypedSuperscripts,
  inCapitals,
  isDocumentWord,
  isMarkedNameLike,
  isMononym,
  isNameLike,
  isNameSlot,
  normalizeStars,
  splitByline,
  splitMarks,
  surnameOf,
  typedSuperscripts,
} from './names.ts';
import {
  ABSTRACT_LABEL,
  CONTENTS_ENTRY_STYLE,
  CONTENTS_LINE,
  KEYWORDS_LABEL,
  isHeading,
  isKeywordTermsLine,
  isProse,
} from './sections.ts';
import { INTRODUCTION, OTHER_LANGUAGE_LABEL, THESIS_LABEL_REACH, findAbstract } from './abstract.ts';
import { isAuthorStyle, isTitleStyle } from './style-names.ts';
import { INSTITUTION, INSTITUTION_WORD } from './institutions.ts';

export interface Header {
  title: string | null;
  titleIndex: number | null;
  /** Index after the title's last block. */
  titleEnd: number;
  abstract: string | null;
  abstractBlocks: number[];
  keywords: string[];
  authors: ParsedAuthor[];
  /** Index of the first block after the front matter. */
  frontEnd: number;
  unassignedEmails: string[];
}

const LABELLED =
  /^(?:funded by|funding|supported by|conflicts?|competing|present address|current address|equal contribution|these authors)/i;
const CORRESPONDENCE = /correspond|e-?mail|✉/i;
/** An email's label and address closing an institution's line: ". Email address: jr@x.org". */
const TRAILING_CONTACT = /(?<=\p{L}[.,;]?)\s+e-?mail(?:\s+address(?:es)?)?\s*:\s*\S+@\S+\s*$/iu;

const MAX_FRONT_BLOCKS = 120;

/**
 * A heading that names a part of the front matter ("Authors", "Affiliations", "Corresponding
 * author", "Author information"): a Word or Quarto title page may set each part under such a
 * heading, and the part it opens is still front matter, not the body.
 */
const FRONT_LABEL =
  /^(?:authors?|authors?\s+(?:information|details|list)|affiliations?|authors?['’]?\s+affiliations?|corresponding\s+authors?|correspondence)\s*:?$/i;

/**
 * The heading of a part a grant proposal is sent in (NSF's "Project Summary", "Project
 * Description", "References Cited"; NIH's "Specific Aims", "Research Strategy"; "Executive
 * Summary", "Budget Justification"): a file that opens on one is that part alone, with no title
 * page, so it prints no title and no byline; its headings are neither.
 */
const PROPOSAL_PART =
  /^(?:project (?:summary|description|narrative)|executive summary|specific aims|research (?:strategy|plan)|statement of work|budget justification|data management plan|references cited)\s*$/i;

interface Entry {
  name: string;
  marks: string[];
  lines: string[];
  links: string[];
}

/** "Abstract. The ...", "Abstract: ...", "Abstract — ...", "ABSTRACT The ...": a run-in label. */
const RUN_IN_ABSTRACT = /^(?:[Aa]bstract|ABSTRACT|[Ss]ummary|SUMMARY)\s*[:.—–-]|^ABSTRACT\s/;

/**
 * "Abstract This is ..." set in bold and run in with no stop after it (Springer's sola class)
 * tells the label by its face alone, which a block's text does not keep: it is read as a label
 * only at the head of a paragraph of prose length.
 */
const BARE_RUN_IN_ABSTRACT = /^(?:Abstract|ABSTRACT|Summary|SUMMARY)\s+\p{Lu}/u;

/** A block that is the abstract's label, or opens with it. */
function opensAbstract(b: Block): boolean {
  if (b.text.length < 20) return ABSTRACT_LABEL.test(b.text);
  return RUN_IN_ABSTRACT.test(b.text) || (b.text.length >= 200 && BARE_RUN_IN_ABSTRACT.test(b.text));
}

/**
 * The label over a page that a journal asks for before the paper (elsarticle's preprint sets a
 * "Graphical Abstract" and a "Highlights" page first, in type larger than the title under it).
 */
const FRONT_INSERT_LABEL =
  /^\s*(?:graphical abstract|(?:research )?highlights|table of contents (?:graphic|entry)|toc graphic)\s*$/i;

/**
 * An invocation set over the title in its style ("In the name of God", Persian "به نام خدا", Arabic
 * "بسم الله الرحمن الرحيم"): a line of its own that is no part of the title.
 */
const INVOCATION =
  /^(?:in the name of (?:god|allah)\b|به\s?نام\s?(?:خدا|ایزد|یزدان|پروردگار)|بسم(?:ه)?\s|باسمه\s)[^.]{0,60}$/iu;

/**
 * A title typed as a sentence in a Word document's Title style keeps no closing full stop; an
 * initial's or an abbreviation's stop ("U.S.", "Inc.") stays. A title typed after its label in the
 * body's type keeps its stop as typed (NOTHING matches nothing).
 */
const SENTENCE_STOP = /(?<=\p{Ll}{3}|\p{Lo})\.$/u;
/**
 * A thesis's cover line that names what it is, not what it is about: "硕士学位论文" (master's
 * thesis), "2019年度春学期 卒業論文" (bachelor's thesis of a term), "학위논문": short, and ending in the
 * word for a thesis or paper, where a title says its subject; a bachelor's design project's
 * "毕业设计说明书" (graduation design's report) ends in the word for its report. A Japanese
 * journal's kind of paper set over the title reads the same: "研究速報" (a letter), "ショートノート",
 * "研究ノート", "レター".
 */
const THESIS_KIND =
  /^[^\n]{0,16}(?:论文|論文|논문|说明书|說明書|速報|(?:研究|ショート|テクニカル)ノート|レター)\s*$/;
/**
 * The same line in a European language: "Projekt dyplomowy", "Praca magisterska", "Bachelor's
 * thesis", "Diplomarbeit", "Bakalářská práce", "Trabajo fin de grado", Romanian "Proiect de
 * diplomă", "Lucrare de licență", Serbian "Мастер рад", "Дипломски рад", Hungarian "Szakdolgozat",
 * "Diplomamunka", Greek "Διπλωματική εργασία", Russian "Выпускная квалификационная работа",
 * "Работа бакалавра", "Магистерская диссертация", Ukrainian "Кваліфікаційна робота", "MSc thesis",
 * "Undergraduate thesis", Indonesian "Skripsi", "Tesis", "Disertasi", "Tugas akhir",
 * set large on a cover over the title; the whole line names the kind of work and nothing else, one
 * kind or two run together ("ВЫПУСКНАЯ КВАЛИФИКАЦИОННАЯ РАБОТА РАБОТА БАКАЛАВРА").
 */
const WORK_KINDS =
  /(?:(?:projekt|praca)\s+(?:dyplomow[ya]|magistersk[ai]|in[żz]yniersk[ai]|licencjack[ai])|(?:(?:bachelor|master|doctoral|diploma|senior|honou?rs|undergraduate|b\.?sc|m\.?sc|ph\.?d)(?:['’]?s)?\s+)(?:thesis|dissertation|project)|skripsi|tesis|disertasi|tugas\s+akhir|(?:proiect|lucrare)\s+de\s+(?:diplom[ăa]|licen[țţt][ăa]|diserta[țţt]ie|master(?:at)?)|(?:мастер|дипломски|завршни|магистарски|докторски)\s+рад|szakdolgozat|diplomamunka|diplomaterv|(?:διπλωματική|πτυχιακή|μεταπτυχιακή)\s+εργασία|(?:bachelor|master|diplom|seminar)arbeit|(?:bakal[áa][řr]sk[áa]|diplomov[áa])\s+pr[áa]ce|trabajo\s+(?:de\s+)?fin\s+de\s+(?:grado|m[áa]ster)|(?:выпускная\s+)?квалификационная\s+работа|(?:дипломная|курсовая|бакалаврская|магистерская|выпускная)\s+работа|работа\s+(?:бакалавра|магистра|специалиста)|(?:магистерская|кандидатская|докторская)\s+диссертация|(?:дипломна|курсова|бакалаврська|магістерська|кваліфікаційна)\s+робота)/iu;
const WORK_KIND = new RegExp(`^\\s*${WORK_KINDS.source}(?:\\s+${WORK_KINDS.source})?\\s*$`, 'iu');
/** A cover's line that names the kind of work: a thesis's in a European language or in CJK. */
function kindOfWork(b: Block): boolean {
  return WORK_KIND.test(b.text) || THESIS_KIND.test(b.text);
}
const NOTHING = /(?!)/;
/** The space a line break left between a Chinese or Japanese character and a dash after it. */
const CJK_BEFORE_DASH = /(?<=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])\s+(?=[—―])/u;

/**
 * The title a file declares in its metadata, when it reads as one: three words or more, and no
 * file's name ("Microsoft Word - draft.docx"). A template's stale value names the kind of document
 * ("Bakalářská práce", "Title") in a word or two.
 */
function declaredTitle(title: string | null): string | null {
  if (!title) return null;
  const t = title.replace(/\s+/g, ' ').trim();
  if (t.split(' ').length < 3 || /\.(?:docx?|pdf|tex|rtf|odt)\b|^microsoft word\b/i.test(t)) return null;
  return t;
}

/** The most paragraphs a title's style marks in one document (title, subtitle, a translated title). */
const MAX_TITLE_PARAGRAPHS = 3;

/** A periodical's name: "Journal of ...", "... Letters", "Proceedings of ...". */
const PERIODICAL =
  /\b(?:journal|annals|proceedings|transactions|letters|bulletin|magazine|review|zeitschrift|revista|revue|rivista)\b/i;
/** The line under a journal's name in its masthead: its issue ("Volume 12, Issue 3", "Vol. 4, No. 2"), DOI or ISSN. */
const ISSUE_LINE = /\b(?:volume|vol\.|issue|no\.)\s*[\w?]+|^doi\s?:|\bissn\b/i;

/**
 * A journal's name set large in the first page's masthead, its issue line right under it
 * ("Journal of Statistical Software" over "MMMMMM YYYY, Volume VV, Issue II."): no title, however
 * large (jss.cls sets it above the title's size).
 */
function isMasthead(blocks: readonly Block[], i: number): boolean {
  const next = blocks[i + 1];
  return (
    namedInJournalField(blocks, i) ||
    (PERIODICAL.test(blocks[i]!.text) &&
      blocks[i]!.text.length <= 80 &&
      next !== undefined &&
      next.page === blocks[i]!.page &&
      next.relSize < blocks[i]!.relSize &&
      ISSUE_LINE.test(next.text))
  );
}

/**
 * A submission system's cover sheet (ScholarOne's "For Peer Review" PDF) names the journal in a
 * field ("Journal: Journal of Biological Education") under the title; the same name printed alone
 * on that page, over the title, is the journal's banner, not the title.
 */
function namedInJournalField(blocks: readonly Block[], i: number): boolean {
  const b = blocks[i]!;
  if (b.text.length > 120) return false;
  // The field is looked for on the block's page only, and near it: a cover sheet is one page.
  for (let k = Math.max(0, i - 30); k < Math.min(blocks.length, i + 30); k++) {
    const o = blocks[k]!;
    if (k === i || o.page !== b.page) continue;
    const field = submissionField(o.text);
    if (field?.field === 'journal' && field.value !== '' && foldWords(field.value) === foldWords(b.text))
      return true;
  }
  return false;
}

/**
 * A Word title broken into paragraphs by hand, each in the same large type ("INFERENCE CAUSALE ET
 * BIAIS" / "DANS L'APPRENTISSAGE AUTOMATIQUE"): the longest of them is found first, and the title
 * opens at the paragraph right before it in that type and style (its face may change within the
 * title: a PDF's bold may be a word's or a line's). An
 * institution's name or a line saying what kind of document it is, set over the title in its type
 * (a thesis's cover), is none of it; nor is a line that ends a sentence.
 */
function titleOpening(blocks: readonly Block[], i: number): number {
  const t = blocks[i]!;
  let k = i;
  while (k > 0 && k > i - 2) {
    const b = blocks[k - 1]!;
    if (
      b.page !== t.page ||
      b.styleName !== t.styleName ||
      b.styleLevel != null ||
      t.styleLevel != null ||
      Math.abs(b.relSize - t.relSize) > 0.03 * t.relSize ||
      b.lines.length > 1 ||
      b.text.length > 200 ||
      /[.;,:!?]\s*$/.test(b.text) ||
      FRONT_LABEL.test(b.text.trim()) ||
      INSTITUTION_WORD.test(b.text) ||
      kindOfWork(b) ||
      b.text
        .trim()
        .split(/\s+/)
        .some((w) => isDocumentWord(w)) ||
      b.text.includes('@') ||
      isNameList(b) ||
      opensWithNoteMark(b) ||
      markedNameCount(b) >= 2
    )
      break;
    k--;
  }
  return k;
}

/** A cover's line in capitals: one line, a few words, no sentence's end. */
function shortCapitalsLine(b: Block): boolean {
  const text = b.text.trim();
  return b.lines.length <= 1 && inCapitals(text) && text.split(/\s+/).length <= 6 && !/[.;:!?]$/.test(text);
}

/**
 * A cover's banner naming its institution in capitals, broken by hand into lines in one type
 * ("UNIWERSYTET" / "PRZYRODNICZO–HUMANISTYCZNY" / "W SIEDLCACH", "ΠΑΝΕΠΙΣΤΗΜΙΟ ΠΑΤΡΩΝ" over
 * "ΣΧΟΛΗ ΘΕΤΙΚΩΝ ΕΠΙΣΤΗΜΩΝ"): a short line in capitals that opens with an institution's word, or one
 * of the lines of three words at most in capitals right under it in its type and style that go on
 * with the name (a kind-of-work line is none of them).
 */
function institutionBanner(blocks: readonly Block[], i: number): boolean {
  for (let k = i; k >= 0 && k > i - 3; k--) {
    const b = blocks[k]!;
    if (!shortCapitalsLine(b)) return false;
    const words = b.text.trim().split(/\s+/);
    if (INSTITUTION_WORD.test(words[0]!)) return true;
    // A line that goes on with the name is of three words at most, and names no kind of work.
    if (words.length > 3 || kindOfWork(b)) return false;
    const above = blocks[k - 1];
    if (
      !above ||
      above.page !== b.page ||
      above.styleName !== b.styleName ||
      Math.abs(above.relSize - b.relSize) > 0.03 * b.relSize
    )
      return false;
  }
  return false;
}

function findTitle(doc: DocumentModel): number | null {
  if (PROPOSAL_PART.test(doc.blocks[0]?.text.trim() ?? '')) return null;
  // A template may give its Title style to every unnumbered heading ("Abstrakt", "Obsah", a
  // subsection's name; a Czech thesis template): a style set on more paragraphs than a title, its
  // subtitle and a translated title take is a heading style, and marks no title.
  const titleStyle = (b: Block) => b.styleLevel === 0 || isTitleStyle(b.styleName ?? '');
  const headingStyle = doc.blocks.filter(titleStyle).length > MAX_TITLE_PARAGRAPHS;
  const styled = doc.blocks.findIndex((b) => b.styleLevel === 0 && !INVOCATION.test(b.text.trim()));
  if (styled >= 0 && !headingStyle) return styled;
  const titleStyled = doc.blocks.findIndex(
    (b, i) => i < MAX_FRONT_BLOCKS && isTitleStyle(b.styleName ?? '') && /\p{L}{2}/u.test(b.text),
  );
  if (titleStyled >= 0 && !headingStyle) return titleStyled;
  // A title typed after its label ("Title: ...", "Título: ..."), in a draft set all in the body's
  // type: the label says it, the first such paragraph when the title is given in two languages.
  const labelled = doc.blocks.findIndex(
    (b, i) => i < 10 && b.page === 1 && withoutTitleLabel(b.text) !== b.text && b.text.length <= 400,
  );
  if (labelled >= 0 && doc.blocks.slice(0, labelled).every((b) => b.relSize <= doc.blocks[labelled]!.relSize))
    return labelled;
  // The label alone in its paragraph ("Title:"), the title in the next one; or, on a cover that
  // sets its labels as a column over the column of their values ("学 院:", "专业:", "题 目:", then
  // the three values), the value at the label's place in the run.
  const bareLabel = doc.blocks.findIndex((b, i) => i < 10 && b.page === 1 && BARE_TITLE_LABEL.test(b.text));
  let place = 1;
  while (bareLabel - place >= 0 && FIELD_LABEL.test(doc.blocks[bareLabel - place]!.text.trim())) place++;
  const values = doc.blocks.slice(bareLabel + 1, bareLabel + 1 + place);
  if (values.length < place || values.some((b) => FIELD_LABEL.test(b.text.trim()))) place = 1;
  const underLabel = bareLabel >= 0 ? doc.blocks[bareLabel + place] : undefined;
  if (
    underLabel &&
    underLabel.text.length <= 400 &&
    (underLabel.text.trim().split(/\s+/).length >= 2 || CJK_WORDS.test(underLabel.text))
  )
    return bareLabel + place;
  const firstPage = doc.blocks
    .map((b, i) => ({ b, i }))
    .filter(({ b, i }) => b.page === 1 && i < MAX_FRONT_BLOCKS)
    .filter(({ b }) => {
      // Chinese, Japanese and Thai write a title's words with no space between them (Thai's vowel
      // signs, marks between its letters, break a run of letters too).
      const unspaced = UNSPACED_WORDS.test(b.text);
      return (
        (b.text.length >= 8 || unspaced) &&
        b.text.length <= 400 &&
        (/\p{L}{3}/u.test(b.text) || unspaced) &&
        (unspaced || b.text.split(/\s+/).length >= 2)
      );
    })
    .filter(({ b }) => !b.text.includes('@') && !FRONT_INSERT_LABEL.test(b.text) && !kindOfWork(b))
    .filter(({ i }) => !isMasthead(doc.blocks, i))
    .filter(({ b }) => !(headingStyle && titleStyle(b)));
  const declared = doc.declared.title ? foldWords(doc.declared.title) : '';
  if (declared.split(' ').length >= 3) {
    const match = firstPage.find(({ b }) => foldWords(b.text) === declared);
    if (match) return match.i;
  }
  // The largest type on the first page; a short label ("Research Article") may share the size,
  // so among the largest the longest wins. Section headings set as large as the title (PLOS)
  // come after the abstract's label, and a title never does.
  // The label may stand alone or run into the abstract's first sentence ("Abstract. The ...",
  // LNCS; "ABSTRACT: ...", "Abstract— ...", IEEE): either marks where the abstract starts.
  const abstractAt = doc.blocks.findIndex((b) => b.page === 1 && opensAbstract(b));
  // A Word manuscript that opens on its abstract's heading, or on its introduction's (an anonymized
  // manuscript with neither title nor abstract), prints no title (its title page a file of its
  // own): no heading of its body is one. The document's declared title stands in for it.
  const opensBody = abstractAt === 0 || INTRODUCTION.test(doc.blocks[0]?.text.trim() ?? '');
  if (opensBody && doc.format === 'docx') return null;
  const beforeAbstract = firstPage.filter(({ i }) => abstractAt < 0 || i < abstractAt);
  const onPage = beforeAbstract.length ? beforeAbstract : firstPage;
  // A cover's institution banner set larger than its title is none of the candidates, when others are.
  const unbannered = onPage.filter(({ i }) => !institutionBanner(doc.blocks, i));
  const candidates = unbannered.length ? unbannered : onPage;
  const maxSize = Math.max(0, ...candidates.map(({ b }) => b.relSize));
  // Some templates set the byline and the affiliations in the title's size (ICASSP's spconf):
  // those blocks are longer than the title, but they open with a note mark or carry a mark after
  // each name, and a title carries one footnote mark at most.
  const largest = candidates.filter(
    ({ b }) => b.relSize >= 0.97 * maxSize && !opensWithNoteMark(b) && markedNameCount(b) < 2,
  );
  const best = largest.sort((x, y) => y.b.text.length - x.b.text.length)[0];
  // A one-word title ("Title" in a template, a short product name) is left out of the candidates
  // above; it still wins when it is set well above all of them, before the abstract, and reads
  // as no document kind or label.
  const oneWord = doc.blocks
    .map((b, i) => ({ b, i }))
    .filter(
      ({ b, i }) =>
        b.page === 1 &&
        i < MAX_FRONT_BLOCKS &&
        (abstractAt < 0 || i < abstractAt) &&
        /^\p{Lu}\p{L}{2,}$/u.test(titleText(b)) &&
        !(headingStyle && titleStyle(b)) &&
        !ABSTRACT_LABEL.test(b.text) &&
        !KEYWORDS_LABEL.test(b.text) &&
        !isDocumentWord(titleText(b)),
    )
    .sort((x, y) => y.b.relSize - x.b.relSize)[0];
  // A title sits right over its byline. A banner of one word in a larger type (a journal's name
  // drawn in the page head, RSC) stands over the title instead: when the longest of the largest
  // blocks is the one over a byline and the word is not, the block is the title.
  const overByline = (i: number) => {
    const next = doc.blocks[i + 1];
    return (
      next !== undefined &&
      next.page === 1 &&
      (markedNameCount(next) >= 2 || isNameList(next) || bracketedAffiliations(next).length > 0)
    );
  };
  const bannerOverTitle =
    oneWord !== undefined && best !== undefined && overByline(best.i) && !overByline(oneWord.i);
  if (oneWord && oneWord.b.relSize >= 1.5 && oneWord.b.relSize >= 1.3 * maxSize && !bannerOverTitle)
    return oneWord.i;
  // A first-level heading set larger than the title (a Word template's "SCIENCE FOR SOCIETY" box
  // before the summary) is a section of the front matter when it stands over no byline and an
  // earlier paragraph in bold does: that paragraph is the title.
  if (best && maxSize >= 1.1 && best.b.styleLevel === 1 && !overByline(best.i)) {
    const overNames = firstPage.find(
      ({ b, i }) =>
        i < best.i && b.emphasis && overByline(i) && !opensWithNoteMark(b) && markedNameCount(b) < 2,
    );
    if (overNames) return overNames.i;
  }
  // A title printed in two languages, each over its own byline in the same large type (a Korean
  // paper's Korean title and byline, then the English ones): the first is the document's own.
  const overNames = largest.filter(({ i }) => overByline(i)).sort((x, y) => x.i - y.i);
  if (best && maxSize >= 1.1 && overByline(best.i) && overNames.length >= 2) return overNames[0]!.i;
  // A thesis's cover set all in one large type, the kind of work on top ("SKRIPSI", "BACHELOR'S
  // THESIS"), then the title, the author, the faculty: the title is what the kind line stands over,
  // not the longest line (the faculty's). So is a Japanese journal's paper under its kind ("研究速報"),
  // in the body's size.
  const kindAt = doc.blocks.findIndex(
    (b, i) => b.page === 1 && i < MAX_FRONT_BLOCKS && b.relSize >= 0.97 * maxSize && kindOfWork(b),
  );
  const kind = doc.blocks[kindAt];
  const underKind = doc.blocks[kindAt + 1];
  if (
    best &&
    maxSize >= 1.1 &&
    kind &&
    underKind &&
    underKind.page === 1 &&
    underKind.text.length <= 200 &&
    !/[.。!?]$/u.test(underKind.text.trim()) &&
    !isNameList(underKind) &&
    !INSTITUTION_WORD.test(underKind.text)
  )
    return kindAt + 1;
  if (best && maxSize >= 1.1) return titleOpening(doc.blocks, best.i);
  if (capitalsByline(doc.blocks) !== null) return 0;
  // Word documents without a Title style: the first short paragraph in bold or a first-level heading,
  // before the abstract's label (a heading after it is the body's). An author's name set in bold
  // under a title in the body's face is the byline, not the title. A cover's line that names the
  // kind of work is none; the bold paragraph right under it is the title even when its lines, in
  // capitals, each read like a name ("ПОВЫШЕНИЕ КАЧЕСТВА ИЗОБРАЖЕНИЙ").
  const kindLine = (b: Block | undefined) => !!b && kindOfWork(b);
  // A cover's first line naming its institution in capitals ("UNIVERSITY OF CALIFORNIA
  // RIVERSIDE", a dissertation's cover in one bold type) is its banner, and the line under it the
  // title even when it reads as names ("Dubrovnik Skein Theory and Power Sum Elements").
  const coverBanner = (b: Block, i: number) => i === 0 && inCapitals(b.text) && INSTITUTION_WORD.test(b.text);
  const firstHeading = doc.blocks.findIndex(
    (b, i) =>
      i < 10 &&
      (abstractAt < 0 || i < abstractAt) &&
      (b.styleLevel === 1 || b.emphasis) &&
      b.text.split(/\s+/).length >= 3 &&
      !kindLine(b) &&
      !coverBanner(b, i) &&
      !namedInJournalField(doc.blocks, i) &&
      !(
        b.styleLevel !== 1 &&
        i > 0 &&
        namesOnly(b) &&
        !kindLine(doc.blocks[i - 1]) &&
        !coverBanner(doc.blocks[i - 1]!, i - 1)
      ),
  );
  if (firstHeading >= 0) return firstHeading;
  // A draft typed all in the body's type and face: its first paragraph, when it reads as a title
  // (a few words, no sentence's end, no address) and the abstract's label comes a few paragraphs on
  // or right under it (a student's paper or a blinded draft, no byline between), or an unlabelled
  // keywords line does (terms set apart by bars, under an abstract with no label), or, in a paper
  // with no abstract, a byline stands right under it.
  const first = doc.blocks[0];
  const termsAt = doc.blocks.findIndex((b, i) => i < 10 && isKeywordTermsLine(b.text));
  if (
    first &&
    ((abstractAt >= 1 && abstractAt < 10) ||
      termsAt >= 2 ||
      (abstractAt < 0 && !!doc.blocks[1] && namesOnly(doc.blocks[1]))) &&
    first.text.length <= 250 &&
    first.text.trim().split(/\s+/).length >= 3 &&
    !/[.;,]$/.test(first.text.trim()) &&
    !first.text.includes('@') &&
    !isNameList(first) &&
    !FRONT_LABEL.test(first.text.trim()) &&
    !ABSTRACT_LABEL.test(first.text)
  )
    return 0;
  return null;
}

/**
 * A first page that opens, in the body's type, on a line in capitals over its author's name alone
 * (in capitals or not), one more line in capitals between them at most: amsart's "SCHUR
 * POLYNOMIALS" / "CLAUDIA HE YUN", an Econometrica-style working paper, a thesis's cover typed in
 * one size. The capitals are the title; no larger type marks it, and it may be of two words. The
 * index of the name's block, the title's end; null when the page does not open so. A second line
 * in capitals that reads like a name too goes on with the title when the name under it is in
 * ordinary case ("... OF FISH IN A COLD WINTER" / "Nora Vance").
 */
function capitalsByline(blocks: readonly Block[]): number | null {
  const first = blocks[0];
  if (!first || first.page !== 1 || !opensCapitalsTitle(first)) return null;
  const isName = (b: Block | undefined) => !!b && b.page === 1 && namesOnly(b) && !isNameList(b);
  const next = blocks[1];
  const third = blocks[2];
  if (next && opensCapitalsTitle(next) && isName(third) && (!namesOnly(next) || !inCapitals(third!.text)))
    return 2;
  return isName(next) ? 1 : null;
}

/**
 * The name alone under a title in capitals at the body's size (capitalsByline) is its author's; the
 * lines further down a cover ("Jere Behrman, Primary Advisor") or the unlabelled abstract under a
 * working paper's byline are not read for names.
 */
function nameUnderCapitalsTitle(
  blocks: Block[],
  titleIndex: number | null,
  titleEnd: number,
): { entries: Entry[]; used: Set<number> } | null {
  if (titleIndex !== 0 || capitalsByline(blocks) !== titleEnd) return null;
  const b = blocks[titleEnd]!;
  const names = splitByline(b.runs).filter((n) => isNameLike(n.name) && !INSTITUTION_WORD.test(n.name));
  if (!names.length) return null;
  return {
    entries: names.map((n) => ({ name: n.name, marks: n.marks, lines: [], links: [] })),
    used: new Set([titleEnd]),
  };
}

function opensCapitalsTitle(b: Block): boolean {
  const text = b.text.trim();
  return (
    inCapitals(text) &&
    b.relSize < 1.1 &&
    text.length <= 200 &&
    text.split(/\s+/).length >= 2 &&
    !/[.;,:]$/.test(text) &&
    !text.includes('@') &&
    !INSTITUTION_WORD.test(text) &&
    !kindOfWork(b) &&
    !FRONT_LABEL.test(text)
  );
}

/**
 * "Title: Using ...", "Full title: ...", Russian "Название: «...»": a submission form's label typed
 * before the title (a hand-written draft's first line) is no part of it, nor are the quotation
 * marks the title is then typed in. A running or short title keeps its label:
 * that line is not the title.
 */
const TITLE_LABEL =
  /^(?:(?:full|article|paper|manuscript)\s+)?(?:title|t[ií]tulo|titre|titel|titolo|название|заглавие|назва|tytu[łl]|judul|ba[şs]l[ıi]k|题\s*目|題\s*目)\s*[:：]\s*(?=\S)/iu;

/** The title's label alone in its paragraph ("Title:"), the title typed in the next one. */
const BARE_TITLE_LABEL =
  /^\s*(?:(?:(?:full|article|paper|manuscript)\s+)?(?:title|t[ií]tulo|titre|titel|titolo|название|заглавие|назва|tytu[łl]|judul|ba[şs]l[ıi]k|题\s*目|題\s*目)\s*[:：]|đề\s+tài\s*:?)\s*$/iu;
/**
 * A cover's field label alone on its line ("学 院:", "Department:"): short, closed by a colon. A
 * cover may set its labels in one column and their values in the next, read as a run of labels
 * and then a run of values in the same order.
 */
const FIELD_LABEL = /^[^\n:：]{1,16}[:：]$/u;

function withoutTitleLabel(title: string): string {
  const rest = title.replace(TITLE_LABEL, '');
  return rest !== title && rest.split(/\s+/).length >= 2 ? rest : title;
}

/** An affiliation list opens with its mark: a raised run, or a note symbol typed before the text. */
function opensWithNoteMark(block: Block): boolean {
  const first = block.runs.find((r) => r.text.trim() !== '');
  // A raised mark may be a glyph the font maps to no known character ("?").
  const raised = first?.sup === true && /^(?:[^\p{L}\s]{1,4}|[a-z])$/u.test(first.text.trim());
  return raised || /^\s*[*†‡§¶]/u.test(normalizeStars(block.text));
}

/** Raised marks that follow text: one after each name in a byline. */
function markedNameCount(block: Block): number {
  return block.runs.filter(
    (r, k) => r.sup && r.text.trim() !== '' && k > 0 && /\p{L}/u.test(block.runs[k - 1]!.text),
  ).length;
}

/** A word broken by a hyphen at a line's end ("eco-" / "logical") is one word; "pre- and post-" stays. */
function joinHyphenated(text: string): string {
  return (
    text
      .replace(/(\p{Ll})-[ \t]*\n\s*(?!(?:and|or|to)\b)(?=\p{Ll})/gu, '$1')
      // A title set in capitals breaks its words the same way ("CONVOLU-" / "TION"). Two capitals
      // either side: a single letter before the hyphen is a compound's ("X-RAY").
      .replace(/(\p{Lu}{2})-[ \t]*\n[ \t]*(?!(?:AND|OR|TO)\b)(?=\p{Lu}{2})/gu, '$1')
  );
}

/**
 * A raised run inside a title, set on a word and with more of the title after it, is part of the
 * title ("NC¹ with Typed Monoids", "μ_p G^p_E", "with ⁹Be Nuclei"): a note mark stands at the
 * title's end.
 */
function raisedInTitle(runs: Block['runs'], k: number): boolean {
  const r = runs[k]!;
  const before = runs[k - 1];
  return (
    /^[\p{L}\p{N}]+$/u.test(r.text.trim()) &&
    before !== undefined &&
    !before.sup &&
    // set on the word before it, or on the word after it, a space before ("with ⁹Be Nuclei")
    (/[\p{L}\p{N}]$/u.test(before.text) ||
      (/[\p{L}\p{N}] $/u.test(before.text) && /^\p{L}/u.test(runs[k + 1]?.text ?? ''))) &&
    runs.slice(k + 1).some((n) => !n.sup && /[\p{L}\p{N}]/u.test(n.text))
  );
}

/**
 * A note mark on a title set high enough to be read as a line or a block of its own among the
 * title's lines (ifacconf's star after the title, which a font without a Unicode map gives as
 * "?"): a line of mark symbols alone is no part of the title.
 */
const LONE_TITLE_MARK = /^[*†‡§¶✉⋆∗?]{1,3}$/u;

/**
 * A note set in the margin on the title's line (Tufte's sidenotes): the title's raised mark on its
 * last word, the same mark again raised to open the note, then the note's text, a sentence. The
 * title ends at its mark. A raised number after a number ("10¹¹ eV") or before the word it is on
 * ("of ¹¹C") is no such mark.
 */
function beforeMarginNote(runs: Block['runs']): Block['runs'] {
  const k = runs.findIndex(
    (r, n) =>
      n > 0 &&
      r.sup &&
      /^(\S)\1$/u.test(r.text.trim()) &&
      !runs[n - 1]!.sup &&
      /\p{L}$/u.test(runs[n - 1]!.text) &&
      /^\s*\p{Lu}/u.test(runs[n + 1]?.text ?? ''),
  );
  return k > 0 ? runs.slice(0, k) : runs;
}

function titleText(block: Block): string {
  if (LONE_TITLE_MARK.test(block.text.trim())) return '';
  const runs = beforeMarginNote(block.runs);
  // A line break between two Chinese or Japanese characters is no space.
  return withoutCjkLatinGaps(
    joinCjkBreaks(
      joinHyphenated(
        runs
          .filter((r, k) => !r.sup || raisedInTitle(runs, k))
          .map((r) => r.text)
          .join('')
          .split('\n')
          .filter((line) => !LONE_TITLE_MARK.test(line.trim()))
          .join('\n'),
      ),
    ),
  )
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/(?<![*†‡§¶✉])[*†‡§¶✉]+$/u, '') // the look-behind: a run of marks read once, from its start
    .trim();
}

/**
 * A date and nothing else: "January 30, 2026", "30 January 2026", "March 2025", "2026-01-30",
 * "30.01.2026" (a month's name in any language, a year of this or the last century), the day of
 * the week before it and an ordinal's ending after the day ("Thursday, December 20th, 2018").
 */
const DATE_ALONE =
  /^(?:(?:\p{L}{3,12},\s+)?(?:\d{1,2}\.?\s+)?\p{L}{3,12}\.?\s+(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?(?:19|20)\d\d|(?:19|20)\d\d[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.](?:19|20)\d\d)$/u;

/** A block that splits into two names or more and nothing else ("Ann Roe, Bo Li, and Cy Dunn"). */
function isNameList(block: Block): boolean {
  if (block.text.length > 300) return false;
  const pieces = splitByline(block.runs);
  return pieces.length >= 2 && pieces.every((n) => isNameLike(n.name) && !INSTITUTION_WORD.test(n.name));
}

/** A byline of one name or more and nothing else ("Alma Q. Roe"). */
function namesOnly(block: Block): boolean {
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

/** The first block after the table of contents that opens at `i` (`i` itself when none does). */
function afterContents(blocks: Block[], i: number): number {
  let k = i;
  while (
    k < blocks.length &&
    (CONTENTS_STYLE.test(blocks[k]!.styleName?.trim() ?? '') || CONTENTS_LINE.test(blocks[k]!.text))
  )
    k++;
  return k;
}

/** Word's list paragraph styles ("List Paragraph", "List Number 2", "List Bullet"). */
const WORD_LIST_STYLE = /^list (?:paragraph|number|bullet)(?: \d)?$/i;

function findFrontEnd(blocks: Block[], from: number): number {
  const limit = Math.min(blocks.length, MAX_FRONT_BLOCKS);
  for (let i = from; i < limit; i++) {
    const b = blocks[i]!;
    // A PDF's table of contents opens it too: its lines, dot leaders and page numbers, name the
    // abstract and the sections without being them.
    if (opensContents(blocks, i) || CONTENTS_LINE.test(b.text)) return i;
    if (ABSTRACT_LABEL.test(b.text) && (b.text.length < 20 || isHeading(b) || b.styleName === 'Abstract'))
      return i;
    if (ABSTRACT_LABEL.test(b.text) && b.text.length > 100) return i;
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
 * A cover that sets its author's name over the title (a seminar paper's or a thesis's: the name in
 * a larger type than the body's, then the title): read when no byline follows the title. The block
 * right over the title holds names and nothing else; a running head in the body's type or smaller,
 * an anonymised line, is none.
 */
function nameOverTitle(
  blocks: Block[],
  titleIndex: number | null,
): { entries: Entry[]; used: Set<number> } | null {
  if (titleIndex === null || titleIndex === 0) return null;
  const b = blocks[titleIndex - 1]!;
  const title = blocks[titleIndex]!;
  if (
    b.page !== title.page ||
    b.relSize < 1.1 ||
    b.lines.length > 1 ||
    /anonym/i.test(b.text) ||
    !namesOnly(b) ||
    FRONT_LABEL.test(b.text.trim()) ||
    BARE_TITLE_LABEL.test(b.text)
  )
    return null;
  const names = splitByline(b.runs).filter((n) => isNameLike(n.name) && !INSTITUTION_WORD.test(n.name));
  if (!names.length) return null;
  return {
    entries: names.map((n) => ({ name: n.name, marks: n.marks, lines: [], links: [] })),
    used: new Set([titleIndex - 1]),
  };
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
 * an institution, and nothing else in the block.
 */
function bracketedAffiliations(block: Block | undefined): Entry[] {
  if (block === undefined || block.text.length > 600) return [];
  const entries: Entry[] = [];
  let consumed = 0;
  for (const m of block.text.matchAll(NAME_THEN_BRACKETS)) {
    if (m.index !== consumed) return [];
    consumed = m.index + m[0].length;
    const name = m[1]!.trim();
    const affiliation = m[2]!.trim();
    if (!INSTITUTION.test(affiliation) || !(CJK_PERSON.test(name) || isNameLike(name))) return [];
    entries.push({ name, marks: [], lines: [affiliation], links: [] });
  }
  return consumed === block.text.trimEnd().length ? entries : [];
}

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

type NamesReader = (
  blocks: Block[],
  from: number,
  to: number,
) => { entries: Entry[]; used: Set<number> } | null;

/**
 * Names a cover labels over its title, read by `read` on the title's page before it: a student
 * under "作 者:" with "题 目:" and the title after (namedByRoleLabels), or a French thesis's author
 * under "Par" with the jury under the title, whose names are none (namesAfterBy).
 */
function labelledOverTitle(
  blocks: Block[],
  titleIndex: number | null,
  read: NamesReader,
): { entries: Entry[]; used: Set<number> } | null {
  if (titleIndex === null) return null;
  let from = titleIndex;
  while (from > 0 && blocks[from - 1]!.page === blocks[titleIndex]!.page) from--;
  return from < titleIndex ? read(blocks, from, titleIndex) : null;
}

/** A paragraph of one line that holds one name and nothing else: no mark, no institution. */
function isLoneName(b: Block): boolean {
  return (
    b.lines.length <= 1 &&
    b.text.length <= 60 &&
    !b.runs.some((r) => r.sup && r.text.trim() !== '') &&
    isNameLike(b.text) &&
    !INSTITUTION_WORD.test(b.text) &&
    splitByline(b.runs).length === 1
  );
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

/** A line that holds email addresses and nothing else. */
function isEmailLine(text: string): boolean {
  const emails = findEmails(text);
  return (
    emails.length > 0 && emails.reduce((rest, e) => rest.replace(e, ''), text).replace(/[\s,;{}]/g, '') === ''
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
  const people = names.filter((n) => isNameLike(n.name) && !INSTITUTION_WORD.test(n.name));
  return names.length >= 2 && people.length === names.length ? [{ text: head, sup: false }] : b.runs;
}

/** A line that opens with an affiliation's mark and names an institution ("2 Valley Agency, ..."). */
const MARKED_AFFILIATION_LINE = /^\s*(?:\d{1,2}|[a-z]|[*†‡§¶])\s*\p{Lu}/u;

/**
 * A list of two or more names on a line: commas or "and" between short capitalised pieces, no
 * digit and no sentence (what a byline's first line holds and an affiliation's never does alone).
 */
function listsNames(text: string): boolean {
  const pieces = text
    .replace(/[*†‡§¶∗]/g, '')
    .split(/\s*,\s*(?:and\s+)?|\s+(?:and|&)\s+/)
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
  if (
    !first ||
    rest.length === 0 ||
    INSTITUTION_WORD.test(first.text) ||
    !rest.every(
      (l) => INSTITUTION.test(l.text) && (MARKED_AFFILIATION_LINE.test(l.text) || listsNames(first.text)),
    )
  )
    return b;
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

/** A byline block as its names are read: affiliation lines under it and labelled brackets cut. */
function bylineBlock(b: Block): Block {
  return labelledBylineWithoutBrackets(bylineOverAffiliations(b));
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
  if (!isNameLike(name) || INSTITUTION_WORD.test(name) || !rest) return null;
  // "Ana Lima, Bo Park (...)" is a byline of two whose address is not told apart; an address
  // that spells the first name out, or a rest that reads as no name, says the rest is her affiliation.
  const noName = rest.split(/\s*,\s*/).every((p) => !isNameLike(p) || INSTITUTION_WORD.test(p));
  return noName || emailMatchesName(m[3]!, name) > 0 ? name : null;
}

/**
 * "By:" alone on its line: a thesis title page's label over its authors' names; Spanish and
 * Portuguese covers say it with "presenta" / "presentada por" / "apresentado por" / "sustentante"
 * ("Tesis que para obtener el título de ... / presenta / Jane Roe"), French ones with "par" /
 * "présentée par", German ones with "vorgelegt von" / "eingereicht von".
 */
const BY_LABEL =
  /^(?:by|presenta|presentad[ao]\s+por|apresentad[ao]\s+por|sustentante|por|(?:présenté|soutenu|rédigé)e?s?\s+par|par|(?:vorgelegt|eingereicht)\s+von)\s*:?$/iu;
/** The role a title page names under a person who is no author ("Adviser", "Thesis Supervisor"). */
const ROLE_LINE =
  /^(?:(?:thesis|research|capstone|project|faculty|academic|co-?)\s*)?(?:advis[eo]rs?|supervisors?|mentors?|promot[eo]rs?|instructors?|panel(?:ists)?|(?:committee\s+)?chair)\s*:?$/i;

/**
 * The names of a thesis or proposal title page ("A Capstone Research Proposal / Presented to the
 * Faculty of ... / By: / Jane Roe / John Doe / Alex Poe / Adviser"): one to a line after "By:",
 * until a line that is no lone name; a name over a role line (the adviser) is no author.
 */
function namesAfterBy(
  blocks: Block[],
  from: number,
  to: number,
): { entries: Entry[]; used: Set<number> } | null {
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

/**
 * A thesis cover's label over the student who wrote it, in the languages of the covers met:
 * Romanian "Absolvent:", Serbian "Кандидат:" / "Студент:", "Candidate:", "Student:", Hungarian
 * "Készítette" (made by) and "Hallgató", Greek "Φοιτητής" (plural "Φοιτητές"), "Submitted by:",
 * Russian "Выполнил(а)" (done by), Ukrainian "Виконав(ла)", Lithuanian "Atliko" (done by), Chinese
 * "作 者:" (author), Vietnamese "Người thực hiện" (done by), "Sinh viên (thực hiện)" (student).
 */
const STUDENT_LABELS =
  /(?:absolvent(?:ul|a)?|candidat(?:ul|a|e)?|кандидат|студент|student(?:s|ul|a)?|készítette|hallgató|φοιτητ(?:ής|ές|ρια|ριες)|người\s+thực\s+hiện|sinh\s+viên(?:\s+thực\s+hiện)?|(?:submitted|prepared|presented)\s+by|выполнил[аи]?|виконав(?:ла)?|atliko|作\s*者)/iu;
const STUDENT_LABEL = new RegExp(`^${STUDENT_LABELS.source}\\s*[:：]?$`, 'iu');
/**
 * The same label run in before what it labels on its line ("Выполнил студент гр. 123 В.В. Иванов",
 * "作 者: 张三 学 号: 123"): a Russian cover sets the label, the student's group and the name on one
 * line, a Chinese one sets the next field's label after the name.
 */
const STUDENT_LABEL_HEAD = new RegExp(`^${STUDENT_LABELS.source}\\s*[:：]?\\s+(?=\\S)`, 'iu');
/**
 * The label over the supervisor on the same cover: Romanian "Coordonator științific:", Serbian
 * "Ментор:", Hungarian "Konzulens" / "Témavezető", Greek "Επιβλέπων (Καθηγητής)", Vietnamese
 * "Người hướng dẫn" / "Giảng viên hướng dẫn", German "Betreuer", Lithuanian
 * "Darbo vadovas" / "Recenzentas", and the English roles of ROLE_LINE.
 */
const SUPERVISOR_LABELS =
  /(?:(?:darbo\s+)?vadovas|recenzentas|(?:coordonator|conduc[ăa]tor)(?:\s+[șşs]tiin[țţt]ific)?|ментор|(?:научни\s+)?руководилац|konzulens|témavezető|επιβλέπ(?:ων|ουσα)(?:\s+καθηγ(?:ητής|ήτρια))?|(?:người|giảng\s+viên|giáo\s+viên)\s+hướng\s+dẫn|betreuer(?:in)?|(?:научный\s+)?руководитель|консультант|рецензент|(?:науковий\s+)?керівник|指\s*导\s*(?:者|教\s*师|老\s*师)|评\s*阅\s*(?:者|人))/iu;
const SUPERVISOR_LABEL = new RegExp(`^${SUPERVISOR_LABELS.source}\\s*[:：]?$`, 'iu');
/**
 * A cover's role label run in before its name with a colon ("指导者： 张三 副教授"): a field of the
 * cover, no line of the title set over it in the same type.
 */
const ROLE_FIELD = new RegExp(`^(?:${STUDENT_LABELS.source}|${SUPERVISOR_LABELS.source})\\s*[:：]`, 'iu');
/**
 * The label of a student's register number set on a line of its own under the student's name on a
 * thesis cover, the number after it: Polish "Nr albumu: 123456" (album number), German
 * "Matrikelnummer: 123456", "Student ID: 123456". The name over it is the author.
 */
/** A student's name and register number alone on a cover's line ("JAN KOWALSKI   210601708"). */
const NAME_THEN_REGISTER_NUMBER = /^(\p{L}[\p{L}.' -]{2,60}?)\s+\d{6,12}$/u;
const REGISTER_NUMBER_LINE =
  /^(?:nr\.?\s*albumu|numer\s+albumu|matrikel(?:nummer|-?nr\.?)|matr\.-?\s?nr\.?|student\s+(?:id|number|no\.?))\s*[:：]?\s*\d[\d /-]{2,15}$/iu;
/** A student's index number after the name on a cover ("Ana Pop 1234/2019"). */
const INDEX_NUMBER = /\s+\d{1,6}\/\d{2,4}$/u;
/** A name of initials and a surname closing a cover's line ("студент гр. 4931101/90102 В.В. Иванов"). */
const INITIALLED_NAME_AT_END = /(?:^|\s)(\p{Lu}\.\s?(?:\p{Lu}\.\s?)?\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?)$/u;
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
    whole && isNameLike(text)
      ? text
      : (HAN_NAME_FIRST.exec(text)?.[1] ?? INITIALLED_NAME_AT_END.exec(text)?.[1] ?? null);
  if (!name || INSTITUTION_WORD.test(name) || INSTITUTION.test(name)) return null;
  return name;
}

/**
 * The student named over a register number's line on a cover ("Jan Kowalski" / "Nr albumu:
 * 123456"): the name on the line above the label, in the same block or the block before; or the
 * name on a line of its own with the bare number after it (a student's paper in Word).
 */
function nameOverRegisterNumber(
  blocks: Block[],
  from: number,
  i: number,
): { entries: Entry[]; used: Set<number> } | null {
  const lines = blocks[i]!.text.split('\n').map((l) => l.replace(/\s+/g, ' ').trim());
  const numbered = lines.length === 1 ? NAME_THEN_REGISTER_NUMBER.exec(lines[0]!) : null;
  const own = numbered ? studentName(numbered[1]!) : null;
  if (own) return { entries: [{ name: own, marks: [], lines: [], links: [] }], used: new Set([i]) };
  const at = lines.findIndex((l) => REGISTER_NUMBER_LINE.test(l));
  if (at < 0) return null;
  const above = at > 0 ? lines[at - 1]! : i > from ? blocks[i - 1]!.text.replace(/\s+/g, ' ').trim() : '';
  const name = above ? studentName(above) : null;
  if (!name) return null;
  return { entries: [{ name, marks: [], lines: [], links: [] }], used: new Set(at > 0 ? [i] : [i - 1, i]) };
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
function labelledStudents(
  blocks: Block[],
  from: number,
  to: number,
): { entries: Entry[]; used: Set<number> } | null {
  for (let i = from; i < Math.min(to, from + 8); i++) {
    const text = blocks[i]!.text.replace(/\s+/g, ' ').trim();
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
function namedByRoleLabels(
  blocks: Block[],
  from: number,
  to: number,
): { entries: Entry[]; used: Set<number> } | null {
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

/** "Corresponding author(s):" run in before the names it gives. */
const CORRESPONDING_NAMES = /^\s*corresponding\s+authors?\s*:\s*/iu;

/**
 * A byline that names no person (a collaboration's name alone, PoS proceedings: "The X
 * Collaboration" with a link to its author list) leaves the paper's people to the line that
 * names its corresponding authors on the first page ("Corresponding authors: Jane Roe*¹"): they
 * are the authors to report. Null when no such line lists names.
 */
function namedCorresponding(blocks: Block[], from: number): { entries: Entry[]; used: Set<number> } | null {
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

function namedInKindLine(
  blocks: Block[],
  from: number,
  to: number,
): { entries: Entry[]; used: Set<number> } | null {
  for (let i = from; i < Math.min(to, from + 8); i++) {
    const text = blocks[i]!.text.replace(/\s+/g, ' ').trim();
    if (text.length > 160 || !KIND_OF_DOCUMENT.test(text)) continue;
    const head = text.split(',')[0]!;
    for (const m of head.matchAll(/\s(?:de|d['’])\s*(?=\p{Lu})/gu)) {
      const name = head.slice(m.index + m[0].length).trim();
      if (isNameLike(name) && !INSTITUTION_WORD.test(name) && !INSTITUTION.test(name))
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

/** Bylines: names separated by commas and "and", with superscript marks. */
function inlineAuthors(blocks: Block[], from: number, to: number): { entries: Entry[]; used: Set<number> } {
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
    const b = labelledBylineWithoutBrackets(blocks[i]!);
    if ((b.text.length > 700 && !longMarkedByline(b)) || b.text.includes('@')) {
      const own = nameBeforeAffiliation(b.text);
      if (own) {
        entries.push({ name: own, marks: [], lines: [], links: [] });
        used.add(i);
        continue;
      }
      if (entries.length) break;
      continue;
    }
    // A heading over the byline ("Authors") is its label, no name; one after it opens the next part.
    // So is a title's label alone on its line (a second cover's "ĐỀ TÀI" over its title).
    if (FRONT_LABEL.test(b.text.trim()) || BARE_TITLE_LABEL.test(b.text)) {
      if (entries.length) break;
      continue;
    }
    // Marks follow the names in a byline; a block that opens with a superscript mark is the
    // list of affiliations under it.
    if (entries.length && b.runs[0]?.sup && splitMarks(b.runs[0].text).length) break;
    const names = splitByline(bylineSentence(bylineOverAffiliations(b)));
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
      const overEmail = next !== undefined && next.text.length <= 200 && isEmailLine(next.text);
      const overInstitution =
        i === from &&
        next !== undefined &&
        next.lines.length === 1 &&
        next.text.length <= 120 &&
        INSTITUTION_WORD.test(next.text) &&
        !next.text.includes('@') &&
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
  return { entries, used };
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

/** A line of handles (a GitHub or Twitter name beside an icon): a few bare tokens, no spaces inside. */
function isHandleLine(s: string): boolean {
  const tokens = s.split(/[\s·|,]+/).filter(Boolean);
  return tokens.length > 0 && tokens.length <= 3 && tokens.every((t) => /^@?[\w.-]+$/.test(t));
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
        text:
          raisedTails[n] && l.text.endsWith(raisedTails[n])
            ? l.text.slice(0, -raisedTails[n].length)
            : l.text,
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
  // The look-behind lets the marks' match start only where their run starts: read once, not from each.
  const unmarked = (text: string) =>
    text.replace(/(?<![*∗†‡§¶✉⁰¹²³⁴⁵⁶⁷⁸⁹,])[*∗†‡§¶✉⁰¹²³⁴⁵⁶⁷⁸⁹,]+$/u, '').trim();
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
      return lines[k]!.emphasis || (next?.block === block && findOrcids(next.text).length > 0);
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
      (isNameLike(unmarked(nameText)) &&
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

/** "Jane Roe jane@example.org": a name and an email, nothing else, on one line; else null. */
function nameBesideEmail(text: string): { name: string; email: string } | null {
  // Such a line is short; the bound keeps the pattern's backtracking small on a hostile one.
  if (text.length > 200) return null;
  const m = /^(.+?)\s+(\S+@\S+\.\w+)$/u.exec(text.trim());
  if (!m || findEmails(m[2]!).length !== 1 || findEmails(m[1]!).length) return null;
  return { name: m[1]!.trim(), email: m[2]! };
}

/** "Jane Roe and John Doe": two names joined by "and" (or "&") in one column head, else null. */
function sharedHead(text: string): string[] | null {
  const parts = text.split(/\s+(?:and|&)\s+/i);
  if (parts.length < 2) return null;
  return parts.every((p) => isNameLike(p) && !INSTITUTION.test(p)) ? parts : null;
}

function affiliationsFromEntry(entry: Entry): string[] {
  const out: string[] = [];
  // Lines holding only identifiers (ORCID, handles) stand alone; the rest is one running text
  // whose separators (" · ", ";") delimit institutions.
  const text = joinLines(
    entry.lines.filter((l) => {
      // A line that holds an email and nothing else but its label is no part of the address:
      // read with it, it would make the whole address look like a contact line.
      const found = findEmails(l);
      const bare = found.reduce((t, e) => t.split(e).join(' '), l);
      if (found.length && /^[\s\p{P}]*(?:e-?mail[\s\p{P}]*)?$/iu.test(bare)) return false;
      const rest = l.replace(ORCID_RE, '').replace(/[·|•]/g, ' ').trim();
      return rest !== '' && !(isHandleLine(rest) && !INSTITUTION.test(rest));
    }),
  );
  {
    for (const segment of text.split(/\s+[·|•]\s+|\s+·|·\s+/)) {
      const s = segment.trim();
      if (!s || LABELLED.test(s) || findOrcids(s).length || findEmails(s).length) continue;
      if (isHandleLine(s) && !INSTITUTION.test(s)) continue;
      for (const part of s.split(/\s*;\s*/)) {
        const p = part.trim().replace(/[.,]$/, '');
        if (p.length >= 3 && !/^https?:/i.test(p)) out.push(p);
      }
    }
  }
  return unique(out);
}

interface MarkedAffiliation {
  mark: string | null;
  text: string;
}

/** Lines that start with a mark (a superscript or a leading label) and read like an institution. */
function markedAffiliations(blocks: Block[], indices: number[], marks: Set<string>): MarkedAffiliation[] {
  const out: MarkedAffiliation[] = [];
  for (const i of indices) {
    const b = blocks[i]!;
    let current: MarkedAffiliation | null = null;
    const flush = () => {
      // An institution's line that closes on its author's address ("..., Portugal. Email address:
      // jr@x.org", a Word title page's letter-marked lines) is the institution before the label.
      if (current) current.text = current.text.replace(TRAILING_CONTACT, '');
      if (
        current &&
        current.text.length >= 8 &&
        INSTITUTION.test(current.text) &&
        !CORRESPONDENCE.test(current.text)
      ) {
        out.push({ mark: current.mark, text: current.text.replace(/[.;,]\s*$/, '').trim() });
      }
      current = null;
    };
    const supMarked = b.runs.some((r) => r.sup && splitMarks(r.text).some((m) => marks.has(m)));
    if (supMarked) {
      // Superscript marks may sit anywhere, several institutions to a line.
      let lineStart = false;
      for (const run of b.runs) {
        const runMarks = run.sup ? splitMarks(run.text).filter((m) => marks.has(m)) : [];
        if (runMarks.length) {
          flush();
          current = { mark: runMarks[0]!, text: '' };
        } else if (current) {
          // A new line that is a correspondence or a labelled note ends the institution.
          run.text.split('\n').forEach((segment, k) => {
            if (!current) return;
            const newLine = k > 0 || lineStart;
            if (
              newLine &&
              (CORRESPONDENCE.test(segment) || LABELLED.test(segment.trim()) || segment.includes('@'))
            ) {
              flush();
              return;
            }
            current.text = `${current.text}${newLine ? ' ' : ''}${segment}`.replace(/\s+/g, ' ').trimStart();
          });
        }
        lineStart = run.text.endsWith('\n');
      }
      flush();
      continue;
    }
    const firstSup = b.runs[0]?.sup ? b.runs[0].text.trim() : null;
    b.lines.forEach((line, k) => {
      let text = line.text;
      let mark: string | null = null;
      const m =
        /^(\d{1,2}|[a-z]|[*†‡§¶#]+)\s*(?=[\p{Lu}\p{N}])/u.exec(text) ??
        /^(\d{1,2}|[a-z]|[*†‡§¶#]+)$/u.exec(text);
      if (k === 0 && firstSup && marks.has(splitMarks(firstSup)[0] ?? '')) {
        mark = splitMarks(firstSup)[0] ?? null;
        text = text.slice(firstSup.length).trim();
      } else if (m && marks.has(m[1]!)) {
        mark = m[1]!;
        text = text.slice(m[0].length).trim();
      }
      if (mark !== null) {
        flush();
        current = { mark, text };
      } else if (current) {
        current.text = current.text ? `${current.text} ${text}` : text;
      }
    });
    flush();
  }
  return out;
}

function mentionedAuthors(text: string, authors: ParsedAuthor[]): number[] {
  // Affiliation marks set as plain digits touch the name ("Upshall1,2,3"): part them first.
  const norm = ` ${foldWords(text.replace(/(\p{L})(\d)/gu, '$1 $2'))} `;
  const hits: { i: number; at: number }[] = [];
  authors.forEach((a, i) => {
    const surname = foldWords(surnameOf(a.name));
    if (surname.length < 2) return;
    const at = norm.indexOf(` ${surname} `);
    if (at >= 0) hits.push({ i, at });
  });
  return hits.sort((x, y) => x.at - y.at).map((h) => h.i);
}

function emailMatchesName(email: string, name: string): number {
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

/** Where "Correspondence", "Corresponding author", "E-mail" or ✉ labels a note. */
const CORRESPONDENCE_LABEL = /correspond|e-?mail|✉/giu;

/**
 * The author a correspondence note names for an email: between the nearest label before the
 * address (or the address before it, if nearer) and the address, exactly one author is named
 * ("Correspondence to: J. Roe (jr@x.org)", "Corresponding author: Jane Roe. E-mail: jr@x.org").
 */
function correspondenceOwner(text: string, email: string, authors: ParsedAuthor[]): number | null {
  const at = text.toLowerCase().indexOf(email.toLowerCase());
  if (at < 0) return null;
  const labels = [...text.slice(0, at).matchAll(CORRESPONDENCE_LABEL)].map((m) => m.index);
  // Nearest label first: "Corresponding author: Jane Roe. E-mail: jr@x.org" names no one
  // between "E-mail" and the address, Jane Roe between "Corresponding" and it.
  for (const from of labels.reverse()) {
    const segment = text.slice(from, at);
    if (segment.length > 160 || findEmails(segment).length) return null;
    const named = mentionedAuthors(segment, authors);
    if (named.length === 1) return named[0]!;
    if (named.length > 1) return null;
  }
  return null;
}

/**
 * An address a publisher's notice gives for its own business ("© The Author 2021. Published by ...
 * For permissions, please e-mail: journals.permissions@x.com"): the sentence that leads to it asks
 * for permissions and names no author. A request for reprints addressed to an author ("Reprint
 * requests to Dr Jane Roe, jr@x.org") is hers, and is kept.
 */
function publisherAddress(text: string, email: string, authors: ParsedAuthor[]): boolean {
  const at = text.toLowerCase().indexOf(email.toLowerCase());
  if (at < 0) return false;
  const before = text.slice(Math.max(0, at - 160), at);
  const sentence = before.slice(before.search(/[.!?]\s+(?=\p{Lu})[^.!?]*$/u) + 1);
  return /\bpermissions?\b/i.test(sentence) && mentionedAuthors(sentence, authors).length === 0;
}

/** The one author named in brackets right after `email` ("jr@x.org (Jane Roe)"), if any. */
function bracketedOwner(text: string, email: string, authors: ParsedAuthor[]): number | null {
  const at = text.toLowerCase().indexOf(email.toLowerCase());
  if (at < 0) return null;
  const m = /^\s*\(([^()@]{2,80})\)/u.exec(text.slice(at + email.length));
  if (!m) return null;
  const named = mentionedAuthors(m[1]!, authors);
  return named.length === 1 ? named[0]! : null;
}

/**
 * A note that opens with a mark symbol ("† jr@x.org") belongs to the one author whose mark it is.
 * Numbers are left out: a number opens affiliations and numbered lists as well.
 */
function markedOwner(text: string, marks: string[][]): number | null {
  const m = /^\s*([*†‡§¶#]+)/u.exec(normalizeStars(text));
  if (!m) return null;
  const symbols = [...m[1]!];
  const owners = marks
    .map((own, i) => (symbols.every((sym) => own.includes(sym)) ? i : -1))
    .filter((i) => i >= 0);
  return owners.length === 1 ? owners[0]! : null;
}

/**
 * A short name ("F. Author", "J. R. Roe") is the full one ("First Author Jr.", "Jane Rita Roe")
 * when the surnames agree and each given name or initial of the short one opens the full one's
 * given name in the same place.
 */
function abbreviates(short: string, full: string): boolean {
  const surname = foldWords(surnameOf(short));
  if (surname.length < 2 || surname !== foldWords(surnameOf(full))) return false;
  const givenOf = (name: string) => {
    const words = foldWords(name.replace(/,?\s+(?:jr|sr|ii|iii|iv)\.?$/i, '')).split(' ');
    return words.slice(0, words.lastIndexOf(surname));
  };
  const given = givenOf(short);
  const fullGiven = givenOf(full);
  if (given.length === 0 || given.length > fullGiven.length) return false;
  return given.every((g, k) => (g.length === 1 ? fullGiven[k]!.startsWith(g) : fullGiven[k] === g));
}

/**
 * The one author a note's first line names, whole or by initials and surname: Springer's svjour3
 * sets an institute note per author at the foot of the title page ("F. Author", the address,
 * "E-mail: ..."), where both authors of a template may share the surname "Author".
 */
function namedByLine(line: string, authors: ParsedAuthor[]): number | null {
  const text = line.trim();
  if (text.length > 60 || !isNameLike(text)) return null;
  const owners = authors.flatMap((a, i) => (abbreviates(text, a.name) ? [i] : []));
  return owners.length === 1 ? owners[0]! : null;
}

/**
 * The author a labelled contact line belongs to when it is set in a paragraph of its own: the
 * labelled lines right before it ("Email: ...") lead back to a correspondence note that names one
 * author ("*Correspondence: Jane Roe, Department ..."). Null when the line is no labelled line, or
 * the run of them starts elsewhere.
 */
function contactNoteOwner(texts: { text: string }[], at: number, authors: ParsedAuthor[]): number | null {
  if (!CONTACT_LINE.test(texts[at]!.text) || mentionedAuthors(texts[at]!.text, authors).length) return null;
  for (let k = at - 1; k >= Math.max(0, at - 4); k--) {
    const text = texts[k]!.text;
    if (CONTACT_LINE.test(text)) continue;
    if (!/^\W*correspond/iu.test(text)) return null;
    const named = mentionedAuthors(text, authors);
    return named.length === 1 ? named[0]! : null;
  }
  return null;
}

/** A labelled line of a contact block: "Address: ...", "Email: ...", "ORCID: ...", "Tel.: ...". */
const CONTACT_LINE =
  /^\s*(?:(?:postal\s+|mailing\s+)?address|e-?mail|orcid(?:\s+id)?|phone|telephone|tel|fax|mobile)\s*[.:]/iu;

/**
 * Notes that open with a line naming one author, and the blocks that run on from each in the
 * same size on the same page (svjour3 sets a second block for a present address and its email):
 * each block's index with its author.
 */
function notesByAuthor(blocks: Block[], indices: number[], authors: ParsedAuthor[]): Map<number, number> {
  const owners = new Map<number, number>();
  let owner: number | null = null;
  // The opener was a name alone in its paragraph: only short lines (its address) run on from it.
  let labelledOnly = false;
  let previous = -1;
  for (const i of indices) {
    const b = blocks[i]!;
    let named = b.lines.length > 1 ? namedByLine(b.lines[0]!.text, authors) : null;
    // A contact block set one paragraph to a line (a Word title page): a paragraph holding one
    // author's name alone (after its mark), over short lines of address that reach a labelled
    // contact line ("Email: ...", "ORCID: ...", "Tel: ...") within a few paragraphs.
    const short = (k: number) =>
      indices.includes(k) &&
      blocks[k] !== undefined &&
      blocks[k]!.text.length <= 160 &&
      blocks[k]!.page === b.page;
    let reach = i + 1;
    while (reach < i + 6 && short(reach) && !CONTACT_LINE.test(blocks[reach]!.text)) reach++;
    const single =
      named === null && b.lines.length === 1 && short(reach) && CONTACT_LINE.test(blocks[reach]!.text)
        ? namedByLine(b.text.replace(/^[\s*†‡§¶#\d,]+/u, ''), authors)
        : null;
    if (single !== null) named = single;
    if (named !== null) {
      owner = named;
      labelledOnly = single !== null;
    } else if (owner !== null) {
      const opener = blocks[previous]!;
      const runsOn =
        i === previous + 1 &&
        b.page === opener.page &&
        Math.abs(b.relSize - opener.relSize) <= 0.05 * opener.relSize &&
        (!labelledOnly || b.text.length <= 160);
      if (!runsOn) owner = null;
    }
    if (owner !== null) owners.set(i, owner);
    previous = i;
  }
  return owners;
}

/**
 * Institutes numbered by the authors' marks and run together in one text ("1 Univ. A, City
 * 2 Univ. B, City ana@b.org 3 Inst. C, City {bo,cy}@c.edu", LNCS): each address belongs to the
 * authors who carry the mark of the institute it is printed under. One such author owns every
 * address there; as many authors as addresses take them in order. The marks must open their
 * institutes in the authors' order, each once, before a capital: a number inside an address
 * ("Str. 17, 69121 Heidelberg") is no mark.
 */
function ownersByInstituteMark(text: string, emails: string[], marks: string[][]): Map<string, number> {
  const owners = new Map<string, number>();
  const order = unique(marks.flat().filter((m) => /^\d{1,2}$/.test(m)));
  if (order.length < 2) return owners;
  const openers: { mark: string; at: number }[] = [];
  for (const m of text.matchAll(/(?<=^|\s)(\d{1,2})\s+(?=\p{Lu})/gu)) {
    if (order.includes(m[1]!)) openers.push({ mark: m[1]!, at: m.index });
  }
  const sequence = openers.map((o) => order.indexOf(o.mark));
  if (openers.length < 2 || sequence.some((k, i) => i > 0 && k <= sequence[i - 1]!)) return owners;
  // A grouped address ("{bo,cy}@c.edu") is found at its host.
  const at = (email: string) => {
    const whole = text.indexOf(email);
    return whole >= 0 ? whole : text.indexOf(email.slice(email.indexOf('@')));
  };
  const bySegment = new Map<string, string[]>();
  for (const email of emails) {
    const position = at(email);
    const opener = openers.filter((o) => o.at < position).pop();
    if (position < 0 || !opener) continue;
    bySegment.set(opener.mark, [...(bySegment.get(opener.mark) ?? []), email]);
  }
  for (const [mark, inSegment] of bySegment) {
    const carriers = marks.flatMap((own, i) => (own.includes(mark) ? [i] : []));
    if (carriers.length === 1) inSegment.forEach((e) => owners.set(e, carriers[0]!));
    else if (carriers.length === inSegment.length) inSegment.forEach((e, k) => owners.set(e, carriers[k]!));
  }
  return owners;
}

function assignEmails(
  authors: ParsedAuthor[],
  texts: { text: string; links: string[]; owner?: number }[],
  starred: number[],
  marks: string[][],
): string[] {
  const unassigned: string[] = [];
  const taken = new Set(authors.flatMap((a) => a.emails));
  for (const { text, links, owner } of texts) {
    const found = unique([...findEmails(text), ...mailtoAddresses(links)]).filter(
      (e) => !taken.has(e) && !publisherAddress(text, e, authors),
    );
    found.forEach((e) => taken.add(e));
    // A note that opens with one author's name is hers, whatever names its address holds.
    if (owner !== undefined) {
      authors[owner]!.emails.push(...found);
      continue;
    }
    // "Email addresses: jr@x.org (Jane Roe), al@y.org (Al Poe)" (elsarticle): the name in
    // brackets right after an address is its owner's, whatever the marks or the order say.
    const named = found.filter((email) => {
      const owner = bracketedOwner(text, email, authors);
      if (owner === null) return true;
      authors[owner]!.emails.push(email);
      return false;
    });
    // "Correspondence to: J. Roe (jr@x.org)": the author named between the label and the address
    // owns it, whatever else the text mentions (a note read with the byline above it). The rest
    // are assigned as below.
    const emails = named.filter((email) => {
      const owner = correspondenceOwner(text, email, authors);
      if (owner === null) return true;
      authors[owner]!.emails.push(email);
      authors[owner]!.corresponding = true;
      return false;
    });
    if (emails.length === 0) continue;
    // Institutes numbered by the authors' marks say whose each address is, before any name does:
    // a name mentioned once in the byline above them is no owner of all of them.
    const byInstitute = ownersByInstituteMark(text, emails, marks);
    if (byInstitute.size === emails.length) {
      for (const [email, owner] of byInstitute) authors[owner]!.emails.push(email);
      continue;
    }
    // "† jr@x.org" (a footnote keyed by an author's mark): the one author with that mark owns it.
    // The mark says who corresponds; an address that spells another author's surname and no part
    // of the marked author's name is that other author's all the same (a draft that moved the
    // mark, or a corresponding author who gives a co-author's address).
    const byMark = markedOwner(text, marks);
    if (byMark !== null && emails.length === 1) {
      const email = emails[0]!;
      const spelt = authors.flatMap((a, i) =>
        i !== byMark && emailMatchesName(email, a.name) === 2 ? [i] : [],
      );
      const other =
        spelt.length === 1 && emailMatchesName(email, authors[byMark]!.name) === 0 ? spelt[0]! : null;
      authors[other ?? byMark]!.emails.push(email);
      continue;
    }
    const mentioned = mentionedAuthors(text, authors);
    if (mentioned.length === 1) {
      authors[mentioned[0]!]!.emails.push(...emails);
      // An address given under its label alone ("Email address: ana.lima@x.org", every author's
      // on a title page) says whose it is, not who corresponds.
      authors[mentioned[0]!]!.corresponding ||= /correspond|✉/i.test(text);
      continue;
    }
    if (mentioned.length > 1 && mentioned.length === emails.length) {
      mentioned.forEach((ai, k) => authors[ai]!.emails.push(emails[k]!));
      continue;
    }
    if (emails.length === authors.length && emails.length > 1) {
      authors.forEach((a, k) => a.emails.push(emails[k]!));
      continue;
    }
    for (const email of emails) {
      const scored = authors
        .map((a, i) => ({ i, s: emailMatchesName(email, a.name) }))
        .sort((x, y) => y.s - x.s);
      const top = scored[0];
      if (top && top.s > 0 && (scored[1]?.s ?? 0) < top.s) {
        authors[top.i]!.emails.push(email);
      } else if (/^\s*[*✉]/u.test(normalizeStars(text)) && starred.length === 1) {
        authors[starred[0]!]!.emails.push(email);
      } else if (emails.length === 1 && starred.length === 1 && CORRESPONDENCE.test(text)) {
        authors[starred[0]!]!.emails.push(email);
      } else unassigned.push(email);
    }
  }
  for (const a of authors) a.emails = unique(a.emails);
  return unassigned;
}

function findKeywords(blocks: Block[], frontEnd: number, declared: string[]): string[] {
  for (let i = 0; i < Math.min(blocks.length, frontEnd + 20); i++) {
    const b = blocks[i]!;
    if (!KEYWORDS_LABEL.test(b.text)) continue;
    let rest = b.text.replace(KEYWORDS_LABEL, '');
    if (!rest && blocks[i + 1]) rest = blocks[i + 1]!.text;
    const list = rest
      .split(/\s*[;,·•|]\s*/)
      .map((k) => k.replace(/\.$/, '').trim())
      .filter((k) => k.length > 1 && k.length < 80);
    if (list.length) return unique(list);
  }
  // No label: a line of terms set apart by bars under the abstract.
  const terms = blocks
    .slice(0, Math.min(blocks.length, frontEnd + 20))
    .find((b) => isKeywordTermsLine(b.text));
  if (terms) return unique(terms.text.trim().split(/\s+\|\s+/));
  return declared;
}

/** A name run in before an address: up to 60 characters, then a full stop and a capital. */
const RUN_IN_NAME = /^(\P{Cc}{4,60}?)\.\s+\p{Lu}/u;

/**
 * Addresses printed after the article (JSS, The R Journal, many society journals): a line that is
 * an author's whole name, the address lines under it, then the email and the ORCID. Read for
 * authors the front matter gave no email or no ORCID, and only from short lines: a name in running
 * text is no address.
 */
function addressesAtTheEnd(blocks: Block[], frontEnd: number, authors: ParsedAuthor[]): void {
  const lines = blocks
    .slice(frontEnd)
    .flatMap((b) => b.lines.map((l) => ({ text: l.text, links: l.links ?? [] })));
  // Each name normalised once, not once for every line of the document.
  // The address may leave out a middle initial the byline prints ("Jane Roe" under "Jane Q. Roe"), or
  // print one it leaves out: each name is also known by its words of two letters or more.
  const byName = new Map<string, ParsedAuthor>();
  const byFullWords = new Map<string, ParsedAuthor | null>();
  const fullWords = (folded: string) =>
    folded
      .split(' ')
      .filter((w) => w.length > 1)
      .join(' ');
  for (const a of authors) {
    const key = foldWords(a.name);
    if (!byName.has(key)) byName.set(key, a);
    const short = fullWords(key);
    if (short.includes(' ')) byFullWords.set(short, byFullWords.has(short) ? null : a);
  }
  const owner = (text: string) => {
    if (text.length > 60) return undefined;
    const key = foldWords(text);
    return byName.get(key) ?? byFullWords.get(fullWords(key)) ?? undefined;
  };
  // "Firstname1 Surname1. Address of the First author, ...": a name run in before its address
  // (VTeX's NEJSDS). The email must follow within the address's next lines: a reference that
  // opens with an author's name ("Jane Roe. A Title.") has none there.
  const runInOwner = (text: string) => {
    const head = RUN_IN_NAME.exec(text);
    return head ? owner(head[1]!) : undefined;
  };
  const taken = new Set(authors.flatMap((a) => a.emails));
  const takenOrcids = new Set(authors.flatMap((a) => (a.orcid ? [a.orcid] : [])));
  lines.forEach((line, k) => {
    const whole = owner(line.text);
    const author = whole ?? runInOwner(line.text);
    if (!author || (author.emails.length && author.orcid)) return;
    let wantsEmail = author.emails.length === 0;
    for (const next of [line, ...lines.slice(k + 1, k + (whole ? 10 : 4))]) {
      if (next === line && whole) continue;
      if (next !== line && (next.text.length > 100 || owner(next.text) || runInOwner(next.text))) return;
      const email = [...findEmails(next.text), ...mailtoAddresses(next.links)].find((e) => !taken.has(e));
      if (email && wantsEmail) {
        author.emails.push(email);
        taken.add(email);
        wantsEmail = false;
      }
      // The ORCID printed in the address ("ORCID 0000-..."), under its email or over it.
      const orcid = [next.text, ...next.links].flatMap((t) => findOrcids(t)).find((o) => !takenOrcids.has(o));
      if (orcid && !author.orcid) {
        author.orcid = orcid;
        takenOrcids.add(orcid);
      }
      if (!wantsEmail && author.orcid) return;
    }
  });
}

const AUTHOR_NOTE = /^authors?['’]?\s+notes?\b\s*[:.—–-]?\s*/i;

/**
 * The blocks of an author note after the front matter: a block that opens with the label and
 * holds the note run in, or the label alone and the paragraphs under it up to the next heading
 * (at most four).
 */
function authorNote(blocks: Block[], frontEnd: number): number[] {
  for (let i = frontEnd; i < blocks.length; i++) {
    const b = blocks[i]!;
    if (!AUTHOR_NOTE.test(b.text) || b.text.length > 1500) continue;
    if (b.text.replace(AUTHOR_NOTE, '').trim() !== '') return [i];
    const out: number[] = [];
    for (let j = i + 1; j < Math.min(blocks.length, i + 5) && !isHeading(blocks[j]!); j++) out.push(j);
    return out;
  }
  return [];
}

/** "JOHN A. STANKOVIC" (small caps) to "John A. Stankovic"; a name in mixed case is left alone. */
function fromCapitals(name: string): string {
  if (name !== name.toUpperCase() || !/\p{Lu}{2}/u.test(name)) return name;
  return name.replace(/\p{Lu}+/gu, (w, at: number) =>
    w.length === 1 || name[at + w.length] === '.' ? w : w[0] + w.slice(1).toLowerCase(),
  );
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
function iconsCut(text: string, most: number): string {
  const m = LINK_ICONS.exec(text);
  if (!m || m[0].trim().split(/\s+/).length > most) return text;
  return text.slice(0, m.index);
}

function withoutLinkIcons(b: Block): Block {
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

/** A title typed in quotation marks as a whole (“...”): the marks are no part of it. */
const WHOLLY_QUOTED = /^[“"«]([^“”"«»]+)[”"»]$/u;

/** The title, its first block and the block after its last (a translation set under it included). */
interface TitleSpan {
  title: string | null;
  titleIndex: number | null;
  titleEnd: number;
}

/** Where the title stands and what it reads: its blocks joined, its label, its marks and stops cut. */
function readTitle(doc: DocumentModel): TitleSpan {
  const { blocks } = doc;
  const titleIndex = findTitle(doc);
  // A title closed by its full stop, then the same title translated in the same size and another
  // face (a Spanish title over its English one in italics): the title is whole before the
  // translation, which is no byline either.
  const translatedTitle = (k: number) =>
    k > 0 &&
    blocks[k] !== undefined &&
    /\p{L}{3}\.$/u.test(blocks[k - 1]!.text.trim()) &&
    /^\p{Lu}/u.test(blocks[k]!.text) &&
    blocks[k]!.emphasis !== blocks[k - 1]!.emphasis &&
    Math.abs(blocks[k]!.relSize - blocks[k - 1]!.relSize) <= 0.03 * blocks[k - 1]!.relSize;
  // A title set over several lines may break into blocks where a word is in italics.
  let titleEnd = titleIndex === null ? 0 : titleIndex + 1;
  if (titleIndex !== null && doc.format === 'pdf') {
    const t = blocks[titleIndex]!;
    // A cover's title under its kind-of-work line, in the cover's one type: the author's name
    // (set in another case than a title in capitals) and the institution after it are no part of it.
    const before = blocks[titleIndex - 1];
    const coverTitle = before !== undefined && kindOfWork(before);
    // A title in capitals at the body's size over its author's name ends at the name.
    const capitalsEnd = titleIndex === 0 ? capitalsByline(blocks) : null;
    if (capitalsEnd !== null) titleEnd = capitalsEnd;
    const endsCoverTitle = (b: Block) =>
      coverTitle &&
      (INSTITUTION_WORD.test(b.text) || (namesOnly(b) && inCapitals(b.text) !== inCapitals(t.text)));
    while (
      capitalsEnd === null &&
      titleEnd < blocks.length &&
      titleEnd < titleIndex + 4 &&
      blocks[titleEnd]!.page === t.page &&
      Math.abs(blocks[titleEnd]!.relSize - t.relSize) <= 0.03 * t.relSize &&
      // A byline or affiliation list set in the title's size (spconf) is no more of the title, nor
      // is a cover's field that names a person by role ("指导者： ...").
      !opensWithNoteMark(blocks[titleEnd]!) &&
      !ROLE_FIELD.test(blocks[titleEnd]!.text.trim()) &&
      markedNameCount(blocks[titleEnd]!) < 2 &&
      !endsCoverTitle(blocks[titleEnd]!) &&
      !translatedTitle(titleEnd) &&
      // A title set at body size (APA title pages) stands apart by its face, or by the space
      // under it: the byline after it has the same size, and either another face or a gap
      // wider than a double-spaced line's above it.
      (t.relSize >= 1.1 ||
        (blocks[titleEnd]!.emphasis === t.emphasis && (blocks[titleEnd]!.lines[0]?.gapAbove ?? 0) < 1.5))
    ) {
      titleEnd++;
    }
  }
  // A Word title broken into paragraphs by hand ("Main Title" / "A Subtitle"), each set by hand in
  // the same large type (no heading style, whose paragraphs are headings each): the paragraphs
  // that follow in that type and face go on with the title. A label of the front matter or a list
  // of names in that type is no part of it.
  // So is one broken into paragraphs that each keep the Title style (a draft converted from a
  // LaTeX PDF, one paragraph a printed line): up to four in all.
  if (titleIndex !== null && doc.format === 'docx') {
    const t = blocks[titleIndex]!;
    const inTitleStyle = t.styleLevel === 0 && isTitleStyle(t.styleName ?? '');
    while (
      titleEnd < blocks.length &&
      titleEnd < titleIndex + (inTitleStyle ? 4 : 3) &&
      ((t.relSize >= 1.1 && t.styleLevel == null && blocks[titleEnd]!.styleLevel == null) ||
        (inTitleStyle && blocks[titleEnd]!.styleLevel === 0)) &&
      blocks[titleEnd]!.styleName === t.styleName &&
      blocks[titleEnd]!.emphasis === t.emphasis &&
      Math.abs(blocks[titleEnd]!.relSize - t.relSize) <= 0.03 * t.relSize &&
      blocks[titleEnd]!.text.length <= 200 &&
      !FRONT_LABEL.test(blocks[titleEnd]!.text.trim()) &&
      !ROLE_FIELD.test(blocks[titleEnd]!.text.trim()) &&
      !opensWithNoteMark(blocks[titleEnd]!) &&
      markedNameCount(blocks[titleEnd]!) < 2 &&
      !isNameList(blocks[titleEnd]!) &&
      // A cover set all in one type (a thesis's: title, university, name, number) goes on under the
      // title with its institution, which is no part of it.
      !INSTITUTION_WORD.test(blocks[titleEnd]!.text)
    )
      titleEnd++;
  }
  // A Word title that is a name alone (a software's or a project's: one or two words, "pTITAN2")
  // over a paragraph in the Subtitle style that says what the paper is: the two make the title,
  // "Name: what it is". So does one that ends in a question or a colon, which leaves the title
  // open for its subtitle ("Do We Still Feel Like Workers?" / "Class Identity in ..."). A longer
  // title that closes as a statement is whole by itself; its subtitle stays out of it.
  let subtitle: string | null = null;
  let opensOnSubtitle = false;
  if (titleIndex !== null && doc.format === 'docx' && titleEnd === titleIndex + 1) {
    const name = titleText(blocks[titleIndex]!);
    const next = blocks[titleEnd];
    const nameAlone = name.split(' ').length <= 2 && name.length <= 30 && !/[.:?!]$/.test(name);
    opensOnSubtitle = /[?:]$/.test(name);
    if (
      next &&
      /^sub-?title$/i.test(next.styleName?.trim() ?? '') &&
      (nameAlone || opensOnSubtitle) &&
      titleText(next).split(' ').length >= 3 &&
      titleText(next).length <= 200
    ) {
      subtitle = titleText(next);
      titleEnd++;
    }
  }
  // A subtitle on its own line under the title, opened by a dash ("——以……为例", Chinese for "a
  // case study of ..."), in a type no larger than the title's and no smaller than the body's: the
  // title goes on with it, joined with no space after a Chinese or Japanese character.
  let dashSubtitle = false;
  if (titleIndex !== null && subtitle === null) {
    const t = blocks[titleIndex]!;
    const next = blocks[titleEnd];
    if (
      next !== undefined &&
      next.page === t.page &&
      next.lines.length <= 2 &&
      next.text.length <= 100 &&
      /^[—―]{1,2}\s*\S/u.test(next.text.trim()) &&
      next.relSize >= 0.95 &&
      next.relSize <= 1.03 * t.relSize
    ) {
      dashSubtitle = true;
      titleEnd++;
    }
  }
  const titleTextEnd = titleEnd;
  if (titleIndex !== null && doc.format === 'pdf' && translatedTitle(titleEnd)) titleEnd++;
  const title =
    titleIndex !== null
      ? withoutTitleLabel(
          subtitle !== null
            ? `${titleText(blocks[titleIndex]!)}${opensOnSubtitle ? '' : ':'} ${subtitle}`
            : joinHyphenated(
                joinCjkBreaks(
                  blocks
                    .slice(titleIndex, titleTextEnd)
                    .map(titleText)
                    .filter((t) => t !== '')
                    .join('\n'),
                ),
              )
                .replace(/\s+/g, ' ')
                .replace(dashSubtitle ? CJK_BEFORE_DASH : NOTHING, '')
                .trim(),
        )
          .replace(WHOLLY_QUOTED, '$1')
          .replace(blocks[titleIndex]!.styleLevel === 0 ? SENTENCE_STOP : NOTHING, '') || null
      : declaredTitle(doc.declared.title);
  return { title, titleIndex, titleEnd };
}

/**
 * The entries a reader found for the authors, the blocks it read them from, and whether each entry
 * carries its own lines (an author block and its addresses) or reads them from marked lines around.
 */
interface AuthorEntries {
  entries: Entry[];
  used: Set<number>;
  ownLines: boolean;
  /** The title printed again over the manuscript's own byline (after a cover sheet): no one's line. */
  titleAgain: number | null;
}

/** The authors as the readers of bylines, author blocks and covers find them between the title and `frontEnd`. */
function readAuthorEntries(
  blocks: Block[],
  { title, titleIndex, titleEnd }: TitleSpan,
  start: number,
  frontEnd: number,
): AuthorEntries {
  // A cover sheet set before the manuscript ("Manuscript Title: ...", its corresponding author's
  // address), then the manuscript's own title page printing the title again on a later page: the
  // title printed again is no byline, and the byline is read under it, the manuscript's own (a
  // cover may name its corresponding author alone); the cover's lines are still read for emails.
  const folded = title ? foldWords(title) : '';
  const repeated =
    titleIndex === null || folded.split(' ').length < 3
      ? -1
      : blocks.findIndex(
          (b, i) =>
            i >= start && i < frontEnd && b.page > blocks[titleIndex]!.page && foldWords(b.text) === folded,
        );
  const bylineStart = repeated >= 0 ? repeated + 1 : start;
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
  const bylineEnd = nameBefore ? supervisorAt : frontEnd;
  const inline = inlineAuthors(blocks, bylineStart, bylineEnd);
  const stacked = stackedAuthors(blocks, bylineStart, bylineEnd);
  // Blocks set side by side are read as such: across them, a byline reader would take each
  // block's affiliation lines for names.
  const styled = styledAuthors(blocks, bylineStart, bylineEnd);
  const read = styled.entries.length
    ? styled
    : stacked.entries.length > inline.entries.length || (stacked.sideBySide && stacked.entries.length)
      ? stacked
      : inline;
  const bracketed = bracketedAffiliations(blocks[bylineStart]);
  const hanNamed = (k: number) => {
    const entries = hanByline(blocks, k, titleIndex);
    return entries.length ? { entries, used: new Set([k]) } : null;
  };
  const underCapitals = nameUnderCapitalsTitle(blocks, titleIndex, titleEnd);
  const proposalPart = titleIndex === null && PROPOSAL_PART.test(blocks[0]?.text.trim() ?? '');
  const chosen = proposalPart
    ? { entries: [], used: new Set<number>() }
    : underCapitals
      ? underCapitals
      : (labelledStudents(blocks, start, frontEnd) ??
        labelledOverTitle(blocks, titleIndex, namesAfterBy) ??
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

/**
 * The authors' affiliations, emails and ORCIDs, read from their own lines, the marked lines and notes
 * of the front pages, and the notes set later that name them; the emails no author could be given returned.
 */
function readContacts(
  doc: DocumentModel,
  { titleIndex, titleEnd }: TitleSpan,
  chosen: AuthorEntries,
  authors: ParsedAuthor[],
  frontEnd: number,
): string[] {
  const { blocks } = doc;
  const titleBlocks = new Set(
    Array.from({ length: titleEnd - (titleIndex ?? 0) }, (_, k) => (titleIndex ?? 0) + k),
  );
  if (chosen.titleAgain !== null) titleBlocks.add(chosen.titleAgain);
  // Everything on the front pages may carry affiliations, correspondence and identifiers:
  // footnotes at the bottom of page one come after the first body paragraphs in reading order.
  const frontPages = new Set(blocks.slice(0, Math.max(frontEnd, 1)).map((b) => b.page));
  const headerBlocks = blocks
    .map((b, i) => i)
    .filter(
      (i) =>
        !titleBlocks.has(i) &&
        // A byline block whose affiliations are set under it in the same block holds them too.
        (!chosen.used.has(i) || bylineBlock(blocks[i]!) !== blocks[i]) &&
        (i < frontEnd || frontPages.has(blocks[i]!.page)),
    )
    .filter((i) => doc.format === 'pdf' || i < frontEnd + 5);

  if (chosen.ownLines) {
    chosen.entries.forEach((e, k) => {
      const a = authors[k]!;
      const text = e.lines.join(' ');
      const orcids = [...findOrcids(text), ...e.links.flatMap((l) => findOrcids(l))];
      a.orcid = orcids[0] ?? null;
      // A line under the block that names another author ("✉ Correspondence: Jane Roe <...>",
      // set under the last block of a grid) gives its address to no one here.
      const others = e.lines.filter((l) => mentionedAuthors(l, authors).some((m) => m !== k));
      const theirs = new Set(others.flatMap((l) => findEmails(l)));
      a.emails = unique([...findEmails(text), ...mailtoAddresses(e.links)]).filter((m) => !theirs.has(m));
      a.affiliations = affiliationsFromEntry(e);
    });
    // Authors who share their lines and find one email each there: the emails go in the names' order.
    for (const group of new Set(chosen.entries.map((e) => e.lines))) {
      const members = chosen.entries.flatMap((e, k) => (e.lines === group ? [k] : []));
      const emails = unique(findEmails(group.join(' ')));
      if (members.length > 1 && emails.length === members.length)
        members.forEach((k, n) => (authors[k]!.emails = [emails[n]!]));
    }
  } else if (authors.length) {
    const allMarks = new Set(chosen.entries.flatMap((e) => e.marks));
    const numericMarks = new Set([...allMarks].filter((m) => !/^[*†‡§¶#✉]$/u.test(m)));
    // Affiliations keyed by mark: first on the front pages, then anywhere (some journals list
    // them at the end of the article).
    let marked = markedAffiliations(blocks, headerBlocks, numericMarks);
    const missing = [...numericMarks].filter((m) => !marked.some((a) => a.mark === m));
    if (missing.length) {
      const rest = blocks.map((_, i) => i).filter((i) => !headerBlocks.includes(i) && !chosen.used.has(i));
      const later = markedAffiliations(blocks, rest, new Set(missing));
      marked = [...marked, ...later.filter((a, k) => later.findIndex((b) => b.mark === a.mark) === k)];
    }
    if (numericMarks.size && marked.length) {
      for (const [k, e] of chosen.entries.entries()) {
        for (const m of e.marks) {
          const aff = marked.find((x) => x.mark === m);
          if (aff) authors[k]!.affiliations.push(aff.text);
        }
      }
    } else {
      // No marks: the institution lines right under the byline belong to every author. An abstract
      // run in after its label in any language ("摘要：" over a paper that names a university) or
      // the keywords are no institution line.
      const lastUsed = Math.max(...chosen.used);
      const shared: string[] = [];
      for (let i = lastUsed + 1; i < Math.min(frontEnd, lastUsed + 4); i++) {
        const b = blocks[i]!;
        if (
          CORRESPONDENCE.test(b.text) ||
          opensAbstract(b) ||
          OTHER_LANGUAGE_LABEL.test(b.text) ||
          KEYWORDS_LABEL.test(b.text) ||
          b.text.includes('@') ||
          !INSTITUTION.test(b.text) ||
          b.text.length > 400
        ) {
          break;
        }
        shared.push(b.text.replace(/[.;,]\s*$/, ''));
      }
      for (const a of authors) a.affiliations.push(...shared);
    }
    for (const a of authors) a.affiliations = unique(a.affiliations);
  }

  const starred = authors.map((a, i) => (a.corresponding ? i : -1)).filter((i) => i >= 0);
  // A paragraph broken into one block per line (double-spaced title pages) leaves an address on
  // a line of its own: read it with the unfinished line above it ("... addressed to Ana Fulano,
  // ..., Email:").
  const withRunIn = (i: number): string => {
    const b = blocks[i]!;
    if (b.text.length >= 80 || findEmails(b.text).length === 0) return b.text;
    let text = b.text;
    for (let j = i - 1; j >= Math.max(0, i - 3); j--) {
      const above = blocks[j]!;
      if (above.page !== b.page || /[.!?]$/.test(above.text) || above.text.length > 300) break;
      text = `${above.text} ${text}`;
      if (/^\W*(?:correspond|e-?mail|✉)/iu.test(above.text)) break;
    }
    return text;
  };
  const noteOwners = notesByAuthor(blocks, headerBlocks, authors);
  const texts: { text: string; links: string[]; owner?: number }[] = [
    ...headerBlocks.map((i) => ({ text: withRunIn(i), links: blocks[i]!.links, owner: noteOwners.get(i) })),
    ...[...chosen.used].map((i) => ({ text: blocks[i]!.text, links: blocks[i]!.links })),
    ...doc.notes.map((n) => ({ text: n, links: [] })),
  ];
  // Footnotes keyed by an author's symbol may be set at the end of the article (REVTeX): a short
  // note anywhere that opens with a symbol only one author carries and gives an email is read too.
  const symbolMarks = chosen.entries.map((e) => e.marks.filter((m) => /^[*†‡§¶#]$/u.test(m)));
  if (symbolMarks.some((m) => m.length)) {
    blocks.forEach((b, i) => {
      if (i < frontEnd || frontPages.has(b.page) || b.text.length > 200 || !b.text.includes('@')) return;
      if (markedOwner(b.text, symbolMarks) !== null) texts.push({ text: b.text, links: b.links });
    });
  }
  // A correspondence note set at the document's end, under the figures' captions (a Word
  // manuscript's "Corresponding author: Dr Jane Roe, ... Email: ..."): read when it names an author.
  blocks.forEach((b, i) => {
    if (i < frontEnd || headerBlocks.includes(i) || b.text.length > 300 || !b.text.includes('@')) return;
    if (/^\W*correspond/iu.test(b.text) && mentionedAuthors(b.text, authors).length === 1)
      texts.push({ text: b.text, links: b.links });
  });
  // An "Email addresses:" footnote (elsarticle: "jane@x.org (Jane Roe), ...") may run on to the
  // foot of the next page: a short block there whose addresses each name an author after them
  // in parentheses is read too.
  blocks.forEach((b, i) => {
    if (i < frontEnd || headerBlocks.includes(i) || b.text.length > 400 || !b.text.includes('@')) return;
    if (!frontPages.has(b.page) && !frontPages.has(b.page - 1)) return;
    const named = [...b.text.matchAll(/@[\w.-]+\.\p{L}{2,}\s*\(([^()@]{3,80})\)/gu)];
    if (named.length && named.every((m) => mentionedAuthors(m[1]!, authors).length === 1))
      texts.push({ text: b.text, links: b.links });
  });
  // The author note of an APA manuscript may close the text, after the discussion ("Author
  // note" as a heading, or run in before its first sentence): it holds the correspondence
  // address, and is read with the header.
  if (authors.some((a) => a.emails.length === 0)) {
    const seen = new Set(headerBlocks);
    for (const i of authorNote(blocks, frontEnd)) {
      if (!seen.has(i) && !chosen.used.has(i)) texts.push({ text: blocks[i]!.text, links: blocks[i]!.links });
    }
  }
  const marks = chosen.entries.map((e) => e.marks);
  const unassignedEmails = authors.length ? assignEmails(authors, texts, starred, marks) : [];
  if (authors.some((a) => a.emails.length === 0 || !a.orcid)) addressesAtTheEnd(blocks, frontEnd, authors);

  // ORCIDs written or linked next to a name elsewhere in the header ("Jane Roe https://orcid.org/...").
  if (authors.some((a) => !a.orcid)) {
    texts.forEach(({ text, links, owner }, k) => {
      const ids = unique([...findOrcids(text), ...links.flatMap((l) => findOrcids(l))]).filter(
        (id) => validOrcid(id) && !authors.some((a) => a.orcid === id),
      );
      if (!ids.length) return;
      // One identifier in a note that belongs to one author (the author's contact block) is theirs.
      if (owner !== undefined && ids.length === 1 && !authors[owner]!.orcid) {
        authors[owner]!.orcid = ids[0]!;
        return;
      }
      // "*Correspondence: Jane Roe, Department ..." / "Email: ..." / "ORCID: ...": a Word
      // manuscript's contact note set one labelled line a paragraph; the identifier on such a line
      // is the named author's.
      const noteOwner = contactNoteOwner(texts, k, authors);
      if (ids.length === 1 && noteOwner !== null && !authors[noteOwner]!.orcid) {
        authors[noteOwner]!.orcid = ids[0]!;
        return;
      }
      // "0000-0001-... (V. Alexiev); 0000-0002-... (N. Keberle)": an identifier with a name in
      // brackets after it, or one identifier and one name to a segment, pair up whatever else the
      // paragraph mentions.
      for (const m of text.matchAll(/(\d{4}-\d{4}-\d{4}-\d{3}[\dX])\s*\(([^()]{2,60})\)/g)) {
        const named = mentionedAuthors(m[2]!, authors).filter((i) => !authors[i]!.orcid);
        const id = m[1]!;
        if (named.length === 1 && ids.includes(id) && !authors.some((a) => a.orcid === id))
          authors[named[0]!]!.orcid = id;
      }
      for (const segment of text.split(/[;\n]/)) {
        const own = findOrcids(segment).filter(
          (id) => ids.includes(id) && !authors.some((a) => a.orcid === id),
        );
        const named = mentionedAuthors(segment, authors).filter((i) => !authors[i]!.orcid);
        if (own.length === 1 && named.length === 1) authors[named[0]!]!.orcid = own[0]!;
      }
      const left = ids.filter((id) => !authors.some((a) => a.orcid === id));
      const mentioned = mentionedAuthors(text, authors).filter((i) => !authors[i]!.orcid);
      if (left.length && mentioned.length === left.length)
        mentioned.forEach((ai, n) => (authors[ai]!.orcid = left[n]!));
    });
  }

  // A table of the authors and their identifiers set in columns ("Author | ORCID | Email", a Word
  // manuscript printed to PDF): a block of ORCIDs alone, one a line, pairs row by row with the
  // nearest block before it whose lines each name a different author.
  if (authors.some((a) => !a.orcid)) {
    blocks.forEach((b, i) => {
      if (!frontPages.has(b.page) || b.lines.length < 2) return;
      const ids = b.lines.map((l) => findOrcids(l.text));
      const alone = (t: string) => !t.replace(/\S*\d{4}-\d{4}-\d{4}-\d{3}[\dX]\S*/g, '').trim();
      if (!b.lines.every((l, k) => ids[k]!.length === 1 && alone(l.text))) return;
      for (let j = i - 1; j >= Math.max(0, i - 3); j--) {
        const rows = blocks[j]!.lines.map((l) => mentionedAuthors(l.text, authors));
        if (rows.length !== ids.length || !rows.every((r) => r.length === 1)) continue;
        if (new Set(rows.map((r) => r[0])).size !== rows.length) continue;
        rows.forEach((r, k) => {
          const id = ids[k]![0]!;
          const owner = authors[r[0]!]!;
          if (!owner.orcid && validOrcid(id) && !authors.some((a) => a.orcid === id)) owner.orcid = id;
        });
        break;
      }
    });
  }

  // ORCID icons linked beside a name: the name right before the icon (or, failing that, right
  // after it) is the identifier's owner.
  for (const anchor of doc.orcidAnchors ?? []) {
    if (!validOrcid(anchor.orcid) || authors.some((a) => a.orcid === anchor.orcid)) continue;
    const clean = (t: string) => ` ${foldWords(t.replace(/\d+/g, ' '))} `;
    const before = clean(iconsCut(anchor.before, 3));
    const after = clean(anchor.after);
    const owner =
      authors.find((a) => !a.orcid && before.endsWith(` ${foldWords(a.name)} `)) ??
      authors.find((a) => !a.orcid && after.startsWith(` ${foldWords(a.name)} `));
    if (owner) owner.orcid = anchor.orcid;
  }

  return unassignedEmails;
}

export function extractHeader(source: DocumentModel): Header {
  const doc = {
    ...source,
    blocks: source.blocks.map((raw) => {
      const b = source.format === 'pdf' ? withoutLinkIcons(raw) : raw;
      return hasTypedSuperscripts(b.text) ? { ...b, runs: typedSuperscripts(b.runs) } : b;
    }),
  };
  const { blocks } = doc;
  const span = readTitle(doc);
  const { title, titleIndex, titleEnd } = span;
  const start = titleIndex !== null ? titleEnd : 0;
  const frontEnd = Math.max(start, findFrontEnd(blocks, start));
  const chosen = readAuthorEntries(blocks, span, start, frontEnd);
  const authors: ParsedAuthor[] = chosen.entries.map((e) => ({
    // "Dr. Blaine Mooers", "Prof. Dr. ...": titles before the name are no part of it.
    name: withoutHonorifics(fromCapitals(e.name)),
    emails: [],
    orcid: null,
    affiliations: [],
    corresponding: e.marks.some((m) => m === '*' || m === '✉'),
  }));
  const unassignedEmails = readContacts(doc, span, chosen, authors, frontEnd);

  // A thesis sets its abstract after the contents that end its cover, or after the cover's pages
  // when its title stands under the kind of work.
  const thesisCover = titleIndex !== null && titleIndex > 0 && kindOfWork(blocks[titleIndex - 1]!);
  const abstract = findAbstract(
    blocks,
    afterContents(blocks, frontEnd),
    titleEnd,
    doc.format === 'pdf',
    thesisCover ? THESIS_LABEL_REACH : undefined,
  );
  return {
    title,
    titleIndex,
    titleEnd,
    // The typeset gaps beside Latin letters in Chinese or Japanese text are no spaces of the text.
    abstract: abstract.text === null ? null : withoutCjkLatinGaps(abstract.text),
    abstractBlocks: abstract.used,
    keywords: findKeywords(blocks, frontEnd, doc.declared.keywords),
    authors,
    frontEnd,
    unassignedEmails,
  };
}
