// npm run bench:soak: a realistic mix at 8 clients against a real server process (`refmatch serve`
// on 127.0.0.1), first on PGlite (its own data directory), then on server PostgreSQL (a fresh
// database on DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test, dropped afterwards).
// Every 30 s it prints throughput, p50/p95/p99 latency, errors and the server process's RSS; at the
// end, whether errors = 0 and RSS stayed flat.
//
// The mix per request: uploads with metadata and authors (4.5; 1 in 3 carries a small PDF or DOCX),
// author-from-group replace / read / partial / delete (4.2-4.4), the custom fields list (4.7) and
// journal recommendations for a manuscript the client uploaded (4.6). Any answer other than 2xx, or a
// failed connection, is an error.
//
// The server runs with its rate limits off (RATE_LIMIT_PER_KEY=0, RATE_LIMIT_PER_ADDRESS=0): eight
// clients on one key from one address exceed the documented defaults by design, and the soak
// measures the service, not the limiter.
//
// Warm-up: the first 2 minutes (or the first fifth of a shorter run). RSS is "flat" when every
// sample after the warm-up is within 10% of the RSS at the end of the warm-up; the drift (median RSS
// of the last third of the samples after the warm-up over that of the first third) tells growth from
// the garbage collector's sawtooth. RSS is also read every second: each 30-s window's lowest reading
// (its floor: what the process keeps after the collector has run) is what a leak raises, so the
// floors are "flat" when every window's floor after the warm-up is within 10% of the warm-up's last
// floor. Both rules are printed; neither replaces the other.
//
// Every window also prints the server's memory by kind from its /metrics (heap, external, array
// buffers, PGlite's WebAssembly memory, the parser workers' heaps); the end table its CPU per request.
//
// Options: --minutes N (default 10), --clients N (default 8), --interval S (default 30),
// --drivers pglite,postgres (default both; postgres is skipped with a message when unreachable),
// --heap-snapshots DIR (heap snapshots of the server's main thread at the start, the end of the
// warm-up and the end; they cost RSS, so such a run's RSS figures mean little), --node-flags="…"
// (V8 or Node flags for the server process, for experiments).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { benchServerEnv, freePort } from './lib/served-process.ts';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase, type Database } from '../src/infra/db/index.ts';
import { migrate } from '../src/infra/db/migrate.ts';
import { seededRandom } from '../src/retrieval/seeded-random.ts';
import { multipartBody, seedScenario, smallManuscriptFiles, type Scenario } from '../test/fuzz/scenario.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    clients: { type: 'string', default: '8' },
    interval: { type: 'string', default: '30' },
    drivers: { type: 'string', default: 'pglite,postgres' },
    'heap-snapshots': { type: 'string' },
    'node-flags': { type: 'string', default: '' },
  },
});
const MINUTES = Number(args.minutes);
const CLIENTS = Number(args.clients);
const INTERVAL_S = Number(args.interval);
const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const WARMUP_S = Math.min(120, (MINUTES * 60) / 5);
const BASELINE_S = 10;
const SNAPSHOT_DIR = args['heap-snapshots'] ? path.resolve(args['heap-snapshots']) : null;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** The server's memory by kind, from its /metrics (MB): what RSS alone cannot tell apart. */
async function memorySplit(base: string): Promise<string> {
  try {
    const text = await (await fetch(`${base}/metrics`)).text();
    const value = (name: string) => {
      const m = new RegExp(`^${name} ([0-9.e+]+)$`, 'm').exec(text);
      return m ? (Number(m[1]) / 2 ** 20).toFixed(0) : '-';
    };
    return (
      `heap used ${value('nodejs_heap_size_used_bytes')} of ${value('nodejs_heap_size_total_bytes')}, ` +
      `external ${value('nodejs_external_memory_bytes')} (array buffers ${value('refmatch_process_array_buffers_bytes')}), ` +
      `PGlite ${value('refmatch_database_memory_bytes')}, parser workers ${value('refmatch_parser_workers_retained_bytes')}, ` +
      `index arrays ${value('refmatch_index_array_bytes')} MB`
    );
  } catch (err) {
    return `memory split unavailable (${(err as Error).message})`;
  }
}

