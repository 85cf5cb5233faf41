// The search index's snapshot (src/retrieval/index-snapshot.ts, read and written by db-work-index.ts):
// a restart reads it and catches up with what changed since, and a snapshot that is corrupt,
// truncated, made by another format or analysis, made from another database or ahead of this one is
// refused and the index built from the database instead: never served. On PGlite, and on server
// PostgreSQL when DATABASE_URL is set (tests/helpers/db.ts).
import { mkdtemp, readFile, readdir, rm, stat, truncate, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Queryable } from '../../src/infra/db/index.ts';
import { DbWorkIndex, type DbWorkIndexOptions, type IndexLog } from '../../src/retrieval/db-work-index.ts';
import { SNAPSHOT_FILE } from '../../src/retrieval/index-snapshot.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const WORKS: Array<[string, string]> = [
  ['Graph neural networks for molecules', 'Message passing over molecular graphs predicts properties.'],
  ['Neural machine translation', 'Transfer learning for translation between low-resource languages.'],
  ['Coral reef biodiversity', 'Surveys of reef fish show decline under ocean warming.'],
  ['Payments for ecosystem services', 'Conservation finance in tropical forests and watersheds.'],
  ['Speech recognition with transformers', 'Self-attention models transcribe spoken language.'],
];

async function insertWork(db: Queryable, key: string, title: string, abstract: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    'INSERT INTO works (work_key, title, abstract, publication_year) VALUES ($1, $2, $3, 2020) RETURNING id',
    [key, title, abstract],
  );
  return rows[0]!.id;
}

async function corpus(): Promise<{ db: TestDatabase; ids: number[] }> {
  const db = await createTestDatabase();
  cleanups.push(() => db.destroy());
  const ids: number[] = [];
  for (const [i, [title, abstract]] of WORKS.entries())
    ids.push(await insertWork(db, `w:${i}`, title, abstract));
  return { db, ids };
}

async function snapshotDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'refmatch-index-snapshot-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function openIndex(db: Queryable & TestDatabase, dir: string, options: DbWorkIndexOptions = {}) {
  const index = new DbWorkIndex(db, { pollMs: 0, snapshotDir: dir, ...options });
  cleanups.push(() => index.close());
  await index.start();
  return index;
}

/** Starts an index on `db`, lets it write its first snapshot, and closes it. */
async function writeSnapshot(db: TestDatabase, dir: string, options: DbWorkIndexOptions = {}) {
  const index = await openIndex(db, dir, options);
  // The first snapshot is written in the background after the start; a refresh queues behind it.
  await index.refresh();
  await index.close();
  const file = path.join(dir, SNAPSHOT_FILE);
  expect((await stat(file)).size).toBeGreaterThan(0);
  return file;
}

const search = (index: DbWorkIndex, text: string) => index.search({ fields: [{ text, weight: 1 }], k: 10 });

/** Rewrites a snapshot's JSON header (at the end of the file) with its checksum made to fit. */
async function rewriteHeader(file: string, patch: (header: Record<string, unknown>) => void) {
  const bytes = await readFile(file);
  const headerLength = bytes.readUInt32LE(12);
  const headerOffset = bytes.readDoubleLE(16);
  const header = JSON.parse(bytes.subarray(headerOffset, headerOffset + headerLength).toString('utf8'));
  patch(header);
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Buffer.from(bytes.subarray(0, 32));
  prefix.writeUInt32LE(headerBytes.length, 12);
  prefix.writeUInt32LE(crc32(headerBytes), 24);
  await writeFile(file, Buffer.concat([prefix, bytes.subarray(32, headerOffset), headerBytes]));
}

