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

  it('enables a disabled user once: enabling an active one (a stale tab, a reload) changes nothing', async () => {
    const org = await createTestOrg(t);
    const admin = await injectSignIn(t.app, (await createTestUser(t.db, org.id, 'integrations_admin')).email);
    const active = await createTestUser(t.db, org.id, 'editor');
    const activeSession = await injectSignIn(t.app, active.email);
    const hashOf = async (id: number) =>
      (await t.db.query<{ h: string }>('SELECT password_hash AS h FROM users WHERE id = $1', [id])).rows[0]!
        .h;
    const before = await hashOf(active.id);
    const refused = await injectForm(t.app, admin, `/dashboard/users/${active.id}/enable/`);
    expect(refused.statusCode).toBe(303);
    const page = await t.app.inject({ url: '/dashboard/users/', headers: { cookie: admin.cookie } });
    expect(page.body).toContain(`${active.email} is already enabled`);
    expect(await hashOf(active.id)).toBe(before);
    const still = await t.app.inject({ url: '/dashboard/', headers: { cookie: activeSession.cookie } });
    expect(still.statusCode).toBe(200);

    const gone = await createTestUser(t.db, org.id, 'viewer');
    await disableUser(t.db, gone.id);
    const enabled = await injectForm(t.app, admin, `/dashboard/users/${gone.id}/enable/`);
    expect(enabled.statusCode).toBe(200);
    expect(enabled.body).toMatch(/one-time password/i);
    // Enabled again, they have signed in before: their status says what is pending, not "never".
    const row = enabled.body.slice(enabled.body.indexOf(`<td>${gone.email}</td>`));
    expect(row.slice(0, row.indexOf('</tr>'))).toContain('One-time password not yet replaced');
    expect(enabled.body).not.toContain('Has not signed in yet');
    const shownHash = await hashOf(gone.id);
    // The same post again (the answer page reloaded): no second password.
    expect((await injectForm(t.app, admin, `/dashboard/users/${gone.id}/enable/`)).statusCode).toBe(303);
    expect(await hashOf(gone.id)).toBe(shownHash);
  });
});
