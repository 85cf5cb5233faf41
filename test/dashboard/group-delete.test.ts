// Deleting an authors group from its dashboard page: asked first (its records and the folders whose
// settings name it), then gone with its records and out of every folder setting; its group_id answers
// as one that never existed; another organization's groups, records and folders stay as they were;
// past uploads whose candidates named it still show, and 4.6 still answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import { injectForm, type InjectSession, signInAs } from '../helpers/dashboard.ts';
import { baseFields, rankingFields, upload } from '../manuscripts/upload-helpers.ts';
import { buildCorpus, TOPIC } from '../referee-finder/fixtures.ts';
import { createGroup } from '../../src/authors-groups/store.ts';
import { createCustomField } from '../../src/custom-fields/store.ts';
import {
  checkFolderSettings,
  ensureFolder,
  requireFolder,
  saveFolderSettings,
} from '../../src/folders/folders.ts';
import type { GroupsEffect } from '../../src/referee-finder/types.ts';

let t: TestApp;
let ids: Awaited<ReturnType<typeof buildCorpus>>;
beforeAll(async () => {
  t = await createTestApp();
  ids = await buildCorpus(t.db, [
    { authors: [{ name: 'Nell Neutral' }] },
    { authors: [{ name: 'Nell Neutral' }] },
    { authors: [{ name: 'Otto Other' }] },
  ]);
  await t.app.refmatch.index.refresh();
});
afterAll(async () => t?.close());

const get = (session: InjectSession, url: string) =>
  t.app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });

function recordUrl(groupId: number, clientId: string, partial = false): string {
  return `/api/external/author-from-group/${groupId}/${clientId}/${partial ? 'partial/' : ''}`;
}

