// Looks at a PDF's bytes before pdf.js does, for the shapes that cost pdf.js far more than the
// file's size: streams that inflate enormously, page trees too large to walk, and graphics states
// saved inside each other too deeply.
//
// Inflated bytes. pdf.js decodes a
// content stream whole into one growing buffer (memory outside the worker's V8 heap, so no heap
// limit stops it): a 1 MB file whose page content inflates to 400 MiB would cost that much and run
// to the time limit. Here each deflated stream is inflated chunk by chunk, its bytes counted and
// thrown away, and the count stopped the moment the file's total passes the limit.
//
// The check does not trust the file's own account of its streams, which pdf.js reads more leniently
// than any scan of the text can follow (a /Filter nested in another dictionary, `/F` for /Filter,
// filters behind references, a stream whose bytes hold "endstream" before its /Length ends, once
// each carried a bomb past a check that read the declared filters). Instead every stream's bytes are
// tried as deflate data whatever they declare, from its start to the farthest end pdf.js could read
// (its /Length, or the first "endstream"); an ASCII-hex or ASCII-85 encoding around the deflate is
// undone, a deflate inside a deflate inflated in turn; LZW and run-length, named anywhere in the
// stream's dictionary or in an object it refers to, count at their worst ratio.
//
// Image streams are skipped: text extraction never decodes an image, and inflating the figures of
// a normal manuscript would cost time for nothing. A stream that calls itself an image but is a
// page's /Contents is counted all the same, since pdf.js decodes page content whatever it says.
//
// Page trees. When it opens a file pdf.js walks to the last page, and each page it loads walks the
// kids before it; a flat tree of 200,000 pages took 12 s to open and far longer to read 300 pages
// of. Every page is a kid of some /Kids array, so the entries of all of them (in the file and in its
// object streams) bound the pages pdf.js could visit, whatever /Count claims; past a multiple of the
// page limit the file is refused before pdf.js sees it.
//
// Graphics-state nesting. Each `q` inside another costs pdf.js's text extraction time in proportion
// to the depth, so the whole stream costs its square: 20,000 nested `q` (a 716-byte file) took 9.5 s,
// 2 million held a worker for the whole parse limit. The PDF reference gives 28 as a conforming
// reader's nesting limit; the running depth of `q` and `Q` operators over every stream pdf.js may
// read (in file order, since a page's /Contents array is one stream) is refused past
// MAX_GRAPHICS_NESTING, far above any real file's.
//
// Content operators. pdf.js interprets every operator of a page's content (and of the forms it
// draws) to extract its text, at 100-500 ns a byte on this machine whatever the operators are (paths
// cheapest, short text objects dearest): one page of 60 MiB of text operators, under the inflate
// limit, held a worker past the parse time limit. The bytes of every stream pdf.js may interpret as
// operators are counted here as they inflate. A page whose content passes PARSE_MAX_PAGE_CONTENT_BYTES
// (2 MiB) is not read: the worker skips it and says so (such pages are vector figures, not a
// manuscript's text). Past PARSE_MAX_DOCUMENT_CONTENT_BYTES (16 MiB) for the pages and the forms
// together (a page's content counted once per page that draws it), the heaviest pages of figures are
// skipped until the rest fits, and a document that still does not fit is refused. Real files stay far
// below both (docs/benchmarks/hostile-files.md, 2026-11-30): their largest page draws 0.73 MB (a
// page of prose 10-45 KB), their largest document 6.3 MB (vector figures drawn as forms).
import { createInflate, inflateSync } from 'node:zlib';
import type { ParsingLimits } from '../../infra/config.ts';
import { DrawnNames, FormWeigher, SEPARATOR, type GlyphLoads } from './form-weights.ts';

export class PdfLimitError extends Error {
  override name = 'PdfLimitError';
  constructor(
    readonly code: 'zip_bomb' | 'too_many_pages' | 'too_complex',
    message: string,
  ) {
    super(message);
  }
}

/** Pages that draw this much may be skipped to fit the document's budget: figures, not text. */
export const FIGURE_PAGE_BYTES = 256 * 1024;

/**
 * How many times PARSE_MAX_PAGE_CONTENT_BYTES a page may weigh with the forms it draws. Real figures
 * included as forms are heavier than a page's own content: the dev set's heaviest page draws 2.96 MB
 * with its forms (papaja-mdpi-makowski.pdf, vector plots; 8 KB of its own), where the heaviest page's
 * own streams weigh 0.73 MB.
 */
export const FORMS_PAGE_FACTOR = 2;

/**
 * How many times its bytes a Type 3 glyph's procedure weighs against the document's budget, with the
 * forms it draws. pdf.js builds an operator list of every glyph procedure when it loads the font (for
 * drawing, held for the document), where a page's content is only scanned for its text: lines cost
 * it 130-170 ns a byte in a glyph (directly or through forms) against 40-55 ns on a page, 3.4-4.2 times
 * (docs/benchmarks/hostile-files.md, round 7). Real files' glyphs weigh 0.51 MB at most (2.05 MB
 * weighed); one of 9 MB of lines, under the budget at face value, took 3.7 s where a manuscript took
 * 1.2 s, and held 130-160 MB.
 */
