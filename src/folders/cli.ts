import type { Command as Program } from 'commander';
import { intOption, type RunCommand } from '../infra/cli/options.ts';

export function registerFolderCli(program: Program, run: RunCommand): void {
  const folder = program.command('folder').description('Folders: referee finder settings');
  folder
    .command('settings')
    .description('Name the authors groups of a folder and their effect (creates the folder if missing)')
    .requiredOption('--org <id>', 'organization id', intOption)
    .requiredOption('--folder <name>', 'folder name, as the upload sends it')
    .requiredOption('--groups <ids>', 'comma-separated authors group ids of the organization ("" for none)')
    .requiredOption('--effect <effect>', 'highlight | limit_to | boost')
    .option('--boost <multiplier>', 'score multiplier for group members (with --effect boost)')
    .action((o: Record<string, unknown>) => run('folder settings', o));
}
