// The in-process BM25 index over typed arrays. Every version of a work gets a "slot" (a document
// number); a changed work tombstones its old slot and appends a new one, so segments never change
// in place. New postings collect in a buffer, are sealed into a segment by `flush()`, and small or
// tombstone-heavy segments are merged. Document frequencies count postings still stored, so they
// include tombstoned versions until their segment is merged: IDF drifts by at most the dead share.
// Title document frequencies (the works whose title holds a term) are counted the same way, from a
// bit per posting (Segment.titles).
import { stemmer } from 'stemmer';
import { BIGRAM_SEPARATOR, analyze, forEachWord, isContentWord, type AnalyzedText } from './analyzer.ts';
import { PairTable } from './pair-table.ts';
import type { ScoringArrays } from './search.ts';
import {
  IMPACT_SCALE,
  MAX_SEGMENT_POSTINGS,
  PostingBuffer,
  TF_SCALE,
  findSlot,
  findTerm,
  mergeSegments,
  type Segment,
} from './segment.ts';

export interface IndexOptions {
  k1: number;
  b: number;
  /** Each title word counts this many times (the abstract's words count `abstractWeight` times). */
  titleWeight: number;
  abstractWeight: number;
  /** A segment is sealed from at most this many works; smaller ones are merged up to it. */
  segmentWorks: number;
}

export const DEFAULT_INDEX_OPTIONS: IndexOptions = {
  k1: 1.2,
  b: 0.75,
  // RANKING.md: counting the title twice was slightly worse than once.
  titleWeight: 1,
  abstractWeight: 1,
  segmentWorks: 50_000,
};

/** BM25's IDF (Lucene's, always positive) of a term in `df` of `docCount` documents: one definition for every engine. */
export function bm25Idf(docCount: number, df: number): number {
  return Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
}

export interface WorkText {
  workId: number;
  title: string;
  abstract: string | null;
  year: number | null;
  /** The row's `change_seq`, to skip versions already indexed. */
  changeSeq: number;
}

/**
 * Everything that makes a flushed index what it is, as typed arrays plus a few numbers: what a
 * snapshot stores (index-snapshot.ts) and `restore` takes back. Arrays are exactly as long as their
 * count (termCount, slotCount); the lookup tables (term texts to ids, bigram pairs, works to slots)
 * are rebuilt from them.
 */
export interface IndexState extends IndexScalars {
  options: IndexOptions;
  /** Unigram term texts in term-id order (bigram ids, whose termLeft is >= 0, are skipped). */
  unigrams: string[];
  termLeft: Int32Array;
  termRight: Int32Array;
  dfs: Int32Array;
  titleDfs: Int32Array;
  termBound: Float32Array;
  slotWork: Int32Array;
  slotState: Uint8Array;
  slotLength: Float32Array;
  slotNorm: Float32Array;
  slotYear: Int16Array;
  slotSeq: Float64Array;
  segments: Segment[];
  segmentDead: number[];
  segmentStored: number[];
}

/** The index's running totals beside its arrays (a snapshot's header keeps them: scalarsOf). */
export interface IndexScalars {
  liveWorks: number;
  storedDocs: number;
  storedLength: number;
  normAverage: number;
  /** Stored postings of bigrams, and how many of them are title terms (Bm25Index.titleShare). */
  bigramPostings: number;
  titleBigramPostings: number;
}

/** The totals of a state, without its arrays. */
export function scalarsOf(state: IndexScalars): IndexScalars {
  const { liveWorks, storedDocs, storedLength, normAverage, bigramPostings, titleBigramPostings } = state;
  return { liveWorks, storedDocs, storedLength, normAverage, bigramPostings, titleBigramPostings };
}

export interface Postings {
  /** Slots (document numbers), ascending. */
  docs: Int32Array;
  /** Weighted term frequencies, parallel to `docs`. */
  tfs: Float32Array;
}

const DEAD = 0;
const ALIVE = 1;
/** Dead and its postings merged away: no longer counted in N or the average length. */
const PURGED = 2;
const MAX_SMALL_SEGMENTS = 8;
const WORD_CACHE_LIMIT = 300_000;
const DEAD_SHARE_TO_REWRITE = 0.3;
const BOUND_ROUNDING = 1 + 1e-6;

