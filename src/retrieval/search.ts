// Query side of the BM25 index: a weighted multi-field text becomes weighted terms (analysed as the
// index was), very common and unknown terms are dropped, the rest are scored term at a time into a
// reusable accumulator, and the top k are normalised by the query's self-score so that a long
// query does not inflate every score (RANKING.md: up to -0.035 loss).
import { forEachTerm, isBigram } from './analyzer.ts';
import { LIVE, type Bm25Index } from './bm25-index.ts';
import { SKIP_SHIFT, TF_SCALE, findDenseRow, findSlot, findTerm, type Segment } from './segment.ts';

/** What the scorer reads: the index itself, or a search worker's view of its shared arrays. */
export interface ScoringSource {
  readonly segments: readonly Segment[];
  readonly slotCount: number;
  readonly docCount: number;
  internals(): { norms: Float32Array; states: Uint8Array; slotWork: Int32Array; bounds: Float32Array };
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
}

export interface QueryOptions {
  /** Terms in more than this share of the works are dropped (they rank nothing and cost most). */
  maxDfRatio?: number;
  /** Keep only this many terms, the most informative (query weight times IDF) first. */
  maxTerms?: number;
}

const MIN_COMMON_DF = 100;

export const DEFAULT_QUERY_OPTIONS: Required<QueryOptions> = { maxDfRatio: 0.5, maxTerms: 200 };

export interface QueryTerm {
  term: string;
  /** A readable form from the query text ("neural networks" for "neural network"). */
  surface: string;
  termId: number;
  df: number;
  idf: number;
  bigram: boolean;
  /** Field-weighted, saturated frequency in the query. */
  queryWeight: number;
  /** queryWeight * idf * (k1 + 1): the most a work can get from this term. */
  weight: number;
}

export interface PreparedQuery {
  terms: QueryTerm[];
  /** What a work identical to the query would score; divides every score. */
  selfScore: number;
  /** Terms dropped for being in more than `maxDfRatio` of the works. */
  commonTerms: string[];
  /** Distinct query terms the corpus does not hold. */
  unknownTerms: number;
}

export interface SearchHit {
  workId: number;
  /** Raw BM25 divided by the query's self-score: about 0..1, comparable across queries. */
  score: number;
}

export interface MatchedTerm {
  term: string;
  surface: string;
  bigram: boolean;
  /** This term's share of the work's normalised score. */
  contribution: number;
}

export function prepareQuery(
  index: Bm25Index,
  fields: readonly QueryField[],
  options: QueryOptions = {},
): PreparedQuery {
  const { maxDfRatio, maxTerms } = { ...DEFAULT_QUERY_OPTIONS, ...options };
  const { k1, b } = index.options;
  const weights = new Map<string, number>();
  const rawCounts = new Map<string, number>();
  const surfaces = new Map<string, string>();
  let queryLength = 0;
  for (const field of fields) {
    if (!field.text || field.weight <= 0) continue;
    const counts = new Map<string, number>();
    const length = forEachTerm(
      field.text,
      (term, surface) => {
        counts.set(term, (counts.get(term) ?? 0) + 1);
        if (!surfaces.has(term)) surfaces.set(term, surface);
      },
      true,
    );
    queryLength += length * field.weight;
    for (const [term, tf] of counts) {
      // Saturated like a document's tf: once counts 1, many times approaches k1 + 1.
      weights.set(term, (weights.get(term) ?? 0) + (field.weight * (k1 + 1) * tf) / (k1 + tf));
      rawCounts.set(term, (rawCounts.get(term) ?? 0) + field.weight * tf);
    }
  }

  const n = index.docCount;
  const terms: QueryTerm[] = [];
  const commonTerms: string[] = [];
  let unknownTerms = 0;
  for (const [term, queryWeight] of weights) {
    const termId = index.termId(term);
    const df = index.docFreq(termId);
    if (df === 0) {
      unknownTerms++;
      continue;
    }
    // In a small corpus every term is "common"; the cut-off only matters (for cost) in a large one.
    if (df > n * maxDfRatio && df > MIN_COMMON_DF) {
      commonTerms.push(term);
      continue;
    }
    const idf = index.idf(termId);
    terms.push({
      term,
      surface: surfaces.get(term) ?? term,
      termId,
      df,
      idf,
      bigram: isBigram(term),
      queryWeight,
      weight: queryWeight * idf * (k1 + 1),
    });
  }
  terms.sort((x, y) => y.weight - x.weight);
  if (terms.length > maxTerms) terms.length = maxTerms;

  const avg = Math.max(1, index.avgDocLength);
  const selfNorm = k1 * (1 - b + (b * queryLength) / avg);
  let selfScore = 0;
  for (const t of terms) {
    const tf = rawCounts.get(t.term) ?? 0;
    selfScore += (t.weight * tf) / (tf + selfNorm);
  }
  return { terms, selfScore, commonTerms, unknownTerms };
}

