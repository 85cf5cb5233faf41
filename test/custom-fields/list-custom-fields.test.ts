import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { createCustomField, deleteCustomField, updateCustomField } from '../../src/custom-fields/store.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const URL = '/api/external/custom-fields/all/';

describe('GET /api/external/custom-fields/all/ (4.7)', () => {
  it('lists an organization without fields as three empty lists', async () => {
    const org = await createTestOrg(t);
    const res = await t.app.inject({ method: 'GET', url: URL, headers: org.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ author_from_group: [], folder: [], proposal: [] });
  });

  it('groups fields by owner; options only for option kinds, in their order', async () => {
    const org = await createTestOrg(t);
    const level = await createCustomField(t.db, org.id, {
      owner: 'author_from_group',
      dataKind: 'single_option',
      name: 'Level',
      description: 'Seniority',
      options: ['Junior', 'Senior'],
    });
    const note = await createCustomField(t.db, org.id, { owner: 'folder', dataKind: 'str', name: 'Note' });
    const due = await createCustomField(t.db, org.id, { owner: 'proposal', dataKind: 'date', name: 'Due' });
    const topics = await createCustomField(t.db, org.id, {
      owner: 'proposal',
      dataKind: 'multi_option',
      name: 'Topics',
      options: ['A', 'B', 'C'],
    });
    const res = await t.app.inject({ method: 'GET', url: URL, headers: org.headers });
    const body = res.json<Record<string, Array<Record<string, unknown>>>>();
    expect(body).toEqual({
      author_from_group: [
        {
          api_id: level.api_id,
          data_kind: 'single_option',
          name: 'Level',
          description: 'Seniority',
          options: [
            { api_id: expect.stringMatching(UUID), option: 'Junior' },
            { api_id: expect.stringMatching(UUID), option: 'Senior' },
          ],
        },
      ],
      folder: [{ api_id: note.api_id, data_kind: 'str', name: 'Note', description: null }],
      proposal: [
        { api_id: due.api_id, data_kind: 'date', name: 'Due', description: null },
        {
          api_id: topics.api_id,
          data_kind: 'multi_option',
          name: 'Topics',
          description: null,
          options: ['A', 'B', 'C'].map((option) => ({ api_id: expect.stringMatching(UUID), option })),
        },
      ],
    });
    expect(level.api_id).toMatch(UUID);
  });

  it('shows updates (name, description, options added and removed) and forgets deleted fields', async () => {
    const org = await createTestOrg(t);
    const field = await createCustomField(t.db, org.id, {
      owner: 'author_from_group',
      dataKind: 'multi_option',
      name: 'Tags',
      description: 'old',
      options: ['x', 'y'],
    });
    const gone = await createCustomField(t.db, org.id, {
      owner: 'author_from_group',
      dataKind: 'number',
      name: 'Gone',
    });
    await updateCustomField(t.db, field.api_id, {
      name: 'Labels',
      description: '',
      addOptions: ['z'],
      removeOptions: [field.options![0]!.api_id],
    });
    await deleteCustomField(t.db, gone.api_id);
    const body = (await t.app.inject({ method: 'GET', url: URL, headers: org.headers })).json<{
      author_from_group: Array<{
        name: string;
        description: string | null;
        options: Array<{ option: string }>;
      }>;
    }>();
    expect(body.author_from_group).toHaveLength(1);
    expect(body.author_from_group[0]).toMatchObject({ name: 'Labels', description: null });
    expect(body.author_from_group[0]!.options.map((o) => o.option)).toEqual(['y', 'z']);
  });
});

describe('custom field rules enforced by the store (the CLI uses it)', () => {
  it('refuses an option kind without options, options on other kinds, duplicates, and the last option removed', async () => {
    const org = await createTestOrg(t);
    await expect(
      createCustomField(t.db, org.id, { owner: 'folder', dataKind: 'single_option', name: 'S' }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      createCustomField(t.db, org.id, { owner: 'folder', dataKind: 'str', name: 'S', options: ['a'] }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      createCustomField(t.db, org.id, {
        owner: 'folder',
        dataKind: 'multi_option',
        name: 'S',
        options: ['a', 'b ', ' b'],
      }),
    ).rejects.toMatchObject({ status: 400, message: 'Options of a field must differ: “b” is given twice' });
    const one = await createCustomField(t.db, org.id, {
      owner: 'folder',
      dataKind: 'single_option',
      name: 'One',
      options: ['only'],
    });
    await expect(
      updateCustomField(t.db, one.api_id, { removeOptions: [one.options![0]!.api_id] }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(updateCustomField(t.db, one.api_id, { addOptions: ['only'] })).rejects.toMatchObject({
      status: 400,
    });
  });

  it('answers not found for an unknown field id or a malformed one', async () => {
    await expect(deleteCustomField(t.db, '11111111-1111-4111-8111-111111111111')).rejects.toMatchObject({
      status: 404,
    });
    await expect(updateCustomField(t.db, 'not-a-uuid', { name: 'x' })).rejects.toMatchObject({ status: 404 });
  });

  it('refuses a second field of one name for one owner (letter case aside), on create and rename', async () => {
    const org = await createTestOrg(t);
    const notes = await createCustomField(t.db, org.id, { owner: 'folder', dataKind: 'str', name: 'Notes' });
    await expect(
      createCustomField(t.db, org.id, { owner: 'folder', dataKind: 'number', name: ' notes ' }),
    ).rejects.toMatchObject({ status: 409 });
    // Another owner, or another organization, may use the name.
    await createCustomField(t.db, org.id, { owner: 'proposal', dataKind: 'str', name: 'Notes' });
    await createCustomField(t.db, (await createTestOrg(t)).id, {
      owner: 'folder',
      dataKind: 'str',
      name: 'Notes',
    });
    const other = await createCustomField(t.db, org.id, {
      owner: 'folder',
      dataKind: 'str',
      name: 'Remarks',
    });
    await expect(updateCustomField(t.db, other.api_id, { name: 'NOTES' })).rejects.toMatchObject({
      status: 409,
    });
    // Renaming a field to its own name (another case) is no clash.
    expect((await updateCustomField(t.db, notes.api_id, { name: 'NOTES' })).name).toBe('NOTES');
  });

  it('refuses to remove an option the field does not hold (removed already, or never its own) with a 400', async () => {
    const org = await createTestOrg(t);
    const two = await createCustomField(t.db, org.id, {
      owner: 'folder',
      dataKind: 'single_option',
      name: 'Two',
      options: ['a', 'b'],
    });
    const a = two.options![0]!.api_id;
    await updateCustomField(t.db, two.api_id, { removeOptions: [a] });
    for (const option of [a, 'not-a-uuid']) {
      await expect(updateCustomField(t.db, two.api_id, { removeOptions: [option] })).rejects.toMatchObject({
        status: 400,
      });
    }
  });
});
