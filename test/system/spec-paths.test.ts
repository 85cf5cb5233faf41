// Section 4 writes every path with a trailing slash (`.../{client_id}/`, `.../partial/`). Clients
// build them by hand, and some drop it: each path answers the same with and without it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { authorUrl, orgWithGroup, type OrgWithGroup } from '../authors-groups/helpers.ts';
import { baseFields, multipartBody } from '../manuscripts/upload-helpers.ts';

let t: TestApp;
let org: OrgWithGroup;
beforeAll(async () => {
  t = await createTestApp();
  org = await orgWithGroup(t);
});
afterAll(async () => t.close());

describe('the paths of section 4, as written and without their trailing slash', () => {
  for (const slash of ['/', '']) {
    it(slash ? 'as written, with the slash' : 'without the slash', async () => {
      const path = (url: string) => (slash ? url : url.replace(/\/$/, ''));
      const originId = slash ? 'with-slash' : 'without-slash';
      const form = multipartBody(baseFields({ origin_id: originId }));
      const calls = [
        { method: 'POST' as const, url: authorUrl(org.groupId, 'p'), payload: { name: 'P' } },
        { method: 'POST' as const, url: authorUrl(org.groupId, 'p', true), payload: { emails: [] } },
        { method: 'GET' as const, url: authorUrl(org.groupId, 'p') },
        { method: 'DELETE' as const, url: authorUrl(org.groupId, 'p') },
        {
          method: 'POST' as const,
          url: '/api/external/proposal/',
          payload: form.body,
          headers: { 'content-type': form.contentType },
        },
        { method: 'GET' as const, url: `/api/external/recommend-journals/${originId}/` },
        { method: 'GET' as const, url: '/api/external/custom-fields/all/' },
      ];
      for (const { headers, url, ...call } of calls) {
        const res = await t.app.inject({ ...call, url: path(url), headers: { ...org.headers, ...headers } });
        expect(res.statusCode, `${call.method} ${path(url)}: ${res.body.slice(0, 120)}`).toBe(200);
      }
    });
  }
});
