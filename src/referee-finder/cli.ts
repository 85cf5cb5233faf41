import path from 'node:path';
import type { Command as Program } from 'commander';
import { intOption, type RunCommand } from '../infra/cli/options.ts';

export function registerRefereeFinderCli(program: Program, run: RunCommand): void {
  const coi = program.command('coi').description('Conflicts of interest declared by an organization');
  coi
    .command('import <file>')
    .description('CSV rows: manuscript origin_id (or * for every manuscript), then ORCID, email or author id')
    .requiredOption('--org <id>', 'organization id', intOption)
    .option('--replace', "drop the organization's earlier declarations first")
    // Resolved here: a server reached through the admin channel has another working directory.
    .action((file: string, o: { org: number; replace?: boolean }) =>
      run('coi import', { org: o.org, file: path.resolve(file), replace: o.replace ?? false }),
    );
}
