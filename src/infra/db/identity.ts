// This database's identity: a random id written once (migration 0090). Files derived from the
// database and kept outside it (the search index's snapshot) record it, and are refused by any other
// database, including one dropped and created again under the same name.
import { randomUUID } from 'node:crypto';
import type { Queryable } from './types.ts';

const CLAIM_IDENTITY = `INSERT INTO database_identity (id) VALUES ($1) ON CONFLICT (only_row) DO NOTHING`;
const SELECT_IDENTITY = `SELECT id::text AS id FROM database_identity`;

/** The database's id, created by the first caller (concurrent callers agree on the one written). */
export async function databaseIdentity(db: Queryable): Promise<string> {
  // Read first: once claimed, asking needs no write.
  const known = (await db.query<{ id: string }>(SELECT_IDENTITY)).rows[0]?.id;
  if (known) return known;
  await db.query(CLAIM_IDENTITY, [randomUUID()]);
  const id = (await db.query<{ id: string }>(SELECT_IDENTITY)).rows[0]?.id;
  if (!id) throw new Error('database_identity has no row after it was claimed');
  return id;
}
