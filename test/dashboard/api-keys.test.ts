// The API keys page over HTTP in-process: a key made with a label, shown once; the same form posted
// again (a reload of the page that showed the key) makes no second key; another organization's form
// value makes its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { createTestUser, injectForm, injectSignIn, type InjectSession } from '../helpers/dashboard.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

async function adminOf(orgId: number): Promise<InjectSession> {
  return injectSignIn(t.app, (await createTestUser(t.db, orgId, 'integrations_admin')).email);
}

const formValue = (body: string) => /name="once" value="([^"]+)"/.exec(body)![1]!;
const keysOf = async (orgId: number) =>
  (
    await t.db.query<{ key_id: string; label: string | null }>(
      'SELECT key_id, label FROM api_keys WHERE organization_id = $1 ORDER BY id',
      [orgId],
    )
  ).rows;

describe('the API keys page', () => {
  it('makes one key per form, with its label, however often the form is posted', async () => {
    const org = await createTestOrg(t);
    const admin = await adminOf(org.id);
    const before = await keysOf(org.id);
    const page = await t.app.inject({ url: '/dashboard/api-keys/', headers: { cookie: admin.cookie } });
    const once = formValue(page.body);
    // Each view of the page gives its form a value of its own.
    const again = await t.app.inject({ url: '/dashboard/api-keys/', headers: { cookie: admin.cookie } });
    expect(formValue(again.body)).not.toBe(once);

    const created = await injectForm(t.app, admin, '/dashboard/api-keys/', {
      once,
      label: ' ScholarOne production ',
    });
    expect(created.statusCode).toBe(200);
    const key = /data-testid="new-key">([^<]+)</.exec(created.body)![1]!;
    expect(key).toMatch(/^rm_[a-f0-9]{16}_/);
    expect(created.body).toContain('<td>ScholarOne production</td>');

    const reposted = await injectForm(t.app, admin, '/dashboard/api-keys/', {
      once,
      label: 'ScholarOne production',
    });
    expect(reposted.statusCode).toBe(200);
    expect(reposted.body).not.toContain('data-testid="new-key"');
    expect(reposted.body).toContain('This form already created a key');
    const after = await keysOf(org.id);
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)).toEqual({ key_id: key.slice(3, 19), label: 'ScholarOne production' });

    // The form value is the organization's own: another organization posting the same one gets its key.
    const other = await createTestOrg(t);
    const theirs = await injectForm(t.app, await adminOf(other.id), '/dashboard/api-keys/', { once });
    expect(theirs.body).toContain('data-testid="new-key"');
    expect((await keysOf(other.id)).at(-1)!.label).toBeNull();
  });

  it('refuses a post without the form value or with a label over 100 characters, making no key', async () => {
    const org = await createTestOrg(t);
    const admin = await adminOf(org.id);
    const before = await keysOf(org.id);
    const bare = await injectForm(t.app, admin, '/dashboard/api-keys/');
    expect(bare.statusCode).toBe(303);
    const long = await injectForm(t.app, admin, '/dashboard/api-keys/', {
      once: 'a'.repeat(32),
      label: 'x'.repeat(101),
    });
    expect(long.statusCode).toBe(303);
    expect(await keysOf(org.id)).toEqual(before);
  });

  it('the revoke question names the key, its label and last use; asked again once revoked, it says so', async () => {
    const org = await createTestOrg(t);
    const admin = await adminOf(org.id);
    const page = await t.app.inject({ url: '/dashboard/api-keys/', headers: { cookie: admin.cookie } });
    await injectForm(t.app, admin, '/dashboard/api-keys/', {
      once: formValue(page.body),
      label: 'ScholarOne <prod>',
    });
    const { rows } = await t.db.query<{ id: number; key_id: string }>(
      'SELECT id, key_id FROM api_keys WHERE organization_id = $1 AND label IS NOT NULL',
      [org.id],
    );
    const [{ id, key_id: keyId }] = rows as [{ id: number; key_id: string }];
    const url = `/dashboard/api-keys/${id}/revoke/`;
    const asked = await t.app.inject({ url, headers: { cookie: admin.cookie } });
    // It asked "Revoke this API key?", naming none: an admin with several could revoke the wrong one.
    expect(asked.body).toContain(
      `<h1>Revoke the API key rm_${keyId}_… (<bdi>ScholarOne &lt;prod&gt;</bdi>)?</h1>`,
    );
    expect(asked.body).toContain('never used.');
    expect((await injectForm(t.app, admin, url, { confirm: 'yes' })).statusCode).toBe(303);
    // Back to the question after revoking: no question about a revoked key.
    const again = await t.app.inject({ url, headers: { cookie: admin.cookie } });
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe('/dashboard/api-keys/');
    const list = await t.app.inject({ url: '/dashboard/api-keys/', headers: { cookie: admin.cookie } });
    expect(list.body).toContain(
      `The key rm_${keyId}_… (<bdi>ScholarOne &lt;prod&gt;</bdi>) was already revoked`,
    );
  });
});
