// Numbered plain-SQL migrations (migrations/NNNN_name.sql), applied in order at start-up, each in its
// own transaction and recorded, so running them again is a no-op. An advisory lock lets several
// instances start at once against one server without racing.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './types.ts';

export const MIGRATIONS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../migrations',
);
const LOCK_KEY = 7_170_431; // arbitrary, constant: "refmatch migrations"

export interface Migration {
  version: string;
  file: string;
}

export async function listMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f)).sort();
  // A migration is recorded by its number alone, so a second file with the same number (two
  // branches that each took the next free one) would be skipped as applied, silently.
  const seen = new Map<string, string>();
  for (const file of files) {
    const version = file.slice(0, 4);
    const other = seen.get(version);
    if (other) throw new Error(`migrations ${other} and ${file} share the number ${version}: renumber one`);
    seen.set(version, file);
  }
  return files.map((file) => ({ version: file.slice(0, 4), file: path.join(dir, file) }));
}

export async function migrate(db: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  // A recorded migration is never taken back, so those already recorded are skipped without a
  // transaction each: every CLI command and server start runs this, and its 30 empty transactions cost
  // 135-145 ms on an up-to-date PGlite database. Each one still missing is checked again under the
  // lock below.
  const recorded = new Set(
    (await db.query<{ version: string }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version),
  );
  const applied: string[] = [];
  for (const migration of await listMigrations(dir)) {
    if (recorded.has(migration.version)) continue;
    const sql = await readFile(migration.file, 'utf8');
    const ran = await db.transaction(async (tx) => {
      if (db.driver === 'postgres') await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (done.rows.length > 0) return false;
      await tx.exec(sql);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
      return true;
    });
    if (ran) applied.push(path.basename(migration.file));
  }
  return applied;
}
