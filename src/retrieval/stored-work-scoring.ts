// Our BM25 over works read back from a search engine's store (their analysed terms and lengths),
// for the calls the engine cannot answer itself: profiles (no document there), each term's share
// of a work's score, and feedback terms. Pure: the works and the statistics are fetched by the
// caller (opensearch-work-index.ts), and the math is the in-process index's own (scoreProfileRows,
// addFeedbackValue, withFeedbackTerms), so both engines give the same numbers from the same statistics.
import { addFeedbackValue, withFeedbackTerms, type FeedbackOptions } from './feedback.ts';
import type { FetchedStatistics, StoredWork } from './opensearch-requests.ts';
import type { MatchedTerm, PreparedQuery, SearchHit } from './search.ts';
import {
  byContribution,
  matchedTerm,
  scoreProfileRows,
  type ProfileOptions,
  type ProfileScores,
  type ProfileWorkRows,
} from './work-scoring.ts';

/** The terms of the given works that are not in the query, in text order (their statistics are asked for). */
export function feedbackCandidates(query: PreparedQuery, stored: ReadonlyMap<number, StoredWork>): string[] {
  const inQuery = new Set(query.terms.map((t) => t.term));
  const candidates = new Set<string>();
  for (const work of stored.values())
    for (const term of work.tfs.keys()) if (!inQuery.has(term)) candidates.add(term);
  return [...candidates].sort();
}

/**
 * The query with feedback terms from the given works, as `expandQuery` adds them in process. The
 * statistics were fetched for `feedbackCandidates` in text order, so terms of equal value are taken
 * alphabetically (the in-process index takes them by term number).
 */
export function expandFromStoredWorks(
  query: PreparedQuery,
  works: readonly SearchHit[],
  stored: ReadonlyMap<number, StoredWork>,
  stats: FetchedStatistics,
  options: FeedbackOptions,
): PreparedQuery {
  if (works.length === 0 || options.terms <= 0) return query;
  const inQuery = new Set(query.terms.map((t) => t.term));
  const values = new Map<number, number>();
  for (const { workId, score } of works) {
    const work = stored.get(workId);
    if (!work) continue;
    const norm = stats.norm(work.length);
    for (const [term, tf] of work.tfs) {
      const id = stats.termId(term);
      if (id < 0 || inQuery.has(term)) continue;
      addFeedbackValue(values, id, score, tf, norm);
    }
  }
  return withFeedbackTerms(stats, query, values, options);
}

/** Per stored work, the query terms it holds and their share of its normalised score, most first. */
export function matchedTermsOfStoredWorks(
  query: PreparedQuery,
  workIds: readonly number[],
  stored: ReadonlyMap<number, StoredWork>,
  stats: FetchedStatistics,
): Map<number, MatchedTerm[]> {
  const out = new Map<number, MatchedTerm[]>();
  if (query.selfScore <= 0) return out;
  for (const workId of workIds) {
    const work = stored.get(workId);
    if (!work) continue;
    const norm = stats.norm(work.length);
    const matched: MatchedTerm[] = [];
    for (const term of query.terms) {
      const tf = work.tfs.get(term.term);
      if (tf) matched.push(matchedTerm(query, term, tf, norm));
    }
    out.set(workId, matched.sort(byContribution));
  }
  return out;
}

/** Every distinct work of the profiles, in first-seen order. */
export function profileWorkIds(profiles: ReadonlyArray<readonly number[]>): number[] {
  return [...new Set(profiles.flat())];
}

/** Profiles scored as single documents from their stored works (`scoreProfileRows`). */
export function scoreStoredProfiles(
  query: PreparedQuery,
  profiles: ReadonlyArray<readonly number[]>,
  stored: ReadonlyMap<number, StoredWork>,
  stats: FetchedStatistics,
  options: ProfileOptions,
): ProfileScores {
  const ids = profileWorkIds(profiles);
  const local = new Map(ids.map((id, k) => [id, k]));
  const members = profiles.map((workIds) => Int32Array.from(workIds, (id) => local.get(id)!));
  const termNumber = new Map(query.terms.map((t, j) => [t.term, j]));
  const n = ids.length;
  const start = new Int32Array(n + 1);
  const terms: number[] = [];
  const tfs: number[] = [];
  const rows: Omit<ProfileWorkRows, 'start' | 'terms' | 'tfs'> = {
    workIds: new Int32Array(n).fill(-1),
    lengths: new Float64Array(n),
    norms: new Float64Array(n),
    years: new Int32Array(n),
  };
  ids.forEach((workId, k) => {
    const work = stored.get(workId);
    if (work) {
      rows.workIds[k] = workId;
      rows.lengths[k] = work.length;
      rows.norms[k] = stats.norm(work.length);
      rows.years[k] = work.year;
      for (const [term, tf] of work.tfs) {
        const j = termNumber.get(term);
        if (j === undefined) continue;
        terms.push(j);
        tfs.push(tf);
      }
    }
    start[k + 1] = terms.length;
  });
  return scoreProfileRows(
    query,
    members,
    { ...rows, start, terms: Int32Array.from(terms), tfs: Float32Array.from(tfs) },
    stats.options.k1,
    options,
  );
}
