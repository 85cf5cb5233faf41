// Streams the records of an input file in constant memory: JSON lines, plain or gzip (detected by
// its magic bytes, not its name). A file holding one pretty-printed JSON object or array (as the
// OpenAlex API saves one entity) is read whole instead; those are small by nature.
import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { createGunzip, gunzipSync } from 'node:zlib';
import { createInterface } from 'node:readline';
import { StringDecoder } from 'node:string_decoder';
import { parseWithInvertedIndex } from './inverted-index.ts';

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

async function firstLineIsJson(path: string, gz: boolean): Promise<boolean> {
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  const lines = createInterface({ input: gz ? stream.pipe(createGunzip()) : stream, crlfDelay: Infinity });
  try {
    for await (const line of lines) {
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
 * The lines of a byte stream, decoded as UTF-8: split at LF, a CR before it dropped (readline's
 * rule for CRLF files), the last line yielded even without its LF. Splitting the decoded chunks
 * with indexOf costs a fraction of readline's per-line regular expression and events.
 */
export async function* splitLines(input: AsyncIterable<Buffer>): AsyncIterable<string> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of input) {
    const text = rest + decoder.write(chunk);
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      yield text.charCodeAt(end - 1) === 13 && end > start
        ? text.slice(start, end - 1)
        : text.slice(start, end);
      start = end + 1;
    }
    rest = text.slice(start);
  }
  rest += decoder.end();
  if (rest !== '') yield rest.endsWith('\r') ? rest.slice(0, -1) : rest;
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

async function* wholeFile(path: string, gz: boolean): AsyncIterable<InputLine> {
  const bytes = await readFile(path);
  const text = (gz ? gunzipSync(bytes) : bytes).toString('utf8');
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
    let n = 0;
    try {
      for await (const line of splitLines(input)) {
        n++;
        if (n <= skipLines || line.trim() === '') continue;
        yield parseLine(line, n);
      }
    } finally {
      input.destroy();
      stream.destroy();
    }
  }
  return { ...base, lines: lines() };
}
