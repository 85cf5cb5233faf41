// Spec, opening paragraph: "All request and response bodies are JSON". Every endpoint of section 4
// answers JSON (UTF-8) on success and on failure, whatever the client sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { authorUrl, orgWithGroup, type OrgWithGroup } from '../authors-groups/helpers.ts';
import { baseFields, multipartBody } from '../manuscripts/upload-helpers.ts';

let t: TestApp;
let org: OrgWithGroup;
beforeAll(async () => {
  t = await createTestApp();
  org = await orgWithGroup(t);
});
afterAll(async () => t.close());

function expectJson(res: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  expect(res.headers['content-type'], `${res.statusCode} ${res.body.slice(0, 80)}`).toBe(
    'application/json; charset=utf-8',
  );
  expect(() => JSON.parse(res.body) as unknown).not.toThrow();
}

describe('every endpoint answers JSON (spec intro, 4)', () => {
  it('on success: 4.1-4.7, each with status 200', async () => {
    const form = multipartBody(baseFields({ origin_id: 'json-ms' }));
    const calls = [
      { method: 'POST' as const, url: authorUrl(org.groupId, 'j'), payload: { name: 'J' } },
      { method: 'POST' as const, url: authorUrl(org.groupId, 'j', true), payload: { emails: null } },
      { method: 'GET' as const, url: authorUrl(org.groupId, 'j') },
      { method: 'DELETE' as const, url: authorUrl(org.groupId, 'j') },
      {
        method: 'POST' as const,
        url: '/api/external/proposal/',
        payload: form.body,
        headers: { 'content-type': form.contentType },
      },
      { method: 'GET' as const, url: '/api/external/recommend-journals/json-ms/' },
      { method: 'GET' as const, url: '/api/external/custom-fields/all/' },
    ];
    for (const { headers, ...call } of calls) {
      const res = await t.app.inject({ ...call, headers: { ...org.headers, ...headers } });
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(200);
      expectJson(res);
    }
  });

  it('on failure: 400, 401, 403, 404, 405, 413 and 415 alike', async () => {
    const noJournals = await createTestOrg(t, ['referee_finder']);
    const responses = [
      await t.app.inject({
        method: 'POST',
        url: authorUrl(org.groupId, 'j'),
        headers: org.headers,
        payload: {},
      }),
      await t.app.inject({ method: 'GET', url: authorUrl(org.groupId, 'j') }),
      await t.app.inject({
        method: 'GET',
        url: '/api/external/recommend-journals/x/',
        headers: noJournals.headers,
      }),
      await t.app.inject({ method: 'GET', url: authorUrl(org.groupId, 'nobody'), headers: org.headers }),
      await t.app.inject({ method: 'POST', url: '/api/external/custom-fields/all/', headers: org.headers }),
      await t.app.inject({
        method: 'POST',
        url: authorUrl(org.groupId, 'big'),
        headers: org.headers,
        payload: { name: 'x'.repeat(2 * 1024 * 1024) },
      }),
      await t.app.inject({
        method: 'POST',
        url: '/api/external/proposal/',
        headers: { ...org.headers, 'content-type': 'application/json' },
        payload: {},
      }),
    ];
    expect(responses.map((r) => r.statusCode)).toEqual([400, 401, 403, 404, 405, 413, 415]);
    for (const res of responses) expectJson(res);
  });
});