export const GLYPH_CONTENT_FACTOR = 4;

/** Graphics states saved inside each other at most (pdf.js: 1,000 nested took ~50 ms, 5,000 0.6 s). */
export const MAX_GRAPHICS_NESTING = 1_000;

const SAVE = 0x71; // q
const RESTORE = 0x51; // Q

const OPEN_STRING = 0x28; // (

/**
 * The running depth of `q` (save) and `Q` (restore) operators over bytes given chunk by chunk, and
 * the deepest it reached. A `q` inside a string or a binary font counts too: a few stray ones move
 * the depth by a few, far from the limit. Not one right after a "(": that byte opens a string, or is
 * inside one, a comment, a hex string or an image's data, so what follows it is never an operator.
 * pdfTeX sets a variable q alone as "(q)" inside a TJ array: a real paper on three pages drew 576
 * of them, each a save never restored, and was refused as nested 1,076 deep (round 69).
 */
export class GraphicsNesting {
  depth = 0;
  deepest = 0;
  /** The byte before the chunk being read (a separator at a stream's start). */
  private before = 0x20;
  /** An operator letter ended the last chunk after a separator: decided by the next byte. */
  private pending = 0;

  feed(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    if (this.pending) {
      if (SEPARATOR[chunk[0]!]) this.apply(this.pending);
      this.pending = 0;
    }
    // The two letters are found by the native search (most bytes are neither), in the chunk's order.
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let save = bytes.indexOf(SAVE);
    let restore = bytes.indexOf(RESTORE);
    while (save >= 0 || restore >= 0) {
      const at = restore < 0 || (save >= 0 && save < restore) ? save : restore;
      const op = bytes[at]!;
      const before = at > 0 ? bytes[at - 1]! : this.before;
      if (SEPARATOR[before] && before !== OPEN_STRING) {
        if (at + 1 === bytes.length) this.pending = op;
        else if (SEPARATOR[bytes[at + 1]!]) this.apply(op);
      }
      if (op === SAVE) save = bytes.indexOf(SAVE, at + 1);
      else restore = bytes.indexOf(RESTORE, at + 1);
    }
    this.before = bytes[bytes.length - 1]!;
  }

  /** The stream ends: an operator at its very end counts, and the next stream starts afresh. */
  end(): void {
    if (this.pending) this.apply(this.pending);
    this.pending = 0;
    this.before = 0x20;
  }

  private apply(op: number): void {
    if (op === SAVE) this.deepest = Math.max(this.deepest, ++this.depth);
    else if (this.depth > 0) this.depth--;
  }
}

/** How many page-tree kids per page read are walked at most: room for real trees' inner nodes. */
export const PAGE_TREE_FACTOR = 10;

/** How far back from a `stream` keyword its dictionary is looked for. */
const MAX_DICT_BYTES = 64 * 1024;

interface StreamSpan {
  objectNumber: number | null;
  dict: string;
  start: number;
  /** Where the first "endstream" after the data starts (the end the next stream is looked for from). */
  end: number;
}

function* streams(buf: Buffer): Generator<StreamSpan> {
  let from = 0;
  // Each byte is read once: a dictionary is looked for only after the previous stream's end.
  let previousEnd = 0;
  for (;;) {
    const at = buf.indexOf('stream', from, 'latin1');
    if (at < 0) return;
    from = at + 6;
    // "endstream" and words that merely contain "stream" are not a stream's start.
    const before = buf[at - 1];
    if (before !== undefined && before !== 0x3e /* > */ && before > 0x20) continue;
    // pdf.js skips to the next line end after the keyword, whatever stands before it.
    const lineEnd = nextLineEnd(buf, at + 6);
    if (lineEnd < 0) return;
    let start = lineEnd;
    if (buf[start] === 0x0d) start++;
    if (buf[start] === 0x0a) start++;
    const windowStart = Math.max(previousEnd, at - MAX_DICT_BYTES);
    const head = buf.toString('latin1', windowStart, at);
    const objAt = head.lastIndexOf(' obj');
    const dict = objAt >= 0 ? head.slice(objAt) : head;
    const number = objAt >= 0 ? /(\d+)\s+\d+\s*$/.exec(head.slice(Math.max(0, objAt - 24), objAt)) : null;
    const endAt = buf.indexOf('endstream', start, 'latin1');
    const end = endAt < 0 ? buf.length : endAt;
    from = Math.max(from, end + 9);
    previousEnd = end;
    yield { objectNumber: number ? Number(number[1]) : null, dict, start, end };
  }
}

function nextLineEnd(buf: Buffer, from: number): number {
  const cr = buf.indexOf(0x0d, from);
  const lf = buf.indexOf(0x0a, from);
  return cr < 0 ? lf : lf < 0 ? cr : Math.min(cr, lf);
}

/**
 * Where each object of the file starts (`12 0 obj`), by its reference (`12 0 R`): one pass over the
 * file's "obj" keywords, each read back over the two numbers before it (a regular expression over the
 * whole file was quadratic on long runs of digits: 200 KB took 14 s).
 */
