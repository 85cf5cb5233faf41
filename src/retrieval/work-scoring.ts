// Scoring given works, and author profiles made of them, against a prepared query, each work in one
// read of its forward row (query-table.ts). This is the same BM25 as the top-k search (search.ts):
// a work's score here equals its score there. A profile is the candidate model of expertise
// (Balog et al.; RANKING.md): an author's works concatenated into one document, scored by BM25 with
// its own length normalisation against the other profiles scored with it.
import type { Bm25Index } from './bm25-index.ts';
import { QueryTable } from './query-table.ts';
import type { MatchedTerm, PreparedQuery, QueryTerm, SearchHit } from './search.ts';
import { TF_SCALE } from './segment.ts';

/**
 * A query term's share of the query's own score in one work (`tf` its frequency there, `norm` the
 * work's BM25 length norm): the one definition every index's explanations use.
 */
export function matchedTerm(query: PreparedQuery, term: QueryTerm, tf: number, norm: number): MatchedTerm {
  return {
    term: term.term,
    surface: term.surface,
    bigram: term.bigram,
    contribution: (term.weight * tf) / (tf + norm) / query.selfScore,
  };
}

/** Larger contributions first; equal ones by term, so explanations read the same on every index. */
export function byContribution(x: MatchedTerm, y: MatchedTerm): number {
  return y.contribution - x.contribution || (x.term < y.term ? -1 : 1);
}

export interface ProfileOptions {
  /** BM25's b for profiles: their lengths vary far more than works' do. */
  b: number;
  /** How much a work's term frequencies count in a profile, from its year (0 when unknown). */
  workWeight?: (year: number) => number;
}

export interface ProfileScores {
  /** Per profile, in the order given, its BM25 divided by the query's self-score. */
  profiles: Float64Array;
  /** Every indexed work of the profiles that matches the query, with its own score (as search's). */
  works: Map<number, SearchHit>;
}

/** The query terms each work holds, as compressed rows: row k is terms / tfs [start[k], start[k + 1]). */
export interface MatchRows {
  start: Int32Array;
  /** Numbers into the query's terms. */
  terms: Int32Array;
  tfs: Float32Array;
}

/** The works of some profiles in one local numbering: their matches and what BM25 reads of each. */
export interface ProfileWorkRows extends MatchRows {
  /** The work's id; -1 for a work that is not indexed (it adds nothing to its profiles). */
  workIds: Int32Array;
  lengths: Float64Array;
  /** BM25's k1 * (1 - b + b * length / avgLength) of the work. */
  norms: Float64Array;
  /** Publication year, 0 when unknown. */
  years: Int32Array;
}

/**
 * Profiles scored as single documents (the candidate model), and each matching work with its own
 * score, from the works' rows: the one definition every index implementation uses, however it
 * read the rows (the in-process one from its forward rows or postings, OpenSearch from the terms
 * it stored). `members[i]` lists profile i's works by their local number.
 */
export function scoreProfileRows(
  query: PreparedQuery,
  members: readonly Int32Array[],
  rows: ProfileWorkRows,
  k1: number,
  options: ProfileOptions,
): ProfileScores {
  const scores = new Float64Array(members.length);
  const works = new Map<number, SearchHit>();
  if (query.selfScore <= 0 || members.length === 0) return { profiles: scores, works };
  const weights = Float64Array.from(query.terms, (t) => t.weight);
  const m = rows;
  const n = rows.workIds.length;
  const weightOf = new Float64Array(n);
  const lengths = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const workId = rows.workIds[k]!;
    if (workId < 0) continue;
    lengths[k] = rows.lengths[k]!;
    const year = rows.years[k]!;
    weightOf[k] = options.workWeight?.(year) ?? 1;
    if (m.start[k + 1]! > m.start[k]!) {
      const norm = rows.norms[k]!;
      let score = 0;
      for (let r = m.start[k]!; r < m.start[k + 1]!; r++) {
        const tf = m.tfs[r]!;
        score += (weights[m.terms[r]!]! * tf) / (tf + norm);
      }
      works.set(workId, { workId, score: score / query.selfScore, year });
    }
  }
  const profileLength = members.map((list) => list.reduce((t, k) => t + lengths[k]!, 0));
  const avg = profileLength.reduce((t, v) => t + v, 0) / members.length || 1;
  const tf = new Float64Array(query.terms.length);
  const touched: number[] = [];
  members.forEach((list, i) => {
    for (const k of list) {
      const w = weightOf[k]!;
      for (let r = m.start[k]!; r < m.start[k + 1]!; r++) {
        const j = m.terms[r]!;
        if (tf[j] === 0) touched.push(j);
        tf[j]! += m.tfs[r]! * w;
      }
    }
    const norm = k1 * (1 - options.b + (options.b * profileLength[i]!) / avg);
    let score = 0;
    for (const j of touched) {
      score += (weights[j]! * tf[j]!) / (tf[j]! + norm);
      tf[j] = 0;
    }
    touched.length = 0;
    scores[i] = score / query.selfScore;
  });
  return { profiles: scores, works };
}

