// The title: the block that holds it (the largest type near the top of the first page, or a Word
// title style, read by typography and position), the blocks it runs on into, and its text.
import type { Block, DocumentModel } from '../types.ts';
import { ABSTRACT_LABEL, isKeywordTermsLine, KEYWORDS_LABEL } from '../sections.ts';
import {
  CJK_WORDS,
  joinCjkBreaks,
  submissionField,
  UNSPACED_WORDS,
  withoutCjkLatinGaps,
  englishOrOther,
} from '../text-utils.ts';
import { foldWords } from '../../infra/text-fold.ts';
import { INSTITUTION_WORD } from '../institutions.ts';
import { inCapitals, isDocumentWord } from '../names.ts';
import { isTitleStyle } from '../style-names.ts';
import { INTRODUCTION } from '../abstract.ts';
import {
  bareTitleLabel,
  TITLE_WORDS,
  TOPIC_LABEL,
  bracketedAffiliations,
  DATE_ALONE,
  FRONT_LABEL,
  isNameList,
  kindOfWork,
  markedNameCount,
  MAX_FRONT_BLOCKS,
  namesOnly,
  opensWithNoteMark,
  ROLE_FIELD,
  RUN_IN_ABSTRACT,
} from './front-matter.ts';

/**
 * The heading of a part a grant proposal is sent in (NSF's "Project Summary", "Project
 * Description", "References Cited"; NIH's "Specific Aims", "Research Strategy"; "Executive
 * Summary", "Budget Justification"): a file that opens on one is that part alone, with no title
 * page, so it prints no title and no byline; its headings are neither.
 */
const PROPOSAL_PART =
  /^(?:project (?:summary|description|narrative)|executive summary|specific aims|research (?:strategy|plan)|statement of work|budget justification|data management plan|references cited|biographical sketch|biosketch)\s*$/i;

/**
 * The label of the part of an application form a file is, alone or after the scheme's name: the
 * Part B1, B-1 or B2 of an ERC or MSCA proposal ("ERC Starting Grant 2027" / "Part B1"), a form's
 * "Part A"; a footnote's mark may be glued to it ("Part B1¹" read "Part B11").
 */
const FORM_PART_LABEL =
  /^(?:[^.:]{0,60}\b(?:grants?|fellowships?|proposals?|applications?|calls?|programmes?|erc|msca)\b[^.:]{0,20}\s)?part\s+(?:[a-d](?:[-‐–]?\d{1,2})?|[ivx]{1,4})\s*$/iu;

/**
 * A file that opens on a form's part label, with nothing in larger type after it on its page,
 * prints no title (a proposal's Part B2, an MSCA Part B-1: the title is in the form's other part).
 * Where a larger title follows the label (ERC's Part B1 cover), that title stands.
 */
function opensOnFormPart(blocks: readonly Block[]): boolean {
  const at = blocks.findIndex((b, i) => i < 4 && b.page === 1 && FORM_PART_LABEL.test(b.text.trim()));
  if (at < 0) return false;
  const size = blocks[at]!.relSize;
  return !blocks.some((b, i) => i > at && i < MAX_FRONT_BLOCKS && b.page === 1 && b.relSize > 1.05 * size);
}

/**
 * A file that opens on its first section's heading ("1 Introduction", "1 Excellence"), in its
 * headings' face, over the section's text or its first subsection ("1.1 ..."): a proposal's part
 * sent alone, its title in another file. No heading of its body is a title.
 */
const FIRST_SECTION = /^1\.?\s+\p{Lu}[\p{L}-]*(?:\s+[\p{L}-]+){0,5}$/u;
function opensOnFirstSection(blocks: readonly Block[]): boolean {
  const [first, next] = blocks;
  if (!first || !next || !first.emphasis || first.lines.length > 1 || !FIRST_SECTION.test(first.text.trim()))
    return false;
  return /^1\.1\.?\s/.test(next.text.trim()) || (next.lines.length >= 3 && next.relSize < first.relSize);
}

/**
 * "Abstract This is ..." set in bold and run in with no stop after it (Springer's sola class)
 * tells the label by its face alone, which a block's text does not keep: it is read as a label
 * only at the head of a paragraph of prose length.
 */
