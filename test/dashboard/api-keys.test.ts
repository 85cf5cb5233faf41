// The API keys page over HTTP in-process: a key made with a label, shown once; the same form posted
// again (a double click, a reload of the page that showed the key) makes no second key and shows the
// one made, for a few minutes, stored sealed, never in plain text; another organization's form value
// makes its own.
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
    // The key the first send made, shown again: a double click's first answer is dropped by the browser.
    expect(/data-testid="new-key">([^<]+)</.exec(reposted.body)![1]).toBe(key);
    expect(reposted.body).toContain('This form was sent more than once');
    const after = await keysOf(org.id);
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)).toEqual({ key_id: key.slice(3, 19), label: 'ScholarOne production' });

    // The form value is the organization's own: another organization posting the same one gets its key.
    const other = await createTestOrg(t);
    const theirs = await injectForm(t.app, await adminOf(other.id), '/dashboard/api-keys/', { once });
    expect(theirs.body).toContain('data-testid="new-key"');
    expect((await keysOf(other.id)).at(-1)!.label).toBeNull();
  });

  it('a double click (two sends at once) makes one key, and both answers show it', async () => {
    const org = await createTestOrg(t);
    const admin = await adminOf(org.id);
    const before = await keysOf(org.id);
    const page = await t.app.inject({ url: '/dashboard/api-keys/', headers: { cookie: admin.cookie } });
    const once = formValue(page.body);
    const answers = await Promise.all(
      [1, 2].map(() => injectForm(t.app, admin, '/dashboard/api-keys/', { once, label: 'Editorial' })),
    );
    const shown = answers.map((a) => /data-testid="new-key">([^<]+)</.exec(a.body)?.[1]);
    expect(shown[0]).toMatch(/^rm_/);
    expect(shown[1]).toBe(shown[0]);
    expect(await keysOf(org.id)).toHaveLength(before.length + 1);
    // Neither the key nor the form's value is stored as it is: only digests and the sealed copy.
    const { rows } = await t.db.query<{ row: string }>(
      'SELECT api_keys::text AS row FROM api_keys WHERE organization_id = $1',
      [org.id],
    );
    const stored = rows.map((r) => r.row).join('\n');
    expect(stored).not.toContain(shown[0]!.slice(20));
    expect(stored).not.toContain(once);
  });

  it('shows the key again for 10 minutes only, and never once it was revoked', async () => {
    const org = await createTestOrg(t);
    const admin = await adminOf(org.id);
    const send = async (once: string) => injectForm(t.app, admin, '/dashboard/api-keys/', { once });
    const [late, revoked] = ['l', 'r'].map((c) => c.repeat(43));
    expect((await send(late!)).body).toContain('data-testid="new-key"');
    expect((await send(revoked!)).body).toContain('data-testid="new-key"');
    await t.db.query(
      `UPDATE api_keys SET created_at = created_at - interval '11 minutes'
        WHERE organization_id = $1 AND form_sealed IS NOT NULL AND id = (SELECT min(id) FROM api_keys WHERE organization_id = $1 AND form_sealed IS NOT NULL)`,
      [org.id],
    );
    await t.db.query(
      `UPDATE api_keys SET revoked_at = now() WHERE organization_id = $1 AND id = (SELECT max(id) FROM api_keys WHERE organization_id = $1)`,
      [org.id],
    );
    // Opening the page erases the sealed copies past their minutes.
    await t.app.inject({ url: '/dashboard/api-keys/', headers: { cookie: admin.cookie } });
    const { rows } = await t.db.query<{ sealed: boolean }>(
      'SELECT form_sealed IS NOT NULL AS sealed FROM api_keys WHERE organization_id = $1 AND form_nonce IS NOT NULL ORDER BY id',
      [org.id],
    );
    expect(rows.map((r) => r.sealed)).toEqual([false, true]);
    for (const once of [late!, revoked!]) {
      const again = await send(once);
      expect(again.body).not.toContain('data-testid="new-key"');
      expect(again.body).toContain('This form already created a key');
    }
    expect(await keysOf(org.id)).toHaveLength(3);
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
    // The row's button names the key by what it is for, then its id.
    const list0 = await t.app.inject({ url: '/dashboard/api-keys/', headers: { cookie: admin.cookie } });
    expect(list0.body).toContain(`aria-label="Revoke key \u2068ScholarOne &lt;prod&gt;\u2069, rm_${keyId}"`);
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
