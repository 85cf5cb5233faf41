import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { authorUrl, orgWithGroup, type OrgWithGroup } from '../authors-groups/helpers.ts';
import {
  createCustomField,
  deleteCustomField,
  updateCustomField,
  type CustomField,
} from '../../src/custom-fields/store.ts';
import type { DataKind } from '../../src/custom-fields/kinds.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

interface Fields {
  number: CustomField;
  str: CustomField;
  date: CustomField;
  single: CustomField;
  multi: CustomField;
}

async function withFields(org: OrgWithGroup): Promise<Fields> {
  const make = (dataKind: DataKind, options: string[] = []) =>
    createCustomField(t.db, org.id, { owner: 'author_from_group', dataKind, name: dataKind, options });
  return {
    number: await make('number'),
    str: await make('str'),
    date: await make('date'),
    single: await make('single_option', ['Yes', 'No']),
    multi: await make('multi_option', ['Biology', 'Physics', 'Maths']),
  };
}

function opt(field: CustomField, i: number): string {
  return field.options![i]!.api_id;
}

async function post(org: OrgWithGroup, clientId: string, payload: object, partial = false) {
  return t.app.inject({
    method: 'POST',
    url: authorUrl(org.groupId, clientId, partial),
    headers: org.headers,
    payload,
  });
}

async function read(org: OrgWithGroup, clientId: string) {
  return (
    await t.app.inject({ method: 'GET', url: authorUrl(org.groupId, clientId), headers: org.headers })
  ).json<Record<string, unknown>>();
}

function paths(res: { json<T>(): T }): string[] {
  return res.json<{ error: { details: { path: string }[] } }>().error.details.map((d) => d.path);
}

