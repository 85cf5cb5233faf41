// A prepared query laid over the index's segments: per segment, an open-addressing table from a
// term's position in that segment (Segment.termIds) to the query term's number, so one read of a
// work's forward row finds every query term it holds. The pruned top-k scorer (search.ts) scores
// its candidates this way, and so are given works and author profiles scored (work-scoring.ts):
// each work costs one row read, not a binary search per query term.
import { TF_SCALE, findTerm, type Segment } from './segment.ts';

// Fibonacci hashing of a term's position in a segment.
const HASH_MULTIPLIER = 0x9e3779b1;

export class QueryTable {
  private segments: readonly Segment[] = [];
  private termCount = 0;
  /** Per (query term j, segment s) at j * S + s: the term's position in the segment, or -1. */
  positions = new Int32Array(0);
  private keys = new Int32Array(0);
  private values = new Int32Array(0);
  private bits = 0;
  /** Filled by `matchRow`: the query terms the row holds and their tfs, `matchCount` of them. */
  matchTerms = new Int32Array(64);
  matchTfs = new Float32Array(64);

  /** Lays the query's terms (by term id, query term j at termIds[j]) over the segments. */
  build(segments: readonly Segment[], termIds: ArrayLike<number>): void {
    this.segments = segments;
    this.termCount = termIds.length;
    const size = termIds.length * segments.length;
    if (this.positions.length < size) this.positions = new Int32Array(size * 2);
    // Tables at most a quarter full: a row entry that is not a query term costs one probe or two.
    let bits = 4;
    while (1 << bits < termIds.length * 4) bits++;
    const tableSize = segments.length << bits;
    if (this.keys.length < tableSize) {
      this.keys = new Int32Array(tableSize);
      this.values = new Int32Array(tableSize);
    }
    this.bits = bits;
    const keys = this.keys;
    keys.fill(-1, 0, tableSize);
    const mask = (1 << bits) - 1;
    if (this.matchTerms.length < termIds.length) {
      this.matchTerms = new Int32Array(termIds.length);
      this.matchTfs = new Float32Array(termIds.length);
    }
    for (let j = 0; j < termIds.length; j++) {
      for (let s = 0; s < segments.length; s++) {
        const k = findTerm(segments[s]!, termIds[j]!);
        this.positions[j * segments.length + s] = k;
        if (k < 0) continue;
        let h = Math.imul(k, HASH_MULTIPLIER) >>> (32 - bits);
        while (keys[(s << bits) + h] !== -1) h = (h + 1) & mask;
        keys[(s << bits) + h] = k;
        this.values[(s << bits) + h] = j;
      }
    }
  }

  get size(): number {
    return this.termCount;
  }

  /** The segment holding a slot's row, or -1. */
  segmentOf(slot: number): number {
    const segments = this.segments;
    let lo = 0;
    let hi = segments.length - 1;
    if (hi < 0) return -1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (segments[mid]!.lastSlot < slot) lo = mid + 1;
      else hi = mid;
    }
    const seg = segments[lo]!;
    return slot < seg.firstSlot || slot > seg.lastSlot ? -1 : lo;
  }

  /**
   * Reads a work's forward row: the query terms it holds go to matchTerms / matchTfs (tf in
   * weighted occurrences), and their number is returned.
   */
  matchRow(slot: number): number {
    const s = this.segmentOf(slot);
    if (s < 0) return 0;
    const seg = this.segments[s]!;
    const bits = this.bits;
    const mask = (1 << bits) - 1;
    const base = s << bits;
    const shift = 32 - bits;
    const keys = this.keys;
    const values = this.values;
    const forward = seg.forward;
    const row = slot - seg.firstSlot;
    const end = seg.forwardOffsets[row + 1]!;
    let n = 0;
    for (let p = seg.forwardOffsets[row]!; p < end; p++) {
      const entry = forward[p]!;
      const key = entry >>> 8;
      let h = Math.imul(key, HASH_MULTIPLIER) >>> shift;
      for (;;) {
        const found = keys[base + h]!;
        if (found === key) {
          this.matchTerms[n] = values[base + h]!;
          this.matchTfs[n] = (entry & 0xff) / TF_SCALE;
          n++;
          break;
        }
        if (found < 0) break;
        h = (h + 1) & mask;
      }
    }
    return n;
  }
}