function objectOffsets(buf: Buffer): Map<string, number> {
  const out = new Map<string, number>();
  const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;
  const isSpace = (c: number | undefined) => c !== undefined && c <= 0x20;
  for (let at = buf.indexOf('obj', 0, 'latin1'); at >= 0; at = buf.indexOf('obj', at + 3, 'latin1')) {
    let i = at - 1;
    if (!isSpace(buf[i])) continue;
    while (i > 0 && isSpace(buf[i])) i--;
    const genEnd = i + 1;
    while (i >= 0 && isDigit(buf[i]) && genEnd - i <= 5) i--;
    const genStart = i + 1;
    if (genStart === genEnd || !isSpace(buf[i])) continue;
    while (i > 0 && isSpace(buf[i])) i--;
    const numEnd = i + 1;
    while (i >= 0 && isDigit(buf[i]) && numEnd - i <= 10) i--;
    const numStart = i + 1;
    if (numStart === numEnd) continue;
    const key = `${buf.toString('latin1', numStart, numEnd)} ${buf.toString('latin1', genStart, genEnd)} R`;
    out.set(key, at + 3);
  }
  return out;
}

/** Entries of every `/Kids [...]` array in `buf`, each array read once, nothing copied. */
function countKids(buf: Buffer): number {
  let count = 0;
  let from = 0;
  for (;;) {
    const at = buf.indexOf('/Kids', from, 'latin1');
    if (at < 0) return count;
    let i = at + 5;
    while (i < buf.length && buf[i]! <= 0x20) i++;
    from = i;
    if (buf[i] !== 0x5b /* [ */) continue;
    const close = buf.indexOf(0x5d /* ] */, i);
    const end = close < 0 ? buf.length : close;
    // Each reference ends in "R" after a space: `12 0 R`.
    for (let j = i + 1; j < end; j++) if (buf[j] === 0x52 && buf[j - 1]! <= 0x20) count++;
    from = end;
  }
}

/** Object numbers named as page content: `/Contents 12 0 R` or `/Contents [12 0 R 13 0 R]`. */
function contentObjects(buf: Buffer): Set<number> {
  const numbers = new Set<number>();
  let from = 0;
  for (;;) {
    const at = buf.indexOf('/Contents', from, 'latin1');
    if (at < 0) return numbers;
    from = at + 9;
    const tail = buf.toString('latin1', from, Math.min(buf.length, from + 4096));
    const value = /^\s*(\[[^\]]*\]|\d+\s+\d+\s+R)/.exec(tail)?.[1] ?? '';
    for (const ref of value.matchAll(/(\d+)\s+\d+\s+R/g)) numbers.add(Number(ref[1]));
  }
}

const IMAGE = /\/Subtype\s*\/Image\b/g;
const SUBTYPE = /\/Subtype\b/g;
const OBJECT_STREAM = /\/Type\s*\/ObjStm\b/;
const REFERENCE = /(\d+)\s+(\d+)\s+R\b/g;
const LENGTH = /\/Length\s+(\d+)(?:\s+(\d+)\s+R\b)?/g;
const LZW = /\/(?:LZWDecode|LZW)\b/;
const RUN_LENGTH = /\/(?:RunLengthDecode|RL)\b/;

/**
 * The most LZW and run-length can give per input byte: LZW's with 12-bit codes between two table
 * resets (about 1300:1), run-length's (64:1). Counted for a stream that names either, since neither is
 * decoded here.
 */
const WORST_RATIO = { lzw: 1300, rle: 64 } as const;

/** A stream the check may skip: an image, and only an image (one /Subtype, /Image). */
function isImage(dict: string): boolean {
  return (dict.match(IMAGE)?.length ?? 0) === 1 && (dict.match(SUBTYPE)?.length ?? 0) === 1;
}

/** The first bytes of the object a reference names (to read a /Length or a filter's name there). */
function objectHead(buf: Buffer, offsets: Map<string, number>, ref: string, bytes = 256): string | null {
  const at = offsets.get(ref);
  return at === undefined ? null : buf.toString('latin1', at, Math.min(buf.length, at + bytes));
}

/** Every /Length the dictionary states, direct or behind a reference the file holds. */
function lengthsOf(dict: string, buf: Buffer, offsets: () => Map<string, number>): number[] {
  const out: number[] = [];
  for (const m of dict.matchAll(LENGTH)) {
    if (m[2] === undefined) out.push(Number(m[1]));
    else {
      const head = objectHead(buf, offsets(), `${m[1]} ${m[2]} R`, 64);
      const value = head === null ? null : /^\s*(\d+)/.exec(head)?.[1];
      if (value !== undefined && value !== null) out.push(Number(value));
    }
  }
  return out;
}

