// PDF to the shared document model, through pdf.js (bundled by unpdf): text items with their
// positions and fonts, link annotations, and the document's declared metadata.
import { isOcrLayer, ocrLines } from './ocr-layer.ts';
import { getDocumentProxy, getResolvedPDFJS } from 'unpdf';
import type { PDFPageProxy } from 'unpdf/pdfjs';
import type { ParsingLimits } from '../../infra/config.ts';
import type { Block, DocumentModel } from '../types.ts';
import { REFERENCES_HEADING } from '../sections.ts';
import { FIRST_LINES, MAX_LETTER_PAGES, opensAsLetter } from '../letters.ts';
import {
  asPersianLetters,
  cleanText,
  closeSpacedWords,
  continuesEmailGroup,
  findOrcids,
  joinLines,
  mendRuledUnderscore,
  opensEmailGroup,
  writesPersian,
} from '../text-utils.ts';
import {
  documentGutters,
  dropLineNumbers,
  dropWavyUnderlines,
  dropRunningHeads,
  mendAccents,
  orderPage,
  type Item,
  type Line,
} from './geometry.ts';
import { FORMS_PAGE_FACTOR, precheckPdf } from './pre-check.ts';
import { UNMAPPED, repairLigatures, vocabulary } from './ligatures.ts';
import { cmapDir } from './pdfjs-data.ts';

const LINK_PAGES = 2;

export class PdfReadError extends Error {
  constructor(
    readonly code: 'encrypted' | 'corrupt_file',
    message: string,
  ) {
    super(message);
  }
}

interface RawTextItem {
  str?: string;
  transform?: number[];
  width?: number;
  fontName?: string;
}

interface RawAnnotation {
  pageIndex?: number;
  annotationFlags?: number;
  quadPoints?: unknown;
  url?: string;
  unsafeUrl?: string;
  rect?: number[];
}

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;
type Link = { url: string; rect: number[] };
interface PdfPage {
  number: number;
  origin: [number, number];
  items: Item[];
  height: number;
  width: number;
  links: Link[];
  /** A glyph read as a space of its own stands right after a piece that ends inside a DOI. */
  glyphInDoi: boolean;
}

