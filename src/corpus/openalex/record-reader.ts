// Streams the records of an input file in constant memory: JSON lines, plain or gzip (detected by
// its magic bytes, not its name). A file holding one pretty-printed JSON object or array (as the
// OpenAlex API saves one entity) is read whole instead; those are small by nature.
import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { createGunzip, gunzipSync } from 'node:zlib';
import { createInterface } from 'node:readline';
import { isUtf8 } from 'node:buffer';
import { parseBytesWithInvertedIndex, parseWithInvertedIndex } from './inverted-index.ts';

export interface InputLine {
  /** 1-based line number in the (decompressed) file; for a whole-file JSON array, the item's index + 1. */
  line: number;
  /** The parsed value, or the parse error's message. */
  value?: unknown;
  error?: string;
}

export interface RecordSource {
  size: number;
  mtimeMs: number;
  /** Compressed bytes read so far: lets the caller estimate the total from the fraction read. */
  bytesRead(): number;
  lines: AsyncIterable<InputLine>;
}

async function isGzip(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

// A byte-order mark at the start of a file (some Windows tools write one) is not part of the first
// line: JSON.parse refuses it, and /\s/ matches it, so it would pass for the space before a whole-file
// JSON document.
const BOM = 0xfeff;

function withoutBom(text: string): string {
  return text.charCodeAt(0) === BOM ? text.slice(1) : text;
}

async function firstLineIsJson(path: string, gz: boolean): Promise<boolean> {
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  const lines = createInterface({ input: gz ? stream.pipe(createGunzip()) : stream, crlfDelay: Infinity });
  let first = true;
  try {
    for await (const read of lines) {
      const line = first ? withoutBom(read) : read;
      first = false;
      if (line.trim() === '') continue;
      try {
        JSON.parse(line);
        return true;
      } catch {
        return !/^\s*[[{]/.test(line);
      }
    }
    return true;
  } finally {
    lines.close();
    stream.destroy();
  }
}

/**
 * A byte stream cut into blocks of whole lines: each block ends just after an LF, but the last,
 * which holds what follows the stream's last LF (if anything). A line cut between chunks is joined.
 */
export async function* lineBlocks(input: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
  // The start of a line not ended yet: the rest of one chunk, and whole chunks if the line is long.
  let pending: Buffer[] = [];
  for await (const chunk of input) {
    const cut = chunk.lastIndexOf(0x0a) + 1;
    if (cut === 0) {
      pending.push(chunk);
      continue;
    }
    const lines = chunk.subarray(0, cut);
    yield pending.length > 0 ? Buffer.concat([...pending, lines]) : lines;
    pending = cut < chunk.length ? [chunk.subarray(cut)] : [];
  }
  if (pending.length > 0) yield Buffer.concat(pending);
}

/**
 * The lines of a block (lineBlocks) as byte ranges [from, to): split at LF, a CR before it dropped
 * (readline's rule for CRLF files), a last line without LF included.
 */
export function* lineRanges(block: Buffer): Generator<[number, number]> {
  let from = 0;
  while (from < block.length) {
    const lf = block.indexOf(0x0a, from);
    const next = lf === -1 ? block.length : lf + 1;
    let to = lf === -1 ? block.length : lf;
    if (to > from && block[to - 1] === 13) to--;
    yield [from, to];
    from = next;
  }
}

/** The lines of a byte stream, decoded as UTF-8 (lineBlocks' and lineRanges' rules). */
export async function* splitLines(input: AsyncIterable<Buffer>): AsyncIterable<string> {
  for await (const block of lineBlocks(input)) {
    for (const [from, to] of lineRanges(block)) yield block.toString('utf8', from, to);
  }
}

function parseLine(line: string, n: number): InputLine {
  const fast = parseWithInvertedIndex(line);
  if (fast !== undefined) return { line: n, value: fast };
  try {
    return { line: n, value: JSON.parse(line) };
  } catch (error) {
    return { line: n, error: `invalid JSON: ${(error as Error).message}` };
  }
}

/** parseLine of the line decoded, or null for a blank line. */
function parseDecoded(block: Buffer, from: number, to: number, n: number): InputLine | null {
  const line = block.toString('utf8', from, to);
  return line.trim() === '' ? null : parseLine(line, n);
}

function isBlankByte(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c || c === 0x0d;
}

/** parseDecoded without decoding the line first, when the line is in the plain case. */
function parseLineBytes(block: Buffer, from: number, to: number, n: number): InputLine | null {
  let i = from;
  while (i < to && isBlankByte(block[i]!)) i++;
  if (i === to) return null;
  // A character past ASCII may be a space that trim knows: the string path decides.
  if (block[i]! >= 0x80) return parseDecoded(block, from, to, n);
  const value = parseBytesWithInvertedIndex(block.subarray(from, to));
  return value !== undefined ? { line: n, value } : parseDecoded(block, from, to, n);
}

/**
 * The records of a stream of JSON lines from after line `skipLines`, blank lines left out. Lines are
 * parsed from their bytes when their block is valid UTF-8 (nearly always): decoded alone, a line
 * without a character past U+00FF is a one-byte string, which JSON.parse and every later step read
 * faster than a slice of a chunk that one such character elsewhere made two-byte.
 */
export async function* readJsonLines(input: AsyncIterable<Buffer>, skipLines = 0): AsyncIterable<InputLine> {
  let n = 0;
  for await (const block of lineBlocks(input)) {
    // Over invalid UTF-8, two words of an index that differ only in invalid bytes decode alike (to
    // U+FFFD), a repeated key the byte scan would not see: such a block's lines are decoded first.
    const utf8 = isUtf8(block);
    // A line is parsed when asked for: no block's worth of parsed lines waits in memory.
    for (const [start, to] of lineRanges(block)) {
      // The UTF-8 byte-order mark, EF BB BF (see BOM).
      const bom = n === 0 && block[start] === 0xef && block[start + 1] === 0xbb && block[start + 2] === 0xbf;
      const from = bom ? start + 3 : start;
      if (++n <= skipLines) continue;
      const item = utf8 ? parseLineBytes(block, from, to, n) : parseDecoded(block, from, to, n);
      if (item) yield item;
    }
  }
}

async function* wholeFile(path: string, gz: boolean): AsyncIterable<InputLine> {
  const bytes = await readFile(path);
  const text = withoutBom((gz ? gunzipSync(bytes) : bytes).toString('utf8'));
  const parsed = parseLine(text, 1);
  if (parsed.error || !Array.isArray(parsed.value)) {
    yield parsed;
    return;
  }
  let n = 0;
  for (const item of parsed.value) yield { line: ++n, value: item };
}

export async function openRecords(path: string, skipLines = 0): Promise<RecordSource> {
  const info = await stat(path);
  const gz = await isGzip(path);
  let read = 0;
  const base = { size: info.size, mtimeMs: Math.floor(info.mtimeMs), bytesRead: () => read };
  if (!(await firstLineIsJson(path, gz))) {
    return {
      ...base,
      lines: (async function* () {
        for await (const item of wholeFile(path, gz)) {
          read = info.size;
          if (item.line > skipLines) yield item;
        }
      })(),
    };
  }
  async function* lines(): AsyncIterable<InputLine> {
    const stream = createReadStream(path, { highWaterMark: 1024 * 1024 });
    stream.on('data', (chunk) => {
      read += chunk.length;
    });
    // Large output chunks: the default 16 KB made gunzip's per-chunk callbacks a tenth of the
    // reading time.
    const input = gz ? stream.pipe(createGunzip({ chunkSize: 1024 * 1024 })) : stream;
    try {
      yield* readJsonLines(input, skipLines);
    } finally {
      input.destroy();
      stream.destroy();
    }
  }
  return { ...base, lines: lines() };
}
