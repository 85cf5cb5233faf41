// What the server PostgreSQL pass leaves to the PGlite pass (test/helpers/server-pass.ts): the files
// whose result cannot differ by driver, never one that opens a database of the suite's.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertRunsOnServerPass, isDriverDependent, pglitePassOnly } from '../helpers/server-pass.ts';
import { ROOT } from '../helpers/cli.ts';

describe('the files the server pass leaves out', () => {
  const leftOut = pglitePassOnly(ROOT);

  it('are the unit tests, the processes on a PGlite data directory of their own, and the browser tests', () => {
    expect(leftOut).toEqual(
      expect.arrayContaining([
        'test/retrieval/analyzer.test.ts',
        'test/system/shutdown.test.ts',
        'test/corpus/admin-channel.test.ts',
        'test/system/event-loop.test.ts',
        'test/parsing/names.test.ts',
        'test/**/*.browser.test.ts',
      ]),
    );
  });

  it('hold none that opens a test database, reads DATABASE_URL or runs tests by the pass', () => {
    for (const kept of [
      'test/infra/test-database-reuse.test.ts',
      'test/system/many-instances.test.ts',
      'test/corpus/resume.test.ts',
      'test/system/cli.test.ts',
      'test/system/readiness.test.ts',
      'test/referee-finder/conflicts.test.ts',
      'test/parsing/app-parser.test.ts',
      // Runs its embedded-database describes only on PGlite (skipIf): the flag named, it is kept.
      'test/organizations/limits-cli.test.ts',
    ]) {
      expect(leftOut).not.toContain(kept);
    }
  });

  it('judges a file by the calls it names', () => {
    expect(isDriverDependent(`const t = await createTestApp();`)).toBe(true);
    expect(isDriverDependent(`const db = await createTestDatabase();`)).toBe(true);
    expect(isDriverDependent(`const setup = finderScope(afterEach);`)).toBe(true);
    expect(isDriverDependent(`const app = useBrowserApp();`)).toBe(true);
    expect(isDriverDependent(`const url = process.env.DATABASE_URL;`)).toBe(true);
    expect(isDriverDependent(`describe.skipIf(suiteOnServerPostgres)('x', () => {});`)).toBe(true);
    expect(isDriverDependent(`import { testConfig } from '../helpers/app.ts';`)).toBe(false);
    expect(isDriverDependent(`env: { DATABASE_URL: '' }`)).toBe(false);
  });
});

describe('a test database asked for by a file the server pass leaves out', () => {
  it('is refused, naming the file; a file that names its database call, or a browser test, gets one', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'refmatch-server-pass-'));
    try {
      const unit = path.join(dir, 'unit.test.ts');
      await writeFile(unit, `import { helperOpeningADatabase } from './elsewhere.ts';\n`);
      expect(() => assertRunsOnServerPass(unit)).toThrow(unit);
      const named = path.join(dir, 'named.test.ts');
      await writeFile(named, `const db = await createTestDatabase();\n`);
      expect(() => assertRunsOnServerPass(named)).not.toThrow();
      expect(() => assertRunsOnServerPass(path.join(dir, 'page.browser.test.ts'))).not.toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
