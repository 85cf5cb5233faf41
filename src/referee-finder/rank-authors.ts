// Expertise ranking, two models fused (Balog et al.; RANKING.md), over the corpus's WorkIndex:
// - document model: the works most relevant to the manuscript (the index's search) seed the
//   candidates; every work of a candidate is scored against the manuscript; an author's evidence is
//   the mean of their top three works, each weighed by recency and authorship position, so fit
//   counts more than volume;
// - candidate model: the author's works concatenated into one profile, scored as one document
//   (the index's scoreProfiles), recency-weighted.
// The two are fused by z-score (or by rank), which trials found better than adding raw scores; on
// the ACL bench z-score fusion beat rank fusion (docs/benchmarks/quality.md).
import type { PreparedQuery, SearchHit, WorkIndex } from '../retrieval/work-index.ts';
import { appendTo } from '../infra/collections.ts';

/** An author on a work, as the ranking weighs it. */
export interface Authorship {
  workId: number;
  authorId: number;
  position: number;
  /** Authors on the work, or 0 when the source did not count them. */
  authorsCount: number;
}

/** Where authorships come from: the database in the service, memory in the quality bench. */
export interface AuthorshipSource {
  ofWorks(workIds: number[]): Promise<Authorship[]>;
  ofAuthors(authorIds: number[]): Promise<Authorship[]>;
}

export interface RankingParams {
  /** BM25's b for the candidate profiles (works use the index's own). */
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
  /** Pseudo-relevance feedback: terms added from the best `feedbackWorks` works (0: none). */
  feedbackTerms: number;
  feedbackWorks: number;
  feedbackWeight: number;
  /**
   * A third signal, fused by z-score at this weight when `workSimilarity` is given (0: off): the
   * mean of the author's `vectorTopN` most similar works (0: all of them), each weighed by
   * authorship position.
   */
  vectorWeight: number;
  vectorTopN: number;
}

export const DEFAULT_PARAMS: RankingParams = {
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
  feedbackTerms: 0,
  feedbackWorks: 10,
  feedbackWeight: 0.3,
  vectorWeight: 0,
  vectorTopN: 3,
};

export interface RankAuthorsOptions {
  /** Only these authors may be ranked (authors groups with `limit_to`). */
  restrictTo: ReadonlySet<number> | null;
  exclude: ReadonlySet<number>;
  currentYear: number;
  /** At least this many authors are ranked in full (filters and settings may drop many). */
  minPool?: number;
  params?: Partial<RankingParams>;
  /**
   * The manuscript's similarity to a corpus work by another model than the index's (e.g. word
   * vectors, word-vectors.ts); undefined for a work the model does not know.
   */
  workSimilarity?: (workId: number) => number | undefined;
}

/** One of an author's works as evidence: its own score and what it added to the author's. */
export interface WorkEvidence {
  workId: number;
  /** The work's score against the manuscript (normalised by the query). */
  score: number;
  /** score x recency x authorship position: what the document model averages. */
  weighted: number;
}

export interface RankedAuthor {
  authorId: number;
  score: number;
  docScore: number;
  profileScore: number;
  /** The author's matching works, best first. */
  works: WorkEvidence[];
}

export interface RankingOutcome {
  authors: RankedAuthor[];
  /** The query the works were scored with (the manuscript's, with feedback terms when asked). */
  query: PreparedQuery;
  /** Every candidate's works, as fetched (the finder reuses them for concepts and conflicts). */
  authorships: Authorship[];
}

