// The DB-backed index over real OpenAlex records (the biodiversity-finance search results): it is
// built from `works` at start and follows inserts, updates and deletions, also by other connections.
import { afterEach, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import type { Queryable } from '../../src/infra/db/index.ts';
import { openWorkIndex, type DbWorkIndex } from '../../src/retrieval/db-work-index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { fixtureWorksWithAbstracts } from './fixture-works.ts';

const records = fixtureWorksWithAbstracts();

async function insertWork(db: Queryable, key: string, title: string, abstract: string | null, year = 2020) {
  const { rows } = await db.query<{ id: number }>(
    'INSERT INTO works (work_key, title, abstract, publication_year) VALUES ($1, $2, $3, $4) RETURNING id',
    [key, title, abstract, year],
  );
  return rows[0]!.id;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setup(): Promise<{ db: TestDatabase; index: DbWorkIndex; ids: Map<string, number> }> {
  const db = await createTestDatabase();
  cleanups.push(() => db.destroy());
  const ids = new Map<string, number>();
  for (const r of records.slice(0, 60))
    ids.set(r.id, await insertWork(db, r.id, r.title!, r.abstract, r.publication_year ?? 2020));
  const index = await openWorkIndex(db, { pollMs: 0 });
  cleanups.push(() => index.close());
  return { db, index, ids };
}

/** A second connection to the same database where the driver allows one (server PostgreSQL). */
async function otherConnection(db: TestDatabase): Promise<Queryable> {
  if (!db.connectionString) return db;
  const client = new pg.Client({ connectionString: db.connectionString });
  await client.connect();
  cleanups.push(() => client.end());
  return {
    query: async <R>(sql: string, params?: readonly unknown[]) => {
      const r = await client.query(sql, params as unknown[]);
      return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
    },
  };
}

describe('work index built from the database', () => {
  it('ranks a work first for its own title and abstract, and related works next', async () => {
    const { index, ids } = await setup();
    expect(index.stats().works).toBe(60);
    const probe = records[5]!;
    const hits = await index.search({
      fields: [
        { text: probe.title!, weight: 1 },
        { text: probe.abstract!, weight: 1 },
      ],
      k: 10,
    });
    expect(hits[0]!.workId).toBe(ids.get(probe.id));
    // Normalised by the query's self-score: the work itself scores about 1, others below it.
    expect(hits[0]!.score).toBeGreaterThan(0.5);
    expect(hits[1]!.score).toBeLessThan(hits[0]!.score);
  });

  it('finds works by a phrase and reports the matched terms, bigram included', async () => {
    const { index, ids } = await setup();
    const hits = await index.search({
      fields: [{ text: 'payments for ecosystem services', weight: 1 }],
      k: 5,
    });
    expect(hits.length).toBeGreaterThan(0);
    const matched = await index.matchedTerms({
      fields: [{ text: 'payments for ecosystem services', weight: 1 }],
      workIds: [hits[0]!.workId],
    });
    const surfaces = matched.get(hits[0]!.workId)!.map((m) => m.surface);
    expect(surfaces).toContain('ecosystem services');
    expect([...ids.values()]).toContain(hits[0]!.workId);
  });

  it('scores a given set of works without searching the corpus', async () => {
    const { index, ids } = await setup();
    const probe = records[3]!;
    const chosen = [ids.get(records[10]!.id)!, ids.get(probe.id)!, 999_999];
    const scored = await index.scoreWorks({
      fields: [{ text: probe.abstract!, weight: 1 }],
      workIds: chosen,
    });
    expect(scored.map((s) => s.workId)).toEqual([ids.get(probe.id), ids.get(records[10]!.id)]);
    const searched = await index.search({ fields: [{ text: probe.abstract!, weight: 1 }], k: 60 });
    const same = searched.find((h) => h.workId === ids.get(probe.id))!;
    expect(scored[0]!.score).toBeCloseTo(same.score, 5);
  });

  it('gives term statistics of analysed terms', async () => {
    const { index } = await setup();
    const stats = await index.termStatistics(['biodivers', 'biodivers conserv', 'no-such-term']);
    expect(stats.docCount).toBe(60);
    const [uni, bi, none] = stats.terms;
    expect(uni!.df).toBeGreaterThan(bi!.df);
    expect(bi!.df).toBeGreaterThan(0);
    expect(bi!.idf).toBeGreaterThan(uni!.idf);
    expect(none).toEqual({ term: 'no-such-term', df: 0, idf: 0, titleDf: 0 });
    expect(bi!.titleDf).toBeLessThanOrEqual(bi!.df);
    const { terms } = await index.prepare([
      { text: 'Biodiversity conservation finance in Guatemala', weight: 1 },
    ]);
    expect(terms.map((t) => t.term)).toContain('biodivers conserv');
  });

  it('picks up works another connection inserted, on refresh', async () => {
    const { db, index } = await setup();
    const other = await otherConnection(db);
    const id = await insertWork(
      other,
      'new:1',
      'Quantum chromodynamics on the lattice',
      'Gluons and quarks.',
    );
    const q = { fields: [{ text: 'lattice chromodynamics', weight: 1 }], k: 5 };
    expect(await index.search(q)).toEqual([]);
    const result = await index.refresh();
    expect(result.upserted).toBe(1);
    expect((await index.search(q)).map((h) => h.workId)).toEqual([id]);
  });

  it('picks up new works by polling, without being told', async () => {
    const db = await createTestDatabase();
    cleanups.push(() => db.destroy());
    const index = await openWorkIndex(db, { pollMs: 20 });
    cleanups.push(() => index.close());
    const id = await insertWork(db, 'poll:1', 'Seagrass carbon storage', null);
    await expect
      .poll(async () =>
        (await index.search({ fields: [{ text: 'seagrass', weight: 1 }] })).map((h) => h.workId),
      )
      .toEqual([id]);
  });

  it('replaces a changed work: old words no longer match, new ones do', async () => {
    const { db, index, ids } = await setup();
    const id = ids.get(records[0]!.id)!;
    await db.query(
      `UPDATE works SET title = 'Volcanic ash dispersion', abstract = 'Plumes of tephra.',
         change_seq = nextval('works_change_seq') WHERE id = $1`,
      [id],
    );
    await index.refresh();
    expect(index.stats().works).toBe(60);
    expect(
      (await index.search({ fields: [{ text: 'tephra plumes', weight: 1 }] })).map((h) => h.workId),
    ).toEqual([id]);
    const old = await index.search({ fields: [{ text: records[0]!.title!, weight: 1 }], k: 60 });
    expect(old.map((h) => h.workId)).not.toContain(id);
  });

  it('drops deleted works', async () => {
    const { db, index, ids } = await setup();
    const id = ids.get(records[1]!.id)!;
    await db.query('DELETE FROM works WHERE id = $1', [id]);
    const result = await index.refresh();
    expect(result.removed).toBe(1);
    expect(index.stats().works).toBe(59);
    const hits = await index.search({ fields: [{ text: records[1]!.abstract!, weight: 1 }], k: 60 });
    expect(hits.map((h) => h.workId)).not.toContain(id);
  });

  // The wait's own bound under the test's, so that a poll that never comes says what it waited for.
  it(
    'drops a work deleted by another connection at a periodic poll, from the deletion log',
    { timeout: 120_000 },
    async () => {
      const { db, ids } = await setup();
      // A polling index of its own (the shared one polls only on demand).
      const polling = await openWorkIndex(db, { pollMs: 20 });
      cleanups.push(() => polling.close());
      const id = ids.get(records[2]!.id)!;
      const other = await otherConnection(db);
      await other.query('DELETE FROM works WHERE id = $1', [id]);
      // A wait for an event (the poll every 20 ms), bounded generously for a loaded machine.
      await vi.waitFor(() => expect(polling.stats().works).toBe(59), { timeout: 60_000, interval: 20 });
      const hits = await polling.search({ fields: [{ text: records[2]!.abstract!, weight: 1 }], k: 60 });
      expect(hits.map((h) => h.workId)).not.toContain(id);
      // The deletion is in the log the poll reads.
      const log = await db.query<{ work_id: number }>('SELECT work_id FROM work_deletions');
      expect(log.rows.map((r) => r.work_id)).toContain(id);
    },
  );

  it('catches a work whose change number was taken before one already indexed (late commit)', async () => {
    const { db, index } = await setup();
    const { rows } = await db.query<{ seq: number }>(`SELECT nextval('works_change_seq') AS seq`);
    await insertWork(db, 'late:later', 'Coral reef restoration', null);
    await index.refresh();
    await db.query(
      `INSERT INTO works (work_key, title, change_seq) VALUES ('late:earlier', 'Mangrove restoration', $1)`,
      [rows[0]!.seq],
    );
    await index.refresh();
    expect(await index.search({ fields: [{ text: 'mangrove', weight: 1 }] })).toHaveLength(1);
  });
});

describe('searching in a worker thread', () => {
  it('answers as the main thread does, and sees works added after it started', async () => {
    const db = await createTestDatabase();
    cleanups.push(() => db.destroy());
    for (const r of records.slice(0, 40)) await insertWork(db, r.id, r.title!, r.abstract);
    const inWorker = await openWorkIndex(db, { pollMs: 0, workerMinWorks: 0 });
    cleanups.push(() => inWorker.close());
    const onMain = await openWorkIndex(db, { pollMs: 0 });
    cleanups.push(() => onMain.close());
    expect(inWorker.stats().searchInWorker).toBe(true);
    expect(onMain.stats().searchInWorker).toBe(false);
    const q = { fields: [{ text: records[2]!.abstract!, weight: 1 }], k: 10 };
    expect(await inWorker.search(q)).toEqual(await onMain.search(q));

    const id = await insertWork(db, 'worker:1', 'Glacier melt and sea level', null);
    await inWorker.refresh();
    expect(
      (await inWorker.search({ fields: [{ text: 'glacier melt', weight: 1 }] })).map((h) => h.workId),
    ).toEqual([id]);
    const filtered = await inWorker.search({ ...q, filter: (workId) => workId % 2 === 0 });
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.every((h) => h.workId % 2 === 0)).toBe(true);
  });
});

describe('the app', () => {
  it('builds its index from the database at start and closes it with the app', async () => {
    const { createTestApp } = await import('../helpers/app.ts');
    const t = await createTestApp();
    cleanups.push(() => t.close());
    const index = t.app.refmatch.index;
    expect(index.stats().works).toBe(0);
    const id = await insertWork(t.db, 'app:1', 'Peatland restoration and carbon', null);
    await index.refresh();
    expect(
      (await index.search({ fields: [{ text: 'peatland carbon', weight: 1 }] })).map((h) => h.workId),
    ).toEqual([id]);
  });
});
