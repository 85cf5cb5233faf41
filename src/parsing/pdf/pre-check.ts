// Looks at a PDF's bytes before pdf.js does, for the two shapes that cost pdf.js far more than the
// file's size: streams that inflate enormously, and page trees too large to walk.
//
// Inflated bytes. pdf.js decodes a
// content stream whole into one growing buffer (memory outside the worker's V8 heap, so no heap
// limit stops it): a 1 MB file whose page content inflates to 400 MiB would cost that much and run
// to the time limit. Here each deflated stream is inflated chunk by chunk, its bytes counted and
// thrown away, and the count stopped the moment the file's total passes the limit.
//
// Every filter is read as pdf.js would apply it: /Filter as a name, an array, or a reference to
// either. ASCII encodings in front of the deflate are undone and the deflate counted; an output not
// counted here (LZW, run-length, a filter after the deflate, a /Filter that cannot be resolved) counts
// at its worst ratio, so that no encoding carries a bomb past the check (`/Filter 6 0 R` and
// `[/ASCIIHexDecode /FlateDecode]` once did, and ran pdf.js to the time limit).
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
import { createInflate, inflateSync } from 'node:zlib';

export class PdfLimitError extends Error {
  override name = 'PdfLimitError';
  constructor(
    readonly code: 'zip_bomb' | 'too_many_pages',
    message: string,
  ) {
    super(message);
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
    let start = at + 6;
    if (buf[start] === 0x0d) start++;
    if (buf[start] === 0x0a) start++;
    if (start === at + 6) continue;
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

const IMAGE = /\/Subtype\s*\/Image\b/;
const OBJECT_STREAM = /\/Type\s*\/ObjStm\b/;

type Filter = 'flate' | 'lzw' | 'rle' | 'hex' | 'a85' | 'other';

const FILTER_NAMES: Record<string, Filter> = {
  FlateDecode: 'flate',
  Fl: 'flate',
  LZWDecode: 'lzw',
  LZW: 'lzw',
  RunLengthDecode: 'rle',
  RL: 'rle',
  ASCIIHexDecode: 'hex',
  AHx: 'hex',
  ASCII85Decode: 'a85',
  A85: 'a85',
};

/**
 * The most a filter's output can be per input byte: deflate's limit (about 1032:1), LZW's with
 * 12-bit codes between two table resets (about 1300:1), run-length's (64:1). Bounds a stream whose
 * output is not counted here.
 */
const WORST_RATIO: Record<'flate' | 'lzw' | 'rle', number> = { flate: 1032, lzw: 1300, rle: 64 };

/**
 * A stream's filters in the order pdf.js applies them, from its dictionary's /Filter: a name, an
 * array of names, or a reference to either elsewhere in the file, resolved through `resolve` (null
 * when it cannot be: an object inside an object stream). Missing: no filter.
 */
function filtersOf(dict: string, resolve: (ref: string) => string | undefined): Filter[] | null {
  const at = dict.lastIndexOf('/Filter');
  if (at < 0) return [];
  let value = /^\/Filter\s*(\[[^\]]*\]|\/[^\s/[\]<>()]+|\d+\s+\d+\s+R)/.exec(dict.slice(at))?.[1];
  if (value !== undefined && /R$/.test(value)) value = resolve(value.replace(/\s+/g, ' '));
  if (value === undefined) return null;
  return [...value.matchAll(/\/([^\s/[\]<>()]+)/g)].map((m) => FILTER_NAMES[m[1]!] ?? 'other');
}

/**
 * The values of the file's direct objects that are a name or an array (`6 0 obj [/FlateDecode]`),
 * by reference (`6 0 R`): read in one pass when a /Filter first refers to one.
 */
function directFilterValues(buf: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  const objects = /(\d+)\s+(\d+)\s+obj\s*(\[[^\]]*\]|\/[^\s/[\]<>()]+)/g;
  for (const m of buf.toString('latin1').matchAll(objects)) out.set(`${m[1]} ${m[2]} R`, m[3]!);
  return out;
}