/** Whether the dictionary, or an object it refers to, names LZW or run-length decoding. */
function namesFilter(dict: string, filter: RegExp, buf: Buffer, offsets: () => Map<string, number>): boolean {
  if (filter.test(dict)) return true;
  for (const m of dict.matchAll(REFERENCE)) {
    const head = objectHead(buf, offsets(), `${m[1]} ${m[2]} R`);
    if (head === null) continue;
    // The object's own text only, not the next object's.
    const end = head.indexOf('endobj');
    if (filter.test(end >= 0 ? head.slice(0, end) : head)) return true;
  }
  return false;
}

function decodeHex(data: Buffer): Buffer {
  const text = data.toString('latin1');
  const end = text.indexOf('>');
  const digits = (end < 0 ? text : text.slice(0, end)).replace(/[^0-9a-fA-F]/g, '');
  return Buffer.from(digits.length % 2 ? `${digits}0` : digits, 'hex');
}

function decodeAscii85(data: Buffer): Buffer {
  const out = Buffer.allocUnsafe(Math.ceil(data.length / 5) * 4 + 4);
  let length = 0;
  let group = 0;
  let count = 0;
  const flush = (n: number) => {
    for (let i = count; i < 5; i++) group = group * 85 + 84;
    for (let i = 0; i < n - 1; i++) out[length++] = (group >>> (24 - 8 * i)) & 0xff;
    group = 0;
    count = 0;
  };
  for (let i = 0; i < data.length; i++) {
    const c = data[i]!;
    if (c === 0x7e /* ~ */) break;
    if (c === 0x7a /* z */ && count === 0) {
      if (length + 4 > out.length) break;
      out.fill(0, length, length + 4);
      length += 4;
      continue;
    }
    if (c < 0x21 || c > 0x75) continue;
    group = group * 85 + (c - 0x21);
    if (++count === 5) flush(5);
  }
  if (count > 1) flush(count);
  return out.subarray(0, length);
}

/** Compressed size under which a stream is inflated in one synchronous call (fonts, most pages). */
const SYNC_BYTES = 64 * 1024;

/**
 * Inflates `data`, counting its output against `budget`; resolves to the bytes counted. `keep`
 * receives the output of a stream whose text is read (an object stream may hold page-tree nodes).
 */
async function countInflated(data: Buffer, budget: number, keep?: (chunk: Buffer) => void): Promise<number> {
  if (data.length <= SYNC_BYTES) {
    try {
      const out = inflateSync(data, { maxOutputLength: Math.max(1, budget + 1) });
      keep?.(out);
      return out.length;
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return budget + 1;
      // Damaged: the chunked path below counts what it gives before the damage.
    }
  }
  return new Promise((resolve) => {
    const inflater = createInflate({ chunkSize: 64 * 1024 });
    let count = 0;
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      inflater.destroy();
      resolve(count);
    };
    inflater.on('data', (chunk: Buffer) => {
      count += chunk.length;
      if (count > budget) settle();
      else keep?.(chunk);
    });
    // A damaged stream counts for what it gave before the damage; pdf.js reads no further either.
    inflater.on('error', settle);
    inflater.on('end', settle);
    inflater.end(data);
  });
}

/** A zlib header, which pdf.js requires of deflate data (its FlateStream refuses any other). */
function startsZlib(data: Buffer): boolean {
  const [cmf, flg] = [data[0], data[1]];
  return (
    cmf !== undefined &&
    flg !== undefined &&
    (cmf & 0x0f) === 8 &&
    cmf >> 4 <= 7 &&
    ((cmf << 8) | flg) % 31 === 0
  );
}

const HEX_START = /^[\s0-9a-fA-F]{16}/;
const ASCII85_START = /^[\s!-uz]{16}/;

/**
 * Under which encoding these bytes hold deflate data, judged by their first bytes (a zlib header, as
 * they are or once their head is decoded); null when they hold none. ASCII-85 need not end in "~>":
 * pdf.js reads it to its end all the same.
 */
function deflateEncoding(data: Buffer): 'plain' | 'hex' | 'a85' | null {
  if (startsZlib(data)) return 'plain';
  const head = data.subarray(0, 64);
  const text = head.toString('latin1');
  if (HEX_START.test(text) && startsZlib(decodeHex(head))) return 'hex';
  if (ASCII85_START.test(text) && startsZlib(decodeAscii85(head))) return 'a85';
  return null;
}

/** The stream's bytes as the deflate data they hold (decoded when ASCII-encoded); null when none. */
function deflateData(data: Buffer): Buffer | null {
  switch (deflateEncoding(data)) {
    case 'plain':
      return data;
    case 'hex':
      return decodeHex(data);
    case 'a85':
      return decodeAscii85(data);
    case null:
      return null;
  }
}

/** How deep a deflate inside a deflate (`[/FlateDecode /FlateDecode]`) is followed. */
const MAX_NESTED_DEFLATES = 3;

/**
 * What a stream's bytes inflate to, counted against `budget`, whatever the stream declares; when the
 * output may itself be deflate data (a filter chain of two deflates), it is inflated in turn and
 * counted too, as pdf.js decodes each layer whole. `keep` receives each layer's output (an object
 * stream's text, a page's operators).
 */
