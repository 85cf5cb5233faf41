// Kill -9 of a worker mid-job: a real `refmatch serve` runs a queued ingest, is killed with SIGKILL
// in the middle of the file, and is started again. The job must resume from the ingest's checkpoint
// and finish with the corpus of one clean run: nothing doubled, nothing lost.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/infra/db/index.ts';
import { openPostgres } from '../../src/infra/db/postgres.ts';
import type { Job } from '../../src/jobs/queue.ts';
import { createTestDatabase, createTestDataDir, type TestDatabase } from '../helpers/db.ts';
import { authorship, ingest, snapshot, tempDir, work, writeLines } from '../corpus/helpers.ts';

const BIN = path.resolve(import.meta.dirname, '../../bin/refmatch.js');
// The worker is killed at its first step logged (LOG_LEVEL=debug: a step of an ingest is a committed
// batch), so the kill comes after a few batches of 20 however loaded the machine: 4,000 lines leave a
// wide margin. (Killed at the first lease renewal instead, the point moved with the load: 500-3,680
// of 20,000 alone, 10,080-14,980 beside the suite's other worker, so the test needed 30,000 lines
// and took ~50 s.)
const WORKS = 4_000;
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

interface Target {
  env: Record<string, string>;
  open(): Promise<Database>;
}

async function target(dir: string): Promise<Target> {
  const base = { REFMATCH_DEMO: 'false', LOG_LEVEL: 'debug', JOB_LEASE_MS: '1500', JOB_POLL_MS: '200' };
  const url = process.env.DATABASE_URL;
  if (url) {
    const serverDb: TestDatabase = await createTestDatabase();
    cleanup.push(() => serverDb.destroy());
    const connectionString = serverDb.connectionString!;
    return {
      env: { ...base, DATABASE_URL: connectionString, REFMATCH_DATA_DIR: path.join(dir, 'data') },
      open: async () => openPostgres({ connectionString, maxConnections: 2 }),
    };
  }
  const dataDir = path.join(dir, 'data');
  await createTestDataDir(dataDir);
  return {
    env: { ...base, DATABASE_URL: '', REFMATCH_DATA_DIR: dataDir },
    open: () => openDatabase({ databaseUrl: null, dataDir }),
  };
}

function cli(env: Record<string, string>, ...args: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(JSON.parse(stdout));
      else reject(new Error(`refmatch ${args.join(' ')} exited with ${code}: ${stderr}`));
    });
  });
}

interface Served {
  child: ChildProcess;
  /** Resolves once the server's log (from its start) holds a line matching `pattern`. */
  logged(pattern: RegExp): Promise<void>;
}

function serve(env: Record<string, string>): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1' },
    });
    cleanup.push(async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await new Promise((r) => child.once('exit', r));
      }
    });
    let out = '';
    // A server that dies (other than by the test's own kill) fails every wait at once rather than
    // leaving the test to its 15-minute timeout.
    let exited: Error | null = null;
    const waiters: Array<{ pattern: RegExp; done: () => void; fail: (e: Error) => void }> = [];
    const onData = (c: Buffer) => {
      out += c.toString('utf8');
      for (const w of waiters.filter((w) => w.pattern.test(out))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.done();
      }
    };
    const logged = (pattern: RegExp) =>
      pattern.test(out)
        ? Promise.resolve()
        : exited
          ? Promise.reject(exited)
          : new Promise<void>((done, fail) => waiters.push({ pattern, done, fail }));
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    // 'close', not 'exit': the last of its output may still be in the pipes when it exits.
    child.once('close', (code, signal) => {
      exited = new Error(`serve exited (code ${code}, signal ${signal}) before its log said so: ${out}`);
      for (const w of waiters.splice(0)) w.fail(exited);
    });
    logged(/refmatch is listening on/).then(() => resolve({ child, logged }), reject);
  });
}

function makeWorks(): Record<string, unknown>[] {
  return Array.from({ length: WORKS }, (_, i) =>
    work({
      id: `https://openalex.org/W6${String(i).padStart(7, '0')}`,
      title: `Job resumption study ${i}`,
      cited_by_count: i % 19,
      publication_year: 1990 + (i % 30),
      abstract_inverted_index: { Queue: [0], job: [1], [`k${i}`]: [2] },
      authorships: [
        authorship(`https://openalex.org/A6${String(i % 400).padStart(7, '0')}`, `Worker Person${i % 400}`),
        authorship(`https://openalex.org/A8${String(i % 97).padStart(7, '0')}`, `Lease Holder${i % 97}`),
      ],
    }),
  );
}

describe('kill -9 of the worker running a job', () => {
  it(
    'resumes the job from its checkpoint after a restart; the corpus is that of one clean run',
    { timeout: 900_000 },
    async () => {
      const dir = await tempDir();
      const file = await writeLines(dir, 'works.jsonl', makeWorks());
      const t = await target(dir);

      const server = await serve(t.env);
      const queued = (await cli(t.env, 'ingest', 'works', file, '--batch-size', '20')) as Job;
      expect(queued).toMatchObject({ name: 'ingest works', state: 'queued' });
      // Killed as soon as the worker logs the job's first step (a committed batch): read from the
      // server's own log, not by polling, so that a slow machine does not let the job finish first.
      await server.logged(/"msg":"job step"/);
      server.child.kill('SIGKILL');
      await new Promise((r) => server.child.once('exit', r));

      let db = await t.open();
      const mid = (await db.query<{ lines_done: number }>('SELECT lines_done FROM ingest_checkpoints'))
        .rows[0]!;
      const stuck = (await db.query<{ state: string }>('SELECT state FROM jobs WHERE id = $1', [queued.id]))
        .rows[0]!;
      await db.close();
      expect(stuck.state).toBe('running');
      expect(mid.lines_done).toBeGreaterThan(0);
      expect(mid.lines_done).toBeLessThan(WORKS);

      const restarted = await serve(t.env);
      // The end of the job read from the server's log, then asked once: `refmatch job show` in a loop
      // started a process a second beside the server and slowed the job it waited for.
      await restarted.logged(new RegExp(`"job":${queued.id},[^\\n]*"msg":"job stopped"`));
      const done = (await cli(t.env, 'job', 'show', String(queued.id))) as Job;
      restarted.child.kill('SIGTERM');
      await new Promise((r) => restarted.child.once('exit', r));
      expect(done).toMatchObject({ state: 'completed', attempts: 2, error: null });
      const report = done.result as {
        records: number;
        files: Array<{ resumed_from_line: number; lines: number }>;
      };
      expect(report.files[0]!.resumed_from_line).toBe(mid.lines_done);
      expect(report.files[0]!.lines).toBe(WORKS);
      expect(report.records).toBe(WORKS);

      db = await t.open();
      const resumed = await snapshot(db);
      const counts = (
        await db.query<{ works: number; authorships: number }>(
          'SELECT (SELECT count(*)::int FROM works) AS works, (SELECT count(*)::int FROM authorships) AS authorships',
        )
      ).rows[0]!;
      await db.close();
      expect(counts).toEqual({ works: WORKS, authorships: 2 * WORKS });
      console.info(
        `kill -9 at line ${mid.lines_done} of ${WORKS}; resumed there on attempt ${done.attempts}; ` +
          `${counts.works} works, ${counts.authorships} authorships after the restart`,
      );

      const clean = await createTestDatabase();
      cleanup.push(() => clean.destroy());
      // The clean run in batches of the default size, not the job's 20: an ingest's corpus must not
      // depend on its batch size, and small batches only made this run slower.
      await ingest(clean, 'works', [file]);
      expect(resumed).toEqual(await snapshot(clean));
    },
  );
});
