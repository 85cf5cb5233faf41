// Runs a CLI command by name against a test database, as `refmatch <name>` would.
import { findCommand } from '../../src/cli/registry.ts';
import type { TestApp } from '../helpers/app.ts';

export async function runCommand(t: TestApp, name: string, args: Record<string, unknown>): Promise<unknown> {
  const command = findCommand(name);
  if (!command) throw new Error(`no command ${name}`);
  return command.run({ config: t.config, db: t.db, progress: () => {} }, args);
}
