// Runs a command where it can run: on server PostgreSQL directly; on the embedded database, through
// the serving process's admin channel when a server holds the data directory, else directly.
import type { Config } from '../infra/config.ts';
import { openDatabase } from '../infra/db/index.ts';
import { migrate } from '../infra/db/migrate.ts';
import type { ProgressEvent } from './command.ts';
import { findCommand } from './registry.ts';
import { AdminChannelUnavailable, readAdminEndpoint, sendCommand } from './admin-channel.ts';

export async function executeCommand(
  config: Config,
  name: string,
  args: unknown,
  onProgress: (event: ProgressEvent) => void,
): Promise<unknown> {
  const command = findCommand(name);
  if (!command) throw new Error(`Unknown command: ${name}`);
  if (!config.databaseUrl) {
    const endpoint = await readAdminEndpoint(config.dataDir);
    if (endpoint) {
      try {
        return await sendCommand(endpoint, name, args, onProgress);
      } catch (error) {
        // A server that died without cleaning up leaves admin.json behind; fall through to opening
        // the directory ourselves (the data-directory lock still protects against a live owner).
        if (!(error instanceof AdminChannelUnavailable)) throw error;
      }
    }
  }
  const db = await openDatabase(config);
  try {
    if (name !== 'migrate') await migrate(db);
    return await command.run({ config, db, progress: onProgress }, args);
  } finally {
    await db.close();
  }
}
