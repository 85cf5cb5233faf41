// Referee ranking quality on the ACL Anthology: 2,000 works held out (bench/lib/acl-holdout.ts), the
// rest is the corpus. For each held-out work we ask for candidates from its title and abstract only
// and see how highly its real authors (those with at least 3 other works in the corpus) rank.
// The corpus is built in memory (the service's in-process WorkIndex + an in-memory authorship source)
// and ranked by the same manuscriptQuery/rankAuthors code the service runs over its database; the SQL-side parts of
// findCandidates (conflicts, filters, settings) do not change the order for authorless queries.
// Baseline in the same run: JANE (50 most similar works by BM25; author score = sum of similarities).
//   npm run bench:quality [-- --queries N] [-- --params '{"fusion":"z"}']
// After the MRR it prints how the scores compare across manuscripts (acrossManuscripts), as the
// expert-judged benchmark compares a reviewer's scores for different papers.
// --reviewers N [--limit-to]: a small reviewer pool of the expert-judged benchmark's shape instead of the
// hold-out (reviewerPoolSplit); --index '{"b":0.6}': the index's BM25 options, for an ablation.
// With --vectors '{"dims":200,"weighting":"sif"}' (or an array of such), word vectors are trained on
// the corpus works' titles and abstracts (never the held-out ones) and passed to rankAuthors as
// `workSimilarity`; its weight is a ranking parameter (--params '{"vectorWeight":0.3}').
import {
  aclDataAvailable,
  ACL_WORKS_PATH,
  loadAclWorks,
  reviewerPoolSplit,
  splitHoldout,
} from './lib/acl-holdout.ts';
import { LocalWorkIndex } from '../src/retrieval/local-work-index.ts';
import type { IndexOptions } from '../src/retrieval/bm25-index.ts';
import { MANUSCRIPT_QUERY_OPTIONS, manuscriptQuery } from '../src/retrieval/manuscript-query.ts';
import {
  meanAndSpread,
  rankAuthors,
  type Authorship,
  type AuthorshipSource,
  type RankingParams,
} from '../src/referee-finder/rank-authors.ts';
import {
  commonDirection,
  cosine,
  documentVector,
  withoutDirection,
  trainWordVectors,
  type TermWeighting,
  type WordVectorOptions,
} from '../src/retrieval/word-vectors.ts';
import { appendTo } from '../src/infra/collections.ts';

/** The corpus works' vectors (index = work id - 1) and how a manuscript's is made. */
interface WorkVectors {
  works: Array<Float32Array | null>;
  vectorOf: (text: string) => Float32Array | null;
}

type VectorTrial = Partial<WordVectorOptions> & { weighting?: TermWeighting; removeCommon?: boolean };

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

interface Metrics {
  mrr: number;
  r10: number;
  r50: number;
}

function evaluate(rankings: Array<{ ranked: number[]; relevant: number[] }>): Metrics {
  let mrr = 0;
  let r10 = 0;
  let r50 = 0;
  for (const { ranked, relevant } of rankings) {
    const pos = new Map(ranked.map((id, i) => [id, i + 1]));
    const ranksOf = relevant.map((id) => pos.get(id) ?? Infinity);
    mrr += 1 / Math.min(...ranksOf);
    r10 += ranksOf.filter((r) => r <= 10).length / relevant.length;
    r50 += ranksOf.filter((r) => r <= 50).length / relevant.length;
  }
  const n = rankings.length || 1;
  return { mrr: mrr / n, r10: r10 / n, r50: r50 / n };
}

/** One query's ranked candidates with the parts of their scores. */
interface ScoredPool {
  relevant: number[];
  authors: Array<{ authorId: number; score: number; docScore: number; profileScore: number }>;
}

type FinalScore = (pool: ScoredPool['authors']) => Map<number, number>;

/**
 * Scores compared across manuscripts, as the expert-judged benchmark compares them (RANKING.md: each
 * reviewer's ratings of ~10 papers against the scores the system gave that reviewer for each). The
 * stand-in here: an author's score for their own held-out work must beat their score for any other
 * held-out work whose list holds them (a pair per such work; a tie counts half; an author missing
 * from the first `listed` of their own work's list scores 0 there, as one the answer leaves out).
 * "hard": only the other works whose list has the author in its first 10 (the service's order).
 * Returns the share of pairs ordered wrongly (0 perfect, 0.5 random) and the MRR the score's order
 * gives within each query.
 */
