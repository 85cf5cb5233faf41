// Streams the records of an input file in constant memory: JSON lines, plain or gzip (detected by
// its magic bytes, not its name). A file holding one pretty-printed JSON object or array (as the
// OpenAlex API saves one entity) is read whole instead; those are small by nature. Neither a line
// nor a file read whole is kept past MAX_RECORD_BYTES: the file is outside data, and a line without
// end (a .gz of a gigabyte of one line is a megabyte) would otherwise be gathered until the process
// ran out of memory, taking the whole run with it.
import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { createGunzip, gunzipSync } from 'node:zlib';
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

/**
 * The most bytes one record (a line, or a file read whole) may have. The largest works OpenAlex holds
 * (a collaboration's thousands of authorships with their affiliations) are a few MB; the demo
 * corpus's largest line is 14 KB. A record parsed costs several times its bytes in memory.
 */
export const MAX_RECORD_BYTES = 32 * 1024 * 1024;

/** The refusal of a record past the bound: a line (its length known), or a file read whole. */
export function overlongRecord(maxBytes: number, bytes?: number): string {
  const length = bytes === undefined ? '' : ` (${bytes.toLocaleString('en-US')})`;
  return `record longer than ${maxBytes.toLocaleString('en-US')} bytes${length}: not read`;
}