const BARE_RUN_IN_ABSTRACT = /^(?:Abstract|ABSTRACT|Summary|SUMMARY)\s+\p{Lu}/u;

/** A block that is the abstract's label, or opens with it. */
export function opensAbstract(b: Block): boolean {
  if (b.text.length < 20) return ABSTRACT_LABEL.test(b.text);
  return RUN_IN_ABSTRACT.test(b.text) || (b.text.length >= 200 && BARE_RUN_IN_ABSTRACT.test(b.text));
}

/**
 * The label over a page that a journal asks for before the paper (elsarticle's preprint sets a
 * "Graphical Abstract" and a "Highlights" page first, in type larger than the title under it).
 */
export const FRONT_INSERT_LABEL =
  /^\s*(?:graphical abstract|(?:research )?highlights|table of contents (?:graphic|entry)|toc graphic)\s*$/i;

/**
 * A Word heading numbered as a section of the body ("1. Bevezetés", "2.1. Gráfelméleti fogalmak"):
 * a thesis's chapters, set larger than its cover's title, are none of the title's candidates.
 */
const NUMBERED_SECTION = /^\d{1,2}(?:\.\d{1,2})*\.?\s+\p{Lu}/u;
const numberedSectionHeading = (b: Block) =>
  b.styleLevel !== null && b.styleLevel >= 1 && NUMBERED_SECTION.test(b.text.trim());

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

const NOTHING = /(?!)/;

/** The space a line break left between a Chinese or Japanese character and a dash after it. */
/** A subtitle in Chinese or Japanese wholly in brackets, full-width or not: "（日本機械学会指定...について）". */
const BRACKETED_CJK_SUBTITLE =
  /^[（(][^()（）]*[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}][^()（）]*[）)]$/u;
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
 * The journal's citation line set over the title (AMS-style journals' "Appl. Comput. Math., V.xx,
 * N.xx, 20xx, pp.xx-xx"): a short line that gives a year, or its placeholder, and closes on the
 * paper's page range, numbers or placeholders. No title ends in a page range.
 */
const CITATION_HEAD = /^.{0,80}\b(?:19|20)(?:\d\d|xx)\b.{0,40}\bpp?\.\s?(?:\d+|x+)\s?[-–]\s?(?:\d+|x+)\.?$/i;

/**
 * A journal's name set large in the first page's masthead, its issue line right under it
 * ("Journal of Statistical Software" over "MMMMMM YYYY, Volume VV, Issue II."): no title, however
 * large (jss.cls sets it above the title's size).
 */
