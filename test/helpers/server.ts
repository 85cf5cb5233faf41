// For tests that start the real serving process (startServer) over the embedded database: a config
// on an ephemeral local port with a data directory of its own, removed when the test file ends.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { parseConfig, type Config } from '../../src/infra/config.ts';
import { createTestDataDir } from './db.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/**
 * DATABASE_URL unset: the server opens PGlite in its own data directory, as `npm start` does. The
 * directory holds the migrated database copied from the run's template (createTestDataDir), as no
 * test of a serving process here is about making one: the server's initdb and 47 migrations cost
 * each test seconds more (a new data directory is the CLI's and the build's tests' case).
 */
export async function embeddedServerConfig(name: string): Promise<Config> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `refmatch-${name}-`));
  dirs.push(dir);
  await createTestDataDir(dir);
  return parseConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    REFMATCH_DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    REFMATCH_DEMO: 'false',
  });
}
