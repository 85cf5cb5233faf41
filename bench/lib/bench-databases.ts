// The databases a bench of the store measures on, one after the other, as BENCH_DRIVERS names them
// (default "pglite,postgres"): PGlite in memory, and a fresh database on the server (DATABASE_URL,
// else postgres://postgres@127.0.0.1:5432/test) that is dropped afterwards.
import pg from 'pg';
import type { Database } from '../../src/infra/db/index.ts';
import { openPglite } from '../../src/infra/db/pglite.ts';
import { openPostgres } from '../../src/infra/db/postgres.ts';

const DRIVERS = (process.env.BENCH_DRIVERS ?? 'pglite,postgres').split(',');
const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** Runs `measure` on each driver asked for; `name` prefixes the server database's name. */
export async function onEachBenchDatabase(
  name: string,
  measure: (db: Database, label: string) => Promise<void>,
): Promise<void> {
  if (DRIVERS.includes('pglite')) {
    const db = await openPglite({});
    try {
      await measure(db, 'PGlite (in memory)');
    } finally {
      await db.close();
    }
  }
  if (DRIVERS.includes('postgres')) {
    const database = `${name}_${process.pid}`;
    const admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    const url = new URL(SERVER_URL);
    url.pathname = `/${database}`;
    const db = await openPostgres({ connectionString: url.toString() });
    try {
      await measure(db, 'server PostgreSQL');
    } finally {
      await db.close();
      await admin.query(`DROP DATABASE ${database} WITH (FORCE)`);
      await admin.end();
    }
  }
}
