// Query side of the BM25 index: a weighted multi-field text becomes weighted terms (analysed as the
// index was), very common and unknown terms are dropped, the rest are scored term at a time into a
// reusable accumulator, and the top k are normalised by the query's self-score so that a long
// query does not inflate every score (RANKING.md: up to -0.035 loss).
import { ANALYSIS_PIECE_CHARS, forEachTermInPieces, isBigram } from './analyzer.ts';
import { TimeSlicer, runSliced, runToEnd } from '../infra/event-loop.ts';
import { LIVE } from './bm25-index.ts';
import { QueryTable } from './query-table.ts';
import { IMPACT_SCALE, TF_SCALE, type Segment } from './segment.ts';

/** What the scorer reads: the index itself, or a search worker's view of its shared arrays. */
export interface ScoringSource {
  readonly segments: readonly Segment[];
  readonly slotCount: number;
  readonly docCount: number;
  internals(): ScoringArrays;
}

/** The per-work arrays the scorer reads (shared with a search worker). */
export interface ScoringArrays {
  norms: Float32Array;
  states: Uint8Array;
  slotWork: Int32Array;
  /** Publication year per slot, 0 when unknown. */
  years: Int16Array;
  bounds: Float32Array;
}

/** The part of a prepared query the scorer needs (what is sent to a search worker). */
export interface ScoredQuery {
  terms: ReadonlyArray<Pick<QueryTerm, 'termId' | 'df' | 'weight'>>;
  selfScore: number;
}

export interface QueryField {
  text: string;
  /** How much one occurrence in this field counts (e.g. title 1, abstract 1, full text 0.4). */
  weight: number;
  /**
   * Keep only this field's most informative terms (weight times IDF): a long field (a full text)
   * adds its core vocabulary without its every passing word.
   */
  maxTerms?: number;
}

export interface QueryOptions {
  /** Terms in more than this share of the works are dropped (they rank nothing and cost most). */
  maxDfRatio?: number;
  /** Keep only this many terms, the most informative (query weight times IDF) first. */
  maxTerms?: number;
  /** Analysed terms for which this is false are left out (e.g. the wording of any abstract). */
  keepTerm?: (term: string) => boolean;
}

const MIN_COMMON_DF = 100;

export const DEFAULT_QUERY_OPTIONS: Required<Omit<QueryOptions, 'keepTerm'>> = {
  maxDfRatio: 0.5,
  maxTerms: 200,
};

export interface QueryTerm {
  term: string;
  /** A readable form from the query text ("neural networks" for "neural network"). */
  surface: string;
  termId: number;
  df: number;
  idf: number;
  /** Works whose title holds the term, when the index counts them (the in-process one does). */
  titleDf?: number;
  bigram: boolean;
  /** Field-weighted, saturated frequency in the query. */
  queryWeight: number;
  /** queryWeight * idf * (k1 + 1): the most a work can get from this term. */
  weight: number;
  /** Added by pseudo-relevance feedback (not in the manuscript's text: no surface form). */
  feedback?: boolean;
}

export interface PreparedQuery {
  terms: QueryTerm[];
  /** What a work identical to the query would score; divides every score. */
  selfScore: number;
  /** Terms dropped for being in more than `maxDfRatio` of the works. */
  commonTerms: string[];
  /** Distinct query terms the corpus does not hold. */
  unknownTerms: number;
  /**
   * The share of the index's (work, bigram) pairs whose bigram is in the work's title, when the
   * index counts title document frequencies (QueryTerm.titleDf): the base rate they are judged by.
   */
  titleShare?: number;
}

export interface SearchHit {
  workId: number;
  /** Raw BM25 divided by the query's self-score: about 0..1, comparable across queries. */
  score: number;
  /** The work's publication year, 0 when unknown (for recency, without another look-up). */
  year: number;
}

export interface MatchedTerm {
  term: string;
  surface: string;
  bigram: boolean;
  /** This term's share of the work's normalised score. */
  contribution: number;
}

/**
 * What preparing a query reads of an index: its BM25 parameters, N, the average length, and each
 * term's number, document frequency and IDF. The in-process index is one; the OpenSearch index
 * builds one from statistics it fetched for the query's terms (opensearch-work-index.ts).
 */
export interface QueryStatistics {
  readonly options: { readonly k1: number; readonly b: number };
  readonly docCount: number;
  readonly avgDocLength: number;
  /** -1 for a term the corpus does not hold. */
  termId(term: string): number;
  docFreq(termId: number): number;
  idf(termId: number): number;
  /** Works whose title holds the term; an engine that does not count them leaves both out. */
  titleDocFreq?(termId: number): number;
  titleShare?(): number | null;
}

