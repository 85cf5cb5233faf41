// Rate limits: per API key, per client address, and failed authentications per address; a refusal
// is 429 with Retry-After in the one error shape. Small limits make the rules visible; the defaults
// are checked not to touch normal use.
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, testConfig, type TestApp } from '../helpers/app.ts';
import { authorUrl, orgWithGroup } from '../authors-groups/helpers.ts';
import { baseFields, upload } from '../manuscripts/upload-helpers.ts';
import type { RateLimitSettings } from '../../src/infra/config.ts';
import { BODY_BYTES_PER_REQUEST } from '../../src/http/rate-limits.ts';
import { makeDocx, paragraph } from '../parsing/make-files.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function appWith(limits: Partial<RateLimitSettings>): Promise<TestApp> {
  t = await createTestApp({ rateLimits: { ...testConfig().rateLimits, ...limits } });
  return t;
}

const FIELDS_URL = '/api/external/custom-fields/all/';

function get(app: TestApp, url: string, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') {
  return app.app.inject({ method: 'GET', url, headers, remoteAddress });
}

function expectRateLimited(
  res: { statusCode: number; headers: Record<string, unknown>; json<T>(): T },
  windowSeconds = 60,
) {
  expect(res.statusCode).toBe(429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(res.json()).toEqual({
    error: { code: 'rate_limited', message: expect.stringMatching(/retry after/) },
  });
}

describe('per API key', () => {
  it('a burst over the limit gets 429 with Retry-After; other keys are not affected', async () => {
    const app = await appWith({ perKey: 5, perAddress: 0 });
    const org = await createTestOrg(app);
    const other = await createTestOrg(app);
    for (let i = 0; i < 5; i++) expect((await get(app, FIELDS_URL, org.headers)).statusCode).toBe(200);
    expectRateLimited(await get(app, FIELDS_URL, org.headers));
    // The key is limited wherever it comes from; another key is not.
    expectRateLimited(await get(app, FIELDS_URL, org.headers, '10.0.0.9'));
    expect((await get(app, FIELDS_URL, other.headers)).statusCode).toBe(200);
  });

  it('the upload counts against the same key, whether it comes in the header or the form', async () => {
    const app = await appWith({ perKey: 2, perAddress: 0 });
    const org = await createTestOrg(app);
    expect((await get(app, FIELDS_URL, org.headers)).statusCode).toBe(200);
    const fields = { api_key: org.apiKey, ...baseFields({ origin_id: 'rl-1' }) };
    expect((await upload(app.app, { fields })).statusCode).toBe(200);
    expectRateLimited(await upload(app.app, { fields: { ...fields, origin_id: 'rl-2' } }));
  });
});

describe('per client address', () => {
  it('every route counts, with or without a key; another address is not affected', async () => {
    const app = await appWith({ perAddress: 5, perKey: 0 });
    for (let i = 0; i < 5; i++) expect((await get(app, '/healthz')).statusCode).toBe(200);
    expectRateLimited(await get(app, '/healthz'));
    expectRateLimited(await get(app, FIELDS_URL));
    expect((await get(app, '/healthz', {}, '10.0.0.2')).statusCode).toBe(200);
  });
});

describe('failed authentications per address', () => {
  it('wrong keys are refused 401 up to the limit, then 429, even for a right key from that address', async () => {
    const app = await appWith({ authFailuresPerAddress: 3 });
    const org = await createTestOrg(app);
    const wrong = { 'x-apikey': `rm_${'0'.repeat(16)}_${'x'.repeat(43)}` };
    for (let i = 0; i < 3; i++) {
      const res = await get(app, FIELDS_URL, wrong, '10.0.0.3');
      expect(res.statusCode).toBe(401);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('invalid_api_key');
    }
    expectRateLimited(await get(app, FIELDS_URL, wrong, '10.0.0.3'), 900);
    // A guessed right key is not told apart from a wrong one once the address is refused.
    expectRateLimited(await get(app, FIELDS_URL, org.headers, '10.0.0.3'), 900);
    expect((await get(app, FIELDS_URL, org.headers, '10.0.0.4')).statusCode).toBe(200);
  });

  it("behind the proxy (TRUST_PROXY), the address is the one the proxy saw, not the client's own X-Forwarded-For entries", async () => {
    // A proxy appends the address it saw to what the client sent. Before, the whole chain was
    // believed and the left-most entry, the client's own words, was the address: a new one per
    // guess, so the failures were never refused.
    t = await createTestApp({
      trustProxy: true,
      rateLimits: { ...testConfig().rateLimits, authFailuresPerAddress: 3 },
    });
    const wrong = { 'x-apikey': `rm_${'0'.repeat(16)}_${'x'.repeat(43)}` };
    const viaProxy = (claimed: string) =>
      get(t!, FIELDS_URL, { ...wrong, 'x-forwarded-for': `${claimed}, 203.0.113.7` }, '10.0.0.1');
    for (let i = 0; i < 3; i++) expect((await viaProxy(`198.51.100.${i}`)).statusCode).toBe(401);
    expectRateLimited(await viaProxy('198.51.100.200'), 900);
    // Another client behind the same proxy is another address.
    const other = await get(t, FIELDS_URL, { ...wrong, 'x-forwarded-for': '203.0.113.8' }, '10.0.0.1');
    expect(other.statusCode).toBe(401);
  });

  it('an IPv6 client is its /64: new addresses inside it are the same client, another /64 is not', async () => {
    // Before, each address of the /64 (2^64 of them, all the host's own) was counted apart.
    const app = await appWith({ authFailuresPerAddress: 3, perAddress: 5 });
    const wrong = { 'x-apikey': `rm_${'0'.repeat(16)}_${'x'.repeat(43)}` };
    for (let i = 1; i <= 3; i++) {
      expect((await get(app, FIELDS_URL, wrong, `2001:db8:1:2::${i.toString(16)}`)).statusCode).toBe(401);
    }
    expectRateLimited(await get(app, FIELDS_URL, wrong, '2001:db8:1:2:ffff:1:2:3'), 900);
    expect((await get(app, FIELDS_URL, wrong, '2001:db8:1:3::1')).statusCode).toBe(401);
    // The requests per address count the same way: four so far from 2001:db8:1:2::/64, a fifth, then refused.
    expect((await get(app, '/healthz', {}, '2001:db8:1:2:abcd::9')).statusCode).toBe(200);
    expectRateLimited(await get(app, '/healthz', {}, '2001:db8:1:2:abcd::10'));
    // An IPv4 client mapped into IPv6 is that IPv4 address.
    expect((await get(app, '/healthz', {}, '::ffff:192.0.2.1')).statusCode).toBe(200);
  });

  it('wrong keys in the upload form count too', async () => {
    const app = await appWith({ authFailuresPerAddress: 2 });
    const fields = { api_key: 'not-a-key', ...baseFields() };
    expect((await upload(app.app, { fields })).statusCode).toBe(401);
    expect((await upload(app.app, { fields })).statusCode).toBe(401);
    expectRateLimited(await upload(app.app, { fields }), 900);
  });
});

describe('JSON bodies count by their size', () => {
  // A valid record padded with whitespace to `shares` times the bytes of one request.
  const paddedRecord = (shares: number) => {
    const record = JSON.stringify({ name: 'A large record' });
    return record + ' '.repeat(shares * BODY_BYTES_PER_REQUEST - record.length);
  };
  const postJson = (app: TestApp, url: string, headers: Record<string, string>, payload: string) =>
    app.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, 'content-type': 'application/json' },
      payload,
    });

  it('against the key: a body of 10 shares counts 11 requests, refused before it is parsed; other keys are not', async () => {
    const app = await appWith({ perKey: 40, perAddress: 0 });
    const org = await orgWithGroup(app);
    const other = await orgWithGroup(app);
    const url = authorUrl(org.groupId, 'big');
    // 11, 22, 33 of 40: saved.
    for (let i = 0; i < 3; i++)
      expect((await postJson(app, url, org.headers, paddedRecord(10))).statusCode).toBe(200);
    // Small requests count one each while the window has room: 39 of 40.
    for (let i = 0; i < 6; i++) expect((await get(app, FIELDS_URL, org.headers)).statusCode).toBe(200);
    // The next large one: 40 for the request, 50 with its body. Refused as a rate limit before it is
    // read: its broken JSON is not reported.
    expectRateLimited(await postJson(app, url, org.headers, `{"name": ${paddedRecord(10)}`));
    expectRateLimited(await get(app, FIELDS_URL, org.headers));
    const otherUrl = authorUrl(other.groupId, 'big');
    expect((await postJson(app, otherUrl, other.headers, paddedRecord(10))).statusCode).toBe(200);
  });

  it('against the address, with a key or without one', async () => {
    const app = await appWith({ perAddress: 25, perKey: 0 });
    // The upload route reads its key from the form, so a JSON body sent there is read unauthenticated
    // (and refused as the wrong media type): 11, then 22 of 25.
    for (let i = 0; i < 2; i++) {
      const res = await postJson(app, '/api/external/proposal/', {}, paddedRecord(10));
      expect(res.statusCode).toBe(415);
    }
    expectRateLimited(await postJson(app, '/api/external/proposal/', {}, paddedRecord(10)));
    expect((await postJson(app, '/api/external/proposal/', {}, paddedRecord(10))).statusCode).toBe(429);
    const elsewhere = await app.app.inject({
      method: 'POST',
      url: '/api/external/proposal/',
      headers: { 'content-type': 'application/json' },
      payload: paddedRecord(10),
      remoteAddress: '10.0.0.5',
    });
    expect(elsewhere.statusCode).toBe(415);
  });

  it('a body the size limit admits is never refused for its size alone, however low the limit', async () => {
    const app = await appWith({ perKey: 5, perAddress: 0 });
    const org = await orgWithGroup(app);
    // 10 shares counted as 4 (the limit less one): the request and its body fill the window exactly.
    expect(
      (await postJson(app, authorUrl(org.groupId, 'big'), org.headers, paddedRecord(10))).statusCode,
    ).toBe(200);
    expectRateLimited(await get(app, FIELDS_URL, org.headers));
  });

  it('a body under one share counts as its request alone', async () => {
    const app = await appWith({ perKey: 3, perAddress: 0 });
    const org = await orgWithGroup(app);
    const url = authorUrl(org.groupId, 'small');
    const almostOneShare = paddedRecord(1).slice(0, -1);
    for (let i = 0; i < 3; i++)
      expect((await postJson(app, url, org.headers, almostOneShare)).statusCode).toBe(200);
    expectRateLimited(await postJson(app, url, org.headers, almostOneShare));
  });
});