/** The last run of characters a DOI's suffix may hold (none of a space, a quote or an angle bracket). */
const LAST_DOI_RUN = /(?<![^\s"<>])[^\s"<>]+$/u;
const DOI_PREFIX = /\b10\.\d{4,9}\//u;
const LETTER_OR_DIGIT_AT_END = /[\p{L}\p{N}]$/u;
/** A DOI's text that stops after a hyphen between letters, where a line broke (a piece of text ends there). */
const HYPHEN_BREAK_IN_DOI = /\b10\.\d{4,9}\/[^\s"<>]*\p{L}-\s/u;

/**
 * Whether a piece of text ends inside a DOI's suffix: its last run holds a DOI's prefix and ends in a
 * letter or a digit. Read once: as one pattern (`\b10\.\d{4,9}\/[^\s"<>]*[\p{L}\p{N}]$`) a match was
 * tried from every prefix of the run, each read to the end (a run of 80,000 characters of prefixes
 * 0.6 s, 320,000 about 10 s of a parser worker). The run starts where no run character precedes it,
 * so the scan for it reads each character once.
 */
export function endsInsideDoi(text: string): boolean {
  const run = LAST_DOI_RUN.exec(text)?.[0];
  return run !== undefined && LETTER_OR_DIGIT_AT_END.test(run) && DOI_PREFIX.test(run);
}

/**
 * Loads pdf.js itself (a 1.6 MB module that unpdf imports on the first document it opens), and
 * finds its CMaps, so that a worker can do it before it takes its first file.
 */
export async function loadPdfjs(): Promise<void> {
  await getResolvedPDFJS();
  cmapDir();
}

async function openPdf(bytes: Uint8Array) {
  try {
    // pdf.js takes ownership of (and empties) the buffer it is given: hand it a copy.
    return await getDocumentProxy(bytes.slice(), {
      stopAtErrors: false,
      isEvalSupported: false,
      // pdf.js logs recoverable damage with console.log, which would corrupt JSON on stdout.
      verbosity: 0,
      // Read only when a font names one of pdf.js's built-in CMaps (a fixed list: no name from the
      // file reaches the path otherwise), a few KB each, cached for the document. A CMap that cannot
      // be read costs that font's text, never the parse. Given here as a path: unpdf's own default
      // (set once pdfjs-dist is installed) is a file: URL, which pdf.js in Node cannot open.
      cMapUrl: cmapDir() ?? undefined,
      cMapPacked: true,
      // unpdf would point this at pdfjs-dist as a file: URL too. The standard fonts' data is read
      // only for non-embedded Symbol and ZapfDingbats (system fonts are on), and changes no text
      // read (docs/benchmarks/parsing.md, "CMaps for CID fonts").
      standardFontDataUrl: undefined,
    });
  } catch (error) {
    const e = error as { name?: string; message?: string };
    if (e.name === 'PasswordException') {
      throw new PdfReadError('encrypted', 'The PDF is encrypted with a password and cannot be read');
    }
    throw new PdfReadError('corrupt_file', `The PDF cannot be read: ${e.message ?? String(error)}`);
  }
}

/**
 * A page's pieces of text, all of them. pdf.js makes them all before the page's budget is applied:
 * stopping it part-way (cancelling its text stream once the budget's pieces came) leaves a promise
 * of its worker-side stream rejected with nothing yet to handle it, which Node treats as a crash (it
 * failed the test suite, and would end a parser worker or the CLI). A page whose content is heavy,
 * its own or that of the forms it draws (each time drawn), is left unread before this by the
 * pre-check's budgets (docs/operations.md, "PDF content budgets"), so what is made whole here is at
 * most FORMS_PAGE_FACTOR times PARSE_MAX_PAGE_CONTENT_BYTES of operators.
 */
async function textItems(page: PDFPageProxy): Promise<RawTextItem[]> {
  // pdf.js's own Unicode normalisation costs more than it gives: cleanText maps the ligatures.
  const content = await page.getTextContent({ disableNormalization: true });
  return content.items as RawTextItem[];
}

/** The first entry of a list numbered in brackets, as the text item that opens its line. */
const FIRST_BRACKETED_ENTRY = /^\s*\[1\](?:\s|$)/;

export async function readPdf(bytes: Uint8Array, limits: ParsingLimits): Promise<DocumentModel> {
  const { skippedPages } = await precheckPdf(bytes, limits);
  const doc = await openPdf(bytes);
  const warnings: string[] = [];
  try {
    const pageCount = doc.numPages;
    const readPages = Math.min(pageCount, limits.maxPages);
    if (pageCount > limits.maxPages) {
      warnings.push(`The PDF has ${pageCount} pages; only the first ${limits.maxPages} were read`);
    }
    const pages: PdfPage[] = [];
    let chars = 0;
    let items = 0;
    /** Pages left unread because their content passed a budget (not those past maxPages). */
    let overBudgetPages = 0;
    /** Reads page `p` into `pages`; false when its text passes a budget and no more is to be read. */
    const readPage = async (p: number, itemBudget: number): Promise<boolean> => {
      let page;
      try {
        page = await doc.getPage(p);
      } catch (error) {
        warnings.push(`Page ${p} cannot be read: ${(error as Error).message}`);
        return true;
      }
      // A page the pre-check found too heavy to interpret (a vector figure) is left out, and said so.
      const skipped = page.ref ? skippedPages.get(page.ref.num) : undefined;
      if (skipped !== undefined) {
        warnings.push(
          skipped.budget === 'page'
            ? `Page ${p} was not read: its content is ${skipped.bytes} bytes of operators, over the ${limits.maxPageContentBytes} read of a page`
            : skipped.budget === 'forms'
              ? `Page ${p} was not read: its content and the forms it draws are at least ${skipped.bytes} bytes of operators, over the ${FORMS_PAGE_FACTOR * limits.maxPageContentBytes} read of a page with its forms`
              : `Page ${p} was not read: its content is ${skipped.bytes} bytes of operators, the heaviest of a document over the ${limits.maxDocumentContentBytes} read at most`,
        );
        overBudgetPages++;
        return true;
      }
      const view = page.view;
      const [x0 = 0, y0 = 0, x1 = 612, y1 = 792] = view;
      const content = await textItems(page);
      if (content.length > limits.maxPageTextItems) {
        warnings.push(
          `Page ${p} was not read: it shows ${content.length} pieces of text, over the ${limits.maxPageTextItems} read of a page`,
        );
        overBudgetPages++;
        return true;
      }
      items += content.length;
      let pageItems: Item[] = [];
      /** Each piece's horizontal scale over its size: an OCR layer's pieces differ in it. */
      const stretch: number[] = [];
      let glyphInDoi = false;
      // The piece last read for a DOI: spaces in a row after one long piece read it once.
      let readForDoi: Item | undefined;
      // A space glyph read as a piece of its own: the next piece is `spaced`.
      let spaceGlyph = false;
      for (const raw of content) {
        const t = raw.transform;
        const isSpaceGlyph = raw.str === ' ' && (raw.width ?? 0) > 0;
        if (!glyphInDoi && isSpaceGlyph && pageItems.at(-1) !== readForDoi) {
          readForDoi = pageItems.at(-1);
          glyphInDoi = endsInsideDoi(readForDoi?.str ?? '');
        }
        if (isSpaceGlyph) spaceGlyph = true;
        if (!raw.str || !t || !raw.str.trim()) continue;
        const size = Math.abs(t[3] ?? 0) || Math.hypot(t[0] ?? 0, t[1] ?? 0);
        if (size <= 0 || Math.abs(t[1] ?? 0) > 0.01 * size) continue; // rotated text: margins, watermarks
        pageItems.push({
          // An unmapped glyph (U+0000) is kept as a mark for the ligature repair below.
          str:
            mendRuledUnderscore(closeSpacedWords(cleanText(raw.str.replaceAll('\u0000', UNMAPPED)))) || ' ',
          x: (t[4] ?? 0) - x0,
          y: (t[5] ?? 0) - y0,
          w: raw.width ?? 0,
          size,
          font: raw.fontName ?? '',
          ...(spaceGlyph ? { spaced: true } : {}),
        });
        stretch.push(Math.abs(t[0] ?? 0) / size);
        spaceGlyph = false;
        chars += raw.str.length;
      }
      if (isOcrLayer(pageItems, stretch)) pageItems = ocrLines(pageItems);
      if (writesPersian(pageItems.map((i) => i.str)))
        for (const i of pageItems) i.str = asPersianLetters(i.str);
      pages.push({
        number: p,
        // Accents first: a name's letters then read alike in the line's text and in its runs.
        items: mendAccents(pageItems),
        width: x1 - x0,
        height: y1 - y0,
        links: [],
        glyphInDoi,
        origin: [x0, y0],
      });
      // No page.cleanup() here: it throws away font data the next page needs again (a third of the
      // time on a 25-page manuscript); doc.destroy() below frees everything at once.
      if (chars > limits.maxChars) {
        warnings.push(`The text passed ${limits.maxChars} characters at page ${p}; the rest was not read`);
        return false;
      }
      return items <= itemBudget;
    };
    // The pieces of text are budgeted because the layout's cost grows faster than a page's pieces
    // (10,000 on one page took 2.1 s, 84,000 53 s, load 8 on 2 cores), where a real page shows at
    // most 4,363 (a figure's labels; prose 200-800) and a real document 5,440 (the dev set and the
    // fixtures; PARSE_MAX_PAGE_TEXT_ITEMS 8,000, PARSE_MAX_DOCUMENT_TEXT_ITEMS 24,000). The first
    // pages are read up to half the document's budget, then the last ones back towards them: the
    // header and the reference list of a document with more text than the budget, and a warning
    // for the pages between.
    let forward = 0;
    let more = true;
    while (more && forward < readPages) more = await readPage(++forward, limits.maxDocumentTextItems / 2);
    if (forward < readPages && items > limits.maxDocumentTextItems / 2 && chars <= limits.maxChars) {
      let backward = readPages + 1;
      more = true;
      while (more && backward - 1 > forward) more = await readPage(--backward, limits.maxDocumentTextItems);
      if (backward - 1 > forward) {
        overBudgetPages += backward - 1 - forward;
        warnings.push(
          `Pages ${forward + 1}-${backward - 1} were not read: the text passed ${limits.maxDocumentTextItems} pieces, read from the first pages and the last`,
        );
      }
      pages.sort((a, b) => a.number - b.number);
    }
    // Links matter for the header (ORCID and mailto links): read them on the first pages here, and
    // on the reference list's pages below.
    // A file that opens on a letter (a response to the reviewers bound before the revised
    // manuscript) sets the manuscript's title page further on: the links of the pages the letters
    // may take are read too.
    const firstLines = (pages.find((pg) => pg.number === 1)?.items ?? [])
      .slice(0, FIRST_LINES)
      .map((it) => it.str);
    const headerLinkPages = opensAsLetter(firstLines) ? LINK_PAGES + MAX_LETTER_PAGES : LINK_PAGES;
    await readLinks(
      doc,
      pages.filter((pg) => pg.number <= headerLinkPages),
      warnings,
    );
    dropWavyUnderlines(pages);
    dropLineNumbers(pages);
    dropRunningHeads(pages);
    // DOIs printed only as links ("[link]", a linked title) lie in the reference list: from the
    // last page that starts one, read the links too. Reading them costs a third of the time of a
    // long list, so only when the list's text shows few DOIs for its length.
    // A list with no heading (REVTeX) starts where its first entry, "[1]", opens a line.
    const holdsHeading = (pg: (typeof pages)[number]) =>
      pg.items.some((it) => REFERENCES_HEADING.test(it.str.trim()));
    let headed = pages.findLastIndex(holdsHeading);
    // The heading repeated at the top of the pages the list runs on to is its running head
    // (biblatex marks "REFERENCES" in amsart's page heads): the list starts on the first page of
    // that run, the one with the heading itself.
    while (
      headed > 0 &&
      pages[headed - 1]!.number === pages[headed]!.number - 1 &&
      holdsHeading(pages[headed - 1]!)
    )
      headed--;
    const listStart =
      headed >= 0
        ? headed
        : pages.findLastIndex((pg) => pg.items.some((it) => FIRST_BRACKETED_ENTRY.test(it.str)));
    const listPages =
      listStart >= 0 ? pages.slice(listStart).filter((pg) => pg.number > headerLinkPages) : [];
    const listText = listPages.flatMap((pg) => pg.items.map((it) => it.str)).join(' ');
    const listRows = listPages.reduce((n, pg) => n + new Set(pg.items.map((it) => Math.round(it.y))).size, 0);
    // So are they when a DOI's text stops at a glyph read as a space of its own (Typst maps the
    // hyphens of a link's text to soft hyphens, which pdf.js gives as " "): the link holds it whole.
    // And when a DOI's text breaks at a line's end after a hyphen set between two letters
    // ("10.5281/zen-" / "odo.13819579"): LaTeX hyphenates a word inside a linked DOI, which the text
    // cannot tell from a hyphen of the DOI's own; the link holds it as it is.
    const cutDoi = listPages.some((pg) => pg.glyphInDoi) || HYPHEN_BREAK_IN_DOI.test(listText);
    if (cutDoi || (listText.match(/\b10\.\d{4,9}\//g)?.length ?? 0) < listRows / 8) {
      await readLinks(doc, listPages, warnings);
    }
    if (pages.some((pg) => pg.items.some((it) => it.str.includes(UNMAPPED)))) {
      const words = vocabulary([
        ...pages.flatMap((pg) => pg.items.map((it) => it.str)),
        ...pages.flatMap((pg) => pg.links.map((l) => l.url)),
      ]);
      for (const pg of pages) for (const it of pg.items) it.str = repairLigatures(it.str, words);
    }
    const orcidAnchors = pages.flatMap((pg) => anchorsOf(pg.items, pg.links));
    const lines: Line[] = [];
    const gutters = documentGutters(pages);
    pages.forEach((pg, i) => {
      const ordered = orderPage(pg.items, i + 1, gutters[i]!);
      for (const link of pg.links) {
        const [lx1, ly1, lx2, ly2] = link.rect as [number, number, number, number];
        for (const l of ordered) {
          if (l.y + l.size * 0.3 >= ly1 && l.y <= ly2 && l.x <= lx2 && l.right >= lx1) l.links.push(link.url);
        }
      }
      lines.push(...ordered);
    });
    let info: { Title?: string; Author?: string; Keywords?: string } = {};
    try {
      info = ((await doc.getMetadata()).info ?? {}) as typeof info;
    } catch {
      // Metadata is optional; the text is what matters.
    }
    return {
      format: 'pdf',
      blocks: linesToBlocks(lines),
      pages: pageCount,
      overBudgetPages,
      declared: {
        title: typeof info.Title === 'string' ? cleanText(info.Title) || null : null,
        keywords:
          typeof info.Keywords === 'string'
            ? info.Keywords.split(/[;,]/)
                .map((k) => k.trim())
                .filter(Boolean)
            : [],
        authors:
          typeof info.Author === 'string'
            ? info.Author.split(/;|\band\b/)
                .map((a) => a.trim())
                .filter(Boolean)
            : [],
      },
      notes: [],
      orcidAnchors,
      warnings,
    };
  } finally {
    await doc.destroy();
  }
}

/** The text beside each ORCID link on its own line: where an icon stands, the name is next to it. */
function anchorsOf(items: Item[], links: { url: string; rect: number[] }[]) {
  const out: { orcid: string; before: string; after: string; under: string }[] = [];
  for (const link of links) {
    const orcid = findOrcids(link.url)[0];
    if (!orcid) continue;
    const [lx1, ly1, lx2, ly2] = link.rect as [number, number, number, number];
    const row = items
      .filter((it) => it.y >= ly1 - 0.5 * it.size && it.y <= ly2 && it.y + it.size >= ly1)
      .sort((a, b) => a.x - b.x);
    const text = (its: Item[]) =>
      its
        .map((it) => it.str)
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim();
    out.push({
      orcid,
      before: text(row.filter((it) => it.x + it.w <= lx1 + 2)).slice(-60),
      after: text(row.filter((it) => it.x >= lx2 - 2)).slice(0, 60),
      under: wordsUnder(row, lx1, lx2).slice(0, 80),
    });
  }
  return out;
}

/**
 * The words of a row whose middle lies between x1 and x2. pdf.js gives an item's width, not its
 * glyphs', so a word's place is its share of the item's characters: a run of names set in one
 * item (AASTeX's names without marks, "E. M. Bray, H. Breytenbach,") under links to two ORCID
 * records gives each link the names under it, not the whole run to the first.
 */
function wordsUnder(row: Item[], x1: number, x2: number): string {
  const words: string[] = [];
  for (const it of row) {
    const chars = it.str.length;
    if (chars === 0) continue;
    for (const m of it.str.matchAll(/\S+/g)) {
      const middle = it.x + (it.w * (m.index + m[0].length / 2)) / chars;
      if (middle >= x1 && middle <= x2) words.push(m[0]);
    }
  }
  return words.join(' ');
}

/** Annotation flags (PDF 32000-1, 12.5.3) under which a viewer shows no link. */
const INVISIBLE = 1;
const NO_VIEW = 32;

/**
 * Sets the links (URI link annotations) of `pages`, in their pages' coordinates. Asked of the
 * document by type, not of each page: a page's getAnnotations() also extracts the text under every
 * link, which costs as much as the page's own text.
 */
async function readLinks(
  doc: PdfDocument,
  pages: { number: number; origin: [number, number]; links: Link[] }[],
  warnings: string[],
): Promise<void> {
  if (pages.length === 0) return;
  const wanted = new Set(pages.map((pg) => pg.number - 1));
  const skip = new Set<number>();
  for (let i = 0; i < doc.numPages; i++) if (!wanted.has(i)) skip.add(i);
  let annotations: RawAnnotation[];
  try {
    const { AnnotationType } = await getResolvedPDFJS();
    // null when the document has no catalogue to read annotations against.
    annotations = ((await doc.getAnnotationsByType(new Set([AnnotationType.LINK]), skip)) ??
      []) as RawAnnotation[];
  } catch {
    warnings.push(
      `The links of page${pages.length > 1 ? 's' : ''} ${pages.map((pg) => pg.number).join(', ')} cannot be read`,
    );
    return;
  }
  const byIndex = new Map(pages.map((pg) => [pg.number - 1, pg]));
  for (const a of annotations) {
    const pg = byIndex.get(a.pageIndex ?? -1);
    const url = a.url ?? a.unsafeUrl;
    const flags = a.annotationFlags ?? 0;
    // What a page's getAnnotations() leaves out as not viewable.
    const hidden = a.quadPoints === null || (flags !== 0 && (flags & (INVISIBLE | NO_VIEW)) !== 0);
    if (!pg || !url || !a.rect || hidden || isFileLink(url)) continue;
    const [x0, y0] = pg.origin;
    pg.links.push({ url, rect: [a.rect[0]! - x0, a.rect[1]! - y0, a.rect[2]! - x0, a.rect[3]! - y0] });
  }
}

/**
 * A link to another PDF file on disk (a GoToR action, read by pdf.js as the file's name and its
 * destination: "10.1101/571232.pdf#[0,{...}]" where hyperref's \href was given a DOI with no
 * "https://doi.org/"): no web address, and no DOI, though its name may hold one.
 */
function isFileLink(url: string): boolean {
  return !/^[a-z][a-z\d+.-]*:/i.test(url) && /\.pdf(?:#|$)/i.test(url);
}

function modeBy<T>(values: T[], weight: (v: T) => number, key: (v: T) => string): string | null {
  const totals = new Map<string, number>();
  for (const v of values) totals.set(key(v), (totals.get(key(v)) ?? 0) + weight(v));
  return [...totals.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/** A gap above a line, in line heights past single spacing, wider than which a paragraph ends. */
const PARAGRAPH_GAP = 0.45;
/** The body's own gap between lines from which the text is set double-spaced (1.5 lines and up). */
const DOUBLE_SPACED_GAP = 0.3;

/** Groups ordered lines into paragraphs by font, size, spacing and indentation. */
function linesToBlocks(lines: Line[]): Block[] {
  // Running text is what long lines are made of; tables and reference lists have short ones.
  const prose = lines.filter((l) => l.text.length >= 40);
  const sample = prose.length >= 5 ? prose : lines;
  const bodySize = Number(
    modeBy(
      sample,
      (l) => l.text.length,
      (l) => (Math.round(l.size * 2) / 2).toString(),
    ) ?? 10,
  );
  const bodyFont =
    modeBy(
      sample,
      (l) => l.text.length,
      (l) => l.font,
    ) ?? '';
  const leadGap = (prev: Line, line: Line) =>
    Math.max(0, (prev.y - line.y) / Math.max(prev.size, line.size) - 1.25);
  const inOneFlow = (prev: Line, line: Line) =>
    prev.page === line.page && prev.column === line.column && prev.y > line.y;
  // A manuscript set double-spaced (a journal's review copy: \baselineskip24pt, Word's "double")
  // has a wide gap between every two lines of a paragraph; only a gap wider than the body's own
  // parts two paragraphs. The body's gap is the one most lines of body text have above them.
  const body = (l: Line) => l.font === bodyFont && Math.abs(l.size - bodySize) <= 0.08 * bodySize;
  const bodyGap =
    Number(
      modeBy(
        lines.slice(1).flatMap((line, k) => {
          const prev = lines[k]!;
          return inOneFlow(prev, line) && body(prev) && body(line) && line.text.length >= 40
            ? [leadGap(prev, line)]
            : [];
        }),
        () => 1,
        (g) => (Math.round(g * 10) / 10).toString(),
      ) ?? 0,
    ) || 0;
  const doubleSpaced = bodyGap >= DOUBLE_SPACED_GAP;
  // A line at the body's spacing goes on the paragraph of the line over it when that line is set
  // as a paragraph's line before its last is: from the same left edge (or a first line's indent)
  // and across most of its column (text set ragged right, APA's manuscripts, included). Lines
  // centred one under the other (a title page's title, names, affiliations) are not, nor is a
  // paragraph's short last line (a byline's end over its note "* Corresponding author" on a Word
  // title page set from the left margin): they stay apart as they were.
  const columnRight = new Map<string, number>();
  for (const l of lines) {
    const key = `${l.page}:${l.column}`;
    columnRight.set(key, Math.max(columnRight.get(key) ?? 0, l.right));
  }
  const fillsColumn = (l: Line) => {
    const right = columnRight.get(`${l.page}:${l.column}`) ?? l.right;
    return l.right - l.columnLeft >= 0.8 * (right - l.columnLeft);
  };
  const runsOn = (prev: Line, line: Line, gap: number) =>
    doubleSpaced &&
    gap <= bodyGap + PARAGRAPH_GAP &&
    line.x <= prev.x + 0.3 * prev.size &&
    line.x >= prev.x - 4 * prev.size &&
    fillsColumn(prev);
  const blocks: Block[] = [];
  let current: { lines: Line[]; gaps: number[] } | null = null;
  const flush = () => {
    if (!current || current.lines.length === 0) return;
    const ls = current.lines;
    const size = Math.max(...ls.map((l) => l.size));
    const font =
      modeBy(
        ls,
        (l) => l.text.length,
        (l) => l.font,
      ) ?? '';
    blocks.push({
      text: joinLines(ls.map((l) => l.text)),
      relSize: size / bodySize,
      emphasis: font !== bodyFont,
      styleLevel: null,
      page: ls[0]!.page,
      // A line break inside a block is kept as "\n" in the runs: in a byline it separates names.
      runs: ls.flatMap((l, i) => (i === 0 ? l.runs : [{ text: '\n', sup: false }, ...l.runs])),
      links: [...new Set(ls.flatMap((l) => l.links))],
      lines: ls.map((l, i) => ({
        text: l.text,
        indent: (l.x - l.columnLeft) / bodySize,
        gapAbove: current!.gaps[i] ?? 0,
        links: l.links,
        // A block run on from one page to the next (an entry broken at the page's foot): the line
        // at the new page's top has no gap above it that means anything.
        ...(i > 0 && ls[i - 1]!.page !== l.page ? { pageTop: true } : {}),
        ...(l.cellTop !== undefined ? { cellTop: l.cellTop } : {}),
      })),
    });
    current = null;
  };
  let prev: Line | null = null;
  // The block so far ends inside a `{a, b,` list of email local parts.
  let groupOpen = false;
  // Lines from `k` on finish an open group: local parts only, the last of them closing it with its
  // host within a few lines. "{x in X such that" opens a set as readily, and is never closed so.
  const closesGroup = (k: number): boolean => {
    for (let j = k; j < Math.min(lines.length, k + 4) && lines[j]!.page === lines[k]!.page; j++) {
      if (!continuesEmailGroup(lines[j]!.text)) return false;
      if (lines[j]!.text.includes('}')) return true;
    }
    return false;
  };
  for (const [k, line] of lines.entries()) {
    let gap = 0;
    let breakHere = prev === null;
    if (prev) {
      const sameFlow = inOneFlow(prev, line);
      gap = sameFlow ? leadGap(prev, line) : 0;
      const sizeChange = Math.abs(line.size - prev.size) / Math.max(line.size, prev.size) > 0.08;
      const fontChange = line.font !== prev.font && (line.font !== bodyFont || prev.font !== bodyFont);
      const indentStart =
        line.x - line.columnLeft > 0.8 * line.size && prev.x - prev.columnLeft < 0.3 * prev.size;
      if (!sameFlow) {
        // A paragraph may run on into the next column or page; it ends where a sentence ends.
        breakHere =
          /[.!?:]$/.test(prev.text) ||
          sizeChange ||
          fontChange ||
          !/^[\p{Ll}(]/u.test(line.text) ||
          line.cellTop === true;
        gap = 0;
      } else {
        breakHere =
          sizeChange ||
          fontChange ||
          (gap > PARAGRAPH_GAP && !runsOn(prev, line, gap)) ||
          indentStart ||
          line.cellTop === true;
      }
    }
    // A `{a, b,` / `c}@host` list broken over lines is one address list: the lines stay in one
    // block, whose text then holds the whole group for the header's email reading.
    const inGroup: boolean = groupOpen && prev !== null && prev.page === line.page && closesGroup(k);
    if (breakHere && !inGroup) {
      flush();
      current = { lines: [], gaps: [] };
      groupOpen = false;
    }
    groupOpen = groupOpen ? inGroup && !line.text.includes('}') : opensEmailGroup(line.text);
    current!.lines.push(line);
    current!.gaps.push(gap);
    prev = line;
  }
  flush();
  return blocks;
}