describe('a restart with a snapshot', () => {
  it('reads the index from the snapshot and answers exactly as the index that wrote it', async () => {
    const { db } = await corpus();
    const dir = await snapshotDir();
    const first = await openIndex(db, dir);
    expect(first.startup).toMatchObject({ source: 'database', rejected: null });
    await first.refresh();
    const before = await search(first, 'neural networks for translation of molecules');
    await first.close();

    const second = await openIndex(db, dir);
    expect(second.startup).toMatchObject({
      source: 'snapshot',
      rejected: null,
      fromDatabase: { upserted: 0, removed: 0 },
    });
    expect(second.startup!.snapshotBytes).toBeGreaterThan(0);
    expect(second.stats()).toMatchObject({ works: WORKS.length, changeSeq: first.stats().changeSeq });
    expect(await search(second, 'neural networks for translation of molecules')).toEqual(before);
  });

  it('reads title document frequencies back as written, and refuses a snapshot from before they were kept', async () => {
    const { db } = await corpus();
    const dir = await snapshotDir();
    const first = await openIndex(db, dir);
    await first.refresh();
    const fields = [{ text: 'graph neural networks for neural machine translation of speech', weight: 1 }];
    const before = await first.prepare(fields);
    expect(before.titleShare).toBeGreaterThan(0);
    expect(before.terms.some((t) => t.bigram && t.titleDf! > 0)).toBe(true);
    await first.close();

    const second = await openIndex(db, dir);
    expect(second.startup).toMatchObject({ source: 'snapshot', rejected: null });
    expect(await second.prepare(fields)).toEqual(before);
    await second.close();

    // A snapshot of format 1 (no title document frequencies) is rebuilt, never misread.
    const file = path.join(dir, SNAPSHOT_FILE);
    const bytes = await readFile(file);
    bytes.writeUInt32LE(1, 8);
    await writeFile(file, bytes);
    const third = await openIndex(db, dir);
    expect(third.startup).toMatchObject({ source: 'database', rejected: { reason: 'incompatible' } });
    expect(await third.prepare(fields)).toEqual(before);
  });

  it('reads the snapshot when a refresh is asked for while it starts (the server does, once the demo corpus is there)', async () => {
    const { db } = await corpus();
    const dir = await snapshotDir();
    await writeSnapshot(db, dir);

    const index = new DbWorkIndex(db, { pollMs: 0, snapshotDir: dir });
    cleanups.push(() => index.close());
    // Before the fix the refresh read the whole corpus into the index while the snapshot was being
    // read, and the snapshot was refused ("restore() needs an empty index") and removed.
    const [, refreshed] = await Promise.all([index.start(), index.refresh()]);
    expect(index.startup).toMatchObject({
      source: 'snapshot',
      rejected: null,
      fromDatabase: { upserted: 0 },
    });
    expect(refreshed).toMatchObject({ upserted: 0, removed: 0 });
    expect(index.stats()).toMatchObject({ works: WORKS.length });
    expect((await stat(path.join(dir, SNAPSHOT_FILE))).size).toBeGreaterThan(0);
  });

  it('finds a work ingested, and forgets one deleted or changed, after the snapshot was written', async () => {
    const { db, ids } = await corpus();
    const dir = await snapshotDir();
    await writeSnapshot(db, dir);

    const added = await insertWork(
      db,
      'w:new',
      'Quantum chromodynamics on the lattice',
      'Gluons and quarks.',
    );
    await db.query('DELETE FROM works WHERE id = $1', [ids[2]]);
    // As the ingest does: a changed title takes the next change_seq (src/corpus/ingest/load-works.ts).
    await db.query(
      `UPDATE works SET title = 'Reinforcement learning for robot grasping', change_seq = nextval('works_change_seq') WHERE id = $1`,
      [ids[4]],
    );

    const index = await openIndex(db, dir);
    expect(index.startup).toMatchObject({ source: 'snapshot', fromDatabase: { upserted: 2, removed: 1 } });
    expect((await search(index, 'lattice chromodynamics'))[0]?.workId).toBe(added);
    expect(await search(index, 'coral reef fish')).toEqual([]);
    expect((await search(index, 'robot grasping'))[0]?.workId).toBe(ids[4]);
    expect((await search(index, 'speech recognition')).map((h) => h.workId)).not.toContain(ids[4]);
    expect(index.stats().works).toBe(WORKS.length);
  });
});

