// DOCX to the shared document model. Word's own structure is read directly: paragraph styles
// (Title, headings, and their outline levels), bold and superscript runs, hyperlinks, footnotes and
// the core properties.
import type { ParsingLimits } from '../../infra/config.ts';
import type { Block, BlockLine, DocumentModel, Run } from '../types.ts';
import { cleanText } from '../text-utils.ts';
import { openDocxParts } from './zip.ts';

export class DocxReadError extends Error {
  constructor(
    readonly code: 'missing_part' | 'corrupt_file',
    message: string,
  ) {
    super(message);
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

function attr(attrs: string, name: string): string | null {
  const m = new RegExp(`\\b${name}="([^"]*)"`).exec(attrs);
  return m ? decode(m[1] ?? '') : null;
}

interface StyleInfo {
  level: number | null;
  name: string;
}

function readStyles(xml: string | null): Map<string, StyleInfo> {
  const styles = new Map<string, StyleInfo>();
  if (!xml) return styles;
  const raw = new Map<string, { name: string; basedOn: string | null; outline: number | null }>();
  for (const m of xml.matchAll(/<w:style\b([^>]*)>([\s\S]*?)<\/w:style>/g)) {
    const id = attr(m[1] ?? '', 'w:styleId');
    if (!id) continue;
    const body = m[2] ?? '';
    const name = attr(/<w:name\b([^>]*)\/?>/.exec(body)?.[1] ?? '', 'w:val') ?? id;
    const basedOn = attr(/<w:basedOn\b([^>]*)\/?>/.exec(body)?.[1] ?? '', 'w:val');
    const outlineRaw = attr(/<w:outlineLvl\b([^>]*)\/?>/.exec(body)?.[1] ?? '', 'w:val');
    raw.set(id, { name, basedOn, outline: outlineRaw === null ? null : Number(outlineRaw) });
  }
  const levelOf = (id: string, depth = 0): number | null => {
    const s = raw.get(id);
    if (!s || depth > 10) return null;
    // Built-in style names are stable English identifiers whatever the display language.
    const name = s.name.toLowerCase();
    if (name === 'title') return 0;
    const heading = /^heading (\d)$/.exec(name);
    if (heading) return Number(heading[1]);
    if (s.outline !== null && s.outline < 9) return s.outline + 1;
    return s.basedOn ? levelOf(s.basedOn, depth + 1) : null;
  };
  for (const [id, s] of raw) styles.set(id, { level: levelOf(id), name: s.name });
  return styles;
}

function readRels(xml: string | null): Map<string, string> {
  const rels = new Map<string, string>();
  if (!xml) return rels;
  for (const m of xml.matchAll(/<Relationship\b([^>]*)\/?>/g)) {
    const id = attr(m[1] ?? '', 'Id');
    const target = attr(m[1] ?? '', 'Target');
    if (id && target) rels.set(id, target);
  }
  return rels;
}

interface Paragraph {
  style: string | null;
  outline: number | null;
  segments: { text: string; bold: boolean; sup: boolean; link: string | null; br: boolean }[];
}

const TOKEN =
  /<(\/?)(w:p|w:r|w:t|w:tab|w:br|w:cr|w:pStyle|w:outlineLvl|w:vertAlign|w:b|w:hyperlink|w:rPr|w:pPr|w:instrText|w:delText)\b([^>]*?)(\/?)>|([^<]+)|<[^>]*>/g;

/** A small streaming walk over WordprocessingML: enough state to know run formatting and links. */
function readParagraphs(xml: string, rels: Map<string, string>): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  const stack: Paragraph[] = [];
  let inText = false;
  let inRPr = false;
  let inPPr = false;
  let bold = false;
  let sup = false;
  let link: string | null = null;
  for (const m of xml.matchAll(TOKEN)) {
    const [, close, tag, attrs = '', selfClose, text] = m;
    const p = stack[stack.length - 1];
    if (text !== undefined) {
      if (inText && p) p.segments.push({ text: decode(text), bold, sup, link, br: false });
      continue;
    }
    if (!tag) continue;
    if (close) {
      if (tag === 'w:p') {
        const done = stack.pop();
        if (done) paragraphs.push(done);
      } else if (tag === 'w:t') inText = false;
      else if (tag === 'w:rPr') inRPr = false;
      else if (tag === 'w:pPr') inPPr = false;
      else if (tag === 'w:hyperlink') link = null;
      continue;
    }
    switch (tag) {
      case 'w:p':
        if (!selfClose) stack.push({ style: null, outline: null, segments: [] });
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
        if (inRPr && !inPPr) bold = attr(attrs, 'w:val') !== 'false' && attr(attrs, 'w:val') !== '0';
        break;
      case 'w:vertAlign':
        if (inRPr) sup = attr(attrs, 'w:val') === 'superscript';
        break;
      case 'w:pStyle':
        if (p) p.style = attr(attrs, 'w:val');
        break;
      case 'w:outlineLvl':
        if (p && inPPr) p.outline = Number(attr(attrs, 'w:val'));
        break;
      case 'w:tab':
        if (p && !inPPr) p.segments.push({ text: ' ', bold, sup: false, link, br: false });
        break;
      case 'w:br':
      case 'w:cr':
        if (p) p.segments.push({ text: '', bold, sup: false, link: null, br: true });
        break;
      case 'w:hyperlink': {
        const id = attr(attrs, 'r:id');
        link = id ? (rels.get(id) ?? null) : null;
        break;
      }
      default:
        break;
    }
  }
  return paragraphs;
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

function coreValue(xml: string | null, tag: string): string | null {
  if (!xml) return null;
  const m = new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`).exec(xml);
  const v = m ? cleanText(decode(m[1] ?? '')) : '';
  return v || null;
}

export async function readDocx(bytes: Uint8Array, limits: ParsingLimits): Promise<DocumentModel> {
  const zip = await openDocxParts(bytes, limits.maxDocxUncompressedBytes);
  const warnings: string[] = [];
  try {
    const documentXml = await zip.read('word/document.xml');
    if (documentXml === null) {
      throw new DocxReadError('missing_part', 'The DOCX has no word/document.xml: it is not a Word document');
    }
    const [stylesXml, relsXml, footnotesXml, endnotesXml, coreXml] = await Promise.all([
      zip.read('word/styles.xml'),
      zip.read('word/_rels/document.xml.rels'),
      zip.read('word/footnotes.xml'),
      zip.read('word/endnotes.xml'),
      zip.read('docProps/core.xml'),
    ]);
    if (stylesXml === null)
      warnings.push('The DOCX has no styles part; headings are read from formatting only');
    const styles = readStyles(stylesXml);
    const rels = readRels(relsXml);
    const blocks: Block[] = [];
    let chars = 0;
    for (const p of readParagraphs(documentXml, rels)) {
      const block = toBlock(p, styles);
      if (!block) continue;
      chars += block.text.length;
      if (chars > limits.maxChars) {
        warnings.push(`The text passed ${limits.maxChars} characters; the rest was not read`);
        break;
      }
      blocks.push(block);
    }
    const notes = [footnotesXml, endnotesXml]
      .flatMap((xml) => (xml ? readParagraphs(xml, readRels(null)) : []))
      .map((p) => cleanText(p.segments.map((s) => s.text).join('')))
      .filter(Boolean);
    const keywords = coreValue(coreXml, 'cp:keywords');
    const creator = coreValue(coreXml, 'dc:creator');
    return {
      format: 'docx',
      blocks,
      pages: null,
      declared: {
        title: coreValue(coreXml, 'dc:title'),
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