/** Writes a heap snapshot of the server's main thread (--heap-snapshots DIR) and waits for it. */
async function heapSnapshot(pid: number, base: string, label: string): Promise<void> {
  if (!SNAPSHOT_DIR) return;
  const started = performance.now();
  process.kill(pid, 'SIGUSR2');
  // The snapshot is written on the server's main thread: /healthz answers once it is done.
  await new Promise((r) => setTimeout(r, 500));
  await (await fetch(`${base}/healthz`)).arrayBuffer();
  console.log(`heap snapshot (${label}) written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** CPU seconds the process has used (user + system, every thread), from /proc/PID/stat (USER_HZ 100). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const nodeFlags = args['node-flags'].split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeFlags, path.join(ROOT, 'bin/refmatch.js'), 'serve'], {
    cwd: ROOT,
    env: {
      ...benchServerEnv(port),
      // Passed through so that runs can compare the embedded database's cache sizes and heap growth.
      ...(process.env.PGLITE_SHARED_BUFFERS_MB
        ? { PGLITE_SHARED_BUFFERS_MB: process.env.PGLITE_SHARED_BUFFERS_MB }
        : {}),
      ...(process.env.HEAP_GROWING_PERCENT ? { HEAP_GROWING_PERCENT: process.env.HEAP_GROWING_PERCENT } : {}),
      ...(SNAPSHOT_DIR
        ? { NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${SNAPSHOT_DIR}` }
        : {}),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { child, base };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error('the server did not answer /healthz within 120 s');
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

interface Sample {
  ms: number;
  ok: boolean;
}

interface Operation {
  name: string;
  weight: number;
}

const MIX: Operation[] = [
  { name: 'upload', weight: 14 },
  { name: 'upload+pdf', weight: 4 },
  { name: 'upload+docx', weight: 4 },
  { name: 'author replace', weight: 22 },
  { name: 'author read', weight: 18 },
  { name: 'author partial', weight: 8 },
  { name: 'author delete', weight: 6 },
  { name: 'custom fields', weight: 10 },
  { name: 'journals', weight: 14 },
];
const TOTAL_WEIGHT = MIX.reduce((s, o) => s + o.weight, 0);

class Client {
  private readonly random: () => number;
  private readonly authors: string[] = [];
  private readonly manuscripts: string[] = [];
  private n = 0;
  readonly failures = new Map<string, number>();

  constructor(
    private readonly id: number,
    private readonly base: string,
    private readonly scenario: Scenario,
    private readonly files: { pdf: Uint8Array; docx: Uint8Array },
  ) {
    // One deterministic generator per client, so a run's mix can be repeated.
    this.random = seededRandom(1000 + id);
  }

  private pick(): string {
    let r = this.random() * TOTAL_WEIGHT;
    for (const op of MIX) {
      r -= op.weight;
      if (r < 0) return op.name;
    }
    return MIX[0]!.name;
  }

  private authorBody(n: number): Record<string, unknown> {
    const [num, str, date, single, multi] = this.scenario.fields;
    return {
      name: `Yang Liu ${n}`,
      emails: [`yang.liu.${this.id}.${n}@example.org`],
      orcids: [],
      articles: ['Discourse parsing for statistical machine translation'],
      affiliations: ['University of Edinburgh'],
      [num!.api_id]: n,
      [str!.api_id]: `note ${n}`,
      [date!.api_id]: '2024-05-01',
      [single!.api_id]: single!.options![n % 3]!.api_id,
      [multi!.api_id]: [multi!.options![0]!.api_id, multi!.options![2]!.api_id],
    };
  }

