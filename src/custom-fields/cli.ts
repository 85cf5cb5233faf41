import { Option, type Command as Program } from 'commander';
import { collect, intOption, type RunCommand } from '../infra/cli/options.ts';
import { DATA_KINDS, OWNERS } from './kinds.ts';

export function registerCustomFieldCli(program: Program, run: RunCommand): void {
  const field = program
    .command('custom-field')
    .description('Custom fields (the spec\'s "user interface" for them): create, update, delete, list');
  field
    .command('create')
    .requiredOption('--org <id>', 'organization id', intOption)
    .addOption(
      new Option('--owner <owner>', 'what the field belongs to').choices(OWNERS).makeOptionMandatory(),
    )
    .addOption(new Option('--kind <kind>', 'data kind').choices(DATA_KINDS).makeOptionMandatory())
    .requiredOption('--name <name>', 'field name')
    .option('--description <text>', 'field description')
    .option('--option <text>', 'an option (single_option, multi_option); repeat for more', collect)
    .action((o: Record<string, unknown>) => run('custom-field create', o));
  field
    .command('update')
    .requiredOption('--field <api_id>', 'the field api_id')
    .option('--name <name>', 'new name')
    .option('--description <text>', 'new description; an empty string clears it')
    .option('--add-option <text>', 'add an option; repeat for more', collect)
    .option('--remove-option <api_id>', 'remove an option by api_id; repeat for more', collect)
    .action((o: Record<string, unknown>) => run('custom-field update', o));
  field
    .command('delete')
    .requiredOption('--field <api_id>', 'the field api_id')
    .action((o: { field: string }) => run('custom-field delete', o));
  field
    .command('list')
    .requiredOption('--org <id>', 'organization id', intOption)
    .action((o: { org: number }) => run('custom-field list', o));
}
