import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, testConfig, type TestApp } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { buildApp } from '../../src/app.ts';
import {
  createApiKey,
  listApiKeys,
  revokeApiKey,
  revokeApiKeyById,
  REVOKED_KEYS_KEPT,
} from '../../src/organizations/api-keys.ts';
import { authorUrl, orgWithGroup } from '../authors-groups/helpers.ts';

// A key is rm_<key id>_<secret>; the secret is base64url, which may itself hold underscores (a
// split on '_' once took its last few characters, even one, for the secret: a flaky test).
function secretOf(apiKey: string): string {
  return apiKey.slice(apiKey.indexOf('_', 3) + 1);
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const FIELDS = '/api/external/custom-fields/all/';

function code(res: { json<T>(): T }): string {
  return res.json<{ error: { code: string } }>().error.code;
}

describe('X-ApiKey authentication of /api/external/* (5)', () => {
  it('answers 401 missing_api_key without a key, on every route and method', async () => {
    const org = await orgWithGroup(t);
    const author = authorUrl(org.groupId, 'a');
    const calls = [
      { method: 'GET' as const, url: FIELDS },
      { method: 'GET' as const, url: author },
      { method: 'POST' as const, url: author, payload: { name: 'A' } },
      { method: 'POST' as const, url: authorUrl(org.groupId, 'a', true), payload: { name: 'A' } },
      { method: 'DELETE' as const, url: author },
    ];
    for (const call of calls) {
      const res = await t.app.inject(call);
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(401);
      expect(code(res)).toBe('missing_api_key');
    }
    const empty = await t.app.inject({ method: 'GET', url: FIELDS, headers: { 'x-apikey': '' } });
    expect(empty.statusCode).toBe(401);
  });

  it('answers 401 invalid_api_key for an unknown key, a malformed one, and a near miss', async () => {
    const org = await createTestOrg(t);
    const nearMiss = org.apiKey.slice(0, -1) + (org.apiKey.endsWith('A') ? 'B' : 'A');
    for (const key of ['rm_0123456789abcdef_' + 'x'.repeat(43), 'garbage', nearMiss]) {
      const res = await t.app.inject({ method: 'GET', url: FIELDS, headers: { 'x-apikey': key } });
      expect(res.statusCode).toBe(401);
      expect(code(res)).toBe('invalid_api_key');
    }
  });

  it('authenticates before reading the body: no key and a broken body is still 401', async () => {
    const org = await orgWithGroup(t);
    const res = await t.app.inject({
      method: 'POST',
      url: authorUrl(org.groupId, 'a'),
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(res.statusCode).toBe(401);
  });

  it('accepts every active key of the organization', async () => {
    const org = await createTestOrg(t);
    const second = await createApiKey(t.db, org.id);
    for (const key of [org.apiKey, second]) {
      const res = await t.app.inject({ method: 'GET', url: FIELDS, headers: { 'x-apikey': key } });
      expect(res.statusCode).toBe(200);
    }
  });

  it('refuses a revoked key immediately, even right after it was verified and cached', async () => {
    const org = await createTestOrg(t);
    const other = await createApiKey(t.db, org.id);
    const ok = await t.app.inject({ method: 'GET', url: FIELDS, headers: org.headers });
    expect(ok.statusCode).toBe(200);
    expect(await t.app.refmatch.keys.revoke(org.apiKey)).toBe(true);
    const res = await t.app.inject({ method: 'GET', url: FIELDS, headers: org.headers });
    expect(res.statusCode).toBe(401);
    expect(code(res)).toBe('invalid_api_key');
    const still = await t.app.inject({ method: 'GET', url: FIELDS, headers: { 'x-apikey': other } });
    expect(still.statusCode).toBe(200);
    expect(await t.app.refmatch.keys.revoke(org.apiKey)).toBe(false);
  });

  it('stores only a hash of the key', async () => {
    const org = await createTestOrg(t);
    const { rows } = await t.db.query<{ key_id: string; key_hash: Uint8Array }>(
      'SELECT key_id, key_hash FROM api_keys WHERE organization_id = $1',
      [org.id],
    );
    const stored = JSON.stringify(rows.map((r) => [r.key_id, Buffer.from(r.key_hash).toString('utf8')]));
    expect(stored).not.toContain(secretOf(org.apiKey));
  });
});

describe('logs', () => {
  it('never contain an API key, whether it was accepted, refused, or sent in the query string', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const db = await createTestDatabase();
    const app = await buildApp({ config: testConfig({ logLevel: 'trace' }), db, logStream });
    app.get('/api/external/boom', async () => {
      throw new Error('database exploded');
    });
    await app.ready();
    try {
      const org = await createTestOrg({ db });
      const secret = secretOf(org.apiKey);
      await app.inject({ method: 'GET', url: FIELDS, headers: org.headers });
      await app.inject({ method: 'GET', url: `${FIELDS}?api_key=${org.apiKey}`, headers: org.headers });
      await app.inject({ method: 'GET', url: FIELDS, headers: { 'x-apikey': `${org.apiKey}x` } });
      await app.inject({ method: 'GET', url: '/api/external/boom', headers: org.headers });
      expect(lines.length).toBeGreaterThan(4);
      expect(lines.join('')).toContain('request completed');
      expect(lines.join('')).toContain('api_key=[redacted]');
      for (const line of lines) expect(line).not.toContain(secret);
    } finally {
      await app.close();
      await db.destroy();
    }
  });
});

describe('revoked keys kept', () => {
  it(`keeps the newest ${REVOKED_KEYS_KEPT} revoked keys of an organization, whichever way they were revoked; the others are gone and still refused`, async () => {
    const org = await createTestOrg(t);
    const other = await createTestOrg(t);
    const otherKey = await createApiKey(t.db, other.id);
    await revokeApiKey(t.db, otherKey);
    // A create-and-revoke loop, as an integrations admin could run it: by the key, and by the row.
    const revoked: string[] = [];
    for (let i = 0; i < REVOKED_KEYS_KEPT + 3; i++) {
      const key = await createApiKey(t.db, org.id);
      if (i % 2 === 0) expect(await revokeApiKey(t.db, key)).toBe(true);
      else {
        const row = (await listApiKeys(t.db, org.id)).find((k) => key.startsWith(`rm_${k.key_id}_`))!;
        await revokeApiKeyById(t.db, org.id, row.id);
      }
      revoked.push(key);
    }
    const listed = await listApiKeys(t.db, org.id);
    // The organization's own key (active) and the newest revoked ones.
    expect(listed.filter((k) => k.revoked_at === null)).toHaveLength(1);
    const kept = listed.filter((k) => k.revoked_at !== null).map((k) => k.key_id);
    expect(kept).toEqual(
      revoked
        .slice(3)
        .reverse()
        .map((k) => k.slice(3, 19)),
    );
    // Pruned or kept, a revoked key authenticates nothing; another organization's keys are untouched.
    for (const key of [revoked[0]!, revoked.at(-1)!]) {
      const res = await t.app.inject({ method: 'GET', url: FIELDS, headers: { 'x-apikey': key } });
      expect(res.statusCode).toBe(401);
      expect(code(res)).toBe('invalid_api_key');
    }
    expect((await listApiKeys(t.db, other.id)).map((k) => k.revoked_at !== null)).toEqual([false, true]);
    const stillThere = await t.app.inject({ method: 'GET', url: FIELDS, headers: other.headers });
    expect(stillThere.statusCode).toBe(200);
  });
});
