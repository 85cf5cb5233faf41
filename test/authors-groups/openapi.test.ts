import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('the OpenAPI document describes the authors-group and custom-field endpoints', () => {
  it('lists 4.1-4.4 and 4.7 with their methods, schemas and the API-key security', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, { security?: unknown; responses: Record<string, unknown> }>>;
    }>();
    const author = doc.paths['/api/external/author-from-group/{group_id}/{client_id}/'];
    expect(Object.keys(author ?? {}).sort()).toEqual(['delete', 'get', 'post']);
    expect(
      Object.keys(doc.paths['/api/external/author-from-group/{group_id}/{client_id}/partial/'] ?? {}),
    ).toEqual(['post']);
    const fields = doc.paths['/api/external/custom-fields/all/'];
    expect(fields?.get?.security).toEqual([{ apiKey: [] }]);
    expect(Object.keys(author!.get!.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404']));
  });
});