/** Reads works' rows against one query; not reentrant (one per call, or per index used in turn). */
export class WorkScorer {
  private readonly table = new QueryTable();
  private weights = new Float64Array(0);

  constructor(private readonly index: Bm25Index) {}

  private prepare(query: PreparedQuery): void {
    this.table.build(
      this.index.segments,
      query.terms.map((t) => t.termId),
    );
    if (this.weights.length < query.terms.length) {
      this.weights = new Float64Array(query.terms.length * 2);
    }
    query.terms.forEach((t, j) => (this.weights[j] = t.weight));
  }

  /** A slot's raw BM25 from the matches `table.matchRow` left. */
  private rowScore(slot: number, matches: number): number {
    const table = this.table;
    const norm = this.index.docNorm(slot);
    let score = 0;
    for (let m = 0; m < matches; m++) {
      const tf = table.matchTfs[m]!;
      score += (this.weights[table.matchTerms[m]!]! * tf) / (tf + norm);
    }
    return score;
  }

  /** The given works' scores, best first; works not indexed are left out. */
  scoreWorks(query: PreparedQuery, workIds: readonly number[]): SearchHit[] {
    const hits: SearchHit[] = [];
    if (query.selfScore <= 0) return hits;
    this.prepare(query);
    for (const workId of workIds) {
      const slot = this.index.docOf(workId);
      if (slot < 0) continue;
      const score = this.rowScore(slot, this.table.matchRow(slot)) / query.selfScore;
      hits.push({ workId, score, year: this.index.yearOf(slot) });
    }
    hits.sort((x, y) => y.score - x.score || x.workId - y.workId);
    return hits;
  }

  /** Per work, the query terms it holds and their share of its normalised score, most first. */
  matchedTerms(query: PreparedQuery, workIds: readonly number[]): Map<number, MatchedTerm[]> {
    const out = new Map<number, MatchedTerm[]>();
    if (query.selfScore <= 0) return out;
    this.prepare(query);
    const table = this.table;
    for (const workId of workIds) {
      const slot = this.index.docOf(workId);
      if (slot < 0) continue;
      const norm = this.index.docNorm(slot);
      const matched: MatchedTerm[] = [];
      for (let m = 0, n = table.matchRow(slot); m < n; m++) {
        matched.push(matchedTerm(query, query.terms[table.matchTerms[m]!]!, table.matchTfs[m]!, norm));
      }
      out.set(workId, matched.sort(byContribution));
    }
    return out;
  }

  /**
   * Profiles (lists of work ids) scored as single documents: term frequencies summed over the
   * works (each weighed by `workWeight` of its year), lengths summed, BM25 with the profiles'
   * average length. The works' own scores come from the same read. The matches are read from the
   * works' forward rows or from the query terms' postings, whichever is fewer entries: in a small
   * corpus a few thousand candidate works hold more row entries than the query's postings.
   */
  scoreProfiles(
    query: PreparedQuery,
    profiles: ReadonlyArray<readonly number[]>,
    options: ProfileOptions,
  ): ProfileScores {
    if (query.selfScore <= 0 || profiles.length === 0)
      return { profiles: new Float64Array(profiles.length), works: new Map() };
    this.prepare(query);
    const index = this.index;
    // Distinct works in local numbering, and which local works each profile holds.
    const local = new Map<number, number>();
    const slots: number[] = [];
    const members: Int32Array[] = profiles.map((workIds) => {
      const list = new Int32Array(workIds.length);
      workIds.forEach((workId, x) => {
        let k = local.get(workId);
        if (k === undefined) {
          k = slots.length;
          local.set(workId, k);
          slots.push(index.docOf(workId));
        }
        list[x] = k;
      });
      return list;
    });
    const m = this.readMatches(query, slots);
    const n = slots.length;
    const rows: ProfileWorkRows = {
      ...m,
      workIds: new Int32Array(n).fill(-1),
      lengths: new Float64Array(n),
      norms: new Float64Array(n),
      years: new Int32Array(n),
    };
    for (let k = 0; k < n; k++) {
      const slot = slots[k]!;
      if (slot < 0) continue;
      rows.workIds[k] = index.workIdOf(slot);
      rows.lengths[k] = index.docLength(slot);
      rows.norms[k] = index.docNorm(slot);
      rows.years[k] = index.yearOf(slot);
    }
    return scoreProfileRows(query, members, rows, index.options.k1, options);
  }

