// DOCX to the shared document model. Word's own structure is read directly: paragraph styles
// (Title, headings, and their outline levels), bold and superscript runs, hyperlinks, footnotes and
// the core properties.
import type { ParsingLimits } from '../../infra/config.ts';
import type { Block, BlockLine, DocumentModel, Run } from '../types.ts';
import { isTitleStyle } from '../style-names.ts';
import { cleanText, closedLetterSpacing, findEmails, mailtoAddresses } from '../text-utils.ts';
import { attrValue, XmlScanner, type XmlHandler } from './xml-scan.ts';
import { openDocxParts, type ZipLimits, type ZipParts } from './zip.ts';

export class DocxReadError extends Error {
  constructor(
    readonly code: 'missing_part' | 'corrupt_file',
    message: string,
  ) {
    super(message);
  }
}

interface StyleInfo {
  level: number | null;
  name: string;
  /** Font size in points that the style gives its text, inherited through basedOn; null: none set. */
  size: number | null;
}

interface RawStyle {
  name: string;
  basedOn: string | null;
  outline: number | null;
  size: number | null;
  /** Paragraph styles only: a character or table style is never a paragraph's pStyle. */
  paragraph: boolean;
}

/**
 * Styles read from a styles part. Word's own parts define a few hundred (its latent styles are not
 * `w:style` elements); a part of 141,000 styles each based on the next took 3.4-4.1 s of CPU to
 * resolve, as each style's level and size are looked up along its basedOn chain.
 */
export const MAX_STYLES = 10_000;

/** What the styles part says beyond the styles themselves. */
interface StyleSheet {
  styles: Map<string, StyleInfo>;
  /** Styles past MAX_STYLES, not read. */
  ignored: number;
  /** The style a paragraph without pStyle has (w:default="1"). */
  defaultStyle: string | null;
  /** The document default run size (w:docDefaults), in points. */
  defaultSize: number | null;
}

/** Word's size when nothing sets one (ECMA-376 leaves it to the application; Word uses 10 pt). */
const WORD_DEFAULT_SIZE = 10;

/**
 * A w:sz value in points: half-points in transitional OOXML ("48"), a unit in strict ("24pt").
 * Anything else, or a size no text is set in, is no size.
 */
export function sizeInPoints(value: string | null): number | null {
  if (value === null) return null;
  const m = /^\s*(\d{1,5}(?:\.\d{1,4})?)\s*(pt)?\s*$/.exec(value);
  if (!m) return null;
  const points = m[2] ? Number(m[1]) : Number(m[1]) / 2;
  return points >= 1 && points <= 1638 ? points : null;
}

/** A name that holds "title" as part of something else ("Subtitle", "Table Title"). */
function namesOtherTitle(name: string): boolean {
  return /title/i.test(name) && !isTitleStyle(name);
}

/** Streams a part through the XML scanner; `more` says whether the reader still wants input. */
async function scanPart(
  zip: ZipParts,
  name: string,
  handler: XmlHandler,
  more: () => boolean = () => true,
): Promise<boolean> {
  const scanner = new XmlScanner(handler);
  const found = await zip.stream(name, (text) => {
    scanner.feed(text);
    return more();
  });
  if (found) scanner.end();
  return found;
}

