// The job queue's named queries (migrations/0070_jobs.sql). A worker claims the oldest open job with
// FOR UPDATE SKIP LOCKED, so two workers never take the same row, and holds it by a lease it renews
// while it works; a job whose lease has passed is open again (its worker died) and the next claim
// resumes it. Every transition is one statement guarded by the worker's name, so a worker that lost
// its lease can no longer finish a job another has taken over.
import type { Queryable } from '../infra/db/index.ts';
import { errors } from '../infra/errors.ts';

export const JOB_STATES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** A job as `refmatch job list|show|cancel` print it. */
export interface Job {
  id: number;
  name: string;
  args: Record<string, unknown>;
  state: JobState;
  attempts: number;
  max_attempts: number;
  cancel_requested: boolean;
  worker: string | null;
  /** The command's latest progress event ({unit, done, total, message}). */
  progress: unknown;
  /** What the command returned (what `--wait` prints), once completed. */
  result: unknown;
  /** {code, message} of a failed job. */
  error: { code: string; message: string } | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  lease_until: string | null;
}

interface JobRow extends Omit<Job, 'created_at' | 'started_at' | 'finished_at' | 'lease_until'> {
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  lease_until: Date | null;
}

const COLUMNS = `id, name, args, state, attempts, max_attempts, cancel_requested, worker, progress, result,
  error, created_at, started_at, finished_at, lease_until`;

const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());

function toJob(row: JobRow): Job {
  return {
    ...row,
    id: Number(row.id),
    created_at: new Date(row.created_at).toISOString(),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    lease_until: iso(row.lease_until),
  };
}

export async function enqueueJob(db: Queryable, name: string, args: Record<string, unknown>): Promise<Job> {
  const { rows } = await db.query<JobRow>(
    `INSERT INTO jobs (name, args) VALUES ($1, $2::jsonb) RETURNING ${COLUMNS}`,
    [name, JSON.stringify(args)],
  );
  return toJob(rows[0]!);
}

export async function getJob(db: Queryable, id: number): Promise<Job> {
  const { rows } = await db.query<JobRow>(`SELECT ${COLUMNS} FROM jobs WHERE id = $1`, [id]);
  if (!rows[0]) throw errors.notFound(`Job ${id}`);
  return toJob(rows[0]);
}

export async function listJobs(db: Queryable, filter: { state?: JobState; limit: number }): Promise<Job[]> {
  const { rows } = await db.query<JobRow>(
    `SELECT ${COLUMNS} FROM jobs WHERE ($1::text IS NULL OR state = $1) ORDER BY id DESC LIMIT $2`,
    [filter.state ?? null, filter.limit],
  );
  return rows.map(toJob);
}

/**
 * A queued job is cancelled at once; a running one is asked to stop (its worker sees the request at
 * its next lease renewal and stops between batches: what committed stays). A finished job: conflict.
 */
export async function cancelJob(db: Queryable, id: number): Promise<Job> {
  const { rows } = await db.query<JobRow>(
    `UPDATE jobs SET
       state = CASE WHEN state = 'queued' THEN 'cancelled' ELSE state END,
       finished_at = CASE WHEN state = 'queued' THEN now() ELSE finished_at END,
       cancel_requested = true, updated_at = now()
     WHERE id = $1 AND state IN ('queued', 'running')
     RETURNING ${COLUMNS}`,
    [id],
  );
  if (rows[0]) return toJob(rows[0]);
  const job = await getJob(db, id);
  throw errors.conflict(`Job ${id} is ${job.state}: only a queued or running job can be cancelled`);
}

/** Jobs by state, for /metrics. */
export async function countJobs(db: Queryable): Promise<Record<JobState, number>> {
  const { rows } = await db.query<{ state: JobState; n: number }>(
    'SELECT state, count(*)::int AS n FROM jobs GROUP BY state',
  );
  const counts = Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>;
  for (const row of rows) counts[row.state] = row.n;
  return counts;
}

export interface ClaimedJob {
  id: number;
  name: string;
  args: Record<string, unknown>;
  attempts: number;
}

