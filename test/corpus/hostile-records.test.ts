// The corpus as hostile input (round 25): a record's cost bounded by its bytes, whatever it holds.
import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { abstractFromInvertedIndex, parseWork } from '../../src/corpus/openalex/openalex-work.ts';
import { MAX_ABSTRACT_CHARS } from '../../src/corpus/openalex/inverted-index.ts';
import {
  MAX_RECORD_BYTES,
  openRecords,
  overlongRecord,
  readJsonLines,
  type InputLine,
} from '../../src/corpus/openalex/record-reader.ts';
import { authorship, ingest, tempDir, work } from './helpers.ts';

async function readAll(chunks: Buffer[], maxLineBytes: number): Promise<InputLine[]> {
  const out: InputLine[] = [];
  const input = (async function* () {
    yield* chunks;
  })();
  for await (const item of readJsonLines(input, 0, maxLineBytes)) out.push(item);
  return out;
}

const chunked = (bytes: Buffer, size: number) =>
  Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));

describe('a record past MAX_RECORD_BYTES is refused unread, the lines after it read and numbered', () => {
  const long = JSON.stringify({ id: 'W2', title: 'x'.repeat(5000) });
  const bytes = Buffer.from(
    `${JSON.stringify({ id: 'W1', title: 'a' })}\n${long}\r\n${JSON.stringify({ id: 'W3', title: 'c' })}\n`,
  );

  it.each([
    ['in chunks smaller than the line (dropped as it comes)', 100],
    ['in one chunk (measured as a range)', bytes.length],
  ])('%s', async (_, size) => {
    const read = await readAll(chunked(bytes, size), 1000);
    expect(read.map((r) => r.line)).toEqual([1, 2, 3]);
    expect(read[1]).toEqual({ line: 2, error: overlongRecord(1000, long.length + (size === 100 ? 1 : 0)) });
    expect(read[2]!.value).toEqual({ id: 'W3', title: 'c' });
  });

  it('a line without end, last in the stream', async () => {
    const read = await readAll(
      chunked(Buffer.from(`{"id":"W1","title":"a"}\n{"id":"W2","title":"${'y'.repeat(3000)}`), 64),
      1000,
    );
    expect(read.map((r) => [r.line, r.error === undefined])).toEqual([
      [1, true],
      [2, false],
    ]);
    expect(read[1]!.error).toMatch(/^record longer than 1,000 bytes/);
  });

  it('a .gz of one line past the bound (no LF in it) and a work after it', async () => {
    const file = path.join(await tempDir(), 'bomb.jsonl.gz');
    const line = `{"id":"W1","title":"${'a'.repeat(MAX_RECORD_BYTES)}"}`;
    await writeFile(file, gzipSync(`${line}\n${JSON.stringify({ id: 'W2', title: 'b' })}\n`));
    const read: InputLine[] = [];
    for await (const item of (await openRecords(file)).lines) read.push(item);
    expect(read).toEqual([
      { line: 1, error: overlongRecord(MAX_RECORD_BYTES, line.length) },
      { line: 2, value: { id: 'W2', title: 'b' } },
    ]);
  });

  it('a file read whole (one JSON array) that decompresses past the bound: refused, not decompressed', async () => {
    const file = path.join(await tempDir(), 'bomb.json.gz');
    await writeFile(
      file,
      gzipSync(`[\n${JSON.stringify({ id: 'W1', title: 'a' })},\n${' '.repeat(MAX_RECORD_BYTES)}{}]\n`),
    );
    const read: InputLine[] = [];
    for await (const item of (await openRecords(file)).lines) read.push(item);
    expect(read).toEqual([{ line: 1, error: overlongRecord(MAX_RECORD_BYTES) }]);
  });

  it.each([
    ['within the first piece read', 3000],
    ['across pieces read', 600_000],
  ])(
    'a first line past the bound (%s) is a line refused: the file is not taken for one JSON document',
    async (_, n) => {
      const file = path.join(await tempDir(), 'first.jsonl');
      await writeFile(file, `{"id":"W1","title":"${'a'.repeat(n)}\n{"id":"W2","title":"b"}\n`);
      const read: InputLine[] = [];
      for await (const item of (await openRecords(file, 0, 1000)).lines) read.push(item);
      expect(read).toEqual([
        { line: 1, error: overlongRecord(1000, n + 20) },
        { line: 2, value: { id: 'W2', title: 'b' } },
      ]);
    },
  );

  it('the same, plain: refused by its size', async () => {
    const file = path.join(await tempDir(), 'array.json');
    const text = `[\n${JSON.stringify({ id: 'W1', title: 'a' })},\n${' '.repeat(3000)}{}]\n`;
    await writeFile(file, text);
    const read: InputLine[] = [];
    for await (const item of (await openRecords(file, 0, 1000)).lines) read.push(item);
    expect(read).toEqual([{ line: 1, error: overlongRecord(1000, text.length) }]);
  });
});

