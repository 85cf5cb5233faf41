// Test databases on server PostgreSQL (DATABASE_URL set): one migrated template database a run, made
// by the global set-up, and a copy of it for each test (CREATE DATABASE … TEMPLATE: 0.2 s where
// running the 47 migrations into a new schema took 2.7 s on the 2-core machine, 2026-12-02). The
// copies are named after the run, so whatever a run leaves behind is dropped by its tear-down.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgres } from '../../src/infra/db/postgres.ts';
import { migrate } from '../../src/infra/db/migrate.ts';
import { quoteIdent } from '../../src/infra/db/quote.ts';

/** The URL of `database` on the server of `url`, with the same role and options. */
export function databaseUrl(url: string, database: string): string {
  const target = new URL(url);
  target.pathname = `/${encodeURIComponent(database)}`;
  return target.toString();
}

/** Runs `fn` on a connection to the database DATABASE_URL names (the one CI made for the run). */
async function asAdmin<T>(url: string, fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

/** The template's name; every test database of the run starts with `<run>_`. */
function templateName(run: string): string {
  return `${run}_template`;
}

/**
 * Makes the run's migrated template database; its name prefix (`run`) is what the tests are given.
 * The role must be allowed to create databases, as `.ci/run`'s is (it makes the run's database).
 */
export async function createServerTemplate(url: string): Promise<string> {
  const run = `refmatch_t${randomBytes(4).toString('hex')}`;
  await asAdmin(url, (admin) => admin.query(`CREATE DATABASE ${quoteIdent(templateName(run))}`)).catch(
    (error: Error) => {
      throw new Error(
        `the tests make a database of their own on the server and could not (${error.message}): ` +
          'give the role in DATABASE_URL the CREATEDB privilege',
      );
    },
  );
  const template = openPostgres({ connectionString: databaseUrl(url, templateName(run)), maxConnections: 1 });
  try {
    await migrate(template);
  } finally {
    // A template no session is connected to, or it could not be copied.
    await template.close();
  }
  return run;
}

/** A new database copied from the run's template: its name, for `dropServerDatabase`. */
export async function copyServerTemplate(url: string, run: string): Promise<string> {
  const name = `${run}_${randomBytes(6).toString('hex')}`;
  await asAdmin(url, (admin) =>
    admin.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(templateName(run))}`),
  );
  return name;
}

/** Drops a test database, ending any session a test left on it (a process it started, a pool). */
export async function dropServerDatabase(url: string, name: string): Promise<void> {
  await asAdmin(url, (admin) => admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
}

/** Drops the run's template and every test database of the run still there. */
export async function dropServerRun(url: string, run: string): Promise<void> {
  await asAdmin(url, async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`,
      [`${run}_`],
    );
    for (const { datname } of rows)
      await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(datname)} WITH (FORCE)`);
  });
}