async function countStream(
  data: Buffer,
  budget: number,
  keep?: (chunk: Buffer) => void,
  depth = 0,
): Promise<number> {
  const deflated = deflateData(data);
  if (deflated === null) return 0;
  // The output is held only while it may be deflate data; most is page text, let go at once.
  const output: Buffer[] = [];
  let held = 0;
  let holding = depth + 1 < MAX_NESTED_DEFLATES;
  let decided = false;
  const count = await countInflated(deflated, budget, (chunk) => {
    keep?.(chunk);
    if (!holding) return;
    output.push(chunk);
    held += chunk.length;
    // Decided once, on the first 64 bytes.
    if (!decided && held >= 64) {
      decided = true;
      if (deflateEncoding(Buffer.concat(output)) === null) {
        holding = false;
        output.length = 0;
      }
    }
  });
  if (count > budget || !holding || output.length === 0) return count;
  if (!decided && deflateEncoding(Buffer.concat(output)) === null) return count;
  // The inner layer's output goes to `keep` too: it is what pdf.js reads in the end.
  return count + (await countStream(Buffer.concat(output), budget - count, keep, depth + 1));
}

type ContentLimits = Pick<
  ParsingLimits,
  'maxInflatedBytes' | 'maxPages' | 'maxPageContentBytes' | 'maxDocumentContentBytes'
>;

/**
 * A page not to be read: its content bytes (its own streams, or with the forms it draws when the
 * budget is 'forms'), and the budget they pass.
 */
export interface SkippedPage {
  bytes: number;
  budget: 'page' | 'forms' | 'document';
}

/** What the pre-check counted, and the pages the reader must not read. */
export interface PdfPrecheck {
  inflatedBytes: number;
  pageTreeKids: number;
  graphicsNesting: number;
  /** The most content bytes of one page (its /Contents streams together). */
  largestPageContent: number;
  /** Content bytes pdf.js will interpret: the pages read, each time one draws it, and other content streams. */
  documentContent: number;
  /** Font-program bytes pdf.js will parse: each program once for each font loading it. */
  fontProgramBytes: number;
  /**
   * Page objects (by object number) not to be read: their content bytes, and the budget they pass
   * (PARSE_MAX_PAGE_CONTENT_BYTES, FORMS_PAGE_FACTOR times it with the forms the page draws, or
   * PARSE_MAX_DOCUMENT_CONTENT_BYTES with the other pages).
   */
  skippedPages: Map<number, SkippedPage>;
}

/**
 * Streams that hold no operators whatever draws them: fonts, object and cross-reference streams,
 * metadata, character maps and colour profiles. Anything else may be a form, a pattern, a glyph's
 * procedure or a page's content (a page's /Contents counts whatever its dictionary says).
 */
const NOT_CONTENT =
  /\/Length[123]\b|\/Subtype\s*\/(?:Type1C|CIDFontType0C|OpenType|XML)\b|\/Type\s*\/(?:ObjStm|XRef|Metadata|CMap|EmbeddedFile)\b|\/Alternate\b/;
const FORM = /\/Form\b/;

function mayBeContent(dict: string): boolean {
  return FORM.test(dict) || !NOT_CONTENT.test(dict);
}

/** The object numbers a /Contents value names (`12 0 R` or `[12 0 R 13 0 R]`) at the start of `text`. */
function namedContents(text: string): number[] {
  const value = /^\s*(\[[^\]]*\]|\d+\s+\d+\s+R)/.exec(text)?.[1] ?? '';
  return [...value.matchAll(/(\d+)\s+\d+\s+R/g)].map((m) => Number(m[1]));
}

const PAGE_TYPE = /\/Type\s*\/Page(?![A-Za-z])/;

/** The text of each object held in the object streams, by object number. */
function objectStreamMembers(objectStreams: { dict: string; text: Buffer }[]): Map<number, string> {
  const out = new Map<number, string>();
  for (const { dict, text } of objectStreams) {
    const first = Number(/\/First\s+(\d+)/.exec(dict)?.[1] ?? NaN);
    if (!Number.isFinite(first)) continue;
    const header = text.toString('latin1', 0, Math.min(first, text.length)).trim().split(/\s+/).map(Number);
    const members: { number: number; at: number }[] = [];
    for (let i = 0; i + 1 < header.length; i += 2)
      members.push({ number: header[i]!, at: first + header[i + 1]! });
    members.sort((a, b) => a.at - b.at);
    members.forEach((m, i) => {
      out.set(m.number, text.toString('latin1', m.at, members[i + 1]?.at ?? text.length));
    });
  }
  return out;
}

/**
 * The content streams each page object names: page object number to the object numbers of its
 * /Contents, for the page dictionaries in the file and in its object streams. A /Contents in any
 * other object (an annotation's is a string) is no page's.
 */