export function prepareQuery(
  index: QueryStatistics,
  fields: readonly QueryField[],
  options: QueryOptions = {},
): PreparedQuery {
  return runToEnd(preparation(index, fields, options));
}

/**
 * prepareQuery, giving the event loop a turn whenever the slicer's slice is used up: the same query.
 * A manuscript's query (a 100,000-character abstract, a full text's head) took 25-60 ms to analyse
 * in one run, on the thread that serves every request.
 */
export async function prepareQuerySliced(
  index: QueryStatistics,
  fields: readonly QueryField[],
  options: QueryOptions = {},
  slicer = new TimeSlicer(),
): Promise<PreparedQuery> {
  return runSliced(preparation(index, fields, options), slicer);
}

/** Distinct terms looked up between two chances to pause. */
const PIECE_TERMS = 2_048;

/** prepareQuery's work, yielding between pieces of it (where a caller may pause). */
function* preparation(
  index: QueryStatistics,
  fields: readonly QueryField[],
  options: QueryOptions,
): Generator<void, PreparedQuery> {
  const { maxDfRatio, maxTerms } = { ...DEFAULT_QUERY_OPTIONS, ...options };
  const keepTerm = options.keepTerm;
  const { k1, b } = index.options;
  const n = index.docCount;
  const weights = new Map<string, number>();
  const rawCounts = new Map<string, number>();
  const surfaces = new Map<string, string>();
  // Per distinct term: its id, or -1 (unknown), -2 (too common) or -3 (not kept).
  const ids = new Map<string, number>();
  const idOf = (term: string): number => {
    let id = ids.get(term);
    if (id === undefined) {
      id = index.termId(term);
      const df = index.docFreq(id);
      // In a small corpus every term is "common"; the cut-off only matters (for cost) in a large one.
      if (df === 0) id = -1;
      else if (df > n * maxDfRatio && df > MIN_COMMON_DF) id = -2;
      else if (keepTerm && !keepTerm(term)) id = -3;
      ids.set(term, id);
    }
    return id;
  };
  // Saturated like a document's tf: once counts 1, many times approaches k1 + 1.
  const saturated = (tf: number) => ((k1 + 1) * tf) / (k1 + tf);
  let queryLength = 0;
  // Distinct terms looked up so far (a pause is offered every PIECE_TERMS of them).
  let looked = 0;
  for (const field of fields) {
    if (!field.text || field.weight <= 0) continue;
    const counts = new Map<string, number>();
    const length = yield* forEachTermInPieces(
      field.text,
      (term, surface) => {
        counts.set(term, (counts.get(term) ?? 0) + 1);
        if (!surfaces.has(term)) surfaces.set(term, surface);
      },
      true,
      ANALYSIS_PIECE_CHARS,
    );
    queryLength += length * field.weight;
    let entries = [...counts];
    if (field.maxTerms !== undefined && entries.length > field.maxTerms) {
      const valued: Array<{ term: string; tf: number; value: number }> = [];
      for (const [term, tf] of entries) {
        const id = idOf(term);
        if (id >= 0) valued.push({ term, tf, value: saturated(tf) * index.idf(id) });
        if (++looked % PIECE_TERMS === 0) yield;
      }
      const informative = valued
        .filter((e) => e.value > 0)
        .sort((x, y) => y.value - x.value || (x.term < y.term ? -1 : 1));
      entries = informative.slice(0, field.maxTerms).map((e) => [e.term, e.tf]);
    }
    for (const [term, tf] of entries) {
      weights.set(term, (weights.get(term) ?? 0) + field.weight * saturated(tf));
      rawCounts.set(term, (rawCounts.get(term) ?? 0) + field.weight * tf);
    }
  }

  const terms: QueryTerm[] = [];
  const commonTerms: string[] = [];
  let unknownTerms = 0;
  for (const [term, queryWeight] of weights) {
    if (++looked % PIECE_TERMS === 0) yield;
    const termId = idOf(term);
    if (termId === -1) unknownTerms++;
    if (termId === -2) commonTerms.push(term);
    if (termId < 0) continue;
    const idf = index.idf(termId);
    terms.push({
      term,
      surface: surfaces.get(term) ?? term,
      termId,
      df: index.docFreq(termId),
      idf,
      ...(index.titleDocFreq ? { titleDf: index.titleDocFreq(termId) } : {}),
      bigram: isBigram(term),
      queryWeight,
      weight: queryWeight * idf * (k1 + 1),
    });
  }
  terms.sort((x, y) => y.weight - x.weight || (x.term < y.term ? -1 : 1));
  if (terms.length > maxTerms) terms.length = maxTerms;

  const avg = Math.max(1, index.avgDocLength);
  const selfNorm = k1 * (1 - b + (b * queryLength) / avg);
  let selfScore = 0;
  for (const t of terms) {
    const tf = rawCounts.get(t.term) ?? 0;
    selfScore += (t.weight * tf) / (tf + selfNorm);
  }
  const titleShare = index.titleShare?.() ?? null;
  return { terms, selfScore, commonTerms, unknownTerms, ...(titleShare !== null ? { titleShare } : {}) };
}