function decodeHex(data: Buffer): Buffer {
  const text = data.toString('latin1');
  const end = text.indexOf('>');
  const digits = (end < 0 ? text : text.slice(0, end)).replace(/[^0-9a-fA-F]/g, '');
  return Buffer.from(digits.length % 2 ? `${digits}0` : digits, 'hex');
}

function decodeAscii85(data: Buffer): Buffer {
  const out: number[] = [];
  let group: number[] = [];
  const flush = (n: number) => {
    let value = 0;
    for (let i = 0; i < 5; i++) value = value * 85 + (group[i] ?? 84);
    for (let i = 0; i < n - 1; i++) out.push((value >>> (24 - 8 * i)) & 0xff);
    group = [];
  };
  for (let i = 0; i < data.length; i++) {
    const c = data[i]!;
    if (c === 0x7e /* ~ */) break;
    if (c === 0x7a /* z */ && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    if (c < 0x21 || c > 0x75) continue;
    group.push(c - 0x21);
    if (group.length === 5) flush(5);
  }
  if (group.length > 1) flush(group.length);
  return Buffer.from(out);
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

/**
 * Throws PdfLimitError when the deflated streams pdf.js may decode for the text inflate to more
 * than `maxInflatedBytes` together, or when the page tree has more kids than `maxPages` allows.
 * Returns what it counted.
 */
export async function precheckPdf(
  bytes: Uint8Array,
  limits: { maxInflatedBytes: number; maxPages: number },
): Promise<{ inflatedBytes: number; pageTreeKids: number }> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
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
  let references: Map<string, string> | undefined;
  let total = 0;
  for (const s of streams(buf)) {
    const filters = filtersOf(s.dict, (ref) => (references ??= directFilterValues(buf)).get(ref));
    // Nothing that can expand: read as it is (ASCII decoders only shrink).
    if (filters !== null && !filters.some((f) => f === 'flate' || f === 'lzw' || f === 'rle')) continue;
    if (IMAGE.test(s.dict)) {
      contents ??= contentObjects(buf);
      if (s.objectNumber === null || !contents.has(s.objectNumber)) continue;
    }
    let data = buf.subarray(s.start, s.end);
    // ASCII encodings in front of the deflate, undone here as pdf.js would (they only shrink).
    let chain = filters ?? [];
    while (chain[0] === 'hex' || chain[0] === 'a85') {
      data = chain[0] === 'hex' ? decodeHex(data) : decodeAscii85(data);
      chain = chain.slice(1);
    }
    const parts: Buffer[] = [];
    const keep = OBJECT_STREAM.test(s.dict) ? (chunk: Buffer) => parts.push(chunk) : undefined;
    if (filters !== null && chain.length === 1 && chain[0] === 'flate') {
      total += await countInflated(data, limits.maxInflatedBytes - total, keep);
    } else {
      // A filter counted nowhere here (LZW, run-length, a chain after the deflate, a /Filter that
      // cannot be resolved): its worst output counts, so that no encoding slips a bomb past the check.
      // Each expanding filter multiplies; a /Filter that cannot be resolved counts as the worst one.
      const worst =
        filters === null
          ? WORST_RATIO.lzw
          : chain.reduce((n, f) => n * (f === 'flate' || f === 'lzw' || f === 'rle' ? WORST_RATIO[f] : 1), 1);
      total += data.length * worst;
    }
    if (total > limits.maxInflatedBytes) {
      throw new PdfLimitError(
        'zip_bomb',
        `its compressed streams inflate past the ${limits.maxInflatedBytes} byte limit`,
      );
    }
    if (keep) {
      kids += countKids(Buffer.concat(parts));
      checkKids();
    }
  }
  return { inflatedBytes: total, pageTreeKids: kids };
}
