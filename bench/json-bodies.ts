// A flood of large JSON bodies sent with one valid API key, against a real `refmatch serve` on
// PGlite with the default rate limits: how much of the machine the flood takes, and how long a
// request of another client (another address) waits meanwhile, against the same request on the idle
// server in the same run (the ratio).
//
//   npx tsx bench/json-bodies.ts [--seconds 30] [--clients 4] [--shape keys|padded]
//   BENCH_ROOT=<another checkout> npx tsx bench/json-bodies.ts   (the same flood against its server)
//
// Shapes, each just under the 1 MiB body limit: `keys`, a record of 80,000 unknown keys (the costliest
// body found: parsed, then validated key by key, then refused 400); `padded`, a valid record padded
// with whitespace (parsed, saved).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/infra/db/index.ts';
import { migrate } from '../src/infra/db/migrate.ts';
import { seedScenario, type Scenario } from '../test/fuzz/scenario.ts';
import { benchServerEnv, freePort } from './lib/served-process.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '30' },
    clients: { type: 'string', default: '4' },
    shape: { type: 'string', default: 'keys' },
  },
});
const SECONDS = Number(args.seconds);
const CLIENTS = Number(args.clients);
const ROOT = process.env.BENCH_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BODY_LIMIT = 1024 * 1024;

function body(shape: string): string {
  if (shape === 'padded') {
    const record = JSON.stringify({ name: 'A large record' });
    return record + ' '.repeat(BODY_LIMIT - 64 - record.length);
  }
  const keys: string[] = ['"name":"A"'];
  for (let i = 0, bytes = 0; bytes < BODY_LIMIT - 200; i++) {
    const key = `"k${i}":"v"`;
    keys.push(key);
    bytes += key.length + 1;
  }
  return `{${keys.join(',')}}`;
}

/** CPU seconds of a process, every thread (from /proc; USER_HZ 100). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Answer {
  status: number;
  ms: number;
}

/** One request over a keep-alive agent, from `localAddress`. */
function send(
  agent: http.Agent,
  port: number,
  options: {
    method: string;
    path: string;
    headers?: Record<string, string>;
    body?: string;
    localAddress: string;
  },
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        agent,
        method: options.method,
        path: options.path,
        headers: options.headers,
        localAddress: options.localAddress,
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }),
        );
      },
    );
    request.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    request.end(options.body);
  });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** A request of another client (another address) every 100 ms for `seconds`: the event loop's wait. */
async function probe(port: number, seconds: number): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const answer = await send(agent, port, {
      method: 'GET',
      path: '/healthz',
      localAddress: '127.0.0.2',
    });
    if (answer.status === 200) times.push(answer.ms);
    await new Promise((r) => setTimeout(r, 100));
  }
  agent.destroy();
  return times;
}

async function flood(
  port: number,
  scenario: Scenario,
  payload: string,
  seconds: number,
): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  const until = performance.now() + seconds * 1000;
  const headers = {
    'x-apikey': scenario.apiKey,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(payload)),
  };
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, i) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      while (performance.now() < until) {
        const path = `/api/external/author-from-group/${scenario.groupId}/flood-${i}/`;
        const answer = await send(agent, port, {
          method: 'POST',
          path,
          headers,
          body: payload,
          localAddress: '127.0.0.1',
        });
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      }
      agent.destroy();
    }),
  );
  return statuses;
}

async function startServer(dir: string): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/refmatch.js'), 'serve'], {
    cwd: ROOT,
    // The default rate limits, which benchServerEnv turns off for the benches that measure speed.
    env: {
      ...benchServerEnv(port),
      RATE_LIMIT_PER_KEY: '1200',
      RATE_LIMIT_PER_ADDRESS: '2400',
      REFMATCH_DATA_DIR: dir,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const agent = new http.Agent();
    const answer = await send(agent, port, { method: 'GET', path: '/healthz', localAddress: '127.0.0.1' });
    if (answer.status === 200) return { child, port };
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error('the server did not answer /healthz within 120 s');
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'refmatch-json-bodies-'));
try {
  const db = await openDatabase({ databaseUrl: null, dataDir: dir });
  let scenario: Scenario;
  try {
    await migrate(db);
    scenario = await seedScenario(db, 'JSON bodies');
  } finally {
    await db.close();
  }
  const { child, port } = await startServer(dir);
  try {
    const payload = body(args.shape);
    const idle = await probe(port, Math.min(10, SECONDS));
    const cpuBefore = cpuSeconds(child.pid!);
    const started = performance.now();
    const [statuses, loaded] = await Promise.all([
      flood(port, scenario, payload, SECONDS),
      probe(port, SECONDS),
    ]);
    const wall = (performance.now() - started) / 1000;
    const cpu = cpuSeconds(child.pid!) - cpuBefore;
    const answered = [...statuses.values()].reduce((a, b) => a + b, 0);
    console.log(`JSON body flood, ${ROOT}, ${new Date().toISOString()}, load ${os.loadavg()[0]!.toFixed(1)}`);
    console.log(
      `shape ${args.shape} (${(payload.length / 1e6).toFixed(2)} MB), ${CLIENTS} clients, one key, ${SECONDS} s`,
    );
    console.log(
      `flood answers: ${answered} (${[...statuses].map(([s, n]) => `${s}: ${n}`).join(', ')}); ` +
        `server CPU ${cpu.toFixed(1)} s in ${wall.toFixed(1)} s wall (${(cpu / wall).toFixed(2)} cores)`,
    );
    const line = (label: string, times: number[]) =>
      `${label}: ${times.length} answers, p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`;
    console.log(line("another client's /healthz, idle", idle));
    console.log(line("another client's /healthz, during the flood", loaded));
    console.log(
      `ratio flood / idle: p50 ${(percentile(loaded, 50) / percentile(idle, 50)).toFixed(1)}x, p99 ${(percentile(loaded, 99) / percentile(idle, 99)).toFixed(1)}x`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