function acrossManuscripts(pools: readonly ScoredPool[], final: FinalScore, listed: number) {
  const perQuery = pools.map((p) => {
    const scores = final(p.authors);
    const order = [...scores.entries()].sort((a, b) => b[1] - a[1]).slice(0, listed);
    const serviceTop = new Set(p.authors.slice(0, 10).map((a) => a.authorId));
    return { scores: new Map(order), ranked: order.map(([id]) => id), serviceTop };
  });
  const appearances = new Map<number, number[]>();
  perQuery.forEach((q, i) => {
    for (const id of q.scores.keys()) {
      appendTo(appearances, id, i);
    }
  });
  let pairs = 0;
  let wrong = 0;
  let hardPairs = 0;
  let hardWrong = 0;
  let bothPairs = 0;
  let bothWrong = 0;
  pools.forEach((p, i) => {
    for (const author of p.relevant) {
      const own = perQuery[i]!.scores.get(author) ?? 0;
      for (const j of appearances.get(author) ?? []) {
        if (j === i || pools[j]!.relevant.includes(author)) continue;
        const other = perQuery[j]!.scores.get(author)!;
        const miss = own > other ? 0 : own === other ? 0.5 : 1;
        pairs++;
        wrong += miss;
        if (perQuery[j]!.serviceTop.has(author)) {
          hardPairs++;
          hardWrong += miss;
        }
        if (perQuery[i]!.scores.has(author)) {
          bothPairs++;
          bothWrong += miss;
        }
      }
    }
  });
  const { mrr } = evaluate(perQuery.map((q, i) => ({ ranked: q.ranked, relevant: pools[i]!.relevant })));
  return {
    loss: wrong / (pairs || 1),
    pairs,
    hardLoss: hardWrong / (hardPairs || 1),
    hardPairs,
    bothLoss: bothWrong / (bothPairs || 1),
    bothPairs,
    mrr,
  };
}

/**
 * The service's order (z-scores fused in the pool) mapped onto an absolute scale: the pool's mean
 * and spread of doc + w x profile (both normalised by the query, so comparable across manuscripts).
 */
function absoluteScale(w: number): FinalScore {
  return (authors) => {
    const z = authors.map((a) => Math.log(Math.expm1(Math.min(a.score, 30)) || 1e-300));
    const abs = authors.map((a) => a.docScore + w * a.profileScore);
    const [mz, sz] = meanAndSpread(z);
    const [ma, sa] = meanAndSpread(abs);
    return new Map(authors.map((a, i) => [a.authorId, ma + ((sa || 1) * (z[i]! - mz)) / (sz || 1)]));
  };
}

function printAcrossManuscripts(pools: readonly ScoredPool[], janePools: readonly ScoredPool[]): void {
  const asIs: FinalScore = (authors) => new Map(authors.map((a) => [a.authorId, a.score]));
  // The two parts' spread in a pool, over all pools: the weight that puts them on one footing.
  const sd = (xs: number[]) => meanAndSpread(xs)[1];
  const ratios = pools
    .map((p) => sd(p.authors.map((a) => a.docScore)) / sd(p.authors.map((a) => a.profileScore)))
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const lambda = ratios[Math.floor(ratios.length / 2)] ?? 1;
  const linear =
    (w: number): FinalScore =>
    (authors) =>
      new Map(authors.map((a) => [a.authorId, a.docScore + w * a.profileScore]));
  const variants: Array<[string, readonly ScoredPool[], FinalScore]> = [
    ['the service (z-scores in the pool)', pools, asIs],
    ['document model alone', pools, (as) => new Map(as.map((a) => [a.authorId, a.docScore]))],
    ['profile model alone', pools, (as) => new Map(as.map((a) => [a.authorId, a.profileScore]))],
    [`doc + ${lambda.toFixed(2)} x profile (median spread ratio)`, pools, linear(lambda)],
    [`doc + ${(lambda / 2).toFixed(2)} x profile`, pools, linear(lambda / 2)],
    [`doc + ${(lambda * 2).toFixed(2)} x profile`, pools, linear(lambda * 2)],
    ['service order, absolute scale', pools, absoluteScale(lambda)],
    ['JANE (sum of similarities)', janePools, asIs],
  ];
  for (const listed of [50, Infinity]) {
    console.log(
      `across manuscripts, ${listed === Infinity ? 'every ranked candidate' : `the first ${listed} listed`}: ` +
        `pairs (own work vs another) ordered wrongly, all / hard / listed in both; MRR of the score's order`,
    );
    for (const [name, ps, final] of variants) {
      const r = acrossManuscripts(ps, final, listed);
      console.log(
        `  ${name.padEnd(44)} ${r.loss.toFixed(4)} (${r.pairs} pairs) / ${r.hardLoss.toFixed(4)} (${r.hardPairs}) / ${r.bothLoss.toFixed(4)} (${r.bothPairs})  MRR ${r.mrr.toFixed(4)}`,
      );
    }
  }
}