/** How the scorer trades exactness for speed (see docs/retrieval.md, "Query cost"). */
export interface ScorerTuning {
  /** Score every term over every posting, without skipping (the reference tests and bench use). */
  exhaustive: boolean;
  /**
   * Terms are scored over all their postings until the bounds of those left add up to less than
   * the threshold times this. 1 is MaxScore's exact rule; above 1 leaves more (common) terms to be
   * looked up for the candidates only.
   */
  thresholdBoost: number;
  /** The best this many works by partial score (at least 10 k) are candidates for the rest. */
  candidates: number;
  /** Works whose exact scores set the threshold (the best this many by partial score). */
  estimatePool: number;
  /**
   * Per query, at most about this many postings are scored in full (the rarest terms first);
   * the terms past it are looked up for the candidates only. Bounds the cost of the longest
   * queries, which otherwise set the p95.
   */
  postingBudget: number;
  /** Per query, candidates x terms looked up stays under this (fewer candidates for more terms). */
  lookupBudget: number;
}

export const DEFAULT_TUNING: ScorerTuning = {
  exhaustive: false,
  thresholdBoost: 3,
  candidates: 2000,
  estimatePool: 120,
  postingBudget: 300_000,
  lookupBudget: 80_000,
};
// The threshold is estimated before the first term in more than this share of the works.
const ESTIMATE_DF_RATIO = 0.002;
const MIN_ESTIMATE_DF = 1000;
// Float32 accumulators and bounds round differently from the float64 sums of the probes: pruning
// keeps this relative margin so that rounding never drops a work that belongs in the top k.
const PRUNE_SLACK = 1 + 1e-4;
// A seek costs about as much as reading this many postings in order.
const WALK_RATIO = 16;

/** Counters of the last search, for the benchmark and the tests. */
export interface SearchTrace {
  terms: number;
  /** Terms scored over all their postings (any work may enter the top k through them). */
  essentialTerms: number;
  /** Postings read by those terms. */
  essentialPostings: number;
  /** Works the remaining terms were looked up for, and those still in the running at the end. */
  candidates: number;
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
 * Top-k over a prepared query with MaxScore-style pruning, term at a time (docs/retrieval.md "Query
 * cost"). Terms are taken by decreasing upper bound (their weight times the index's largest
 * tf / (tf + norm) for the term: rare terms come first).
 * 1. Each term is scored over all its postings into a reusable accumulator, until the bounds of
 *    the terms left add up to less than `thresholdBoost` x the threshold. The threshold is a score
 *    k works are known to reach: the k-th best exact score among the `estimatePool` best works by
 *    partial score, estimated before the first long list.
 * 2. The best `candidates` works by partial score that can still reach the threshold get the
 *    remaining terms, looked up through skip entries (every 32nd posting) rather than read in
 *    full; after each term, works that can no longer reach the threshold leave.
 * With `thresholdBoost` 1 and unlimited candidates this is exact (MaxScore); the defaults trade a
 * little of that for speed, measured against exhaustive scoring by the benchmark.
 * One scorer per index; not reentrant (searches are synchronous).
 */
export class Scorer {
  private acc = new Float32Array(0);
  private touched = new Int32Array(0);
  private touchedCount = 0;
  /** Per query: for term i and segment s, its postings [starts[i*S+s], ends[i*S+s]). */
  private starts = new Int32Array(0);
  private ends = new Int32Array(0);
  /** Per query: for term i and segment s, its dense row there (Segment.denseTermIds), or -1. */
  private denseRows = new Int32Array(0);
  private readonly tuning: ScorerTuning;
  /** Counters of the last search. */
  trace: SearchTrace = emptyTrace();

