// Two tabs (or two editors) editing one record of a group, and forms sent twice: the save from the
// form opened before the other's save is refused, with the form as sent, rather than silently
// undoing the other's change; sent again from the page that refused it, it replaces the record
// knowingly. A new record's form sent twice adds it once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import { createTestUser, injectForm, type InjectSession, signInAs } from '../helpers/dashboard.ts';
import { createGroup, findGroupAuthor, requireGroup } from '../../src/authors-groups/store.ts';
import { requireUser } from '../../src/users/users.ts';
import { ensureFolder, requireFolder } from '../../src/folders/folders.ts';
import { createCustomField, requireOwnedCustomField } from '../../src/custom-fields/store.ts';
import { readCustomValues } from '../../src/custom-fields/folder-manuscript-values.ts';
import { requireOrganization } from '../../src/organizations/organizations.ts';
import { findWebhook } from '../../src/webhooks/store.ts';

let t: TestApp;
let org: TestOrg;
let editor: InjectSession;
let groupId = 0;

beforeAll(async () => {
  t = await createTestApp();
  org = await createTestOrg(t);
  editor = await signInAs(t, org.id, 'editor');
  groupId = (await createGroup(t.db, org.id, 'Board')).group_id;
});
afterAll(async () => t?.close());

const recordUrl = (clientId: string) => `/dashboard/groups/${groupId}/records/${clientId}/`;
const get = async (url: string) => (await t.app.inject({ url, headers: { cookie: editor.cookie } })).body;
/** The hidden fields of the record's edit form, as a browser would send them back. */
const seenOf = (page: string) => /name="seen" value="([^"]*)"/.exec(page)?.[1];

describe('one record edited in two tabs', () => {
  it("refuses the save of the form opened before the other tab's save, keeping what was typed", async () => {
    const added = await injectForm(t.app, editor, `/dashboard/groups/${groupId}/records/`, {
      client_id: 'r1',
      name: 'Ada Lovelace',
      emails: 'ada@example.org',
    });
    expect(added.statusCode).toBe(303);
    // Both tabs open the record.
    const [tabA, tabB] = [await get(recordUrl('r1')), await get(recordUrl('r1'))];
    expect(seenOf(tabA)).toBeDefined();
    // A adds an email and saves.
    const savedA = await injectForm(t.app, editor, recordUrl('r1'), {
      seen: seenOf(tabA)!,
      name: 'Ada Lovelace',
      emails: 'ada@example.org\nada@math.example.org',
    });
    expect(savedA.headers.location).toBe(recordUrl('r1'));
    // B, still showing one email, corrects the name and saves.
    const savedB = await injectForm(t.app, editor, recordUrl('r1'), {
      seen: seenOf(tabB)!,
      name: 'Ada King',
      emails: 'ada@example.org',
    });
    expect(savedB.statusCode).toBe(303);
    expect(savedB.headers.location).toBe(recordUrl('r1'));
    const key = { organizationId: org.id, groupId, clientId: 'r1' };
    // A's email is not lost, and B's name is not saved.
    expect((await findGroupAuthor(t.db, key))!.emails).toEqual(['ada@example.org', 'ada@math.example.org']);
    expect((await findGroupAuthor(t.db, key))!.name).toBe('Ada Lovelace');
    const refused = await get(recordUrl('r1'));
    expect(refused).toContain('This record was changed since this form was opened');
    expect(refused).toContain('value="Ada King"');
    // Sent again from that page, it replaces the record: B has been told.
    const again = await injectForm(t.app, editor, recordUrl('r1'), {
      seen: seenOf(refused)!,
      name: 'Ada King',
      emails: 'ada@example.org',
    });
    expect(again.statusCode).toBe(303);
    expect((await findGroupAuthor(t.db, key))!.name).toBe('Ada King');
  });

  it('saves a form opened after the last save, and the same form twice (a double click)', async () => {
    const page = await get(recordUrl('r1'));
    const fields = { seen: seenOf(page)!, name: 'Ada King', emails: 'ada@king.example.org' };
    const first = await injectForm(t.app, editor, recordUrl('r1'), fields);
    const second = await injectForm(t.app, editor, recordUrl('r1'), fields);
    expect([first.statusCode, second.statusCode]).toEqual([303, 303]);
    const shown = await get(recordUrl('r1'));
    expect(shown).toContain('Saved.');
    expect(shown).not.toContain('was changed since');
  });

  it('a new record sent twice (a double click on Add record) is added once, and said to be there', async () => {
    const fields = { client_id: 'r2', name: 'Grace Hopper', emails: 'grace@example.org' };
    const first = await injectForm(t.app, editor, `/dashboard/groups/${groupId}/records/`, fields);
    const second = await injectForm(t.app, editor, `/dashboard/groups/${groupId}/records/`, fields);
    expect(first.headers.location).toBe(recordUrl('r2'));
    // The page the browser shows is the second's: the record, not "the client id is taken".
    expect(second.headers.location).toBe(recordUrl('r2'));
    const shown = await get(recordUrl('r2'));
    expect(shown).toContain(
      'as sent (client id <bdi>r2</bdi>; added before, or this form sent twice): nothing new was added',
    );
    expect(shown).not.toContain('the form was sent again');
    expect(shown).not.toContain('already has a record');
    // Another person under a taken client id is still refused.
    const other = await injectForm(t.app, editor, `/dashboard/groups/${groupId}/records/`, {
      ...fields,
      name: 'Grace Brewster',
    });
    expect(other.headers.location).toBe(`/dashboard/groups/${groupId}/new-record/`);
    expect(await get(other.headers.location as string)).toContain('already has a record');
    expect((await findGroupAuthor(t.db, { organizationId: org.id, groupId, clientId: 'r2' }))!.name).toBe(
      'Grace Hopper',
    );
  });
});