describe('custom field values on an author from group (2.1, 2.5)', () => {
  it('stores a valid value of every data_kind and returns it under the api_id key', async () => {
    const org = await orgWithGroup(t);
    const f = await withFields(org);
    const values = {
      [f.number.api_id]: 12.5,
      [f.str.api_id]: 'senior',
      [f.date.api_id]: '2024-02-29',
      [f.single.api_id]: opt(f.single, 1),
      [f.multi.api_id]: [opt(f.multi, 2), opt(f.multi, 0)],
    };
    const res = await post(org, 'c', { name: 'C', ...values });
    expect(res.statusCode).toBe(200);
    expect(await read(org, 'c')).toEqual({
      name: 'C',
      emails: null,
      orcids: null,
      articles: null,
      affiliations: null,
      ...values,
      author: null,
    });
  });

  it('reads the custom keys after the five fields and before author, in the order of 4.1', async () => {
    const org = await orgWithGroup(t);
    const f = await withFields(org);
    await post(org, 'order', { name: 'O', [f.str.api_id]: 'set' });
    const res = await t.app.inject({
      method: 'GET',
      url: authorUrl(org.groupId, 'order'),
      headers: org.headers,
    });
    const keys = Object.keys(res.json<object>());
    expect(keys.slice(0, 5)).toEqual(['name', 'emails', 'orcids', 'articles', 'affiliations']);
    expect(keys.slice(5, -1).sort()).toEqual(
      Object.values(f)
        .map((field) => field.api_id)
        .sort(),
    );
    expect(keys.at(-1)).toBe('author');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('accepts option api_ids in upper case and returns them as listed', async () => {
    const org = await orgWithGroup(t);
    const f = await withFields(org);
    const res = await post(org, 'c', {
      name: 'C',
      [f.single.api_id.toUpperCase()]: opt(f.single, 0).toUpperCase(),
    });
    expect(res.statusCode).toBe(200);
    expect((await read(org, 'c'))[f.single.api_id]).toBe(opt(f.single, 0));
  });

  const invalid: Array<[keyof Fields, (f: Fields) => unknown, string]> = [
    ['number', () => '12', 'a string for number'],
    ['number', () => true, 'a boolean for number'],
    ['number', () => [1], 'an array for number'],
    ['str', () => 5, 'a number for str'],
    ['str', () => ['a'], 'an array for str'],
    ['str', () => 's'.repeat(10_001), 'a str over 10,000 characters'],
    ['date', () => '2023-02-29', 'a date that is not in the calendar'],
    ['date', () => '2024-13-01', 'month 13'],
    ['date', () => '2024-1-01', 'an unpadded month'],
    ['date', () => '2024-01-01T00:00:00Z', 'a timestamp'],
    ['date', () => 20240101, 'a number for date'],
    ['single', (f) => opt(f.multi, 0), "another field's option"],
    ['single', () => '00000000-0000-4000-8000-000000000000', 'an unknown option id'],
    ['single', (f) => [opt(f.single, 0)], 'an array for single_option'],
    ['multi', (f) => opt(f.multi, 0), 'a bare string for multi_option'],
    ['multi', (f) => [opt(f.single, 0)], "another field's option in multi_option"],
  ];
  for (const [kind, value, what] of invalid) {
    it(`refuses ${what} with 400 naming the field`, async () => {
      const org = await orgWithGroup(t);
      const f = await withFields(org);
      const res = await post(org, 'v', { name: 'V', [f[kind].api_id]: value(f) });
      expect(res.statusCode).toBe(400);
      expect(paths(res)[0]).toMatch(new RegExp(`^body\\.${f[kind].api_id}`));
      expect(
        (await t.app.inject({ method: 'GET', url: authorUrl(org.groupId, 'v'), headers: org.headers }))
          .statusCode,
      ).toBe(404);
    });
  }

  it('refuses a number that JSON turns into Infinity', async () => {
    const org = await orgWithGroup(t);
    const f = await withFields(org);
    const res = await t.app.inject({
      method: 'POST',
      url: authorUrl(org.groupId, 'inf'),
      headers: { ...org.headers, 'content-type': 'application/json' },
      payload: `{"name":"I","${f.number.api_id}":1e400}`,
    });
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual([`body.${f.number.api_id}`]);
  });

  it('refuses repeated options in multi_option, naming the repeated item', async () => {
    const org = await orgWithGroup(t);
    const f = await withFields(org);
    const res = await post(org, 'm', { name: 'M', [f.multi.api_id]: [opt(f.multi, 0), opt(f.multi, 0)] });
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual([`body.${f.multi.api_id}.1`]);
  });

  it('refuses keys that are not fields of the author_from_group owner', async () => {
    const org = await orgWithGroup(t);
    const folderField = await createCustomField(t.db, org.id, {
      owner: 'folder',
      dataKind: 'str',
      name: 'F',
    });
    const proposalField = await createCustomField(t.db, org.id, {
      owner: 'proposal',
      dataKind: 'str',
      name: 'P',
    });
    const unknownUuid = '11111111-1111-4111-8111-111111111111';
    const res = await post(org, 'k', {
      name: 'K',
      [folderField.api_id]: 'x',
      [proposalField.api_id]: 'x',
      [unknownUuid]: 'x',
      nickname: 'x',
    });
    expect(res.statusCode).toBe(400);
    expect(paths(res).sort()).toEqual(
      [folderField.api_id, proposalField.api_id, unknownUuid, 'nickname'].map((k) => `body.${k}`).sort(),
    );
  });

  it('reports schema errors and custom field errors together', async () => {
    const org = await orgWithGroup(t);
    const f = await withFields(org);
    const res = await post(org, 'both', { emails: 'x', [f.number.api_id]: 'x' });
    expect(res.statusCode).toBe(400);
    expect(paths(res).sort()).toEqual(['body.emails', 'body.name', `body.${f.number.api_id}`].sort());
  });

  it('null clears a value on partial update; omitted values stay; replace drops unsent values', async () => {
    const org = await orgWithGroup(t);
    const f = await withFields(org);
    await post(org, 'p', {
      name: 'P',
      [f.number.api_id]: 1,
      [f.str.api_id]: 'a',
      [f.date.api_id]: '2020-01-01',
    });
    const partial = await post(org, 'p', { [f.number.api_id]: null, [f.str.api_id]: 'b' }, true);
    expect(partial.statusCode).toBe(200);
    const afterPartial = await read(org, 'p');
    // A field without a value reads as null, as the record's own fields do: one shape for every read.
    expect(afterPartial).toHaveProperty(f.number.api_id, null);
    expect(afterPartial[f.str.api_id]).toBe('b');
    expect(afterPartial[f.date.api_id]).toBe('2020-01-01');

    await post(org, 'p', { name: 'P', [f.str.api_id]: 'c' });
    const afterReplace = await read(org, 'p');
    expect(afterReplace[f.str.api_id]).toBe('c');
    expect(afterReplace).toHaveProperty(f.date.api_id, null);
    // A record never given a custom value reads every field of the organization as null.
    await post(org, 'bare', { name: 'Bare' });
    const bare = await read(org, 'bare');
    for (const field of Object.values(f)) expect(bare).toHaveProperty(field.api_id, null);
  });

  it('partial update validates custom values too and changes nothing on failure', async () => {
    const org = await orgWithGroup(t);
    const f = await withFields(org);
    await post(org, 'p', { name: 'P', [f.number.api_id]: 1 });
    const res = await post(org, 'p', { name: 'Q', [f.number.api_id]: 'two' }, true);
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual([`body.${f.number.api_id}`]);
    expect(await read(org, 'p')).toMatchObject({ name: 'P', [f.number.api_id]: 1 });
  });

  it('a deleted custom field: its values disappear from reads, and the key is then refused', async () => {
    const org = await orgWithGroup(t);
    const f = await withFields(org);
    await post(org, 'd', { name: 'D', [f.number.api_id]: 3, [f.str.api_id]: 'kept' });
    await deleteCustomField(t.db, f.number.api_id);
    const after = await read(org, 'd');
    expect(after).not.toHaveProperty(f.number.api_id);
    expect(after[f.str.api_id]).toBe('kept');
    const res = await post(org, 'd', { [f.number.api_id]: 4 }, true);
    expect(res.statusCode).toBe(400);
  });

  it('a removed option disappears from stored values of both option kinds', async () => {
    const org = await orgWithGroup(t);
    const f = await withFields(org);
    await post(org, 'o', {
      name: 'O',
      [f.single.api_id]: opt(f.single, 0),
      [f.multi.api_id]: [opt(f.multi, 0), opt(f.multi, 1)],
    });
    await updateCustomField(t.db, f.single.api_id, { removeOptions: [opt(f.single, 0)] });
    await updateCustomField(t.db, f.multi.api_id, { removeOptions: [opt(f.multi, 0)] });
    const after = await read(org, 'o');
    expect(after).toHaveProperty(f.single.api_id, null);
    expect(after[f.multi.api_id]).toEqual([opt(f.multi, 1)]);
  });
});
