import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * What the server PostgreSQL pass (DATABASE_URL set) leaves to the PGlite pass, as it would repeat it
 * unchanged: the parser's tests that build no app (no database opened: the same code, the same
 * result on either driver) and the browser tests (what a browser sees of a page: focus, layout,
 * navigation; every query behind those pages runs on both drivers in the dashboard's inject tests).
 * Both passes ran 23 min on the 2-core machine (2026-12-02), past the 20 CI may take; this is 4 of
 * them. The embedded database's own tests skip themselves there (`suiteOnServerPostgres`).
 */
function pglitePassOnly(): string[] {
  if (!process.env.DATABASE_URL) return [];
  const parsing = readdirSync('test/parsing')
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `test/parsing/${name}`)
    .filter((file) => !/createTestApp\(|createTestDatabase\(/.test(readFileSync(file, 'utf8')));
  return [...parsing, 'test/**/*.browser.test.ts'];
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...pglitePassOnly()],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // A worker process runs its test files one after the other in the same module graph instead of
    // importing it again for each (1.8 s a file, 186 s a suite: the PGlite suite 775 → 625 s on the
    // 2-core machine, 2026-11-29). Each test still gets a database of its own (helpers/db.ts); no
    // test mocks a module, and the one that sets an environment variable puts it back.
    isolate: false,
    // Two cores: more workers only queue up behind each other and raise memory.
    maxWorkers: 2,
  },
});