describe("a folder's referee finder settings edited in two tabs", () => {
  it("refuses the save of the form opened before the other tab's save; a double click saves", async () => {
    const folderId = await ensureFolder(t.db, org.id, 'JNL');
    const other = (await createGroup(t.db, org.id, 'Second board')).group_id;
    const url = `/dashboard/folders/${folderId}/`;
    const [tabA, tabB] = [await get(url), await get(url)];
    // A ticks both groups and boosts; B, still showing none ticked, ticks one to highlight.
    const sentA = {
      seen: seenOf(tabA)!,
      groups: [String(groupId), String(other)],
      effect: 'boost',
      boost: '1,5',
    };
    const savedA = await injectForm(t.app, editor, `${url}settings/`, sentA);
    expect(savedA.headers.location).toBe(url);
    // The same form again (a double click) finds its own save: no conflict.
    expect((await injectForm(t.app, editor, `${url}settings/`, sentA)).headers.location).toBe(url);
    expect(await get(url)).toContain('The referee finder settings were saved.');
    const savedB = await injectForm(t.app, editor, `${url}settings/`, {
      seen: seenOf(tabB)!,
      groups: String(groupId),
      effect: 'highlight',
    });
    expect(savedB.headers.location).toBe(url);
    const folder = await requireFolder(t.db, org.id, folderId);
    expect(folder.authors_group_ids.sort()).toEqual([groupId, other].sort());
    expect(folder.effect).toBe('boost');
    const refused = await get(url);
    expect(refused).toContain(
      'The folder&#39;s referee finder settings were changed since this form was opened',
    );
    // Sent again from that page, B's settings replace A's.
    const again = await injectForm(t.app, editor, `${url}settings/`, {
      seen: seenOf(refused)!,
      groups: String(groupId),
      effect: 'highlight',
    });
    expect(again.headers.location).toBe(url);
    expect((await requireFolder(t.db, org.id, folderId)).effect).toBe('highlight');
  });
});

/** The `seen` field of the page's form posting to `action` (a page may have several edit forms). */
const seenIn = (page: string, action: string) => {
  const at = page.indexOf(`action="${action}"`);
  return at < 0 ? undefined : seenOf(page.slice(at));
};

/**
 * One form opened in two tabs: A changes some values and saves, then B (filled before A's save)
 * saves others. B's save must be refused with A's values kept; sent again from the page that
 * refused it, it goes through; the same form twice (a double click) is never refused.
 */
