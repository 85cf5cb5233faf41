// `refmatch job list|show|cancel`, and the queueing of a queueable command (what `refmatch ingest …`
// without --wait does). The commands a job may run are found through `find`, the CLI's registry,
// which lists these too. Handlers load the queue when they run (see src/cli/registry.ts).
import { defineCommand, defineGroup, type Command } from '../infra/cli/command.ts';
import { intOption } from '../infra/cli/options.ts';
import { errors } from '../infra/app-error.ts';

function jobId(args: { id?: unknown }): number {
  const id = Number(args.id);
  if (!Number.isInteger(id) || id < 1) throw errors.validation('The job id must be a positive whole number');
  return id;
}

const ID = { syntax: '<id>', description: 'the job id', parse: intOption };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each command narrows its own args
export type FindCommand = (name: string) => Command<any, unknown> | undefined;

export function jobCommands(find: FindCommand) {
  return [
    defineCommand({
      name: 'job enqueue',
      internal: true,
      async run(ctx, args: { name: string; args?: Record<string, unknown> }) {
        const command = find(args.name);
        if (!command?.queueable) throw errors.validation(`${String(args.name)} cannot run as a job`);
        const commandArgs = args.args ?? {};
        command.validate?.(commandArgs);
        const { enqueueJob } = await import('./queue.ts');
        return enqueueJob(ctx.db, command.name, commandArgs);
      },
    }),
    defineGroup('job', 'Jobs on the queue: ingests, relinking and metrics queued without --wait'),
    defineCommand({
      name: 'job list',
      description: 'Jobs, newest first',
      options: [
        {
          flags: '--state <state>',
          description: 'only jobs in this state: queued, running, completed, failed, cancelled',
        },
        { flags: '--limit <n>', description: 'at most this many (default 100)', parse: intOption },
      ],
      async run(ctx, args: { state?: string; limit?: number }) {
        const { JOB_STATES, listJobs } = await import('./queue.ts');
        type JobState = (typeof JOB_STATES)[number];
        if (args.state !== undefined && !JOB_STATES.includes(args.state as JobState)) {
          throw errors.validation(`--state must be one of ${JOB_STATES.join(', ')}`);
        }
        const limit = args.limit ?? 100;
        if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
          throw errors.validation('--limit must be between 1 and 10000');
        }
        return listJobs(ctx.db, { ...(args.state ? { state: args.state as JobState } : {}), limit });
      },
    }),
    defineCommand({
      name: 'job show',
      description: 'One job: state, progress, result or error',
      arguments: [ID],
      async run(ctx, args: { id: number }) {
        const { getJob } = await import('./queue.ts');
        return getJob(ctx.db, jobId(args));
      },
    }),
    defineCommand({
      name: 'job cancel',
      description: 'Cancel a queued job, or ask a running one to stop between its steps',
      arguments: [ID],
      async run(ctx, args: { id: number }) {
        const { cancelJob } = await import('./queue.ts');
        return cancelJob(ctx.db, jobId(args));
      },
    }),
  ];
}