/** A line longer than lineBlocks keeps: its bytes were dropped as they came, counted. */
export class OverlongLine {
  constructor(readonly bytes: number) {}
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

/**
 * Whether the file is JSON lines: its first non-blank line is JSON, or does not start like a JSON
 * document. A first line past `maxLineBytes` counts as a line (the reader then refuses it).
 */
async function firstLineIsJson(path: string, gz: boolean, maxLineBytes: number): Promise<boolean> {
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  const input = gz ? stream.pipe(createGunzip()) : stream;
  let first = true;
  try {
    for await (const block of lineBlocks(input, maxLineBytes)) {
      if (block instanceof OverlongLine) return true;
      for (const [from, to] of lineRanges(block)) {
        if (to - from > maxLineBytes) return true;
        const read = block.toString('utf8', from, to);
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
    }
    return true;
  } finally {
    input.destroy();
    stream.destroy();
  }
}

/**
 * A byte stream cut into blocks of whole lines: each block ends just after an LF, but the last,
 * which holds what follows the stream's last LF (if anything). A line cut between chunks is joined,
 * unless it grows past `maxLineBytes`: then it is dropped as it comes and stands as an OverlongLine
 * (a line within one chunk is not measured here: the caller measures its ranges).
 */
export async function* lineBlocks(
  input: AsyncIterable<Buffer>,
  maxLineBytes = MAX_RECORD_BYTES,
): AsyncIterable<Buffer | OverlongLine> {
  // The start of a line not ended yet: the rest of one chunk, and whole chunks if the line is long.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  // Bytes of the line being dropped (past the bound) so far, or -1 when none is.
  let dropped = -1;
  for await (const whole of input) {
    let chunk = whole;
    if (dropped >= 0) {
      const lf = chunk.indexOf(0x0a);
      if (lf === -1) {
        dropped += chunk.length;
        continue;
      }
      yield new OverlongLine(dropped + lf);
      dropped = -1;
      chunk = chunk.subarray(lf + 1);
    }
    const cut = chunk.lastIndexOf(0x0a) + 1;
    if (cut === 0) {
      if (chunk.length === 0) continue;
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes > maxLineBytes) {
        dropped = pendingBytes;
        pending = [];
        pendingBytes = 0;
      }
      continue;
    }
    const lines = chunk.subarray(0, cut);
    yield pending.length > 0 ? Buffer.concat([...pending, lines]) : lines;
    pending = cut < chunk.length ? [chunk.subarray(cut)] : [];
    pendingBytes = chunk.length - cut;
  }
  if (dropped >= 0) yield new OverlongLine(dropped);
  else if (pending.length > 0) yield Buffer.concat(pending);
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

/** The lines of a byte stream, decoded as UTF-8 (lineBlocks' and lineRanges' rules; no bound). */
export async function* splitLines(input: AsyncIterable<Buffer>): AsyncIterable<string> {
  for await (const block of lineBlocks(input, Infinity)) {
    if (block instanceof OverlongLine) continue;
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
 * The records of a stream of JSON lines from after line `skipLines`, blank lines left out, a line
 * past `maxLineBytes` refused unread. Lines are parsed from their bytes when their block is valid
 * UTF-8 (nearly always): decoded alone, a line without a character past U+00FF is a one-byte string,
 * which JSON.parse and every later step read faster than a slice of a chunk that one such character
 * elsewhere made two-byte.
 */
export async function* readJsonLines(
  input: AsyncIterable<Buffer>,
  skipLines = 0,
  maxLineBytes = MAX_RECORD_BYTES,
): AsyncIterable<InputLine> {
  let n = 0;
  for await (const block of lineBlocks(input, maxLineBytes)) {
    if (block instanceof OverlongLine) {
      if (++n > skipLines) yield { line: n, error: overlongRecord(maxLineBytes, block.bytes) };
      continue;
    }
    // Over invalid UTF-8, two words of an index that differ only in invalid bytes decode alike (to
    // U+FFFD), a repeated key the byte scan would not see: such a block's lines are decoded first.
    const utf8 = isUtf8(block);
    // A line is parsed when asked for: no block's worth of parsed lines waits in memory.
    for (const [start, to] of lineRanges(block)) {
      // The UTF-8 byte-order mark, EF BB BF (see BOM).
      const bom = n === 0 && block[start] === 0xef && block[start + 1] === 0xbb && block[start + 2] === 0xbf;
      const from = bom ? start + 3 : start;
      if (++n <= skipLines) continue;
      if (to - from > maxLineBytes) {
        yield { line: n, error: overlongRecord(maxLineBytes, to - from) };
        continue;
      }
      const item = utf8 ? parseLineBytes(block, from, to, n) : parseDecoded(block, from, to, n);
      if (item) yield item;
    }
  }
}

/** The file's bytes (decompressed), or null when they pass `maxBytes` (a gzip is stopped there). */
async function readWhole(path: string, gz: boolean, size: number, maxBytes: number): Promise<Buffer | null> {
  if (size > maxBytes) return null;
  const bytes = await readFile(path);
  if (!gz) return bytes;
  try {
    return gunzipSync(bytes, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return null;
    throw error;
  }
}

async function* wholeFile(
  path: string,
  gz: boolean,
  size: number,
  maxBytes: number,
): AsyncIterable<InputLine> {
  const bytes = await readWhole(path, gz, size, maxBytes);
  if (!bytes) {
    yield { line: 1, error: overlongRecord(maxBytes, gz ? undefined : size) };
    return;
  }
  const text = withoutBom(bytes.toString('utf8'));
  const parsed = parseLine(text, 1);
  if (parsed.error || !Array.isArray(parsed.value)) {
    yield parsed;
    return;
  }
  let n = 0;
  for (const item of parsed.value) yield { line: ++n, value: item };
}

/** The records of the file at `path` from after line `skipLines`; `maxRecordBytes` for tests. */
export async function openRecords(
  path: string,
  skipLines = 0,
  maxRecordBytes = MAX_RECORD_BYTES,
): Promise<RecordSource> {
  const info = await stat(path);
  const gz = await isGzip(path);
  let read = 0;
  const base = { size: info.size, mtimeMs: Math.floor(info.mtimeMs), bytesRead: () => read };
  if (!(await firstLineIsJson(path, gz, maxRecordBytes))) {
    return {
      ...base,
      lines: (async function* () {
        for await (const item of wholeFile(path, gz, info.size, maxRecordBytes)) {
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
      yield* readJsonLines(input, skipLines, maxRecordBytes);
    } finally {
      input.destroy();
      stream.destroy();
    }
  }
  return { ...base, lines: lines() };
}