describe('a snapshot that cannot be used is refused and the index built from the database', () => {
  async function expectRebuilt(db: TestDatabase, dir: string, reason: string, detail: RegExp) {
    const index = await openIndex(db, dir);
    expect(index.startup).toMatchObject({ source: 'database', rejected: { reason } });
    expect(index.startup!.rejected!.detail).toMatch(detail);
    expect(index.startup!.fromDatabase.upserted).toBe(WORKS.length);
    expect(index.stats().works).toBe(WORKS.length);
    return index;
  }

  it('a bad checksum in an array', async () => {
    const { db } = await corpus();
    const dir = await snapshotDir();
    const file = await writeSnapshot(db, dir);
    const bytes = await readFile(file);
    // The first array (the term texts) starts right after the 32-byte prefix.
    bytes[32] = bytes[32]! ^ 0xff;
    await writeFile(file, bytes);
    const index = await expectRebuilt(db, dir, 'corrupt', /checksum of unigrams/);
    // And a good snapshot is written in its place.
    await index.refresh();
    await index.close();
    expect((await openIndex(db, dir)).startup).toMatchObject({ source: 'snapshot' });
  });

  it('a bad checksum in the header', async () => {
    const { db } = await corpus();
    const dir = await snapshotDir();
    const file = await writeSnapshot(db, dir);
    const bytes = await readFile(file);
    bytes[bytes.length - 2] = bytes[bytes.length - 2]! ^ 0x01;
    await writeFile(file, bytes);
    await expectRebuilt(db, dir, 'corrupt', /header checksum/);
  });

  it('a truncated file', async () => {
    const { db } = await corpus();
    const dir = await snapshotDir();
    const file = await writeSnapshot(db, dir);
    await truncate(file, Math.floor((await stat(file)).size / 2));
    await expectRebuilt(db, dir, 'truncated', /bytes/);
  });

  it('another format version', async () => {
    const { db } = await corpus();
    const dir = await snapshotDir();
    const file = await writeSnapshot(db, dir);
    const bytes = await readFile(file);
    bytes.writeUInt32LE(999, 8);
    await writeFile(file, bytes);
    await expectRebuilt(db, dir, 'incompatible', /format version 999/);
  });

  it('another analysis', async () => {
    const { db } = await corpus();
    const dir = await snapshotDir();
    const file = await writeSnapshot(db, dir);
    await rewriteHeader(file, (header) => {
      header.analyzer = '0000000000000000';
    });
    await expectRebuilt(db, dir, 'incompatible', /analyzer/);
  });

  it('other index parameters', async () => {
    const { db } = await corpus();
    const dir = await snapshotDir();
    await writeSnapshot(db, dir, { index: { k1: 1.5 } });
    await expectRebuilt(db, dir, 'incompatible', /index options/);
  });

  it('a snapshot of another database, even one further along', async () => {
    const { db } = await corpus();
    const dir = await snapshotDir();
    await insertWork(db, 'w:only-here', 'Quantum chromodynamics on the lattice', 'Gluons and quarks.');
    await writeSnapshot(db, dir);

    // A database created again: the same works, more changes, another identity.
    const { db: other } = await corpus();
    for (let i = 0; i < 3; i++) await insertWork(other, `x:${i}`, 'Padding', 'To move the sequence on.');
    await other.query(`DELETE FROM works WHERE work_key LIKE 'x:%'`);
    const index = await openIndex(other, dir);
    expect(index.startup).toMatchObject({ source: 'database', rejected: { reason: 'stale' } });
    expect(index.startup!.rejected!.detail).toMatch(/made from database/);
    expect(await search(index, 'lattice chromodynamics')).toEqual([]);
  });

  it('a snapshot ahead of the database (a database restored from a backup)', async () => {
    const { db } = await corpus();
    const dir = await snapshotDir();
    const file = await writeSnapshot(db, dir);
    await rewriteHeader(file, (header) => {
      header.changeSeq = Number(header.changeSeq) + 1000;
    });
    await expectRebuilt(db, dir, 'stale', /ahead of the database/);
  });
});