function pageContents(
  buf: Buffer,
  offsets: Map<string, number>,
  members: Map<number, string>,
): Map<number, number[]> {
  const pages = new Map<number, number[]>();
  // The objects of the object streams that are arrays, by number.
  const arrays = new Map<number, string>();
  // Where each object of the file starts, in file order, to find the object a /Contents lies in.
  const starts = [...offsets.entries()]
    .map(([ref, at]) => [at, Number(ref.slice(0, ref.indexOf(' ')))] as const)
    .sort((a, b) => a[0] - b[0]);
  /** The index in `starts` of the object `at` lies in (-1 before the first). */
  const enclosing = (at: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]![0] <= at) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
  const add = (page: number, text: string) => {
    const named = namedContents(text);
    if (named.length) pages.set(page, [...(pages.get(page) ?? []), ...named]);
  };
  for (
    let at = buf.indexOf('/Contents', 0, 'latin1');
    at >= 0;
    at = buf.indexOf('/Contents', at + 9, 'latin1')
  ) {
    const i = enclosing(at);
    if (i < 0) continue;
    const [start, page] = starts[i]!;
    // The object's own dictionary, up to the next object's start.
    const end = Math.min(starts[i + 1]?.[0] ?? buf.length, at + 4096);
    if (!PAGE_TYPE.test(buf.toString('latin1', Math.max(start, at - 4096), end))) continue;
    add(page, buf.toString('latin1', at + 9, end));
  }
  for (const [number, body] of members) {
    const at = body.indexOf('/Contents');
    if (at >= 0 && PAGE_TYPE.test(body)) add(number, body.slice(at + 9));
    if (/^\s*\[/.test(body)) arrays.set(number, body);
  }
  // A /Contents may name an array object of streams (`/Contents 5 0 R`, `5 0 obj [6 0 R 7 0 R]`):
  // its streams are the page's.
  const streamsOf = (n: number): number[] => {
    const at = offsets.get(`${n} 0 R`);
    const body =
      arrays.get(n) ?? (at === undefined ? '' : buf.toString('latin1', at, Math.min(buf.length, at + 4096)));
    return /^\s*\[/.test(body) ? namedContents(body) : [n];
  };
  for (const [page, named] of pages) pages.set(page, named.flatMap(streamsOf));
  return pages;
}

/** How often object `number` is referred to (`12 0 R`) in the file and in its object streams. */
function referencesTo(number: number, texts: Buffer[]): number {
  const needle = Buffer.from(`${number} 0 R`, 'latin1');
  let count = 0;
  for (const text of texts) {
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
      const before = text[at - 1];
      if (before === undefined || SEPARATOR[before] || before <= 0x20) count++;
    }
  }
  return count;
}

/**
 * Weighs the content against the budgets. A page weighs its /Contents streams and every form it draws
 * (each time it draws it, nested forms included: form-weights.ts). A page whose own streams pass
 * PARSE_MAX_PAGE_CONTENT_BYTES, or which passes FORMS_PAGE_FACTOR times it with its forms, is
 * skipped; past PARSE_MAX_DOCUMENT_CONTENT_BYTES the heaviest pages of
 * figures (FIGURE_PAGE_BYTES and more) are skipped until the rest fits, and if it still does not, the
 * file is refused (PdfLimitError). A skipped page's stream that something else draws too (as a form)
 * counts as read.
 */
