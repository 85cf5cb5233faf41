import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createCustomField, type CustomField } from '../../src/custom-fields/store.ts';
import { authorUrl, orgWithGroup, type OrgWithGroup } from '../authors-groups/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

interface Tenant extends OrgWithGroup {
  field: CustomField;
}

async function tenant(): Promise<Tenant> {
  const org = await orgWithGroup(t);
  const field = await createCustomField(t.db, org.id, {
    owner: 'author_from_group',
    dataKind: 'str',
    name: `Field of ${org.id}`,
  });
  const res = await t.app.inject({
    method: 'POST',
    url: authorUrl(org.groupId, 'shared-id'),
    headers: org.headers,
    payload: { name: `Author of ${org.id}`, emails: [`a${org.id}@example.org`], [field.api_id]: 'mine' },
  });
  expect(res.statusCode).toBe(200);
  return { ...org, field };
}

async function snapshot(org: Tenant) {
  const rows = await t.db.query('SELECT * FROM group_authors WHERE organization_id = $1 ORDER BY client_id', [
    org.id,
  ]);
  const fields = await t.db.query('SELECT * FROM custom_fields WHERE organization_id = $1', [org.id]);
  return JSON.stringify([rows.rows, fields.rows]);
}

function error(res: { statusCode: number; json<T>(): T }, groupId: number) {
  const body = res.json<{ error: { code: string; message: string } }>();
  return {
    status: res.statusCode,
    code: body.error.code,
    message: body.error.message.replace(String(groupId), 'N'),
  };
}

describe('tenant isolation: another organization cannot see or change anything', () => {
  it("answers 404 to every author-from-group call on the other's group, exactly as for a missing group", async () => {
    const a = await tenant();
    const b = await tenant();
    const before = await snapshot(a);
    const missing = 2_000_000_000;
    const calls = (groupId: number) => [
      { method: 'GET' as const, url: authorUrl(groupId, 'shared-id') },
      { method: 'POST' as const, url: authorUrl(groupId, 'shared-id'), payload: { name: 'Hijack' } },
      { method: 'POST' as const, url: authorUrl(groupId, 'new-id'), payload: { name: 'Intruder' } },
      { method: 'POST' as const, url: authorUrl(groupId, 'shared-id', true), payload: { name: 'Hijack' } },
      { method: 'DELETE' as const, url: authorUrl(groupId, 'shared-id') },
    ];
    const foreign = calls(a.groupId);
    const absent = calls(missing);
    for (const [i, call] of foreign.entries()) {
      const res = await t.app.inject({ ...call, headers: b.headers });
      const ref = await t.app.inject({ ...absent[i]!, headers: b.headers });
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(404);
      expect(error(res, a.groupId)).toEqual(error(ref, missing));
    }
    expect(await snapshot(a)).toBe(before);
    const own = await t.app.inject({
      method: 'GET',
      url: authorUrl(a.groupId, 'shared-id'),
      headers: a.headers,
    });
    expect(own.json()).toMatchObject({ name: `Author of ${a.id}`, [a.field.api_id]: 'mine' });
  });

  it("refuses the other's custom field api_id as an unknown key", async () => {
    const a = await tenant();
    const b = await tenant();
    const res = await t.app.inject({
      method: 'POST',
      url: authorUrl(b.groupId, 'x'),
      headers: b.headers,
      payload: { name: 'X', [a.field.api_id]: 'smuggled' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: { details: { path: string }[] } }>().error.details).toEqual([
      { path: `body.${a.field.api_id}`, message: expect.any(String) },
    ]);
  });

  it('lists only its own custom fields', async () => {
    const a = await tenant();
    const b = await tenant();
    await createCustomField(t.db, a.id, { owner: 'folder', dataKind: 'number', name: 'A folder field' });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/external/custom-fields/all/',
      headers: b.headers,
    });
    expect(res.json()).toEqual({
      author_from_group: [
        { api_id: b.field.api_id, data_kind: 'str', name: `Field of ${b.id}`, description: null },
      ],
      folder: [],
      proposal: [],
    });
  });

  it('keeps equal client_ids of two organizations apart', async () => {
    const a = await tenant();
    const b = await tenant();
    await t.app.inject({ method: 'DELETE', url: authorUrl(b.groupId, 'shared-id'), headers: b.headers });
    const res = await t.app.inject({
      method: 'GET',
      url: authorUrl(a.groupId, 'shared-id'),
      headers: a.headers,
    });
    expect(res.statusCode).toBe(200);
  });
});