  /** One request of the mix; returns its name and whether it succeeded (2xx). */
  async step(): Promise<{ op: string; ok: boolean; status: number }> {
    let op = this.pick();
    if (
      (op === 'author read' || op === 'author partial' || op === 'author delete') &&
      this.authors.length === 0
    ) {
      op = 'author replace';
    }
    if (op === 'journals' && this.manuscripts.length === 0) op = 'upload';
    const n = ++this.n;
    const headers = { 'x-apikey': this.scenario.apiKey };
    const authorUrl = (clientId: string) =>
      `${this.base}/api/external/author-from-group/${this.scenario.groupId}/${clientId}/`;
    let res: Response;
    switch (op) {
      case 'upload':
      case 'upload+pdf':
      case 'upload+docx': {
        const originId = `soak-${this.id}-${n}`;
        const fields: Array<[string, string]> = [
          ['folder', `Soak folder ${n % 5}`],
          ['origin_id', originId],
          ['title', 'Discourse-aware neural machine translation and summarization'],
          ['abstract', 'We study how discourse structure helps translation and summarization of long texts.'],
          ['authors_count', '2'],
          ['author1_name', 'Mirella Lapata'],
          ['author1_aff', 'University of Edinburgh'],
          ['author1_email', `lapata.${this.id}@example.org`],
          ['author2_name', 'Ann Example'],
          ['author2_aff', 'Example University'],
        ];
        const file =
          op === 'upload+pdf'
            ? { name: 'manuscript.pdf', type: 'application/pdf', bytes: this.files.pdf }
            : op === 'upload+docx'
              ? {
                  name: 'manuscript.docx',
                  type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
                  bytes: this.files.docx,
                }
              : undefined;
        const { body, contentType } = multipartBody(fields, file);
        res = await fetch(`${this.base}/api/external/proposal/`, {
          method: 'POST',
          headers: { ...headers, 'content-type': contentType },
          body,
        });
        if (res.ok) this.manuscripts.push(originId);
        break;
      }
      case 'author replace': {
        const clientId = `c${this.id}-${n}`;
        res = await fetch(authorUrl(clientId), {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(this.authorBody(n)),
        });
        if (res.ok) this.authors.push(clientId);
        break;
      }
      case 'author read':
        res = await fetch(authorUrl(this.authors[Math.floor(this.random() * this.authors.length)]!), {
          headers,
        });
        break;
      case 'author partial':
        res = await fetch(
          `${authorUrl(this.authors[Math.floor(this.random() * this.authors.length)]!)}partial/`,
          {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({ affiliations: ['Microsoft Research'] }),
          },
        );
        break;
      case 'author delete': {
        const clientId = this.authors.splice(Math.floor(this.random() * this.authors.length), 1)[0]!;
        res = await fetch(authorUrl(clientId), { method: 'DELETE', headers });
        break;
      }
      case 'custom fields':
        res = await fetch(`${this.base}/api/external/custom-fields/all/`, { headers });
        break;
      default: {
        const originId = this.manuscripts[Math.floor(this.random() * this.manuscripts.length)]!;
        res = await fetch(`${this.base}/api/external/recommend-journals/${originId}/?limit=10`, { headers });
      }
    }
    await res.arrayBuffer();
    return { op, ok: res.ok, status: res.status };
  }
}

async function baselineRate(base: string): Promise<number> {
  let n = 0;
  const until = performance.now() + BASELINE_S * 1000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < until) {
        await (await fetch(`${base}/healthz`)).arrayBuffer();
        n++;
      }
    }),
  );
  return n / ((performance.now() - start) / 1000);
}

interface SoakResult {
  driver: string;
  requests: number;
  errors: number;
  rps: number;
  healthzRps: number;
  p50: number;
  p95: number;
  p99: number;
  rssWarm: number;
  rssMin: number;
  rssMax: number;
  rssEnd: number;
  /** Median RSS of the last third after the warm-up over that of the first third, minus one. */
  rssDrift: number;
  flat: boolean;
  /** The warm-up's last window floor, and every later floor's least and greatest. */
  floorWarm: number;
  floorMin: number;
  floorMax: number;
  floorsFlat: boolean;
  /** The server's CPU time over the mix per request, in ms (wall time on a shared machine lies). */
  cpuMsPerRequest: number;
  failures: Map<string, number>;
}