/** How the scorer trades exactness for speed (see docs/retrieval.md, "Query cost"). */
export interface ScorerTuning {
  /** Score every term over every posting, without skipping (the reference tests and bench use). */
  exhaustive: boolean;
  /**
   * Terms are scored over all their postings until the bounds of those left add up to less than
   * the threshold times this. 1 is MaxScore's exact rule; above 1 leaves more (common) terms to
   * count only for the candidates.
   */
  thresholdBoost: number;
  /**
   * At most this many works (the best by partial score) are candidates, and at most
   * `candidateShare` of the indexed works; never fewer than 10 k.
   */
  candidates: number;
  /**
   * In a small corpus 2,000 candidates are a large share of it: at 42k works 1,000 found the same
   * top 100 as 2,000, in half the time (docs/benchmarks/retrieval.md).
   */
  candidateShare: number;
  /** Works whose exact scores set the threshold (the best this many by partial score). */
  estimatePool: number;
  /**
   * Per query, at most about this many postings are scored in full (the rarest terms first);
   * the terms past it count only for the candidates. Bounds the cost of the longest queries,
   * which otherwise set the p95.
   */
  postingBudget: number;
}

export const DEFAULT_TUNING: ScorerTuning = {
  exhaustive: false,
  thresholdBoost: 2,
  candidates: 2000,
  candidateShare: 1 / 40,
  estimatePool: 120,
  postingBudget: 400_000,
};
// A work's forward row holds ~120 entries (ACL titles and abstracts, bigrams too); exact scores from
// rows also cost a hash probe each, so the postings win up to a few times that (measured at 42k works).
const EXHAUSTIVE_ROW_ENTRIES = 400;
// The threshold is estimated before the first term in more than this share of the works.
const ESTIMATE_DF_RATIO = 0.002;
const MIN_ESTIMATE_DF = 1000;
// Float32 accumulators and bounds round differently from the float64 sums of exact scores:
// pruning keeps this relative margin so that rounding never drops a work that belongs in the top k.
const PRUNE_SLACK = 1 + 1e-4;

/** Counters of the last search, for the benchmark and the tests. */
export interface SearchTrace {
  terms: number;
  /** Terms scored over all their postings (any work may enter the top k through them). */
  essentialTerms: number;
  /** Postings read by those terms. */
  essentialPostings: number;
  /** Works that could still reach the top k after those terms (at most `candidates`). */
  candidates: number;
  /** Candidates scored exactly (the rest could no longer reach the k-th best exact score). */
  finalCandidates: number;
}

interface OrderedTerm {
  termId: number;
  weight: number;
  df: number;
  /** The most this term adds to any work: weight x the index's bound for the term. */
  bound: number;
}

/**
 * Top-k over a prepared query with MaxScore-style pruning (docs/retrieval.md "Query cost"). Terms
 * are taken by decreasing upper bound (their weight times the index's largest tf / (tf + norm) for
 * the term: rare terms come first).
 * 1. Each term is scored over all its postings into a reusable accumulator (weight x the
 *    posting's impact: its tf / (tf + norm) rounded up to a byte, Segment.impacts), until the
 *    bounds of the terms left add up to less than `thresholdBoost` x the threshold. The threshold is a score
 *    k works are known to reach: the k-th best exact score among the `estimatePool` best works by
 *    partial score, estimated before the first long list.
 * 2. The best `candidates` works by partial score that can still reach the threshold are scored
 *    exactly, best first, each in one read of its forward row (Segment.forward); they stop once
 *    the partial score plus the bounds of the terms left falls below the k-th best exact score.
 * With `thresholdBoost` 1 and no cap on candidates or postings this is exact (MaxScore); the
 * defaults trade a little of that for speed, measured against exhaustive scoring by the benchmark.
 * One scorer per index; not reentrant (searches are synchronous).
 */