/**
 * Settles the jobs whose worker died and that must not run again (cancel requested, or out of
 * attempts), then claims the oldest open job for `worker`, or returns null.
 */
export async function claimJob(db: Queryable, worker: string, leaseMs: number): Promise<ClaimedJob | null> {
  await db.query(
    `UPDATE jobs SET
       state = CASE WHEN cancel_requested THEN 'cancelled' ELSE 'failed' END,
       error = CASE WHEN cancel_requested THEN NULL ELSE jsonb_build_object('code', 'worker_lost',
         'message', 'the worker running the job stopped ' || attempts || ' times without finishing it') END,
       finished_at = now(), lease_until = NULL, updated_at = now()
     WHERE state = 'running' AND lease_until < now() AND (cancel_requested OR attempts >= max_attempts)`,
  );
  const { rows } = await db.query<ClaimedJob>(
    `WITH next AS (
       SELECT id FROM jobs
        WHERE state = 'queued' OR (state = 'running' AND lease_until < now())
        ORDER BY id LIMIT 1
        FOR UPDATE SKIP LOCKED
     )
     UPDATE jobs j SET state = 'running', attempts = j.attempts + 1, worker = $1,
       lease_until = now() + $2 * interval '1 millisecond', started_at = coalesce(j.started_at, now()),
       updated_at = now()
     FROM next WHERE j.id = next.id
     RETURNING j.id, j.name, j.args, j.attempts`,
    [worker, leaseMs],
  );
  const row = rows[0];
  return row ? { ...row, id: Number(row.id) } : null;
}

/** Extends the lease and records progress; says whether the worker still holds the job. */
export async function renewLease(
  db: Queryable,
  id: number,
  worker: string,
  leaseMs: number,
  progress: unknown,
): Promise<{ held: boolean; cancelRequested: boolean }> {
  const { rows } = await db.query<{ cancel_requested: boolean }>(
    `UPDATE jobs SET lease_until = now() + $3 * interval '1 millisecond',
       progress = coalesce($4::jsonb, progress), updated_at = now()
     WHERE id = $1 AND worker = $2 AND state = 'running'
     RETURNING cancel_requested`,
    [id, worker, leaseMs, progress === undefined ? null : JSON.stringify(progress)],
  );
  return { held: rows.length > 0, cancelRequested: rows[0]?.cancel_requested ?? false };
}

export type JobOutcome =
  | { state: 'completed'; result: unknown; progress: unknown }
  | { state: 'failed'; error: { code: string; message: string }; progress: unknown }
  | { state: 'cancelled'; progress: unknown }
  /** Back to the queue (shutdown, or the database went away): claimed again and resumed. */
  | { state: 'queued'; progress: unknown };

export async function settleJob(
  db: Queryable,
  id: number,
  worker: string,
  outcome: JobOutcome,
): Promise<void> {
  const final = outcome.state !== 'queued';
  await db.query(
    `UPDATE jobs SET state = $3, result = $4::jsonb, error = $5::jsonb,
       progress = coalesce($6::jsonb, progress),
       finished_at = CASE WHEN $7 THEN now() END,
       worker = CASE WHEN $7 THEN worker END,
       lease_until = NULL, updated_at = now()
     WHERE id = $1 AND worker = $2 AND state = 'running'`,
    [
      id,
      worker,
      outcome.state,
      outcome.state === 'completed' ? JSON.stringify(outcome.result ?? null) : null,
      outcome.state === 'failed' ? JSON.stringify(outcome.error) : null,
      outcome.progress === undefined ? null : JSON.stringify(outcome.progress),
      final,
    ],
  );
}

/**
 * On the embedded database one process holds the data directory: a job still marked running when it
 * opens it was left by a process that died, and is open again at once rather than after its lease.
 */
export async function releaseOrphanedJobs(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE jobs SET lease_until = now() - interval '1 millisecond', updated_at = now() WHERE state = 'running'`,
  );
  return rowCount;
}
