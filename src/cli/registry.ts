// Every command the CLI and the admin channel can execute, listed by name.
import type { Command } from '../infra/cli/command.ts';
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

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each command narrows its own args
const commands: Command<any, unknown>[] = [
  migrateCommand,
  ...organizationCommands,
  ...authorsGroupCommands,
  ...customFieldCommands,
  ...journalCommands,
  ...folderCommands,
  ...manuscriptCommands,
  ...corpusCommands,
  ...refereeFinderCommands,
  ...userCommands,
  ...maintenanceCommands,
];

const byName = new Map(commands.map((c) => [c.name, c]));
for (const command of jobCommands((name) => byName.get(name))) byName.set(command.name, command);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function findCommand(name: string): Command<any, unknown> | undefined {
  return byName.get(name);
}
