import path from 'node:path';
import type { Config } from '../config.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';
import type { Database, Queryable } from './types.ts';

export type { Database, Queryable, QueryResult, Transaction } from './types.ts';
export { isDatabaseUnavailable } from './unavailable.ts';

/** Runs `fn` in a transaction: the caller's when `db` is one already, else a new one. */
export async function inTransaction<T>(db: Queryable, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return 'transaction' in db ? (db as Database).transaction(fn) : fn(db);
}

/** Where the embedded database lives inside the data directory (which also holds its lock). */
export function embeddedDatabaseDir(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

/**
 * Server PostgreSQL when DATABASE_URL is set, else the embedded PGlite database in the data
 * directory, locked to this process until the database is closed.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'pgliteSharedBuffersMb'>>,
): Promise<Database> {
  if (config.databaseUrl) return openPostgres({ connectionString: config.databaseUrl });
  const release = await lockDataDir(config.dataDir);
  try {
    const db = await openPglite({
      dataDir: embeddedDatabaseDir(config.dataDir),
      sharedBuffersMb: config.pgliteSharedBuffersMb,
    });
    const close = db.close.bind(db);
    return {
      ...db,
      async close() {
        await close();
        await release();
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}
