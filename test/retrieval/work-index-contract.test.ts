// The WorkIndex contract, written once against the interface and run against every implementation
// (the one interface both recommenders reach the corpus through; docs/ranking.md): the in-process
// index always, the OpenSearch one when OPENSEARCH_URL names a cluster. The corpus is 40 real
// OpenAlex records (biodiversity finance) inserted into a fresh database; each index is built from
// that database by the factory the app uses (createWorkIndex), so only the engine differs.
import { randomUUID } from 'node:crypto';
import { Client } from '@opensearch-project/opensearch';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { SearchEngineConfig } from '../../src/infra/config.ts';
import type { Queryable } from '../../src/infra/db/index.ts';
import { analyze } from '../../src/retrieval/analyzer.ts';
import { createWorkIndex, type DatabaseWorkIndex } from '../../src/retrieval/create-work-index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { fixtureWorksWithAbstracts, type FixtureWork } from './fixture-works.ts';

const records = fixtureWorksWithAbstracts().slice(0, 40);

const OPENSEARCH_URL = process.env.OPENSEARCH_URL?.trim() || null;

interface Implementation {
  name: string;
  /** Why the suite cannot run here, or null when it can. */
  unavailable: string | null;
  engine: () => SearchEngineConfig;
  /** Drops what the engine kept outside the database (an OpenSearch index). */
  dispose: (engine: SearchEngineConfig) => Promise<void>;
}

const implementations: Implementation[] = [
  {
    name: 'in-process BM25 (SEARCH_ENGINE=local)',
    unavailable: null,
    engine: () => ({ engine: 'local' }),
    dispose: async () => undefined,
  },
  {
    name: 'OpenSearch (SEARCH_ENGINE=opensearch)',
    unavailable: OPENSEARCH_URL
      ? null
      : 'OPENSEARCH_URL is not set: no OpenSearch server can run on these machines, so the OpenSearch ' +
        'WorkIndex was not run against this contract here (set OPENSEARCH_URL=http://host:9200 to run it)',
    engine: () => ({
      engine: 'opensearch',
      url: OPENSEARCH_URL!,
      index: `refmatch-contract-${randomUUID()}`,
      shards: 1,
      replicas: 0,
    }),
    dispose: async (engine) => {
      if (engine.engine !== 'opensearch') return;
      const client = new Client({ node: engine.url });
      await client.indices.delete({ index: engine.index }).catch(() => undefined);
      await client.close();
    },
  },
];

for (const implementation of implementations) {
  if (implementation.unavailable) {
    // Said in the test output, not only in a skipped test's name.
    console.warn(`[work-index contract] skipped ${implementation.name}: ${implementation.unavailable}`);
  }
}

async function insertWork(db: Queryable, key: string, title: string, abstract: string | null, year = 2020) {
  const { rows } = await db.query<{ id: number }>(
    'INSERT INTO works (work_key, title, abstract, publication_year) VALUES ($1, $2, $3, $4) RETURNING id',
    [key, title, abstract, year],
  );
  return rows[0]!.id;
}

/**
 * Scores computed by the engine (search) against scores computed from the works' rows (profiles,
 * matched terms): exact in process; on OpenSearch, Lucene keeps lengths in one byte and counts
 * bigrams in them (docs/scale.md), so the two agree to within a few per cent there.
 */
function relativeDifference(a: number, b: number): number {
  return Math.abs(a - b) / Math.max(Math.abs(b), 1e-9);
}

/** How many of the records hold an analysed term (the document frequency, counted here). */
function documentFrequency(term: string): number {
  return records.filter((r) => {
    const terms = new Set([...analyze(r.title!).terms, ...analyze(r.abstract!).terms]);
    return terms.has(term);
  }).length;
}

function titleDocumentFrequency(term: string): number {
  return records.filter((r) => analyze(r.title!).terms.includes(term)).length;
}

