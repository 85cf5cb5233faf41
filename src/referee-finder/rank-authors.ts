// Expertise ranking, two models fused (Balog et al.; RANKING.md):
// - document model: every work is scored by BM25 against the manuscript (normalised by the query's
//   self-score); an author's evidence is the mean of their top three works, each weighed by recency
//   and authorship position, so fit counts more than volume;
// - candidate model: the author's works concatenated into one profile, scored by BM25 as one document.
// The two are fused by z-score (or by rank), which trials found better than adding raw scores; on
// the ACL bench z-score fusion beat rank fusion (docs/benchmarks/quality.md).
import type { Authorship, AuthorshipSource, Postings, RankingIndex } from './ranking-index.ts';
import type { WeightedQuery } from './query.ts';

export interface RankingParams {
  k1: number;
  b: number;
  profileB: number;
  /** How many top works seed the candidate set. */
  seedWorks: number;
  /** How many of the seed works' authors, by a first estimate, are ranked in full. */
  maxPool: number;
  topN: number;
  recencyTau: number;
  recencyFloor: number;
  middleAuthorWeight: number;
  lastAuthorWeight: number;
  fusion: 'rank' | 'z';
  rankK: number;
  profileWeight: number;
  /** Weight of the vote signal: the sum of the author's scores among the seed works (expCombSUM-like). */
  voteWeight: number;
}

export const DEFAULT_PARAMS: RankingParams = {
  k1: 1.2,
  b: 0.75,
  profileB: 0.5,
  seedWorks: 150,
  maxPool: 200,
  topN: 3,
  recencyTau: 15,
  recencyFloor: 0.7,
  middleAuthorWeight: 0.8,
  lastAuthorWeight: 0.95,
  fusion: 'z',
  rankK: 20,
  profileWeight: 1,
  voteWeight: 0,
};

export interface RankAuthorsOptions {
  /** Only these authors may be ranked (authors groups with `limit_to`). */
  restrictTo: ReadonlySet<number> | null;
  exclude: ReadonlySet<number>;
  currentYear: number;
  /** At least this many authors are ranked in full (filters and settings may drop many). */
  minPool?: number;
  /** Longest synchronous slice of the scoring pass (RANKING_SLICE_MS by default). */
  sliceMs?: number;
  params?: Partial<RankingParams>;
}

export interface RankedAuthor {
  authorId: number;
  score: number;
  docScore: number;
  profileScore: number;
  /** The author's matching works, best first: work id and normalised score. */
  works: Array<{ workId: number; score: number }>;
}

export interface RankingOutcome {
  authors: RankedAuthor[];
  /** Per work id, its normalised score, for works the authors above hold. */
  workScores: Map<number, number>;
  /** Every candidate's works, as fetched (the finder reuses them for concepts and conflicts). */
  authorships: Authorship[];
}

function addTermScores(
  scores: Float32Array,
  index: RankingIndex,
  { docs, tfs }: Postings,
  weight: number,
  p: RankingParams,
): void {
  const avg = index.avgDocLength || 1;
  const w = weight * (p.k1 + 1);
  for (let j = 0; j < docs.length; j++) {
    const doc = docs[j]!;
    const tf = tfs[j]!;
    const norm = p.k1 * (1 - p.b + (p.b * index.docLength(doc)) / avg);
    scores[doc]! += (w * tf) / (tf + norm);
  }
}

export function scoreWorks(
  index: RankingIndex,
  q: WeightedQuery,
  p: RankingParams,
  lists: Postings[] = q.termIds.map((t) => index.postings(t)),
): Float32Array {
  const scores = new Float32Array(index.slotCount);
  for (let i = 0; i < q.termIds.length; i++) addTermScores(scores, index, lists[i]!, q.weights[i]!, p);
  return scores;
}

/**
 * The longest synchronous run of the ranking, in milliseconds. At a million works, gathering and
 * scoring every posting of the query's terms takes ~60-100 ms of CPU; done in one go it would hold
 * every other request of the process for that long (the event loop is shared), so it is cut into
 * slices with a turn of the event loop between them.
 */
