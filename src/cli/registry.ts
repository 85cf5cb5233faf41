// Every command the CLI, the admin channel and the job worker can execute, as declared in its domain,
// in the order `refmatch --help` lists them. The declarations are cheap to load (their handlers load
// what they need when they run), so the CLI builds its parser from them without loading the domains.
import type { Command, CommandGroup, LocalCommand } from '../infra/cli/command.ts';
import { migrateCommand } from '../system/commands.ts';
import { organizationCommands } from '../organizations/commands.ts';
import { authorsGroupCommands } from '../authors-groups/commands.ts';
import { customFieldCommands } from '../custom-fields/commands.ts';
import { journalCommands } from '../journals/commands.ts';
import { folderCommands } from '../folders/commands.ts';
import { manuscriptCommands } from '../manuscripts/commands.ts';
import { corpusCommands } from '../corpus/commands.ts';
import { refereeFinderCommands } from '../referee-finder/commands.ts';
import { userCommands } from '../users/commands.ts';
import { maintenanceCommands } from '../corpus/maintenance-commands.ts';
import { jobCommands } from '../jobs/commands.ts';
import { parseCommand } from '../parsing/commands.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each command narrows its own args
type AnyCommand = Command<any, unknown>;

const byName = new Map<string, AnyCommand>();
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function findCommand(name: string): Command<any, unknown> | undefined {
  return byName.get(name);
}

export const cliDeclarations: ReadonlyArray<AnyCommand | LocalCommand<never> | CommandGroup> = [
  migrateCommand,
  ...organizationCommands,
  ...authorsGroupCommands,
  ...customFieldCommands,
  ...journalCommands,
  ...corpusCommands,
  ...maintenanceCommands,
  ...refereeFinderCommands,
  parseCommand,
  ...folderCommands,
  ...manuscriptCommands,
  ...userCommands,
  ...jobCommands(findCommand),
];

for (const declared of cliDeclarations) {
  if ('run' in declared && !('local' in declared)) byName.set(declared.name, declared);
}