  constructor(
    private readonly index: ScoringSource,
    tuning: Partial<ScorerTuning> = {},
  ) {
    this.tuning = { ...DEFAULT_TUNING, ...tuning };
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
    const { exhaustive, thresholdBoost, candidates, estimatePool, postingBudget, lookupBudget } = {
      ...this.tuning,
      ...tuning,
    };
    const { states, slotWork, bounds } = index.internals();
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
        threshold = this.estimateThreshold(terms, i, k, estimatePool, accept);
        if (rest[i]! * PRUNE_SLACK < threshold * thresholdBoost) break;
      }
      this.accumulate(terms, i);
      scored += terms[i]!.df;
    }
    if (exhaustive) for (; i < terms.length; i++) this.accumulate(terms, i);

    const acc = this.acc;
    const touched = this.touched;
    const top =
      i === terms.length
        ? selectTop(
            this.touchedCount,
            (j) => touched[j]!,
            (j) => acc[touched[j]!]!,
            k,
            accept,
          )
        : this.finishCandidates(
            terms,
            i,
            rest,
            threshold,
            Math.max(Math.floor(Math.min(candidates, lookupBudget / (terms.length - i))), 10 * k),
            k,
            accept,
          );
    for (let j = 0; j < this.touchedCount; j++) acc[touched[j]!] = 0;
    this.touchedCount = 0;
    return top.map(({ slot, score }) => ({ workId: slotWork[slot]!, score: score / query.selfScore }));
  }

  /** The best n works of the accumulator that pass `accept`. */
  private bestTouched(n: number, accept: (slot: number) => boolean): Array<{ slot: number; score: number }> {
    const acc = this.acc;
    const touched = this.touched;
    return selectTop(
      this.touchedCount,
      (j) => touched[j]!,
      (j) => acc[touched[j]!]!,
      n,
      accept,
    );
  }

  /** Finds each term's postings in each segment once per query. */
  private locate(terms: OrderedTerm[]): void {
    const segments = this.index.segments;
    const size = terms.length * segments.length;
    if (this.starts.length < size) {
      this.starts = new Int32Array(size * 2);
      this.ends = new Int32Array(size * 2);
      this.denseRows = new Int32Array(size * 2);
    }
    let at = 0;
    for (const t of terms) {
      for (const seg of segments) {
        const k = findTerm(seg, t.termId);
        this.starts[at] = k < 0 ? 0 : seg.offsets[k]!;
        this.ends[at] = k < 0 ? 0 : seg.offsets[k + 1]!;
        this.denseRows[at] = k < 0 ? -1 : findDenseRow(seg, t.termId);
        at++;
      }
    }
  }

  /** Adds term i's contributions over all its postings into the accumulator. */
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
   * A score the k-th best work is known to reach: the k-th best exact score among the `pool` best
   * works by their partial scores (terms before `from` in the accumulator), the rest looked up.
   */
  private estimateThreshold(
    terms: OrderedTerm[],
    from: number,
    k: number,
    pool: number,
    accept: (slot: number) => boolean,
  ): number {
    const acc = this.acc;
    const best = this.bestTouched(Math.max(pool, k), accept);
    if (best.length < k) return 0;
    const slots = Int32Array.from(best, (b) => b.slot).sort();
    const scores = new Float64Array(slots.length);
    for (let j = 0; j < slots.length; j++) scores[j] = acc[slots[j]!]!;
    const norms = this.normsOf(slots, slots.length);
    for (let t = from; t < terms.length; t++) this.lookUp(terms, t, slots, norms, scores, slots.length);
    scores.sort();
    // Float32 partial sums: step a hair below, so that the k-th work itself is never pruned.
    return scores[scores.length - k]! / PRUNE_SLACK;
  }

  /**
   * The best `cap` works by partial score that can still reach the threshold get the remaining
   * terms, one at a time; after each, works that can no longer reach it leave. Returns the top k.
   */
  private finishCandidates(
    terms: OrderedTerm[],
    from: number,
    rest: Float64Array,
    threshold: number,
    cap: number,
    k: number,
    accept: (slot: number) => boolean,
  ): Array<{ slot: number; score: number }> {
    const acc = this.acc;
    const reach = rest[from]!;
    const pool = this.bestTouched(
      cap,
      (slot) => (acc[slot]! + reach) * PRUNE_SLACK >= threshold && accept(slot),
    );
    let n = pool.length;
    const slots = Int32Array.from(pool, (p) => p.slot).sort();
    const scores = new Float64Array(n);
    for (let j = 0; j < n; j++) scores[j] = acc[slots[j]!]!;
    const norms = this.normsOf(slots, n);
    this.trace.candidates = n;
    for (let t = from; t < terms.length && n > 0; t++) {
      this.lookUp(terms, t, slots, norms, scores, n);
      const left = rest[t + 1]!;
      let kept = 0;
      for (let j = 0; j < n; j++) {
        if ((scores[j]! + left) * PRUNE_SLACK < threshold) continue;
        slots[kept] = slots[j]!;
        scores[kept] = scores[j]!;
        norms[kept] = norms[j]!;
        kept++;
      }
      n = kept;
    }
    this.trace.finalCandidates = n;
    return selectTop(
      n,
      (j) => slots[j]!,
      (j) => scores[j]!,
      k,
      () => true,
    );
  }

  /** The length norms of the first n slots, read once rather than once per term. */
  private normsOf(slots: Int32Array, n: number): Float32Array {
    const { norms } = this.index.internals();
    const out = new Float32Array(n);
    for (let j = 0; j < n; j++) out[j] = norms[slots[j]!]!;
    return out;
  }

  /** Adds term t's contributions to the first n of the given slots (ascending; `norms` theirs). */
  private lookUp(
    terms: OrderedTerm[],
    t: number,
    slots: Int32Array,
    norms: Float32Array,
    scores: Float64Array,
    n: number,
  ): void {
    const segments = this.index.segments;
    const w = terms[t]!.weight;
    let c = 0;
    for (let s = 0; s < segments.length && c < n; s++) {
      const seg = segments[s]!;
      let p = this.starts[t * segments.length + s]!;
      const end = this.ends[t * segments.length + s]!;
      if (p === end) {
        while (c < n && slots[c]! <= seg.lastSlot) c++;
        continue;
      }
      const postings = seg.slots;
      let to = c;
      while (to < n && slots[to]! <= seg.lastSlot) to++;
      const row = this.denseRows[t * segments.length + s]!;
      if (row >= 0) {
        // A common term: its tf for each candidate is one read in the dense row.
        const base = row * (seg.lastSlot - seg.firstSlot + 1) - seg.firstSlot;
        const dense = seg.denseTfs;
        for (; c < to; c++) {
          const target = slots[c]!;
          const raw = dense[base + target]!;
          if (raw > 0) {
            const tf = raw / TF_SCALE;
            scores[c] = scores[c]! + (w * tf) / (tf + norms[c]!);
          }
        }
        continue;
      }
      if (end - p < (to - c) * WALK_RATIO) {
        // Candidates dense in the list: one merge through both beats a seek per candidate.
        for (; c < to; c++) {
          const target = slots[c]!;
          while (p < end && postings[p]! < target) p++;
          if (p === end) break;
          if (postings[p] === target) {
            const tf = seg.tfs[p]! / TF_SCALE;
            scores[c] = scores[c]! + (w * tf) / (tf + norms[c]!);
          }
        }
        c = to;
        continue;
      }
      for (; c < to; c++) {
        const target = slots[c]!;
        p = seek(postings, seg.skips, p, end, target);
        if (p === end) {
          c = to;
          break;
        }
        if (postings[p] === target) {
          const tf = seg.tfs[p]! / TF_SCALE;
          scores[c] = scores[c]! + (w * tf) / (tf + norms[c]!);
        }
      }
    }
  }
}

