import { defineConfig } from 'vitest/config';
import { pglitePassOnly } from './test/helpers/server-pass.ts';

/**
 * What the server PostgreSQL pass (DATABASE_URL set) leaves to the PGlite pass, as it would repeat it
 * unchanged (test/helpers/server-pass.ts): the files that open no database of the suite's (unit
 * tests; processes and servers on a PGlite data directory of their own) and the browser tests. Both
 * passes whole ran 23 min on the 2-core machine (2026-12-02), past the 20 CI may take. The embedded
 * database's own tests in a file that also queries the suite's skip themselves there
 * (`suiteOnServerPostgres`).
 */
const serverPassLeavesOut = process.env.DATABASE_URL ? pglitePassOnly(process.cwd()) : [];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...serverPassLeavesOut],
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