function budgetContent(
  buf: Buffer,
  members: Map<number, string>,
  objectStreams: { dict: string; text: Buffer }[],
  forms: FormWeigher,
  glyphs: GlyphLoads,
  contentBytes: Map<number, number>,
  otherStreamBytes: Map<number, number>,
  formStreams: Set<number>,
  unnumbered: number,
  limits: ContentLimits,
): Pick<PdfPrecheck, 'largestPageContent' | 'documentContent' | 'skippedPages'> {
  const pages = pageContents(buf, forms.texts.offsets, members);
  const namings = new Map<number, number>();
  for (const named of pages.values()) for (const n of named) namings.set(n, (namings.get(n) ?? 0) + 1);
  // Past the larger budget the forms a page draws count as that budget and one: a fan-out of forms
  // is not expanded.
  const formsBudget = FORMS_PAGE_FACTOR * limits.maxPageContentBytes;
  const cap = forms.cap;
  const pageBytes = [...pages].map(([page, named]) => {
    const own = named.reduce((sum, n) => sum + (contentBytes.get(n) ?? 0), 0);
    return { page, own, bytes: own + forms.pageForms(page, named) };
  });
  // Type 3 glyph procedures: pdf.js builds each when it loads the font (every glyph of the font,
  // once for each glyph naming it), as an operator list for drawing, whatever its dictionary says: it
  // weighs GLYPH_CONTENT_FACTOR times its bytes and what it draws, each time built.
  let other = unnumbered;
  if (glyphs === 'unbounded') other = cap;
  else {
    for (const [stream, loads] of glyphs) {
      const own = contentBytes.get(stream) ?? otherStreamBytes.get(stream);
      if (own === undefined) continue;
      const built = Math.min(cap, own + forms.unreachedDraws(stream));
      other = Math.min(cap, other + Math.min(cap, GLYPH_CONTENT_FACTOR * loads * built));
    }
  }
  const isGlyph = (stream: number) => glyphs === 'unbounded' || glyphs.has(stream);
  // Other streams no page draws (patterns, forms no page or glyph draws): read once at least, with
  // what they draw, a form's there, or once if none draws it.
  const unreached = [...contentBytes.keys()].filter(
    (s) => !namings.has(s) && !forms.reached.has(s) && !isGlyph(s),
  );
  for (const stream of unreached)
    if (!formStreams.has(stream)) other = Math.min(cap, other + forms.unreachedDraws(stream));
  for (const stream of unreached) if (!forms.reached.has(stream)) other += contentBytes.get(stream)!;
  const largestPageContent = Math.max(0, ...pageBytes.map(({ bytes }) => bytes));
  const skippedPages = new Map<number, SkippedPage>();
  let read = 0;
  for (const { page, own, bytes } of pageBytes) {
    if (own > limits.maxPageContentBytes) skippedPages.set(page, { bytes: own, budget: 'page' });
    else if (bytes > formsBudget) skippedPages.set(page, { bytes, budget: 'forms' });
    else read += bytes;
  }
  if (read + other > limits.maxDocumentContentBytes) {
    const heaviest = pageBytes
      .filter(({ page }) => !skippedPages.has(page))
      .sort((a, b) => b.bytes - a.bytes);
    for (const { page, bytes } of heaviest) {
      if (read + other <= limits.maxDocumentContentBytes || bytes < FIGURE_PAGE_BYTES) break;
      skippedPages.set(page, { bytes, budget: 'document' });
      read -= bytes;
    }
  }
  if (skippedPages.size > 0) {
    const texts = [buf, ...objectStreams.map((o) => o.text)];
    const checked = new Set<number>();
    for (const page of skippedPages.keys()) {
      for (const stream of pages.get(page)!) {
        if (checked.has(stream)) continue;
        checked.add(stream);
        if (referencesTo(stream, texts) > namings.get(stream)!) other += contentBytes.get(stream) ?? 0;
      }
    }
  }
  const documentContent = read + other;
  if (documentContent > limits.maxDocumentContentBytes) {
    throw new PdfLimitError(
      'too_complex',
      `its pages draw ${documentContent} bytes of content operators, over the ${limits.maxDocumentContentBytes} read at most${glyphs === 'unbounded' || glyphs.size > 0 ? ` (a Type 3 font's glyphs counted ${GLYPH_CONTENT_FACTOR} times each time built)` : ''}`,
    );
  }
  return { largestPageContent, documentContent, skippedPages };
}

/**
 * Throws PdfLimitError when the streams pdf.js may decode for the text inflate to more than
 * `maxInflatedBytes` together, or when the page tree has more kids than `maxPages` allows.
 * Returns what it counted.
 */
export async function precheckPdf(bytes: Uint8Array, limits: ContentLimits): Promise<PdfPrecheck> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const nesting = new GraphicsNesting();
  const checkNesting = () => {
    if (nesting.deepest > MAX_GRAPHICS_NESTING) {
      throw new PdfLimitError(
        'too_complex',
        `its pages save graphics states ${MAX_GRAPHICS_NESTING + 1} or more deep, over the ${MAX_GRAPHICS_NESTING} read at most`,
      );
    }
  };
  const maxKids = PAGE_TREE_FACTOR * limits.maxPages;
  let kids = countKids(buf);
  const checkKids = () => {
    if (kids > maxKids) {
      throw new PdfLimitError(
        'too_many_pages',
        `its page tree lists ${kids} kids or more, over the ${maxKids} walked at most (${PAGE_TREE_FACTOR} per page read)`,
      );
    }
  };
  checkKids();
  let contents: Set<number> | null = null;
  // Content bytes of each content stream by object number, and those of streams with no number.
  const contentBytes = new Map<number, number>();
  /** The bytes of the other streams (fonts, metadata...), by object number: a glyph's may say anything. */
  const otherStreamBytes = new Map<number, number>();
  /** The `Do` operators of each content stream, by object number. */
  const drawn = new Map<number, DrawnNames>();
  /** Content streams whose dictionary says /Form. */
  const formStreams = new Set<number>();
  let unnumberedContent = 0;
  const objectStreams: { dict: string; text: Buffer }[] = [];
  let offsetsRead: Map<string, number> | undefined;
  const offsets = () => (offsetsRead ??= objectOffsets(buf));
  let total = 0;
  const checkTotal = () => {
    if (total > limits.maxInflatedBytes) {
      throw new PdfLimitError(
        'zip_bomb',
        `its compressed streams inflate past the ${limits.maxInflatedBytes} byte limit`,
      );
    }
  };
  /** Image streams skipped, by object number: read after all if a Type 3 font names one as a glyph. */
  const images = new Map<number, StreamSpan>();
  const readStream = async (s: StreamSpan) => {
    // The farthest end pdf.js could read: its /Length (the first "endstream" may lie inside the data).
    const end = Math.min(
      buf.length,
      Math.max(s.end, ...lengthsOf(s.dict, buf, offsets).map((n) => s.start + n)),
    );
    const data = buf.subarray(s.start, end);
    const totalBefore = total;
    for (const [filter, ratio] of [
      [LZW, WORST_RATIO.lzw],
      [RUN_LENGTH, WORST_RATIO.rle],
    ] as const) {
      if (namesFilter(s.dict, filter, buf, offsets)) total += data.length * ratio;
    }
    checkTotal();
    /** Bytes counted at a worst ratio: operators not decoded here, whose `Do` are not seen. */
    const undecoded = total - totalBefore;
    const parts: Buffer[] = [];
    const objectStream = OBJECT_STREAM.test(s.dict);
    let inflated = false;
    let output = 0;
    const names = new DrawnNames();
    // As many draws as the undecoded bytes could hold (`/a Do ` is 6 bytes), each of the heaviest form.
    names.overflow = Math.ceil(undecoded / 6);
    const keep = (chunk: Buffer) => {
      inflated = true;
      output += chunk.length;
      nesting.feed(chunk);
      names.feed(chunk);
      if (objectStream) parts.push(chunk);
    };
    const counted = await countStream(data, limits.maxInflatedBytes - total, keep);
    total += counted;
    checkTotal();
    // A stream that is not deflate data is read by pdf.js as it stands.
    if (!inflated) {
      nesting.feed(data);
      names.feed(data);
      // Operators in ASCII hex or ASCII-85 alone: the names they draw are read decoded.
      const encoded = HEX_START.test(data.toString('latin1', 0, 64))
        ? decodeHex(data)
        : ASCII85_START.test(data.toString('latin1', 0, 64))
          ? decodeAscii85(data)
          : null;
      if (encoded) {
        names.end();
        names.feed(encoded);
      }
      output = data.length;
    }
    nesting.end();
    names.end();
    checkNesting();
    if (objectStream) {
      const text = Buffer.concat(parts);
      objectStreams.push({ dict: s.dict, text });
      kids += countKids(text);
      checkKids();
    }
    contents ??= contentObjects(buf);
    // LZW and run-length are not decoded here: counted at their worst, as for the inflate limit.
    const bytes = Math.max(output, total - totalBefore);
    if (mayBeContent(s.dict) || (s.objectNumber !== null && contents.has(s.objectNumber))) {
      if (s.objectNumber === null) unnumberedContent += bytes;
      else {
        contentBytes.set(s.objectNumber, (contentBytes.get(s.objectNumber) ?? 0) + bytes);
        if (FORM.test(s.dict)) formStreams.add(s.objectNumber);
      }
    } else if (s.objectNumber !== null) {
      otherStreamBytes.set(s.objectNumber, (otherStreamBytes.get(s.objectNumber) ?? 0) + bytes);
    }
    if (s.objectNumber !== null) {
      // The forms it draws; a number written twice (an update) draws what both versions draw.
      const before = drawn.get(s.objectNumber);
      if (before) {
        for (const [name, n] of names.counts) before.counts.set(name, (before.counts.get(name) ?? 0) + n);
        before.overflow += names.overflow;
      } else if (names.counts.size > 0 || names.overflow > 0) drawn.set(s.objectNumber, names);
    }
  };
  for (const s of streams(buf)) {
    if (isImage(s.dict)) {
      contents ??= contentObjects(buf);
      if (s.objectNumber === null || !contents.has(s.objectNumber)) {
        if (s.objectNumber !== null) images.set(s.objectNumber, s);
        continue;
      }
    }
    await readStream(s);
  }
  const members = objectStreamMembers(objectStreams);
  const cap = Math.max(FORMS_PAGE_FACTOR * limits.maxPageContentBytes, limits.maxDocumentContentBytes) + 1;
  const forms = new FormWeigher({ buf, offsets: offsets(), members }, contentBytes, drawn, cap);
  // A glyph's procedure is built whatever its dictionary says, an image's included.
  const glyphs = forms.glyphProcedures();
  if (glyphs !== 'unbounded') {
    for (const glyph of glyphs.keys()) {
      const span = images.get(glyph);
      if (span !== undefined && !contentBytes.has(glyph)) await readStream(span);
    }
  }
  // pdf.js inflates and parses a font's program again for each font dictionary loading it.
  const programs = forms.fontPrograms();
  let fontBytes = programs === 'unbounded' ? Infinity : 0;
  if (programs !== 'unbounded')
    for (const [program, loads] of programs)
      fontBytes += loads * (otherStreamBytes.get(program) ?? contentBytes.get(program) ?? 0);
  if (fontBytes > limits.maxInflatedBytes) {
    throw new PdfLimitError(
      'too_complex',
      programs === 'unbounded'
        ? 'its resources name more fonts than are read'
        : `its fonts load ${fontBytes} bytes of font programs (one program counted for each font loading it), over the ${limits.maxInflatedBytes} read at most`,
    );
  }
  return {
    inflatedBytes: total,
    fontProgramBytes: fontBytes,
    pageTreeKids: kids,
    graphicsNesting: nesting.deepest,
    ...budgetContent(
      buf,
      members,
      objectStreams,
      forms,
      glyphs,
      contentBytes,
      otherStreamBytes,
      formStreams,
      unnumberedContent,
      limits,
    ),
  };
}
