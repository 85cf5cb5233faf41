// npm run bench:fuzz: the fuzz of test/system/fuzz.test.ts at volume: 10,000 generated requests per
// /api/external endpoint (valid-shaped and hostile, from the app's OpenAPI document; see
// test/fuzz/generator.ts), in process through inject, on PGlite and then on server PostgreSQL
// (DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test when reachable, in a fresh database
// dropped afterwards). Prints the count of each status per endpoint, every 5xx or off-contract answer
// with the seed that rebuilds its request, and each endpoint's throughput beside the same number of
// GET /healthz in the same run.
//
// The rate limits are off (RATE_LIMIT_PER_KEY, RATE_LIMIT_PER_ADDRESS and AUTH_FAILURES_PER_ADDRESS
// at 0): the fuzz comes from one address with some wrong keys, and measures the service, not the
// limiter.
//
// Options: --count N (default 10000), --concurrency N (default 8), --drivers pglite,postgres,
// --pg (postgres only), --seed N (first seed, default 20261124),
// --endpoint "METHOD /path" --only-seed N: send that one request and print it with its answer.
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/infra/db/index.ts';
import { openPglite } from '../src/infra/db/pglite.ts';
import { openPostgres } from '../src/infra/db/postgres.ts';
import { migrate } from '../src/infra/db/migrate.ts';
import { seedRecords, seedScenario } from '../test/fuzz/scenario.ts';
import {
  externalEndpoints,
  fuzzEndpoint,
  requestArbitrary,
  requestFor,
  ResponseChecker,
  type FuzzOutcome,
} from '../test/fuzz/generator.ts';
import { benchAppConfig } from './lib/bench-config.ts';

const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '8' },
    drivers: { type: 'string', default: 'pglite,postgres' },
    pg: { type: 'boolean', default: false },
    seed: { type: 'string', default: '20261124' },
    endpoint: { type: 'string' },
    'only-seed': { type: 'string' },
  },
});
const COUNT = Number(args.count);
const CONCURRENCY = Number(args.concurrency);
const FIRST_SEED = Number(args.seed);
const DRIVERS = args.pg ? ['postgres'] : args.drivers.split(',');
const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

interface EndpointResult {
  endpoint: string;
  statuses: Map<number, number>;
  rps: number;
  problems: FuzzOutcome[];
}

async function appOver(db: Database): Promise<FastifyInstance> {
  await migrate(db);
  const config = benchAppConfig({ AUTH_FAILURES_PER_ADDRESS: '0' });
  const app = await buildApp({ config, db });
  await app.ready();
  return app;
}

async function healthzRate(app: FastifyInstance): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < COUNT) await app.inject({ method: 'GET', url: '/healthz' });
    }),
  );
  return COUNT / ((performance.now() - start) / 1000);
}

async function fuzzDriver(driver: string, db: Database): Promise<void> {
  const app = await appOver(db);
  try {
    const scenario = await seedScenario(db);
    const ctx = { scenario, ...(await seedRecords(app, scenario)) };
    const doc = app.swagger();
    const checker = new ResponseChecker(doc);
    const endpoints = externalEndpoints(doc);
    if (args.endpoint !== undefined && args['only-seed'] !== undefined) {
      const endpoint = endpoints.find((e) => e.key === args.endpoint);
      if (!endpoint)
        throw new Error(`no endpoint ${args.endpoint}; known: ${endpoints.map((e) => e.key).join(', ')}`);
      const request = requestFor(requestArbitrary(endpoint, ctx), Number(args['only-seed']));
      const res = await app.inject(request as InjectOptions);
      console.log({ ...request, payload: String(request.payload ?? '').slice(0, 2000) });
      console.log(res.statusCode, res.headers['content-type'], res.body.slice(0, 2000));
      return;
    }
    const healthz = await healthzRate(app);
    console.log(
      `[${driver}] baseline: ${COUNT} x GET /healthz at ${CONCURRENCY} in flight: ${healthz.toFixed(0)} req/s`,
    );
    const results: EndpointResult[] = [];
    for (const [i, endpoint] of endpoints.entries()) {
      const result: EndpointResult = { endpoint: endpoint.key, statuses: new Map(), rps: 0, problems: [] };
      const start = performance.now();
      await fuzzEndpoint(
        app,
        checker,
        endpoint,
        ctx,
        // The same seeds as the test's for its first requests, so the test's run is a prefix of this one.
        { firstSeed: FIRST_SEED + i * 1_000_000, count: COUNT, concurrency: CONCURRENCY },
        (o) => {
          result.statuses.set(o.status, (result.statuses.get(o.status) ?? 0) + 1);
          if (o.problem) result.problems.push(o);
        },
      );
      result.rps = COUNT / ((performance.now() - start) / 1000);
      results.push(result);
      const counts = [...result.statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}: ${n}`)
        .join(', ');
      console.log(
        `[${driver}] ${endpoint.key}: ${COUNT} requests, ${result.rps.toFixed(0)} req/s ` +
          `(${(result.rps / healthz).toFixed(3)} x /healthz); ${counts}; off-contract or 5xx: ${result.problems.length}`,
      );
      for (const p of result.problems.slice(0, 20)) {
        console.log(
          `  reproduce: npm run bench:fuzz -- --drivers ${driver} --endpoint "${p.endpoint}" --only-seed ${p.seed}` +
            `  (${p.request.method} ${p.request.url.slice(0, 200)}): ${p.problem}`,
        );
      }
    }
    const total5xx = results.reduce(
      (s, r) => s + [...r.statuses].filter(([st]) => st >= 500).reduce((a, [, n]) => a + n, 0),
      0,
    );
    const off = results.reduce((s, r) => s + r.problems.length, 0);
    console.log(
      `\n[${driver}] | endpoint | requests | req/s | vs /healthz (${healthz.toFixed(0)} req/s) | statuses |`,
    );
    console.log('|---|---|---|---|---|');
    for (const r of results) {
      const counts = [...r.statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}: ${n}`)
        .join(', ');
      console.log(
        `| ${r.endpoint} | ${COUNT} | ${r.rps.toFixed(0)} | ${(r.rps / healthz).toFixed(3)} | ${counts} |`,
      );
    }
    console.log(`[${driver}] 5xx: ${total5xx}; answers off the documented shapes: ${off}`);
    if (total5xx > 0 || off > 0) process.exitCode = 1;
  } finally {
    await app.close();
  }
}

async function withPostgres(fn: (db: Database) => Promise<void>): Promise<void> {
  const admin = new pg.Client({ connectionString: SERVER_URL });
  try {
    await admin.connect();
  } catch (err) {
    console.log(`[postgres] skipped: ${SERVER_URL} is not reachable (${(err as Error).message})`);
    return;
  }
  const name = `refmatch_bench_fuzz_${process.pid}_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const db = openPostgres({ connectionString: url.toString() });
  try {
    await fn(db);
  } finally {
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

console.log(
  `bench:fuzz ${new Date().toISOString()}: ${COUNT} requests per endpoint, ${CONCURRENCY} in flight, seeds from ${FIRST_SEED}; ` +
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')} on ${os.cpus().length} cores; rate limits off`,
);
for (const driver of DRIVERS) {
  if (driver === 'pglite') {
    const db = await openPglite();
    try {
      await fuzzDriver('pglite', db);
    } finally {
      await db.close();
    }
  } else {
    await withPostgres((db) => fuzzDriver('postgres', db));
  }
}
console.log(
  `load average at the end: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')}`,
);
