// What an editor's walk through a large authors group's records page costs on the dashboard, on
// PGlite, where each statement runs on the event loop and holds every other request while it runs:
// a group of 205,823 records (bench/lib/large-group.ts) read over HTTP in process (app.inject, the
// checkout's app, an editor signed in). Probes: pages asked by number (1, 2,000, the middle, the
// last), and the middle page as the pages' own Next and Previous links lead to it (page 2's Next
// link taken as the model, its page number and record moved to the middle: a checkout whose links
// name only a page number gets `?page=<middle>`), the same for a search's middle page. Prints per probe the status, bytes,
// the rows shown, the longest statement's CPU (how long the loop was held), the request's CPU and
// its ratio to page 1 measured in the same run; medians of ROUNDS.
//
//   npx tsx bench/hostile-group-pages.ts
//   BENCH_ROOT=<another checkout>: its app and migrations (a before measured beside the after)
//   BENCH_RECORDS (default 205823), BENCH_ROUNDS (default 5)
import path from 'node:path';
import type { Database } from '../src/infra/db/index.ts';
import { CHECKOUT, checkoutApp } from './lib/checkout.ts';
import { processCpuMs } from './lib/cpu-time.ts';
import { signedInUser } from './lib/dashboard-session.ts';
import { fillLargeGroup } from './lib/large-group.ts';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 205_823);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PAGE = 50;

const { buildApp, parseConfig, openPglite, migrate, createOrganization } = await checkoutApp();
const { createGroup } = await import(path.join(CHECKOUT, 'src/authors-groups/store.ts'));

/** `db` noting each statement's CPU (on PGlite, the time the loop was held by it). */
function noting(db: Database): Database & { statements: number[] } {
  const statements: number[] = [];
  const timed = async <T>(send: () => Promise<T>): Promise<T> => {
    const cpu0 = processCpuMs();
    try {
      return await send();
    } finally {
      statements.push(processCpuMs() - cpu0);
    }
  };
  return {
    statements,
    driver: db.driver,
    query: (sql, params) => timed(() => db.query(sql, params)),
    exec: (script) => timed(() => db.exec(script)),
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({
          query: (sql, params) => timed(() => tx.query(sql, params)),
          exec: (s) => timed(() => tx.exec(s)),
        }),
      ),
    copyCsv: (table, columns, csv, tx) => db.copyCsv(table, columns, csv, tx),
    close: () => db.close(),
  } as Database & { statements: number[] };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const unescape = (s: string) => s.replaceAll('&amp;', '&');

