// npm run bench:retrieval: query latency, build time and memory of the in-process BM25 index at the
// ACL corpus's size (~42k works) and at 1M works scaled up from it (bench/retrieval-corpus.ts says
// how), beside Postgres `ts_rank` answering the same 200 queries (titles + abstracts of ACL works
// held out of the index) in the same run.
// The in-memory indexes are built from records through `Bm25Index.upsert`, the builder the
// DB-backed index uses; at 42k the bench also loads the works into server PostgreSQL and times the
// real start path (`openWorkIndex`: paged SELECTs + indexing).
// Usage: npm run bench:retrieval [-- --sizes 42k,1m] [--no-pg] [--pg-seconds 90] [--pg-1m]
import os from 'node:os';
import v8 from 'node:v8';
import vm from 'node:vm';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Bm25Index } from '../src/retrieval/bm25-index.ts';
import { Scorer, prepareQuery, type QueryOptions } from '../src/retrieval/search.ts';
import { openPostgres } from '../src/infra/db/postgres.ts';
import { migrate } from '../src/infra/db/migrate.ts';
import { openWorkIndex } from '../src/retrieval/db-work-index.ts';
import type { Database } from '../src/infra/db/index.ts';
import { SearchThread } from '../src/retrieval/search-thread.ts';
import { loadWorks, readAclWorks, scaleUp, type BenchWork } from './retrieval-corpus.ts';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const args = process.argv.slice(2);
const argValue = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const sizes = (argValue('--sizes') ?? '42k,1m').split(',');
const withPg = !args.includes('--no-pg');
const pgSeconds = Number(argValue('--pg-seconds') ?? 90);
const pgAt1m = args.includes('--pg-1m');
const QUERIES = 200;
const K = 100;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

interface Memory {
  heapMb: number;
  rssMb: number;
}
function memory(): Memory {
  gc();
  gc();
  const m = process.memoryUsage();
  return { heapMb: (m.heapUsed + m.arrayBuffers) / 2 ** 20, rssMb: m.rss / 2 ** 20 };
}

interface Latency {
  n: number;
  p50: number;
  p95: number;
  mean: number;
  max: number;
  cpuP50: number;
  cpuP95: number;
  /** Through the worker: CPU of the whole process per query (main thread + worker), p50 / p95. */
  processCpuP50?: number;
  processCpuP95?: number;
  /** Mean counters of the scorer per query (in-process runs only). */
  trace?: { terms: number; essentialTerms: number; essentialPostings: number; candidates: number };
}
function summarize(wall: number[], cpu: number[]): Latency {
  const q = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
  };
  return {
    n: wall.length,
    p50: q(wall, 0.5),
    p95: q(wall, 0.95),
    mean: wall.reduce((a, b) => a + b, 0) / Math.max(1, wall.length),
    max: Math.max(...wall),
    cpuP50: q(cpu, 0.5),
    cpuP95: q(cpu, 0.95),
  };
}

const fieldsOf = (w: BenchWork) => [
  { text: w.title, weight: 1 },
  { text: w.abstract, weight: 1 },
];

function runQueries(index: Bm25Index, queries: BenchWork[], options: QueryOptions = {}): Latency {
  const scorer = new Scorer(index);
  for (const q of queries.slice(0, 10)) scorer.search(prepareQuery(index, fieldsOf(q), options), K);
  const wall: number[] = [];
  const cpu: number[] = [];
  const trace = { terms: 0, essentialTerms: 0, essentialPostings: 0, candidates: 0 };
  for (const q of queries) {
    const c = process.cpuUsage();
    const t = performance.now();
    scorer.search(prepareQuery(index, fieldsOf(q), options), K);
    wall.push(performance.now() - t);
    cpu.push(process.cpuUsage(c).user / 1000);
    for (const key of Object.keys(trace) as Array<keyof typeof trace>) trace[key] += scorer.trace[key];
  }
  for (const key of Object.keys(trace) as Array<keyof typeof trace>) trace[key] /= queries.length;
  return { ...summarize(wall, cpu), trace };
}

/** The same queries through the search worker (what the service does above 100,000 works). */
async function runQueriesInWorker(index: Bm25Index, queries: BenchWork[]): Promise<Latency> {
  const thread = new SearchThread();
  thread.publish(index);
  try {
    for (const q of queries.slice(0, 10)) await thread.search(prepareQuery(index, fieldsOf(q)), K);
    const wall: number[] = [];
    const mainCpu: number[] = [];
    const processCpu: number[] = [];
    for (const q of queries) {
      const c = process.cpuUsage();
      const t = performance.now();
      const pending = thread.search(prepareQuery(index, fieldsOf(q)), K);
      // Main-thread CPU per query: analysing the query and posting it (the event loop's cost).
      mainCpu.push(process.cpuUsage(c).user / 1000);
      await pending;
      wall.push(performance.now() - t);
      // process.cpuUsage counts every thread: the main thread's part plus the worker's search.
      processCpu.push(process.cpuUsage(c).user / 1000);
    }
    const all = summarize(wall, processCpu);
    return { ...summarize(wall, mainCpu), processCpuP50: all.cpuP50, processCpuP95: all.cpuP95 };
  } finally {
    await thread.close();
  }
}

