// `refmatch coi import` on a hostile file (docs/benchmarks/hostile-uploads.md, round 22): the CSV's
// parse (`parseCoiCsv`, csv-parse's sync parser over the whole text) timed on rows by the hundred
// thousand, one field of tens of MB and a line of commas. With the embedded database the command runs
// in the serving process (the admin channel), so its parse holds that process's event loop. Prints
// per probe the file's size, the read and parse's CPU ms, heap growth, the longest the event loop was held
// (the longest gap between runs of a timer asking to run every millisecond) and what it returned.
// Round 23: `BENCH_ROOT=<checkout>` measures another checkout (round 22's `parseCoiCsv`, one sync
// call, or `readCoiCsv`, read in pieces).
// "coi import's hold" (branch tidy): the probes marked "imported" run the whole command
// (`coiImport.run`: read, then written to a fresh migrated PGlite database in one transaction), where
// PGlite runs each statement on the event loop; "again, --replace" imports the same file over them.
//
//   node --expose-gc --import tsx bench/hostile-coi-file.ts
//   BENCH_ROOT=/tmp/coi-before node --expose-gc --import tsx bench/hostile-coi-file.ts
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

type Read = { rows: unknown[]; rejected: unknown[]; rejectedCount?: number };
const root = path.resolve(process.env.BENCH_ROOT ?? path.join(import.meta.dirname, '..'));
const store = (await import(pathToFileURL(path.join(root, 'src/referee-finder/external-coi.ts')).href)) as {
  parseCoiCsv?: (text: string) => Read;
  readCoiCsv?: (csv: string | AsyncIterable<string>) => Promise<Read>;
};
const csvRead = store.readCoiCsv
  ? ((await import(pathToFileURL(path.join(root, 'src/infra/csv-read.ts')).href)) as {
      filePiecesOf: (file: string, maxBytes: number) => AsyncIterable<string>;
    })
  : null;
/** The file read as the command reads it: whole then parsed in one call (before), or in pieces. */
const read = async (file: string): Promise<Read> =>
  store.readCoiCsv
    ? store.readCoiCsv(csvRead!.filePiecesOf(file, 64 * 1024 * 1024))
    : store.parseCoiCsv!(await readFile(file, 'utf8'));
const file = path.join(await mkdtemp(path.join(tmpdir(), 'coi-bench-')), 'coi.csv');
const fromRoot = <M>(relative: string) => import(pathToFileURL(path.join(root, relative)).href) as Promise<M>;
/** The whole command over a fresh database (one for all probes, an organization each). */
const command = await (async () => {
  const [{ coiImport }, { openPglite }, { migrate }, { createOrganization }, { parseConfig }] =
    await Promise.all([
      fromRoot<typeof import('../src/referee-finder/commands.ts')>('src/referee-finder/commands.ts'),
      fromRoot<typeof import('../src/infra/db/pglite.ts')>('src/infra/db/pglite.ts'),
      fromRoot<typeof import('../src/infra/db/migrate.ts')>('src/infra/db/migrate.ts'),
      fromRoot<typeof import('../src/organizations/organizations.ts')>('src/organizations/organizations.ts'),
      fromRoot<typeof import('../src/infra/config.ts')>('src/infra/config.ts'),
    ]);
  const db = await openPglite();
  await migrate(db, path.join(root, 'migrations'));
  const config = parseConfig({ LOG_LEVEL: 'silent', REFMATCH_DEMO: 'false' });
  let org = 0;
  return {
    async newOrganization() {
      org = (await createOrganization(db, { name: `Org ${org + 1}`, features: [] })).id;
    },
    run: (replace: boolean) => coiImport.run({ config, db, progress: () => {} }, { org, file, replace }),
  };
})();

/** The longest gap between runs of a 1 ms timer while `work` runs. */
async function withStall<T>(work: () => Promise<T>): Promise<{ value: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 1);
  try {
    const value = await work();
    stallMs = Math.max(stallMs, performance.now() - last);
    return { value, stallMs };
  } finally {
    clearInterval(timer);
  }
}

const orcidRows = (n: number) => Array.from({ length: n }, (_, i) => `m${i},0000-0002-1825-0097`).join('\n');
/** A probe: its label, its file's text, and whether the whole command imports it (and how). */
const cases: Array<[string, () => string, ('import' | 'replace')?]> = [
  ['100,000 rows (ORCID), imported', () => orcidRows(100_000), 'import'],
  ['400,000 rows (ORCID), imported', () => orcidRows(400_000), 'import'],
  ['400,000 rows (ORCID), imported again, --replace', () => orcidRows(400_000), 'replace'],
  ['100,000 rows (ORCID)', () => orcidRows(100_000)],
  ['400,000 rows (ORCID)', () => orcidRows(400_000)],
  ['100,000 rejected rows', () => Array.from({ length: 100_000 }, (_, i) => `m${i},not-a-person`).join('\n')],
  ['400,000 rejected rows', () => Array.from({ length: 400_000 }, (_, i) => `m${i},not-a-person`).join('\n')],
  ['one person of 10 MB', () => `m1,${'x'.repeat(10_000_000)}`],
  ['one person of 40 MB', () => `m1,${'x'.repeat(40_000_000)}`],
  ['10 MB of ","', () => ','.repeat(10_000_000)],
  ['40 MB of ","', () => ','.repeat(40_000_000)],
];

console.log(`root ${root}`);
console.log('| probe | file | CPU ms | heap MB | loop held ms | result |');
console.log('|---|---:|---:|---:|---:|---|');
for (const [label, make, imports] of cases) {
  if (imports === 'import') await command.newOrganization();
  const size = await (async () => {
    const text = make();
    await writeFile(file, text);
    return text.length;
  })();
  globalThis.gc?.();
  const heap = process.memoryUsage().heapUsed;
  const cpu = process.cpuUsage();
  let out = '';
  const { stallMs } = await withStall(async () => {
    try {
      if (imports) {
        const { rows, inserted } = await command.run(imports === 'replace');
        out = `${rows} rows, ${inserted} inserted`;
        return;
      }
      const r = await read(file);
      const count = r.rejectedCount === undefined ? '' : ` of ${r.rejectedCount}`;
      out = `${r.rows.length} rows, ${r.rejected.length}${count} rejected listed (${(JSON.stringify(r).length / 1e6).toFixed(1)} MB as JSON)`;
    } catch (e) {
      out = `threw ${(e as Error).message.slice(0, 80)}`;
    }
  });
  const used = process.cpuUsage(cpu);
  console.log(
    `| ${label} | ${(size / 1e6).toFixed(1)} MB | ${((used.user + used.system) / 1000).toFixed(0)} | ` +
      `${((process.memoryUsage().heapUsed - heap) / 1e6).toFixed(0)} | ${stallMs.toFixed(0)} | ${out} |`,
  );
}
await rm(path.dirname(file), { recursive: true });
