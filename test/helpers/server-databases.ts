// Test databases on server PostgreSQL (DATABASE_URL set): one migrated template database a run, made
// by the global set-up, and a copy of it for each test (CREATE DATABASE … TEMPLATE: 0.2 s where
// running the 47 migrations into a new schema took 2.7 s on the 2-core machine, 2026-12-02). The
// copies are named after the run, so whatever a run leaves behind is dropped by its tear-down. A run
// that crashed has no tear-down: the next run's set-up drops its databases (`dropLeftoverRuns`).
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
 * A run's name: when it started (seconds since 1970) and its key, 8 hex digits each. The key is the
 * advisory lock the run's set-up holds for as long as the run goes on (`holdServerRun`), on a
 * session of its own: the server lets the lock go when that session ends, the process with it.
 */
const RUN_NAME = /^refmatch_t([0-9a-f]{8})([0-9a-f]{8})(?:_|$)/;
/** The first half of a run's two-key advisory lock (the migrations' lock is one bigint key: apart). */
const RUN_LOCK_CLASS = 0x72656674;

export function serverRunName(startedAt: Date, key: number): string {
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return `refmatch_t${hex(Math.floor(startedAt.getTime() / 1000))}${hex(key)}`;
}

/**
 * Hours after its start that a run's databases may be dropped by another run, once no session holds
 * its lock. Both are asked: the lock gone says the run's process is gone; the hours are a margin for
 * a run still going whose lock's session alone ended (a connection cut, an idle timeout).
 */
export const LEFTOVER_AFTER_HOURS = 3;

/**
 * Which of the databases are leftovers: named by a run (`serverRunName`) that started more than
 * `LEFTOVER_AFTER_HOURS` before `now` and whose key no session holds (`liveKeys`). Databases named
 * otherwise, those of runs made before run names said when they started included, are never
 * leftovers: nothing says their run is over.
 */
export function leftoverDatabases(
  names: readonly string[],
  liveKeys: ReadonlySet<number>,
  now: Date,
): string[] {
  const before = now.getTime() / 1000 - LEFTOVER_AFTER_HOURS * 3600;
  return names.filter((name) => {
    const run = RUN_NAME.exec(name);
    if (!run) return false;
    return Number.parseInt(run[1]!, 16) < before && !liveKeys.has(Number.parseInt(run[2]!, 16));
  });
}

/** Drops the databases of runs that crashed (`leftoverDatabases`); answers their names. */
export async function dropLeftoverRuns(url: string, now = new Date()): Promise<string[]> {
  return asAdmin(url, async (admin) => {
    const { rows: databases } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE starts_with(datname, 'refmatch_t')`,
    );
    // pg_locks shows the locks of every database on the server: a run on another database is seen.
    const { rows: held } = await admin.query<{ key: string }>(
      `SELECT objid::bigint AS key FROM pg_locks
        WHERE locktype = 'advisory' AND classid = $1::bigint::oid AND objsubid = 2`,
      [RUN_LOCK_CLASS],
    );
    const live = new Set(held.map((h) => Number(h.key)));
    const leftovers = leftoverDatabases(
      databases.map((d) => d.datname),
      live,
      now,
    );
    for (const name of leftovers)
      await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    return leftovers;
  });
}

/** A run's name and the session holding its lock; `release` ends the session (the tear-down's last step). */
export interface HeldRun {
  run: string;
  release: () => Promise<void>;
}

/** Names a run and takes its lock, on a session kept open until `release`. */
export async function holdServerRun(url: string, startedAt = new Date()): Promise<HeldRun> {
  const key = randomBytes(4).readUInt32BE(0);
  const session = new pg.Client({ connectionString: url });
  await session.connect();
  // The lock's keys are int4: the key's 32 bits as a signed number (pg_locks shows them unsigned).
  await session.query('SELECT pg_advisory_lock($1, $2)', [RUN_LOCK_CLASS, key | 0]);
  return { run: serverRunName(startedAt, key), release: () => session.end() };
}

/**
 * Makes the run's migrated template database, after dropping the leftovers of crashed runs. The
 * run's name prefix is what the tests are given. The role must be allowed to create databases, as
 * `.ci/run`'s is (it makes the run's database).
 */
export async function createServerTemplate(url: string): Promise<HeldRun> {
  await dropLeftoverRuns(url);
  const held = await holdServerRun(url);
  const { run } = held;
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
  return held;
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