interface Overlap {
  /** Share of the exhaustive top k over every term (no df cut-off) that the defaults return. */
  allTerms: number;
  /** Share of the exhaustive top k over the default query's terms (what pruning alone costs). */
  sameTerms: number;
}

/**
 * The defaults against exhaustive scoring (every posting of every term, no pruning): once over
 * every query term (the price of the df cut-off and of pruning), once over the default terms.
 */
function overlapWithExhaustive(index: Bm25Index, queries: BenchWork[]): Overlap {
  const scorer = new Scorer(index);
  const exhaustive = { exhaustive: true };
  let sharedAll = 0;
  let sharedSame = 0;
  let totalAll = 0;
  let totalSame = 0;
  for (const q of queries) {
    const query = prepareQuery(index, fieldsOf(q));
    const fast = new Set(scorer.search(query, K).map((h) => h.workId));
    const all = prepareQuery(index, fieldsOf(q), { maxDfRatio: 1, maxTerms: 1e9 });
    const exactAll = scorer.search(all, K, undefined, exhaustive);
    const exactSame = scorer.search(query, K, undefined, exhaustive);
    sharedAll += exactAll.filter((h) => fast.has(h.workId)).length;
    sharedSame += exactSame.filter((h) => fast.has(h.workId)).length;
    totalAll += exactAll.length;
    totalSame += exactSame.length;
  }
  return {
    allTerms: totalAll === 0 ? 1 : sharedAll / totalAll,
    sameTerms: totalSame === 0 ? 1 : sharedSame / totalSame,
  };
}

interface BuildFigures {
  works: number;
  seconds: number;
  cpuSeconds: number;
  heapMb: number;
  rssMb: number;
  arrayMb: number;
  postings: number;
  terms: number;
  segments: number;
}

function build(works: Iterable<BenchWork>): { index: Bm25Index; figures: BuildFigures } {
  const before = memory();
  const c = process.cpuUsage();
  const t = performance.now();
  const index = new Bm25Index();
  let seq = 0;
  for (const w of works) {
    index.upsert({ workId: w.id, title: w.title, abstract: w.abstract, year: w.year, changeSeq: ++seq });
  }
  index.flush();
  const seconds = (performance.now() - t) / 1000;
  const cpuSeconds = process.cpuUsage(c).user / 1e6;
  const after = memory();
  return {
    index,
    figures: {
      works: index.liveWorks,
      seconds,
      cpuSeconds,
      heapMb: after.heapMb - before.heapMb,
      rssMb: after.rssMb - before.rssMb,
      arrayMb: index.arrayBytes() / 2 ** 20,
      postings: index.postingCount(),
      terms: index.termCount,
      segments: index.segments.length,
    },
  };
}

// ---- Postgres ts_rank, the in-database baseline ----

interface PgFigures {
  works: number;
  loadSeconds: number;
  dbIndexBuildSeconds: number | null;
  latency: Latency;
  budgetHit: boolean;
}

async function loadIntoPostgres(db: Database, works: Iterable<BenchWork>): Promise<number> {
  const n = await loadWorks(db, works);
  // The narrow (id, tsv) table was the fastest ts_rank variant in MEASURED.md.
  await db.exec(`
    CREATE TABLE work_tsv AS SELECT id, to_tsvector('english', title || ' ' || coalesce(abstract, '')) AS tsv FROM works;
    ALTER TABLE work_tsv ALTER COLUMN tsv SET STORAGE EXTERNAL;
    CREATE INDEX work_tsv_gin ON work_tsv USING gin (tsv);
    ANALYZE work_tsv;`);
  return n;
}

// The query's lexemes OR-ed together (an AND of 100 words matches nothing), ranked by ts_rank. Each
// lexeme is quoted (a URL in an abstract yields lexemes with tsquery operators in them) and read
// with the 'simple' configuration, as it is already normalised.
const TS_RANK_SQL = `
  WITH q AS (
    SELECT to_tsquery('simple', string_agg(quote_literal(lexeme), ' | ')) AS query
    FROM unnest(to_tsvector('english', $1))
  )
  SELECT w.id, ts_rank(w.tsv, q.query) AS score
  FROM work_tsv w, q WHERE w.tsv @@ q.query
  ORDER BY score DESC LIMIT ${K}`;