async function main(): Promise<void> {
  const raw = await openPglite();
  await migrate(raw, path.join(CHECKOUT, 'migrations'));
  const org = await createOrganization(raw, { name: 'Bench', features: [] });
  const group = await createGroup(raw, org.id, 'Pool');
  const cpuFill = processCpuMs();
  await fillLargeGroup(raw, org.id, group.group_id, RECORDS);
  const db = noting(raw);
  const config = {
    ...parseConfig({ LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'http://refmatch.test', REFMATCH_DEMO: 'false' }),
    indexSnapshotDir: null,
  };
  const app = await buildApp({ config, db });
  await app.ready();
  const { cookie } = await signedInUser(app, raw, org.id, 'editor');
  console.log(
    `${CHECKOUT}: PGlite in memory, ${RECORDS} records (written in ${((processCpuMs() - cpuFill) / 1000).toFixed(1)} s CPU); ` +
      `medians of ${ROUNDS}; load ${(await import('node:os')).loadavg()[0]!.toFixed(1)}`,
  );
  const base = `/dashboard/groups/${group.group_id}/`;
  const get = (url: string) => app.inject({ url, headers: { cookie } });
  const nextOf = (body: string, rel: 'next' | 'prev') =>
    unescape(new RegExp(`<a href="([^"]*)" rel="${rel}"`).exec(body)?.[1] ?? '');
  // The records in the listing's order at the places the deep links start from.
  const at = async (search: string, place: number) =>
    (
      await raw.query<{ client_id: string }>(
        `SELECT client_id FROM group_authors WHERE group_id = $1 ${search ? `AND search_name LIKE '%' || $3 || '%'` : ''}
          ORDER BY lower(name), client_id OFFSET $2 LIMIT 1`,
        search ? [group.group_id, place, search] : [group.group_id, place],
      )
    ).rows[0]!.client_id;
  /** Page 2's Next (or Previous) link of the listing searched for `q`, moved to page `n` next to `clientId`. */
  const deepLink = async (q: string, rel: 'next' | 'prev', n: number, clientId: string) => {
    const first = await get(`${base}${q ? `?q=${q}` : ''}`);
    const second = await get(nextOf(first.body, 'next'));
    const model = nextOf(second.body, 'next');
    const url = new URL(model, 'http://x');
    url.searchParams.set('page', String(n));
    if (url.searchParams.has('after')) url.searchParams.set(rel === 'next' ? 'after' : 'before', clientId);
    if (rel === 'prev' && url.searchParams.has('after')) url.searchParams.delete('after');
    return `${url.pathname}${url.search}`;
  };
  const middle = Math.floor(RECORDS / 2 / PAGE);
  const lastPage = Math.ceil(RECORDS / PAGE);
  const garcia = Number(
    (
      await raw.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM group_authors WHERE search_name LIKE '%garcia%'`,
      )
    ).rows[0]!.n,
  );
  const garciaMiddle = Math.floor(garcia / 2 / PAGE);
  const probes: [string, string][] = [
    ['page 1', base],
    ['page 2 (page 1 Next)', nextOf((await get(base)).body, 'next')],
    ...(RECORDS >= 2000 * PAGE ? [['page 2,000 by number', `${base}?page=2000`] as [string, string]] : []),
    [`the middle page (${middle + 1}) by number`, `${base}?page=${middle + 1}`],
    [`the last page (${lastPage}) by number`, `${base}?page=${lastPage}`],
    [
      `the middle page by Next from ${middle}`,
      await deepLink('', 'next', middle + 1, await at('', middle * PAGE - 1)),
    ],
    [
      `the middle page by Previous from ${middle + 2}`,
      await deepLink('', 'prev', middle + 1, await at('', (middle + 1) * PAGE)),
    ],
    ['"garcia" page 1', `${base}?q=garcia`],
    [`"garcia" page ${garciaMiddle + 1} by number`, `${base}?q=garcia&page=${garciaMiddle + 1}`],
    [
      `"garcia" page ${garciaMiddle + 1} by Next (of ${Math.ceil(garcia / PAGE)})`,
      await deepLink('garcia', 'next', garciaMiddle + 1, await at('garcia', garciaMiddle * PAGE - 1)),
    ],
  ];
  let baseline = 0;
  console.log(
    `  ${'probe'.padEnd(42)} ${'status'.padStart(6)} ${'bytes'.padStart(7)} ${'rows'.padStart(4)} ${'longest stmt'.padStart(12)} ${'CPU ms'.padStart(7)} ${'x page 1'.padStart(8)}`,
  );
  for (const [label, url] of probes) {
    const runs: { cpu: number; longest: number; status: number; bytes: number; rows: number }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      db.statements.length = 0;
      const cpu0 = processCpuMs();
      const res = await get(url);
      runs.push({
        cpu: processCpuMs() - cpu0,
        longest: Math.max(0, ...db.statements),
        status: res.statusCode,
        bytes: res.body.length,
        rows: (res.body.match(/<tr>\s*<td><a href=/g) ?? []).length,
      });
    }
    const cpu = median(runs.map((r) => r.cpu));
    if (label === 'page 1') baseline = cpu;
    const r0 = runs[0]!;
    console.log(
      `  ${label.padEnd(42)} ${String(r0.status).padStart(6)} ${String(r0.bytes).padStart(7)} ${String(r0.rows).padStart(4)} ` +
        `${median(runs.map((r) => r.longest))
          .toFixed(0)
          .padStart(
            12,
          )} ${cpu.toFixed(0).padStart(7)} ${(cpu / baseline).toFixed(1).padStart(7)}x   ${url.length > 90 ? url.slice(0, 90) + '…' : url}`,
    );
  }
  await app.close();
  await raw.close();
}

await main();
