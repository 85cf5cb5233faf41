// npm run bench:restart: how long the search index takes to start, built from the database (no
// snapshot) against read from its snapshot and caught up, in the same run over the same database:
// the real start path (DbWorkIndex.start) both times, then once more after works were ingested
// behind the snapshot's back (the catch-up). The corpus is the ACL works scaled up
// (bench/retrieval-corpus.ts), COPYed into a database created for the run and dropped after it.
// Then the whole serving process, twice over the same database (server PostgreSQL only): the
// compiled server spawned as production runs it (`node bin/refmatch.js serve`, DATABASE_URL and
// INDEX_SNAPSHOT_DIR set), timed from the spawn to the first `/readyz` 200 and to the first upload
// answered with candidates, first with an empty snapshot directory (the index built from the
// database, the snapshot written after), then with that snapshot.
// Usage: npm run bench:restart [-- --works 1m|42k|N] [--pglite] [--added N] [--process-only]
// Server PostgreSQL at BENCH_SERVER (default postgres://postgres@127.0.0.1:5432), or --pglite.
// --process-only: skip the three in-process index starts, time only the two server processes.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { randomBytes } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { benchServerEnv, freePort } from './lib/served-process.ts';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Database } from '../src/infra/db/index.ts';
import { migrate } from '../src/infra/db/migrate.ts';
import { openPglite } from '../src/infra/db/pglite.ts';
import { openPostgres } from '../src/infra/db/postgres.ts';
import { DbWorkIndex, type IndexLog, type IndexStartup } from '../src/retrieval/db-work-index.ts';
import { SNAPSHOT_FILE } from '../src/retrieval/index-snapshot.ts';
import { loadWorks, readAclWorks, scaleUp, type BenchWork } from './retrieval-corpus.ts';
import { multipartBody, seedScenario } from '../test/fuzz/scenario.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const args = process.argv.slice(2);
const argValue = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const sizeArg = (argValue('--works') ?? '1m').toLowerCase();
const TOTAL = sizeArg === '1m' ? 1_000_000 : sizeArg === '42k' ? 0 : Number(sizeArg);
const ADDED = Number(argValue('--added') ?? 1000);
const usePglite = args.includes('--pglite');
const processOnly = args.includes('--process-only');
const SERVER = process.env.BENCH_SERVER ?? 'postgres://postgres@127.0.0.1:5432';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const s = (ms: number) => (ms / 1000).toFixed(2);
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

interface BenchDatabase {
  db: Database;
  /** The server database's URL, for a spawned server; undefined on PGlite. */
  url?: string;
  drop(): Promise<void>;
  label: string;
}