async function soak(driver: string, base: string, pid: number, scenario: Scenario): Promise<SoakResult> {
  const healthzRps = await baselineRate(base);
  console.log(`[${driver}] baseline GET /healthz at ${CLIENTS} clients: ${healthzRps.toFixed(0)} req/s`);
  console.log(`[${driver}] before the mix: RSS ${rssMb(pid).toFixed(0)} MB, ${await memorySplit(base)}`);
  await heapSnapshot(pid, base, `${driver}, start`);
  const files = smallManuscriptFiles();
  const clients = Array.from({ length: CLIENTS }, (_, i) => new Client(i, base, scenario, files));
  const cpuAtStart = cpuSeconds(pid);
  const started = performance.now();
  const until = started + MINUTES * 60_000;
  let window: Sample[] = [];
  const all: number[] = [];
  let errors = 0;
  const failures = new Map<string, number>();
  const rss: Array<{ t: number; mb: number }> = [];
  const floors: Array<{ t: number; mb: number }> = [];
  let windowFloor = Infinity;
  const floorTimer = setInterval(() => {
    windowFloor = Math.min(windowFloor, rssMb(pid));
  }, 1000);
  let lastTick = started;
  const tick = async () => {
    const now = performance.now();
    const lat = window.map((s) => s.ms).sort((a, b) => a - b);
    const windowErrors = window.filter((s) => !s.ok).length;
    const mb = rssMb(pid);
    const t = (now - started) / 1000;
    rss.push({ t, mb });
    const floor = Math.min(windowFloor, mb);
    // The last window ends with the run and may last a moment: one reading is no floor.
    if (now - lastTick >= (INTERVAL_S * 1000) / 2) floors.push({ t, mb: floor });
    windowFloor = Infinity;
    console.log(
      `[${driver}] t=${t.toFixed(0).padStart(4)}s  ${(window.length / ((now - lastTick) / 1000)).toFixed(1).padStart(7)} req/s` +
        `  p50 ${percentile(lat, 50).toFixed(0)} ms  p95 ${percentile(lat, 95).toFixed(0)} ms  p99 ${percentile(lat, 99).toFixed(0)} ms` +
        `  errors ${windowErrors} (total ${errors})  RSS ${mb.toFixed(0)} MB (floor ${floor.toFixed(0)})${t <= WARMUP_S + 1 ? ' (warm-up)' : ''}`,
    );
    window = [];
    lastTick = now;
    console.log(`[${driver}]          ${await memorySplit(base)}`);
  };
  const timer = setInterval(() => void tick(), INTERVAL_S * 1000);
  const warmSnapshot = setTimeout(
    () => void heapSnapshot(pid, base, `${driver}, end of warm-up`),
    WARMUP_S * 1000 + 5000,
  );
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < until) {
        const t0 = performance.now();
        let ok = false;
        let label: string;
        try {
          const r = await client.step();
          ok = r.ok;
          label = `${r.op} ${r.status}`;
        } catch (err) {
          label = `connection: ${(err as Error).message}`;
        }
        const ms = performance.now() - t0;
        window.push({ ms, ok });
        all.push(ms);
        if (!ok) {
          errors++;
          failures.set(label, (failures.get(label) ?? 0) + 1);
        }
      }
    }),
  );
  const serverCpu = cpuSeconds(pid) - cpuAtStart;
  clearInterval(timer);
  clearTimeout(warmSnapshot);
  if (window.length > 0) await tick();
  clearInterval(floorTimer);
  await heapSnapshot(pid, base, `${driver}, end`);
  const elapsed = (performance.now() - started) / 1000;
  all.sort((a, b) => a - b);
  const afterWarmup = rss.filter((s) => s.t > WARMUP_S + 1);
  const warm = rss.filter((s) => s.t <= WARMUP_S + 1).at(-1)?.mb ?? rss[0]!.mb;
  const mbs = afterWarmup.map((s) => s.mb);
  const flat = mbs.every((mb) => Math.abs(mb - warm) <= warm * 0.1);
  // Every sample is one point of the garbage collector's sawtooth; the drift compares levels, which
  // is what tells a leak (or a cache still filling) from in-flight memory.
  const third = Math.max(1, Math.floor(mbs.length / 3));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rssDrift = mbs.length ? median(mbs.slice(-third)) / median(mbs.slice(0, third)) - 1 : 0;
  const floorWarm = floors.filter((s) => s.t <= WARMUP_S + 1).at(-1)?.mb ?? floors[0]!.mb;
  const laterFloors = floors.filter((s) => s.t > WARMUP_S + 1).map((s) => s.mb);
  const floorsFlat = laterFloors.every((mb) => Math.abs(mb - floorWarm) <= floorWarm * 0.1);
  return {
    driver,
    requests: all.length,
    errors,
    rps: all.length / elapsed,
    healthzRps,
    p50: percentile(all, 50),
    p95: percentile(all, 95),
    p99: percentile(all, 99),
    rssWarm: warm,
    rssMin: Math.min(...mbs, warm),
    rssMax: Math.max(...mbs, warm),
    rssEnd: rss.at(-1)!.mb,
    rssDrift,
    flat,
    floorWarm,
    floorMin: Math.min(...laterFloors, floorWarm),
    floorMax: Math.max(...laterFloors, floorWarm),
    floorsFlat,
    cpuMsPerRequest: (serverCpu * 1000) / Math.max(1, all.length),
    failures,
  };
}

