// A group's export opened in a spreadsheet program: LibreOffice (`soffice --headless`) converts the
// file the dashboard hands out into a spreadsheet (flat OpenDocument, .fods: XML, read here without
// a library) and every cell a spreadsheet would have run as a formula ("=cmd|...", "+1+1", "-2+3",
// "@SUM(1)", a tab or a carriage return first, spaces first) is a text cell, with no formula. The
// same cells written raw (not through csvCell) are converted alongside, and there LibreOffice does
// make formulas of them: the check can see one. Opened twice, with the CSV import's defaults and
// with "Trim spaces" and "Evaluate formulas" set (the import most ready to run a formula).
// Skipped, saying so, where LibreOffice Calc is not installed (CI does not install it: .ci/run).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { signInAs } from '../helpers/dashboard.ts';
import { createGroup, writeGroupAuthor } from '../../src/authors-groups/store.ts';

/** soffice on the PATH, and Calc behind it (without Calc, soffice cannot load a CSV). */
function calcInstalled(): boolean {
  try {
    const soffice = execFileSync('sh', ['-c', 'command -v soffice'], { encoding: 'utf8' }).trim();
    return soffice !== '' && existsSync('/usr/lib/libreoffice/program/libscfiltlo.so');
  } catch {
    return false;
  }
}
const CALC = calcInstalled();
const SKIPPED = CALC
  ? ''
  : ' (SKIPPED: LibreOffice Calc is not installed; apt-get install libreoffice-calc-nogui to run it)';

/** Values a spreadsheet would run as formulas, as a client stores them in a record's name. */
const FORMULAS = ["=cmd|' /C calc'!A0", '+1+1', '-2+3', '@SUM(1)', '\t=1+1', '\r=1+1', ' =1+1'];

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(os.tmpdir(), 'refmatch-calc-'));
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

interface Cell {
  text: string;
  formula: string | null;
  type: string | null;
}

/** The cells of a .fods file's first sheet, row by row (a repeated cell counted as its repeats). */
function sheetRows(fods: string): Cell[][] {
  return fods
    .split(/<table:table-row\b/)
    .slice(1)
    .map((row) => {
      const cells: Cell[] = [];
      for (const cell of row.matchAll(
        /<table:table-cell\b([^>]*?)(?:\/>|>([\s\S]*?)<\/table:table-cell>)/g,
      )) {
        const attributes = cell[1] ?? '';
        const text = [...(cell[2] ?? '').matchAll(/<text:p>([\s\S]*?)<\/text:p>/g)]
          .map((p) => p[1]!.replace(/<text:s\/>/g, ' ').replace(/<text:tab\/>/g, '\t'))
          .join('\n')
          .replace(/&apos;/g, "'")
          .replace(/&quot;/g, '"')
          .replace(/&lt;/g, '<')
          .replace(/&amp;/g, '&');
        const repeated = Number(/table:number-columns-repeated="(\d+)"/.exec(attributes)?.[1] ?? 1);
        const one = {
          text,
          formula: /table:formula="([^"]*)"/.exec(attributes)?.[1] ?? null,
          type: /office:value-type="([^"]*)"/.exec(attributes)?.[1] ?? null,
        };
        for (let k = 0; k < Math.min(repeated, 64); k++) cells.push(one);
      }
      return cells;
    });
}

/** The column headed `header`, below its header. */
function column(rows: Cell[][], header: string): Cell[] {
  const at = rows[0]!.findIndex((c) => c.text === header);
  expect(at, `a column "${header}"`).toBeGreaterThanOrEqual(0);
  return rows.slice(1).map((row) => row[at]!);
}

/** Converts CSV files to .fods with LibreOffice's CSV import and the given filter options. */
function convert(files: string[], outDir: string, filter: string): void {
  execFileSync(
    'soffice',
    [
      `-env:UserInstallation=file://${path.join(dir, 'profile')}`,
      '--headless',
      `--infilter=${filter}`,
      '--convert-to',
      'fods',
      '--outdir',
      outDir,
      ...files,
    ],
    { stdio: 'ignore', timeout: 300_000 },
  );
}

describe('a group export opened in LibreOffice Calc', () => {
  it.skipIf(!CALC)(
    `shows every formula-like value as text, never a formula${SKIPPED}`,
    async () => {
      const org = await createTestOrg(t);
      const group = await createGroup(t.db, org.id, 'Formulas');
      for (const [k, name] of FORMULAS.entries()) {
        await writeGroupAuthor(
          t.db,
          { organizationId: org.id, groupId: group.group_id, clientId: `r${k}` },
          { name, emails: null, orcids: null, articles: null, affiliations: null, custom_values: {} },
        );
      }
      const viewer = await signInAs(t, org.id, 'viewer');
      const answer = await t.app.inject({
        url: `/dashboard/groups/${group.group_id}/export/`,
        headers: { cookie: viewer.cookie },
      });
      expect(answer.statusCode).toBe(200);
      const exported = path.join(dir, 'export.csv');
      await writeFile(exported, answer.rawPayload);
      // The same values written raw, one a line, quoted where RFC 4180 needs it: the check's control.
      const raw = path.join(dir, 'raw.csv');
      await writeFile(raw, FORMULAS.map((v) => (/[\r\n",]/.test(v) ? `"${v}"` : v)).join('\r\n') + '\r\n');

      // Comma, quote, UTF-8, from line 1; then the same with "Trim spaces" and "Evaluate formulas".
      const options = {
        defaults: 'CSV:44,34,76,1',
        hostile: 'CSV:44,34,76,1,,0,false,true,false,false,true,-1,true',
      };
      for (const [label, filter] of Object.entries(options)) {
        const out = path.join(dir, label);
        convert([exported, raw], out, filter);
        // Each record's name under its header, in the order written (client id order: r0, r1...).
        const rows = sheetRows(await readFile(path.join(out, 'export.fods'), 'utf8'));
        const names = column(rows, 'name').slice(0, FORMULAS.length);
        expect(names, label).toHaveLength(FORMULAS.length);
        for (const [k, cell] of names.entries()) {
          expect(cell.formula, `${label}: ${JSON.stringify(FORMULAS[k])}`).toBeNull();
          expect(cell.type, `${label}: ${JSON.stringify(FORMULAS[k])}`).toBe('string');
          // The text shown holds the value (after the apostrophe the export put before it).
          expect(cell.text.replace(/^'/, '').replace(/\n/g, '\r'), label).toBe(
            FORMULAS[k]!.replace(/\n/g, '\r'),
          );
        }
        // The control: raw, LibreOffice makes a formula of "=cmd|..." and "+1+1" at least.
        const rawCells = sheetRows(await readFile(path.join(out, 'raw.fods'), 'utf8')).map((row) => row[0]!);
        expect(rawCells.filter((c) => c.formula !== null).length, label).toBeGreaterThan(0);
      }
    },
    900_000,
  );
});