async function main(): Promise<void> {
  if (!aclDataAvailable()) {
    console.error(`bench:quality: ACL Anthology data MISSING at ${ACL_WORKS_PATH}; nothing measured.`);
    process.exit(2);
  }
  const started = Date.now();
  const all = await loadAclWorks();
  // --reviewers N: a pool of N reviewers with small profiles, the expert-judged benchmark's shape
  // (reviewerPoolSplit); only they are evaluated and listed. --limit-to ranks them alone, as an
  // authors group set to `limit_to` would.
  const reviewerCount = arg('reviewers');
  const { heldOut, corpus, reviewerKeys } = reviewerCount
    ? reviewerPoolSplit(all, { reviewers: Number(reviewerCount) })
    : { ...splitHoldout(all), reviewerKeys: null };
  const limitTo = process.argv.includes('--limit-to');
  const authorIds = new Map<string, number>();
  const idOf = (key: string) => {
    let id = authorIds.get(key);
    if (id === undefined) authorIds.set(key, (id = authorIds.size + 1));
    return id;
  };
  const byWork = new Map<number, Authorship[]>();
  const byAuthor = new Map<number, Authorship[]>();
  corpus.forEach((w, i) => {
    const list = w.authors.map((a, p) => ({
      workId: i + 1,
      authorId: idOf(a.key),
      position: p + 1,
      authorsCount: w.authors.length,
    }));
    byWork.set(i + 1, list);
    for (const a of list) appendTo(byAuthor, a.authorId, a);
  });
  const reviewerIds = reviewerKeys
    ? new Set([...reviewerKeys].map((k) => authorIds.get(k)).filter((id): id is number => id !== undefined))
    : null;
  const listed = (id: number) => !reviewerIds || reviewerIds.has(id);
  const source: AuthorshipSource = {
    ofWorks: async (ids) => ids.flatMap((id) => byWork.get(id) ?? []),
    // As the database source does: author counts only for works fetched whole.
    ofAuthors: async (ids) =>
      ids.flatMap((id) => (byAuthor.get(id) ?? []).map((a) => ({ ...a, authorsCount: 0 }))),
  };
  // --index '{"b":0.6}': the index's BM25 options changed, for an ablation (bm25-index.ts).
  const indexOptions = JSON.parse(arg('index') ?? '{}') as Partial<IndexOptions>;
  const index = new LocalWorkIndex({ workerMinWorks: Infinity, index: indexOptions });
  corpus.forEach((w, i) =>
    index.upsert({ workId: i + 1, title: w.title, abstract: w.abstract, year: w.year, changeSeq: 1 }),
  );
  index.flush();
  const built = Date.now();
  // --query '{"maxDfRatio":0.5}': the manuscript query's options changed, for an ablation.
  const queryOptions = { ...MANUSCRIPT_QUERY_OPTIONS, ...(JSON.parse(arg('query') ?? '{}') as object) };
  const given = JSON.parse(arg('params') ?? '{}') as Partial<RankingParams> | Partial<RankingParams>[];
  const text = (w: { title: string; abstract: string }) => `${w.title}. ${w.abstract}`;
  const vectorTrials = JSON.parse(arg('vectors') ?? 'null') as VectorTrial | VectorTrial[] | null;
  // An array of parameter sets is a sweep: the corpus is loaded and indexed once for all of them.
  for (const trial of vectorTrials === null
    ? [null]
    : Array.isArray(vectorTrials)
      ? vectorTrials
      : [vectorTrials]) {
    let vectors: WorkVectors | null = null;
    if (trial) {
      const { weighting = 'sif', removeCommon = false, ...options } = trial;
      const cpu0 = process.cpuUsage();
      const { model, stats } = trainWordVectors(
        corpus.map((w) => text(w)),
        options,
      );
      const cpu = process.cpuUsage(cpu0);
      const t0 = performance.now();
      const raw = corpus.map((w) => documentVector(model, text(w), weighting));
      const common = removeCommon ? commonDirection(raw, model.dims) : null;
      const vectorOf = (t: string) => {
        const v = documentVector(model, t, weighting);
        return v && common ? withoutDirection(v, common) : v;
      };
      const works = common ? raw.map((v) => v && withoutDirection(v, common)) : raw;
      const workMs = performance.now() - t0;
      const bytes = model.vectors.byteLength + works.reduce((t, v) => t + (v?.byteLength ?? 0), 0);
      vectors = { works, vectorOf };
      console.log(
        JSON.stringify({
          vectors: trial,
          vocabulary: stats.vocabulary,
          tokens: stats.tokens,
          nnz: stats.nnz,
          dims: model.dims,
        }),
      );
      console.log(
        `vectors: counting+PPMI ${(stats.countMs / 1000).toFixed(1)} s, SVD ${(stats.svdMs / 1000).toFixed(1)} s ` +
          `(CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s); work vectors ${(workMs / 1000).toFixed(1)} s; ` +
          `vectors ${(bytes / 2 ** 20).toFixed(0)} MB (words + works); peak RSS so far ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; top singular values ${stats.singularValues
            .slice(0, 3)
            .map((x) => x.toFixed(1))
            .join(', ')}, last ${stats.singularValues.at(-1)?.toFixed(1)}`,
      );
    }
    for (const params of Array.isArray(given) ? given : [given]) {
      await run(params, vectors);
    }
  }

  async function run(params: Partial<RankingParams>, vectors: WorkVectors | null): Promise<void> {
    const limit = Number(arg('queries') ?? heldOut.length);
    const ours: Array<{ ranked: number[]; relevant: number[] }> = [];
    const jane: Array<{ ranked: number[]; relevant: number[] }> = [];
    // Every query's scored pool, for the across-manuscripts measure below.
    const pools: ScoredPool[] = [];
    const janePools: ScoredPool[] = [];
    const currentYear = new Date().getUTCFullYear();
    let queryMs = 0;
    let queryCpuMs = 0;
    for (const work of heldOut.slice(0, limit)) {
      const relevant = work.authors
        .map((a) => authorIds.get(a.key))
        .filter((id): id is number => id !== undefined && (byAuthor.get(id)?.length ?? 0) >= 3)
        .filter(listed);
      if (!relevant.length) continue;
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      const q = await manuscriptQuery(
        index,
        {
          title: work.title,
          abstract: work.abstract,
          keywords: [],
          fullText: null,
        },
        queryOptions,
      );
      const manuscriptVector = vectors?.vectorOf(text(work));
      const outcome = await rankAuthors(index, source, q, {
        restrictTo: limitTo ? reviewerIds : null,
        exclude: new Set(),
        currentYear,
        params,
        workSimilarity:
          vectors && manuscriptVector
            ? (workId) => {
                const v = vectors.works[workId - 1];
                return v ? cosine(manuscriptVector, v) : undefined;
              }
            : undefined,
      });
      queryMs += performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      queryCpuMs += (cpu.user + cpu.system) / 1000;
      const rankedAuthors = outcome.authors.filter((a) => listed(a.authorId));
      ours.push({ ranked: rankedAuthors.map((a) => a.authorId), relevant });
      pools.push({ relevant, authors: rankedAuthors });

      const sums = new Map<number, number>();
      for (const hit of await index.search({ query: q, k: 50 })) {
        for (const a of (byWork.get(hit.workId) ?? []).filter((a) => listed(a.authorId))) {
          sums.set(a.authorId, (sums.get(a.authorId) ?? 0) + hit.score);
        }
      }
      jane.push({ ranked: [...sums.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id), relevant });
      janePools.push({
        relevant,
        authors: [...sums.entries()].map(([authorId, score]) => ({
          authorId,
          score,
          docScore: score,
          profileScore: 0,
        })),
      });
    }
    const o = evaluate(ours);
    const j = evaluate(jane);
    const f = (x: number) => x.toFixed(4);
    console.log(
      JSON.stringify({
        corpusWorks: corpus.length,
        heldOut: heldOut.length,
        evaluated: ours.length,
        params,
        index: indexOptions,
      }),
    );
    console.log(
      `load+index ${((built - started) / 1000).toFixed(1)} s; ranking ${(queryMs / ours.length).toFixed(1)} ms/query (CPU ${(queryCpuMs / ours.length).toFixed(1)} ms)`,
    );
    console.log(`             MRR     recall@10 recall@50`);
    console.log(`refmatch     ${f(o.mrr)}  ${f(o.r10)}    ${f(o.r50)}`);
    console.log(`JANE         ${f(j.mrr)}  ${f(j.r10)}    ${f(j.r50)}`);
    console.log(
      `ratio        ${(o.mrr / j.mrr).toFixed(3)}   ${(o.r10 / j.r10).toFixed(3)}     ${(o.r50 / j.r50).toFixed(3)}`,
    );
    printAcrossManuscripts(pools, janePools);
  }
}

await main();