async function twoTabs(input: {
  session: InjectSession;
  page: string;
  action: string;
  sentA: Record<string, string | string[]>;
  sentB: Record<string, string | string[]>;
  refusal: string;
  keptA: () => Promise<void>;
  savedB: () => Promise<void>;
}): Promise<void> {
  const open = async () =>
    (await t.app.inject({ url: input.page, headers: { cookie: input.session.cookie } })).body;
  const [tabA, tabB] = [await open(), await open()];
  expect(seenIn(tabA, input.action)).toBeDefined();
  const post = (fields: Record<string, string | string[]>) =>
    injectForm(t.app, input.session, input.action, fields);
  const sentA = { ...input.sentA, seen: seenIn(tabA, input.action)! };
  expect((await post(sentA)).statusCode).toBe(303);
  // A double click: the same form again finds its own save.
  expect((await post(sentA)).statusCode).toBe(303);
  expect(await open()).not.toContain('changed since this form was opened');
  expect((await post({ ...input.sentB, seen: seenIn(tabB, input.action)! })).statusCode).toBe(303);
  await input.keptA();
  const refused = await open();
  expect(refused).toContain(input.refusal);
  expect((await post({ ...input.sentB, seen: seenIn(refused, input.action)! })).statusCode).toBe(303);
  await input.savedB();
}