async function readStyles(zip: ZipParts): Promise<StyleSheet | null> {
  const raw = new Map<string, RawStyle>();
  let current: (RawStyle & { id: string }) | null = null;
  let defaultStyle: string | null = null;
  let defaultSize: number | null = null;
  let inDefaults = false;
  // A size inside w:pPr (the paragraph mark's) is not the text's.
  let inPPr = false;
  let ignored = 0;
  const save = () => {
    if (current && (raw.size < MAX_STYLES || raw.has(current.id))) raw.set(current.id, current);
    else if (current) ignored++;
    current = null;
  };
  const found = await scanPart(zip, 'word/styles.xml', {
    open(tag, attrs, selfClosing) {
      if (tag === 'w:style') {
        // An unclosed style ends where the next one starts.
        save();
        inPPr = false;
        const id = attrValue(attrs, 'w:styleId');
        const type = attrValue(attrs, 'w:type');
        const paragraph = type === null || type === 'paragraph';
        if (id && !selfClosing) {
          current = { id, name: id, basedOn: null, outline: null, size: null, paragraph };
          const isDefault = attrValue(attrs, 'w:default');
          if (paragraph && (isDefault === '1' || isDefault === 'true') && defaultStyle === null)
            defaultStyle = id;
        }
      } else if (tag === 'w:docDefaults') inDefaults = !selfClosing;
      else if (tag === 'w:pPr') inPPr = !selfClosing;
      else if (tag === 'w:sz' && !inPPr) {
        if (current) current.size = sizeInPoints(attrValue(attrs, 'w:val'));
        else if (inDefaults) defaultSize = sizeInPoints(attrValue(attrs, 'w:val'));
      } else if (current && tag === 'w:name') current.name = attrValue(attrs, 'w:val') ?? current.id;
      else if (current && tag === 'w:basedOn') current.basedOn = attrValue(attrs, 'w:val');
      else if (current && tag === 'w:outlineLvl') {
        const v = attrValue(attrs, 'w:val');
        current.outline = v === null ? null : Number(v);
      }
    },
    close(tag) {
      if (tag === 'w:style') save();
      else if (tag === 'w:docDefaults') inDefaults = false;
      else if (tag === 'w:pPr') inPPr = false;
    },
    text() {},
  });
  if (!found) return null;
  save();
  const levels = new Map<string, number | null>();
  const levelOf = (id: string, depth = 0): number | null => {
    const s = raw.get(id);
    if (!s || depth > 10) return null;
    const known = levels.get(id);
    if (known !== undefined) return known;
    // Built-in style names are stable English identifiers whatever the display language; a
    // template's own title style has a name of its own ("paper title"), with no outline level.
    const name = s.name.toLowerCase();
    const heading = /^heading (\d)$/.exec(name);
    const inherited = s.basedOn ? levelOf(s.basedOn, depth + 1) : null;
    const level = isTitleStyle(s.name, id)
      ? 0
      : heading
        ? Number(heading[1])
        : s.outline !== null && s.outline < 9
          ? s.outline + 1
          : // A "Subtitle" based on the title style sets a different line than the title.
            inherited === 0 && namesOtherTitle(s.name)
            ? null
            : inherited;
    if (depth === 0) levels.set(id, level);
    return level;
  };
  const sizeOf = (id: string): number | null => {
    // basedOn chains are short; a loop in them (hostile or broken files) ends at the bound.
    let s = raw.get(id);
    for (let depth = 0; s && depth <= 10; depth++) {
      if (s.size !== null) return s.size;
      s = s.basedOn ? raw.get(s.basedOn) : undefined;
    }
    return null;
  };
  const styles = new Map<string, StyleInfo>();
  for (const [id, s] of raw) {
    if (s.paragraph) styles.set(id, { level: levelOf(id), name: s.name, size: sizeOf(id) });
  }
  return { styles, ignored, defaultStyle, defaultSize };
}

async function readRels(zip: ZipParts): Promise<Map<string, string>> {
  const rels = new Map<string, string>();
  await scanPart(zip, 'word/_rels/document.xml.rels', {
    open(tag, attrs) {
      if (tag !== 'Relationship') return;
      const id = attrValue(attrs, 'Id');
      const target = attrValue(attrs, 'Target');
      if (id && target) rels.set(id, target);
    },
    close() {},
    text() {},
  });
  return rels;
}

/** Longest core property kept (a title, the keywords, the authors): more is not metadata. */
const MAX_CORE_VALUE = 10_000;
const CORE_TAGS = ['dc:title', 'cp:keywords', 'dc:creator'] as const;

async function readCore(zip: ZipParts): Promise<Record<(typeof CORE_TAGS)[number], string | null>> {
  const values: Record<string, string> = {};
  let inside: string | null = null;
  await scanPart(zip, 'docProps/core.xml', {
    open(tag, _attrs, selfClosing) {
      if (!selfClosing && (CORE_TAGS as readonly string[]).includes(tag)) inside = tag;
    },
    close(tag) {
      if (tag === inside) inside = null;
    },
    text(text) {
      if (inside && (values[inside] ?? '').length < MAX_CORE_VALUE)
        values[inside] = (values[inside] ?? '') + text;
    },
  });
  const value = (tag: string) => cleanText((values[tag] ?? '').slice(0, MAX_CORE_VALUE)) || null;
  return {
    'dc:title': value('dc:title'),
    'cp:keywords': value('cp:keywords'),
    'dc:creator': value('dc:creator'),
  };
}