async function openBenchDatabase(): Promise<BenchDatabase> {
  if (usePglite) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'refmatch-bench-restart-db-'));
    const db = await openPglite({ dataDir: dir, sharedBuffersMb: 32 });
    return {
      db,
      label: 'PGlite (embedded, on disk)',
      async drop() {
        await db.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `restart_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: `${SERVER}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const db = openPostgres({ connectionString: `${SERVER}/${name}`, maxConnections: 2 });
  return {
    db,
    url: `${SERVER}/${name}`,
    label: `server PostgreSQL (database ${name}, dropped after the run)`,
    async drop() {
      await db.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.end();
    },
  };
}

interface StartFigures {
  startup: IndexStartup;
  wallMs: number;
  cpuMs: number;
  rssMb: number;
  works: number;
  topHit: number | null;
}

/** One start of the index over the database, as the serving process does it; closed after. */
async function startOnce(
  db: Database,
  dir: string,
  query: BenchWork,
  writeSnapshot: boolean,
): Promise<StartFigures & { snapshotWrite: { ms: number; bytes: number } | null }> {
  gc();
  let snapshotWrite: { ms: number; bytes: number } | null = null;
  const log: IndexLog = {
    info(fields, message) {
      if (message === 'search index snapshot written') {
        const f = fields as { ms: number; bytes: number };
        snapshotWrite = { ms: f.ms, bytes: f.bytes };
      }
    },
    warn(fields, message) {
      console.error(message, JSON.stringify(fields));
    },
  };
  const index = new DbWorkIndex(db, { pollMs: 0, snapshotDir: dir, log });
  const cpu = process.cpuUsage();
  const t = performance.now();
  await index.start();
  const wallMs = performance.now() - t;
  const used = process.cpuUsage(cpu);
  const hits = await index.search({
    fields: [
      { text: query.title, weight: 1 },
      { text: query.abstract, weight: 1 },
    ],
    k: 10,
  });
  // The first snapshot is written in the background after the start; a refresh queues behind it.
  if (writeSnapshot) await index.refresh();
  const figures = {
    startup: index.startup!,
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    rssMb: process.memoryUsage().rss / 2 ** 20,
    works: index.stats().works,
    topHit: hits[0]?.workId ?? null,
    snapshotWrite,
  };
  await index.close();
  return figures;
}

interface ProcessStart {
  readyMs: number;
  /**
   * Until the first upload answered 200 with a non-empty candidate list; null when none came within
   * 30 s of ready (at 1M the scaled works, which carry no authors, can fill the retrieved works).
   */
  candidatesMs: number | null;
  /** The server process's CPU (user + system, all threads) when it was first ready. */
  readyCpuMs: number;
  candidates: number;
  rssMb: number;
}

/** utime + stime of a process from /proc (clock ticks of 10 ms on Linux). */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function processRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One start of the real serving process, compiled, as production runs it; polled every 100 ms for
 * `/readyz` 200, then an upload sent until one is answered with candidates; stopped with SIGTERM.
 */
async function startProcess(
  databaseUrl: string,
  snapshotDir: string,
  apiKey: string,
  beforeStop: () => Promise<void> = async () => {},
): Promise<ProcessStart> {
  // As `npm start` does: the compiled build brought up to date first (bin/refmatch.js would otherwise
  // run the sources through tsx), outside the timing.
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.js'), '--if-stale'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the build failed');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/refmatch.js'), 'serve'], {
    cwd: ROOT,
    env: {
      ...benchServerEnv(port),
      DATABASE_URL: databaseUrl,
      INDEX_SNAPSHOT_DIR: snapshotDir,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  try {
    const deadline = t + 30 * 60_000;
    let readyMs = 0;
    let readyCpuMs = 0;
    while (!readyMs) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      if (performance.now() > deadline) throw new Error('the server was not ready within 30 minutes');
      try {
        if ((await fetch(`${base}/readyz`)).status === 200) {
          readyMs = performance.now() - t;
          readyCpuMs = processCpuMs(child.pid!);
        }
      } catch {
        // not listening yet
      }
      if (!readyMs) await sleep(100);
    }
    for (;;) {
      const { body, contentType } = multipartBody([
        ['folder', 'Restart bench'],
        ['origin_id', 'restart-bench'],
        ['title', 'Discourse parsing for statistical machine translation'],
        [
          'abstract',
          'We study how discourse structure helps the translation and summarization of long texts.',
        ],
        ['authors_count', '1'],
        ['author1_name', 'Ann Example'],
      ]);
      const res = await fetch(`${base}/api/external/proposal/`, {
        method: 'POST',
        headers: { 'x-apikey': apiKey, 'content-type': contentType },
        body,
      });
      const answer = (await res.json()) as { candidates?: unknown[] | null };
      if (res.status === 200 && (answer.candidates?.length ?? 0) > 0) {
        const figures = {
          readyMs,
          readyCpuMs,
          candidatesMs: performance.now() - t,
          candidates: answer.candidates!.length,
          rssMb: processRssMb(child.pid!),
        };
        await beforeStop();
        return figures;
      }
      if (performance.now() > t + readyMs + 30_000) {
        if (res.status !== 200) throw new Error(`the upload failed: ${res.status}`);
        const figures = {
          readyMs,
          readyCpuMs,
          candidatesMs: null,
          candidates: 0,
          rssMb: processRssMb(child.pid!),
        };
        await beforeStop();
        return figures;
      }
      await sleep(100);
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** Waits (up to 10 minutes) for the snapshot the first server writes after it served. */
async function waitForFile(file: string): Promise<void> {
  const deadline = Date.now() + 600_000;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`no ${file} after 10 minutes`);
    await sleep(500);
  }
}

/**
 * The disk's own read speed for the snapshot, past the page cache (dd with O_DIRECT): what a start
 * after a reboot reads at, where the runs above read a file just written, from memory.
 */
function directReadSpeed(file: string): string {
  const dd = spawnSync('dd', [`if=${file}`, 'of=/dev/null', 'bs=8M', 'iflag=direct'], { encoding: 'utf8' });
  const line = dd.stderr?.split('\n').find((l) => l.includes('copied'));
  return dd.status === 0 && line
    ? line.trim()
    : `not measured (dd: ${dd.error?.message ?? dd.stderr?.trim()})`;
}

/** The three in-process index starts (DbWorkIndex.start): built, from the snapshot, caught up. */
async function inProcess(
  db: Database,
  dir: string,
  query: BenchWork,
  n: number,
  total: number,
  acl: BenchWork[],
  out: string[],
): Promise<void> {
  const built = await startOnce(db, dir, query, true);
  console.error(`built from the database in ${s(built.wallMs)} s; load ${load()}`);
  const loaded = await startOnce(db, dir, query, false);
  console.error(`read from the snapshot in ${s(loaded.wallMs)} s; load ${load()}`);

  const t = performance.now();
  const extra = [...scaleUp(acl, ADDED, total + 1, 7)];
  await loadWorks(db, extra);
  out.push(`${ADDED.toLocaleString('en')} works added after the snapshot in ${s(performance.now() - t)} s.`);
  const direct = directReadSpeed(path.join(dir, SNAPSHOT_FILE));
  const caughtUp = await startOnce(db, dir, query, false);
  console.error(`read from the snapshot and caught up in ${s(caughtUp.wallMs)} s; load ${load()}`);

  if (built.startup.source !== 'database' || loaded.startup.source !== 'snapshot')
    throw new Error(`unexpected start sources: ${built.startup.source}, ${loaded.startup.source}`);
  if (caughtUp.startup.source !== 'snapshot' || caughtUp.works !== n + ADDED)
    throw new Error(`catch-up start: ${caughtUp.startup.source}, ${caughtUp.works} works`);
  if (loaded.topHit !== built.topHit) throw new Error('the snapshot answers another top hit');

  const row = (label: string, f: StartFigures) =>
    `| ${label} | ${s(f.wallMs)} | ${s(f.cpuMs)} | ${s(f.startup.snapshotMs)} | ${s(f.startup.databaseMs)} | ${f.startup.fromDatabase.upserted.toLocaleString('en')} | ${f.works.toLocaleString('en')} | ${f.rssMb.toFixed(0)} |`;
  const write = built.snapshotWrite as { ms: number; bytes: number } | null;
  out.push(
    '',
    '| start | wall s | CPU s (all threads) | snapshot read s | database s | works read from the database | works served | RSS after, MB |',
    '|---|---|---|---|---|---|---|---|',
    row('no snapshot: built from the database', built),
    row('snapshot read, nothing to catch up', loaded),
    row(`snapshot read, ${ADDED.toLocaleString('en')} works caught up`, caughtUp),
    '',
    `Ratio snapshot start / full build: **${(loaded.wallMs / built.wallMs).toFixed(3)}** (with the catch-up: ${(caughtUp.wallMs / built.wallMs).toFixed(3)}).`,
    `Snapshot file: ${write ? `${mb(write.bytes)} MB, written in ${s(write.ms)} s (in the background, after the start)` : 'not written?'}; read at ${loaded.startup.snapshotMs > 0 ? ((loaded.startup.snapshotBytes / 2 ** 20 / loaded.startup.snapshotMs) * 1000).toFixed(0) : '-'} MB/s with checksums (from the page cache: the file was just written).`,
    `Reading the snapshot file past the page cache (dd iflag=direct, what a start after a reboot would read at): ${direct}.`,
  );
}

/**
 * The whole serving process, spawned twice over the database: with an empty snapshot directory (the
 * index built from the database; the snapshot it then writes is waited for), then with that snapshot.
 * The fixture's eight ACL works with their authors are ingested first, so that an upload has candidates.
 */
async function serverProcesses(db: Database, url: string, out: string[]): Promise<void> {
  const scenario = await seedScenario(db, 'Restart bench');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'refmatch-bench-restart-process-'));
  try {
    const built = await startProcess(url, dir, scenario.apiKey, () =>
      waitForFile(path.join(dir, SNAPSHOT_FILE)),
    );
    console.error(`server without a snapshot: ready in ${s(built.readyMs)} s; load ${load()}`);
    const loaded = await startProcess(url, dir, scenario.apiKey);
    console.error(`server with the snapshot: ready in ${s(loaded.readyMs)} s; load ${load()}`);
    const row = (label: string, f: ProcessStart) =>
      `| ${label} | ${s(f.readyMs)} | ${f.candidatesMs === null ? 'none within 30 s' : s(f.candidatesMs)} | ${s(f.readyCpuMs)} | ${f.candidates} | ${f.rssMb.toFixed(0)} |`;
    out.push(
      '',
      'The serving process (`node bin/refmatch.js serve`, compiled; DATABASE_URL, INDEX_SNAPSHOT_DIR), from the spawn:',
      '',
      '| server start | to /readyz 200, s | to the first upload with candidates, s | process CPU s when ready | candidates | RSS, MB |',
      '|---|---|---|---|---|---|',
      row('no snapshot (empty directory): index built from the database', built),
      row('the snapshot the first start wrote', loaded),
      '',
      `Ratio server start with / without the snapshot: **${(loaded.readyMs / built.readyMs).toFixed(3)}** to /readyz, ${loaded.candidatesMs !== null && built.candidatesMs !== null ? (loaded.candidatesMs / built.candidatesMs).toFixed(3) : '-'} to the first candidates.`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main() {
  const out: string[] = [
    `## bench:restart, ${new Date().toISOString()}`,
    `Node ${process.version}, ${os.cpus().length} cores; load average at start ${load()}`,
    '',
  ];
  const acl = readAclWorks();
  const total = Math.max(TOTAL, acl.length);
  const works = function* (): Generator<BenchWork> {
    yield* acl;
    yield* scaleUp(acl, total - acl.length, acl.length + 1);
  };
  const bench = await openBenchDatabase();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'refmatch-bench-restart-snapshot-'));
  try {
    const { db } = bench;
    await migrate(db);
    const t = performance.now();
    const n = await loadWorks(db, works());
    await db.exec('ANALYZE works');
    out.push(
      `Corpus: ${n.toLocaleString('en')} works in ${bench.label}, loaded in ${s(performance.now() - t)} s.`,
    );
    console.error(`loaded ${n} works; load ${load()}`);

    const query = acl[Math.floor(acl.length / 2)]!;
    if (!processOnly) await inProcess(db, dir, query, n, total, acl, out);
    if (bench.url) await serverProcesses(db, bench.url, out);
    out.push(`Load average at end ${load()}.`);
  } finally {
    await bench.drop();
    await rm(dir, { recursive: true, force: true });
  }
  console.log(out.join('\n'));
}

await main();