export class Scorer {
  private acc = new Float32Array(0);
  private touched = new Int32Array(0);
  private touchedCount = 0;
  /** Per query: for term i and segment s, its postings [starts[i*S+s], ends[i*S+s]). */
  private starts = new Int32Array(0);
  private ends = new Int32Array(0);
  /** The query over the segments' forward rows, and each query term's weight by its number. */
  private readonly table = new QueryTable();
  private termWeights = new Float64Array(0);
  private readonly tuning: ScorerTuning;
  /** Counters of the last search. */
  trace: SearchTrace = emptyTrace();

  constructor(
    private readonly index: ScoringSource,
    tuning: Partial<ScorerTuning> = {},
  ) {
    this.tuning = { ...DEFAULT_TUNING, ...tuning };
  }

  private candidateCap(k: number, candidates: number, candidateShare: number): number {
    return Math.max(Math.min(candidates, Math.ceil(candidateShare * this.index.docCount)), 10 * k);
  }

  /**
   * Whether scoring every posting exactly costs no more than the pruned search: once the query's
   * postings are fewer than the candidates' forward-row entries would be (a small corpus, a deep k).
   */
  exhaustiveIsCheaper(query: ScoredQuery, k: number): boolean {
    const cap = this.candidateCap(k, this.tuning.candidates, this.tuning.candidateShare);
    let postings = 0;
    for (const t of query.terms) postings += t.df;
    return postings <= cap * EXHAUSTIVE_ROW_ENTRIES;
  }

  search(
    query: ScoredQuery,
    k: number,
    filter?: (workId: number) => boolean,
    tuning: Partial<ScorerTuning> = {},
  ): SearchHit[] {
    const index = this.index;
    const slotCount = index.slotCount;
    this.trace = emptyTrace();
    if (query.terms.length === 0 || slotCount === 0 || query.selfScore <= 0 || k <= 0) return [];
    if (this.acc.length < slotCount) {
      this.acc = new Float32Array(Math.ceil(slotCount * 1.25));
      this.touched = new Int32Array(this.acc.length);
    }
    const { thresholdBoost, candidates, candidateShare, estimatePool, postingBudget } = {
      ...this.tuning,
      ...tuning,
    };
    const exhaustive = tuning.exhaustive ?? this.tuning.exhaustive;
    const cap = this.candidateCap(k, candidates, candidateShare);
    const { states, slotWork, years, bounds } = index.internals();
    const accept = (slot: number) => states[slot] === LIVE && (!filter || filter(slotWork[slot]!));
    this.touchedCount = 0;

    const terms: OrderedTerm[] = query.terms.map((t) => ({
      termId: t.termId,
      weight: t.weight,
      df: t.df,
      bound: t.weight * (bounds[t.termId] ?? 1),
    }));
    terms.sort((x, y) => y.bound - x.bound || x.df - y.df);
    this.locate(terms);
    // rest[i]: the most the terms from i on can add to a work.
    const rest = new Float64Array(terms.length + 1);
    for (let i = terms.length - 1; i >= 0; i--) rest[i] = rest[i + 1]! + terms[i]!.bound;
    this.trace.terms = terms.length;

    let threshold = 0;
    let estimated = false;
    const estimateDf = Math.max(MIN_ESTIMATE_DF, index.docCount * ESTIMATE_DF_RATIO);
    let i = 0;
    let scored = 0;
    for (; i < terms.length && !exhaustive; i++) {
      if (rest[i]! * PRUNE_SLACK < threshold * thresholdBoost) break;
      if (scored + terms[i]!.df > postingBudget && scored > 0) break;
      if (!estimated && terms[i]!.df > estimateDf && this.touchedCount >= k) {
        estimated = true;
        threshold = this.estimateThreshold(k, estimatePool, accept);
        if (rest[i]! * PRUNE_SLACK < threshold * thresholdBoost) break;
      }
      this.accumulateImpacts(terms, i);
      scored += terms[i]!.df;
    }
    if (exhaustive) for (; i < terms.length; i++) this.accumulate(terms, i);

    // Partial scores from impacts are rounded up: the candidates get their exact scores.
    const top = exhaustive
      ? this.best(k, 0, accept, 'take')
      : this.finishCandidates(rest[i]!, threshold, cap, k, accept);
    const hits: SearchHit[] = [];
    for (let j = 0; j < top.size; j++)
      hits.push({
        workId: slotWork[top.slots[j]!]!,
        score: top.scores[j]! / query.selfScore,
        year: years[top.slots[j]!]!,
      });
    return hits;
  }