/**
 * Paragraphs open at once. Word nests them only through text boxes and table cells, a few deep;
 * millions of unclosed `<w:p>` would otherwise each hold an object until the part ends.
 */
export const MAX_OPEN_PARAGRAPHS = 64;

interface Paragraph {
  style: string | null;
  outline: number | null;
  segments: {
    text: string;
    bold: boolean;
    sup: boolean;
    link: string | null;
    br: boolean;
    /** The run's own size in points (w:sz), null where the style's applies. */
    size: number | null;
  }[];
  /**
   * The paragraph's own tab stops (w:tabs in its w:pPr): where each stands and whether a line of
   * dots leads to it; and how many tabs its text has used.
   */
  stops?: { pos: number; dots: boolean }[];
  tabsUsed?: number;
  /**
   * The paragraph's mark is a tracked deletion (w:pPr/w:rPr/w:del, or w:moveFrom for a mark moved
   * away): accepted, the paragraph runs on into the next one.
   */
  markRemoved?: boolean;
}

/**
 * A revision's record of the properties a paragraph, a run, a section or a table had before it was
 * changed (Word's tracked formatting): the old properties, none of the text's now. A title restyled
 * from a heading keeps the heading's pStyle inside its w:pPrChange, after the Title style it has.
 */
const FORMER_PROPERTIES = new Set([
  'w:pPrChange',
  'w:rPrChange',
  'w:sectPrChange',
  'w:tblPrChange',
  'w:tblPrExChange',
  'w:trPrChange',
  'w:tcPrChange',
  'w:tblGridChange',
  'w:numberingChange',
]);

/**
 * A revision's removed content: text deleted (w:del; Word writes its text as w:delText, which is
 * never read, but its tabs and breaks are runs' too) or moved away (w:moveFrom, whose text Word
 * writes as w:t, the moved text read again where w:moveTo puts it). A document is read as its
 * revisions stand accepted: what was inserted (w:ins) or moved there (w:moveTo) is read as text.
 */
const REMOVED_CONTENT = new Set(['w:del', 'w:moveFrom']);

/**
 * A tab set in the text: to a stop that draws a leader of dots, the dots it prints; else a tab,
 * which the paragraph's text reads as a space and its runs keep: a title page that sets two names
 * side by side on one line, a tab between them ("Jane Roe<tab>John Doe"), gives the byline's
 * reader two names, as a PDF's wide gap between them does.
 */
function tabText(p: Paragraph): string {
  const stops = [...(p.stops ?? [])].sort((a, b) => a.pos - b.pos);
  const stop = stops[p.tabsUsed ?? 0];
  p.tabsUsed = (p.tabsUsed ?? 0) + 1;
  return stop?.dots ? ' ........ ' : '\t';
}

/**
 * A walk over WordprocessingML with just enough state to know run formatting and links. Each
 * paragraph goes to `onParagraph` as it closes, so nothing of the part is held but the open
 * paragraphs. Every segment costs at least one unit of `budget`; past it the walk stops taking text.
 */
