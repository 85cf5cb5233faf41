// Bodies built to cost the server: each is refused with a 4xx in the error shape, at a cost that
// grows with its length, not its square (before: a 90 KB dashboard form held the event loop 11 s,
// 20,000 wrong array items 11 s, 125,000 unknown keys a 500 from a call-stack overflow, and a
// thousand 4 MB upload fields ran the process out of heap). No timing is asserted: a quadratic cost
// would show as the test's timeout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { authorUrl, orgWithGroup, postAuthor, type OrgWithGroup } from '../authors-groups/helpers.ts';
import { baseFields, upload } from '../manuscripts/upload-helpers.ts';
import { UPLOAD_FIELD_MAX_CHARS } from '../../src/manuscripts/upload-form.ts';
import { createCustomField } from '../../src/custom-fields/store.ts';
import { MAX_ERROR_DETAILS } from '../../src/infra/app-error.ts';
import { MAX_FORM_FIELDS } from '../../src/dashboard/framework.ts';
import { formatCount } from '../../src/dashboard/html.ts';
import { MAX_JSON_DEPTH, MAX_JSON_MEMBERS } from '../../src/http/storable-text.ts';

let t: TestApp;
let org: OrgWithGroup;
beforeAll(async () => {
  t = await createTestApp({ bodyLimitBytes: 8 * 1024 * 1024 });
  org = await orgWithGroup(t);
});
afterAll(async () => t?.close());

interface ErrorBody {
  error: { code: string; message: string; details?: Array<{ path: string; message: string }> };
}

