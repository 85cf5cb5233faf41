// npm run bench:referees: upload latency (POST /api/external/proposal/ over real HTTP on a local
// port) with candidates, metadata only and with the 25-page PDF, at 1 and 8 concurrent clients, on
// PGlite and on server PostgreSQL, on two corpora:
// - acl: the ACL corpus (~42k works) ingested through the real ingestion;
// - 1m: the same, scaled up to 1M works by the retrieval bench's generator (bench/retrieval-corpus.ts
//   `scaleUp`). Each synthetic work is built around a real "topic" work and gets that work's
//   authorships, with its authors replaced by clones of one "generation" per 42k synthetic works
//   (generation g of author A: same name, name variants, affiliations and metrics, no ORCID or
//   email), so that works per author keep the ACL's distribution instead of growing 24-fold. Loaded
//   by COPY (works, then authorships joined in SQL), not by the public ingest (~1,600 works/s); the
//   tables are the ones ingest fills. Loaded once and kept: server schema `bench_referees_1m`, PGlite
//   data directory bench/.cache/referees-1m-pglite (gitignored); later runs reuse them.
// Beside each, in the same run, the retrieval step alone (`ctx.index.search`, top 100 works for the
// same title + abstract): the floor any ranking on top of it pays. Peak RSS of the process at the end.
// Client and server share this process (fetch from the same event loop): client cost is included.
//   npm run bench:referees [-- --drivers pglite,postgres] [--corpus acl,1m] [--queries 60]
//     [--pdf-queries 12] [--schema NAME (acl on the server: reuse and keep)] [--scale 1000000]
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/infra/db/index.ts';
import { openPglite } from '../src/infra/db/pglite.ts';
import { openPostgres } from '../src/infra/db/postgres.ts';
import { migrate } from '../src/infra/db/migrate.ts';
import { ingestFiles } from '../src/corpus/ingest/ingest.ts';
import { worksKind } from '../src/corpus/openalex/entities.ts';
import { createOrganization } from '../src/organizations/organizations.ts';
import type { AppContext } from '../src/app-context.ts';
import { csvRows } from '../src/corpus/ingest/csv.ts';
import {
  aclDataAvailable,
  ACL_WORKS_PATH,
  loadAclWorks,
  splitHoldout,
  type AclWork,
} from './lib/acl-holdout.ts';
import { scaleUp } from './retrieval-corpus.ts';
import { benchAppConfig } from './lib/bench-config.ts';

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const DRIVERS = (arg('drivers') ?? 'pglite,postgres').split(',');
const CORPORA = (arg('corpus') ?? 'acl,1m').split(',');
const SCALE = Number(arg('scale') ?? 1_000_000);
const CACHE = path.resolve(import.meta.dirname, '.cache');
const SCHEMA_1M = 'bench_referees_1m';
const QUERIES = Number(arg('queries') ?? 60);
const PDF_QUERIES = Number(arg('pdf-queries') ?? 12);
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PDF = path.resolve(import.meta.dirname, '../test/fixtures/manuscripts/deep-rules/manuscript.pdf');

interface Query {
  title: string;
  abstract: string;
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

async function timed(n: number, concurrency: number, one: (i: number) => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        const t0 = performance.now();
        await one(i);
        times.push(performance.now() - t0);
      }
    }),
  );
  return times;
}

