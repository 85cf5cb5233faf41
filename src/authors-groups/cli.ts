import type { Command as Program } from 'commander';
import { intOption, type RunCommand } from '../infra/cli/options.ts';

export function registerAuthorsGroupCli(program: Program, run: RunCommand): void {
  const group = program.command('group').description('Authors groups: create, list');
  group
    .command('create')
    .requiredOption('--org <id>', 'organization id', intOption)
    .requiredOption('--name <name>', 'group name')
    .action((o: { org: number; name: string }) => run('group create', o));
  group
    .command('list')
    .requiredOption('--org <id>', 'organization id', intOption)
    .action((o: { org: number }) => run('group list', o));
}
