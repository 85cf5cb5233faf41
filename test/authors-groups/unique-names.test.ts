// Migration 0107: groups of one organization with one name (letter case aside) made before the rule
// are renamed, never deleted, the oldest keeping its name; then a unique index refuses two such
// names, also a rename racing a create, which could both pass the check before the write.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { createGroup, renameGroup } from '../../src/authors-groups/store.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db.destroy());

const newOrg = async (name: string) =>
  (await db.query<{ id: number }>('INSERT INTO organizations (name) VALUES ($1) RETURNING id', [name]))
    .rows[0]!.id;

describe('migration 0107', () => {
  it('renames the younger of groups named alike, keeping ids, records and the oldest name', async () => {
    // As before the migration: no index, names alike in one organization.
    await db.query('DROP INDEX authors_groups_name_idx');
    const [a, b] = [await newOrg('A'), await newOrg('B')];
    const long = 'L'.repeat(200);
    const { rows } = await db.query<{ id: number; name: string }>(
      `INSERT INTO authors_groups (organization_id, name) VALUES
         ($1, 'Board'), ($1, 'board'), ($1, 'Board (2)'), ($1, 'BOARD'), ($1, $3), ($1, lower($3)),
         ($2, 'Board')
       RETURNING id, name`,
      [a, b, long],
    );
    await db.query(
      `INSERT INTO group_authors (organization_id, group_id, client_id, name) VALUES ($1, $2, 'r1', 'Ada')`,
      [a, rows[1]!.id],
    );
    await db.exec(
      await readFile(
        new URL('../../migrations/0107_authors_groups_unique_names.sql', import.meta.url),
        'utf8',
      ),
    );
    const after = await db.query<{ id: number; name: string }>(
      'SELECT id, name FROM authors_groups WHERE id = ANY($1) ORDER BY id',
      [rows.map((r) => r.id)],
    );
    expect(after.rows.map((r) => r.name)).toEqual([
      'Board',
      'board (3)',
      'Board (2)',
      'BOARD (4)',
      long,
      `${'l'.repeat(196)} (2)`,
      'Board',
    ]);
    expect(after.rows.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    const records = await db.query('SELECT 1 FROM group_authors WHERE group_id = $1', [rows[1]!.id]);
    expect(records.rows).toHaveLength(1);
    // Applied again, it changes nothing.
    await db.exec(
      await readFile(
        new URL('../../migrations/0107_authors_groups_unique_names.sql', import.meta.url),
        'utf8',
      ),
    );
    expect(
      (
        await db.query('SELECT id, name FROM authors_groups WHERE id = ANY($1) ORDER BY id', [
          rows.map((r) => r.id),
        ])
      ).rows,
    ).toEqual(after.rows);
  });

  it('a rename to a name a create is adding at that moment is refused as taken, by the index', async () => {
    const org = await newOrg('C');
    const other = await createGroup(db, org, 'Other');
    // Creates wait on each other (checkLimit locks the organization's row), renames do not: the rename
    // starts while the create's transaction is open, and on a server PostgreSQL its check before the
    // update saw no such group yet, so two groups were named alike.
    let renamed: Promise<unknown> = Promise.resolve();
    await db.transaction(async (tx) => {
      await createGroup(tx, org, 'Panel');
      renamed = renameGroup(db, org, other.group_id, 'PANEL');
      renamed.catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    await expect(renamed).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/already exists/),
    });
    const named = await db.query('SELECT name FROM authors_groups WHERE organization_id = $1 ORDER BY id', [
      org,
    ]);
    expect(named.rows).toEqual([{ name: 'Other' }, { name: 'Panel' }]);
    // Into the table directly, past every check: the index refuses it.
    await expect(
      db.query("INSERT INTO authors_groups (organization_id, name) VALUES ($1, 'pAnEl')", [org]),
    ).rejects.toThrow();
  });
});
