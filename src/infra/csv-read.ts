// Reading CSV a piece at a time, with turns of the event loop between pieces, for the imports that
// run in the serving process (a group's records from the dashboard, `refmatch coi import` over the
// admin channel): csv-parse's parse of a whole text in one call held the loop for its whole length
// (a 50 MiB file 22 s of CPU; docs/benchmarks/hostile-uploads.md, rounds 14 and 23).
import { createReadStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { parse, type CsvError, type Options } from 'csv-parse';
import { TimeSlicer } from './event-loop.ts';

/** Characters of a CSV handed to its parser at a time (a few ms of parsing), a chance to pause after each. */
export const CSV_PIECE_CHARS = 64 * 1024;

/**
 * A CSV's text in pieces, a turn of the event loop given between them once a slice of time is used:
 * what the parser reads them for runs between the pieces. A piece never ends inside a surrogate
 * pair, each piece being encoded to UTF-8 alone.
 */
export async function* piecesOf(csv: string): AsyncGenerator<string> {
  const slicer = new TimeSlicer();
  for (let at = 0; at < csv.length;) {
    let end = Math.min(csv.length, at + CSV_PIECE_CHARS);
    const last = csv.charCodeAt(end - 1);
    if (end < csv.length && last >= 0xd800 && last <= 0xdbff) end++;
    yield csv.slice(at, end);
    at = end;
    if (slicer.due) await slicer.pause();
  }
}

/** A file read past the bytes its reader allows. */
export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is larger than ${maxBytes} bytes`);
  }
}

/**
 * A file's text, decoded as UTF-8, in the pieces it is read by (`CSV_PIECE_CHARS` bytes): throws
 * `FileTooLargeError` once more than `maxBytes` were read (counted as read, so a pipe or a device
 * without end is refused too, not only a large file). `gunzip`: the file is gzipped, its bytes
 * counted as decompressed.
 */
export async function* filePiecesOf(
  path: string,
  maxBytes: number,
  { gunzip = false } = {},
): AsyncGenerator<string> {
  const slicer = new TimeSlicer();
  const decoder = new StringDecoder('utf8');
  const file = createReadStream(path, { highWaterMark: CSV_PIECE_CHARS });
  const stream = gunzip ? file.pipe(createGunzip()) : file;
  let bytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > maxBytes) throw new FileTooLargeError(maxBytes);
      yield decoder.write(chunk);
      if (slicer.due) await slicer.pause();
    }
    const rest = decoder.end();
    if (rest) yield rest;
  } finally {
    stream.destroy();
    file.destroy();
  }
}

/** The records one piece of a CSV parsed to, each with the line it starts on (`csvRecords`). */
export interface CsvRecords {
  records: string[][];
  lines: number[];
}

/**
 * The records the CSV's pieces parse to (by csv-parse's `options`), in order, yielded a piece's at a
 * time as each piece is parsed. Each piece is parsed, and its records collected, in one synchronous
 * write (csv-parse's `on_record`): records read from the parser as a stream cost an await each, 2.2 s
 * of CPU for 100,000 rows of two fields. A parse error, or an error of the pieces' source, throws.
 *
 * A record's line is the line it starts on, lines ended by CR, LF or CRLF as `linesAtMost` counts
 * them: a record's quoted field may span lines, and empty lines are skipped, so a record's index is
 * not its line. A parse error is a `CsvRowError` naming the line its record starts on too
 * (csv-parse's own count takes a CRLF inside quotes for two lines). `onSkip` (with
 * `skip_records_with_error`) is told of a record refused and skipped, and its line; past one, a
 * line break inside its quoted fields is not counted. Exact for the options used here (no
 * `comment`, no `skip_records_with_empty_values`: the lines of what those skip are not counted).
 */
export async function* csvRecords(
  pieces: AsyncIterable<string>,
  options: Options,
  onSkip?: (error: Error, line: number) => void,
): AsyncGenerator<CsvRecords> {
  let batch: CsvRecords = { records: [], lines: [] };
  // The line breaks of the records read so far: each one's ending and those inside its fields. The
  // empty lines skipped between them the parser counts (`empty_lines`).
  let breaks = 0;
  let lastSkip: { breaks: number; lines: number } | undefined;
  const parser = parse({
    ...options,
    on_record: (record: string[], context) => {
      batch.records.push(record);
      batch.lines.push(1 + breaks + context.empty_lines);
      breaks += 1 + lineBreaksIn(record);
      return null;
    },
    ...(onSkip && {
      skip_records_with_error: true,
      on_skip: (error: CsvError | undefined) => {
        if (!error) return;
        // A record of two errors is told of twice: its line break counted once (by the parser's
        // line, the same for both unless they are on two lines of the record).
        const same = lastSkip?.breaks === breaks && lastSkip.lines === error.lines;
        if (!same) breaks += 1;
        lastSkip = { breaks, lines: error.lines };
        onSkip(error, lineOf(error, breaks - 1));
      },
    }),
  });
  parser.on('error', () => {}); // thrown below, from `errored`
  parser.resume();
  const taken = () => {
    const done = batch;
    batch = { records: [], lines: [] };
    return done;
  };
  try {
    for await (const piece of pieces) {
      parser.write(piece);
      if (parser.errored) throw rowError(parser.errored, breaks);
      if (batch.records.length > 0) yield taken();
    }
    parser.end();
    await finished(parser).catch((error: unknown) => {
      throw rowError(error, breaks);
    });
    if (batch.records.length > 0) yield taken();
  } finally {
    parser.destroy();
  }
}

/**
 * Calls `onRecord` with each record the CSV's pieces parse to, its index and the line it starts on
 * (`csvRecords`), in order; `onRecord` returning false stops the reading there, the rest left unread
 * (`stopped` says so).
 */
export async function forEachCsvRecord(
  pieces: AsyncIterable<string>,
  options: Options,
  onRecord: (record: string[], index: number, line: number) => boolean | void,
): Promise<{ stopped: boolean }> {
  let index = 0;
  for await (const { records, lines } of csvRecords(pieces, options)) {
    for (let i = 0; i < records.length; i++) {
      if (onRecord(records[i]!, index++, lines[i]!) === false) return { stopped: true };
    }
  }
  return { stopped: false };
}

/**
 * A header row's columns by name. Names are trimmed: a header cell " doi " is a typo, not another
 * column. A name written twice is its first column, as a reader reading the header finds it.
 */
export function columnsByName(header: readonly string[]): Map<string, number> {
  const columns = new Map<string, number>();
  for (const [at, name] of header.entries()) {
    const key = name.trim();
    if (!columns.has(key)) columns.set(key, at);
  }
  return columns;
}

/** A CSV the parser refused, with the line its record in progress starts on (`forEachCsvRecord`). */
export class CsvRowError extends Error {
  constructor(
    readonly code: string,
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/** The line the record of csv-parse's error starts on, after `breaks` lines of records. */
function lineOf(error: unknown, breaks: number): number {
  const { empty_lines: empty } = error as { empty_lines?: unknown };
  return 1 + breaks + (typeof empty === 'number' ? empty : 0);
}

/** csv-parse's error as a `CsvRowError` (others as they are), after `breaks` lines of records. */
function rowError(error: unknown, breaks: number): unknown {
  const { code } = error as { code?: unknown };
  if (typeof code !== 'string' || !code.startsWith('CSV_')) return error;
  return new CsvRowError(code, lineOf(error, breaks), (error as Error).message);
}

/** The line breaks (CR, LF or CRLF) inside a record's fields. */
function lineBreaksIn(record: readonly string[]): number {
  let n = 0;
  for (const field of record) {
    if (field.indexOf('\n') < 0 && field.indexOf('\r') < 0) continue;
    n += field.match(/\r\n?|\n/g)!.length;
  }
  return n;
}

/** A line read past the characters its reader allows. */
export class LineTooLongError extends Error {
  constructor(
    readonly line: number,
    readonly maxChars: number,
  ) {
    super(`line ${line} is longer than ${maxChars} characters`);
  }
}

/**
 * The pieces as they come, throwing `LineTooLongError` once a line (ended by CR, LF or CRLF) is longer
 * than `maxChars`: bounds a field's length and a row's columns before the parser holds them (a line of
 * 40 MB of commas is 40 M empty fields in one array; csv-parse's `max_record_size` counts only the
 * fields' characters, and a `cast` to count the columns cost 4x the parse).
 */
export async function* linesAtMost(pieces: AsyncIterable<string>, maxChars: number): AsyncGenerator<string> {
  const breaks = /\r\n?|\n/g;
  let line = 1;
  let run = 0;
  let afterCr = false;
  for await (const piece of pieces) {
    let at = afterCr && piece.startsWith('\n') ? 1 : 0;
    breaks.lastIndex = at;
    for (let found = breaks.exec(piece); found; found = breaks.exec(piece)) {
      if (run + found.index - at > maxChars) throw new LineTooLongError(line, maxChars);
      line++;
      run = 0;
      at = found.index + found[0].length;
    }
    run += piece.length - at;
    if (run > maxChars) throw new LineTooLongError(line, maxChars);
    afterCr = piece.endsWith('\r');
    yield piece;
  }
}
