// Migration 0105: the corpus's iD-shaped strings whose check digit fails are dropped, and every
// record of a person that held one is queued for the next ingest's people and metrics.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db.destroy());

describe('migration 0105', () => {
  it('drops ORCIDs whose check digit fails and queues the persons that held them', async () => {
    const { rows } = await db.query<{ id: number; author_key: string }>(
      `INSERT INTO authors (author_key, display_name, orcid) VALUES
         ('P1', 'Zhai Yu', '0000-0000-0000-0000'), ('P2', 'Shuo Lei', '0000-0000-0000-0000'),
         ('P3', 'Real Person', '0000-0002-1825-0097'), ('P4', 'Ends In X', '0000-0002-1694-233X'),
         ('P5', 'Typo Digit', '0000-0002-1825-0098') RETURNING id, author_key`,
    );
    const id = Object.fromEntries(rows.map((r) => [r.author_key, r.id]));
    // The two placeholder holders were merged into one person by their shared "iD".
    await db.query('UPDATE authors SET person_id = $1 WHERE id = $2', [id.P1, id.P2]);
    await db.exec(
      await readFile(new URL('../../migrations/0105_orcid_check_digit.sql', import.meta.url), 'utf8'),
    );
    const after = await db.query<{ author_key: string; orcid: string | null; pending: boolean }>(
      `SELECT a.author_key, a.orcid, p.author_id IS NOT NULL AS pending
         FROM authors a LEFT JOIN author_metrics_pending p ON p.author_id = a.id
        WHERE a.id = ANY($1) ORDER BY a.author_key`,
      [rows.map((r) => r.id)],
    );
    expect(after.rows).toEqual([
      { author_key: 'P1', orcid: null, pending: true },
      { author_key: 'P2', orcid: null, pending: true },
      { author_key: 'P3', orcid: '0000-0002-1825-0097', pending: false },
      { author_key: 'P4', orcid: '0000-0002-1694-233X', pending: false },
      { author_key: 'P5', orcid: null, pending: true },
    ]);
  });
});