async function openDb(driver: string, corpus: string): Promise<{ db: Database; drop(): Promise<void> }> {
  if (driver === 'pglite') {
    if (corpus === '1m') {
      const dir = path.join(CACHE, 'referees-1m-pglite');
      await mkdir(dir, { recursive: true });
      console.log(`[pglite/1m] data directory ${path.relative(process.cwd(), dir)} (kept for later runs)`);
      const db = await openPglite({ dataDir: dir });
      return { db, drop: () => db.close() };
    }
    const dir = await mkdtemp(path.join(os.tmpdir(), 'refmatch-bench-referees-'));
    const db = await openPglite({ dataDir: dir });
    return {
      db,
      drop: async () => {
        await db.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  // --schema NAME reuses (and keeps) a schema a previous run ingested: ingesting takes minutes. The
  // 1M corpus always lives in its own kept schema.
  const reuse = corpus === '1m' ? SCHEMA_1M : arg('schema');
  const schema = reuse ?? `bench_referees_${randomBytes(4).toString('hex')}`;
  if (corpus === '1m') console.log(`[postgres/1m] schema ${schema} (kept for later runs)`);
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  await admin.end();
  const db = openPostgres({ connectionString: SERVER_URL, schema, maxConnections: 10 });
  return {
    db,
    drop: async () => {
      if (reuse) return db.close();
      await db.close();
      const c = new pg.Client({ connectionString: SERVER_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    },
  };
}

async function worksCount(db: Database): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM works');
  return rows[0]?.n ?? 0;
}

async function ensureAcl(db: Database, label: string): Promise<void> {
  const t0 = Date.now();
  const n = await worksCount(db);
  if (n > 0) {
    console.log(`[${label}] reusing ${n} works already ingested`);
    return;
  }
  const report = await ingestFiles({ db, progress: () => {} }, worksKind, [ACL_WORKS_PATH]);
  console.log(
    `[${label}] ingested ${report.records} ACL works in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
}

const SYNTHETIC_KEY = 'bench-1m:';
const CLONE_KEY = 'bench-1m-g';
const LOAD_CHUNK = 20_000;

/**
 * The 1M corpus: the ACL works through the real ingest, then the synthetic works by COPY. Author
 * clones first (one generation per ACL-sized slice of synthetic works), then works with a staging
 * row each (its topic work and generation), then their authorships in one INSERT ... SELECT.
 * A table `bench_1m_loaded` marks a finished load; an unfinished one is removed and redone.
 */
async function ensure1m(db: Database, label: string, acl: readonly AclWork[]): Promise<void> {
  const done = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_name = 'bench_1m_loaded'`,
  );
  if ((done.rows[0]?.n ?? 0) > 0) {
    console.log(`[${label}] reusing the ${await worksCount(db)}-work corpus loaded by an earlier run`);
    return;
  }
  const t0 = Date.now();
  await ensureAcl(db, label);
  await db.exec(`DELETE FROM works WHERE work_key LIKE '${SYNTHETIC_KEY}%'`);
  await db.exec(`DELETE FROM authors WHERE author_key LIKE '${CLONE_KEY}%'`);
  await db.exec('DROP TABLE IF EXISTS bench_1m_from');
  await db.exec(
    'CREATE TABLE bench_1m_from (work_key text PRIMARY KEY, base_work_id integer, generation integer)',
  );

  const ids = new Map<string, number>();
  for (const r of (await db.query<{ id: number; work_key: string }>('SELECT id, work_key FROM works')).rows) {
    ids.set(r.work_key, r.id);
  }
  // The generator's base is the ACL file in order, ids 1..N (what readAclWorks gives).
  const base = acl.map((w, i) => ({ id: i + 1, title: w.title, abstract: w.abstract, year: w.year }));
  const count = SCALE - base.length;
  const generations = Math.ceil(count / base.length);
  await db.query(
    `INSERT INTO authors (author_key, display_name, orcid, name_variants, emails, articles_count,
       citations_count, h_index, first_publication_year, last_publication_year, recent_affiliation,
       recent_institution_id, recent_affiliations, name_key)
     SELECT '${CLONE_KEY}' || g || ':' || a.author_key, a.display_name, NULL, a.name_variants, '{}',
       a.articles_count, a.citations_count, a.h_index, a.first_publication_year,
       a.last_publication_year, a.recent_affiliation, a.recent_institution_id, a.recent_affiliations, a.name_key
     FROM authors a CROSS JOIN generate_series(1, $1::int) g`,
    [generations],
  );
  console.log(
    `[${label}] ${generations} generations of author clones in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );

  let works: Array<readonly (string | number | null)[]> = [];
  let from: Array<readonly (string | number | null)[]> = [];
  const flush = async () => {
    await db.copyCsv('works', ['work_key', 'title', 'abstract', 'publication_year', 'type'], csvRows(works));
    await db.copyCsv('bench_1m_from', ['work_key', 'base_work_id', 'generation'], csvRows(from));
    works = [];
    from = [];
  };
  let i = 0;
  for (const w of scaleUp(base, count, base.length + 1)) {
    const key = `${SYNTHETIC_KEY}${w.id}`;
    works.push([key, w.title || '(untitled)', w.abstract || null, w.year, 'article']);
    from.push([key, ids.get(acl[w.builtFrom - 1]!.key) ?? null, Math.floor(i / base.length) + 1]);
    i++;
    if (works.length >= LOAD_CHUNK) await flush();
    if (i % 200_000 === 0) {
      console.log(`[${label}] ${i} synthetic works copied, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    }
  }
  if (works.length) await flush();
  await db.exec('ANALYZE works, authors, authorships, bench_1m_from');
  await db.exec(
    `INSERT INTO authorships (work_id, position, author_id, institution_ids, raw_affiliations, is_corresponding)
     SELECT w.id, a.position, c.id, a.institution_ids, a.raw_affiliations, a.is_corresponding
       FROM bench_1m_from s
       JOIN works w ON w.work_key = s.work_key
       JOIN authorships a ON a.work_id = s.base_work_id
       JOIN authors o ON o.id = a.author_id
       JOIN authors c ON c.author_key = '${CLONE_KEY}' || s.generation || ':' || o.author_key`,
  );
  await db.exec('DROP TABLE bench_1m_from');
  await db.exec('ANALYZE works, authorships, authors');
  await db.exec('CREATE TABLE bench_1m_loaded (at timestamptz NOT NULL DEFAULT now())');
  await db.exec('INSERT INTO bench_1m_loaded DEFAULT VALUES');
  console.log(
    `[${label}] loaded ${await worksCount(db)} works in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
}

async function uploadOnce(
  base: string,
  apiKey: string,
  q: Query,
  id: string,
  pdf: Buffer | null,
): Promise<void> {
  const form = new FormData();
  form.set('folder', 'BENCH');
  form.set('origin_id', id);
  form.set('title', q.title);
  form.set('abstract', q.abstract);
  form.set('authors_count', '0');
  if (pdf) form.set('source_file', new Blob([pdf], { type: 'application/pdf' }), 'manuscript.pdf');
  const res = await fetch(`${base}/api/external/proposal/`, {
    method: 'POST',
    headers: { 'x-apikey': apiKey },
    body: form,
  });
  const body = (await res.json()) as { candidates?: unknown[] | null };
  if (res.status !== 200 || !Array.isArray(body.candidates)) {
    throw new Error(`upload failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  }
}

function line(label: string, xs: number[], floor?: number[]): string {
  const f = (v: number) => v.toFixed(1).padStart(7);
  let s = `${label.padEnd(34)} p50 ${f(pct(xs, 50))} ms  p95 ${f(pct(xs, 95))} ms  (n=${xs.length})`;
  if (floor)
    s += `  ratio to floor p50 ${(pct(xs, 50) / pct(floor, 50)).toFixed(1)}x p95 ${(pct(xs, 95) / pct(floor, 95)).toFixed(1)}x`;
  return s;
}

async function runDriver(driver: string, corpus: string, queries: Query[], acl: AclWork[]): Promise<void> {
  const label = `${driver}/${corpus}`;
  const { db, drop } = await openDb(driver, corpus);
  let app: FastifyInstance | null = null;
  try {
    await migrate(db);
    if (corpus === '1m') await ensure1m(db, label, acl);
    else await ensureAcl(db, label);
    const started = Date.now();
    const config = {
      // Latency under load is measured, not the rate limits, which a long run at 8 clients would meet.
      ...benchAppConfig({ PUBLIC_BASE_URL: 'http://bench.local' }),
      port: 0,
    };
    app = await buildApp({ config, db });
    console.log(`[${label}] app up (work index built) in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const ctx = (app as unknown as { refmatch: AppContext }).refmatch;
    const org = await createOrganization(db, { name: 'bench', features: ['referee_finder'] });
    const pdf = await readFile(PDF);

    // Warm-up: first requests compile code paths and fill caches.
    for (let i = 0; i < 5; i++) await uploadOnce(base, org.api_key, queries[i]!, `warm-${i}`, null);
    await uploadOnce(base, org.api_key, queries[0]!, 'warm-pdf', Buffer.from(pdf));

    const floor = await timed(QUERIES, 1, async (i) => {
      await ctx.index.search({
        fields: [{ text: `${queries[i]!.title}. ${queries[i]!.abstract}`, weight: 1 }],
        k: 100,
      });
    });
    console.log(line(`[${label}] retrieval step alone`, floor));
    for (const c of [1, 8]) {
      const meta = await timed(QUERIES, c, (i) =>
        uploadOnce(base, org.api_key, queries[i]!, `m-${c}-${i}`, null),
      );
      console.log(line(`[${label}] upload, metadata, ${c} client(s)`, meta, floor));
    }
    for (const c of [1, 8]) {
      const withPdf = await timed(PDF_QUERIES, c, (i) =>
        uploadOnce(base, org.api_key, queries[i]!, `p-${c}-${i}`, Buffer.from(pdf)),
      );
      console.log(line(`[${label}] upload, 25-page PDF, ${c} client(s)`, withPdf, floor));
    }
  } finally {
    await app?.close();
    await drop();
  }
}

async function main(): Promise<void> {
  if (!aclDataAvailable()) {
    console.error(`bench:referees: ACL Anthology data MISSING at ${ACL_WORKS_PATH}; nothing measured.`);
    process.exit(2);
  }
  const acl = await loadAclWorks();
  const { heldOut } = splitHoldout(acl);
  const queries = heldOut
    .slice(0, Math.max(QUERIES, PDF_QUERIES, 5))
    .map((w) => ({ title: w.title, abstract: w.abstract }));
  for (const corpus of CORPORA) {
    for (const driver of DRIVERS) {
      try {
        console.log(
          `[${driver}/${corpus}] ${new Date().toISOString()} load average ${os
            .loadavg()
            .map((l) => l.toFixed(1))
            .join(' ')}`,
        );
        await runDriver(driver, corpus, queries, acl);
      } catch (error) {
        console.log(`[${driver}/${corpus}] FAILED: ${(error as Error).stack ?? (error as Error).message}`);
      }
    }
  }
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}

await main();