/**
 * First index in [from, end) whose slot is >= target. Gallops over the skip entries (the slot of
 * every SKIP_INTERVAL-th posting: a small array that stays in cache), then bisects one block.
 */
function seek(slots: Int32Array, skips: Int32Array, from: number, end: number, target: number): number {
  if (from >= end || slots[from]! >= target) return from;
  // Blocks from `from`'s own on: skips[lo] < target holds for lo = from's block.
  let lo = from >> SKIP_SHIFT;
  const lastBlock = (end - 1) >> SKIP_SHIFT;
  let hi = lo + 1;
  let step = 1;
  while (hi <= lastBlock && skips[hi]! < target) {
    lo = hi;
    hi += step;
    step *= 2;
  }
  if (hi > lastBlock + 1) hi = lastBlock + 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (skips[mid]! < target) lo = mid;
    else hi = mid;
  }
  let a = Math.max(from, lo << SKIP_SHIFT);
  let z = Math.min(end, (lo + 1) << SKIP_SHIFT);
  while (a < z) {
    const mid = (a + z) >>> 1;
    if (slots[mid]! < target) a = mid + 1;
    else z = mid;
  }
  return a;
}

function emptyTrace(): SearchTrace {
  return { terms: 0, essentialTerms: 0, essentialPostings: 0, candidates: 0, finalCandidates: 0 };
}

