// The job queue's rules, in process on a real database: what may be queued, one claim per job, the
// lease (a dead worker's job is taken over; the old worker can no longer settle it), cancelling,
// attempts, and a worker running a queued ingest to the report `--wait` prints.
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/infra/config.ts';
import { findCommand } from '../../src/cli/registry.ts';
import type { CommandContext, ServerHooks } from '../../src/infra/cli/command.ts';
import type { Job } from '../../src/jobs/queue.ts';
import { claimJob, renewLease, settleJob, getJob } from '../../src/jobs/queue.ts';
import { JobWorker } from '../../src/jobs/worker.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { testConfig } from '../helpers/app.ts';
import { authorship, tempDir, work, writeLines } from '../corpus/helpers.ts';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const silent = { debug() {}, info() {}, warn() {}, error() {} };

async function setup(overrides: Partial<Config['jobs']> = {}) {
  const db = await createTestDatabase();
  cleanup.push(() => db.destroy());
  const base = testConfig();
  const config: Config = { ...base, jobs: { ...base.jobs, pollMs: 50, ...overrides } };
  return { db, config };
}

function command(db: TestDatabase, config: Config, name: string, args: Record<string, unknown>) {
  const ctx: CommandContext = { config, db, progress: () => {} };
  return findCommand(name)!.run(ctx, args);
}

const enqueue = (db: TestDatabase, config: Config, name: string, args: Record<string, unknown> = {}) =>
  command(db, config, 'job enqueue', { name, args }) as Promise<Job>;

function startWorker(db: TestDatabase, config: Config, hooks?: ServerHooks) {
  const worker = new JobWorker({
    config,
    db,
    find: findCommand,
    hooks: hooks ?? { invalidateAuth() {}, afterCommand: [] },
    log: silent,
  });
  worker.start();
  cleanup.push(() => worker.stop());
  return worker;
}