type TypedArray = Int32Array | Float32Array | Float64Array | Uint8Array | Int16Array;
type TypedArrayClass<T> = { new (buffer: ArrayBufferLike): T; BYTES_PER_ELEMENT: number };

/**
 * A copy of `array` `length` entries long, in the same kind of buffer (arrays a search worker reads
 * stay shared), the new entries set to `fill`.
 */
function resized<T extends TypedArray>(array: T, length: number, fill: number): T {
  const Kind = array.constructor as unknown as TypedArrayClass<T>;
  const bytes = length * Kind.BYTES_PER_ELEMENT;
  const next = new Kind(
    array.buffer instanceof SharedArrayBuffer ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes),
  );
  next.set(array);
  if (fill !== 0) next.fill(fill, array.length);
  return next;
}

/** `array` when it holds at least `n` entries, else a copy exactly that long. */
function atLeast<T extends TypedArray>(array: T, n: number, fill = 0): T {
  return array.length >= n ? array : resized(array, n, fill);
}

/** `array` when it holds at least `need` entries, else a copy whose length doubles until it does. */
function grown<T extends TypedArray>(array: T, need: number, fill = 0): T {
  if (need <= array.length) return array;
  let size = Math.max(array.length, 1) * 2;
  while (size < need) size *= 2;
  return resized(array, size, fill);
}

export class Bm25Index {
  readonly options: IndexOptions;
  /** Unigram stem -> term id. Bigrams live in `pairs`, keyed by their two unigram ids. */
  private readonly unigramIds = new Map<string, number>();
  private readonly pairs = new PairTable();
  /** Unigram text by term id ('' for a bigram, whose text is made from its two halves). */
  private readonly termTexts: string[] = [];
  private termLeft: Int32Array = new Int32Array(1024);
  private termRight: Int32Array = new Int32Array(1024);
  private dfs: Int32Array = new Int32Array(1024);
  /** Per term, the stored works whose title holds it (counted like `dfs`). */
  private titleDfs: Int32Array = new Int32Array(1024);
  /** Folded word -> unigram term id, -1 for a word that is not indexed; bounded, cleared when full. */
  private wordCache = new Map<string, number>();
  // Per-work term counts while indexing one work, reused.
  private docTf: Float32Array = new Float32Array(1024);
  private docTerms = new Int32Array(256);
  private docTermCount = 0;

  // Shared with a search worker: slot -> work id, state, and BM25 length norm.
  private slotWork: Int32Array = new Int32Array(new SharedArrayBuffer(1024 * 4));
  private slotState: Uint8Array = new Uint8Array(new SharedArrayBuffer(1024));
  private slotLength: Float32Array = new Float32Array(1024);
  private slotNorm: Float32Array = new Float32Array(new SharedArrayBuffer(1024 * 4));
  private slotYear: Int16Array = new Int16Array(new SharedArrayBuffer(1024 * 2));
  private slotSeq: Float64Array = new Float64Array(1024);
  private slotOfWork: Int32Array = new Int32Array(1024).fill(-1);
  /**
   * Per term, the largest tf / (tf + norm) over its stored postings: a term's contribution to any
   * work is at most its query weight times this, which lets the scorer skip works that cannot
   * reach the top k (search.ts). Raised as segments are sealed, recomputed when norms change;
   * merges only drop postings, so a bound stays safe (perhaps loose) until then.
   */
  private termBound: Float32Array = new Float32Array(new SharedArrayBuffer(1024 * 4));
  /** Slots handed out so far; slot numbers are never reused. */
  slotCount = 0;

  segments: Segment[] = [];
  private segmentDead: number[] = [];
  /** Per segment, works whose postings it still stores (alive or tombstoned, not merged away). */
  private segmentStored: number[] = [];
  private pending = new PostingBuffer();
  private pendingFrom = 0;

  /** Works currently searchable or pending (alive slots). */
  liveWorks = 0;
  /** Slots whose postings are still stored (alive or tombstoned, not yet merged away): BM25's N. */
  private storedDocs = 0;
  private storedLength = 0;
  private normAverage = 0;
  private bigramPostings = 0;
  private titleBigramPostings = 0;

  constructor(options: Partial<IndexOptions> = {}) {
    this.options = { ...DEFAULT_INDEX_OPTIONS, ...options };
  }

