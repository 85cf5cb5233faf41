-- The job queue (src/jobs): long commands (an ingest, relinking, author metrics) queued as rows and
-- run by the serving processes' workers. A worker claims a row with FOR UPDATE SKIP LOCKED and holds
-- it by a lease it renews while it works (lease_until); a worker killed mid-job stops renewing, and
-- once the lease has passed another worker (or the same process restarted) claims the job again and
-- the command resumes from its own checkpoints.
CREATE TABLE IF NOT EXISTS jobs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- The command the job runs, by its CLI name ('ingest works', 'corpus relink'), and its arguments.
  name text NOT NULL,
  args jsonb NOT NULL DEFAULT '{}',
  state text NOT NULL DEFAULT 'queued'
    CHECK (state IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
  -- Claims so far; a job whose worker died this many times is failed rather than claimed again.
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 5,
  worker text,
  lease_until timestamptz,
  cancel_requested boolean NOT NULL DEFAULT false,
  progress jsonb,
  result jsonb,
  error jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- What a worker looks for: queued jobs, and running ones whose lease may have passed.
CREATE INDEX IF NOT EXISTS jobs_open_idx ON jobs (id) WHERE state IN ('queued', 'running');