/** The index's log lines, by message. */
function logLines(): { log: IndexLog; messages: string[] } {
  const messages: string[] = [];
  const push = (_fields: object, message: string) => void messages.push(message);
  return { log: { info: push, warn: push }, messages };
}

const written = (messages: string[]) => messages.filter((m) => m === 'search index snapshot written').length;

describe('when a snapshot is written while serving', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('once enough works changed since the last one, and not sooner than a minute after it', async () => {
    const { db } = await corpus();
    const dir = await snapshotDir();
    vi.useFakeTimers({ toFake: ['Date'] });
    const { log, messages } = logLines();
    const index = await openIndex(db, dir, { log });
    await index.refresh();
    expect(written(messages)).toBe(1);

    // Fewer changes than the threshold (1,000 at this size): none, however long after.
    await insertWork(db, 'w:one', 'One more work', 'Not enough to write again.');
    vi.setSystemTime(Date.now() + 3_600_000);
    await index.refresh();
    expect(written(messages)).toBe(1);

    await db.query(`INSERT INTO works (work_key, title, abstract, publication_year)
      SELECT 'bulk:' || i, 'Bulk work ' || i, 'Padding text for the threshold.', 2021 FROM generate_series(1, 1000) AS i`);
    vi.setSystemTime(Date.now() + 3_600_000);
    await index.refresh();
    expect(written(messages)).toBe(2);

    // Enough changes again, but within the minute after the last write: not yet.
    await db.query(`INSERT INTO works (work_key, title, abstract, publication_year)
      SELECT 'more:' || i, 'More work ' || i, 'Padding text for the threshold.', 2021 FROM generate_series(1, 1000) AS i`);
    vi.setSystemTime(Date.now() + 30_000);
    await index.refresh();
    expect(written(messages)).toBe(2);
    vi.setSystemTime(Date.now() + 31_000);
    await index.refresh();
    expect(written(messages)).toBe(3);
    await index.close();

    const restarted = await openIndex(db, dir);
    expect(restarted.startup).toMatchObject({ source: 'snapshot', fromDatabase: { upserted: 0 } });
    expect(restarted.stats().works).toBe(WORKS.length + 2001);
  });

  it('a write that fails leaves the index serving, and is not retried at once', async () => {
    const { db } = await corpus();
    const dir = await snapshotDir();
    const notADirectory = path.join(dir, 'file');
    await writeFile(notADirectory, 'in the way');
    const { log, messages } = logLines();
    const index = await openIndex(db, notADirectory, { log });
    await index.refresh();
    await index.refresh();
    expect(messages.filter((m) => m === 'writing the search index snapshot failed')).toHaveLength(1);
    expect((await search(index, 'coral reef'))[0]?.workId).toBeGreaterThan(0);
  });

  it('a start removes temporary files a killed writer left behind, not one being written', async () => {
    const { db } = await corpus();
    const dir = await snapshotDir();
    const abandoned = path.join(dir, `${SNAPSHOT_FILE}.tmp-1-dead`);
    const fresh = path.join(dir, `${SNAPSHOT_FILE}.tmp-2-busy`);
    await writeFile(abandoned, 'half a snapshot');
    await writeFile(fresh, 'another writer, now');
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    await utimes(abandoned, twoHoursAgo, twoHoursAgo);
    await openIndex(db, dir);
    const names = await readdir(dir);
    expect(names).not.toContain(path.basename(abandoned));
    expect(names).toContain(path.basename(fresh));
  });
});