  get docCount(): number {
    return this.storedDocs;
  }

  get avgDocLength(): number {
    return this.storedDocs === 0 ? 0 : this.storedLength / this.storedDocs;
  }

  get termCount(): number {
    return this.termTexts.length;
  }

  /** Adds or replaces a work; searchable after `flush()`. Returns false when that version is indexed. */
  upsert(work: WorkText): boolean {
    const old = this.docOf(work.workId);
    if (old >= 0 && this.slotSeq[old] === work.changeSeq) return false;
    if (old >= 0) this.tombstone(old);
    const { titleWeight, abstractWeight } = this.options;
    this.docTermCount = 0;
    let length = this.countTerms(work.title, titleWeight);
    // The title is counted first, so its terms are the first of the work's.
    const titleTerms = this.docTermCount;
    if (work.abstract) length += this.countTerms(work.abstract, abstractWeight);

    const slot = this.slotCount++;
    this.ensureSlots(this.slotCount);
    this.slotOfWork = grown(this.slotOfWork, work.workId + 1, -1);
    this.slotOfWork[work.workId] = slot;
    this.slotWork[slot] = work.workId;
    this.slotState[slot] = ALIVE;
    this.slotLength[slot] = length;
    this.slotYear[slot] = work.year ?? 0;
    this.slotSeq[slot] = work.changeSeq;
    this.liveWorks++;
    this.storedDocs++;
    this.storedLength += length;
    this.slotNorm[slot] = this.norm(length);

    for (let i = 0; i < this.docTermCount; i++) {
      const id = this.docTerms[i]!;
      const title = i < titleTerms;
      this.countPosting(id, title, 1);
      this.pending.add(id, slot, this.docTf[id]!, title);
      this.docTf[id] = 0;
    }
    if (
      slot + 1 - this.pendingFrom >= this.options.segmentWorks ||
      this.pending.length >= MAX_SEGMENT_POSTINGS / 2
    )
      this.seal();
    return true;
  }

  /** Adds the terms of one field into the per-work counts; returns its weighted length. */
  private countTerms(text: string, weight: number): number {
    let length = 0;
    let prev = -1;
    forEachWord(
      text,
      (word, extra) => {
        const id = this.wordTerm(word);
        if (id < 0) {
          if (!extra) prev = -1;
          return;
        }
        this.count(id, weight);
        if (extra) return;
        length++;
        if (prev >= 0) {
          let pair = this.pairs.get(prev, id);
          if (pair < 0) {
            pair = this.newTerm('', prev, id);
            this.pairs.set(prev, id, pair);
          }
          this.count(pair, weight);
        }
        prev = id;
      },
      () => {
        prev = -1;
      },
    );
    return length * weight;
  }

  private count(id: number, weight: number): void {
    if (this.docTf[id] === 0) {
      if (this.docTermCount === this.docTerms.length)
        this.docTerms = grown(this.docTerms, this.docTermCount + 1);
      this.docTerms[this.docTermCount++] = id;
    }
    this.docTf[id]! += weight;
  }

  private wordTerm(word: string): number {
    let id = this.wordCache.get(word);
    if (id !== undefined) return id;
    if (!isContentWord(word)) id = -1;
    else {
      const stem = stemmer(word);
      id = this.unigramIds.get(stem) ?? -1;
      if (id < 0) {
        id = this.newTerm(stem, -1, -1);
        this.unigramIds.set(stem, id);
      }
    }
    if (this.wordCache.size >= WORD_CACHE_LIMIT) this.wordCache = new Map();
    this.wordCache.set(word, id);
    return id;
  }

  private newTerm(text: string, left: number, right: number): number {
    const id = this.termTexts.length;
    this.termTexts.push(text);
    this.termLeft = grown(this.termLeft, id + 1);
    this.termRight = grown(this.termRight, id + 1);
    this.dfs = grown(this.dfs, id + 1);
    this.titleDfs = grown(this.titleDfs, id + 1);
    this.termBound = grown(this.termBound, id + 1);
    this.docTf = grown(this.docTf, id + 1);
    this.termLeft[id] = left;
    this.termRight[id] = right;
    return id;
  }

