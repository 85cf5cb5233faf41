// npm run bench:referees: upload latency (POST /api/external/proposal/ over real HTTP on a local
// port) with candidates, metadata only and with the 25-page PDF, at 1 and 8 concurrent clients, on
// the ACL corpus ingested through the real ingestion, on PGlite and on server PostgreSQL. Beside it,
// in the same run, the retrieval step alone (`ctx.index.search`, top 100 works for the same title +
// abstract): the floor any ranking on top of it pays. Peak RSS of the process at the end.
// Client and server share this process (fetch from the same event loop): client cost is included.
// The 1M-work corpus is not covered by this bench (see docs/benchmarks/referees.md).
//   npm run bench:referees [-- --drivers pglite,postgres] [--queries 60] [--pdf-queries 12] [--schema NAME]
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { parseConfig } from '../src/infra/config.ts';
import type { Database } from '../src/infra/db/index.ts';
import { openPglite } from '../src/infra/db/pglite.ts';
import { openPostgres } from '../src/infra/db/postgres.ts';
import { migrate } from '../src/infra/db/migrate.ts';
import { ingestFiles } from '../src/corpus/ingest.ts';
import { worksKind } from '../src/corpus/entities.ts';
import { createOrganization } from '../src/organizations/organizations.ts';
import type { AppContext } from '../src/app-context.ts';
import { aclDataAvailable, ACL_WORKS_PATH, loadAclWorks, splitHoldout } from './lib/acl-holdout.ts';

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const DRIVERS = (arg('drivers') ?? 'pglite,postgres').split(',');
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

async function openDb(driver: string): Promise<{ db: Database; drop(): Promise<void> }> {
  if (driver === 'pglite') {
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
  // --schema NAME reuses (and keeps) a schema a previous run ingested: ingesting takes minutes.
  const reuse = arg('schema');
  const schema = reuse ?? `bench_referees_${randomBytes(4).toString('hex')}`;
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

async function runDriver(driver: string, queries: Query[]): Promise<void> {
  const { db, drop } = await openDb(driver);
  let app: FastifyInstance | null = null;
  try {
    await migrate(db);
    const t0 = Date.now();
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM works');
    if ((rows[0]?.n ?? 0) === 0) {
      const report = await ingestFiles({ db, progress: () => {} }, worksKind, [ACL_WORKS_PATH]);
      console.log(
        `[${driver}] ingested ${report.records} ACL works in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
      );
    } else {
      console.log(`[${driver}] reusing ${rows[0]!.n} works already ingested`);
    }
    const config = {
      ...parseConfig({ LOG_LEVEL: 'silent', REFMATCH_DEMO: 'false', PUBLIC_BASE_URL: 'http://bench.local' }),
      port: 0,
    };
    app = await buildApp({ config, db });
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
    console.log(line(`[${driver}] retrieval step alone`, floor));
    for (const c of [1, 8]) {
      const meta = await timed(QUERIES, c, (i) =>
        uploadOnce(base, org.api_key, queries[i]!, `m-${c}-${i}`, null),
      );
      console.log(line(`[${driver}] upload, metadata, ${c} client(s)`, meta, floor));
    }
    for (const c of [1, 8]) {
      const withPdf = await timed(PDF_QUERIES, c, (i) =>
        uploadOnce(base, org.api_key, queries[i]!, `p-${c}-${i}`, Buffer.from(pdf)),
      );
      console.log(line(`[${driver}] upload, 25-page PDF, ${c} client(s)`, withPdf, floor));
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
  const { heldOut } = splitHoldout(await loadAclWorks());
  const queries = heldOut
    .slice(0, Math.max(QUERIES, PDF_QUERIES, 5))
    .map((w) => ({ title: w.title, abstract: w.abstract }));
  for (const driver of DRIVERS) {
    try {
      await runDriver(driver, queries);
    } catch (error) {
      console.log(`[${driver}] FAILED: ${(error as Error).message}`);
    }
  }
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}

await main();
