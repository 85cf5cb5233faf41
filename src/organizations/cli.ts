import type { Command as Program } from 'commander';
import { boolOption, intOption, type RunCommand } from '../infra/cli/options.ts';

export function registerOrganizationCli(program: Program, run: RunCommand): void {
  const org = program.command('org').description('Organizations: create, list, settings');
  org
    .command('create')
    .requiredOption('--name <name>', 'organization name')
    .option(
      '--features <list>',
      'comma-separated: referee_finder,recommend_journals',
      'referee_finder,recommend_journals',
    )
    .action((o: { name: string; features: string }) => run('org create', o));
  org.command('list').action(() => run('org list', {}));
  org
    .command('settings')
    .requiredOption('--org <id>', 'organization id', intOption)
    .option('--prefer <source>', 'parsed | supplied')
    .option('--include-conflicts <bool>', 'true | false', boolOption)
    .option('--include-without-email <bool>', 'true | false', boolOption)
    .option('--max-candidates <n>', 'candidates returned per upload, 1-500', intOption)
    .option('--features <list>', 'replace the plan: comma-separated features')
    .action((o: Record<string, unknown>) => run('org settings', o));

  const key = program.command('key').description('API keys');
  key
    .command('create')
    .requiredOption('--org <id>', 'organization id', intOption)
    .action((o: { org: number }) => run('key create', o));
  key
    .command('revoke')
    .requiredOption('--key <key>', 'the full API key')
    .action((o: { key: string }) => run('key revoke', o));
}