  /** Removes a work from results (its postings go at the next merge of its segment). */
  remove(workId: number): boolean {
    const slot = this.docOf(workId);
    if (slot < 0) return false;
    this.tombstone(slot);
    this.slotOfWork[workId] = -1;
    return true;
  }

  /** Makes pending works searchable and merges segments that have become small or mostly dead. */
  flush(): void {
    if (this.slotCount > this.pendingFrom) this.seal();
    this.compact();
    const avg = this.avgDocLength;
    // BM25's length normalisation depends on the average length; refresh it when it has drifted.
    if (avg > 0 && Math.abs(avg - this.normAverage) / avg > 0.01) {
      this.normAverage = avg;
      for (let s = 0; s < this.slotCount; s++) this.slotNorm[s] = this.norm(this.slotLength[s]!);
      // Bounds and impacts follow the norms. Bounds are computed aside and copied in, so a search
      // running meanwhile in the worker never sees a half-cleared table; impacts are rewritten in
      // place, as the norms are (such a search may rank with a mix of old and new).
      const bounds = new Float32Array(this.termBound.length);
      for (const seg of this.segments) this.raiseBounds(seg, bounds);
      this.termBound.set(bounds);
    }
  }

  private norm(length: number): number {
    const { k1, b } = this.options;
    if (this.normAverage === 0) this.normAverage = Math.max(1, this.avgDocLength);
    return k1 * (1 - b + (b * length) / this.normAverage);
  }

  private ensureSlots(n: number): void {
    this.slotWork = grown(this.slotWork, n);
    this.slotState = grown(this.slotState, n);
    this.slotLength = grown(this.slotLength, n);
    this.slotNorm = grown(this.slotNorm, n);
    this.slotYear = grown(this.slotYear, n);
    this.slotSeq = grown(this.slotSeq, n);
  }

  private tombstone(slot: number): void {
    if (this.slotState[slot] !== ALIVE) return;
    this.slotState[slot] = DEAD;
    this.liveWorks--;
    const seg = this.segmentOfSlot(slot);
    if (seg >= 0) this.segmentDead[seg]!++;
  }

