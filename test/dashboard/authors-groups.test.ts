// An authors group's page over HTTP in-process: a table with no rows says why, and a page past the
// last (an old link, records deleted since) leads to the last one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { createTestUser, injectSignIn, type InjectSession } from '../helpers/dashboard.ts';

let t: TestApp;
let editor: InjectSession;
let groupId: number;
beforeAll(async () => {
  t = await createTestApp();
  const org = await createTestOrg(t);
  editor = await injectSignIn(t.app, (await createTestUser(t.db, org.id, 'editor')).email);
  groupId = (
    await t.db.query<{ id: number }>(
      `INSERT INTO authors_groups (organization_id, name) VALUES ($1, 'Board') RETURNING id`,
      [org.id],
    )
  ).rows[0]!.id;
});
afterAll(async () => t?.close());

const get = (url: string) => t.app.inject({ url, headers: { cookie: editor.cookie } });

describe("an authors group's page", () => {
  it('says when it has no records, or none that match', async () => {
    expect((await get(`/dashboard/groups/${groupId}/`)).body).toContain('No records yet.');
    const search = await get(`/dashboard/groups/${groupId}/?q=zzzz`);
    expect(search.body).toContain('No record matches.');
    expect(search.body).not.toContain('No records yet.');
  });

  it('leads a page past the last to the last, keeping the search', async () => {
    const res = await get(`/dashboard/groups/${groupId}/?q=a&page=999`);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/dashboard/groups/${groupId}/?q=a&page=1`);
  });
});