describe('hostile bodies', () => {
  it('a dashboard form of 400,000 repeated names, before any session or token check: a 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/dashboard/sign-in/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'a&'.repeat(400_000),
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(`The form has more than ${formatCount(MAX_FORM_FIELDS)} fields`);
    // Within the cap a form is read as before, a name given twice as a list.
    const ok = await t.app.inject({
      method: 'POST',
      url: '/dashboard/sign-in/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `${'x=1&'.repeat(MAX_FORM_FIELDS - 1)}__proto__=2`,
    });
    expect(ok.statusCode).toBe(403); // no sign-in token: read, then refused
  });

  it('100,000 wrong items of one list: a 400 listing the first problems, and saying how many there were', async () => {
    const res = await postAuthor(t, org, 'many', { name: 'A', emails: Array(100_000).fill(0) });
    expect(res.statusCode).toBe(400);
    const { error } = res.json<ErrorBody>();
    expect(error.code).toBe('validation_failed');
    expect(error.details).toHaveLength(MAX_ERROR_DETAILS);
    expect(error.details![0]!.path).toBe('body.emails.0');
    expect(error.message).toContain(`the first ${MAX_ERROR_DETAILS} of 100000 problems`);
  });

  it('unknown keys up to the cap, and a multi-option value of 400,000 items: a 400, not a stack overflow', async () => {
    const keysOf = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 1]));
    // Up to the cap on an object's keys, each unknown key is a problem found (the first ones reported).
    const unknown = await postAuthor(t, org, 'keys', { name: 'A', ...keysOf(MAX_JSON_MEMBERS) });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<ErrorBody>().error.details).toHaveLength(MAX_ERROR_DETAILS);
    // Past it (125,000 keys: a 500 from a call-stack overflow once), refused before it is parsed.
    const maxKeys = MAX_JSON_MEMBERS + t.config.limits.custom_fields;
    const many = await postAuthor(t, org, 'keys', { name: 'A', ...keysOf(125_000) });
    expect(many.statusCode).toBe(400);
    expect(many.json<ErrorBody>().error.details).toEqual([
      { path: 'body', message: `must not have an object of more than ${maxKeys} keys` },
    ]);
    // Colons inside strings are text, not keys.
    const colons = await postAuthor(t, org, 'colons', {
      name: 'A',
      affiliations: Array(Math.ceil((maxKeys + 1) / 2000)).fill(':'.repeat(2000)),
    });
    expect(colons.statusCode).toBe(200);

    const field = await createCustomField(t.db, org.id, {
      owner: 'author_from_group',
      dataKind: 'multi_option',
      name: 'Topics',
      options: ['a', 'b'],
    });
    const options = await postAuthor(t, org, 'options', {
      name: 'A',
      [field.api_id]: Array(400_000).fill(1),
    });
    expect(options.statusCode).toBe(400);
    expect(options.json<ErrorBody>().error.code).toBe('validation_failed');
  });

  it('a JSON body that is not UTF-8, or has a __proto__ key: a 400 naming the body, nothing stored', async () => {
    const url = authorUrl(org.groupId, 'bytes');
    const headers = { ...org.headers, 'content-type': 'application/json' };
    const bad = await t.app.inject({
      method: 'POST',
      url,
      headers,
      payload: Buffer.concat([Buffer.from('{"name":"bad'), Buffer.from([0xff, 0xfe]), Buffer.from('utf"}')]),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<ErrorBody>().error.details).toEqual([{ path: 'body', message: 'must be UTF-8 text' }]);
    const proto = await t.app.inject({
      method: 'POST',
      url,
      headers,
      payload: '{"name":"x","__proto__":{}}',
    });
    expect(proto.statusCode).toBe(400);
    expect(proto.json<ErrorBody>().error.code).toBe('validation_failed');
    expect((await t.app.inject({ method: 'GET', url, headers: org.headers })).statusCode).toBe(404);
    // A body said to be in another charset: 415; UTF-8 said explicitly is read.
    const latin = await t.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, 'content-type': 'application/json; charset=ISO-8859-1' },
      payload: '{"name":"x"}',
    });
    expect(latin.statusCode).toBe(415);
    // Valid UTF-8 beyond ASCII is read as it was sent.
    const fine = await t.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, 'content-type': 'application/json; charset=UTF-8' },
      payload: JSON.stringify({ name: 'Zoë Ørsted 张伟' }),
    });
    expect(fine.statusCode).toBe(200);
    const read = await t.app.inject({ method: 'GET', url, headers: org.headers });
    expect(read.json<{ name: string }>().name).toBe('Zoë Ørsted 张伟');
  });

  it('JSON nested 500,000 deep, to any route and without a key: a 400 before it is parsed', async () => {
    const deep = '['.repeat(500_000) + ']'.repeat(500_000);
    for (const [url, headers] of [
      [authorUrl(org.groupId, 'deep'), org.headers],
      ['/healthz', {}],
      ['/dashboard/sign-in/', {}],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: deep,
      });
      expect(res.statusCode, url).toBe(400);
      // The dashboard answers in HTML, with the message.
      if (url.startsWith('/dashboard/')) {
        expect(res.body).toContain(`nested deeper than ${MAX_JSON_DEPTH} levels`);
        continue;
      }
      expect(res.json<ErrorBody>().error.details, url).toEqual([
        { path: 'body', message: `must not nest arrays or objects deeper than ${MAX_JSON_DEPTH} levels` },
      ]);
    }
    // Brackets inside strings are text, not nesting; nesting up to the limit is parsed as usual.
    const name = `${'['.repeat(200)} "quoted \\" ${'{'.repeat(200)}`;
    const bracketed = await postAuthor(t, org, 'bracketed', { name });
    expect(bracketed.statusCode).toBe(200);
    const nested = await t.app.inject({
      method: 'POST',
      url: authorUrl(org.groupId, 'nested'),
      headers: { ...org.headers, 'content-type': 'application/json' },
      payload: `{"name":"N","emails":${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH - 1)}}`,
    });
    expect(nested.statusCode).toBe(400);
    expect(nested.json<ErrorBody>().error.details?.[0]?.path).toMatch(/^body\.emails/);
  });

  it('an upload whose text fields together pass 16 M characters: a 413, the manuscript not stored', async () => {
    const big = 'x'.repeat(3_500_000);
    const fields: Record<string, string | number> = { ...baseFields({ origin_id: 'ms-heavy' }) };
    for (let i = 0; i < 5; i++) fields[`extra${i}`] = big;
    const res = await upload(t.app, { apiKey: org.apiKey, fields });
    expect(res.statusCode).toBe(413);
    expect(res.json<ErrorBody>().error.code).toBe('payload_too_large');
    const { rows } = await t.db.query("SELECT 1 FROM manuscripts WHERE origin_id = 'ms-heavy'");
    expect(rows).toHaveLength(0);
  });

  it("an upload's title, abstract and author fields over their limits: a 400 naming each, nothing stored", async () => {
    const fields = baseFields({
      origin_id: 'ms-long',
      title: 't'.repeat(UPLOAD_FIELD_MAX_CHARS.title + 1),
      abstract: 'a'.repeat(UPLOAD_FIELD_MAX_CHARS.abstract + 1),
      author1_name: 'N'.repeat(UPLOAD_FIELD_MAX_CHARS.name + 1),
      author1_aff: 'f'.repeat(UPLOAD_FIELD_MAX_CHARS.aff + 1),
      author1_email: `${'e'.repeat(UPLOAD_FIELD_MAX_CHARS.email)}@x.org`,
      author1_orcid: 'o'.repeat(UPLOAD_FIELD_MAX_CHARS.orcid + 1),
    });
    const res = await upload(t.app, { apiKey: org.apiKey, fields });
    expect(res.statusCode).toBe(400);
    const paths = res.json<ErrorBody>().error.details!.map((d) => d.path);
    for (const field of [
      'title',
      'abstract',
      'author1_name',
      'author1_aff',
      'author1_email',
      'author1_orcid',
    ]) {
      expect(paths).toContain(`body.${field}`);
    }
    const { rows } = await t.db.query("SELECT 1 FROM manuscripts WHERE origin_id = 'ms-long'");
    expect(rows).toHaveLength(0);
    // At the limits: read.
    const atLimits = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({
        origin_id: 'ms-at-limits',
        title: `Graph networks ${'t'.repeat(UPLOAD_FIELD_MAX_CHARS.title - 15)}`,
        author1_name: `Ada ${'L'.repeat(UPLOAD_FIELD_MAX_CHARS.name - 4)}`,
      }),
    });
    expect(atLimits.statusCode).toBe(200);
  });
});