  private segmentOfSlot(slot: number): number {
    let lo = 0;
    let hi = this.segments.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const s = this.segments[mid]!;
      if (slot < s.firstSlot) hi = mid - 1;
      else if (slot > s.lastSlot) lo = mid + 1;
      else return mid;
    }
    return -1;
  }

  private seal(): void {
    const from = this.pendingFrom;
    const to = this.slotCount - 1;
    this.pendingFrom = this.slotCount;
    if (to < from) return;
    // A segment's slot range includes works that had no terms (empty title and abstract).
    const segment = this.pending.seal(from, to);
    this.pending = new PostingBuffer();
    let dead = 0;
    for (let s = from; s <= to; s++) if (this.slotState[s] !== ALIVE) dead++;
    this.raiseBounds(segment, this.termBound);
    this.segments.push(segment);
    this.segmentDead.push(dead);
    this.segmentStored.push(to - from + 1);
  }

  /**
   * Sets each posting's impact (Segment.impacts) from the current norms, and raises each term's
   * bound to the largest tf / (tf + norm) among the segment's postings.
   */
  private raiseBounds(seg: Segment, bounds: Float32Array): void {
    const { termIds, offsets, slots, tfs, impacts } = seg;
    const norms = this.slotNorm;
    for (let k = 0; k < termIds.length; k++) {
      let best = 0;
      for (let i = offsets[k]!, end = offsets[k + 1]!; i < end; i++) {
        const tf = tfs[i]! / TF_SCALE;
        const r = tf / (tf + norms[slots[i]!]!);
        // Rounded up: a sum of impacts never falls below the exact partial score.
        impacts[i] = Math.min(IMPACT_SCALE, Math.ceil(r * IMPACT_SCALE));
        if (r > best) best = r;
      }
      // Rounded up so that float32 storage never makes the bound smaller than a real contribution.
      const t = termIds[k]!;
      if (best * BOUND_ROUNDING > bounds[t]!) bounds[t] = best * BOUND_ROUNDING;
    }
  }

  private works(i: number): number {
    return this.segmentStored[i]!;
  }

  private compact(): void {
    const max = this.options.segmentWorks;
    for (let i = 0; i < this.segments.length; i++) {
      if (this.segmentDead[i]! > this.works(i) * DEAD_SHARE_TO_REWRITE) this.mergeRange(i, i);
    }
    // Keep the number of small segments bounded: merge the adjacent pair with the fewest works.
    for (;;) {
      let small = 0;
      let best = -1;
      let bestSize = Infinity;
      for (let i = 0; i < this.segments.length; i++) {
        if (this.works(i) < max) small++;
        if (i + 1 < this.segments.length) {
          const size = this.works(i) + this.works(i + 1);
          const postings = this.segments[i]!.slots.length + this.segments[i + 1]!.slots.length;
          if (size <= max && size < bestSize && postings <= MAX_SEGMENT_POSTINGS) {
            best = i;
            bestSize = size;
          }
        }
      }
      if (small <= MAX_SMALL_SEGMENTS || best < 0) break;
      this.mergeRange(best, best + 1);
    }
  }

  /**
   * What one stored posting counts for, added when it is indexed and taken away when a merge drops
   * it: its term's document frequency and title document frequency, and the bigram postings behind
   * `titleShare`.
   */
  private countPosting(termId: number, title: boolean, sign: 1 | -1): void {
    this.dfs[termId]! += sign;
    if (title) this.titleDfs[termId]! += sign;
    if (this.termLeft[termId]! >= 0) {
      this.bigramPostings += sign;
      if (title) this.titleBigramPostings += sign;
    }
  }

  private mergeRange(from: number, to: number): void {
    const parts = this.segments.slice(from, to + 1);
    const merged = mergeSegments(parts, this.slotState, (termId, title) =>
      this.countPosting(termId, title, -1),
    );
    let stored = 0;
    for (let s = merged.firstSlot; s <= merged.lastSlot; s++) {
      if (this.slotState[s] === DEAD) {
        this.slotState[s] = PURGED;
        this.storedDocs--;
        this.storedLength -= this.slotLength[s]!;
      } else if (this.slotState[s] === ALIVE) stored++;
    }
    this.segments.splice(from, parts.length, merged);
    this.segmentDead.splice(from, parts.length, 0);
    this.segmentStored.splice(from, parts.length, stored);
  }

  // ---- Snapshot (index-snapshot.ts) ----

  /** The index's state, for a snapshot: views of the live arrays, not copies. Flushed state only. */
  state(): IndexState {
    if (this.pendingFrom !== this.slotCount || this.pending.length > 0)
      throw new Error('the index has unflushed works: flush() before taking its state');
    const terms = this.termTexts.length;
    const slots = this.slotCount;
    const unigrams: string[] = [];
    for (let t = 0; t < terms; t++) if (this.termLeft[t]! < 0) unigrams.push(this.termTexts[t]!);
    return {
      options: { ...this.options },
      unigrams,
      termLeft: this.termLeft.subarray(0, terms),
      termRight: this.termRight.subarray(0, terms),
      dfs: this.dfs.subarray(0, terms),
      titleDfs: this.titleDfs.subarray(0, terms),
      termBound: this.termBound.subarray(0, terms),
      slotWork: this.slotWork.subarray(0, slots),
      slotState: this.slotState.subarray(0, slots),
      slotLength: this.slotLength.subarray(0, slots),
      slotNorm: this.slotNorm.subarray(0, slots),
      slotYear: this.slotYear.subarray(0, slots),
      slotSeq: this.slotSeq.subarray(0, slots),
      segments: [...this.segments],
      segmentDead: [...this.segmentDead],
      segmentStored: [...this.segmentStored],
      liveWorks: this.liveWorks,
      storedDocs: this.storedDocs,
      storedLength: this.storedLength,
      normAverage: this.normAverage,
      bigramPostings: this.bigramPostings,
      titleBigramPostings: this.titleBigramPostings,
    };
  }

  /**
   * Takes over a state made by `state()` (read back from a snapshot), in place of an empty index.
   * The arrays are used as they are (those a search worker reads must be SharedArrayBuffers); the
   * lookup tables are rebuilt from them, which costs a pass over the terms and one over the slots.
   */
  restore(state: IndexState): void {
    if (this.slotCount > 0 || this.termTexts.length > 0) throw new Error('restore() needs an empty index');
    const terms = state.termLeft.length;
    const slots = state.slotWork.length;
    let unigramIds = 0;
    for (let t = 0; t < terms; t++) if (state.termLeft[t]! < 0) unigramIds++;
    if (unigramIds !== state.unigrams.length)
      throw new Error(`state has ${state.unigrams.length} unigram texts for ${unigramIds} unigram ids`);
    let u = 0;
    for (let t = 0; t < terms; t++) {
      const left = state.termLeft[t]!;
      if (left < 0) {
        const text = state.unigrams[u++]!;
        this.termTexts.push(text);
        this.unigramIds.set(text, t);
      } else {
        this.termTexts.push('');
        this.pairs.set(left, state.termRight[t]!, t);
      }
    }
    const capacity = 1024;
    this.termLeft = atLeast(state.termLeft, capacity);
    this.termRight = atLeast(state.termRight, capacity);
    this.dfs = atLeast(state.dfs, capacity);
    this.titleDfs = atLeast(state.titleDfs, capacity);
    this.termBound = atLeast(state.termBound, capacity);
    this.docTf = new Float32Array(Math.max(capacity, terms));
    this.slotWork = atLeast(state.slotWork, capacity);
    this.slotState = atLeast(state.slotState, capacity);
    this.slotLength = atLeast(state.slotLength, capacity);
    this.slotNorm = atLeast(state.slotNorm, capacity);
    this.slotYear = atLeast(state.slotYear, capacity);
    this.slotSeq = atLeast(state.slotSeq, capacity);
    let maxWork = -1;
    for (let s = 0; s < slots; s++)
      if (state.slotState[s] === ALIVE) maxWork = Math.max(maxWork, state.slotWork[s]!);
    this.slotOfWork = new Int32Array(Math.max(capacity, maxWork + 1)).fill(-1);
    for (let s = 0; s < slots; s++) if (state.slotState[s] === ALIVE) this.slotOfWork[state.slotWork[s]!] = s;
    this.slotCount = slots;
    this.pendingFrom = slots;
    this.segments = [...state.segments];
    this.segmentDead = [...state.segmentDead];
    this.segmentStored = [...state.segmentStored];
    this.liveWorks = state.liveWorks;
    this.storedDocs = state.storedDocs;
    this.storedLength = state.storedLength;
    this.normAverage = state.normAverage;
    this.bigramPostings = state.bigramPostings;
    this.titleBigramPostings = state.titleBigramPostings;
  }

  // ---- Read access (also the `RankingIndex` shape the referee finder consumes) ----

  analyze(text: string, keepSurfaces = false): AnalyzedText {
    return analyze(text, keepSurfaces);
  }

  /** -1 for a term the corpus does not hold. */
  termId(term: string): number {
    const sep = term.indexOf(BIGRAM_SEPARATOR);
    if (sep < 0) return this.unigramIds.get(term) ?? -1;
    const left = this.unigramIds.get(term.slice(0, sep));
    const right = this.unigramIds.get(term.slice(sep + 1));
    return left === undefined || right === undefined ? -1 : this.pairs.get(left, right);
  }

  termText(termId: number): string {
    if (termId < 0 || termId >= this.termTexts.length) return '';
    const left = this.termLeft[termId]!;
    if (left < 0) return this.termTexts[termId]!;
    return this.termTexts[left]! + BIGRAM_SEPARATOR + this.termTexts[this.termRight[termId]!]!;
  }

  docFreq(termId: number): number {
    return termId >= 0 && termId < this.termTexts.length ? this.dfs[termId]! : 0;
  }

  /** Stored works whose title holds the term. */
  titleDocFreq(termId: number): number {
    return termId >= 0 && termId < this.termTexts.length ? this.titleDfs[termId]! : 0;
  }

  /**
   * The share of stored (work, bigram) pairs whose bigram is in the work's title: the rate at which
   * a bigram of no particular kind is found in titles, against which a term's title df is judged
   * (concepts.ts). Null before any bigram is indexed.
   */
  titleShare(): number | null {
    return this.bigramPostings > 0 ? this.titleBigramPostings / this.bigramPostings : null;
  }

  idf(termId: number): number {
    return bm25Idf(this.storedDocs, this.docFreq(termId));
  }

  /** Postings of live works for a term across segments (a copy; flushed works only). */
  postings(termId: number): Postings {
    let total = 0;
    for (const seg of this.segments) {
      const k = findTerm(seg, termId);
      if (k >= 0) total += seg.offsets[k + 1]! - seg.offsets[k]!;
    }
    const docs = new Int32Array(total);
    const tfs = new Float32Array(total);
    let n = 0;
    for (const seg of this.segments) {
      const k = findTerm(seg, termId);
      if (k < 0) continue;
      for (let i = seg.offsets[k]!; i < seg.offsets[k + 1]!; i++) {
        const slot = seg.slots[i]!;
        if (this.slotState[slot] !== ALIVE) continue;
        docs[n] = slot;
        tfs[n] = seg.tfs[i]! / TF_SCALE;
        n++;
      }
    }
    return { docs: docs.subarray(0, n), tfs: tfs.subarray(0, n) };
  }

  /** Weighted frequency of a term in one document (slot), 0 when absent. */
  termFrequency(termId: number, doc: number): number {
    const seg = this.segments[this.segmentOfSlot(doc)];
    if (!seg) return 0;
    const k = findTerm(seg, termId);
    if (k < 0) return 0;
    const at = findSlot(seg.slots, seg.offsets[k]!, seg.offsets[k + 1]!, doc);
    return at < 0 ? 0 : seg.tfs[at]! / TF_SCALE;
  }

  /** Entries in a slot's forward row (its distinct terms), 0 when it has none. */
  rowLength(doc: number): number {
    const seg = this.segments[this.segmentOfSlot(doc)];
    if (!seg) return 0;
    const row = doc - seg.firstSlot;
    return seg.forwardOffsets[row + 1]! - seg.forwardOffsets[row]!;
  }

  docLength(doc: number): number {
    return this.slotLength[doc] ?? 0;
  }

  /** BM25's k1 * (1 - b + b * length / avgLength) of a document. */
  docNorm(doc: number): number {
    return this.slotNorm[doc] ?? 0;
  }

  isLive(doc: number): boolean {
    return this.slotState[doc] === ALIVE;
  }

  workIdOf(doc: number): number {
    return this.slotWork[doc] ?? -1;
  }

  /** The live slot of a work, or -1 when the work is not indexed. */
  docOf(workId: number): number {
    if (workId < 0 || workId >= this.slotOfWork.length) return -1;
    return this.slotOfWork[workId]!;
  }

  /** Publication year of the work behind a document, or 0 when unknown. */
  yearOf(doc: number): number {
    return this.slotYear[doc] ?? 0;
  }

  changeSeqOf(workId: number): number {
    const slot = this.docOf(workId);
    return slot < 0 ? -1 : this.slotSeq[slot]!;
  }

  /** Live work ids (for reconciling deletions against the database). */
  liveWorkIds(): number[] {
    const ids: number[] = [];
    for (let s = 0; s < this.slotCount; s++) if (this.slotState[s] === ALIVE) ids.push(this.slotWork[s]!);
    return ids;
  }

  /** Bytes held by the typed arrays (the term dictionary's strings and Map come on top). */
  arrayBytes(): number {
    let bytes =
      this.dfs.byteLength +
      this.titleDfs.byteLength +
      this.termBound.byteLength +
      this.termLeft.byteLength +
      this.termRight.byteLength +
      this.docTf.byteLength +
      this.pairs.byteLength() +
      this.slotWork.byteLength +
      this.slotState.byteLength +
      this.slotLength.byteLength +
      this.slotNorm.byteLength +
      this.slotYear.byteLength +
      this.slotSeq.byteLength +
      this.slotOfWork.byteLength;
    for (const s of this.segments)
      bytes +=
        s.termIds.byteLength +
        s.offsets.byteLength +
        s.slots.byteLength +
        s.tfs.byteLength +
        s.impacts.byteLength +
        s.forward.byteLength +
        s.forwardOffsets.byteLength +
        s.titles.byteLength;
    return bytes;
  }

  postingCount(): number {
    let n = 0;
    for (const s of this.segments) n += s.slots.length;
    return n;
  }

  /** Direct read access for the scorer (hot loops avoid the per-call accessors). */
  internals(): ScoringArrays {
    return {
      norms: this.slotNorm,
      states: this.slotState,
      slotWork: this.slotWork,
      years: this.slotYear,
      bounds: this.termBound,
    };
  }
}

export const LIVE = ALIVE;