function paragraphReader(
  rels: Map<string, string>,
  budget: number,
  onParagraph: (p: Paragraph) => void,
): XmlHandler & { spent: () => number; finish: () => void } {
  const stack: Paragraph[] = [];
  // Inside a revision's removed content, or inside a record of former properties (depths).
  let removed = 0;
  let former = 0;
  // A paragraph whose mark was deleted, waiting for the paragraph it runs into (at its depth).
  let carried: { p: Paragraph; depth: number } | null = null;
  const flushCarried = () => {
    if (carried) onParagraph(carried.p);
    carried = null;
  };
  let inText = false;
  let inRPr = false;
  let inPPr = false;
  let bold = false;
  let sup = false;
  let size: number | null = null;
  let link: string | null = null;
  let spent = 0;
  // A text box or a shape is written twice (mc:AlternateContent): as DrawingML (mc:Choice) and as
  // VML for older readers (mc:Fallback). The fallback's copy is skipped, or a cover built of text
  // boxes reads each line twice. `fallbackParagraphs` counts its open paragraphs.
  let inFallback = 0;
  let fallbackParagraphs = 0;
  const push = (p: Paragraph, segment: Paragraph['segments'][number]) => {
    if (removed > 0) return;
    spent += Math.max(1, segment.text.length);
    if (spent <= budget) p.segments.push(segment);
  };
  return {
    spent: () => spent,
    finish: flushCarried,
    text(text) {
      const p = stack[stack.length - 1];
      if (inText && p && inFallback === 0) push(p, { text, bold, sup, link, br: false, size });
    },
    close(tag) {
      if (FORMER_PROPERTIES.has(tag)) former = Math.max(0, former - 1);
      else if (former > 0) return;
      else if (tag === 'mc:Fallback') inFallback = Math.max(0, inFallback - 1);
      else if (tag === 'w:p' && fallbackParagraphs > 0) fallbackParagraphs--;
      else if (tag === 'w:p') {
        const done = stack.pop();
        if (done?.markRemoved) {
          // Its text runs on into the next paragraph at its depth: one waiting already goes first.
          if (carried) done.segments.unshift(...carried.p.segments);
          carried = { p: done, depth: stack.length };
        } else if (done) {
          if (carried && carried.depth > stack.length) flushCarried();
          onParagraph(done);
        }
      } else if (REMOVED_CONTENT.has(tag) && !inPPr) removed = Math.max(0, removed - 1);
      else if (tag === 'w:t') inText = false;
      else if (tag === 'w:rPr') inRPr = false;
      else if (tag === 'w:pPr') inPPr = false;
      else if (tag === 'w:hyperlink') link = null;
    },
    open(tag, attrs, selfClose) {
      if (FORMER_PROPERTIES.has(tag)) {
        if (!selfClose) former++;
        return;
      }
      if (former > 0) return;
      if (tag === 'mc:Fallback' && !selfClose) inFallback++;
      if (inFallback > 0) {
        if (tag === 'w:p' && !selfClose) fallbackParagraphs++;
        return;
      }
      const p = stack[stack.length - 1];
      switch (tag) {
        case 'w:p':
          if (!selfClose && stack.length < MAX_OPEN_PARAGRAPHS) {
            // The text of a paragraph whose mark was deleted opens this one, which keeps its own
            // properties (the mark left, this paragraph's, holds them).
            const before = carried?.depth === stack.length ? carried.p.segments : [];
            if (carried?.depth === stack.length) carried = null;
            stack.push({ style: null, outline: null, segments: [...before] });
          }
          break;
        case 'w:del':
        case 'w:moveFrom':
          // In a paragraph mark's properties, the mark's own revision; elsewhere, removed content.
          if (inPPr && inRPr && p) p.markRemoved = true;
          else if (!inPPr && !selfClose) removed++;
          break;
        case 'w:r':
          bold = false;
          sup = false;
          size = null;
          break;
        case 'w:t':
          inText = !selfClose;
          break;
        case 'w:rPr':
          inRPr = !selfClose;
          break;
        case 'w:pPr':
          inPPr = !selfClose;
          break;
        case 'w:b':
          if (inRPr && !inPPr) {
            const v = attrValue(attrs, 'w:val');
            bold = v !== 'false' && v !== '0';
          }
          break;
        case 'w:sz':
          // The paragraph mark's size (inside w:pPr) is not its text's.
          if (inRPr && !inPPr) size = sizeInPoints(attrValue(attrs, 'w:val'));
          break;
        case 'w:vertAlign':
          if (inRPr) sup = attrValue(attrs, 'w:val') === 'superscript';
          break;
        case 'w:pStyle':
          if (p) p.style = attrValue(attrs, 'w:val');
          break;
        case 'w:outlineLvl':
          if (p && inPPr) p.outline = Number(attrValue(attrs, 'w:val'));
          break;
        case 'w:tab':
          // In the paragraph's properties a tab stop (a table of contents typed by hand formatting
          // sets its page numbers at a right stop led to by dots); in the text a tab to the next stop.
          if (p && inPPr) {
            const leader = attrValue(attrs, 'w:leader');
            (p.stops ??= []).push({
              pos: Number(attrValue(attrs, 'w:pos')) || 0,
              dots: leader === 'dot' || leader === 'middleDot',
            });
          } else if (p) push(p, { text: tabText(p), bold, sup: false, link, br: false, size });
          break;
        case 'w:br':
        case 'w:cr':
          if (p) push(p, { text: '', bold, sup: false, link: null, br: true, size });
          break;
        case 'w:hyperlink': {
          const id = attrValue(attrs, 'r:id');
          link = id ? (rels.get(id) ?? null) : null;
          break;
        }
        default:
          break;
      }
    },
  };
}