describe('other edit forms opened in two tabs', () => {
  it("a folder's custom values", async () => {
    const folderId = await ensureFolder(t.db, org.id, 'CV1');
    const note = await createCustomField(t.db, org.id, { owner: 'folder', dataKind: 'str', name: 'Note' });
    const topics = await createCustomField(t.db, org.id, {
      owner: 'folder',
      dataKind: 'multi_option',
      name: 'Topics',
      options: ['Biology', 'Physics'],
    });
    const [bio, phys] = topics.options!.map((o) => o.api_id);
    const values = () => readCustomValues(t.db, org.id, 'folder', folderId);
    const onForm = [note.api_id, topics.api_id];
    await twoTabs({
      session: editor,
      page: `/dashboard/folders/${folderId}/`,
      action: `/dashboard/folders/${folderId}/custom-values/`,
      sentA: {
        form: 'custom_values',
        on_form: onForm,
        [`cf_${note.api_id}`]: 'from A',
        [`cf_${topics.api_id}`]: [phys!, bio!],
      },
      sentB: { form: 'custom_values', on_form: onForm, [`cf_${note.api_id}`]: 'from B' },
      refusal: 'The folder&#39;s custom fields were changed since this form was opened',
      keptA: async () => expect((await values())[note.api_id]).toBe('from A'),
      savedB: async () => expect(await values()).toEqual({ [note.api_id]: 'from B' }),
    });
  });

  it("a manuscript's custom values", async () => {
    const folderId = await ensureFolder(t.db, org.id, 'CV2');
    const manuscriptId = (
      await t.db.query<{ id: number }>(
        `INSERT INTO manuscripts (organization_id, origin_id, folder_id, supplied, authors_count, title, abstract)
         VALUES ($1, 'ms-cv', $2, '{"title": "Notes", "abstract": "", "authors": []}', 0, 'Notes', '')
         RETURNING id`,
        [org.id, folderId],
      )
    ).rows[0]!.id;
    const pages = await createCustomField(t.db, org.id, {
      owner: 'proposal',
      dataKind: 'number',
      name: 'Pages',
    });
    const values = () => readCustomValues(t.db, org.id, 'proposal', manuscriptId);
    await twoTabs({
      session: editor,
      page: `/dashboard/manuscripts/${manuscriptId}/`,
      action: `/dashboard/manuscripts/${manuscriptId}/custom-values/`,
      sentA: { form: 'custom_values', on_form: pages.api_id, [`cf_${pages.api_id}`]: '12' },
      sentB: { form: 'custom_values', on_form: pages.api_id, [`cf_${pages.api_id}`]: '30' },
      refusal: 'The manuscript&#39;s custom fields were changed since this form was opened',
      keptA: async () => expect((await values())[pages.api_id]).toBe(12),
      savedB: async () => expect((await values())[pages.api_id]).toBe(30),
    });
  });

  it("a custom field's name and description", async () => {
    const field = await createCustomField(t.db, org.id, { owner: 'folder', dataKind: 'str', name: 'Remark' });
    const url = `/dashboard/custom-fields/${field.api_id}/`;
    const stored = () => requireOwnedCustomField(t.db, field.api_id, org.id);
    await twoTabs({
      session: editor,
      page: url,
      action: url,
      sentA: { name: 'Remark', description: 'Said by A' },
      sentB: { name: 'Remarks', description: '' },
      refusal: 'This field was changed since this form was opened',
      keptA: async () => expect(await stored()).toMatchObject({ name: 'Remark', description: 'Said by A' }),
      savedB: async () => expect(await stored()).toMatchObject({ name: 'Remarks', description: null }),
    });
  });

  it("the organization's settings", async () => {
    const admin = await signInAs(t, org.id, 'integrations_admin');
    const stored = () => requireOrganization(t.db, org.id);
    await twoTabs({
      session: admin,
      page: '/dashboard/settings/',
      action: '/dashboard/settings/',
      sentA: { prefer: 'parsed', include_conflicts: 'on', max_candidates: '40' },
      sentB: { prefer: 'supplied', max_candidates: '25' },
      refusal: 'The organization&#39;s settings were changed since this form was opened',
      keptA: async () => expect(await stored()).toMatchObject({ prefer: 'parsed', max_candidates: 40 }),
      savedB: async () => expect(await stored()).toMatchObject({ prefer: 'supplied', max_candidates: 25 }),
    });
  });

  it('the webhook', async () => {
    const admin = await signInAs(t, org.id, 'integrations_admin');
    const stored = () => findWebhook(t.db, org.id);
    await twoTabs({
      session: admin,
      page: '/dashboard/webhooks/',
      action: '/dashboard/webhooks/',
      sentA: { url: 'https://a.example.org/events', enabled: 'on' },
      sentB: { url: 'https://b.example.org/events' },
      refusal: 'The webhook was changed since this form was opened',
      keptA: async () =>
        expect(await stored()).toMatchObject({ url: 'https://a.example.org/events', enabled: true }),
      savedB: async () =>
        expect(await stored()).toMatchObject({ url: 'https://b.example.org/events', enabled: false }),
    });
  });

  it("a group's name", async () => {
    const group = await createGroup(t.db, org.id, 'Panel');
    const stored = async () => (await requireGroup(t.db, org.id, group.group_id)).name;
    await twoTabs({
      session: editor,
      page: `/dashboard/groups/${group.group_id}/`,
      action: `/dashboard/groups/${group.group_id}/name/`,
      sentA: { name: 'Panel 2027' },
      sentB: { name: 'Review panel' },
      refusal: 'The group&#39;s name was changed since this form was opened',
      keptA: async () => expect(await stored()).toBe('Panel 2027'),
      savedB: async () => expect(await stored()).toBe('Review panel'),
    });
  });

  it("a user's role", async () => {
    const admin = await signInAs(t, org.id, 'integrations_admin');
    const user = await createTestUser(t.db, org.id, 'viewer');
    const stored = async () => (await requireUser(t.db, user.id, org.id)).role;
    await twoTabs({
      session: admin,
      page: '/dashboard/users/',
      action: `/dashboard/users/${user.id}/role/`,
      sentA: { role: 'editor' },
      sentB: { role: 'account_manager' },
      refusal: 'was changed since this form was opened',
      keptA: async () => expect(await stored()).toBe('editor'),
      savedB: async () => expect(await stored()).toBe('account_manager'),
    });
    // A row's one choice comes back showing the stored role, and the message says so.
    const action = `/dashboard/users/${user.id}/role/`;
    const open = async () =>
      (await t.app.inject({ url: '/dashboard/users/', headers: { cookie: admin.cookie } })).body;
    const stale = seenIn(await open(), action)!;
    await injectForm(t.app, admin, action, { role: 'viewer', seen: seenIn(await open(), action)! });
    expect((await injectForm(t.app, admin, action, { role: 'editor', seen: stale })).statusCode).toBe(303);
    expect(await stored()).toBe('viewer');
    const refused = await open();
    expect(refused).toContain('The form shows what is stored now');
    expect(refused).not.toContain('The form is as you sent it');
  });
});
