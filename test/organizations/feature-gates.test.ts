// Spec 5.3: the plan's features gate referee candidates (4.5) and journal recommendation (4.6), and
// nothing else. An organization whose plan has neither still keeps its authors groups and reads its
// custom fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { createGroup } from '../../src/authors-groups/store.ts';
import { authorUrl } from '../authors-groups/helpers.ts';
import { rankingFields, upload } from '../manuscripts/upload-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('features gate only candidates and journal recommendation (5.3)', () => {
  it('a plan without features answers 4.1-4.4 and 4.7, uploads without candidates, and refuses 4.6', async () => {
    const org = await createTestOrg(t, []);
    const group = await createGroup(t.db, org.id, 'Board');
    const url = authorUrl(group.group_id, 'a');
    const calls = [
      { method: 'POST' as const, url, payload: { name: 'A' } },
      { method: 'POST' as const, url: authorUrl(group.group_id, 'a', true), payload: { emails: [] } },
      { method: 'GET' as const, url },
      { method: 'DELETE' as const, url },
      { method: 'GET' as const, url: '/api/external/custom-fields/all/' },
    ];
    for (const call of calls) {
      const res = await t.app.inject({ ...call, headers: org.headers });
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(200);
    }
    const fields = rankingFields({ origin_id: 'gated' });
    const uploaded = await upload(t.app, { apiKey: org.apiKey, fields });
    expect(uploaded.statusCode).toBe(200);
    expect(uploaded.json().candidates).toBeNull();
    const journals = await t.app.inject({
      method: 'GET',
      url: '/api/external/recommend-journals/gated/',
      headers: org.headers,
    });
    expect(journals.statusCode).toBe(403);
    expect(journals.json().error.code).toBe('feature_not_in_plan');
  });
});
