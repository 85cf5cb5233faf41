// The checkout an in-process bench runs: this one, or another given as BENCH_ROOT (a "before"
// measured in the same minute as the "after"). Its modules are imported from its own src, and its
// database is migrated with its own migrations.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Database } from '../../src/infra/db/index.ts';

export const CHECKOUT = process.env.BENCH_ROOT
  ? path.resolve(process.env.BENCH_ROOT)
  : path.resolve(import.meta.dirname, '../..');

/** The checkout's module at `relative` (from its root), typed as this checkout's (`M`). */
export function fromCheckout<M>(relative: string): Promise<M> {
  return import(path.join(CHECKOUT, relative)) as Promise<M>;
}

/** What an in-process bench builds an app over a fresh database with, from the checkout benched. */
export async function checkoutApp() {
  const [app, config, pglite, migrations, organizations] = await Promise.all([
    fromCheckout<typeof import('../../src/app.ts')>('src/app.ts'),
    fromCheckout<typeof import('../../src/infra/config.ts')>('src/infra/config.ts'),
    fromCheckout<typeof import('../../src/infra/db/pglite.ts')>('src/infra/db/pglite.ts'),
    fromCheckout<typeof import('../../src/infra/db/migrate.ts')>('src/infra/db/migrate.ts'),
    fromCheckout<typeof import('../../src/organizations/organizations.ts')>(
      'src/organizations/organizations.ts',
    ),
  ]);
  return {
    buildApp: app.buildApp,
    parseConfig: config.parseConfig,
    openPglite: pglite.openPglite,
    migrate: migrations.migrate,
    createOrganization: organizations.createOrganization,
  };
}

/** A fresh PGlite database migrated by the checkout, and the checkout's app over it (quiet, no demo corpus), ready. */
export async function startCheckoutApp(
  publicBaseUrl = 'http://refmatch.test',
  /** What the database holds before the app starts (a corpus the app's search index is built from). */
  prepare?: (db: Database) => Promise<unknown>,
  /** Settings beyond the defaults, as the environment gives them (`PASSWORD_CHECKS_TOTAL: '3'`). */
  env: Record<string, string> = {},
) {
  const { buildApp, parseConfig, openPglite, migrate } = await checkoutApp();
  const db = await openPglite();
  await migrate(db, path.join(CHECKOUT, 'migrations'));
  await prepare?.(db);
  const config = {
    ...parseConfig({ ...env, LOG_LEVEL: 'silent', PUBLIC_BASE_URL: publicBaseUrl, REFMATCH_DEMO: 'false' }),
    indexSnapshotDir: null,
  };
  const app = await buildApp({ config, db });
  await app.ready();
  return { db, app, config };
}

/** What a probe of a before/after bench measured (each bench adds its own fields). */
export interface ProbeFigures {
  name: string;
  wall: number;
  cpu: number;
}

/**
 * A bench run "before" and "after" in one minute: `script` (the bench itself) run again in a process
 * of its own on the checkout `root` (BENCH_BEFORE), printing its probes as JSON (BENCH_JSON=1) on its
 * last line.
 */
export function probesOnCheckout<R extends ProbeFigures>(script: string, root: string): R[] {
  const out = execFileSync(process.execPath, [...process.execArgv, script], {
    env: { ...process.env, BENCH_ROOT: root, BENCH_JSON: '1', BENCH_BEFORE: '' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as R[];
}

/** Each probe's figures before → after, with the ratios of wall and CPU time (before / after). */
export function printBeforeAfter<R extends ProbeFigures>(
  beforeRoot: string,
  before: readonly R[],
  after: readonly R[],
  line: (r: R) => string,
): void {
  console.log(`\nbefore (${beforeRoot}) → after (${CHECKOUT}); ratio = before / after`);
  const ratio = (a: number, b: number) => `${(a / Math.max(b, 1)).toFixed(1)}×`;
  for (const now of after) {
    const was = before.find((r) => r.name === now.name);
    if (!was) continue;
    console.log(
      `${now.name}: ${line(was)} → ${line(now)}; wall ${ratio(was.wall, now.wall)}, CPU ${ratio(was.cpu, now.cpu)}`,
    );
  }
}