/** Marks after a name: digits, commas and the footnote symbols, nothing else. */
const MARKS_ONLY = /^[\s\d,*∗†‡§¶]+$/u;

/**
 * A PDF turned into Word (a converter's output) keeps superscripts as runs in small type, not as
 * superscript: a run of marks alone ("*", "1,2") set in three quarters or less of the size of the
 * words before it, right after a letter or another such run, is marked superscript, as the PDF
 * shows it (the byline's names are then cut at their marks).
 */
function loweredMarksAsSuperscript(segments: Paragraph['segments'], base: number): void {
  let before: { size: number; last: string } | null = null;
  for (const s of segments) {
    if (s.br || !s.text.trim()) continue;
    const size = s.size ?? base;
    if (
      !s.sup &&
      before !== null &&
      MARKS_ONLY.test(s.text) &&
      size <= 0.75 * before.size &&
      /[\p{L}.*∗†‡§¶\d,]$/u.test(before.last)
    ) {
      s.sup = true;
      before = { size: before.size, last: s.text.trimEnd() };
      continue;
    }
    before = s.sup ? before : { size, last: s.text.trimEnd() };
  }
}

/**
 * A line-numbered PDF turned into Word keeps the margin's numbers, in type smaller than the text's:
 * as paragraphs of their own between the lines ("512", a reference's first line, "513", its
 * second) or as a run that opens a line's paragraph ("531" then "6. R. Kodzius, ..."). Five or
 * more such numbers, each one more than the one before and no more than three paragraphs after
 * it, are the margin's: the paragraphs are dropped, the runs cut. A table's column of numbers is
 * set in the text's size, and stays.
 */
function dropLineNumbers(sized: SizedBlock[]): SizedBlock[] {
  const numbered = sized.flatMap((s, i) =>
    s.lineNumber !== undefined
      ? [{ i, n: s.lineNumber }]
      : /^\d{1,5}$/.test(s.block.text) && s.block.relSize <= 0.8
        ? [{ i, n: Number(s.block.text) }]
        : [],
  );
  const margin = new Set<number>();
  let run: number[] = [];
  const close = () => {
    if (run.length >= 5) for (const i of run) margin.add(i);
  };
  for (let k = 0; k < numbered.length; k++) {
    const prev = numbered[k - 1];
    const cur = numbered[k]!;
    if (prev && cur.n === prev.n + 1 && cur.i - prev.i <= 4) run.push(cur.i);
    else {
      close();
      run = [cur.i];
    }
  }
  close();
  if (margin.size === 0) return sized;
  return sized.flatMap((s, i) => {
    if (!margin.has(i)) return [s];
    if (s.unnumbered === undefined) return [];
    return s.unnumbered
      ? [{ ...s.unnumbered, block: { ...s.unnumbered.block, relSize: s.block.relSize } }]
      : [];
  });
}

/**
 * The number a line's paragraph opens with in type three quarters or less the size of the text
 * after it (a converted PDF's margin line number run into the line), and the paragraph without it.
 */
function leadingLineNumber(p: Paragraph, base: number): { n: number; rest: Paragraph } | null {
  const k = p.segments.findIndex((s) => s.br || s.text.trim() !== '');
  const first = p.segments[k];
  const next = p.segments.slice(k + 1).find((s) => !s.br && s.text.trim() !== '');
  if (!first || first.br || !next || !/^\s*\d{1,5}\s*$/.test(first.text)) return null;
  if ((first.size ?? base) > 0.75 * (next.size ?? base)) return null;
  return { n: Number(first.text.trim()), rest: { ...p, segments: p.segments.slice(k + 1) } };
}

/** A paragraph read into a block, with the largest size its text is set in (points). */
interface SizedBlock {
  block: Block;
  size: number;
  /** The margin's line number the paragraph opens with, if it may be one (leadingLineNumber). */
  lineNumber?: number;
  /** The paragraph read without that number (null: nothing is left). */
  unnumbered?: SizedBlock | null;
}

