import type { Command as Program } from 'commander';
import { intOption, type RunCommand } from '../infra/cli/options.ts';

export function registerJournalCli(program: Program, run: RunCommand): void {
  const journal = program
    .command('journal')
    .description("Journals linked to an organization's folders (what org_journals recommends from)");
  journal
    .command('link')
    .description('Link a journal (corpus source id) to a folder; the folder is created when missing')
    .requiredOption('--org <id>', 'organization id', intOption)
    .requiredOption('--folder <name>', 'folder name, as given at manuscript upload')
    .requiredOption('--source <id>', 'journal (source) id', intOption)
    .action((o: { org: number; folder: string; source: number }) => run('journal link', o));
  journal
    .command('unlink')
    .description("Remove a journal's link")
    .requiredOption('--org <id>', 'organization id', intOption)
    .requiredOption('--source <id>', 'journal (source) id', intOption)
    .option('--folder <name>', 'only when linked to this folder')
    .action((o: { org: number; source: number; folder?: string }) => run('journal unlink', o));
  journal
    .command('links')
    .description("List the organization's linked journals")
    .requiredOption('--org <id>', 'organization id', intOption)
    .action((o: { org: number }) => run('journal links', o));
}