async function until(db: TestDatabase, id: number, done: (job: Job) => boolean): Promise<Job> {
  for (;;) {
    const job = await getJob(db, id);
    if (done(job)) return job;
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function worksFile(n: number): Promise<string> {
  const records = Array.from({ length: n }, (_, i) =>
    work({
      id: `https://openalex.org/W7${String(i).padStart(7, '0')}`,
      title: `Queued ingestion study ${i}`,
      authorships: [
        authorship(`https://openalex.org/A7${String(i % 13).padStart(7, '0')}`, `Queue Author${i % 13}`),
      ],
    }),
  );
  return writeLines(await tempDir(), 'works.jsonl', records);
}

describe('queueing a command', () => {
  it('queues an ingest as a job and prints it; refuses a command that cannot run as a job', async () => {
    const { db, config } = await setup();
    const job = await enqueue(db, config, 'ingest works', { files: ['/tmp/x.jsonl'] });
    expect(job).toMatchObject({ name: 'ingest works', state: 'queued', attempts: 0, result: null });
    await expect(enqueue(db, config, 'org create', { name: 'x' })).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });

  it("validates the command's arguments when queueing, not only when the job runs", async () => {
    const { db, config } = await setup();
    await expect(enqueue(db, config, 'ingest works', { files: [] })).rejects.toMatchObject({
      code: 'validation_failed',
    });
    await expect(
      enqueue(db, config, 'ingest works', { files: ['/tmp/x'], batchSize: 0 }),
    ).rejects.toMatchObject({ code: 'validation_failed' });
    expect(await command(db, config, 'job list', {})).toEqual([]);
  });
});

describe('claiming', () => {
  it('gives a job to one worker only', async () => {
    const { db, config } = await setup();
    const job = await enqueue(db, config, 'corpus relink');
    const claims = await Promise.all([claimJob(db, 'a', 60_000), claimJob(db, 'b', 60_000)]);
    expect(claims.filter((c) => c !== null).map((c) => c!.id)).toEqual([job.id]);
  });

  it('takes over a job whose lease has passed, and the old worker can then neither renew nor settle it', async () => {
    const { db, config } = await setup();
    const job = await enqueue(db, config, 'corpus relink');
    expect((await claimJob(db, 'dead', 1))?.id).toBe(job.id);
    await new Promise((r) => setTimeout(r, 20));
    const taken = await claimJob(db, 'alive', 60_000);
    expect(taken).toMatchObject({ id: job.id, attempts: 2 });
    expect((await renewLease(db, job.id, 'dead', 60_000, undefined)).held).toBe(false);
    await settleJob(db, job.id, 'dead', {
      state: 'failed',
      error: { code: 'x', message: 'x' },
      progress: null,
    });
    expect(await getJob(db, job.id)).toMatchObject({ state: 'running', worker: 'alive' });
  });

  it('fails a job whose workers died max_attempts times, instead of claiming it again', async () => {
    const { db, config } = await setup();
    const job = await enqueue(db, config, 'corpus relink');
    await db.query('UPDATE jobs SET max_attempts = 1 WHERE id = $1', [job.id]);
    await claimJob(db, 'dead', 1);
    await new Promise((r) => setTimeout(r, 20));
    expect(await claimJob(db, 'next', 60_000)).toBeNull();
    expect(await getJob(db, job.id)).toMatchObject({ state: 'failed', error: { code: 'worker_lost' } });
  });
});

describe('cancelling', () => {
  it('cancels a queued job at once and refuses to cancel a finished one', async () => {
    const { db, config } = await setup();
    const job = await enqueue(db, config, 'corpus relink');
    const cancelled = (await command(db, config, 'job cancel', { id: job.id })) as Job;
    expect(cancelled).toMatchObject({ state: 'cancelled', cancel_requested: true });
    expect(cancelled.finished_at).not.toBeNull();
    expect(await claimJob(db, 'w', 60_000)).toBeNull();
    await expect(command(db, config, 'job cancel', { id: job.id })).rejects.toMatchObject({
      code: 'conflict',
    });
    await expect(command(db, config, 'job show', { id: 999_999 })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('stops a running ingest between batches; what committed stays', async () => {
    const { db, config } = await setup({ leaseMs: 300 });
    const file = await worksFile(3_000);
    const job = await enqueue(db, config, 'ingest works', {
      files: [file],
      batchSize: 10,
      initialLoad: 'never',
    });
    startWorker(db, config);
    await until(db, job.id, (j) => j.state === 'running');
    await command(db, config, 'job cancel', { id: job.id });
    const done = await until(db, job.id, (j) => j.state !== 'running');
    expect(done.state).toBe('cancelled');
    const { rows } = await db.query<{ lines_done: number }>('SELECT lines_done FROM ingest_checkpoints');
    const works = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM works');
    expect(rows[0]!.lines_done).toBeLessThan(3_000);
    expect(works.rows[0]!.n).toBe(rows[0]!.lines_done);
  });
});

describe('the worker', () => {
  it('runs a queued ingest to the report that --wait prints, then runs the after-command hooks', async () => {
    const { db, config } = await setup();
    const file = await worksFile(40);
    const direct = await createTestDatabase();
    cleanup.push(() => direct.destroy());
    const report = await command(direct, config, 'ingest works', { files: [file] });

    const after: string[] = [];
    const job = await enqueue(db, config, 'ingest works', { files: [file] });
    startWorker(db, config, { invalidateAuth() {}, afterCommand: [async (name) => void after.push(name)] });
    const done = await until(db, job.id, (j) => j.state !== 'queued' && j.state !== 'running');
    expect(done).toMatchObject({ state: 'completed', attempts: 1, error: null });
    expect(done.result).toEqual(report);
    expect(done.progress).toMatchObject({ unit: 'works', done: 40, total: 40 });
    expect(after).toEqual(['ingest works']);
  });

  it("records a failed job's error as the CLI would print it", async () => {
    const { db, config } = await setup();
    const job = await enqueue(db, config, 'ingest works', { files: ['/nonexistent/works.jsonl'] });
    startWorker(db, config);
    const done = await until(db, job.id, (j) => j.state !== 'queued' && j.state !== 'running');
    expect(done.state).toBe('failed');
    expect(done.error?.message).toContain('/nonexistent/works.jsonl');
  });

  it('puts the running job back on the queue when it stops (shutdown)', async () => {
    const { db, config } = await setup();
    const file = await worksFile(3_000);
    const job = await enqueue(db, config, 'ingest works', {
      files: [file],
      batchSize: 10,
      initialLoad: 'never',
    });
    const worker = startWorker(db, config);
    await until(db, job.id, (j) => j.state === 'running');
    await worker.stop();
    expect(await getJob(db, job.id)).toMatchObject({ state: 'queued', worker: null, attempts: 1 });
  });
});
