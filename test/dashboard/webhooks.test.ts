// The webhooks page over HTTP in-process: saving the endpoint (a bad URL refused on the page), the
// secret shown to the integrations admin, the delivery log, and the retry button.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { createTestUser, injectForm, injectSignIn } from '../helpers/dashboard.ts';
import { baseFields, upload } from '../manuscripts/upload-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  // The worker stays off: these tests look at the log, not at deliveries.
  t = await createTestApp({
    webhooks: {
      worker: false,
      pollMs: 1000,
      timeoutMs: 1000,
      retryBaseMs: 1000,
      retryMaxMs: 1000,
      maxAttempts: 3,
      // The endpoint saved below is on loopback; destination.test.ts tests the default, which refuses it.
      allowPrivateAddresses: true,
      retentionDays: 30,
    },
  });
});
afterAll(async () => t?.close());

describe('the webhooks page', () => {
  it('saves an endpoint, refuses a bad URL, logs events and makes a failed one due again', async () => {
    const org = await createTestOrg(t);
    const admin = await injectSignIn(t.app, (await createTestUser(t.db, org.id, 'integrations_admin')).email);
    const bad = await injectForm(t.app, admin, '/dashboard/webhooks/', {
      url: 'ftp://example.org/x',
      enabled: 'on',
    });
    expect(bad.statusCode).toBe(303);
    const shown = await t.app.inject({ url: '/dashboard/webhooks/', headers: { cookie: admin.cookie } });
    expect(shown.body).toContain('must start with https://');

    const saved = await injectForm(t.app, admin, '/dashboard/webhooks/', {
      url: 'http://127.0.0.1:9/hook?a=<b>',
      secret: 'sixteen-chars-secret',
      enabled: 'on',
    });
    expect(saved.statusCode).toBe(303);
    await upload(t.app, { apiKey: org.apiKey, fields: baseFields({ origin_id: 'ms-hook' }) });
    const page = await t.app.inject({ url: '/dashboard/webhooks/', headers: { cookie: admin.cookie } });
    expect(page.body).toContain('value="http://127.0.0.1:9/hook?a=&lt;b&gt;"');
    expect(page.body).toContain('sixteen-chars-secret');
    expect(page.body).toContain('<code>proposal_uploaded</code>');
    expect(page.body).toContain('ms-hook');

    const { rows } = await t.db.query<{ id: number }>(
      `UPDATE webhook_outbox SET status = 'failed', attempts = 3, last_error = 'The receiver answered HTTP 500'
        WHERE organization_id = $1 RETURNING id::int AS id`,
      [org.id],
    );
    const failed = await t.app.inject({ url: '/dashboard/webhooks/', headers: { cookie: admin.cookie } });
    expect(failed.body).toContain('The receiver answered HTTP 500');
    // A page of older events leads back to the newest.
    const older = await t.app.inject({
      url: `/dashboard/webhooks/?before=${rows[0]!.id + 1}`,
      headers: { cookie: admin.cookie },
    });
    expect(older.body).toContain('<a href="/dashboard/webhooks/">Newest</a>');
    const retried = await injectForm(t.app, admin, `/dashboard/webhooks/deliveries/${rows[0]!.id}/retry/`);
    expect(retried.statusCode).toBe(303);
    const after = await t.db.query<{ status: string }>('SELECT status FROM webhook_outbox WHERE id = $1', [
      rows[0]!.id,
    ]);
    expect(after.rows[0]!.status).toBe('pending');
  });

  it('a save refused for its URL with a secret typed says, beside the emptied secret field, to type it again', async () => {
    const org = await createTestOrg(t);
    const admin = await injectSignIn(t.app, (await createTestUser(t.db, org.id, 'integrations_admin')).email);
    const refused = await injectForm(t.app, admin, '/dashboard/webhooks/', {
      url: 'ftp://example.org/x',
      secret: 'the receiver-s own secret 123',
      enabled: 'on',
    });
    expect(refused.statusCode).toBe(303);
    const shown = (await t.app.inject({ url: '/dashboard/webhooks/', headers: { cookie: admin.cookie } }))
      .body;
    expect(shown).toContain('must start with https://');
    // The field came back empty without a word: the URL corrected and saved, the webhook got a
    // generated secret, not the receiver's.
    expect(shown).toMatch(/id="secret-error"[^>]*>The secret you typed is not shown again/);
    expect(shown).not.toContain('the receiver-s own secret 123');
    // The page's message says it in words, not as the input's name and its message.
    expect(shown).not.toMatch(/: secret The secret/);
    // Nothing typed there: nothing said.
    await injectForm(t.app, admin, '/dashboard/webhooks/', { url: 'ftp://example.org/x', enabled: 'on' });
    const again = (await t.app.inject({ url: '/dashboard/webhooks/', headers: { cookie: admin.cookie } }))
      .body;
    expect(again).toContain('must start with https://');
    expect(again).not.toContain('The secret you typed');
  });

  it('"Send again" pressed twice sends the event once more, not twice', async () => {
    const org = await createTestOrg(t);
    const admin = await injectSignIn(t.app, (await createTestUser(t.db, org.id, 'integrations_admin')).email);
    await injectForm(t.app, admin, '/dashboard/webhooks/', { url: 'http://127.0.0.1:9/hook', enabled: 'on' });
    await upload(t.app, { apiKey: org.apiKey, fields: baseFields({ origin_id: 'ms-twice' }) });
    const { rows } = await t.db.query<{ id: number }>(
      `UPDATE webhook_outbox SET status = 'delivered', attempts = 1, delivered_at = now(), last_status = 200
        WHERE organization_id = $1 RETURNING id::int AS id`,
      [org.id],
    );
    const id = rows[0]!.id;
    const action = `/dashboard/webhooks/deliveries/${id}/retry/`;
    const page = (await t.app.inject({ url: '/dashboard/webhooks/', headers: { cookie: admin.cookie } }))
      .body;
    const form = page.slice(page.indexOf(`action="${action}"`));
    const attempts = /name="attempts" value="(\d+)"/.exec(form)?.[1];
    expect(attempts).toBe('1');
    expect((await injectForm(t.app, admin, action, { attempts: attempts! })).statusCode).toBe(303);
    // The worker sends it again (an attempt made, delivered) before the second click arrives.
    await t.db.query(
      `UPDATE webhook_outbox SET status = 'delivered', attempts = attempts + 1, delivered_at = now() WHERE id = $1`,
      [id],
    );
    expect((await injectForm(t.app, admin, action, { attempts: attempts! })).statusCode).toBe(303);
    const after = await t.db.query<{ status: string }>('SELECT status FROM webhook_outbox WHERE id = $1', [
      id,
    ]);
    expect(after.rows[0]!.status).toBe('delivered');
    const shown = (await t.app.inject({ url: '/dashboard/webhooks/', headers: { cookie: admin.cookie } }))
      .body;
    expect(shown).toContain('it is not sent once more');
  });

  it('a new signing secret is asked for first: the first post changes nothing, the confirmed one does', async () => {
    const org = await createTestOrg(t);
    const admin = await injectSignIn(t.app, (await createTestUser(t.db, org.id, 'integrations_admin')).email);
    await injectForm(t.app, admin, '/dashboard/webhooks/', {
      url: 'http://127.0.0.1:9/hook',
      secret: 'the-first-secret-000',
      enabled: 'on',
    });
    // The unconfirmed post leads to the question's own page (a GET): answered in place, the question
    // was a post's result, and Back from the next page showed "Confirm Form Resubmission".
    const posted = await injectForm(t.app, admin, '/dashboard/webhooks/secret/');
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe('/dashboard/webhooks/secret/');
    const asked = await t.app.inject({
      url: '/dashboard/webhooks/secret/',
      headers: { cookie: admin.cookie },
    });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toMatch(/<form method="post" action="\/dashboard\/webhooks\/secret\/"/);
    expect(asked.body).toContain('Generate a new signing secret?');
    expect(asked.body).toMatch(/name="confirm" value="yes"/);
    const secretOf = async () =>
      (
        await t.db.query<{ secret: string }>('SELECT secret FROM webhooks WHERE organization_id = $1', [
          org.id,
        ])
      ).rows[0]!.secret;
    // Neither the post nor the question's page (loaded again) changed it: only the confirmed post does.
    await t.app.inject({ url: '/dashboard/webhooks/secret/', headers: { cookie: admin.cookie } });
    expect(await secretOf()).toBe('the-first-secret-000');
    const confirmed = await injectForm(t.app, admin, '/dashboard/webhooks/secret/', { confirm: 'yes' });
    expect(confirmed.statusCode).toBe(303);
    expect(await secretOf()).not.toBe('the-first-secret-000');
  });

  it('a question confirmed after the secret was replaced since (a second click, another tab) makes no new one', async () => {
    const org = await createTestOrg(t);
    const admin = await injectSignIn(t.app, (await createTestUser(t.db, org.id, 'integrations_admin')).email);
    await injectForm(t.app, admin, '/dashboard/webhooks/', {
      url: 'http://127.0.0.1:9/hook',
      secret: 'the-first-secret-000',
      enabled: 'on',
    });
    const secretOf = async () =>
      (
        await t.db.query<{ secret: string }>('SELECT secret FROM webhooks WHERE organization_id = $1', [
          org.id,
        ])
      ).rows[0]!.secret;
    // The question, as two tabs (or one page, clicked twice) show it.
    const asked = await t.app.inject({
      url: '/dashboard/webhooks/secret/',
      headers: { cookie: admin.cookie },
    });
    const seen = /name="seen" value="([^"]+)"/.exec(asked.body)?.[1];
    expect(seen).toBeDefined();
    const confirm = () =>
      injectForm(t.app, admin, '/dashboard/webhooks/secret/', { confirm: 'yes', seen: seen! });
    expect((await confirm()).statusCode).toBe(303);
    const given = await secretOf();
    expect(given).not.toBe('the-first-secret-000');
    // The second confirmation would replace the secret just given to the receiver.
    const again = await confirm();
    expect(again.statusCode).toBe(303);
    expect(await secretOf()).toBe(given);
    const page = await t.app.inject({
      url: String(again.headers.location),
      headers: { cookie: admin.cookie },
    });
    expect(page.body).toContain('no new one was made');
    expect(page.body).toContain(given);
  });
});
