// Referee ranking quality on the ACL Anthology: 2,000 works held out (bench/lib/acl-holdout.ts), the
// rest is the corpus. For each held-out work we ask for candidates from its title and abstract only
// and see how highly its real authors (those with at least 3 other works in the corpus) rank.
// The corpus is built in memory (the service's in-process WorkIndex + an in-memory authorship source)
// and ranked by the same manuscriptQuery/rankAuthors code the service runs over its database; the SQL-side parts of
// findCandidates (conflicts, filters, settings) do not change the order for authorless queries.
// Baseline in the same run: JANE (50 most similar works by BM25; author score = sum of similarities).
//   npm run bench:quality [-- --queries N] [-- --params '{"fusion":"z"}']
// With --vectors '{"dims":200,"weighting":"sif"}' (or an array of such), word vectors are trained on
// the corpus works' titles and abstracts (never the held-out ones) and passed to rankAuthors as
// `workSimilarity`; its weight is a ranking parameter (--params '{"vectorWeight":0.3}').
import { aclDataAvailable, ACL_WORKS_PATH, loadAclWorks, splitHoldout } from './lib/acl-holdout.ts';
import { LocalWorkIndex } from '../src/retrieval/local-work-index.ts';
import { MANUSCRIPT_QUERY_OPTIONS, manuscriptQuery } from '../src/retrieval/manuscript-query.ts';
import {
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

async function main(): Promise<void> {
  if (!aclDataAvailable()) {
    console.error(`bench:quality: ACL Anthology data MISSING at ${ACL_WORKS_PATH}; nothing measured.`);
    process.exit(2);
  }
  const started = Date.now();
  const all = await loadAclWorks();
  const { heldOut, corpus } = splitHoldout(all);
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
    for (const a of list) {
      const l = byAuthor.get(a.authorId);
      if (l) l.push(a);
      else byAuthor.set(a.authorId, [a]);
    }
  });
  const source: AuthorshipSource = {
    ofWorks: async (ids) => ids.flatMap((id) => byWork.get(id) ?? []),
    // As the database source does: author counts only for works fetched whole.
    ofAuthors: async (ids) =>
      ids.flatMap((id) => (byAuthor.get(id) ?? []).map((a) => ({ ...a, authorsCount: 0 }))),
  };
  const index = new LocalWorkIndex({ workerMinWorks: Infinity });
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
    const currentYear = new Date().getUTCFullYear();
    let queryMs = 0;
    let queryCpuMs = 0;
    for (const work of heldOut.slice(0, limit)) {
      const relevant = work.authors
        .map((a) => authorIds.get(a.key))
        .filter((id): id is number => id !== undefined && (byAuthor.get(id)?.length ?? 0) >= 3);
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
        restrictTo: null,
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
      ours.push({ ranked: outcome.authors.map((a) => a.authorId), relevant });

      const sums = new Map<number, number>();
      for (const hit of await index.search({ query: q, k: 50 })) {
        for (const a of byWork.get(hit.workId) ?? []) {
          sums.set(a.authorId, (sums.get(a.authorId) ?? 0) + hit.score);
        }
      }
      jane.push({ ranked: [...sums.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id), relevant });
    }
    const o = evaluate(ours);
    const j = evaluate(jane);
    const f = (x: number) => x.toFixed(4);
    console.log(
      JSON.stringify({ corpusWorks: corpus.length, heldOut: heldOut.length, evaluated: ours.length, params }),
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
  }
}

await main();