describe('an abstract is rebuilt to at most MAX_ABSTRACT_CHARS, cut at a word', () => {
  // One word named at every position: 100,000 positions of a 6,000-character word would be 600 MB,
  // past the longest string V8 makes.
  const word = 'w'.repeat(5999);
  const positions = Array.from({ length: 100_000 }, (_, i) => i);
  const expected = Array.from({ length: Math.floor((MAX_ABSTRACT_CHARS + 1) / 6000) }, () => word).join(' ');

  it.each([
    ['from its bytes', { [word]: positions }],
    ['from its text (an escaped key)', { [`${word}\u0001`]: positions, x: [] }],
    ['from entries (a position claimed twice)', { [word]: positions, y: [99_999] }],
  ])('%s', async (_, index) => {
    const read = await readAll(
      [Buffer.from(`${JSON.stringify(work({ abstract_inverted_index: index }))}\n`)],
      MAX_RECORD_BYTES,
    );
    const abstract = parseWork(read[0]!.value).abstract!;
    expect(abstract.length).toBeLessThanOrEqual(MAX_ABSTRACT_CHARS);
    expect(abstract.replaceAll('\u0001', '').slice(0, 5000)).toBe(expected.slice(0, 5000));
    expect(abstract.endsWith(word) || abstract.endsWith(`${word}\u0001`)).toBe(true);
  });

  it('from a plain object, and an abstract given as text', () => {
    expect(abstractFromInvertedIndex({ [word]: positions })).toBe(expected);
    const text = `${'lorem ipsum '.repeat(20_000)}end`;
    const abstract = parseWork(work({ abstract_inverted_index: null, abstract: text })).abstract!;
    expect(abstract.length).toBeLessThanOrEqual(MAX_ABSTRACT_CHARS);
    expect(text.startsWith(abstract)).toBe(true);
    expect(text[abstract.length]).toBe(' ');
  });
});

describe("an author's names and an authorship's institutions, however often a record repeats them", () => {
  it('the first name and every raw name once each, sorted; the institutions once each, in order', () => {
    const author = { id: 'https://openalex.org/A1', display_name: 'Ada Lovelace' };
    const inst = (i: number) => ({ id: `https://openalex.org/I${i}`, display_name: `Institute ${i}` });
    const record = parseWork(
      work({
        authorships: [
          { author, raw_author_name: 'A. Lovelace', institutions: [inst(2), inst(1), inst(2)] },
          { author: { ...author, display_name: 'Augusta Ada King' }, raw_author_name: 'Lovelace, Ada' },
          { author, raw_author_name: 'A. Lovelace', institutions: [inst(3)] },
        ],
      }),
    );
    expect(record.authors).toEqual([
      expect.objectContaining({
        author_key: 'A1',
        display_name: 'Ada Lovelace',
        name_variants: ['A. Lovelace', 'Ada Lovelace', 'Lovelace, Ada'],
      }),
    ]);
    expect(record.authorships.map((a) => a.institution_keys)).toEqual([['I2', 'I1'], [], ['I3']]);
  });
});