function isMasthead(blocks: readonly Block[], i: number): boolean {
  const next = blocks[i + 1];
  return (
    namedInJournalField(blocks, i) ||
    CITATION_HEAD.test(blocks[i]!.text.trim()) ||
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
 * A paragraph that reads as a title where no type sets one apart: a few words (three or more, at
 * most `maxChars` characters), no sentence's end, no address, no list of names, no front label.
 */
function readsAsTitle(b: Block, maxChars: number): boolean {
  const text = b.text.trim();
  return (
    b.text.length <= maxChars &&
    text.split(/\s+/).length >= 3 &&
    !/[.;,]$/.test(text) &&
    !b.text.includes('@') &&
    !isNameList(b) &&
    !FRONT_LABEL.test(text)
  );
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
    // A main title closed by a colon, in the title's size over its subtitle (a humanities essay's
    // "Main Title:" set in bold or small capitals, then the subtitle in the roman that is longer):
    // the colon leaves the title open for what follows, so the block is the title's opening, over
    // as many lines as it takes. A field's label closed by a colon ("Title:", "Running title:") is none.
    const opensOnSubtitle =
      k === i &&
      /\p{L}{2}:$/u.test(b.text.trim()) &&
      b.text.trim().split(/\s+/).length >= 2 &&
      b.lines.length <= 3 &&
      !FIELD_LABEL.test(b.text.trim()) &&
      !bareTitleLabel(b);
    if (
      b.page !== t.page ||
      b.styleName !== t.styleName ||
      b.styleLevel != null ||
      t.styleLevel != null ||
      Math.abs(b.relSize - t.relSize) > 0.03 * t.relSize ||
      (b.lines.length > 1 && !opensOnSubtitle) ||
      b.text.length > 200 ||
      (/[.;,:!?]\s*$/.test(b.text) && !opensOnSubtitle) ||
      FRONT_LABEL.test(b.text.trim()) ||
      INSTITUTION_WORD.test(b.text) ||
      kindOfWork(b) ||
      // A word naming a kind of document marks a label over the title ("Research Article"); a main
      // title of four words or more before its colon may use one ("A Traveller's Journal of ...:").
      (b.text
        .trim()
        .split(/\s+/)
        .some((w) => isDocumentWord(w)) &&
        !(opensOnSubtitle && b.text.trim().split(/\s+/).length >= 4)) ||
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

/**
 * A file that is one part of a proposal, sent alone with no title page: it opens on the part's
 * heading, on a form's part label with no larger title after it, or on its first section's heading.
 * It prints no title and no byline.
 */
export function opensOnProposalPart(blocks: readonly Block[]): boolean {
  return (
    PROPOSAL_PART.test(blocks[0]?.text.trim() ?? '') || opensOnFormPart(blocks) || opensOnFirstSection(blocks)
  );
}

/**
 * The heading of the DFG's project description form (53.01), in English or German. Under it the
 * form sets the applicants, a block each, then the project's title, then where the description
 * opens: its heading ("Project Description") or its first section ("1 Starting Point", "1
 * Ausgangslage"). A cover page may come before it.
 */
export const DFG_FORM_HEADING =
  /^(?:project description|beschreibung des vorhabens)\s*[-–—]\s*(?:project proposals?|projektanträge?)$/iu;
const DESCRIPTION_OPENING = /^(?:1\.?\s+\p{Lu}|project description$|projektbeschreibung$)/iu;

/** The DFG form's title: the block right over where the description opens, under the form's heading and its applicants. */
function dfgFormTitle(blocks: readonly Block[]): number | null {
  const at = blocks.findIndex(
    (b, i) => i < MAX_FRONT_BLOCKS && b.page <= 2 && DFG_FORM_HEADING.test(b.text.trim()),
  );
  if (at < 0) return null;
  for (let k = at + 2; k < Math.min(blocks.length, at + 10); k++) {
    if (!DESCRIPTION_OPENING.test(blocks[k]!.text.trim())) continue;
    const title = blocks[k - 1]!;
    return title.lines.length <= 2 && title.text.length <= 250 && !DFG_FORM_HEADING.test(title.text.trim())
      ? k - 1
      : null;
  }
  return null;
}

function findTitle(doc: DocumentModel): number | null {
  if (opensOnProposalPart(doc.blocks)) return null;
  const dfgTitle = dfgFormTitle(doc.blocks);
  if (dfgTitle !== null) return dfgTitle;
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
  if (
    labelled >= 0 &&
    (doc.blocks.slice(0, labelled).every((b) => b.relSize <= doc.blocks[labelled]!.relSize) ||
      TOPIC_LABEL.test(doc.blocks[labelled]!.text.trim()))
  )
    return labelled;
  // The label alone in its paragraph ("Title:"), the title in the next one; or, on a cover that
  // sets its labels as a column over the column of their values ("学 院:", "专业:", "题 目:", then
  // the three values), the value at the label's place in the run.
  const bareLabel = doc.blocks.findIndex((b, i) => i < 10 && b.page === 1 && bareTitleLabel(b));
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
    .filter(
      ({ b }) =>
        !b.text.includes('@') &&
        !FRONT_INSERT_LABEL.test(b.text) &&
        !kindOfWork(b) &&
        !numberedSectionHeading(b),
    )
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
  // title even when it reads as names ("Dubrovnik Skein Theory and Power Sum Elements"). The banner
  // may run on over the next lines from the top, each in capitals naming a part of it (a Turkish
  // cover's university and institute, then "BİLGİSAYAR MÜHENDİSLİĞİ ANABİLİM DALI").
  const coverBanner = (b: Block, i: number): boolean =>
    i < 4 &&
    inCapitals(b.text) &&
    INSTITUTION_WORD.test(b.text) &&
    (i === 0 || coverBanner(doc.blocks[i - 1]!, i - 1));
  const headingLike = (b: Block, i: number) =>
    i < 10 &&
    (abstractAt < 0 || i < abstractAt) &&
    (b.styleLevel === 1 || b.emphasis) &&
    b.text.split(/\s+/).length >= 3 &&
    !kindLine(b) &&
    !coverBanner(b, i) &&
    !isMasthead(doc.blocks, i) &&
    !(
      b.styleLevel !== 1 &&
      i > 0 &&
      namesOnly(b) &&
      !kindLine(doc.blocks[i - 1]) &&
      !coverBanner(doc.blocks[i - 1]!, i - 1)
    );
  // A line set over the title in a smaller type (asmeconf's conference lines, "Proceedings of ..."
  // or "Presented to ...", in bold over the title in bold at the body's size) is no title: the
  // first in the largest type of them is.
  const headings = doc.blocks.map((b, i) => ({ b, i })).filter(({ b, i }) => headingLike(b, i));
  const headingSize = Math.max(0, ...headings.map(({ b }) => b.relSize));
  const firstHeading = headings.find(({ b }) => b.relSize >= 0.97 * headingSize)?.i ?? -1;
  // The first such block may be the byline, set in a face of its own with a mark after two names
  // or more (AASTeX 6.2: the names in small capitals under a title in the body's roman, no larger
  // type marking the title): the title is the block over it, when it reads as one.
  const overMarkedByline = firstHeading > 0 ? doc.blocks[firstHeading - 1]! : undefined;
  if (
    overMarkedByline !== undefined &&
    markedNameCount(doc.blocks[firstHeading]!) >= 2 &&
    overMarkedByline.page === doc.blocks[firstHeading]!.page &&
    overMarkedByline.relSize >= headingSize &&
    readsAsTitle(overMarkedByline, 300) &&
    !DATE_ALONE.test(overMarkedByline.text.trim()) &&
    !isMasthead(doc.blocks, firstHeading - 1)
  )
    return titleOpening(doc.blocks, firstHeading - 1);
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
    readsAsTitle(first, 250) &&
    !ABSTRACT_LABEL.test(first.text)
  )
    return 0;
  // A manuscript typed all in the body's type whose title page is a page of its own (APA's, a
  // papaja draft's: running head, title, byline, author note), and which prints its title again
  // over the first page of its text: the line of the first page that opens a later page again,
  // word for word, is the title.
  const pageOpenings = new Set(
    doc.blocks
      .filter((b, j) => j > 0 && b.page > 1 && b.page <= 5 && doc.blocks[j - 1]!.page < b.page)
      .map((b) => foldWords(b.text)),
  );
  const printedAgain = firstPage.find(
    ({ b }) =>
      b.relSize < 1.1 &&
      b.text.length <= 250 &&
      foldWords(b.text).split(' ').length >= 3 &&
      !/[.;,]$/.test(b.text.trim()) &&
      pageOpenings.has(foldWords(b.text)),
  );
  if (printedAgain) return printedAgain.i;
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
export function capitalsByline(blocks: readonly Block[]): number | null {
  const first = blocks[0];
  if (!first || first.page !== 1 || !opensCapitalsTitle(first)) return null;
  const isName = (b: Block | undefined) => !!b && b.page === 1 && namesOnly(b) && !isNameList(b);
  const next = blocks[1];
  const third = blocks[2];
  if (next && opensCapitalsTitle(next) && isName(third) && (!namesOnly(next) || !inCapitals(third!.text)))
    return 2;
  return isName(next) ? 1 : null;
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
const TITLE_LABEL = new RegExp(`^${TITLE_WORDS.source}\\s*[:：]\\s*(?=\\S)`, 'iu');

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

/**
 * A word broken by a hyphen at a line's end ("eco-" / "logical") is one word; "pre- and post-" stays.
 * A word the file's declared title writes with that hyphen ("single-sample") keeps it: a compound
 * broken at its own hyphen.
 */
function joinHyphenated(text: string, declared: string | null = null): string {
  return (
    text
      .replace(
        /(\p{L}*\p{Ll})-[ \t]*\n\s*(?!(?:and|or|to)\b)(?=(\p{Ll}\p{L}*))/gu,
        (_, before: string, after: string) =>
          declared?.includes(`${before}-${after}`) ? `${before}-` : before,
      )
      // A title set in capitals breaks its words the same way ("CONVOLU-" / "TION"). Two capitals
      // either side: a single letter before the hyphen is a compound's ("X-RAY").
      .replace(/(\p{Lu}{2})-[ \t]*\n[ \t]*(?!(?:AND|OR|TO)\b)(?=\p{Lu}{2})/gu, '$1')
  );
}

/**
 * A raised run inside a title, set on a word and with more of the title after it, is part of the
 * title ("NC¹ with Typed Monoids", "μ_p G^p_E", "with ⁹Be Nuclei", a sign: "B⁺-trees", "Ca²⁺
 * Channels"): a note mark stands at the title's end, and no note is marked with a sign.
 */
function raisedInTitle(runs: Block['runs'], k: number): boolean {
  const r = runs[k]!;
  const before = runs[k - 1];
  return (
    /^(?:[\p{L}\p{N}]+|[\p{N}]*[+−±]+)$/u.test(r.text.trim()) &&
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

/**
 * The note marks a title ends with ("A Study*†"). The look-behind lets a match start only where the
 * run of marks starts: read once, not again from each mark (`[*†‡§¶✉]+$` read a paragraph of 40,000
 * "*" and a letter from each: 13 s of a parser worker).
 */
export const TITLE_END_MARKS = /(?<![*†‡§¶✉])[*†‡§¶✉]+$/u;

/**
 * A proposal's acronym set on its own line under its title ("Quantum Simulated Analysis Research" /
 * "QUASAR", an ERC or Horizon proposal's cover): one or two words in capitals, no digit, under lines
 * in mixed case that end on no word that leaves the title open ("... during" / "COVID-19" goes on).
 */
const ACRONYM_LINE = /^\p{Lu}[\p{Lu}-]{3,}(?:\s+\p{Lu}[\p{Lu}-]{3,})?$/u;
const OPEN_ENDING =
  /\b(?:a|an|the|of|for|in|on|and|or|with|to|from|by|via|at|into|using|during|between|versus|vs\.?|across|among|within|without|through|toward|towards|under|over|after|before|against|beyond|around|about|as|like|per|near|inside|outside)$/i;
function withoutAcronymLine(lines: string[]): string[] {
  const last = lines[lines.length - 1]?.trim() ?? '';
  const above = lines.slice(0, -1);
  if (above.length === 0 || !ACRONYM_LINE.test(last)) return lines;
  const before = above.join(' ').trim();
  return /\p{Ll}/u.test(before) && !OPEN_ENDING.test(before) ? above : lines;
}

function titleText(block: Block, declared: string | null = null): string {
  if (LONE_TITLE_MARK.test(block.text.trim())) return '';
  const runs = beforeMarginNote(block.runs);
  // A line break between two Chinese or Japanese characters is no space.
  return withoutCjkLatinGaps(
    joinCjkBreaks(
      joinHyphenated(
        withoutAcronymLine(
          runs
            .filter((r, k) => !r.sup || raisedInTitle(runs, k))
            .map((r) => r.text)
            .join('')
            .split('\n')
            .filter((line) => !LONE_TITLE_MARK.test(line.trim())),
        ).join('\n'),
        declared,
      ),
    ),
  )
    .replace(/\s+/g, ' ')
    .trim()
    .replace(TITLE_END_MARKS, '')
    .trim();
}

/**
 * A title typed in quotation marks as a whole (“...”, „...“, «...»): the marks are no part of it.
 * So are guillemets typed as TeX's "<<" and ">>" and printed as typed, by a font that makes no
 * ligature of them (a Ukrainian cover under XeLaTeX: "<<Назва роботи>>").
 */
const WHOLLY_QUOTED = /^(?:[“"«„]|<<)([^“”"«»„<>]+)(?:[”"»“]|>>)$/u;

/** The title, its first block and the block after its last (a translation set under it included). */
export interface TitleSpan {
  title: string | null;
  titleIndex: number | null;
  titleEnd: number;
}

/** Where the title stands and what it reads: its blocks joined, its label, its marks and stops cut. */
export function readTitle(doc: DocumentModel): TitleSpan {
  const { blocks } = doc;
  const declared = declaredTitle(doc.declared.title);
  const titleIndex = findTitle(doc);
  // A title closed by its full stop, then the same title translated in the same size and another
  // face (a Spanish title over its English one in italics): the title is whole before the
  // translation, which is no byline either.
  // So is a block in the title's size and face that is in English under a title in another
  // language, or the reverse, by their grammar words (SciELO's and ABNT's title in Portuguese or
  // Spanish, then in English): the title is in the language written first.
  const otherLanguage = (k: number) => {
    const under = englishOrOther(blocks[k]!.text);
    const over = englishOrOther(
      blocks
        .slice(titleIndex ?? k - 1, k)
        .map((b) => b.text)
        .join(' '),
    );
    return under !== null && over !== null && under !== over;
  };
  const translatedTitle = (k: number) =>
    k > 0 &&
    blocks[k] !== undefined &&
    /^\p{Lu}/u.test(blocks[k]!.text) &&
    Math.abs(blocks[k]!.relSize - blocks[k - 1]!.relSize) <= 0.03 * blocks[k - 1]!.relSize &&
    ((/\p{L}{3}\.$/u.test(blocks[k - 1]!.text.trim()) && blocks[k]!.emphasis !== blocks[k - 1]!.emphasis) ||
      otherLanguage(k));
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
    // The DFG form's title is its one field, over the description's opening in the same type.
    const formTitle = dfgFormTitle(blocks) === titleIndex;
    const endsCoverTitle = (b: Block) =>
      coverTitle &&
      (INSTITUTION_WORD.test(b.text) || (namesOnly(b) && inCapitals(b.text) !== inCapitals(t.text)));
    while (
      capitalsEnd === null &&
      !formTitle &&
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
      (t.relSize >= 1.1
        ? // A title set large goes on in a block of its size and face broken off where a word's face
          // changes, with no space between; after a space wider than a double-spaced line's, one
          // in its face and size is another title (abnTeX2's \tituloestrangeiro: the title again
          // in English under the Portuguese one, 2.3 apart). A double-spaced title's own lines
          // (ametsoc's submission, 1.56 apart) stand closer than that.
          blocks[titleEnd]!.emphasis !== t.emphasis || (blocks[titleEnd]!.lines[0]?.gapAbove ?? 0) < 2
        : blocks[titleEnd]!.emphasis === t.emphasis && (blocks[titleEnd]!.lines[0]?.gapAbove ?? 0) < 1.5)
    ) {
      titleEnd++;
    }
    // A cover's title set large over its subtitle in a smaller type ("Main Title!" over a line of
    // what the work is about, in a bold sans): where the file's declared title is the two (or
    // three) lines together, the lines under it are the title's too.
    if (declared !== null && capitalsEnd === null) {
      const whole = foldWords(declared);
      let joined = foldWords(
        blocks
          .slice(titleIndex, titleEnd)
          .map((b) => b.text)
          .join(' '),
      );
      for (let k = titleEnd; k < Math.min(blocks.length, titleIndex + 4); k++) {
        if (blocks[k]!.page !== t.page || !whole.startsWith(`${joined} `)) break;
        joined = foldWords(`${joined} ${blocks[k]!.text}`);
        if (joined === whole) {
          titleEnd = k + 1;
          break;
        }
      }
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
  // case study of ..."), or wholly in brackets ("（...について）", a Japanese journal's 副題), in a
  // type no larger than the title's and no smaller than the body's: the title goes on with it,
  // joined with no space after a Chinese or Japanese character.
  let dashSubtitle = false;
  if (titleIndex !== null && subtitle === null) {
    const t = blocks[titleIndex]!;
    const next = blocks[titleEnd];
    if (
      next !== undefined &&
      next.page === t.page &&
      next.lines.length <= 2 &&
      next.text.length <= 100 &&
      (/^[—―]{1,2}\s*\S/u.test(next.text.trim()) ||
        // A bracketed line that names the kind of work ("(申请...硕士学位论文)") is no subtitle.
        (BRACKETED_CJK_SUBTITLE.test(next.text.trim()) && !kindOfWork(next))) &&
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
                    .map((b) => titleText(b, declared))
                    .filter((t) => t !== '')
                    .join('\n'),
                ),
                declared,
              )
                .replace(/\s+/g, ' ')
                .replace(dashSubtitle ? CJK_BEFORE_DASH : NOTHING, '')
                .trim(),
        )
          .replace(WHOLLY_QUOTED, '$1')
          .replace(blocks[titleIndex]!.styleLevel === 0 ? SENTENCE_STOP : NOTHING, '') || null
      : declared;
  return { title, titleIndex, titleEnd };
}