async function pgQueries(
  db: Database,
  queries: BenchWork[],
): Promise<{ latency: Latency; budgetHit: boolean }> {
  const wall: number[] = [];
  const started = performance.now();
  await db.query(TS_RANK_SQL, [queries[0]!.title + ' ' + queries[0]!.abstract]);
  let budgetHit = false;
  for (const q of queries) {
    if ((performance.now() - started) / 1000 > pgSeconds) {
      budgetHit = true;
      break;
    }
    const t = performance.now();
    await db.query(TS_RANK_SQL, [q.title + ' ' + q.abstract]);
    wall.push(performance.now() - t);
  }
  return {
    latency: summarize(
      wall,
      wall.map(() => NaN),
    ),
    budgetHit,
  };
}

async function withBenchSchema<T>(fn: (db: Database) => Promise<T>): Promise<T> {
  const schema = `bench_retrieval_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const db = openPostgres({ connectionString: SERVER, schema, maxConnections: 2 });
  try {
    await migrate(db);
    return await fn(db);
  } finally {
    await db.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
}

async function pgBaseline(
  works: () => Iterable<BenchWork>,
  queries: BenchWork[],
  timeDbBuild: boolean,
): Promise<PgFigures> {
  return withBenchSchema(async (db) => {
    let t = performance.now();
    const n = await loadIntoPostgres(db, works());
    const loadSeconds = (performance.now() - t) / 1000;
    let dbIndexBuildSeconds: number | null = null;
    if (timeDbBuild) {
      t = performance.now();
      const index = await openWorkIndex(db, { pollMs: 0 });
      dbIndexBuildSeconds = (performance.now() - t) / 1000;
      if (index.stats().works !== n)
        throw new Error(`index from DB holds ${index.stats().works} works, not ${n}`);
      await index.close();
    }
    const { latency, budgetHit } = await pgQueries(db, queries);
    return { works: n, loadSeconds, dbIndexBuildSeconds, latency, budgetHit };
  });
}

/**
 * The machine's speed at the scorer's inner loop right now: ns per posting of a plain loop adding
 * BM25 contributions of 10M sorted postings into a 1M accumulator. On a shared machine this moves
 * with the load; compare runs by it.
 */
function calibrate(): { wallNs: number; cpuNs: number } {
  const n = 1_000_000;
  const p = 10_000_000;
  const slots = new Int32Array(p);
  for (let i = 0; i < p; i++) slots[i] = (i * 7919) % n;
  slots.sort();
  const tfs = new Uint8Array(p).fill(4);
  const norms = new Float32Array(n).fill(1.2);
  const acc = new Float32Array(n);
  let best = { wallNs: Infinity, cpuNs: Infinity };
  for (let r = 0; r < 3; r++) {
    const c = process.cpuUsage();
    const t = performance.now();
    for (let i = 0; i < p; i++) {
      const s = slots[i]!;
      const tf = tfs[i]! / 4;
      acc[s] = acc[s]! + (1.5 * tf) / (tf + norms[s]!);
    }
    const wallNs = ((performance.now() - t) * 1e6) / p;
    const cpuNs = (process.cpuUsage(c).user * 1e3) / p;
    if (wallNs < best.wallNs) best = { wallNs, cpuNs };
  }
  return best;
}

// ---- Report ----

const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');

function report(
  label: string,
  b: BuildFigures,
  mem: Latency,
  overlap: Overlap,
  pgFig: PgFigures | null,
  inWorker: Latency | null,
): string[] {
  const lines = [
    `### ${label}: ${b.works.toLocaleString('en')} works`,
    `- build: ${b.seconds.toFixed(1)} s wall, ${b.cpuSeconds.toFixed(1)} s CPU (${((b.cpuSeconds * 1e6) / b.works).toFixed(0)} µs CPU per work); ${b.segments} segments, ${b.postings.toLocaleString('en')} postings (${(b.postings / b.works).toFixed(0)} per work), ${b.terms.toLocaleString('en')} terms`,
    `- memory: typed arrays ${b.arrayMb.toFixed(0)} MB; heap+arrayBuffers delta ${b.heapMb.toFixed(0)} MB (${((b.heapMb * 2 ** 20) / b.works).toFixed(0)} bytes per work); RSS delta ${b.rssMb.toFixed(0)} MB`,
    `- in-process BM25, ${mem.n} queries, top ${K}: p50 ${ms(mem.p50)} ms, p95 ${ms(mem.p95)} ms, mean ${ms(mem.mean)} ms, max ${ms(mem.max)} ms (CPU p50 ${ms(mem.cpuP50)} ms, p95 ${ms(mem.cpuP95)} ms)`,
    ...(inWorker
      ? [
          `- through the search worker: p50 ${ms(inWorker.p50)} ms, p95 ${ms(inWorker.p95)} ms; CPU per query, both threads, p50 ${ms(inWorker.processCpuP50 ?? NaN)} ms, p95 ${ms(inWorker.processCpuP95 ?? NaN)} ms, of which the main thread (analysis + post) p50 ${ms(inWorker.cpuP50)} ms, p95 ${ms(inWorker.cpuP95)} ms`,
        ]
      : []),
    ...(mem.trace
      ? [
          `- per query (mean): ${mem.trace.terms.toFixed(0)} terms, ${mem.trace.essentialTerms.toFixed(0)} scored over all their postings (${Math.round(mem.trace.essentialPostings).toLocaleString('en')} postings), ${mem.trace.candidates.toFixed(0)} candidate works scored exactly from their forward rows`,
        ]
      : []),
    `- top-${K} overlap with exhaustive scoring (every posting): over every query term (no df cut-off) ${(overlap.allTerms * 100).toFixed(1)}%; over the default query's terms (pruning alone) ${(overlap.sameTerms * 100).toFixed(1)}%`,
  ];
  if (pgFig) {
    const l = pgFig.latency;
    lines.push(
      `- Postgres ts_rank (server, narrow (id, tsv) table + GIN), ${l.n} queries${pgFig.budgetHit ? ` (stopped at the ${pgSeconds} s budget)` : ''}: p50 ${ms(l.p50)} ms, p95 ${ms(l.p95)} ms, mean ${ms(l.mean)} ms`,
      `- ratio ts_rank / in-process: p50 ${(l.p50 / mem.p50).toFixed(0)}x, p95 ${(l.p95 / mem.p95).toFixed(0)}x`,
      `- loading ${pgFig.works.toLocaleString('en')} works into PostgreSQL (COPY + tsvector + GIN): ${pgFig.loadSeconds.toFixed(1)} s` +
        (pgFig.dbIndexBuildSeconds !== null
          ? `; index built from that database by openWorkIndex (the start path): ${pgFig.dbIndexBuildSeconds.toFixed(1)} s`
          : ''),
    );
  }
  return lines;
}

