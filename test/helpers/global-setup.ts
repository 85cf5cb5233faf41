// Builds, once per run, a migrated PGlite database and saves it as a tarball; every test database
// starts from a copy of it (about 0.8 s) instead of a fresh initdb plus migrations (about 5 s). On
// server PostgreSQL (DATABASE_URL set), a migrated template database the tests' databases are
// copied from (helpers/server-databases.ts), dropped with whatever copies are left at the end; the
// leftovers of runs that crashed are dropped first.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite } from '../../src/infra/db/pglite.ts';
import { migrate } from '../../src/infra/db/migrate.ts';
import { createServerTemplate, dropServerRun } from './server-databases.ts';

let dir: string | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  dir = await mkdtemp(path.join(os.tmpdir(), 'refmatch-test-'));
  let templatePath = '';
  const url = process.env.DATABASE_URL;
  const server = url ? await createServerTemplate(url) : undefined;
  if (!url) {
    const db = await openPglite();
    await migrate(db);
    const dump = await db.pglite.dumpDataDir('none');
    templatePath = path.join(dir, 'template.tar');
    await writeFile(templatePath, Buffer.from(await dump.arrayBuffer()));
    await db.close();
  }
  project.provide('pgliteTemplate', templatePath);
  project.provide('tmpDir', dir);
  project.provide('serverRun', server?.run ?? '');
  return async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    if (url && server) {
      await dropServerRun(url, server.run);
      // The run's lock last: until then a later run's set-up takes its databases for a live run's.
      await server.release();
    }
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    /** The name prefix of this run's databases on the server (DATABASE_URL set), '' otherwise. */
    serverRun: string;
    tmpDir: string;
  }
}
