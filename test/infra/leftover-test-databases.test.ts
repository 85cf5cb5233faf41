// A server test run that crashed leaves its databases behind; the next run's set-up drops them
// (helpers/server-databases.ts), never those of a run still going.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { suiteOnServerPostgres } from '../helpers/db.ts';
import {
  dropLeftoverRuns,
  dropServerRun,
  holdServerRun,
  LEFTOVER_AFTER_HOURS,
  leftoverDatabases,
  serverRunName,
} from '../helpers/server-databases.ts';
import { quoteIdent } from '../../src/infra/db/quote.ts';

const now = new Date('2026-12-03T12:00:00Z');
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3600_000);

describe('leftoverDatabases: the databases of runs that are over', () => {
  it('are those of a run started more than the hours ago whose lock no session holds', () => {
    const old = serverRunName(hoursAgo(LEFTOVER_AFTER_HOURS + 1), 0xdeadbeef);
    const oldLive = serverRunName(hoursAgo(LEFTOVER_AFTER_HOURS + 1), 7);
    const recent = serverRunName(hoursAgo(LEFTOVER_AFTER_HOURS - 1), 8);
    const names = [
      `${old}_template`,
      `${old}_0123456789ab`,
      `${oldLive}_template`,
      `${recent}_template`,
      // Named before run names said when they started: nothing says the run is over.
      'refmatch_t0123abcd_template',
      'test',
    ];
    expect(leftoverDatabases(names, new Set([7]), now)).toEqual([`${old}_template`, `${old}_0123456789ab`]);
  });
});

describe.runIf(suiteOnServerPostgres)('dropLeftoverRuns on the server', () => {
  const url = process.env.DATABASE_URL!;
  const exists = async (name: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      return rows.length > 0;
    } finally {
      await client.end();
    }
  };
  const create = async (name: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`CREATE DATABASE ${quoteIdent(name)}`).finally(() => client.end());
  };

  it('keeps a run whose lock is held, however old, and drops it once the lock is let go', async () => {
    const held = await holdServerRun(url, new Date(Date.now() - (LEFTOVER_AFTER_HOURS + 1) * 3600_000));
    const name = `${held.run}_template`;
    try {
      await create(name);
      await dropLeftoverRuns(url);
      expect(await exists(name)).toBe(true);
    } finally {
      await held.release();
    }
    try {
      expect(await dropLeftoverRuns(url)).toContain(name);
      expect(await exists(name)).toBe(false);
    } finally {
      await dropServerRun(url, held.run);
    }
  });
});