describe('uploads count by what they store', () => {
  // Authors whose affiliations make the form's text fields about `shares` shares.
  const largeForm = (originId: string, shares: number) => {
    const count = Math.ceil((shares * BODY_BYTES_PER_REQUEST) / 2000);
    const fields: Record<string, string | number> = baseFields({ origin_id: originId, authors_count: count });
    for (let k = 1; k <= count; k++) {
      fields[`author${k}_name`] = `Author ${k}`;
      fields[`author${k}_aff`] = `Department ${k}, `.padEnd(2000, 'x');
    }
    return fields;
  };

  it("the form's text fields: an upload of 10 shares counts 11 requests, refused before it is stored", async () => {
    const app = await appWith({ perKey: 40, perAddress: 0 });
    const org = await createTestOrg(app);
    for (let i = 0; i < 3; i++)
      expect(
        (await upload(app.app, { apiKey: org.apiKey, fields: largeForm(`big-${i}`, 10) })).statusCode,
      ).toBe(200);
    // 33 of 40; the next large one passes the limit.
    expectRateLimited(await upload(app.app, { apiKey: org.apiKey, fields: largeForm('big-3', 10) }));
    const stored = await app.db.query(
      `SELECT 1 FROM manuscripts WHERE organization_id = $1 AND origin_id = 'big-3'`,
      [org.id],
    );
    expect(stored.rows).toHaveLength(0);
  });

  it('the text read from its file counts too; a small file counts as its request alone', async () => {
    const app = await appWith({ perKey: 20, perAddress: 0 });
    const org = await createTestOrg(app);
    const other = await createTestOrg(app);
    const docx = (chars: number) =>
      Buffer.from(
        makeDocx([
          paragraph('A Study of Things', 'Title'),
          ...Array(Math.ceil(chars / 100)).fill(paragraph('Body text. '.repeat(9) + 'The end.')),
        ]),
      );
    const send = (o: typeof org, bytes: Buffer) =>
      upload(app.app, { apiKey: o.apiKey, fields: baseFields(), files: [{ name: 'paper.docx', bytes }] });
    // Some 30 shares of text from a file of a few KB: the key's window is spent (1 + 19 of 20).
    expect((await send(org, docx(30 * BODY_BYTES_PER_REQUEST))).statusCode).toBe(200);
    expectRateLimited(await get(app, FIELDS_URL, org.headers));
    // A real manuscript's text (some 50,000 characters) is under one share.
    expect((await send(other, docx(50_000))).statusCode).toBe(200);
    expect((await get(app, FIELDS_URL, other.headers)).statusCode).toBe(200);
  });
});

describe('the defaults', () => {
  it('normal use is not limited: 400 requests of an editorial system, and missing keys, never 429', async () => {
    const app = await appWith({});
    const org = await orgWithGroup(app);
    const statuses = new Set<number>();
    for (let i = 0; i < 100; i++) {
      const url = authorUrl(org.groupId, `author-${i}`);
      const payload = { name: `Author ${i}`, emails: [`a${i}@example.org`] };
      statuses.add((await app.app.inject({ method: 'POST', url, headers: org.headers, payload })).statusCode);
      statuses.add((await get(app, url, org.headers)).statusCode);
      statuses.add((await get(app, FIELDS_URL, org.headers)).statusCode);
      statuses.add((await get(app, FIELDS_URL)).statusCode);
    }
    for (let i = 0; i < 5; i++) {
      statuses.add(
        (await upload(app.app, { apiKey: org.apiKey, fields: baseFields({ origin_id: `n-${i}` }) }))
          .statusCode,
      );
    }
    expect([...statuses].sort()).toEqual([200, 401]);
  });
});