  /**
   * The query terms each of the given slots holds (-1: none), as compressed rows in the slots'
   * order: row k is terms / tfs [start[k], start[k + 1]). From the forward rows or the postings.
   */
  private readMatches(query: PreparedQuery, slots: readonly number[]): MatchRows {
    const index = this.index;
    const table = this.table;
    const n = slots.length;
    const start = new Int32Array(n + 1);
    let rowEntries = 0;
    for (const slot of slots) if (slot >= 0) rowEntries += index.rowLength(slot);
    let postings = 0;
    for (const t of query.terms) postings += t.df;
    if (rowEntries <= postings) {
      const terms: number[] = [];
      const tfs: number[] = [];
      for (let k = 0; k < n; k++) {
        const slot = slots[k]!;
        const count = slot < 0 ? 0 : table.matchRow(slot);
        for (let x = 0; x < count; x++) {
          terms.push(table.matchTerms[x]!);
          tfs.push(table.matchTfs[x]!);
        }
        start[k + 1] = terms.length;
      }
      return { start, terms: Int32Array.from(terms), tfs: Float32Array.from(tfs) };
    }
    // By postings: each query term's postings, kept where the slot is one of ours; then the
    // matches regrouped by work (a counting sort).
    const localOf = this.localScratch(index.slotCount);
    for (let k = 0; k < n; k++) if (slots[k]! >= 0) localOf[slots[k]!] = k;
    let hits = 0;
    const segments = index.segments;
    try {
      for (let j = 0; j < query.terms.length; j++) {
        for (let s = 0; s < segments.length; s++) {
          const at = table.positions[j * segments.length + s]!;
          if (at < 0) continue;
          const seg = segments[s]!;
          for (let p = seg.offsets[at]!, end = seg.offsets[at + 1]!; p < end; p++) {
            const k = localOf[seg.slots[p]!]!;
            if (k < 0) continue;
            if (hits === this.hitK.length) this.growHits();
            this.hitK[hits] = k;
            this.hitJ[hits] = j;
            this.hitTf[hits] = seg.tfs[p]! / TF_SCALE;
            hits++;
          }
        }
      }
    } finally {
      for (const slot of slots) if (slot >= 0) localOf[slot] = -1;
    }
    const { hitK, hitJ, hitTf } = this;
    for (let h = 0; h < hits; h++) start[hitK[h]! + 1]!++;
    for (let k = 0; k < n; k++) start[k + 1]! += start[k]!;
    const fill = start.slice(0, n);
    const terms = new Int32Array(hits);
    const tfs = new Float32Array(hits);
    for (let h = 0; h < hits; h++) {
      const r = fill[hitK[h]!]!++;
      terms[r] = hitJ[h]!;
      tfs[r] = hitTf[h]!;
    }
    return { start, terms, tfs };
  }

  private scratch = new Int32Array(0);
  // Matches found through postings, before they are grouped by work (reused across calls).
  private hitK = new Int32Array(4096);
  private hitJ = new Int32Array(4096);
  private hitTf = new Float32Array(4096);

  private growHits(): void {
    const size = this.hitK.length * 2;
    this.hitK = withCopy(new Int32Array(size), this.hitK);
    this.hitJ = withCopy(new Int32Array(size), this.hitJ);
    this.hitTf = withCopy(new Float32Array(size), this.hitTf);
  }

  /** A slot -> local number array, all -1, reset by its user before it returns. */
  private localScratch(size: number): Int32Array {
    if (this.scratch.length < size) this.scratch = new Int32Array(Math.ceil(size * 1.25)).fill(-1);
    return this.scratch;
  }
}

function withCopy<T extends Int32Array | Float32Array>(to: T, from: T): T {
  to.set(from);
  return to;
}
