// An immutable block of postings in compressed-sparse-row form: for each term present, a run of
// (slot, tf) pairs with slots ascending. Typed arrays keep a million works in about a gigabyte and
// let a query walk postings without allocating.

/** Term frequencies are stored in quarter units in one byte (weighted field counts up to 63.75). */
export const TF_SCALE = 4;
export const TF_MAX = 255;
/** Impacts are tf / (tf + norm) in units of 1/IMPACT_SCALE, rounded up, in one byte. */
export const IMPACT_SCALE = 255;
/**
 * A segment holds at most this many postings, so at most this many distinct terms: a forward entry
 * packs a term's position in `termIds` into 24 bits beside its 8-bit tf. (50,000 works of ACL
 * abstracts are ~6.4M postings.)
 */
export const MAX_SEGMENT_POSTINGS = 1 << 24;

export interface Segment {
  /** Sorted ids of the terms that have postings here. */
  readonly termIds: Int32Array;
  /** Postings of termIds[i] are slots/tfs[offsets[i] .. offsets[i+1]). */
  readonly offsets: Int32Array;
  readonly slots: Int32Array;
  readonly tfs: Uint8Array;
  /**
   * Parallel to `tfs`: each posting's tf / (tf + norm of its work) x IMPACT_SCALE, rounded up
   * (never below the real value), so phase 1 of a search adds weight x impact per posting, with
   * no division and no read of the norms. Set by the index from its norms (Bm25Index.raiseBounds)
   * when the segment is sealed and again whenever the norms change; merges copy them.
   */
  readonly impacts: Uint8Array;
  /**
   * The same postings by slot (a forward index), for scoring a candidate work exactly in one
   * read of its row: entry `(k << 8) | tf` says the work holds term termIds[k] with that tf, k
   * ascending within a row. The row of slot s is forward[forwardOffsets[s - firstSlot] ..
   * forwardOffsets[s - firstSlot + 1]) (empty for a slot without postings here).
   */
  readonly forward: Int32Array;
  readonly forwardOffsets: Int32Array;
  /**
   * One bit per posting (posting p is bit p & 7 of byte p >> 3): set when the term is in its work's
   * title, so the index keeps each term's title document frequency exact when a merge drops
   * postings (an eighth of a byte a posting).
   */
  readonly titles: Uint8Array;
  readonly firstSlot: number;
  readonly lastSlot: number;
}

// Sealed postings live in SharedArrayBuffers so a search worker reads them without a copy.
export function sharedInt32(n: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(Math.max(1, n) * 4), 0, n);
}
export function sharedUint8(n: number): Uint8Array {
  return new Uint8Array(new SharedArrayBuffer(Math.max(1, n)), 0, n);
}

/** The forward rows of a segment's postings (see Segment.forward): the postings transposed. */
export function forwardOf(
  termIds: Int32Array,
  offsets: Int32Array,
  slots: Int32Array,
  tfs: Uint8Array,
  firstSlot: number,
  lastSlot: number,
): { forward: Int32Array; forwardOffsets: Int32Array } {
  if (termIds.length > MAX_SEGMENT_POSTINGS) throw new Error(`segment of ${termIds.length} terms`);
  const width = Math.max(0, lastSlot - firstSlot + 1);
  const forwardOffsets = sharedInt32(width + 1);
  const n = slots.length;
  // Counts per slot, then starts; forwardOffsets[j + 1] serves as row j's cursor while filling.
  for (let p = 0; p < n; p++) forwardOffsets[slots[p]! - firstSlot + 1]!++;
  for (let j = 0; j < width; j++) forwardOffsets[j + 1]! += forwardOffsets[j]!;
  const cursor = forwardOffsets.slice(0, width);
  const forward = sharedInt32(n);
  // Terms in ascending order, so each row comes out sorted by k.
  for (let k = 0; k < termIds.length; k++) {
    for (let p = offsets[k]!, end = offsets[k + 1]!; p < end; p++) {
      forward[cursor[slots[p]! - firstSlot]!++] = (k << 8) | tfs[p]!;
    }
  }
  return { forward, forwardOffsets };
}

/** Whether posting `p` of a segment is one of its work's title terms (Segment.titles). */
export function inTitle(titles: Uint8Array, p: number): boolean {
  return (titles[p >> 3]! & (1 << (p & 7))) !== 0;
}

function setTitle(titles: Uint8Array, p: number): void {
  titles[p >> 3]! |= 1 << (p & 7);
}

/** Position of `value` in the ascending `sorted` between `from` and `to` (exclusive), or -1. */
function indexInSorted(sorted: Int32Array, from: number, to: number, value: number): number {
  let lo = from;
  let hi = to - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid]!;
    if (v < value) lo = mid + 1;
    else if (v > value) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** Index in `segment.termIds` of `termId`, or -1. */
export function findTerm(segment: Segment, termId: number): number {
  return indexInSorted(segment.termIds, 0, segment.termIds.length, termId);
}

/** Position of `slot` in the postings [from, to) of one term, or -1. */
export function findSlot(slots: Int32Array, from: number, to: number, slot: number): number {
  return indexInSorted(slots, from, to, slot);
}

/** Growable (term, slot, tf) triples, appended in slot order, sealed into a Segment. */
export class PostingBuffer {
  private terms = new Int32Array(1024);
  private slots = new Int32Array(1024);
  private tfs = new Uint8Array(1024);
  /** 1 for a term of its work's title. */
  private titles = new Uint8Array(1024);
  length = 0;