  /**
   * The best n works of the accumulator with a partial score of at least `min` that pass `accept`,
   * best first, in one pass over the touched list. 'take' also clears the accumulator for the next
   * search; 'peek' keeps it.
   */
  private best(n: number, min: number, accept: (slot: number) => boolean, mode: 'take' | 'peek'): Ranked {
    const acc = this.acc;
    const touched = this.touched;
    const take = mode === 'take';
    const top = new TopK(Math.min(n, this.touchedCount));
    for (let j = 0; j < this.touchedCount; j++) {
      const slot = touched[j]!;
      const v = acc[slot]!;
      if (take) acc[slot] = 0;
      if (v >= min && v >= top.floor && accept(slot)) top.offer(slot, v);
    }
    if (take) this.touchedCount = 0;
    return top.ranked();
  }

  /** Finds each term's postings in each segment, and lays the terms over the segments' rows. */
  private locate(terms: OrderedTerm[]): void {
    const segments = this.index.segments;
    const size = terms.length * segments.length;
    if (this.starts.length < size) {
      this.starts = new Int32Array(size * 2);
      this.ends = new Int32Array(size * 2);
    }
    if (this.termWeights.length < terms.length) this.termWeights = new Float64Array(terms.length * 2);
    this.table.build(
      segments,
      terms.map((t) => t.termId),
    );
    const positions = this.table.positions;
    for (let j = 0; j < terms.length; j++) {
      this.termWeights[j] = terms[j]!.weight;
      for (let s = 0; s < segments.length; s++) {
        const at = j * segments.length + s;
        const k = positions[at]!;
        this.starts[at] = k < 0 ? 0 : segments[s]!.offsets[k]!;
        this.ends[at] = k < 0 ? 0 : segments[s]!.offsets[k + 1]!;
      }
    }
  }

  /** Adds term i's exact contributions over all its postings (the exhaustive reference). */
  private accumulate(terms: OrderedTerm[], i: number): void {
    const acc = this.acc;
    const touched = this.touched;
    const { norms } = this.index.internals();
    const segments = this.index.segments;
    const w = terms[i]!.weight;
    let n = this.touchedCount;
    for (let s = 0; s < segments.length; s++) {
      const { slots, tfs } = segments[s]!;
      const end = this.ends[i * segments.length + s]!;
      for (let p = this.starts[i * segments.length + s]!; p < end; p++) {
        const slot = slots[p]!;
        const tf = tfs[p]! / TF_SCALE;
        const before = acc[slot]!;
        if (before === 0) touched[n++] = slot;
        acc[slot] = before + (w * tf) / (tf + norms[slot]!);
      }
    }
    this.touchedCount = n;
    this.trace.essentialTerms++;
    this.trace.essentialPostings += terms[i]!.df;
  }

  /**
   * Adds term i's contributions over all its postings from their impacts: weight x impact, never
   * below the exact contribution and at most weight / IMPACT_SCALE above it.
   */
  private accumulateImpacts(terms: OrderedTerm[], i: number): void {
    const acc = this.acc;
    const touched = this.touched;
    const segments = this.index.segments;
    const w = terms[i]!.weight / IMPACT_SCALE;
    let n = this.touchedCount;
    for (let s = 0; s < segments.length; s++) {
      const { slots, impacts } = segments[s]!;
      const end = this.ends[i * segments.length + s]!;
      for (let p = this.starts[i * segments.length + s]!; p < end; p++) {
        const slot = slots[p]!;
        const before = acc[slot]!;
        if (before === 0) touched[n++] = slot;
        acc[slot] = before + w * impacts[p]!;
      }
    }
    this.touchedCount = n;
    this.trace.essentialTerms++;
    this.trace.essentialPostings += terms[i]!.df;
  }

  /** A work's score over every query term, from its forward row. */
  private exactScore(slot: number): number {
    const table = this.table;
    const n = table.matchRow(slot);
    const norm = this.index.internals().norms[slot]!;
    const weights = this.termWeights;
    let score = 0;
    for (let m = 0; m < n; m++) {
      const tf = table.matchTfs[m]!;
      score += (weights[table.matchTerms[m]!]! * tf) / (tf + norm);
    }
    return score;
  }

