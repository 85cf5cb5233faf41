import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { worksKind } from '../../src/corpus/openalex/entities.ts';
import { ingestFiles } from '../../src/corpus/ingest/ingest.ts';
import { authorship, ingest, OPENALEX, snapshot, tempDir, work, writeLines } from './helpers.ts';

let db: TestDatabase;
beforeEach(async () => {
  db = await createTestDatabase();
});
afterEach(async () => {
  await db.destroy();
});

async function changeSeqs(): Promise<Record<string, number>> {
  const { rows } = await db.query<{ work_key: string; change_seq: number }>(
    'SELECT work_key, change_seq FROM works',
  );
  return Object.fromEntries(rows.map((r) => [r.work_key, r.change_seq]));
}

describe('idempotency: the same file twice leaves the same corpus', () => {
  it('updates, never duplicates, and does not move change_seq when nothing changed', async () => {
    const file = path.join(OPENALEX, 'openalexPro-biodiversity-finance-200works.jsonl');
    await ingest(db, 'works', [file]);
    const first = await snapshot(db);
    const seqs = await changeSeqs();
    const again = await ingest(db, 'works', [file], 37);
    expect(again.records).toBe(200);
    // Nothing changed, so no author needed its metrics recomputed.
    expect(again.authors_recomputed).toBe(0);
    expect(await snapshot(db)).toEqual(first);
    expect(await changeSeqs()).toEqual(seqs);
  });

  it('two ingests of the same new works at once leave the corpus of one, with nothing reported bad', async () => {
    const dir = await tempDir();
    const works = Array.from({ length: 60 }, (_, i) =>
      work({ authorships: [authorship(`https://openalex.org/A7${i}`, `Ann Author${i}`)] }),
    );
    const first = await writeLines(dir, 'a.jsonl', works);
    const second = await writeLines(dir, 'b.jsonl', works);
    // Both find every work new when they start; whichever writes second meets the other's rows.
    const reports = await Promise.all([ingest(db, 'works', [first], 20), ingest(db, 'works', [second], 20)]);
    for (const r of reports) expect(r).toMatchObject({ records: 60, bad_count: 0 });
    const clean = await createTestDatabase();
    try {
      await ingest(clean, 'works', [first], 20);
      expect(await snapshot(db)).toEqual(await snapshot(clean));
    } finally {
      await clean.destroy();
    }
  });

  it('moves change_seq of a work whose text changed, and only of that one', async () => {
    const dir = await tempDir();
    const a = work({ title: 'First title' });
    const b = work({ title: 'Untouched' });
    await ingest(db, 'works', [await writeLines(dir, 'v1.jsonl', [a, b])]);
    const before = await changeSeqs();
    await ingest(db, 'works', [
      await writeLines(dir, 'v2.jsonl', [
        { ...a, title: 'Second title' },
        { ...b, cited_by_count: 5 },
      ]),
    ]);
    const after = await changeSeqs();
    const keyA = String(a.id).replace('https://openalex.org/', '');
    const keyB = String(b.id).replace('https://openalex.org/', '');
    expect(after[keyA]).toBeGreaterThan(Math.max(...Object.values(before)));
    // A citation count is not text the retrieval index reads.
    expect(after[keyB]).toBe(before[keyB]);
    const { rows } = await db.query<{ title: string }>('SELECT title FROM works WHERE work_key = $1', [keyA]);
    expect(rows[0]!.title).toBe('Second title');
  });

  it('keeps the last occurrence of a work repeated within one file', async () => {
    const dir = await tempDir();
    const a = work({ title: 'Old' });
    await ingest(db, 'works', [await writeLines(dir, 'dup.jsonl', [a, { ...a, title: 'New' }])]);
    const { rows } = await db.query<{ title: string }>('SELECT title FROM works');
    expect(rows).toEqual([{ title: 'New' }]);
  });
});

describe('input forms', () => {
  it('reads gzip JSON lines and a pretty-printed single object', async () => {
    const dir = await tempDir();
    const gz = await writeLines(dir, 'works.jsonl.gz', [work(), work()]);
    const pretty = path.join(dir, 'one.json');
    await writeFile(pretty, JSON.stringify(work(), null, 2));
    const report = await ingest(db, 'works', [gz, pretty]);
    expect(report.files.map((f) => f.records)).toEqual([2, 1]);
  });
});