  add(termId: number, slot: number, tf: number, title: boolean): void {
    if (this.length === this.terms.length) this.grow();
    const i = this.length++;
    this.terms[i] = termId;
    this.slots[i] = slot;
    this.tfs[i] = Math.min(TF_MAX, Math.max(1, Math.round(tf * TF_SCALE)));
    this.titles[i] = title ? 1 : 0;
  }

  private grow(): void {
    const size = this.terms.length * 2;
    const terms = new Int32Array(size);
    terms.set(this.terms);
    const slots = new Int32Array(size);
    slots.set(this.slots);
    const tfs = new Uint8Array(size);
    tfs.set(this.tfs);
    const titles = new Uint8Array(size);
    titles.set(this.titles);
    this.terms = terms;
    this.slots = slots;
    this.tfs = tfs;
    this.titles = titles;
  }

  /**
   * Counting sort by term; stable, so each term's slots stay ascending. The segment covers slots
   * firstSlot..lastSlot (works without any term included, so the range can exceed the buffer's).
   */
  seal(firstSlot: number, lastSlot: number): Segment {
    const n = this.length;
    let maxTerm = -1;
    for (let i = 0; i < n; i++) if (this.terms[i]! > maxTerm) maxTerm = this.terms[i]!;
    const counts = new Int32Array(maxTerm + 2);
    for (let i = 0; i < n; i++) counts[this.terms[i]! + 1]!++;
    let distinct = 0;
    for (let t = 1; t < counts.length; t++) if (counts[t]! > 0) distinct++;
    const termIds = sharedInt32(distinct);
    const offsets = sharedInt32(distinct + 1);
    // counts[t+1] becomes the start of term t's run.
    let k = 0;
    let run = 0;
    for (let t = 0; t <= maxTerm; t++) {
      const c = counts[t + 1]!;
      counts[t + 1] = run;
      if (c > 0) {
        termIds[k] = t;
        offsets[k] = run;
        k++;
      }
      run += c;
    }
    offsets[distinct] = run;
    const slots = sharedInt32(n);
    const tfs = sharedUint8(n);
    const titles = sharedUint8((n + 7) >> 3);
    for (let i = 0; i < n; i++) {
      const pos = counts[this.terms[i]! + 1]!++;
      slots[pos] = this.slots[i]!;
      tfs[pos] = this.tfs[i]!;
      if (this.titles[i] === 1) setTitle(titles, pos);
    }
    const rows = forwardOf(termIds, offsets, slots, tfs, firstSlot, lastSlot);
    const impacts = sharedUint8(n);
    return { termIds, offsets, slots, tfs, impacts, ...rows, titles, firstSlot, lastSlot };
  }
}

/**
 * Merges segments (older first, so slots stay ascending) into one, dropping postings of dead slots.
 * `onDropped(termId, title)` is told of each dropped posting (and whether it was a title term) so
 * document frequencies stay exact.
 */
export function mergeSegments(
  segments: readonly Segment[],
  alive: Uint8Array,
  onDropped: (termId: number, title: boolean) => void,
): Segment {
  const termSet = new Set<number>();
  let total = 0;
  for (const s of segments) {
    for (const t of s.termIds) termSet.add(t);
    total += s.slots.length;
  }
  const termIds = sharedInt32(termSet.size);
  termIds.set(Int32Array.from(termSet).sort());
  const offsets = sharedInt32(termIds.length + 1);
  let slots = sharedInt32(total);
  let tfs = sharedUint8(total);
  let impacts = sharedUint8(total);
  let titles = sharedUint8((total + 7) >> 3);
  const cursors = segments.map(() => 0);
  let pos = 0;
  for (let k = 0; k < termIds.length; k++) {
    const t = termIds[k]!;
    offsets[k] = pos;
    for (let s = 0; s < segments.length; s++) {
      const seg = segments[s]!;
      // Terms are visited in ascending order, so each segment's term cursor only moves forward.
      let c = cursors[s]!;
      while (c < seg.termIds.length && seg.termIds[c]! < t) c++;
      cursors[s] = c;
      if (c >= seg.termIds.length || seg.termIds[c] !== t) continue;
      for (let i = seg.offsets[c]!; i < seg.offsets[c + 1]!; i++) {
        const slot = seg.slots[i]!;
        if (alive[slot] === 1) {
          slots[pos] = slot;
          tfs[pos] = seg.tfs[i]!;
          impacts[pos] = seg.impacts[i]!;
          if (inTitle(seg.titles, i)) setTitle(titles, pos);
          pos++;
        } else onDropped(t, inTitle(seg.titles, i));
      }
    }
  }
  offsets[termIds.length] = pos;
  if (pos < total) {
    const s = sharedInt32(pos);
    s.set(slots.subarray(0, pos));
    const t = sharedUint8(pos);
    t.set(tfs.subarray(0, pos));
    const m = sharedUint8(pos);
    m.set(impacts.subarray(0, pos));
    const b = sharedUint8((pos + 7) >> 3);
    b.set(titles.subarray(0, b.length));
    slots = s;
    tfs = t;
    impacts = m;
    titles = b;
  }
  const firstSlot = segments[0]?.firstSlot ?? -1;
  const lastSlot = segments[segments.length - 1]?.lastSlot ?? -1;
  const rows = forwardOf(termIds, offsets, slots, tfs, firstSlot, lastSlot);
  return { termIds, offsets, slots, tfs, impacts, ...rows, titles, firstSlot, lastSlot };
}
