// Runs a command where it can run: on server PostgreSQL directly; on the embedded database, through
// the serving process's admin channel when a server holds the data directory, else directly.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../infra/config.ts';
import { embeddedDatabaseDir, openDatabase, type Database } from '../infra/db/index.ts';
import { migrate } from '../infra/db/migrate.ts';
import type { ProgressEvent } from '../infra/cli/command.ts';
import { findCommand } from './registry.ts';
import { setDeploymentLimits } from '../organizations/limits.ts';
import { AdminChannelUnavailable, readAdminEndpoint, sendCommand } from './admin-channel.ts';

export interface ExecuteOptions {
  /** Create the database when there is none yet (`--create-data-dir`); `migrate` always may. */
  create?: boolean;
}

/** The CLI was pointed at a place with no refmatch database, and was not asked to create one. */
export class DatabaseNotFoundError extends Error {
  override name = 'DatabaseNotFoundError';
  readonly code = 'database_not_found';
}

const HOW_TO =
  'Set REFMATCH_DATA_DIR (or DATABASE_URL) to the database the server uses, run the command where the ' +
  "server's ./data is, or create a new database with `refmatch migrate` or `refmatch --create-data-dir <command>`.";

/** PGlite writes PG_VERSION when it creates its directory: without it, opening would create one. */
function hasEmbeddedDatabase(dataDir: string): boolean {
  return existsSync(path.join(embeddedDatabaseDir(dataDir), 'PG_VERSION'));
}

async function hasBeenMigrated(db: Database): Promise<boolean> {
  const { rows } = await db.query<{ table: string | null }>(
    `SELECT to_regclass('schema_migrations')::text AS table`,
  );
  return rows[0]?.table != null;
}

function serverName(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname}`;
}

export async function executeCommand(
  config: Config,
  name: string,
  args: unknown,
  onProgress: (event: ProgressEvent) => void,
  options: ExecuteOptions = {},
): Promise<unknown> {
  const command = findCommand(name);
  if (!command) throw new Error(`Unknown command: ${name}`);
  const mayCreate = options.create === true || name === 'migrate';
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
    if (!mayCreate && !hasEmbeddedDatabase(config.dataDir)) {
      throw new DatabaseNotFoundError(`No refmatch database in ${config.dataDir}. ${HOW_TO}`);
    }
  }
  const db = await openDatabase(config);
  try {
    if (config.databaseUrl && !mayCreate && !(await hasBeenMigrated(db))) {
      throw new DatabaseNotFoundError(
        `The database ${serverName(config.databaseUrl)} has no refmatch tables. ${HOW_TO}`,
      );
    }
    if (name !== 'migrate') await migrate(db);
    // The caps this process's configuration sets; through the admin channel, the server's apply.
    setDeploymentLimits(config.limits);
    return await command.run({ config, db, progress: onProgress }, args);
  } finally {
    await db.close();
  }
}
