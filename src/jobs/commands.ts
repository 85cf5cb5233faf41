// `refmatch job list|show|cancel`, and the queueing of a queueable command (what `refmatch ingest …`
// without --wait does). The commands a job may run are found through `find`, the CLI's registry,
// which lists these too.
import { defineCommand, type Command } from '../infra/cli/command.ts';
import { errors } from '../infra/errors.ts';
import { cancelJob, enqueueJob, getJob, JOB_STATES, listJobs, type JobState } from './queue.ts';

function jobId(args: { id?: unknown }): number {
  const id = Number(args.id);
  if (!Number.isInteger(id) || id < 1) throw errors.validation('The job id must be a positive whole number');
  return id;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each command narrows its own args
export type FindCommand = (name: string) => Command<any, unknown> | undefined;

export function jobCommands(find: FindCommand) {
  return [
    defineCommand({
      name: 'job enqueue',
      async run(ctx, args: { name: string; args?: Record<string, unknown> }) {
        const command = find(args.name);
        if (!command?.queueable) throw errors.validation(`${String(args.name)} cannot run as a job`);
        const commandArgs = args.args ?? {};
        command.validate?.(commandArgs);
        return enqueueJob(ctx.db, command.name, commandArgs);
      },
    }),
    defineCommand({
      name: 'job list',
      async run(ctx, args: { state?: string; limit?: number }) {
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
      run: (ctx, args: { id: number }) => getJob(ctx.db, jobId(args)),
    }),
    defineCommand({
      name: 'job cancel',
      run: (ctx, args: { id: number }) => cancelJob(ctx.db, jobId(args)),
    }),
  ];
}
