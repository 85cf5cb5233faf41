// DOCX to the shared document model. Word's own structure is read directly: paragraph styles
// (Title, headings, and their outline levels), bold and superscript runs, hyperlinks, footnotes and
// the core properties.
import type { ParsingLimits } from '../../infra/config.ts';
import type { Block, BlockLine, DocumentModel, Run } from '../types.ts';
import { cleanText } from '../text-utils.ts';
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
}

interface RawStyle {
  name: string;
  basedOn: string | null;
  outline: number | null;
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

async function readStyles(zip: ZipParts): Promise<Map<string, StyleInfo> | null> {
  const raw = new Map<string, RawStyle>();
  let current: (RawStyle & { id: string }) | null = null;
  const save = () => {
    if (current) raw.set(current.id, current);
    current = null;
  };
  const found = await scanPart(zip, 'word/styles.xml', {
    open(tag, attrs, selfClosing) {
      if (tag === 'w:style') {
        // An unclosed style ends where the next one starts.
        save();
        const id = attrValue(attrs, 'w:styleId');
        if (id && !selfClosing) current = { id, name: id, basedOn: null, outline: null };
      } else if (current && tag === 'w:name') current.name = attrValue(attrs, 'w:val') ?? current.id;
      else if (current && tag === 'w:basedOn') current.basedOn = attrValue(attrs, 'w:val');
      else if (current && tag === 'w:outlineLvl') {
        const v = attrValue(attrs, 'w:val');
        current.outline = v === null ? null : Number(v);
      }
    },
    close(tag) {
      if (tag === 'w:style') save();
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
    // Built-in style names are stable English identifiers whatever the display language.
    const name = s.name.toLowerCase();
    const heading = /^heading (\d)$/.exec(name);
    const level =
      name === 'title'
        ? 0
        : heading
          ? Number(heading[1])
          : s.outline !== null && s.outline < 9
            ? s.outline + 1
            : s.basedOn
              ? levelOf(s.basedOn, depth + 1)
              : null;
    if (depth === 0) levels.set(id, level);
    return level;
  };
  const styles = new Map<string, StyleInfo>();
  for (const [id, s] of raw) styles.set(id, { level: levelOf(id), name: s.name });
  return styles;
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
  segments: { text: string; bold: boolean; sup: boolean; link: string | null; br: boolean }[];
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
): XmlHandler & { spent: () => number } {
  const stack: Paragraph[] = [];
  let inText = false;
  let inRPr = false;
  let inPPr = false;
  let bold = false;
  let sup = false;
  let link: string | null = null;
  let spent = 0;
  const push = (p: Paragraph, segment: Paragraph['segments'][number]) => {
    spent += Math.max(1, segment.text.length);
    if (spent <= budget) p.segments.push(segment);
  };
  return {
    spent: () => spent,
    text(text) {
      const p = stack[stack.length - 1];
      if (inText && p) push(p, { text, bold, sup, link, br: false });
    },
    close(tag) {
      if (tag === 'w:p') {
        const done = stack.pop();
        if (done) onParagraph(done);
      } else if (tag === 'w:t') inText = false;
      else if (tag === 'w:rPr') inRPr = false;
      else if (tag === 'w:pPr') inPPr = false;
      else if (tag === 'w:hyperlink') link = null;
    },
    open(tag, attrs, selfClose) {
      const p = stack[stack.length - 1];
      switch (tag) {
        case 'w:p':
          if (!selfClose && stack.length < MAX_OPEN_PARAGRAPHS)
            stack.push({ style: null, outline: null, segments: [] });
          break;
        case 'w:r':
          bold = false;
          sup = false;
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
          if (p && !inPPr) push(p, { text: ' ', bold, sup: false, link, br: false });
          break;
        case 'w:br':
        case 'w:cr':
          if (p) push(p, { text: '', bold, sup: false, link: null, br: true });
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

function toBlock(p: Paragraph, styles: Map<string, StyleInfo>): Block | null {
  const style = p.style ? styles.get(p.style) : undefined;
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
  for (const s of p.segments) {
    if (s.link) links.add(s.link);
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
  const text = cleanText(runs.map((r) => r.text).join(''));
  if (!text) return null;
  const boldChars = p.segments.filter((s) => s.bold).reduce((n, s) => n + s.text.trim().length, 0);
  return {
    text,
    relSize: level === 0 ? 2 : level !== null ? 1.3 : 1,
    emphasis: level !== null || boldChars >= 0.8 * text.replace(/\s/g, '').length,
    styleLevel: level,
    styleName: style?.name ?? null,
    page: 1,
    runs: runs.map((r) => ({ text: r.text.replace(/\s+/g, ' '), sup: r.sup })),
    links: [...links],
    lines,
  };
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
    const styles = (await readStyles(zip)) ?? new Map<string, StyleInfo>();
    if (!zip.entries.includes('word/styles.xml'))
      warnings.push('The DOCX has no styles part; headings are read from formatting only');
    const rels = await readRels(zip);
    const blocks: Block[] = [];
    let chars = 0;
    let full = false;
    const body = paragraphReader(rels, limits.maxChars, (p) => {
      if (full) return;
      const block = toBlock(p, styles);
      if (!block) return;
      chars += block.text.length;
      if (chars > limits.maxChars) full = true;
      else blocks.push(block);
    });
    // Once the text limit is passed the rest of the body is neither inflated nor read.
    await scanPart(zip, 'word/document.xml', body, () => !full && body.spent() <= limits.maxChars);
    if (full || body.spent() > limits.maxChars)
      warnings.push(`The text passed ${limits.maxChars} characters; the rest was not read`);
    const notes: string[] = [];
    for (const part of ['word/footnotes.xml', 'word/endnotes.xml']) {
      const reader = paragraphReader(new Map(), limits.maxChars, (p) => {
        const text = cleanText(p.segments.map((s) => s.text).join(''));
        if (text) notes.push(text);
      });
      await scanPart(zip, part, reader, () => reader.spent() <= limits.maxChars);
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
