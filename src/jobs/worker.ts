// The job worker a serving process runs: claims one job at a time from the queue, runs its command
// with a lease it renews every third of the lease, and settles the job. A cancel request (seen at a
// renewal), a lost lease or shutdown aborts the command's signal; the command stops between steps
// and whatever committed stays, so the next claim resumes from the command's own checkpoints.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { CommandContext, ProgressEvent, ServerHooks } from '../infra/cli/command.ts';
import type { Config } from '../infra/config.ts';
import { isDatabaseUnavailable, type Database } from '../infra/db/index.ts';
import type { FindCommand } from './commands.ts';
import {
  claimJob,
  releaseOrphanedJobs,
  renewLease,
  settleJob,
  type ClaimedJob,
  type JobOutcome,
} from './queue.ts';

export interface JobWorkerOptions {
  config: Config;
  db: Database;
  find: FindCommand;
  hooks: ServerHooks;
  log: Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;
}

type StopReason = 'cancel' | 'lease_lost' | 'shutdown';

export class JobWorker {
  readonly name = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private stopping = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private current: AbortController | undefined;

  constructor(private readonly options: JobWorkerOptions) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** Looks for a job now rather than at the next poll (a job was just queued in this process). */
  wake(): void {
    this.wakeUp?.();
  }

  /** Stops claiming; a running job is aborted and put back on the queue (its next claim resumes it). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.current?.abort('shutdown' satisfies StopReason);
    this.wakeUp?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    const { db, config, log } = this.options;
    // On the embedded database this process holds the data directory alone: a job still marked
    // running was left by a process that died, and need not wait for its lease to pass.
    if (db.driver === 'pglite') {
      const released = await releaseOrphanedJobs(db).catch(() => 0);
      if (released > 0) log.info({ jobs: released }, 'jobs left running by a stopped process are open again');
    }
    while (!this.stopping) {
      let job: ClaimedJob | null = null;
      try {
        job = await claimJob(db, this.name, config.jobs.leaseMs);
      } catch (error) {
        if (!this.stopping) log.warn({ err: error }, 'could not claim a job');
      }
      if (job) await this.runJob(job);
      else await this.sleep(config.jobs.pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = done;
    }).finally(() => {
      this.wakeUp = undefined;
    });
  }

  private async runJob(job: ClaimedJob): Promise<void> {
    const { db, config, find, hooks, log } = this.options;
    const controller = new AbortController();
    this.current = controller;
    if (this.stopping) controller.abort('shutdown' satisfies StopReason);
    let progress: ProgressEvent | undefined;
    let reported: ProgressEvent | undefined;
    const renew = async () => {
      const latest = progress === reported ? undefined : progress;
      reported = progress;
      try {
        const lease = await renewLease(db, job.id, this.name, config.jobs.leaseMs, latest);
        // What `refmatch job show` would say, in the log too: once a renewal, when it moved.
        if (latest) log.info({ job: job.id, progress: latest }, 'job progress');
        if (!lease.held) controller.abort('lease_lost' satisfies StopReason);
        else if (lease.cancelRequested) controller.abort('cancel' satisfies StopReason);
      } catch (error) {
        // The lease runs on; if the database stays away, another worker takes the job once it passes.
        log.warn({ err: error, job: job.id }, 'could not renew the lease of a job');
      }
    };
    let renewing: Promise<void> | undefined;
    const heartbeat = setInterval(
      () => {
        renewing ??= renew().finally(() => (renewing = undefined));
      },
      Math.max(50, Math.floor(config.jobs.leaseMs / 3)),
    );
    log.info({ job: job.id, name: job.name, attempt: job.attempts, worker: this.name }, 'job started');
    let outcome: JobOutcome | undefined;
    try {
      const command = find(job.name);
      if (!command?.queueable)
        throw Object.assign(new Error(`${job.name} cannot run as a job`), { code: 'unknown_command' });
      const ctx: CommandContext = {
        config,
        db,
        server: hooks,
        signal: controller.signal,
        resumed: job.attempts > 1,
        progress: (event) => {
          progress = event;
          // Every step at debug level (a step of an ingest is a committed batch); at info, once a renewal.
          log.debug({ job: job.id, progress: event }, 'job step');
        },
      };
      const result = await command.run(ctx, job.args);
      outcome = { state: 'completed', result, progress };
    } catch (error) {
      const reason = controller.signal.aborted ? (controller.signal.reason as StopReason) : undefined;
      if (reason === 'cancel') outcome = { state: 'cancelled', progress };
      else if (reason === 'lease_lost') outcome = undefined;
      else if (reason === 'shutdown' || isDatabaseUnavailable(error)) outcome = { state: 'queued', progress };
      else {
        // The code the CLI would print for the same error (src/cli/main.ts).
        const code = (error as { code?: unknown }).code;
        outcome = {
          state: 'failed',
          error: {
            code: typeof code === 'string' && /^[a-z_]+$/.test(code) ? code : 'command_failed',
            message: error instanceof Error ? error.message : String(error),
          },
          progress,
        };
      }
    } finally {
      clearInterval(heartbeat);
      await renewing;
      this.current = undefined;
    }
    if (outcome) {
      await settleJob(db, job.id, this.name, outcome).catch((error: unknown) =>
        log.warn({ err: error, job: job.id }, 'could not record the end of a job'),
      );
    }
    log.info({ job: job.id, name: job.name, state: outcome?.state ?? 'taken over' }, 'job stopped');
    if (outcome?.state === 'completed') {
      // As after a command through the admin channel: e.g. the index reads the works just ingested.
      hooks.invalidateAuth();
      for (const after of hooks.afterCommand) {
        await after(job.name).catch((error: unknown) => log.warn({ err: error }, 'after-job hook failed'));
      }
    }
  }
}