  /**
   * A score the k-th best work is known to reach: the k-th best exact score among the `pool` best
   * works by their partial scores.
   */
  private estimateThreshold(k: number, pool: number, accept: (slot: number) => boolean): number {
    const best = this.best(Math.max(pool, k), -Infinity, accept, 'peek');
    if (best.size < k) return 0;
    const scores = new Float64Array(best.size);
    for (let j = 0; j < best.size; j++) scores[j] = this.exactScore(best.slots[j]!);
    scores.sort();
    // Rounding: step a hair below, so that the k-th work itself is never pruned.
    return scores[scores.length - k]! / PRUNE_SLACK;
  }

  /**
   * The best `cap` works by partial score that can still reach the threshold (with at most
   * `reach` from the terms not accumulated), scored exactly in order of partial score until that
   * order's bound falls below the k-th best exact score. Returns the top k.
   */
  private finishCandidates(
    reach: number,
    threshold: number,
    cap: number,
    k: number,
    accept: (slot: number) => boolean,
  ): Ranked {
    const pool = this.best(cap, threshold / PRUNE_SLACK - reach, accept, 'take');
    this.trace.candidates = pool.size;
    const top = new TopK(Math.min(k, pool.size));
    let scored = 0;
    for (let j = 0; j < pool.size; j++) {
      // Best partial first: once one cannot reach the k-th best exact score, none after can.
      if ((pool.scores[j]! + reach) * PRUNE_SLACK < Math.max(threshold, top.floor)) break;
      const slot = pool.slots[j]!;
      top.offer(slot, this.exactScore(slot));
      scored++;
    }
    this.trace.finalCandidates = scored;
    return top.ranked();
  }
}

function emptyTrace(): SearchTrace {
  return { terms: 0, essentialTerms: 0, essentialPostings: 0, candidates: 0, finalCandidates: 0 };
}

/**
 * The best k (score, slot) pairs offered: higher score first, the lower slot on a tie (so the
 * order does not depend on the order of offers). A bounded min-heap with the worst at the root.
 */
class TopK {
  private readonly scores: Float64Array;
  private readonly slots: Int32Array;
  private size = 0;

  constructor(private readonly k: number) {
    this.scores = new Float64Array(Math.max(0, k));
    this.slots = new Int32Array(Math.max(0, k));
  }

  /** The k-th best score once k pairs are in, else 0: an offer below it cannot enter. */
  get floor(): number {
    return this.size === this.k ? this.scores[0]! : 0;
  }

  offer(slot: number, score: number): void {
    if (score <= 0 || this.k === 0) return;
    const scores = this.scores;
    const slots = this.slots;
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!worse(score, slot, scores[p]!, slots[p]!)) break;
        scores[i] = scores[p]!;
        slots[i] = slots[p]!;
        i = p;
      }
      scores[i] = score;
      slots[i] = slot;
      return;
    }
    if (!worse(scores[0]!, slots[0]!, score, slot)) return;
    this.siftDown(score, slot, this.size);
  }

  /** Puts (score, slot) at the root of the heap's first `end` entries and sifts it down. */
  private siftDown(score: number, slot: number, end: number): void {
    const scores = this.scores;
    const slots = this.slots;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= end) break;
      const r = l + 1;
      const c = r < end && worse(scores[r]!, slots[r]!, scores[l]!, slots[l]!) ? r : l;
      if (!worse(scores[c]!, slots[c]!, score, slot)) break;
      scores[i] = scores[c]!;
      slots[i] = slots[c]!;
      i = c;
    }
    scores[i] = score;
    slots[i] = slot;
  }

  /** The pairs best first; the heap is used up. */
  ranked(): Ranked {
    const scores = this.scores;
    const slots = this.slots;
    const size = this.size;
    // Heap sort: the worst goes to the end, again and again.
    for (let end = size - 1; end > 0; end--) {
      const score = scores[end]!;
      const slot = slots[end]!;
      scores[end] = scores[0]!;
      slots[end] = slots[0]!;
      this.siftDown(score, slot, end);
    }
    this.size = 0;
    return { size, slots, scores };
  }
}

/** Works best first: slots[i] and scores[i] for i < size. */
interface Ranked {
  size: number;
  slots: Int32Array;
  scores: Float64Array;
}

/** Whether (a, slotA) ranks below (b, slotB). */
function worse(a: number, slotA: number, b: number, slotB: number): boolean {
  return a < b || (a === b && slotA > slotB);
}