async function main() {
  const out: string[] = [
    `## bench:retrieval, ${new Date().toISOString()}`,
    `Node ${process.version}, ${os.cpus().length} cores; load average at start ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} (the machine is shared: wall times include waiting for a core)`,
    '',
  ];
  const cal = calibrate();
  out.push(
    `Calibration (scorer's inner loop, best of 3): ${cal.wallNs.toFixed(1)} ns wall, ${cal.cpuNs.toFixed(1)} ns CPU per posting`,
    '',
  );
  const t0 = performance.now();
  const acl = readAclWorks();
  console.error(`read ${acl.length} ACL works in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  // Every ~209th work held out: 200 queries spread over venues and years.
  const step = Math.floor(acl.length / QUERIES);
  const queries = acl.filter((_, i) => i % step === 7).slice(0, QUERIES);
  const held = new Set(queries.map((q) => q.id));
  const base = acl.filter((w) => !held.has(w.id));

  if (sizes.includes('42k')) {
    const { index, figures } = build(base);
    const lat = runQueries(index, queries);
    const overlap = overlapWithExhaustive(index, queries);
    console.error('42k built and queried; Postgres next');
    const pgFig = withPg ? await pgBaseline(() => base, queries, true) : null;
    out.push(...report('ACL corpus', figures, lat, overlap, pgFig, null), '');
  }
  if (sizes.includes('1m')) {
    const total = 1_000_000;
    const works = () => {
      const synthetic = scaleUp(base, total - base.length, acl.length + 1);
      return (function* () {
        yield* base;
        yield* synthetic;
      })();
    };
    const { index, figures } = build(works());
    console.error(`1M built in ${figures.seconds.toFixed(0)} s`);
    const lat = runQueries(index, queries);
    const inWorker = await runQueriesInWorker(index, queries);
    const overlap = overlapWithExhaustive(index, queries.slice(0, 60));
    const pgFig = withPg && pgAt1m ? await pgBaseline(works, queries, false) : null;
    out.push(...report('ACL scaled up to 1M', figures, lat, overlap, pgFig, inWorker));
    if (!pgFig)
      out.push('- Postgres ts_rank at 1M: not run (pass --pg-1m; loading 1M works takes several minutes)');
    out.push('');
  }
  out.push(
    `Load average at end ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}; total ${((performance.now() - t0) / 1000).toFixed(0)} s.`,
  );
  console.log(out.join('\n'));
}

await main();
