// Marks (`refmatch mark`): stored per manuscript and author, kept across re-uploads, tenant-scoped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { baseFields, upload } from './upload-helpers.ts';
import { runCommand } from './cli-helpers.ts';

let t: TestApp;
let authorId: number;
beforeAll(async () => {
  t = await createTestApp();
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO authors (author_key, display_name) VALUES ('test:marks-1', 'Grace Hopper') RETURNING id`,
  );
  authorId = rows[0]!.id;
});
afterAll(async () => t.close());

async function marks(manuscriptId: number) {
  const { rows } = await t.db.query<{ author_id: number; marked_by: string }>(
    'SELECT author_id, marked_by FROM manuscript_marks WHERE manuscript_id = $1',
    [manuscriptId],
  );
  return rows;
}

describe('refmatch mark', () => {
  it('marks a candidate, keeps the mark across re-uploads and folder moves, and unmarks', async () => {
    const org = await createTestOrg(t);
    const first = await upload(t.app, { apiKey: org.apiKey, fields: baseFields() });
    const id = first.json().manuscript_id as number;
    const out = await runCommand(t, 'mark', {
      org: org.id,
      originId: 'ms-1',
      author: authorId,
      by: 'Editor@Journal.org',
    });
    expect(out).toEqual({
      manuscript_id: id,
      origin_id: 'ms-1',
      author_id: authorId,
      marked: true,
      marked_by: 'editor@journal.org',
    });
    await upload(t.app, { apiKey: org.apiKey, fields: baseFields({ folder: 'MOVED', title: 'New title' }) });
    expect(await marks(id)).toEqual([{ author_id: authorId, marked_by: 'editor@journal.org' }]);
    await runCommand(t, 'mark', { org: org.id, originId: 'ms-1', author: authorId, unmark: true });
    expect(await marks(id)).toEqual([]);
  });

  it("cannot mark another organization's manuscript, an unknown author, or without an email", async () => {
    const a = await createTestOrg(t);
    const b = await createTestOrg(t);
    await upload(t.app, { apiKey: b.apiKey, fields: baseFields({ origin_id: 'only-b' }) });
    await expect(
      runCommand(t, 'mark', { org: a.id, originId: 'only-b', author: authorId, by: 'x@y.org' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      runCommand(t, 'mark', { org: b.id, originId: 'only-b', author: 987654321, by: 'x@y.org' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      runCommand(t, 'mark', { org: b.id, originId: 'only-b', author: authorId, by: 'nobody' }),
    ).rejects.toMatchObject({ code: 'validation_failed' });
  });
});