/**
 * The paragraph as a block. One that opens with what may be a margin's line number is read both
 * with and without it (`unnumbered`): whether it is one is told by its neighbours (dropLineNumbers).
 */
function toBlock(p: Paragraph, sheet: StyleSheet, lookForLineNumber = true): SizedBlock | null {
  const { styles } = sheet;
  const styleId = p.style ?? sheet.defaultStyle;
  const style = styleId ? styles.get(styleId) : undefined;
  const level = p.outline !== null && p.outline < 9 ? p.outline + 1 : (style?.level ?? null);
  const runs: Run[] = [];
  const lines: BlockLine[] = [];
  const links = new Set<string>();
  // Segments become "lines" at breaks and where bold or a hyperlink starts or stops: a name in bold
  // followed by linked identifiers reads like the separate lines a PDF would show.
  let line = '';
  let lastKey = '';
  const pushLine = () => {
    const t = cleanText(line);
    if (t) lines.push({ text: t, indent: 0, gapAbove: lines.length === 0 ? 1 : 0 });
    line = '';
  };
  // The text each link is printed on: a mailto link whose text prints another address is stale.
  const linkTexts = new Map<string, string>();
  const base = style?.size ?? sheet.defaultSize ?? WORD_DEFAULT_SIZE;
  const numbered = lookForLineNumber ? leadingLineNumber(p, base) : null;
  if (numbered) {
    const whole = toBlock(p, sheet, false);
    return whole && { ...whole, lineNumber: numbered.n, unnumbered: toBlock(numbered.rest, sheet, false) };
  }
  loweredMarksAsSuperscript(p.segments, base);
  for (const s of p.segments) {
    if (s.link) {
      links.add(s.link);
      linkTexts.set(s.link, (linkTexts.get(s.link) ?? '') + s.text);
    }
    if (s.br) {
      pushLine();
      runs.push({ text: ' ', sup: false });
      continue;
    }
    const key = `${s.bold}|${s.link ?? ''}`;
    if (s.text.trim() && key !== lastKey) {
      pushLine();
      lastKey = key;
    }
    line += s.text;
    const last = runs[runs.length - 1];
    if (last && last.sup === s.sup) last.text += s.text;
    else runs.push({ text: s.text, sup: s.sup });
  }
  pushLine();
  const raw = runs.map((r) => r.text).join('');
  // A line typed letter-spaced (a cover's name) is read as its words: spaces collapsed, its letters
  // would read as initials.
  const closed = closedLetterSpacing(raw);
  if (closed !== null) {
    runs.splice(0, runs.length, { text: closed, sup: false });
    lines.splice(0, lines.length, { text: closed, indent: 0, gapAbove: 1 });
  }
  const text = cleanText(closed ?? raw);
  if (!text) return null;
  const boldChars = p.segments.filter((s) => s.bold).reduce((n, s) => n + s.text.trim().length, 0);
  // The largest type the paragraph's own text is set in (superscript marks left out): a title
  // typed in a large size on a paragraph without a title style still reads as the largest type.
  // A loop, not Math.max(...spread): a paragraph may hold more runs than a call takes arguments.
  let size = 0;
  for (const s of p.segments) if (!s.sup && s.text.trim()) size = Math.max(size, s.size ?? base);
  const block: Block = {
    text,
    // Set from the document's body size once every paragraph is read (see readDocx).
    relSize: level === 0 ? 2 : level !== null ? 1.3 : 1,
    emphasis: level !== null || boldChars >= 0.8 * text.replace(/\s/g, '').length,
    styleLevel: level,
    styleName: style?.name ?? null,
    page: 1,
    runs: runs.map((r) => ({
      text: r.text.replace(/\s+/g, (w) => (w.includes('\t') ? '\t' : ' ')),
      sup: r.sup,
    })),
    links: [...links].filter((l) => !staleMailto(l, linkTexts.get(l) ?? '')),
    lines,
  };
  return { block, size: size || base };
}

/**
 * Sizes relative to the body's: the size most of the text is set in. A style's level keeps its
 * old floor (a title style reads at least twice the body, a heading 1.3 times), so a heading set
 * in the body's size (IEEE sets them in small capitals) still stands above the text.
 */
