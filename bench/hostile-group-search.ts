// What one editor's page or search of a large authors group costs on PGlite, where each statement
// runs on the event loop and holds every other request while it runs: a group of 205,823 records
// (the rows a 3.1 MiB import holds; generated, half the names with a letter beyond ASCII, one or two
// emails each), read through the checkout's `listGroupAuthors` (the dashboard's group page and the
// API's records listing). Prints per probe the rows and total, each statement's CPU (the longest is
// how long the loop was held), the CPU of the whole read, and its ratio to page 1 measured in the
// same run; every probe is read ROUNDS times and the median kept.
//
//   npm run bench:hostile-group-search
//   BENCH_ROOT=<another checkout>: its src and migrations (a before measured beside the after)
//   BENCH_RECORDS (default 205823), BENCH_ROUNDS (default 3), BENCH_ONLY=<part of a label>
import path from 'node:path';
import type { Database, Queryable } from '../src/infra/db/index.ts';
import { CHECKOUT, checkoutApp, fromCheckout } from './lib/checkout.ts';
import { processCpuMs } from './lib/cpu-time.ts';
import { fillLargeGroup } from './lib/large-group.ts';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 205_823);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ONLY = process.env.BENCH_ONLY ?? '';
const PAGE = 50;

const { openPglite, migrate, createOrganization } = await checkoutApp();
const { createGroup, listGroupAuthors } = await fromCheckout<typeof import('../src/authors-groups/store.ts')>(
  'src/authors-groups/store.ts',
);

/** A Queryable over `db` noting each statement's CPU (on PGlite, the time the loop was held). */
function noted(db: Database): Queryable & { statements: number[] } {
  const statements: number[] = [];
  return {
    statements,
    async query(sql, params) {
      const cpu0 = processCpuMs();
      const result = await db.query(sql, params);
      statements.push(processCpuMs() - cpu0);
      return result as never;
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const db = await openPglite();
  await migrate(db, path.join(CHECKOUT, 'migrations'));
  const org = await createOrganization(db, { name: 'Bench', features: [] });
  const group = await createGroup(db, org.id, 'Pool');
  const t0 = performance.now();
  const cpuFill = processCpuMs();
  await fillLargeGroup(db, org.id, group.group_id, RECORDS);
  console.log(
    `${CHECKOUT}: PGlite in memory, ${RECORDS} records written in ${((performance.now() - t0) / 1000).toFixed(1)} s ` +
      `(CPU ${((processCpuMs() - cpuFill) / 1000).toFixed(1)} s); medians of ${ROUNDS}, CPU ms`,
  );
  const key = { organizationId: org.id, groupId: group.group_id };
  const last = Math.floor((RECORDS - 1) / PAGE) * PAGE;
  const probes: { label: string; search: string; offset: number }[] = [
    { label: 'page 1', search: '', offset: 0 },
    { label: 'page 2,000', search: '', offset: 1_999 * PAGE },
    { label: 'the middle page', search: '', offset: Math.floor(RECORDS / 2 / PAGE) * PAGE },
    { label: 'the last page', search: '', offset: last },
    { label: 'page 100,000 (past the end)', search: '', offset: 99_999 * PAGE },
    { label: '"zzz" (no match)', search: 'zzz', offset: 0 },
    { label: '"müller"', search: 'müller', offset: 0 },
    { label: '"muller"', search: 'muller', offset: 0 },
    { label: '"garcia" (a common name)', search: 'garcia', offset: 0 },
    { label: '"garcia", page 200', search: 'garcia', offset: 199 * PAGE },
    { label: '"univ.example" (emails)', search: 'univ.example', offset: 0 },
    { label: '"rec-12345" (a client id)', search: 'rec-12345', offset: 0 },
    { label: '"anna müller" (two words)', search: 'anna müller', offset: 0 },
    { label: 'ten one-letter words', search: 'a e i o u n r s t l', offset: 0 },
  ];
  let baseline = 0;
  console.log(
    `  ${'probe'.padEnd(28)} ${'total'.padStart(7)} ${'rows'.padStart(4)} ${'statements, CPU ms'.padStart(22)} ${'read'.padStart(7)} ${'x page 1'.padStart(8)}`,
  );
  for (const probe of probes) {
    if (ONLY && probe.label !== 'page 1' && !probe.label.includes(ONLY)) continue;
    const runs: { statements: number[]; cpu: number; total: number; rows: number }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const q = noted(db);
      const cpu0 = processCpuMs();
      const page = await listGroupAuthors(q, key, {
        search: probe.search,
        limit: PAGE,
        offset: probe.offset,
      });
      runs.push({
        statements: q.statements,
        cpu: processCpuMs() - cpu0,
        total: page.total,
        rows: page.rows.length,
      });
    }
    const cpu = median(runs.map((r) => r.cpu));
    const statements = runs[0]!.statements.map((_, i) => median(runs.map((r) => r.statements[i] ?? 0)));
    if (probe.label === 'page 1') baseline = cpu;
    console.log(
      `  ${probe.label.padEnd(28)} ${String(runs[0]!.total).padStart(7)} ${String(runs[0]!.rows).padStart(4)} ` +
        `${statements
          .map((s) => s.toFixed(0))
          .join(' + ')
          .padStart(22)} ${cpu.toFixed(0).padStart(7)} ${(cpu / baseline).toFixed(1).padStart(7)}x`,
    );
  }
  await db.close();
}

await main();
