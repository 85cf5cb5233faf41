import type { Command as Program } from 'commander';
import { intOption, type RunCommand } from '../infra/cli/options.ts';

export function registerManuscriptCli(program: Program, run: RunCommand): void {
  program
    .command('mark')
    .description('Mark a candidate as a referee of a manuscript (or --unmark)')
    .requiredOption('--org <id>', 'organization id', intOption)
    .requiredOption('--origin-id <id>', "the manuscript's origin_id")
    .requiredOption('--author <id>', 'author id of the candidate', intOption)
    .option('--by <email>', 'email of the user who marks (required unless --unmark)')
    .option('--unmark', 'remove the mark')
    .action((o: Record<string, unknown>) => run('mark', o));
}
