// The users page over HTTP in-process: a disabled user's role is not changed by a post (the page
// offers none); enabling comes first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { createTestUser, injectForm, injectSignIn } from '../helpers/dashboard.ts';
import { disableUser } from '../../src/users/users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('the users page', () => {
  it("refuses to change a disabled user's role, saying to enable them first", async () => {
    const org = await createTestOrg(t);
    const admin = await injectSignIn(t.app, (await createTestUser(t.db, org.id, 'integrations_admin')).email);
    const gone = await createTestUser(t.db, org.id, 'viewer');
    await disableUser(t.db, gone.id);
    const res = await injectForm(t.app, admin, `/dashboard/users/${gone.id}/role/`, { role: 'editor' });
    expect(res.statusCode).toBe(303);
    const page = await t.app.inject({ url: '/dashboard/users/', headers: { cookie: admin.cookie } });
    expect(page.body).toContain('is disabled: enable them first');
    const { rows } = await t.db.query<{ role: string }>('SELECT role FROM users WHERE id = $1', [gone.id]);
    expect(rows[0]!.role).toBe('viewer');
  });
});