async function putRecord(org: TestOrg, groupId: number, clientId: string, body: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST',
    url: recordUrl(groupId, clientId),
    headers: org.headers,
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function setFolder(org: TestOrg, name: string, groupIds: number[], effect: GroupsEffect) {
  const folder = await ensureFolder(t.db, org.id, name);
  const settings = await checkFolderSettings(t.db, org.id, { groupIds, effect, boostMultiplier: null });
  await saveFolderSettings(t.db, folder, settings);
  return folder;
}

/** The four author-from-group calls (4.1-4.4) on a record of the group, status and body. */
async function apiAnswers(org: TestOrg, groupId: number) {
  const calls = [
    { method: 'GET' as const, url: recordUrl(groupId, 'r1') },
    { method: 'POST' as const, url: recordUrl(groupId, 'r1'), payload: { name: 'Ada' } },
    { method: 'POST' as const, url: recordUrl(groupId, 'r1', true), payload: { name: 'Ada' } },
    { method: 'DELETE' as const, url: recordUrl(groupId, 'r1') },
  ];
  const answers = [];
  for (const call of calls) {
    const res = await t.app.inject({ ...call, headers: org.headers });
    // The id is in the message; everything else must be the same.
    answers.push({ status: res.statusCode, body: res.body.replaceAll(String(groupId), '<id>') });
  }
  return answers;
}

describe('deleting an authors group', () => {
  it('asks first, naming the records and folders; then deletes it and takes it out of the folders', async () => {
    const org = await createTestOrg(t);
    const editor = await signInAs(t, org.id, 'editor');
    const mistaken = await createGroup(t.db, org.id, 'Mistaken <b>');
    const kept = await createGroup(t.db, org.id, 'Kept');
    const field = await createCustomField(t.db, org.id, {
      owner: 'author_from_group',
      dataKind: 'str',
      name: 'Note',
    });
    await putRecord(org, mistaken.group_id, 'r1', { name: 'Ada', [field.api_id]: 'x' });
    await putRecord(org, mistaken.group_id, 'r2', { name: 'Bea' });
    await putRecord(org, kept.group_id, 'r1', { name: 'Kay' });
    const onlyIt = await setFolder(org, 'LIMITED', [mistaken.group_id], 'limit_to');
    const both = await setFolder(org, 'BOTH', [kept.group_id, mistaken.group_id], 'highlight');
    const neither = await setFolder(org, 'NEITHER', [kept.group_id], 'highlight');

    const page = await get(editor, `/dashboard/groups/${mistaken.group_id}/`);
    expect(page.body).toContain(`action="/dashboard/groups/${mistaken.group_id}/delete/"`);
    expect(page.body).toContain('Delete group');

    const posted = await injectForm(t.app, editor, `/dashboard/groups/${mistaken.group_id}/delete/`);
    expect(posted.headers.location).toBe(`/dashboard/groups/${mistaken.group_id}/delete/`);
    const asked = await get(editor, posted.headers.location as string);
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('<h1>Delete the group <bdi>Mistaken &lt;b&gt;</bdi>?</h1>');
    const said = asked.body.replace(/\s+/g, ' ');
    expect(said).toContain('Its 2 records');
    expect(said).toContain('the folders <bdi>BOTH</bdi>, <bdi>LIMITED</bdi>;');
    expect(said).toContain('one limited to this group alone is no longer limited');
    expect(said).not.toContain('NEITHER');
    expect(asked.body).toContain('name="confirm" value="yes"');
    expect(asked.body).toContain(`href="/dashboard/groups/${mistaken.group_id}/"`);
    // Asking changed nothing.
    expect((await get(editor, `/dashboard/groups/${mistaken.group_id}/`)).statusCode).toBe(200);

    const done = await injectForm(t.app, editor, `/dashboard/groups/${mistaken.group_id}/delete/`, {
      confirm: 'yes',
    });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/dashboard/groups/');
    const list = await get(editor, '/dashboard/groups/');
    expect(list.body).toContain(
      'The group <bdi>Mistaken &lt;b&gt;</bdi> was deleted, with 2 records. The referee finder settings of <bdi>BOTH</bdi>, <bdi>LIMITED</bdi> no longer name it.',
    );
    expect(list.body).not.toContain(`/dashboard/groups/${mistaken.group_id}/"`);
    expect((await get(editor, `/dashboard/groups/${mistaken.group_id}/`)).statusCode).toBe(404);

    const rows = await t.db.query('SELECT 1 FROM group_authors WHERE group_id = $1', [mistaken.group_id]);
    expect(rows.rows).toEqual([]);
    expect((await requireFolder(t.db, org.id, onlyIt)).authors_group_ids).toEqual([]);
    expect((await requireFolder(t.db, org.id, both)).authors_group_ids).toEqual([kept.group_id]);
    expect((await requireFolder(t.db, org.id, neither)).authors_group_ids).toEqual([kept.group_id]);
    // The folder that was limited to it has no group settings: an upload there names no group.
    const res = await upload(t.app, { apiKey: org.apiKey, fields: baseFields({ folder: 'LIMITED' }) });
    expect(res.json().authors_groups_settings).toBeNull();
    // The folder's page no longer offers it.
    const folderPage = await get(editor, `/dashboard/folders/${both}/`);
    expect(folderPage.body).not.toContain('Mistaken');
    // The other group's record is untouched.
    const keptRead = await t.app.inject({ url: recordUrl(kept.group_id, 'r1'), headers: org.headers });
    expect(keptRead.json()).toMatchObject({ name: 'Kay' });
  });

  it('answers its group_id in 4.1-4.4 exactly as one that never existed', async () => {
    const org = await createTestOrg(t);
    const gone = await createGroup(t.db, org.id, 'Gone');
    await putRecord(org, gone.group_id, 'r1', { name: 'Ada' });
    const editor = await signInAs(t, org.id, 'editor');
    await injectForm(t.app, editor, `/dashboard/groups/${gone.group_id}/delete/`, { confirm: 'yes' });
    const never = 2_000_000_000;
    const after = await apiAnswers(org, gone.group_id);
    expect(after.map((a) => a.status)).toEqual([404, 404, 404, 404]);
    expect(after).toEqual(await apiAnswers(org, never));
  });

  it("touches nothing of another organization, and another organization's group cannot be deleted", async () => {
    const org = await createTestOrg(t);
    const other = await createTestOrg(t);
    const mine = await createGroup(t.db, org.id, 'Board');
    const theirs = await createGroup(t.db, other.id, 'Board');
    await putRecord(org, mine.group_id, 'r1', { name: 'Ada' });
    await putRecord(other, theirs.group_id, 'r1', { name: 'Otto' });
    const theirFolder = await setFolder(other, 'THEIRS', [theirs.group_id], 'limit_to');
    const editor = await signInAs(t, org.id, 'editor');

    // Theirs, by its id, is not found (asked or confirmed), and stays.
    expect((await injectForm(t.app, editor, `/dashboard/groups/${theirs.group_id}/delete/`)).statusCode).toBe(
      404,
    );
    const refused = await injectForm(t.app, editor, `/dashboard/groups/${theirs.group_id}/delete/`, {
      confirm: 'yes',
    });
    expect(refused.statusCode).toBe(404);

    await injectForm(t.app, editor, `/dashboard/groups/${mine.group_id}/delete/`, { confirm: 'yes' });
    const theirRead = await t.app.inject({ url: recordUrl(theirs.group_id, 'r1'), headers: other.headers });
    expect(theirRead.statusCode).toBe(200);
    expect(theirRead.json()).toMatchObject({ name: 'Otto' });
    expect((await requireFolder(t.db, other.id, theirFolder)).authors_group_ids).toEqual([theirs.group_id]);
  });

  it('offers no Delete button to a viewer', async () => {
    const org = await createTestOrg(t);
    const group = await createGroup(t.db, org.id, 'Board');
    const viewer = await signInAs(t, org.id, 'viewer');
    const page = await get(viewer, `/dashboard/groups/${group.group_id}/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('Delete group');
    const refused = await injectForm(t.app, viewer, `/dashboard/groups/${group.group_id}/delete/`, {
      confirm: 'yes',
    });
    expect(refused.statusCode).toBe(403);
  });

  it("keeps a past upload's candidates readable: the manuscript page names the deleted group, 4.6 answers", async () => {
    const org = await createTestOrg(t);
    const group = await createGroup(t.db, org.id, 'Board');
    await t.db.query(
      `INSERT INTO group_authors (group_id, client_id, organization_id, name, linked_author_id)
       VALUES ($1, 'nell-1', $2, 'Nell Neutral', $3)`,
      [group.group_id, org.id, ids.authorId('Nell Neutral')],
    );
    await setFolder(org, 'BOARD', [group.group_id], 'highlight');
    const fields = rankingFields({
      origin_id: 'ms-gone',
      folder: 'BOARD',
      title: 'Graph networks',
      abstract: TOPIC,
    });
    const uploaded = await upload(t.app, { apiKey: org.apiKey, fields });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const body = uploaded.json() as {
      manuscript_id: number;
      candidates: Array<{ author_id: number; authors_groups: unknown[] }>;
    };
    const nell = body.candidates.find((c) => c.author_id === ids.authorId('Nell Neutral'));
    expect(nell?.authors_groups).toEqual([{ group_id: group.group_id, client_id: 'nell-1' }]);

    const editor = await signInAs(t, org.id, 'editor');
    await injectForm(t.app, editor, `/dashboard/groups/${group.group_id}/delete/`, { confirm: 'yes' });

    const page = await get(editor, `/dashboard/manuscripts/${body.manuscript_id}/`);
    expect(page.statusCode).toBe(200);
    const at = page.body.indexOf(`id="candidate-${ids.authorId('Nell Neutral')}"`);
    expect(at).toBeGreaterThan(0);
    const row = page.body.slice(at, page.body.indexOf('</tr>', at));
    expect(row).toContain(`deleted group ${group.group_id}</span> (<bdi>nell-1</bdi>)`);
    expect(row).not.toContain(`/dashboard/groups/${group.group_id}/`);

    const journals = await t.app.inject({
      url: '/api/external/recommend-journals/ms-gone/',
      headers: org.headers,
    });
    expect(journals.statusCode, journals.body).toBe(200);
    expect(Array.isArray(journals.json().recommended_journals)).toBe(true);
  });
});
