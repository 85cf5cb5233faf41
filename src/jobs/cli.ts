import type { Command as Program } from 'commander';
import { intOption, type RunCommand } from '../infra/cli/options.ts';

export function registerJobCli(program: Program, run: RunCommand): void {
  const job = program
    .command('job')
    .description('Jobs on the queue: ingests, relinking and metrics queued without --wait');
  job
    .command('list')
    .description('Jobs, newest first')
    .option('--state <state>', 'only jobs in this state: queued, running, completed, failed, cancelled')
    .option('--limit <n>', 'at most this many (default 100)', intOption)
    .action((o: { state?: string; limit?: number }) =>
      run('job list', { ...(o.state ? { state: o.state } : {}), ...(o.limit ? { limit: o.limit } : {}) }),
    );
  job
    .command('show')
    .argument('<id>', 'the job id', intOption)
    .description('One job: state, progress, result or error')
    .action((id: number) => run('job show', { id }));
  job
    .command('cancel')
    .argument('<id>', 'the job id', intOption)
    .description('Cancel a queued job, or ask a running one to stop between its steps')
    .action((id: number) => run('job cancel', { id }));
}