describe('ingest of a file with hostile records between good ones', () => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await createTestDatabase();
  });
  afterEach(async () => {
    await db.destroy();
  });

  it('the good works and the bounded one stored, the one past the bound refused with its line', async () => {
    const [first, refused, last] = [work(), work(), work()];
    const amplified = work({
      abstract_inverted_index: { ['z'.repeat(10_000)]: Array.from({ length: 100_000 }, (_, i) => i) },
    });
    const lines = [
      JSON.stringify(first),
      JSON.stringify(amplified),
      `${JSON.stringify(refused).slice(0, -1)},"x":"${'b'.repeat(MAX_RECORD_BYTES)}"}`,
      JSON.stringify(last),
    ];
    const file = path.join(await tempDir(), 'hostile.jsonl');
    await writeFile(file, `${lines.join('\n')}\n`);
    const report = await ingest(db, 'works', [file]);
    expect(report.records).toBe(3);
    expect(report.files[0]!.bad_records).toEqual([
      { line: 3, reason: overlongRecord(MAX_RECORD_BYTES, lines[2]!.length) },
    ]);
    const { rows } = await db.query<{ work_key: string; n: number }>(
      'SELECT work_key, length(abstract)::int AS n FROM works ORDER BY work_key',
    );
    const key = (w: Record<string, unknown>) => String(w.id).replace('https://openalex.org/', '');
    expect(rows.map((r) => r.work_key).sort()).toEqual([first, amplified, last].map(key).sort());
    expect(Math.max(...rows.map((r) => r.n))).toBeLessThanOrEqual(MAX_ABSTRACT_CHARS);
  });

  it('ids holding a NUL (no text column can store one): the work refused with its line, the author and source keyed without them, the rest stored', async () => {
    const [first, last] = [work(), work()];
    const nulWork = work({ id: 'https://openalex.org/W1\u0000' });
    const nulAuthor = work({
      authorships: [authorship('https://openalex.org/A5\u0000', 'Ada Nul')],
      primary_location: { source: { id: 'S7\u0000', display_name: 'Journal of Nul' } },
    });
    const file = path.join(await tempDir(), 'nul-ids.jsonl');
    await writeFile(file, `${[first, nulWork, nulAuthor, last].map((w) => JSON.stringify(w)).join('\n')}\n`);
    const report = await ingest(db, 'works', [file]);
    expect(report.files[0]!.bad_records).toEqual([{ line: 2, reason: 'missing id' }]);
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM works');
    expect(rows[0]!.n).toBe(3);
    const keys = await db.query<{ author_key: string }>(
      "SELECT author_key FROM authors WHERE display_name = 'Ada Nul'",
    );
    expect(keys.rows).toHaveLength(1);
    expect(keys.rows[0]!.author_key).not.toContain('\u0000');
  });

  it('an author named under many names in works of several batches (the initial load) keeps each once', async () => {
    const author = { id: 'https://openalex.org/A77', display_name: 'Grace Hopper' };
    const named = (from: number, to: number) =>
      work({
        authorships: Array.from({ length: to - from }, (_, i) => ({
          author,
          raw_author_name: `G. Hopper ${from + i}`,
        })),
      });
    const file = path.join(await tempDir(), 'names.jsonl');
    await writeFile(
      file,
      `${[named(0, 40), named(20, 60), named(50, 70)].map((w) => JSON.stringify(w)).join('\n')}\n`,
    );
    const report = await ingest(db, 'works', [file], 1);
    expect(report.files[0]!.initial_load).toBe(true);
    const { rows } = await db.query<{ name_variants: string[] }>(
      `SELECT name_variants FROM authors WHERE author_key = 'A77'`,
    );
    const expected = ['Grace Hopper', ...Array.from({ length: 70 }, (_, i) => `G. Hopper ${i}`)];
    expect([...rows[0]!.name_variants].sort()).toEqual(expected.sort());
  });
});
