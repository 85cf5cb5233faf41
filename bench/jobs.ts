// npm run bench:jobs: the queue's overhead on a long job. The demo corpus (demo/acl-sample.jsonl.gz)
// is ingested into a fresh database twice per round: directly, as `refmatch ingest works --wait`
// runs it (the baseline), and queued as a job that a JobWorker (what `refmatch serve` runs) claims,
// runs under its renewed lease and settles, timed from the enqueue to the settled row. Rounds
// alternate the order so that a busy machine weighs on both alike.
// Usage: npm run bench:jobs [-- --rounds N] [--server]   (--server: server PostgreSQL, BENCH_DATABASE_URL)
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { parseConfig } from '../src/infra/config.ts';
import type { Database } from '../src/infra/db/index.ts';
import { openPglite } from '../src/infra/db/pglite.ts';
import { openPostgres } from '../src/infra/db/postgres.ts';
import { migrate } from '../src/infra/db/migrate.ts';
import { findCommand } from '../src/cli/registry.ts';
import { DEMO_CORPUS } from '../src/corpus/ingest/demo-corpus.ts';
import { getJob, type Job } from '../src/jobs/queue.ts';
import { JobWorker } from '../src/jobs/worker.ts';

const args = process.argv.slice(2);
const roundsArg = args.indexOf('--rounds');
const rounds = roundsArg >= 0 ? Number(args[roundsArg + 1]) : 2;
const onServer = args.includes('--server');
const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const config = parseConfig({ LOG_LEVEL: 'silent', REFMATCH_DEMO: 'false' });

async function freshDatabase(): Promise<{ db: Database; drop(): Promise<void> }> {
  if (onServer) {
    const name = `jobs_bench_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: SERVER });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(SERVER);
    url.pathname = `/${name}`;
    const db = openPostgres({ connectionString: url.toString() });
    await migrate(db);
    return {
      db,
      async drop() {
        await db.close();
        await admin.query(`DROP DATABASE ${name}`);
        await admin.end();
      },
    };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'refmatch-jobs-bench-'));
  const db = await openPglite({ dataDir: path.join(dir, 'pglite') });
  await migrate(db);
  return {
    db,
    async drop() {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const ingestArgs = { files: [DEMO_CORPUS] };

async function direct(): Promise<{ seconds: number; records: number; note?: string }> {
  const { db, drop } = await freshDatabase();
  try {
    const started = performance.now();
    const report = (await findCommand('ingest works')!.run(
      { config, db, progress: () => {} },
      ingestArgs,
    )) as {
      records: number;
    };
    return { seconds: (performance.now() - started) / 1000, records: report.records };
  } finally {
    await drop();
  }
}

async function queued(): Promise<{ seconds: number; records: number; note?: string }> {
  const { db, drop } = await freshDatabase();
  const worker = new JobWorker({
    config,
    db,
    find: findCommand,
    hooks: { invalidateAuth() {}, afterCommand: [] },
    log: { debug() {}, info() {}, warn() {}, error() {} },
  });
  try {
    worker.start();
    const started = performance.now();
    const job = (await findCommand('job enqueue')!.run(
      { config, db, progress: () => {} },
      { name: 'ingest works', args: ingestArgs },
    )) as Job;
    let done: Job;
    for (;;) {
      done = await getJob(db, job.id);
      if (done.state !== 'queued' && done.state !== 'running') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const seconds = (performance.now() - started) / 1000;
    if (done.state !== 'completed')
      throw new Error(`the job ended ${done.state}: ${JSON.stringify(done.error)}`);
    const at = (t: string | null) => Date.parse(t!) / 1000;
    return {
      seconds,
      records: (done.result as { records: number }).records,
      note: `claimed after ${(at(done.started_at) - at(done.created_at)).toFixed(2)} s, ran ${(at(done.finished_at) - at(done.started_at)).toFixed(2)} s`,
    };
  } finally {
    await worker.stop();
    await drop();
  }
}

const rows: string[] = [];
const directTimes: number[] = [];
const queuedTimes: number[] = [];
console.log(
  `demo corpus into ${onServer ? 'server PostgreSQL' : 'PGlite'}, ${rounds} rounds, load ${os.loadavg()[0]!.toFixed(1)}`,
);
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? (['direct', 'queued'] as const) : (['queued', 'direct'] as const);
  for (const kind of order) {
    const run = kind === 'direct' ? await direct() : await queued();
    (kind === 'direct' ? directTimes : queuedTimes).push(run.seconds);
    const line = `round ${round + 1} ${kind}: ${run.records} works in ${run.seconds.toFixed(2)} s (${Math.round(run.records / run.seconds)} works/s)${run.note ? ` (${run.note})` : ''}, load ${os.loadavg()[0]!.toFixed(1)}`;
    rows.push(line);
    console.log(line);
  }
}
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
console.log(
  `queued / direct (total wall time, same run): ${(sum(queuedTimes) / sum(directTimes)).toFixed(3)} ` +
    `(direct ${sum(directTimes).toFixed(1)} s, queued ${sum(queuedTimes).toFixed(1)} s; poll ${config.jobs.pollMs} ms)`,
);
