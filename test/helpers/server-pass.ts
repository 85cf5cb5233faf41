// Which test files the server PostgreSQL pass (DATABASE_URL set: `.ci/run`'s second pass) runs: a
// file whose result can differ by driver. Read by vitest.config.ts to leave the others to the PGlite
// pass, and by helpers/db.ts, which refuses a test database to a file this calls driver-independent
// (so a file that opens one in a way not named here fails in the PGlite pass instead of being left
// out of the server pass unseen).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * What a test file names when its result can depend on the driver: a call that makes a test
 * database (directly, through an app, a listening app, a browser app or a referee finder scope), the
 * suite's DATABASE_URL, or the flag that tells which pass runs (a file that runs or skips tests by
 * it decides for itself). A file naming none of them opens no database of the suite's (a unit test,
 * or processes and servers on a PGlite data directory of their own whatever DATABASE_URL says).
 */
const DRIVER_DEPENDENT =
  /\b(?:createTestDatabase|createTestApp|startListeningApp|useBrowserApp|finderScope)\(|process\.env\.DATABASE_URL|\bsuiteOnServerPostgres\b/;

export function isDriverDependent(source: string): boolean {
  return DRIVER_DEPENDENT.test(source);
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(file);
    return entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

/**
 * The test files (relative to `root`) the server pass leaves out: those whose result cannot differ
 * by driver, and the browser tests (what a browser sees of a page: focus, layout, navigation; every
 * query behind those pages runs on both drivers in the dashboard's inject tests).
 */
export function pglitePassOnly(root: string): string[] {
  const independent = testFiles(path.posix.join(root, 'test'))
    .filter((file) => !file.endsWith('.browser.test.ts'))
    .filter((file) => !isDriverDependent(readFileSync(file, 'utf8')))
    .map((file) => path.posix.relative(root, file));
  return [...independent, 'test/**/*.browser.test.ts'];
}

const judged = new Map<string, boolean>();

/**
 * Throws when `file`, a test file opening a test database, is one the server pass leaves out as
 * driver-independent: whatever it calls to get the database must be named in DRIVER_DEPENDENT.
 * Browser tests are left out on purpose; `file` undefined is a call from outside a test file.
 */
export function assertRunsOnServerPass(file: string | undefined): void {
  if (!file || file.endsWith('.browser.test.ts')) return;
  let dependent = judged.get(file);
  if (dependent === undefined) judged.set(file, (dependent = isDriverDependent(readFileSync(file, 'utf8'))));
  if (!dependent) {
    throw new Error(
      `${file} opens a test database, but names none of the calls test/helpers/server-pass.ts looks for: ` +
        'the server pass would leave it out. Name the helper that opens it there.',
    );
  }
}
