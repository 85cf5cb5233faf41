// The OpenSearch index scores profiles, matched terms and feedback here, from the works it reads
// back and the statistics it fetches. Given what a cluster holding the same works would answer
// (the stored documents as workDocument writes them, the counts as the in-process index has them),
// these give the in-process index's own numbers: the two engines agree wherever we compute.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_INDEX_OPTIONS } from '../../src/retrieval/bm25-index.ts';
import { LocalWorkIndex } from '../../src/retrieval/local-work-index.ts';
import {
  STATISTICS_TERMS_PER_REQUEST,
  readStatistics,
  readStoredWork,
  statisticsChunks,
  workDocument,
  type FetchedStatistics,
  type StoredWork,
} from '../../src/retrieval/opensearch-requests.ts';
import {
  expandFromStoredWorks,
  feedbackCandidates,
  matchedTermsOfStoredWorks,
  profileWorkIds,
  scoreStoredProfiles,
} from '../../src/retrieval/stored-work-scoring.ts';

interface FixtureWork {
  title: string | null;
  abstract: string | null;
  publication_year: number | null;
}

const FIXTURE = new URL(
  '../fixtures/openalex/openalexPro-biodiversity-finance-200works.jsonl',
  import.meta.url,
);
const works = readFileSync(FIXTURE, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as FixtureWork)
  .filter((r) => r.title && r.abstract && r.abstract.length > 300)
  .slice(0, 40)
  .map((r, i) => ({
    workId: i + 1,
    title: r.title!,
    abstract: r.abstract,
    year: r.publication_year ?? 2015 + (i % 8),
    changeSeq: i + 1,
  }));

const bm25 = { k1: DEFAULT_INDEX_OPTIONS.k1, b: DEFAULT_INDEX_OPTIONS.b };

async function setup() {
  const index = new LocalWorkIndex({ workerMinWorks: Infinity });
  for (const w of works) index.upsert(w);
  await index.refresh();
  const stored = new Map<number, StoredWork>(
    works.map((w) => [w.workId, readStoredWork(w.workId, workDocument(w))]),
  );
  /** What the cluster's statistics requests would answer for these terms. */
  const statistics = async (terms: string[]): Promise<FetchedStatistics> => {
    const local = await index.termStatistics(terms);
    const responses = statisticsChunks(terms).map((chunk, c) => ({
      hits: { total: { value: local.docCount } },
      aggregations: {
        length: { value: local.avgDocLength * local.docCount },
        df: {
          buckets: Object.fromEntries(
            chunk.map((_, i) => [
              String(i),
              { doc_count: local.terms[c * STATISTICS_TERMS_PER_REQUEST + i]!.df },
            ]),
          ),
        },
      },
    }));
    return readStatistics(bm25, terms, responses);
  };
  const query = await index.prepare([
    { text: works[6]!.title, weight: 1 },
    { text: works[6]!.abstract!, weight: 1 },
  ]);
  return { index, stored, statistics, query };
}

describe('scoring works read back from the store', () => {
  it('scores profiles, and their works, as the in-process index does', async () => {
    const { index, stored, statistics, query } = await setup();
    const profiles = [[1, 2, 3], [7, 8], [7, 20, 31, 999_999], [], [5]];
    const options = { b: 0.5, workWeight: (year: number) => (year >= 2018 ? 1 : 0.5) };
    const local = await index.scoreProfiles({ query, profiles, ...options });
    const remote = scoreStoredProfiles(query, profiles, stored, await statistics([]), options);
    expect(remote.profiles).toHaveLength(profiles.length);
    remote.profiles.forEach((score, i) => expect(score).toBeCloseTo(local.profiles[i]!, 6));
    expect(local.profiles[1]).toBeGreaterThan(0);
    expect([...remote.works.keys()].sort((a, b) => a - b)).toEqual(
      [...local.works.keys()].sort((a, b) => a - b),
    );
    for (const [id, hit] of local.works) {
      expect(remote.works.get(id)!.year).toBe(hit.year);
      expect(remote.works.get(id)!.score).toBeCloseTo(hit.score, 6);
    }
    expect(profileWorkIds(profiles)).toEqual([1, 2, 3, 7, 8, 20, 31, 999_999, 5]);
  });

  it('gives each work’s matched terms and their shares as the in-process index does', async () => {
    const { index, stored, statistics, query } = await setup();
    const ids = [7, 3, 12, 999_999];
    const local = await index.matchedTerms({ query, workIds: ids });
    const remote = matchedTermsOfStoredWorks(query, ids, stored, await statistics([]));
    expect([...remote.keys()]).toEqual([...local.keys()]);
    for (const [id, terms] of local) {
      const mine = remote.get(id)!;
      expect(mine.map((m) => [m.term, m.surface, m.bigram])).toEqual(
        terms.map((m) => [m.term, m.surface, m.bigram]),
      );
      mine.forEach((m, i) => expect(m.contribution).toBeCloseTo(terms[i]!.contribution, 6));
    }
  });

  it('adds the feedback terms the in-process index adds, with their weights', async () => {
    const { index, stored, statistics, query } = await setup();
    const seeds = await index.search({ query, k: 10 });
    const options = { terms: 10, weight: 0.5 };
    const local = await index.expand(query, seeds, options);
    const candidates = feedbackCandidates(query, stored);
    expect(candidates).toEqual([...candidates].sort());
    expect(candidates.some((t) => query.terms.some((q) => q.term === t))).toBe(false);
    const remote = expandFromStoredWorks(query, seeds, stored, await statistics(candidates), options);
    const added = (q: typeof local) => q.terms.filter((t) => t.feedback);
    expect(added(local).length).toBeGreaterThan(0);
    expect(added(remote).map((t) => [t.term, t.df])).toEqual(added(local).map((t) => [t.term, t.df]));
    added(remote).forEach((t, i) => expect(t.weight).toBeCloseTo(added(local)[i]!.weight, 6));
    expect(expandFromStoredWorks(query, [], stored, await statistics([]), options)).toBe(query);
  });
});
