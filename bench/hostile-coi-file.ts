// `refmatch coi import` on a hostile file (docs/benchmarks/hostile-uploads.md, round 22): the CSV's
// parse (`parseCoiCsv`, csv-parse's sync parser over the whole text) timed on rows by the hundred
// thousand, one field of tens of MB and a line of commas. With the embedded database the command runs
// in the serving process (the admin channel), so its parse holds that process's event loop. Prints
// per probe the file's size, the parse's CPU ms, heap growth and what it returned.
//
//   node --expose-gc --import tsx bench/hostile-coi-file.ts
import { parseCoiCsv } from '../src/referee-finder/external-coi.ts';

const cases: Array<[string, () => string]> = [
  [
    '100,000 rows (ORCID)',
    () => Array.from({ length: 100_000 }, (_, i) => `m${i},0000-0002-1825-0097`).join('\n'),
  ],
  [
    '400,000 rows (ORCID)',
    () => Array.from({ length: 400_000 }, (_, i) => `m${i},0000-0002-1825-0097`).join('\n'),
  ],
  ['100,000 rejected rows', () => Array.from({ length: 100_000 }, (_, i) => `m${i},not-a-person`).join('\n')],
  ['400,000 rejected rows', () => Array.from({ length: 400_000 }, (_, i) => `m${i},not-a-person`).join('\n')],
  ['one person of 10 MB', () => `m1,${'x'.repeat(10_000_000)}`],
  ['one person of 40 MB', () => `m1,${'x'.repeat(40_000_000)}`],
  ['10 MB of ","', () => ','.repeat(10_000_000)],
  ['40 MB of ","', () => ','.repeat(40_000_000)],
];

console.log('| probe | file | parse CPU ms | heap MB | result |');
console.log('|---|---:|---:|---:|---|');
for (const [label, make] of cases) {
  const text = make();
  globalThis.gc?.();
  const heap = process.memoryUsage().heapUsed;
  const cpu = process.cpuUsage();
  let out: string;
  try {
    const r = parseCoiCsv(text);
    out = `${r.rows.length} rows, ${r.rejected.length} rejected (${(JSON.stringify(r).length / 1e6).toFixed(1)} MB as JSON)`;
  } catch (e) {
    out = `threw ${(e as Error).message.slice(0, 80)}`;
  }
  const used = process.cpuUsage(cpu);
  console.log(
    `| ${label} | ${(text.length / 1e6).toFixed(1)} MB | ${((used.user + used.system) / 1000).toFixed(0)} | ` +
      `${((process.memoryUsage().heapUsed - heap) / 1e6).toFixed(0)} | ${out} |`,
  );
}
