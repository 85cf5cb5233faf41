// Query side of the BM25 index: a weighted multi-field text becomes weighted terms (analysed as the
// index was), very common and unknown terms are dropped, the rest are scored term at a time into a
// reusable accumulator, and the top k are normalised by the query's self-score so that a long
// query does not inflate every score (RANKING.md: up to -0.035 loss).
import { forEachTerm, isBigram } from './analyzer.ts';
import { LIVE, type Bm25Index } from './bm25-index.ts';
import { TF_SCALE, findSlot, findTerm, type Segment } from './segment.ts';

/** What the scorer reads: the index itself, or a search worker's view of its shared arrays. */
export interface ScoringSource {
  readonly segments: readonly Segment[];
  readonly slotCount: number;
  readonly docCount: number;
  internals(): { norms: Float32Array; states: Uint8Array; slotWork: Int32Array };
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
  /** Terms in at most this share of the works (or MIN_RARE_DF works) are scored exhaustively. */
  rareDfRatio: number;
  /** Works kept from the first phase, at least this many and at least 10 k. */
  candidates: number;
  /** Score every term over every posting (the reference the benchmark compares with). */
  exhaustive: boolean;
}

export const DEFAULT_TUNING: ScorerTuning = { rareDfRatio: 0.01, candidates: 2000, exhaustive: false };
const MIN_RARE_DF = 2000;

/**
 * Scores a prepared query against the index, in two phases when the query has common terms:
 * (1) the rarer terms, which carry most of the weight and have short posting lists, are scored
 * over all their postings into a reusable accumulator; (2) the best candidates of phase 1 get the
 * common terms' contributions by galloping through those long lists, so a list of 200,000 postings
 * costs a few thousand probes instead of a full pass. A work matching only common terms cannot
 * reach the top unless nothing rarer matches, which the benchmark checks (overlap with
 * exhaustive scoring). One scorer per index; not reentrant (searches are synchronous).
 */
export class Scorer {
  private acc = new Float32Array(0);
  private touched = new Int32Array(0);
  private readonly tuning: ScorerTuning;

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
    if (query.terms.length === 0 || slotCount === 0 || query.selfScore <= 0 || k <= 0) return [];
    if (this.acc.length < slotCount) {
      this.acc = new Float32Array(Math.ceil(slotCount * 1.25));
      this.touched = new Int32Array(this.acc.length);
    }
    const { rareDfRatio, candidates, exhaustive } = { ...this.tuning, ...tuning };
    const rareLimit = Math.max(MIN_RARE_DF, index.docCount * rareDfRatio);
    const rare = exhaustive ? query.terms : query.terms.filter((t) => t.df <= rareLimit);
    const common = exhaustive ? [] : query.terms.filter((t) => t.df > rareLimit);
    // Only common terms (a short query of everyday words): nothing rarer to pick candidates with.
    const first = rare.length > 0 ? rare : common;
    const second = rare.length > 0 ? common : [];

    const touchedCount = this.accumulate(first);
    const { states, slotWork } = index.internals();
    const acc = this.acc;
    const touched = this.touched;
    const accept = (slot: number) => states[slot] === LIVE && (!filter || filter(slotWork[slot]!));
    let hits: SearchHit[];
    if (second.length === 0) {
      hits = selectTop(
        touchedCount,
        (i) => touched[i]!,
        (i) => acc[touched[i]!]!,
        k,
        accept,
      ).map(({ slot, score }) => ({ workId: slotWork[slot]!, score }));
    } else {
      const pool = selectTop(
        touchedCount,
        (i) => touched[i]!,
        (i) => acc[touched[i]!]!,
        Math.max(candidates, 10 * k),
        accept,
      );
      const slots = Int32Array.from(pool, (p) => p.slot).sort();
      const scores = new Float64Array(slots.length);
      for (let i = 0; i < slots.length; i++) scores[i] = acc[slots[i]!]!;
      this.addByGalloping(second, slots, scores);
      hits = selectTop(
        slots.length,
        (i) => slots[i]!,
        (i) => scores[i]!,
        k,
        () => true,
      ).map(({ slot, score }) => ({
        workId: slotWork[slot]!,
        score,
      }));
    }
    for (let i = 0; i < touchedCount; i++) acc[touched[i]!] = 0;
    for (const h of hits) h.score /= query.selfScore;
    return hits;
  }

  /** Adds the terms' contributions over all their postings; returns how many slots were touched. */
  private accumulate(terms: ScoredQuery['terms']): number {
    const acc = this.acc;
    const touched = this.touched;
    const { norms } = this.index.internals();
    let n = 0;
    for (const seg of this.index.segments) {
      const { offsets, slots, tfs } = seg;
      for (const t of terms) {
        const k = findTerm(seg, t.termId);
        if (k < 0) continue;
        const w = t.weight;
        const end = offsets[k + 1]!;
        for (let i = offsets[k]!; i < end; i++) {
          const slot = slots[i]!;
          const tf = tfs[i]! / TF_SCALE;
          const before = acc[slot]!;
          if (before === 0) touched[n++] = slot;
          acc[slot] = before + (w * tf) / (tf + norms[slot]!);
        }
      }
    }
    return n;
  }

  /** Adds the terms' contributions to the given slots (ascending) by galloping through postings. */
  private addByGalloping(terms: ScoredQuery['terms'], slots: Int32Array, scores: Float64Array): void {
    const { norms } = this.index.internals();
    let from = 0;
    for (const seg of this.index.segments) {
      // The candidates inside this segment's slot range: a contiguous run of the sorted slots.
      while (from < slots.length && slots[from]! < seg.firstSlot) from++;
      let to = from;
      while (to < slots.length && slots[to]! <= seg.lastSlot) to++;
      if (to === from) continue;
      for (const t of terms) {
        const k = findTerm(seg, t.termId);
        if (k < 0) continue;
        const postings = seg.slots;
        const end = seg.offsets[k + 1]!;
        let p = seg.offsets[k]!;
        // Galloping pays when the list is much longer than the candidates; else walk it.
        const walk = end - p < (to - from) * 8;
        for (let c = from; c < to && p < end; c++) {
          const target = slots[c]!;
          if (walk) {
            while (p < end && postings[p]! < target) p++;
          } else p = gallop(postings, p, end, target);
          if (p < end && postings[p] === target) {
            const tf = seg.tfs[p]! / TF_SCALE;
            scores[c] = scores[c]! + (t.weight * tf) / (tf + norms[target]!);
          }
        }
      }
      from = to;
    }
  }
}

/** First index in [from, end) whose slot is >= target, probing 1, 2, 4... ahead, then bisecting. */
function gallop(slots: Int32Array, from: number, end: number, target: number): number {
  if (from >= end || slots[from]! >= target) return from;
  let prev = from;
  let step = 1;
  let cur = from + 1;
  while (cur < end && slots[cur]! < target) {
    prev = cur;
    step *= 2;
    cur = prev + step;
  }
  let lo = prev + 1;
  let hi = Math.min(cur, end);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (slots[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The k best of n scored slots (a bounded min-heap), best first, ties by slot. */
function selectTop(
  n: number,
  slotAt: (i: number) => number,
  scoreAt: (i: number) => number,
  k: number,
  accept: (slot: number) => boolean,
): Array<{ slot: number; score: number }> {
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
