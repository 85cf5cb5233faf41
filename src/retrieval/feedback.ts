// Pseudo-relevance feedback (RM3-like): the terms that weigh most in the best works found for a
// query, and are not in it, are added to it at a fraction of a query term's weight, so works that
// say the same thing in other words can be found. Read from the works' forward rows.
import type { Bm25Index } from './bm25-index.ts';
import type { PreparedQuery, QueryOptions, QueryTerm } from './search.ts';
import { TF_SCALE } from './segment.ts';

export interface FeedbackOptions {
  /** How many terms are added at most. */
  terms: number;
  /** The strongest added term's query weight (a term written once in the query has about 1). */
  weight: number;
  /** The same bounds as the query's: very common terms and unwanted ones are not added. */
  maxDfRatio?: number;
  keepTerm?: QueryOptions['keepTerm'];
}

/** `query` with feedback terms from the given works (e.g. its top 10 hits), each with its weight. */
export function expandQuery(
  index: Bm25Index,
  query: PreparedQuery,
  works: ReadonlyArray<{ workId: number; score: number }>,
  options: FeedbackOptions,
): PreparedQuery {
  if (works.length === 0 || options.terms <= 0) return query;
  const inQuery = new Set(query.terms.map((t) => t.termId));
  const values = new Map<number, number>();
  for (const { workId, score } of works) {
    const slot = index.docOf(workId);
    if (slot < 0) continue;
    const seg = index.segments.find((s) => slot >= s.firstSlot && slot <= s.lastSlot);
    if (!seg) continue;
    const norm = index.docNorm(slot);
    const row = slot - seg.firstSlot;
    for (let p = seg.forwardOffsets[row]!; p < seg.forwardOffsets[row + 1]!; p++) {
      const entry = seg.forward[p]!;
      const termId = seg.termIds[entry >>> 8]!;
      if (inQuery.has(termId)) continue;
      addFeedbackValue(values, termId, score, (entry & 0xff) / TF_SCALE, norm);
    }
  }
  return withFeedbackTerms(index, query, values, options);
}

/**
 * Adds to `values` what a term weighs in one feedback work: the work's score times the term's
 * tf / (tf + norm) there, `norm` the work's length normalisation (both engines' expansions sum it).
 */
export function addFeedbackValue(
  values: Map<number, number>,
  termId: number,
  score: number,
  tf: number,
  norm: number,
): void {
  values.set(termId, (values.get(termId) ?? 0) + (score * tf) / (tf + norm));
}

/** What choosing feedback terms reads of an index (the in-process one, or statistics fetched). */
export interface FeedbackStatistics {
  readonly options: { readonly k1: number };
  readonly docCount: number;
  docFreq(termId: number): number;
  idf(termId: number): number;
  termText(termId: number): string;
}

/**
 * `query` with the best feedback terms added: `values` holds, per term not in the query, its
 * values in the feedback works summed (`addFeedbackValue`).
 */
export function withFeedbackTerms(
  index: FeedbackStatistics,
  query: PreparedQuery,
  values: ReadonlyMap<number, number>,
  options: FeedbackOptions,
): PreparedQuery {
  const maxDf = (options.maxDfRatio ?? 0.5) * index.docCount;
  const scored: Array<{ termId: number; value: number }> = [];
  for (const [termId, v] of values) {
    const df = index.docFreq(termId);
    // A term of a single work says nothing about the others.
    if (df < 2 || df > maxDf) continue;
    scored.push({ termId, value: v * index.idf(termId) });
  }
  scored.sort((a, b) => b.value - a.value || a.termId - b.termId);
  const { k1 } = index.options;
  const added: QueryTerm[] = [];
  const top = scored[0]?.value ?? 0;
  for (const { termId, value } of scored) {
    if (added.length >= options.terms) break;
    const term = index.termText(termId);
    if (options.keepTerm && !options.keepTerm(term)) continue;
    const idf = index.idf(termId);
    const queryWeight = (options.weight * value) / top;
    added.push({
      term,
      surface: '',
      termId,
      df: index.docFreq(termId),
      idf,
      bigram: term.includes(' '),
      queryWeight,
      weight: queryWeight * idf * (k1 + 1),
      feedback: true,
    });
  }
  return { ...query, terms: [...query.terms, ...added] };
}