async function seed(db: Database): Promise<Scenario> {
  try {
    await migrate(db);
    return await seedScenario(db, 'Soak');
  } finally {
    await db.close();
  }
}

async function runPglite(): Promise<SoakResult> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'refmatch-soak-'));
  try {
    const scenario = await seed(await openDatabase({ databaseUrl: null, dataDir: dir }));
    const { child, base } = await startServer({ REFMATCH_DATA_DIR: dir });
    try {
      return await soak('pglite', base, child.pid!, scenario);
    } finally {
      await stopServer(child);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function runPostgres(): Promise<SoakResult | null> {
  const admin = new pg.Client({ connectionString: SERVER_URL });
  try {
    await admin.connect();
  } catch (err) {
    console.log(`[postgres] skipped: ${SERVER_URL} is not reachable (${(err as Error).message})`);
    return null;
  }
  const name = `refmatch_soak_${process.pid}_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  try {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'refmatch-soak-'));
    const scenario = await seed(await openDatabase({ databaseUrl: url.toString(), dataDir: dir }));
    const { child, base } = await startServer({ DATABASE_URL: url.toString(), REFMATCH_DATA_DIR: dir });
    try {
      return await soak('postgres', base, child.pid!, scenario);
    } finally {
      await stopServer(child);
      await rm(dir, { recursive: true, force: true });
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

const load = os.loadavg();
console.log(
  `bench:soak ${new Date().toISOString()}: ${MINUTES} min per driver, ${CLIENTS} clients, every ${INTERVAL_S} s; ` +
    `warm-up ${WARMUP_S} s; load average ${load.map((l) => l.toFixed(1)).join(' / ')} on ${os.cpus().length} cores; ` +
    'rate limits off (RATE_LIMIT_PER_KEY=0, RATE_LIMIT_PER_ADDRESS=0)',
);
const results: SoakResult[] = [];
for (const driver of args.drivers.split(',')) {
  const result = driver === 'pglite' ? await runPglite() : await runPostgres();
  if (result) results.push(result);
}
console.log(
  '\n| driver | requests | req/s | vs /healthz | server CPU ms/request | p50 ms | p95 ms | p99 ms | errors | RSS after warm-up → min / max / end (MB) | RSS drift | flat (±10%) | window floors after warm-up → min / max (MB) | floors flat (±10%) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  console.log(
    `| ${r.driver} | ${r.requests} | ${r.rps.toFixed(1)} | ${(r.rps / r.healthzRps).toFixed(3)} (${r.healthzRps.toFixed(0)}) | ${r.cpuMsPerRequest.toFixed(2)} | ` +
      `${r.p50.toFixed(0)} | ${r.p95.toFixed(0)} | ${r.p99.toFixed(0)} | ${r.errors} | ` +
      `${r.rssWarm.toFixed(0)} → ${r.rssMin.toFixed(0)} / ${r.rssMax.toFixed(0)} / ${r.rssEnd.toFixed(0)} | ${(r.rssDrift * 100).toFixed(1)}% | ${r.flat ? 'yes' : 'NO'} | ` +
      `${r.floorWarm.toFixed(0)} → ${r.floorMin.toFixed(0)} / ${r.floorMax.toFixed(0)} | ${r.floorsFlat ? 'yes' : 'NO'} |`,
  );
  for (const [label, count] of r.failures) console.log(`  ${r.driver} error: ${label} x${count}`);
}
console.log(
  `load average at the end: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')}`,
);
const failed = results.some((r) => r.errors > 0 || !r.flat);
console.log(failed ? 'TARGET MISSED (errors > 0 or RSS not flat)' : 'target met: 0 errors, RSS flat');
const floorsFailed = results.some((r) => r.errors > 0 || !r.floorsFlat);
console.log(
  floorsFailed
    ? 'by window floors: MISSED (errors > 0 or a floor moved more than 10%)'
    : 'by window floors: 0 errors, every floor within 10%',
);
process.exitCode = failed ? 1 : 0;