for (const implementation of implementations) {
  describe.skipIf(implementation.unavailable !== null)(`WorkIndex contract: ${implementation.name}`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      while (cleanups.length) await cleanups.pop()!();
    });
    afterAll(async () => {
      while (cleanups.length) await cleanups.pop()!();
    });

    async function setup(): Promise<{
      db: TestDatabase;
      index: DatabaseWorkIndex;
      ids: Map<string, number>;
    }> {
      const db = await createTestDatabase();
      cleanups.push(() => db.destroy());
      const ids = new Map<string, number>();
      for (const r of records)
        ids.set(r.id, await insertWork(db, r.id, r.title!, r.abstract, r.publication_year ?? 2020));
      const engine = implementation.engine();
      cleanups.push(() => implementation.dispose(engine));
      const index = createWorkIndex(db, engine, { pollMs: 0 });
      cleanups.push(() => index.close());
      await index.start();
      return { db, index, ids };
    }

    const ownText = (r: FixtureWork) => [
      { text: r.title!, weight: 1 },
      { text: r.abstract!, weight: 1 },
    ];

    it('holds every work of the database once started', async () => {
      const { index } = await setup();
      expect(index.stats().works).toBe(records.length);
      expect(index.stats().changeSeq).toBeGreaterThan(0);
      expect(index.stats().lastRefreshAt).not.toBeNull();
    });

    it('ranks a work first for its own title and abstract, best first, scores normalised by the query', async () => {
      const { index, ids } = await setup();
      for (const probe of [records[5]!, records[17]!, records[31]!]) {
        const hits = await index.search({ fields: ownText(probe), k: 10 });
        expect(hits).toHaveLength(10);
        expect(hits[0]!.workId).toBe(ids.get(probe.id));
        expect(hits[0]!.year).toBe(probe.publication_year ?? 2020);
        // Divided by the query's self-score: the work itself about 1, every other work below it.
        expect(hits[0]!.score).toBeGreaterThan(0.5);
        expect(hits[0]!.score).toBeLessThan(1.5);
        for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
        expect(hits[1]!.score).toBeLessThan(hits[0]!.score);
      }
    });

    it('returns at most k works, none that fail the filter, and nothing for words the corpus lacks', async () => {
      const { index, ids } = await setup();
      const probe = records[8]!;
      const own = ids.get(probe.id)!;
      expect(await index.search({ fields: ownText(probe), k: 3 })).toHaveLength(3);
      const filtered = await index.search({ fields: ownText(probe), k: 5, filter: (id) => id !== own });
      expect(filtered).toHaveLength(5);
      expect(filtered.map((h) => h.workId)).not.toContain(own);
      expect(await index.search({ fields: [{ text: 'xylophonist quaternion', weight: 1 }] })).toEqual([]);
    });

    it('scores only the given works, leaves unknown ids out, and agrees with search', async () => {
      const { index, ids } = await setup();
      const probe = records[3]!;
      const query = await index.prepare([{ text: probe.abstract!, weight: 1 }]);
      const chosen = [ids.get(records[10]!.id)!, ids.get(probe.id)!, 999_999];
      const scored = await index.scoreWorks({ query, workIds: chosen });
      expect(scored.map((s) => s.workId)).toEqual([ids.get(probe.id), ids.get(records[10]!.id)]);
      expect(scored[0]!.score).toBeGreaterThan(scored[1]!.score);
      const searched = await index.search({ query, k: records.length });
      for (const hit of scored) {
        const same = searched.find((h) => h.workId === hit.workId);
        if (hit.score > 0) expect(same!.score).toBeCloseTo(hit.score, 4);
        else expect(same).toBeUndefined();
      }
    });

    it('reports each work’s matched terms (bigrams with their surface), adding up to its score', async () => {
      const { index } = await setup();
      const query = await index.prepare([{ text: 'payments for ecosystem services', weight: 1 }]);
      const hits = await index.search({ query, k: 5 });
      expect(hits.length).toBeGreaterThan(0);
      const matched = await index.matchedTerms({ query, workIds: [hits[0]!.workId, 999_999] });
      expect([...matched.keys()]).toEqual([hits[0]!.workId]);
      const terms = matched.get(hits[0]!.workId)!;
      expect(terms.map((m) => m.surface)).toContain('ecosystem services');
      expect(terms.find((m) => m.surface === 'ecosystem services')!.bigram).toBe(true);
      for (let i = 1; i < terms.length; i++)
        expect(terms[i]!.contribution).toBeLessThanOrEqual(terms[i - 1]!.contribution);
      const total = terms.reduce((t, m) => t + m.contribution, 0);
      expect(relativeDifference(total, hits[0]!.score)).toBeLessThan(0.1);
    });

    it('gives term statistics: N, the average length, df as counted in the corpus, IDF rising as df falls', async () => {
      const { index } = await setup();
      const stats = await index.termStatistics(['biodivers', 'biodivers conserv', 'no-such-term']);
      expect(stats.docCount).toBe(records.length);
      expect(stats.avgDocLength).toBeGreaterThan(50);
      const [uni, bi, none] = stats.terms;
      expect(uni!.df).toBe(documentFrequency('biodivers'));
      expect(bi!.df).toBe(documentFrequency('biodivers conserv'));
      expect(bi!.df).toBeGreaterThan(0);
      expect(uni!.df).toBeGreaterThan(bi!.df);
      expect(bi!.idf).toBeGreaterThan(uni!.idf);
      expect(none).toMatchObject({ term: 'no-such-term', df: 0, idf: 0 });
      // Title document frequencies, from an engine that counts them (the in-process one does).
      if (uni!.titleDf !== undefined) {
        expect(uni!.titleDf).toBe(titleDocumentFrequency('biodivers'));
        expect(bi!.titleDf).toBe(titleDocumentFrequency('biodivers conserv'));
        expect(none!.titleDf).toBe(0);
      }
    });

    it('prepares a query of known terms only, bigrams included, with a positive self-score', async () => {
      const { index } = await setup();
      const query = await index.prepare([
        { text: 'Biodiversity conservation finance xylophonist', weight: 1 },
      ]);
      expect(query.terms.map((t) => t.term)).toEqual(
        expect.arrayContaining(['biodivers', 'conserv', 'financ', 'biodivers conserv']),
      );
      expect(query.terms.map((t) => t.term)).not.toContain('xylophonist');
      expect(query.unknownTerms).toBeGreaterThan(0);
      expect(query.selfScore).toBeGreaterThan(0);
    });

    it('expands a query with feedback terms from its best works, none already in it', async () => {
      const { index, ids } = await setup();
      const probe = records[12]!;
      const query = await index.prepare([{ text: probe.title!, weight: 1 }]);
      const seeds = await index.search({ query, k: 5 });
      const expanded = await index.expand(query, seeds, { terms: 8, weight: 0.5 });
      const added = expanded.terms.filter((t) => t.feedback);
      expect(added.length).toBeGreaterThan(0);
      expect(added.length).toBeLessThanOrEqual(8);
      const original = new Set(query.terms.map((t) => t.term));
      expect(added.every((t) => !original.has(t.term))).toBe(true);
      expect(expanded.terms.slice(0, query.terms.length)).toEqual(query.terms);
      expect((await index.search({ query: expanded, k: 1 }))[0]!.workId).toBe(ids.get(probe.id));
    });

    it('scores profiles as single documents: the one made of the topic’s works above one made of others', async () => {
      const { index, ids } = await setup();
      const probe = records[20]!;
      const query = await index.prepare(ownText(probe));
      const ranked = await index.search({ query, k: records.length });
      const onTopic = ranked.slice(0, 3).map((h) => h.workId);
      const offTopic = [...ids.values()]
        .filter((id) => !ranked.slice(0, 20).some((h) => h.workId === id))
        .slice(0, 3);
      const scored = await index.scoreProfiles({ query, profiles: [offTopic, onTopic, [999_999]], b: 0.5 });
      expect(scored.profiles).toHaveLength(3);
      expect(scored.profiles[1]).toBeGreaterThan(scored.profiles[0]!);
      expect(scored.profiles[2]).toBe(0);
      // Each matching work of the profiles, with its own score (as search gives it).
      for (const id of onTopic) {
        const hit = ranked.find((h) => h.workId === id)!;
        expect(relativeDifference(scored.works.get(id)!.score, hit.score)).toBeLessThan(0.1);
      }
      expect(scored.works.has(999_999)).toBe(false);
    });

    it('sees a newly ingested work, a changed one and a deleted one after refresh', async () => {
      const { db, index, ids } = await setup();
      const q = { fields: [{ text: 'lattice chromodynamics', weight: 1 }], k: 5 };
      const id = await insertWork(db, 'new:1', 'Quantum chromodynamics on the lattice', 'Gluons and quarks.');
      expect(await index.search(q)).toEqual([]);
      const added = await index.refresh();
      expect(added.upserted).toBe(1);
      expect((await index.search(q)).map((h) => h.workId)).toEqual([id]);
      expect(index.stats().works).toBe(records.length + 1);

      const changed = ids.get(records[0]!.id)!;
      await db.query(
        `UPDATE works SET title = 'Volcanic ash dispersion', abstract = 'Plumes of tephra.',
           change_seq = nextval('works_change_seq') WHERE id = $1`,
        [changed],
      );
      const deleted = ids.get(records[1]!.id)!;
      await db.query('DELETE FROM works WHERE id = $1', [deleted]);
      const result = await index.refresh();
      expect(result).toMatchObject({ upserted: 1, removed: 1 });
      expect(index.stats().works).toBe(records.length);
      expect(
        (await index.search({ fields: [{ text: 'tephra plumes', weight: 1 }] })).map((h) => h.workId),
      ).toEqual([changed]);
      const gone = await index.search({ fields: ownText(records[1]!), k: records.length });
      expect(gone.map((h) => h.workId)).not.toContain(deleted);
      expect(await index.scoreWorks({ fields: ownText(records[1]!), workIds: [deleted] })).toEqual([]);
    });
  });
}
