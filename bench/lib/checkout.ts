// The checkout an in-process bench runs: this one, or another given as BENCH_ROOT (a "before"
// measured in the same minute as the "after"). Its modules are imported from its own src, and its
// database is migrated with its own migrations.
import path from 'node:path';

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
export async function startCheckoutApp(publicBaseUrl = 'http://refmatch.test') {
  const { buildApp, parseConfig, openPglite, migrate } = await checkoutApp();
  const db = await openPglite();
  await migrate(db, path.join(CHECKOUT, 'migrations'));
  const config = {
    ...parseConfig({ LOG_LEVEL: 'silent', PUBLIC_BASE_URL: publicBaseUrl, REFMATCH_DEMO: 'false' }),
    indexSnapshotDir: null,
  };
  const app = await buildApp({ config, db });
  await app.ready();
  return { db, app, config };
}
