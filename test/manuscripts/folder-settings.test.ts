// Folder referee finder settings (2.4): `refmatch folder settings` and authors_groups_settings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import { createGroup } from '../../src/authors-groups/store.ts';
import { baseFields, upload } from './upload-helpers.ts';
import { runCommand } from './cli-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** `refmatch folder settings` for one folder: its groups in order, the effect, and boost's multiplier. */
function folderSettings(org: TestOrg, folder: string, groups: number[], effect: string, boost?: string) {
  return runCommand(t, 'folder settings', {
    org: org.id,
    folder,
    groups: groups.join(','),
    effect,
    ...(boost === undefined ? {} : { boost }),
  });
}

async function settingsOf(org: TestOrg, folder: string) {
  const res = await upload(t.app, { apiKey: org.apiKey, fields: baseFields({ folder }) });
  expect(res.statusCode).toBe(200);
  return res.json().authors_groups_settings;
}

describe('authors_groups_settings', () => {
  it('is null when the folder has no settings', async () => {
    const org = await createTestOrg(t);
    expect(await settingsOf(org, 'PLAIN')).toBeNull();
  });

  it('lists the named groups with id, name, label and the effect; no boost_multiplier for highlight', async () => {
    const org = await createTestOrg(t);
    const g1 = await createGroup(t.db, org.id, 'Editorial board');
    const g2 = await createGroup(t.db, org.id, 'Reviewers 2026');
    const out = await folderSettings(org, 'HL', [g2.group_id, g1.group_id], 'highlight');
    expect(out).toMatchObject({ folder: 'HL', effect: 'highlight' });
    expect(await settingsOf(org, 'HL')).toEqual({
      authors_groups: [
        { id: g2.group_id, name: 'Reviewers 2026', label: null },
        { id: g1.group_id, name: 'Editorial board', label: null },
      ],
      effect: 'highlight',
    });
  });

  it('has limit_to without a multiplier, and boost with its multiplier', async () => {
    const org = await createTestOrg(t);
    const g = await createGroup(t.db, org.id, 'Board');
    await folderSettings(org, 'LIM', [g.group_id], 'limit_to');
    await folderSettings(org, 'BST', [g.group_id], 'boost', '1.5');
    const limit = await settingsOf(org, 'LIM');
    expect(limit).toEqual({
      authors_groups: [{ id: g.group_id, name: 'Board', label: null }],
      effect: 'limit_to',
    });
    expect(Object.keys(limit)).not.toContain('boost_multiplier');
    expect(await settingsOf(org, 'BST')).toEqual({
      authors_groups: [{ id: g.group_id, name: 'Board', label: null }],
      effect: 'boost',
      boost_multiplier: 1.5,
    });
  });

  it('writes boost_multiplier as a float even when whole (2.0, not 2)', async () => {
    const org = await createTestOrg(t);
    const g = await createGroup(t.db, org.id, 'Board');
    await folderSettings(org, 'BST2', [g.group_id], 'boost', '2');
    const res = await upload(t.app, { apiKey: org.apiKey, fields: baseFields({ folder: 'BST2' }) });
    expect(res.body).toContain('"boost_multiplier":2.0}');
    expect(res.json().authors_groups_settings.boost_multiplier).toBe(2);
  });

  it('is null again when the settings name no groups, and follows the folder a manuscript moves to', async () => {
    const org = await createTestOrg(t);
    const g = await createGroup(t.db, org.id, 'Board');
    await folderSettings(org, 'F', [g.group_id], 'highlight');
    expect(await settingsOf(org, 'F')).not.toBeNull();
    expect(await settingsOf(org, 'OTHER')).toBeNull();
    await runCommand(t, 'folder settings', { org: org.id, folder: 'F', groups: '', effect: 'highlight' });
    expect(await settingsOf(org, 'F')).toBeNull();
  });

  it('creates the folder when the CLI names a missing one', async () => {
    const org = await createTestOrg(t);
    const g = await createGroup(t.db, org.id, 'Board');
    const out = (await folderSettings(org, 'BRAND-NEW', [g.group_id], 'highlight')) as { folder_id: number };
    const { rows } = await t.db.query<{ id: number }>(
      'SELECT id FROM folders WHERE organization_id = $1 AND name = $2',
      [org.id, 'BRAND-NEW'],
    );
    expect(rows.map((r) => r.id)).toEqual([out.folder_id]);
  });
});

describe('folder settings validation', () => {
  it("refuses another organization's group as if it did not exist", async () => {
    const org = await createTestOrg(t);
    const other = await createTestOrg(t);
    const foreign = await createGroup(t.db, other.id, 'Not yours');
    await expect(folderSettings(org, 'X', [foreign.group_id], 'highlight')).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      runCommand(t, 'folder settings', { org: org.id, folder: 'X', groups: '999999', effect: 'highlight' }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses an unknown effect, a boost without multiplier, and a multiplier without boost', async () => {
    const org = await createTestOrg(t);
    const g = await createGroup(t.db, org.id, 'Board');
    const groups = `${g.group_id}`;
    for (const args of [
      { effect: 'promote' },
      { effect: 'boost' },
      { effect: 'boost', boost: '0' },
      { effect: 'boost', boost: 'much' },
      { effect: 'highlight', boost: '2' },
    ]) {
      await expect(
        runCommand(t, 'folder settings', { org: org.id, folder: 'X', groups, ...args }),
      ).rejects.toMatchObject({ code: 'validation_failed' });
    }
  });

  it("never shows another organization's folder settings under the same folder name", async () => {
    const a = await createTestOrg(t);
    const b = await createTestOrg(t);
    const g = await createGroup(t.db, b.id, 'B board');
    await folderSettings(b, 'SHARED', [g.group_id], 'boost', '2');
    expect(await settingsOf(a, 'SHARED')).toBeNull();
    expect(await settingsOf(b, 'SHARED')).toMatchObject({ effect: 'boost', boost_multiplier: 2 });
  });

  it("drops groups that are deleted or not the organization's, even if stored in the settings", async () => {
    const org = await createTestOrg(t);
    const other = await createTestOrg(t);
    const own = await createGroup(t.db, org.id, 'Own');
    const gone = await createGroup(t.db, org.id, 'Gone');
    const foreign = await createGroup(t.db, other.id, 'Foreign');
    await folderSettings(org, 'MIX', [own.group_id, gone.group_id], 'highlight');
    // Written behind the CLI's back, as a bug or a manual edit might.
    await t.db.query(
      `UPDATE folder_referee_settings SET authors_group_ids = $1
        WHERE folder_id = (SELECT id FROM folders WHERE organization_id = $2 AND name = 'MIX')`,
      [[own.group_id, gone.group_id, foreign.group_id], org.id],
    );
    await t.db.query('DELETE FROM authors_groups WHERE id = $1', [gone.group_id]);
    expect(await settingsOf(org, 'MIX')).toEqual({
      authors_groups: [{ id: own.group_id, name: 'Own', label: null }],
      effect: 'highlight',
    });
    await t.db.query('DELETE FROM authors_groups WHERE id = $1', [own.group_id]);
    expect(await settingsOf(org, 'MIX')).toBeNull();
  });
});
