import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/infra/db/index.ts';
import { listMigrations } from '../../src/infra/db/migrate.ts';
import { parseConfig } from '../../src/infra/config.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { queryPacked } from '../../src/infra/db/packed-rows.ts';

let db: TestDatabase;
/**
 * A test database for each test of the calling describe, holding five `seam_rows` when asked. Only
 * the tests that query one get one: a table created is a schema changed, so the database is not
 * handed to the next test (helpers/pglite-pool.ts) and each costs a new PGlite.
 */
function useTestDatabase(options: { seamRows: boolean }): void {
  beforeEach(async () => {
    db = await createTestDatabase();
    if (!options.seamRows) return;
    await db.exec('CREATE TABLE seam_rows (id integer PRIMARY KEY, n integer NOT NULL)');
    await db.query('INSERT INTO seam_rows SELECT g, 0 FROM generate_series(1, 5) g');
  });
  afterEach(async () => {
    await db.destroy();
  });
}

// Both drivers answer rowCount as pg does, so code that counts never depends on the driver.
describe('rowCount, the same on both drivers', () => {
  useTestDatabase({ seamRows: true });
  it('counts the rows a SELECT returns, also one that locks them', async () => {
    expect((await db.query('SELECT id FROM seam_rows')).rowCount).toBe(5);
    const locked = await db.transaction((tx) =>
      tx.query('SELECT id FROM seam_rows ORDER BY id LIMIT 3 FOR UPDATE SKIP LOCKED'),
    );
    expect(locked.rowCount).toBe(3);
    expect((await db.query('SELECT id FROM seam_rows WHERE id > 99')).rowCount).toBe(0);
  });

  it('counts the rows a statement changed, with or without RETURNING', async () => {
    expect((await db.query('UPDATE seam_rows SET n = 1 WHERE id <= 2')).rowCount).toBe(2);
    expect((await db.query('UPDATE seam_rows SET n = 2 WHERE id > 2 RETURNING id')).rowCount).toBe(3);
    expect((await db.query('DELETE FROM seam_rows WHERE id > 99')).rowCount).toBe(0);
    const inTx = await db.transaction((tx) => tx.query('DELETE FROM seam_rows WHERE id = 1'));
    expect(inTx.rowCount).toBe(1);
  });
});

// The ingest hands COPY either the CSV text or its UTF-8 bytes: both drivers store the same rows.
describe('copyCsv, from text and from UTF-8 bytes', () => {
  useTestDatabase({ seamRows: false });
  it('stores the same rows either way, inside a transaction and outside one', async () => {
    await db.exec('CREATE TABLE seam_copy (id integer PRIMARY KEY, label text, tags text[])');
    const csv = (first: number) =>
      `${first},"Zürich, ""naïve"" € 𝛼",` + `"{""a\\\\b"",""c""}"\n${first + 1},,"{}"\n`;
    await db.copyCsv('seam_copy', ['id', 'label', 'tags'], csv(1));
    await db.copyCsv('seam_copy', ['id', 'label', 'tags'], Buffer.from(csv(3), 'utf8'));
    await db.transaction((tx) =>
      db.copyCsv('seam_copy', ['id', 'label', 'tags'], new TextEncoder().encode(csv(5)), tx),
    );
    const { rows } = await db.query<{ id: number; label: string | null; tags: string[] }>(
      'SELECT id, label, tags FROM seam_copy ORDER BY id',
    );
    const row = (id: number) => ({ id, label: 'Zürich, "naïve" € 𝛼', tags: ['a\\b', 'c'] });
    const empty = (id: number) => ({ id, label: null, tags: [] });
    expect(rows).toEqual([row(1), empty(2), row(3), empty(4), row(5), empty(6)]);
  });
});

// The embedded database's cache is memory the process never gives back (WebAssembly memory only
// grows), so its size is the configuration's, not PGlite's 128 MB default.
describe('the embedded database in a data directory', () => {
  it('opens with the configured shared_buffers, also when reopened with another', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'refmatch-buffers-'));
    try {
      const first = await openDatabase({ databaseUrl: null, dataDir, pgliteSharedBuffersMb: 24 });
      expect((await first.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]).toEqual({
        shared_buffers: '24MB',
      });
      await first.close();
      const second = await openDatabase({ databaseUrl: null, dataDir, pgliteSharedBuffersMb: 40 });
      expect((await second.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]).toEqual({
        shared_buffers: '40MB',
      });
      await second.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('defaults to 32 MB', () => {
    expect(parseConfig({}).pgliteSharedBuffersMb).toBe(32);
  });
});

describe('the numbered migrations', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'refmatch-migrations-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('have one file per number in the project', async () => {
    const versions = (await listMigrations()).map((m) => m.version);
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('refuse two files with one number (the second would be skipped as applied)', async () => {
    await writeFile(path.join(dir, '0001_first.sql'), 'SELECT 1;');
    await writeFile(path.join(dir, '0002_a.sql'), 'SELECT 1;');
    await writeFile(path.join(dir, '0002_b.sql'), 'SELECT 1;');
    await expect(listMigrations(dir)).rejects.toThrow(/0002_a\.sql and 0002_b\.sql share the number 0002/);
  });
});

// Many small rows as one JSON document (queryPacked): the same values as the rows, on both drivers.
describe('packed rows', () => {
  useTestDatabase({ seamRows: false });
  const SQL = `SELECT * FROM (VALUES
      (1, 'O''Brien "Jr" \\ é', ARRAY['Ann-Marie', 'A. M.']::text[], true),
      (2, E'tab\there', '{}'::text[], false),
      (3, NULL, ARRAY[NULL, 'x']::text[], NULL)
    ) v(id, name, variants, flag) WHERE id = ANY($1::int[]) ORDER BY id`;
  const COLUMNS = ['id', 'name', 'variants', 'flag'] as const;
  type Row = { id: number; name: string | null; variants: Array<string | null>; flag: boolean | null };

  it('gives the rows the query gives, field for field and in order', async () => {
    const rows = (await db.query<Row>(SQL, [[1, 2, 3]])).rows;
    expect(rows).toHaveLength(3);
    expect(await queryPacked<Row>(db, SQL, [[1, 2, 3]], COLUMNS)).toEqual(rows);
    expect(await queryPacked<Row>(db, SQL, [[3, 1]], COLUMNS)).toEqual([rows[0], rows[2]]);
  });

  it('gives no rows as an empty list', async () => {
    expect(await queryPacked<Row>(db, SQL, [[]], COLUMNS)).toEqual([]);
  });
});
