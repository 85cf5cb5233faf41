// The CLI commands' own logic, run in-process on a test database (the subprocess test in
// test/system/cli.test.ts covers how they are reached).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import type { CommandContext } from '../../src/infra/cli/command.ts';
import { groupCreate, groupDelete, groupList } from '../../src/authors-groups/commands.ts';
import { checkFolderSettings, ensureFolder, saveFolderSettings } from '../../src/folders/folders.ts';
import {
  customFieldCreate,
  customFieldDelete,
  customFieldList,
  customFieldUpdate,
} from '../../src/custom-fields/commands.ts';

let t: TestApp;
let ctx: CommandContext;
beforeAll(async () => {
  t = await createTestApp();
  ctx = { config: t.config, db: t.db, progress: () => {} };
});
afterAll(async () => {
  await t.close();
});

describe('group commands', () => {
  it('group create prints {group_id, name}; group list shows only that organization’s groups', async () => {
    const org = await createTestOrg(t);
    const other = await createTestOrg(t);
    const a = await groupCreate.run(ctx, { org: org.id, name: '  Board  ' });
    const b = await groupCreate.run(ctx, { org: org.id, name: 'Panel' });
    await groupCreate.run(ctx, { org: other.id, name: 'Elsewhere' });
    expect(a).toEqual({ group_id: expect.any(Number), name: 'Board' });
    expect(await groupList.run(ctx, { org: org.id })).toEqual([a, b]);
  });

  it('refuses an empty name and an unknown organization', async () => {
    const org = await createTestOrg(t);
    await expect(groupCreate.run(ctx, { org: org.id, name: ' ' })).rejects.toMatchObject({ status: 400 });
    await expect(groupCreate.run(ctx, { org: 99_999_999, name: 'X' })).rejects.toMatchObject({ status: 404 });
    await expect(groupList.run(ctx, { org: 99_999_999 })).rejects.toMatchObject({ status: 404 });
  });
});

describe('group delete', () => {
  it('prints what went with the group; another organization’s or a missing group is not found', async () => {
    const org = await createTestOrg(t);
    const other = await createTestOrg(t);
    const group = (await groupCreate.run(ctx, { org: org.id, name: 'Mistaken' })) as { group_id: number };
    const theirs = (await groupCreate.run(ctx, { org: other.id, name: 'Theirs' })) as { group_id: number };
    const folder = await ensureFolder(t.db, org.id, 'J1');
    await saveFolderSettings(
      t.db,
      folder,
      await checkFolderSettings(t.db, org.id, {
        groupIds: [group.group_id],
        effect: 'boost',
        boostMultiplier: 2,
      }),
    );
    await expect(groupDelete.run(ctx, { org: org.id, group: theirs.group_id })).rejects.toMatchObject({
      status: 404,
    });
    expect(await groupDelete.run(ctx, { org: org.id, group: group.group_id })).toEqual({
      deleted: true,
      group_id: group.group_id,
      name: 'Mistaken',
      records: 0,
      folders: ['J1'],
    });
    expect(await groupList.run(ctx, { org: org.id })).toEqual([]);
    expect(await groupList.run(ctx, { org: other.id })).toEqual([theirs]);
    await expect(groupDelete.run(ctx, { org: org.id, group: group.group_id })).rejects.toMatchObject({
      status: 404,
    });
  });
});

describe('custom-field commands', () => {
  it('create prints the field as 4.7 shows it; update, list and delete work by api_id', async () => {
    const org = await createTestOrg(t);
    const field = await customFieldCreate.run(ctx, {
      org: org.id,
      owner: 'proposal',
      kind: 'multi_option',
      name: 'Topics',
      option: ['A', 'B'],
    });
    expect(field).toEqual({
      api_id: expect.any(String),
      data_kind: 'multi_option',
      name: 'Topics',
      description: null,
      options: [
        { api_id: expect.any(String), option: 'A' },
        { api_id: expect.any(String), option: 'B' },
      ],
    });
    const number = await customFieldCreate.run(ctx, {
      org: org.id,
      owner: 'folder',
      kind: 'number',
      name: 'Budget',
    });
    expect(number).not.toHaveProperty('options');
    const updated = await customFieldUpdate.run(ctx, {
      field: field.api_id,
      description: 'What it is about',
      addOption: ['C'],
    });
    expect(updated.description).toBe('What it is about');
    expect(updated.options!.map((o) => o.option)).toEqual(['A', 'B', 'C']);
    expect(await customFieldList.run(ctx, { org: org.id })).toEqual({
      author_from_group: [],
      folder: [number],
      proposal: [updated],
    });
    expect(await customFieldDelete.run(ctx, { field: number.api_id })).toEqual({
      deleted: true,
      api_id: number.api_id,
    });
    await expect(customFieldDelete.run(ctx, { field: number.api_id })).rejects.toMatchObject({ status: 404 });
  });

  it('refuses an unknown owner or kind, and an unknown organization', async () => {
    const org = await createTestOrg(t);
    await expect(
      customFieldCreate.run(ctx, { org: org.id, owner: 'journal' as 'folder', kind: 'str', name: 'X' }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      customFieldCreate.run(ctx, { org: org.id, owner: 'folder', kind: 'colour' as 'str', name: 'X' }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      customFieldCreate.run(ctx, { org: 99_999_999, owner: 'folder', kind: 'str', name: 'X' }),
    ).rejects.toMatchObject({ status: 404 });
  });
});
