// Scoring given works, and author profiles made of them, against a prepared query, each work in one
// read of its forward row (query-table.ts). This is the same BM25 as the top-k search (search.ts):
// a work's score here equals its score there. A profile is the candidate model of expertise
// (Balog et al.; RANKING.md): an author's works concatenated into one document, scored by BM25 with
// its own length normalisation against the other profiles scored with it.
import type { Bm25Index } from './bm25-index.ts';
import { QueryTable } from './query-table.ts';
import type { MatchedTerm, PreparedQuery, SearchHit } from './search.ts';

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

/** Reads works' rows against one query; not reentrant (one per call, or per index used in turn). */
export class WorkScorer {
  private readonly table = new QueryTable();
  private weights = new Float64Array(0);
  private tf = new Float64Array(0);

  constructor(private readonly index: Bm25Index) {}

  private prepare(query: PreparedQuery): void {
    this.table.build(
      this.index.segments,
      query.terms.map((t) => t.termId),
    );
    if (this.weights.length < query.terms.length) {
      this.weights = new Float64Array(query.terms.length * 2);
      this.tf = new Float64Array(query.terms.length * 2);
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
        const term = query.terms[table.matchTerms[m]!]!;
        const tf = table.matchTfs[m]!;
        matched.push({
          term: term.term,
          surface: term.surface,
          bigram: term.bigram,
          contribution: (term.weight * tf) / (tf + norm) / query.selfScore,
        });
      }
      out.set(
        workId,
        matched.sort((x, y) => y.contribution - x.contribution || (x.term < y.term ? -1 : 1)),
      );
    }
    return out;
  }

  /**
   * Profiles (lists of work ids) scored as single documents: term frequencies summed over the
   * works (each weighed by `workWeight` of its year), lengths summed, BM25 with the profiles'
   * average length. The works' own scores come from the same read of their rows.
   */
  scoreProfiles(
    query: PreparedQuery,
    profiles: ReadonlyArray<readonly number[]>,
    options: ProfileOptions,
  ): ProfileScores {
    const scores = new Float64Array(profiles.length);
    const works = new Map<number, SearchHit>();
    if (query.selfScore <= 0 || profiles.length === 0) return { profiles: scores, works };
    this.prepare(query);
    const index = this.index;
    const table = this.table;
    // Each distinct work read once: its matches kept in compressed rows (local numbering).
    const local = new Map<number, number>();
    const rowStart: number[] = [0];
    const rowTerms: number[] = [];
    const rowTfs: number[] = [];
    const lengths: number[] = [];
    const profileLength = new Float64Array(profiles.length);
    profiles.forEach((workIds, i) => {
      for (const workId of workIds) {
        let k = local.get(workId);
        if (k === undefined) {
          const slot = index.docOf(workId);
          k = lengths.length;
          local.set(workId, k);
          let matches = 0;
          if (slot >= 0) {
            matches = table.matchRow(slot);
            const year = index.yearOf(slot);
            const weight = options.workWeight?.(year) ?? 1;
            for (let m = 0; m < matches; m++) {
              rowTerms.push(table.matchTerms[m]!);
              rowTfs.push(table.matchTfs[m]! * weight);
            }
            if (matches > 0) {
              const score = this.rowScore(slot, matches) / query.selfScore;
              works.set(workId, { workId, score, year });
            }
          }
          lengths.push(slot >= 0 ? index.docLength(slot) : 0);
          rowStart.push(rowTerms.length);
        }
        profileLength[i]! += lengths[k]!;
      }
    });
    let avg = 0;
    for (const len of profileLength) avg += len;
    avg = avg / profiles.length || 1;
    const { k1 } = index.options;
    const tf = this.tf;
    const touched: number[] = [];
    profiles.forEach((workIds, i) => {
      for (const workId of workIds) {
        const k = local.get(workId)!;
        for (let r = rowStart[k]!; r < rowStart[k + 1]!; r++) {
          const j = rowTerms[r]!;
          if (tf[j] === 0) touched.push(j);
          tf[j]! += rowTfs[r]!;
        }
      }
      const norm = k1 * (1 - options.b + (options.b * profileLength[i]!) / avg);
      let score = 0;
      for (const j of touched) {
        score += (this.weights[j]! * tf[j]!) / (tf[j]! + norm);
        tf[j] = 0;
      }
      touched.length = 0;
      scores[i] = score / query.selfScore;
    });
    return { profiles: scores, works };
  }
}
