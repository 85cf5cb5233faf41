// npx tsx bench/hostile-layout.ts [layouts] [sizes] — the page layout (src/parsing/pdf/geometry.ts)
// on synthetic pages of many pieces of text, three pages a document, timed stage by stage: line
// numbers, running heads, gutters (columns), reading order. The layouts are those a hostile PDF can
// draw within the text budgets (docs/benchmarks/hostile-files.md); BENCH_ROOT runs another checkout's
// geometry (a "before" tree) with the same pages.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Item } from '../src/parsing/pdf/geometry.ts';

const ROOT = process.env.BENCH_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const geometry = (await import(
  path.join(ROOT, 'src/parsing/pdf/geometry.ts')
)) as typeof import('../src/parsing/pdf/geometry.ts');

const piece = (str: string, x: number, y: number, w: number, size: number): Item => ({
  str,
  x,
  y,
  w,
  size,
  font: 'F1',
});

const LAYOUTS: Record<string, (n: number) => Item[]> = {
  /** Two columns of prose, six words a line each. */
  'two columns': (n) => {
    const rows = Math.ceil(n / 12);
    return Array.from({ length: n }, (_, i) =>
      piece(
        `word${i}`,
        50 + (i % 12 < 6 ? 0 : 260) + (i % 6) * 40,
        800 - (Math.floor(i / 12) * 700) / rows,
        30,
        9,
      ),
    );
  },
  /** A square grid of tiny pieces, far apart: every piece starts a line, every column edge is tried. */
  'grid of tiny pieces': (n) => {
    const k = Math.ceil(Math.sqrt(n));
    return Array.from({ length: n }, (_, i) =>
      piece('w', 40 + (i % k) * (500 / k), 60 + Math.floor(i / k) * (700 / k), 0.0001, 0.01),
    );
  },
  /** All the pieces on one row, none touching the next. */
  'one row of tiny pieces': (n) =>
    Array.from({ length: n }, (_, i) => piece('w', (i * 500) / n + 40, 400, 0.0001, 0.01)),
  /** Numbered lines: a number at the margin of each line of text. */
  'numbered lines': (n) =>
    Array.from({ length: n }, (_, i) => {
      const row = Math.floor(i / 2);
      const y = 800 - (row * 760) / (n / 2);
      return i % 2 ? piece(`text ${row}`, 60, y, 400, 0.2) : piece(String(row + 1), 20, y, 8, 0.2);
    }),
};

const names = process.argv[2] ? process.argv[2].split(',') : Object.keys(LAYOUTS);
const sizes = (process.argv[3] ?? '2000,4000,8000').split(',').map(Number);
console.log(`| layout | ${sizes.map((n) => `${n} pieces a page: ms (CPU)`).join(' | ')} |`);
console.log(`|---|${sizes.map(() => '---:').join('|')}|`);
for (const name of names) {
  const make = LAYOUTS[name];
  if (!make) throw new Error(`no layout "${name}": ${Object.keys(LAYOUTS).join(', ')}`);
  const cells: string[] = [];
  for (const n of sizes) {
    const pages = [1, 2, 3].map((number) => ({
      number,
      items: geometry.mendAccents(make(n)),
      width: 595,
      height: 842,
    }));
    const cpu = process.cpuUsage();
    const started = performance.now();
    geometry.dropLineNumbers(pages);
    geometry.dropRunningHeads(pages);
    const gutters = geometry.documentGutters(pages);
    pages.forEach((page, i) => geometry.orderPage(page.items, i + 1, gutters[i]!));
    const used = process.cpuUsage(cpu);
    cells.push(
      `${(performance.now() - started).toFixed(0)} (${((used.user + used.system) / 1000).toFixed(0)})`,
    );
  }
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}