export function recency(year: number, now: number, p: RankingParams): number {
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

/** Mean and standard deviation over the values themselves (0 and 0 for none): what a z-score takes. */
export function meanAndSpread(values: ArrayLike<number>): [number, number] {
  const n = values.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += values[i]!;
  mean /= n || 1;
  let variance = 0;
  for (let i = 0; i < n; i++) variance += (values[i]! - mean) ** 2;
  return [mean, Math.sqrt(variance / (n || 1))];
}

function zscores(values: Float64Array): Float64Array {
  const [mean, spread] = meanAndSpread(values);
  const sd = spread || 1;
  return values.map((v) => (v - mean) / sd);
}

/**
 * The authors of the seed works most likely to reach the top, by a first estimate from the seed
 * works alone: it keeps the pool whose whole body of work is read (the costly part) small.
 */
async function seedCandidates(
  seeds: readonly SearchHit[],
  source: AuthorshipSource,
  options: RankAuthorsOptions,
  p: RankingParams,
  authorsCount: Map<number, number>,
): Promise<number[]> {
  const hitOf = new Map(seeds.map((h) => [h.workId, h]));
  const estimates = new Map<number, number[]>();
  const seedAuthorships = await source.ofWorks(seeds.map((h) => h.workId));
  for (const a of seedAuthorships) authorsCount.set(a.workId, a.authorsCount);
  for (const a of seedAuthorships) {
    const hit = hitOf.get(a.workId);
    if (options.exclude.has(a.authorId) || !hit) continue;
    const v = hit.score * recency(hit.year, options.currentYear, p) * positionWeight(a, p);
    appendTo(estimates, a.authorId, v);
  }
  const estimate = (vs: number[]) =>
    vs
      .sort((x, y) => y - x)
      .slice(0, p.topN)
      .reduce((t, v) => t + v, 0);
  return [...estimates.entries()]
    .map(([id, vs]) => ({ id, e: estimate(vs) }))
    .sort((a, b) => b.e - a.e || a.id - b.id)
    .slice(0, Math.max(p.maxPool, options.minPool ?? 0))
    .map((c) => c.id);
}

/**
 * Per candidate, the mean of their best works by `options.workSimilarity`, each weighed by
 * authorship position (not recency: a work the index did not match has no year here); null when
 * that signal is off. Rank fusion ignores it.
 */
function vectorEvidence(
  authorships: readonly Authorship[],
  slot: ReadonlyMap<number, number>,
  n: number,
  options: RankAuthorsOptions,
  p: RankingParams,
  authorsCount: ReadonlyMap<number, number>,
): Float64Array | null {
  const similarity = options.workSimilarity;
  if (!similarity || p.vectorWeight === 0 || p.fusion !== 'z') return null;
  const perAuthor: number[][] = Array.from({ length: n }, () => []);
  for (const a of authorships) {
    const i = slot.get(a.authorId);
    const s = similarity(a.workId);
    if (i === undefined || s === undefined) continue;
    perAuthor[i]!.push(s * positionWeight(a, p, a.authorsCount || authorsCount.get(a.workId)));
  }
  return Float64Array.from(perAuthor, (values) => {
    if (!values.length) return 0;
    const top = p.vectorTopN > 0 ? values.sort((x, y) => y - x).slice(0, p.vectorTopN) : values;
    return top.reduce((t, v) => t + v, 0) / top.length;
  });
}

export async function rankAuthors(
  index: WorkIndex,
  source: AuthorshipSource,
  manuscript: PreparedQuery,
  options: RankAuthorsOptions,
): Promise<RankingOutcome> {
  const p = { ...DEFAULT_PARAMS, ...options.params };
  let query = manuscript;
  let seeds: SearchHit[] | null = null;
  if (!options.restrictTo || p.feedbackTerms > 0) seeds = await index.search({ query, k: p.seedWorks });
  if (p.feedbackTerms > 0 && seeds && seeds.length > 0) {
    query = await index.expand(query, seeds.slice(0, p.feedbackWorks), {
      terms: p.feedbackTerms,
      weight: p.feedbackWeight,
    });
    if (!options.restrictTo) seeds = await index.search({ query, k: p.seedWorks });
  }
  // Authors per work where known (the seed works), to tell last authors apart. The seeds are the
  // final query's best works, already searched above unless the pool is restricted.
  const authorsCount = new Map<number, number>();
  const candidateIds = options.restrictTo
    ? [...options.restrictTo].filter((id) => !options.exclude.has(id))
    : await seedCandidates(
        seeds ?? (await index.search({ query, k: p.seedWorks })),
        source,
        options,
        p,
        authorsCount,
      );
  const authorships = candidateIds.length ? await source.ofAuthors(candidateIds) : [];
  const slot = new Map(candidateIds.map((id, i) => [id, i]));
  const n = candidateIds.length;
  const workLists: number[][] = Array.from({ length: n }, () => []);
  for (const a of authorships) {
    const i = slot.get(a.authorId);
    if (i !== undefined) workLists[i]!.push(a.workId);
  }
  const scored = await index.scoreProfiles({
    query,
    profiles: workLists,
    b: p.profileB,
    workWeight: (year) => recency(year, options.currentYear, p),
  });
  const profileScore = scored.profiles;

  // Document model: the mean of each author's top works, weighed by recency and position.
  const works: WorkEvidence[][] = Array.from({ length: n }, () => []);
  for (const a of authorships) {
    const i = slot.get(a.authorId);
    const hit = scored.works.get(a.workId);
    if (i === undefined || !hit || hit.score <= 0) continue;
    const weight =
      recency(hit.year, options.currentYear, p) *
      positionWeight(a, p, a.authorsCount || authorsCount.get(a.workId));
    works[i]!.push({ workId: a.workId, score: hit.score, weighted: hit.score * weight });
  }
  const docScore = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const top = works[i]!.map((w) => w.weighted)
      .sort((a, b) => b - a)
      .slice(0, p.topN);
    docScore[i] = top.reduce((s, v) => s + v, 0) / p.topN;
    works[i]!.sort((a, b) => b.score - a.score || a.workId - b.workId);
  }

  const vectorScore = vectorEvidence(authorships, slot, n, options, p, authorsCount);
  const fused = new Float64Array(n);
  if (p.fusion === 'rank') {
    const rd = ranks(docScore);
    const rp = ranks(profileScore);
    for (let i = 0; i < n; i++)
      fused[i] = (1 / (p.rankK + rd[i]!) + p.profileWeight / (p.rankK + rp[i]!)) * 10;
  } else {
    const zd = zscores(docScore);
    const zp = zscores(profileScore);
    const zv = vectorScore && zscores(vectorScore);
    // Softplus keeps the fused z-scores in order but positive, so a group boost (a multiplier)
    // always raises a score.
    for (let i = 0; i < n; i++) {
      let z = zd[i]! + p.profileWeight * zp[i]!;
      if (zv) z += p.vectorWeight * zv[i]!;
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
  return { authors, query, authorships };
}