export const RANKING_SLICE_MS = 8;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `scoreWorks` in slices of at most ~`sliceMs`, fetching each term's postings as it goes. */
export async function scoreWorksInSlices(
  index: RankingIndex,
  q: WeightedQuery,
  p: RankingParams,
  sliceMs = RANKING_SLICE_MS,
): Promise<{ scores: Float32Array; lists: Postings[] }> {
  const scores = new Float32Array(index.slotCount);
  const lists: Postings[] = [];
  let sliceStart = performance.now();
  for (let i = 0; i < q.termIds.length; i++) {
    const list = index.postings(q.termIds[i]!);
    lists.push(list);
    addTermScores(scores, index, list, q.weights[i]!, p);
    if (performance.now() - sliceStart >= sliceMs) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
  return { scores, lists };
}

/** Document numbers of the k best scores, best first. */
export function topDocs(scores: Float32Array, k: number): number[] {
  // A threshold from a sample avoids sorting every matching document of a million.
  const heap: number[] = [];
  const less = (a: number, b: number) => scores[a]! < scores[b]!;
  const up = (i: number) => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && less(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (let doc = 0; doc < scores.length; doc++) {
    const s = scores[doc]!;
    if (s <= 0) continue;
    if (heap.length < k) {
      heap.push(doc);
      up(heap.length - 1);
    } else if (s > scores[heap[0]!]!) {
      heap[0] = doc;
      down(0);
    }
  }
  return heap.sort((a, b) => scores[b]! - scores[a]!);
}

// One doc -> local-number array per index, reset after each use; the loop using it never awaits.
const scratches = new WeakMap<RankingIndex, Int32Array>();
function scratch(index: RankingIndex): Int32Array {
  let s = scratches.get(index);
  if (!s || s.length < index.slotCount) {
    s = new Int32Array(index.slotCount).fill(-1);
    scratches.set(index, s);
  }
  return s;
}

function recency(year: number, now: number, p: RankingParams): number {
  if (!year) return p.recencyFloor + (1 - p.recencyFloor) * 0.5;
  const age = Math.max(0, now - year);
  return p.recencyFloor + (1 - p.recencyFloor) * Math.exp(-age / p.recencyTau);
}

function positionWeight(a: Authorship, p: RankingParams, authorsCount = a.authorsCount): number {
  if (a.position === 1) return 1;
  if (a.position === authorsCount) return p.lastAuthorWeight;
  return p.middleAuthorWeight;
}

function ranks(values: Float64Array): Float64Array {
  const order = [...values.keys()].sort((a, b) => values[b]! - values[a]!);
  const r = new Float64Array(values.length);
  order.forEach((idx, pos) => (r[idx] = pos + 1));
  return r;
}

function zscores(values: Float64Array): Float64Array {
  let mean = 0;
  for (const v of values) mean += v;
  mean /= values.length || 1;
  let variance = 0;
  for (const v of values) variance += (v - mean) ** 2;
  const sd = Math.sqrt(variance / (values.length || 1)) || 1;
  return values.map((v) => (v - mean) / sd);
}

export async function rankAuthors(
  index: RankingIndex,
  source: AuthorshipSource,
  q: WeightedQuery,
  options: RankAuthorsOptions,
): Promise<RankingOutcome> {
  const p = { ...DEFAULT_PARAMS, ...options.params };
  // Postings fetched once (the index may assemble them from several segments on each call) and
  // kept for the candidate model below.
  const { scores, lists } = await scoreWorksInSlices(index, q, p, options.sliceMs);
  const seedDocs = topDocs(scores, p.seedWorks);
  // Authors per work where known (the seed works), to tell last authors apart.
  const authorsCount = new Map<number, number>();
  const isSeed = new Set(seedDocs);
  let candidateIds: number[];
  if (options.restrictTo) {
    candidateIds = [...options.restrictTo].filter((id) => !options.exclude.has(id));
  } else {
    // A first estimate from the seed works alone keeps the pool whose whole body of work is read
    // (the costly part) to the authors who can still reach the top.
    const seeds = seedDocs.map((doc) => index.workIdOf(doc));
    const estimates = new Map<number, number[]>();
    const seedAuthorships = await source.ofWorks(seeds);
    for (const a of seedAuthorships) authorsCount.set(a.workId, a.authorsCount);
    for (const a of seedAuthorships) {
      if (options.exclude.has(a.authorId)) continue;
      const doc = index.docOf(a.workId);
      const v =
        (scores[doc]! * recency(index.yearOf(doc), options.currentYear, p) * positionWeight(a, p)) /
        q.selfScore;
      const list = estimates.get(a.authorId);
      if (list) list.push(v);
      else estimates.set(a.authorId, [v]);
    }
    const estimate = (vs: number[]) =>
      vs
        .sort((x, y) => y - x)
        .slice(0, p.topN)
        .reduce((t, v) => t + v, 0);
    candidateIds = [...estimates.entries()]
      .map(([id, vs]) => ({ id, e: estimate(vs) }))
      .sort((a, b) => b.e - a.e || a.id - b.id)
      .slice(0, Math.max(p.maxPool, options.minPool ?? 0))
      .map((c) => c.id);
  }
  const authorships = candidateIds.length ? await source.ofAuthors(candidateIds) : [];
  const slot = new Map(candidateIds.map((id, i) => [id, i]));
  const n = candidateIds.length;

  // Document model, and which candidates wrote each document (compressed rows, local numbering).
  const contributions: number[][] = Array.from({ length: n }, () => []);
  const works: Array<Array<{ workId: number; score: number }>> = Array.from({ length: n }, () => []);
  const workScores = new Map<number, number>();
  const votes = new Float64Array(n);
  const profileLength = new Float64Array(n);
  const local = scratch(index);
  const localDocs: number[] = [];
  const localRecency: number[] = [];
  const pairDoc: number[] = [];
  const pairAuthor: number[] = [];
  for (const a of authorships) {
    const i = slot.get(a.authorId);
    const doc = index.docOf(a.workId);
    if (i === undefined || doc < 0) continue;
    let k = local[doc]!;
    if (k < 0) {
      k = localDocs.length;
      local[doc] = k;
      localDocs.push(doc);
      localRecency.push(recency(index.yearOf(doc), options.currentYear, p));
    }
    pairDoc.push(k);
    pairAuthor.push(i);
    const rec = localRecency[k]!;
    profileLength[i]! += index.docLength(doc);
    const s = scores[doc]! / q.selfScore;
    if (s <= 0) continue;
    workScores.set(a.workId, s);
    if (isSeed.has(doc)) votes[i]! += s * rec;
    works[i]!.push({ workId: a.workId, score: s });
    contributions[i]!.push(s * rec * positionWeight(a, p, a.authorsCount || authorsCount.get(a.workId)));
  }
  const rowStart = new Int32Array(localDocs.length + 1);
  for (const k of pairDoc) rowStart[k + 1]!++;
  for (let k = 0; k < localDocs.length; k++) rowStart[k + 1]! += rowStart[k]!;
  const rowFill = rowStart.slice(0, localDocs.length);
  const rows = new Int32Array(pairDoc.length);
  for (let x = 0; x < pairDoc.length; x++) rows[rowFill[pairDoc[x]!]!++] = pairAuthor[x]!;

  const docScore = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const top = contributions[i]!.sort((a, b) => b - a).slice(0, p.topN);
    docScore[i] = top.reduce((s, v) => s + v, 0) / p.topN;
    works[i]!.sort((a, b) => b.score - a.score);
  }

  // Candidate model: term frequencies summed over each candidate's works, recency-weighted.
  const profileScore = new Float64Array(n);
  let avgProfile = 0;
  for (const len of profileLength) avgProfile += len;
  avgProfile = avgProfile / (n || 1) || 1;
  const tf = new Float64Array(n);
  const touched: number[] = [];
  try {
    for (let t = 0; t < q.termIds.length; t++) {
      const { docs, tfs } = lists[t]!;
      for (let j = 0; j < docs.length; j++) {
        const k = local[docs[j]!]!;
        if (k < 0) continue;
        const weighted = tfs[j]! * localRecency[k]!;
        for (let r = rowStart[k]!; r < rowStart[k + 1]!; r++) {
          const i = rows[r]!;
          if (tf[i] === 0) touched.push(i);
          tf[i]! += weighted;
        }
      }
      const w = q.weights[t]! * (p.k1 + 1);
      for (const i of touched) {
        const norm = p.k1 * (1 - p.profileB + (p.profileB * profileLength[i]!) / avgProfile);
        profileScore[i]! += (w * tf[i]!) / (tf[i]! + norm) / q.selfScore;
        tf[i] = 0;
      }
      touched.length = 0;
    }
  } finally {
    for (const doc of localDocs) local[doc] = -1;
  }

  const fused = new Float64Array(n);
  if (p.fusion === 'rank') {
    const rd = ranks(docScore);
    const rp = ranks(profileScore);
    const rv = p.voteWeight ? ranks(votes) : rd;
    for (let i = 0; i < n; i++) {
      fused[i] =
        (1 / (p.rankK + rd[i]!) + p.profileWeight / (p.rankK + rp[i]!) + p.voteWeight / (p.rankK + rv[i]!)) *
        10;
    }
  } else {
    const zd = zscores(docScore);
    const zp = zscores(profileScore);
    const zv = p.voteWeight ? zscores(votes) : votes;
    // Softplus keeps the fused z-scores in order but positive, so a group boost (a multiplier)
    // always raises a score.
    for (let i = 0; i < n; i++) {
      const z = zd[i]! + p.profileWeight * zp[i]! + p.voteWeight * zv[i]!;
      fused[i] = z > 30 ? z : Math.log1p(Math.exp(z));
    }
  }
  // Rank fusion gives every candidate some score; one whose works match nothing is no candidate
  // (possible among authors-group members, who are ranked without being found by the search).
  const authors: RankedAuthor[] = candidateIds.flatMap((authorId, i) =>
    docScore[i]! > 0 || profileScore[i]! > 0
      ? [
          {
            authorId,
            score: fused[i]!,
            docScore: docScore[i]!,
            profileScore: profileScore[i]!,
            works: works[i]!,
          },
        ]
      : [],
  );
  authors.sort((a, b) => b.score - a.score || b.docScore - a.docScore || a.authorId - b.authorId);
  return { authors, workScores, authorships };
}
