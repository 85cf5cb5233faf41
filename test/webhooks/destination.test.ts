// Webhooks go to public addresses only, unless the deployment allows its own network: an admin cannot
// aim refmatch at the loopback interface, the private network or a cloud metadata address. Refused
// when saved (an address written as such) and when sent (whatever the name resolves to), with the
// reason in the delivery log, and nothing reaches the receiver.
import { afterEach, describe, expect, it } from 'vitest';
import type { LookupAddress } from 'node:dns';
import { buildApp } from '../../src/app.ts';
import { saveWebhook } from '../../src/webhooks/store.ts';
import {
  DestinationRefused,
  isPublicAddress,
  literalNonPublicHost,
  NOT_PUBLIC_MESSAGE,
  publicOnlyLookup,
} from '../../src/webhooks/destination.ts';
import { createTestApp, createTestOrg, testConfig, type TestApp } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { createTestUser, injectForm, injectSignIn } from '../helpers/dashboard.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';
import { baseFields, upload } from '../manuscripts/upload-helpers.ts';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

describe('which addresses are public', () => {
  it('refuses loopback, private, link-local, metadata and mapped forms; accepts public ones', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      // IPv4-compatible (deprecated) and NAT64 forms of 127.0.0.1 and 10.0.0.1
      '::7f00:1',
      '::127.0.0.1',
      '64:ff9b::7f00:1',
      '64:ff9b::10.0.0.1',
      'not an address',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '151.101.1.69',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
    ]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('reads the host of a URL written with an address or localhost', () => {
    expect(literalNonPublicHost('http://127.0.0.1:8080/hook')).toBe('127.0.0.1');
    expect(literalNonPublicHost('http://[::1]/hook')).toBe('::1');
    expect(literalNonPublicHost('http://169.254.169.254/latest/meta-data/')).toBe('169.254.169.254');
    expect(literalNonPublicHost('http://localhost:3000/')).toBe('localhost');
    expect(literalNonPublicHost('https://api.localhost/')).toBe('api.localhost');
    expect(literalNonPublicHost('https://hooks.example.org/refmatch')).toBeNull();
    expect(literalNonPublicHost('https://8.8.8.8/x')).toBeNull();
  });

  it('refuses a name at connection time when it resolves to a loopback address', async () => {
    const outcome = await new Promise<{ error: Error | null; address: string | LookupAddress[] }>((resolve) =>
      publicOnlyLookup('localhost', {}, (error, address) => resolve({ error, address })),
    );
    expect(outcome.error).toBeInstanceOf(DestinationRefused);
  });
});

describe('a webhook aimed at a non-public address', () => {
  it('is refused when saved on the dashboard, unless WEBHOOK_ALLOW_PRIVATE is set', async () => {
    const strict: TestApp = await createTestApp();
    cleanup.push(() => strict.close());
    expect(strict.config.webhooks.allowPrivateAddresses).toBe(false);
    const org = await createTestOrg(strict);
    const admin = await injectSignIn(
      strict.app,
      (await createTestUser(strict.db, org.id, 'integrations_admin')).email,
    );
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://localhost/x',
    ]) {
      const res = await injectForm(strict.app, admin, '/dashboard/webhooks/', { url, enabled: 'on' });
      expect(res.statusCode).toBe(303);
      const page = await strict.app.inject({
        url: '/dashboard/webhooks/',
        headers: { cookie: admin.cookie },
      });
      expect(page.body).toContain('not on a public address');
      const saved = await strict.db.query('SELECT url FROM webhooks WHERE organization_id = $1', [org.id]);
      expect(saved.rows).toEqual([]);
    }
    await expect(
      saveWebhook(
        strict.db,
        org.id,
        { url: 'http://[::1]/x', secret: null, enabled: true },
        { allowPrivateAddresses: false },
      ),
    ).rejects.toMatchObject({ status: 400, message: NOT_PUBLIC_MESSAGE });
    // A public name is saved (it is checked again at each delivery).
    const ok = await saveWebhook(
      strict.db,
      org.id,
      { url: 'https://hooks.example.org/refmatch', secret: null, enabled: true },
      { allowPrivateAddresses: false },
    );
    expect(ok.url).toBe('https://hooks.example.org/refmatch');
  });

  it('is not delivered to, and the log says why, when its address became non-public after saving', async () => {
    const db = await createTestDatabase();
    cleanup.push(() => db.destroy());
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close().catch(() => undefined));
    const app = await buildApp({
      config: testConfig({
        webhooks: {
          worker: true,
          pollMs: 20,
          timeoutMs: 1_000,
          retryBaseMs: 30,
          retryMaxMs: 200,
          maxAttempts: 2,
          allowPrivateAddresses: false,
          retentionDays: 30,
        },
      }),
      db,
    });
    await app.ready();
    cleanup.push(() => app.close());
    const org = await createTestOrg({ db });
    // Saved under the rule as a public name, then pointed at loopback (as a name whose DNS changed
    // would be): the delivery checks again.
    await saveWebhook(
      db,
      org.id,
      { url: 'https://hooks.example.org/refmatch', secret: null, enabled: true },
      { allowPrivateAddresses: false },
    );
    await db.query('UPDATE webhooks SET url = $2 WHERE organization_id = $1', [org.id, receiver.url]);
    const up = await upload(app, { apiKey: org.apiKey, fields: baseFields() });
    expect(up.statusCode).toBe(200);

    const deadline = Date.now() + 60_000;
    let row: { status: string; last_error: string | null } | undefined;
    for (;;) {
      const { rows } = await db.query<{ status: string; last_error: string | null }>(
        'SELECT status, last_error FROM webhook_outbox WHERE organization_id = $1',
        [org.id],
      );
      row = rows[0];
      if (row?.status === 'failed') break;
      if (Date.now() > deadline) throw new Error(`the event was not given up: ${JSON.stringify(row)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(row.last_error).toBe(NOT_PUBLIC_MESSAGE);
    expect(receiver.received).toEqual([]);
  });
});