function setRelativeSizes(sized: SizedBlock[]): void {
  const chars = new Map<number, number>();
  for (const { block, size } of sized) {
    const key = Math.round(size * 2) / 2;
    chars.set(key, (chars.get(key) ?? 0) + block.text.length);
  }
  const body = [...chars.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0];
  if (!body) return;
  for (const { block, size } of sized) {
    const rel = Math.round((size / body) * 100) / 100;
    const floor = block.styleLevel === 0 ? 2 : block.styleLevel !== null ? 1.3 : 0;
    block.relSize = Math.max(floor, rel);
  }
}

/**
 * A mailto link printed on another address ("khalid@x.org" linked to mailto:khalid@y.org: a link
 * Word made from an address typed before, the text retyped since): the printed address is the
 * author's, the link's is stale and no address of theirs the document shows.
 */
function staleMailto(link: string, printed: string): boolean {
  const target = mailtoAddresses([link])[0]?.toLowerCase();
  if (target === undefined) return false;
  const shown = findEmails(printed).map((e) => e.toLowerCase());
  return shown.length > 0 && !shown.includes(target);
}

export function docxLimits(limits: ParsingLimits): ZipLimits {
  return {
    maxDeclaredBytes: limits.maxDocxUncompressedBytes,
    maxPartBytes: limits.maxDocxPartBytes,
    maxInflatedBytes: limits.maxInflatedBytes,
  };
}

export async function readDocx(bytes: Uint8Array, limits: ParsingLimits): Promise<DocumentModel> {
  const zip = await openDocxParts(bytes, docxLimits(limits));
  const warnings: string[] = [];
  try {
    if (!zip.entries.includes('word/document.xml')) {
      throw new DocxReadError('missing_part', 'The DOCX has no word/document.xml: it is not a Word document');
    }
    // Parts are read one after another: the limit on inflated bytes counts them in a known order.
    const sheet: StyleSheet = (await readStyles(zip)) ?? {
      styles: new Map<string, StyleInfo>(),
      ignored: 0,
      defaultStyle: null,
      defaultSize: null,
    };
    if (!zip.entries.includes('word/styles.xml'))
      warnings.push('The DOCX has no styles part; headings are read from formatting only');
    if (sheet.ignored > 0)
      warnings.push(
        `The styles part defines ${MAX_STYLES + sheet.ignored} styles; the first ${MAX_STYLES} were read`,
      );
    const rels = await readRels(zip);
    const blocks: Block[] = [];
    const sized: SizedBlock[] = [];
    let chars = 0;
    let full = false;
    const body = paragraphReader(rels, limits.maxChars, (p) => {
      if (full) return;
      const read = toBlock(p, sheet);
      if (!read) return;
      chars += read.block.text.length;
      if (chars > limits.maxChars) full = true;
      else {
        blocks.push(read.block);
        sized.push(read);
      }
    });
    // Once the text limit is passed the rest of the body is neither inflated nor read.
    await scanPart(zip, 'word/document.xml', body, () => !full && body.spent() <= limits.maxChars);
    body.finish();
    setRelativeSizes(sized);
    const kept = dropLineNumbers(sized);
    if (kept !== sized) blocks.splice(0, blocks.length, ...kept.map((k) => k.block));
    if (full || body.spent() > limits.maxChars)
      warnings.push(`The text passed ${limits.maxChars} characters; the rest was not read`);
    const notes: string[] = [];
    for (const part of ['word/footnotes.xml', 'word/endnotes.xml']) {
      const reader = paragraphReader(new Map(), limits.maxChars, (p) => {
        const text = cleanText(p.segments.map((s) => s.text).join(''));
        if (text) notes.push(text);
      });
      await scanPart(zip, part, reader, () => reader.spent() <= limits.maxChars);
      reader.finish();
    }
    const core = await readCore(zip);
    const keywords = core['cp:keywords'];
    const creator = core['dc:creator'];
    return {
      format: 'docx',
      blocks,
      pages: null,
      declared: {
        title: core['dc:title'],
        keywords: keywords
          ? keywords
              .split(/[;,]/)
              .map((k) => k.trim())
              .filter(Boolean)
          : [],
        authors: creator
          ? creator
              .split(/;/)
              .map((a) => a.trim())
              .filter(Boolean)
          : [],
      },
      notes,
      warnings,
    };
  } finally {
    zip.close();
  }
}