describe('bad records: counted and reported with line and reason, never fatal', () => {
  it('reports each bad line and loads every good one', async () => {
    const dir = await tempDir();
    const file = await writeLines(dir, 'mixed.jsonl', [
      work(),
      '{"id": "W1", "title": ',
      work({ title: null, display_name: null }),
      '[1, 2]',
      work({ publication_year: 'last year' }),
      work({ id: null }),
      work({ cited_by_count: -3 }),
      work(),
    ]);
    const report = await ingest(db, 'works', [file], 3);
    expect(report.records).toBe(2);
    expect(report.bad_count).toBe(6);
    expect(report.files[0]!.bad_records.map((b) => b.line)).toEqual([2, 3, 4, 5, 6, 7]);
    const reasons = report.files[0]!.bad_records.map((b) => b.reason);
    expect(reasons[0]).toMatch(/^invalid JSON/);
    expect(reasons.slice(1)).toEqual([
      'missing title',
      'not a JSON object',
      'publication_year is not a year',
      'missing id',
      'cited_by_count is not a non-negative whole number',
    ]);
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM works');
    expect(rows[0]!.n).toBe(2);
  });

  it.each(['never', 'always'] as const)(
    'a record the database refuses is reported with its line, its batch-mates still load (parse thread: %s)',
    async (parseThread) => {
      const dir = await tempDir();
      // Valid JSON and a valid record, but its citation count overflows the integer column.
      const file = await writeLines(dir, 'refused.jsonl', [
        work(),
        work({ cited_by_count: 3_000_000_000 }),
        work(),
        '{"broken',
        work(),
      ]);
      const report = await ingest(db, 'works', [file], 4, { parseThread });
      expect(report.records).toBe(3);
      expect(report.files[0]!.bad_records).toEqual([
        { line: 2, reason: expect.stringMatching(/^rejected by the database: .*out of range/) },
        { line: 4, reason: expect.stringMatching(/^invalid JSON/) },
      ]);
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM works');
      expect(rows[0]!.n).toBe(3);
    },
  );
});

describe('the parse thread', () => {
  it('loads the same corpus and reports the same as reading in the ingesting thread', async () => {
    const dir = await tempDir();
    const real = path.join(OPENALEX, 'openalexPro-biodiversity-finance-200works.jsonl');
    const mixed = await writeLines(dir, 'mixed.jsonl', [work(), '[1]', work({ id: null }), work()]);
    const inThread = await ingest(db, 'works', [real, mixed], 30, { parseThread: 'never' });
    const expected = await snapshot(db);
    const other = await createTestDatabase();
    try {
      const threaded = await ingestFiles({ db: other, progress: () => {} }, worksKind, [real, mixed], 30, {
        parseThread: 'always',
      });
      expect(threaded).toEqual(inThread);
      expect(await snapshot(other)).toEqual(expected);
    } finally {
      await other.destroy();
    }
  });

  it('fails the run with the reason when the file breaks mid-way, keeping what committed', async () => {
    const dir = await tempDir();
    const works = Array.from({ length: 2_000 }, (_, i) => work({ title: `Work ${i} ${'text '.repeat(40)}` }));
    const file = await writeLines(dir, 'works.jsonl.gz', works);
    // A gzip stream cut short: the first lines read, the rest is missing.
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(file);
    await writeFile(file, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    await expect(ingest(db, 'works', [file], 100, { parseThread: 'always' })).rejects.toThrow(
      /parse thread: .*unexpected end of file/i,
    );
    const { rows } = await db.query<{ lines_done: number; completed: boolean }>(
      'SELECT lines_done, completed FROM ingest_checkpoints',
    );
    expect(rows[0]!.completed).toBe(false);
    expect(rows[0]!.lines_done).toBeGreaterThan(0);
  });
});

describe('authors without an OpenAlex id', () => {
  it('are keyed by ORCID, else by normalized name within the id space of the source', async () => {
    const dir = await tempDir();
    const file = await writeLines(dir, 'noid.jsonl', [
      work({
        id: 'acl:test-1',
        authorships: [
          authorship('', 'Ana Souza', {
            author: { id: null, display_name: 'Ana Souza', orcid: 'https://orcid.org/0000-0002-1825-0097' },
          }),
          authorship('', 'José  Pérez', { author: { id: null, display_name: 'José  Pérez', orcid: null } }),
        ],
      }),
      work({
        authorships: [
          authorship('', 'José Pérez', { author: { id: null, display_name: 'José Pérez', orcid: null } }),
        ],
      }),
    ]);
    await ingest(db, 'works', [file]);
    const { rows } = await db.query<{ author_key: string }>(
      'SELECT author_key FROM authors ORDER BY author_key',
    );
    expect(rows.map((r) => r.author_key)).toEqual([
      'acl:name/jose perez',
      'openalex:name/jose perez',
      'orcid:0000-0002-1825-0097',
    ]);
  });
});
