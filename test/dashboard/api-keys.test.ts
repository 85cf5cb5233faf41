// The API keys page over HTTP in-process: a key made with a label, shown once, by a page of its own
// the post leads to (post, redirect, get), which shows it no more once seen; the same form posted
// again (a double click) makes no second key and leads to the one made while not yet shown, stored
// sealed, never in plain text; another organization's form value makes its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import {
  buttonNames,
  followRedirect,
  injectForm,
  type InjectSession,
  signInAs,
} from '../helpers/dashboard.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

async function adminOf(orgId: number): Promise<InjectSession> {
  return signInAs(t, orgId, 'integrations_admin');
}

/** The page a create leads to, opened as the browser opens it (with the cookie the answer set). */
function followCreate(session: InjectSession, created: Parameters<typeof followRedirect>[2]) {
  expect(created.headers.location).toBe('/dashboard/api-keys/new/');
  return followRedirect(t.app, session, created);
}
const keyOf = (body: string) => /data-testid="new-key">([^<]+)</.exec(body)?.[1];

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
    // The key is in no address and no cookie: the cookie holds the form's value, which opens it.
    expect(JSON.stringify(created.headers)).not.toMatch(/rm_[a-f0-9]{16}_/);
    const shown = await followCreate(admin, created);
    expect(shown.statusCode).toBe(200);
    const key = keyOf(shown.body)!;
    expect(key).toMatch(/^rm_[a-f0-9]{16}_/);
    expect(shown.body).toContain('<td class="given">ScholarOne production</td>');
    // The page clears its cookie; reached again with it (Back, a reload), it shows the key no more.
    expect(String(shown.headers['set-cookie'])).toContain('rm_new_key=; Path=/dashboard; Max-Age=0');
    const seen = await followCreate(admin, created);
    expect(keyOf(seen.body)).toBeUndefined();
    expect(seen.body).toContain('The new key was shown once, on this page, when it was made');
    const bare = await t.app.inject({ url: '/dashboard/api-keys/new/', headers: { cookie: admin.cookie } });
    expect(keyOf(bare.body)).toBeUndefined();
    // Without its cookie (a reload after the key was seen, its address) the page cannot tell which key,
    // if any, was made: it says so, and where to go, not "was shown once" of a key it cannot name.
    const said = bare.body.replace(/\s+/g, ' ');
    expect(said).toContain('There is no new key to show here');
    expect(said).toContain('opened again since (reloaded, by Back or Forward, or by its address)');
    expect(said).toContain('revoke it in the list below and create another');
    expect(said).not.toContain('The new key was shown once');

    // The same form posted again, its key seen: no second key, and no key shown.
    const reposted = await injectForm(t.app, admin, '/dashboard/api-keys/', {
      once,
      label: 'ScholarOne production',
    });
    expect(reposted.statusCode).toBe(303);
    const listed = await t.app.inject({ url: '/dashboard/api-keys/', headers: { cookie: admin.cookie } });
    expect(listed.body).toContain('This form already created a key');
    expect(keyOf(listed.body)).toBeUndefined();
    const after = await keysOf(org.id);
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)).toEqual({ key_id: key.slice(3, 19), label: 'ScholarOne production' });

    // The form value is the organization's own: another organization posting the same one gets its key.
    const other = await createTestOrg(t);
    const theirAdmin = await adminOf(other.id);
    const theirs = await injectForm(t.app, theirAdmin, '/dashboard/api-keys/', { once });
    expect(keyOf((await followCreate(theirAdmin, theirs)).body)).toMatch(/^rm_/);
    expect((await keysOf(other.id)).at(-1)!.label).toBeNull();
  });

  it('a double click (two sends at once) makes one key, and either answer leads to it, shown once', async () => {
    const org = await createTestOrg(t);
    const admin = await adminOf(org.id);
    const before = await keysOf(org.id);
    const page = await t.app.inject({ url: '/dashboard/api-keys/', headers: { cookie: admin.cookie } });
    const once = formValue(page.body);
    const answers = await Promise.all(
      [1, 2].map(() => injectForm(t.app, admin, '/dashboard/api-keys/', { once, label: 'Editorial' })),
    );
    expect(await keysOf(org.id)).toHaveLength(before.length + 1);
    // The browser follows the answer of its last send: that one shows the key, saying the form was
    // sent more than once; the other's page then has nothing to show.
    const last = await followCreate(admin, answers[1]!);
    const shown = keyOf(last.body);
    expect(shown).toMatch(/^rm_/);
    expect(last.body).toContain('This form was sent more than once');
    expect(keyOf((await followCreate(admin, answers[0]!)).body)).toBeUndefined();
    // Neither the key nor the form's value is stored as it is: only digests and the sealed copy.
    const { rows } = await t.db.query<{ row: string }>(
      'SELECT api_keys::text AS row FROM api_keys WHERE organization_id = $1',
      [org.id],
    );
    const stored = rows.map((r) => r.row).join('\n');
    expect(stored).not.toContain(shown!.slice(20));
    expect(stored).not.toContain(once);
  });

  it('shows a key not yet seen for 10 minutes only, and never once it was revoked', async () => {
    const org = await createTestOrg(t);
    const admin = await adminOf(org.id);
    const send = async (once: string) => injectForm(t.app, admin, '/dashboard/api-keys/', { once });
    const [late, revoked] = ['l', 'r'].map((c) => c.repeat(43));
    const answers = [await send(late!), await send(revoked!)];
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
    for (const answer of answers) {
      const page = await followCreate(admin, answer);
      expect(keyOf(page.body)).toBeUndefined();
      expect(page.body).toContain('is not shown again');
    }
    for (const once of [late!, revoked!]) {
      expect((await send(once)).headers.location).toBe('/dashboard/api-keys/');
      const listed = await t.app.inject({ url: '/dashboard/api-keys/', headers: { cookie: admin.cookie } });
      expect(listed.body).toContain('This form already created a key');
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
    expect(buttonNames(list0.body)).toContain(`Revoke key <bdi>ScholarOne &lt;prod&gt;</bdi>, rm_${keyId}`);
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