/** The k best of n scored slots (a bounded min-heap), best first, ties by slot. */
function selectTop(
  n: number,
  slotAt: (i: number) => number,
  scoreAt: (i: number) => number,
  k: number,
  accept: (slot: number) => boolean,
): Array<{ slot: number; score: number }> {
  k = Math.min(k, n);
  const scores = new Float64Array(k);
  const heapSlots = new Int32Array(k);
  let size = 0;
  for (let j = 0; j < n; j++) {
    const v = scoreAt(j);
    if (v <= 0 || (size === k && v <= scores[0]!)) continue;
    const s = slotAt(j);
    if (!accept(s)) continue;
    if (size < k) {
      let i = size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (scores[p]! <= v) break;
        scores[i] = scores[p]!;
        heapSlots[i] = heapSlots[p]!;
        i = p;
      }
      scores[i] = v;
      heapSlots[i] = s;
    } else {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const r = l + 1;
        const c = r < size && scores[r]! < scores[l]! ? r : l;
        if (scores[c]! >= v) break;
        scores[i] = scores[c]!;
        heapSlots[i] = heapSlots[c]!;
        i = c;
      }
      scores[i] = v;
      heapSlots[i] = s;
    }
  }
  const out: Array<{ slot: number; score: number }> = [];
  for (let i = 0; i < size; i++) out.push({ slot: heapSlots[i]!, score: scores[i]! });
  out.sort((x, y) => y.score - x.score || x.slot - y.slot);
  return out;
}

/**
 * Scores given works against the query (e.g. every work of one author), without a corpus-wide
 * pass: each (term, work) pair is a binary search. Works not indexed are left out.
 */
export function scoreWorks(index: Bm25Index, query: PreparedQuery, workIds: readonly number[]): SearchHit[] {
  const hits: SearchHit[] = [];
  if (query.selfScore <= 0) return hits;
  for (const workId of workIds) {
    const doc = index.docOf(workId);
    if (doc < 0) continue;
    let score = 0;
    for (const c of contributions(index, query, doc)) score += c.value;
    hits.push({ workId, score: score / query.selfScore });
  }
  hits.sort((x, y) => y.score - x.score || x.workId - y.workId);
  return hits;
}

/** The query terms a work matches, most contributing first (for "relevant concepts"). */
export function matchedTerms(index: Bm25Index, query: PreparedQuery, workId: number): MatchedTerm[] {
  const doc = index.docOf(workId);
  if (doc < 0 || query.selfScore <= 0) return [];
  return contributions(index, query, doc)
    .sort((x, y) => y.value - x.value)
    .map(({ term, value }) => ({
      term: term.term,
      surface: term.surface,
      bigram: term.bigram,
      contribution: value / query.selfScore,
    }));
}

function contributions(
  index: Bm25Index,
  query: PreparedQuery,
  doc: number,
): Array<{ term: QueryTerm; value: number }> {
  const seg = index.segments.find((s) => doc >= s.firstSlot && doc <= s.lastSlot);
  if (!seg) return [];
  const norm = index.docNorm(doc);
  const out: Array<{ term: QueryTerm; value: number }> = [];
  for (const t of query.terms) {
    const k = findTerm(seg, t.termId);
    if (k < 0) continue;
    const at = findSlot(seg.slots, seg.offsets[k]!, seg.offsets[k + 1]!, doc);
    if (at < 0) continue;
    const tf = seg.tfs[at]! / TF_SCALE;
    out.push({ term: t, value: (t.weight * tf) / (tf + norm) });
  }
  return out;
}
