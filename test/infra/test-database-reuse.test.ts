// The PGlite test databases are reused within a worker (helpers/pglite-pool.ts): what one test left
// must never reach the next. On server PostgreSQL each is a copy of the run's migrated template
// (helpers/server-databases.ts). These are the promises every other test relies on.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, suiteOnServerPostgres } from '../helpers/db.ts';
import { pgliteDatabasesIdle } from '../helpers/pglite-pool.ts';
import { createOrganization } from '../../src/organizations/organizations.ts';
import { listMigrations } from '../../src/infra/db/migrate.ts';

describe.skipIf(suiteOnServerPostgres)('a PGlite test database handed to the next test', () => {
  it('holds none of the last test’s rows, and its ids start again from 1', async () => {
    const first = await createTestDatabase();
    await createOrganization(first, { name: 'First', features: ['referee_finder'] });
    await createOrganization(first, { name: 'Second', features: ['referee_finder'] });
    const idleWhileHeld = pgliteDatabasesIdle();
    await first.destroy();
    expect(pgliteDatabasesIdle()).toBe(idleWhileHeld + 1);

    const next = await createTestDatabase(); // the same database, emptied
    expect((await next.query('SELECT * FROM organizations')).rows).toEqual([]);
    const org = await createOrganization(next, { name: 'Third', features: ['referee_finder'] });
    expect(org.id).toBe(1);
    expect((await next.query('SELECT count(*)::int AS n FROM schema_migrations')).rows[0]).not.toEqual({
      n: 0,
    });
    await next.destroy();
  });

  it('has no planner statistics of the last test’s rows', async () => {
    const sizes = `SELECT relname, relpages, reltuples FROM pg_class
      WHERE relnamespace = 'public'::regnamespace AND relname IN ('organizations', 'organizations_pkey', 'works')
      ORDER BY relname`;
    const first = await createTestDatabase();
    const fresh = (await first.query(sizes)).rows;
    for (const name of ['One', 'Two', 'Three']) {
      await createOrganization(first, { name, features: ['referee_finder'] });
    }
    await first.exec('ANALYZE organizations; ANALYZE works');
    expect((await first.query(sizes)).rows).not.toEqual(fresh);
    await first.destroy();
    const next = await createTestDatabase();
    const stats = await next.query(`SELECT 1 FROM pg_statistic WHERE starelid = 'organizations'::regclass`);
    expect(stats.rows).toEqual([]);
    expect((await next.query(sizes)).rows).toEqual(fresh);
    await next.destroy();
  });

  it('has neither the temporary tables nor the settings of the last test', async () => {
    const first = await createTestDatabase();
    await first.exec(`CREATE TEMP TABLE leftover (x int); SET work_mem = '77MB'`);
    await first.destroy();
    const next = await createTestDatabase();
    expect((await next.query(`SELECT to_regclass('pg_temp.leftover') AS t`)).rows[0]).toEqual({ t: null });
    expect((await next.query<{ work_mem: string }>('SHOW work_mem')).rows[0]!.work_mem).not.toBe('77MB');
    await next.destroy();
  });

  it('is a new one when the last test changed the schema', async () => {
    const first = await createTestDatabase();
    await first.exec('CREATE INDEX organizations_by_name_test ON organizations (name)');
    const idleWhileHeld = pgliteDatabasesIdle();
    await first.destroy();
    expect(pgliteDatabasesIdle()).toBe(idleWhileHeld);
    const next = await createTestDatabase();
    expect((await next.query(`SELECT to_regclass('organizations_by_name_test') AS i`)).rows[0]).toEqual({
      i: null,
    });
    await next.destroy();
  });

  it('refuses the queries of a test that has let it go', async () => {
    const db = await createTestDatabase();
    await db.destroy();
    await expect(db.query('SELECT 1')).rejects.toThrow(/closed/);
    await expect(db.transaction(async (tx) => tx.query('SELECT 1'))).rejects.toThrow(/closed/);
  });
});

describe.runIf(suiteOnServerPostgres)('a server test database', () => {
  it('is a migrated database of its own, copied from the template, dropped when the test lets it go', async () => {
    const [first, second] = [await createTestDatabase(), await createTestDatabase()];
    expect(first.connectionString).not.toBe(second.connectionString);
    await createOrganization(first, { name: 'First', features: ['referee_finder'] });
    expect((await second.query('SELECT * FROM organizations')).rows).toEqual([]);
    const applied = await second.query<{ version: string }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    expect(applied.rows.map((r) => r.version)).toEqual((await listMigrations()).map((m) => m.version));

    const name = new URL(first.connectionString!).pathname.slice(1);
    await first.destroy();
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      expect((await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rows).toEqual([]);
    } finally {
      await admin.end();
    }
    await second.destroy();
  });
});
