// A name written by a user, inside an English sentence, heading, title or flash message, is isolated
// for direction: `<bdi>` in markup, U+2068 … U+2069 in the page's title (which holds no markup). An
// Arabic or Hebrew name ending in a full stop, or followed by a number, reordered the words around
// it. The isolation keeps the escaping: a name is text, never markup.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import {
  buttonNames,
  createTestUser,
  injectForm,
  type InjectSession,
  signInAs,
} from '../helpers/dashboard.ts';
import { createGroup } from '../../src/authors-groups/store.ts';
import { html } from '../../src/dashboard/html.ts';

let t: TestApp;
let org: TestOrg;
let editor: InjectSession;
beforeAll(async () => {
  t = await createTestApp();
  org = await createTestOrg(t);
  editor = await signInAs(t, org.id, 'editor');
});
afterAll(async () => t?.close());

const get = async (url: string) => (await t.app.inject({ url, headers: { cookie: editor.cookie } })).body;
const titleOf = (page: string) => /<title>([^<]*)<\/title>/.exec(page)?.[1];
const headingOf = (page: string) => /<h1>([\s\S]*?)<\/h1>/.exec(page)?.[1]?.trim();

async function addGroup(name: string): Promise<number> {
  const added = await injectForm(t.app, editor, '/dashboard/groups/', { name });
  expect(added.statusCode, added.body).toBe(303);
  const { rows } = await t.db.query<{ id: number }>(
    'SELECT id FROM authors_groups WHERE organization_id = $1 AND name = $2',
    [org.id, name],
  );
  return rows[0]!.id;
}

describe('names inside sentences are isolated for direction', () => {
  it("a group's name: in the flash, the heading and the title, and in the delete question", async () => {
    const name = 'فريق المراجعين.';
    const groupId = await addGroup(name);
    const page = await get(`/dashboard/groups/${groupId}/`);
    expect(page).toContain(`The group <bdi>${name}</bdi> was added.`);
    expect(headingOf(page)).toBe(`Authors group <bdi>${name}</bdi>`);
    expect(titleOf(page)).toBe(`Authors group \u2068${name}\u2069 · refmatch dashboard`);

    const question = await get(`/dashboard/groups/${groupId}/delete/`);
    expect(headingOf(question)).toBe(`Delete the group <bdi>${name}</bdi>?`);
    expect(titleOf(question)).toBe(`Delete the group \u2068${name}\u2069? · refmatch dashboard`);
  });

  it("a record's name and client id in the sentences of its pages", async () => {
    const groupId = await addGroup('مجلس التحرير');
    const added = await injectForm(t.app, editor, `/dashboard/groups/${groupId}/records/`, {
      client_id: '42',
      name: 'سارة الحسيني.',
    });
    expect(added.statusCode, added.body).toBe(303);
    const record = await get(added.headers.location as string);
    expect(record).toContain('<bdi>سارة الحسيني.</bdi> was added.');
    expect(record).toMatch(
      /In <a href="[^"]+"><bdi>مجلس التحرير<\/bdi><\/a>, client id\s*<code><bdi>42<\/bdi><\/code>/,
    );
    const taken = await injectForm(t.app, editor, `/dashboard/groups/${groupId}/records/`, {
      client_id: '42',
      name: 'Other',
    });
    expect(taken.statusCode).toBe(303);
    const refused = await get(`/dashboard/groups/${groupId}/new-record/`);
    expect(refused).toContain('client id <bdi>42</bdi> (<bdi>سارة الحسيني.</bdi>)');
  });

  it('keeps escaping, and a name cannot close its own isolation early', async () => {
    // U+2069 in a name would end the title's isolate before the name does.
    const name = 'A <b>&amp; \u2069B';
    const groupId = await addGroup(name);
    const page = await get(`/dashboard/groups/${groupId}/`);
    expect(headingOf(page)).toBe('Authors group <bdi>A &lt;b&gt;&amp;amp; B</bdi>');
    expect(titleOf(page)).toBe('Authors group \u2068A &lt;b&gt;&amp;amp; B\u2069 · refmatch dashboard');
    expect(page).not.toContain('<b>');
  });

  it("the signed-in user's email in the header and on the home page", async () => {
    const page = await get('/dashboard/');
    // Isolated, and free to wrap only after its @ or before a dot (`wrappableAddress`).
    expect(page).toMatch(
      /<span class="who"\s*><bdi class="address">[^<]+@<wbr \/>[^<]+<\/bdi> ·\s+Editor<\/span\s*>/,
    );
    expect(page).toMatch(/You are signed in as <bdi>[^<]+<\/bdi>, editor\./);
  });

  it("a name in a refusal a store gives (the API's words), in the message and beside the field", async () => {
    await addGroup('فريق Review.');
    // The same name in other letter case is taken.
    const name = 'فريق REVIEW.';
    const twin = await injectForm(t.app, editor, '/dashboard/groups/', { name });
    expect(twin.statusCode).toBe(303);
    const page = await get('/dashboard/groups/');
    expect(page).toContain(`A group named “<bdi>${name}</bdi>” already exists`);
    expect(page).toMatch(
      new RegExp(
        `<p id="group-name-error" class="field-error">A group named “<bdi>${name}</bdi>” already exists`,
      ),
    );
    // The store's message, which the API answers, is as it was: the dashboard isolates the name.
    await expect(createGroup(t.db, org.id, name)).rejects.toThrow(`A group named “${name}” already exists`);
  });

  it("a user's email in a store's refusal, and in the names of their row's controls", async () => {
    const admin = await signInAs(t, org.id, 'integrations_admin');
    const email = 'سارة.@example.org';
    const user = await createTestUser(t.db, org.id, 'viewer', email);
    const refused = await injectForm(t.app, admin, `/dashboard/users/${user.id}/enable/`);
    expect(refused.statusCode).toBe(303);
    const page = (await t.app.inject({ url: '/dashboard/users/', headers: { cookie: admin.cookie } })).body;
    expect(page).toContain(`<bdi>${email}</bdi> is already enabled`);
    expect(buttonNames(page)).toContain(`Disable <bdi>${email}</bdi>`);
    expect(page).toMatch(new RegExp(`>Role of <bdi>${email}</bdi></label\\s*>`));
    expect(page).toMatch(
      new RegExp(`Change role<span class="visually-hidden"> of <bdi>${email}</bdi></span>`),
    );
  });
});

// Direction controls a value leaves open (html.ts, `withDirectionClosed`): closed at the value's end
// where it is shown as text, so that the text after it keeps its order; left as stored in a form's
// value, which goes back with the form.
describe('a value that leaves a direction control open', () => {
  it('is closed at its end where it is text, the controls it closed itself left alone', () => {
    expect(html`<p>${'Group\u202E'} holds</p>`.value).toBe('<p>Group\u202E\u202C holds</p>');
    expect(html`<p>${'a\u2067b\u202Bc'}</p>`.value).toBe('<p>a\u2067b\u202Bc\u202C\u2069</p>');
    expect(html`${'a\u2067b\u202Bc'}`.value).toBe('a\u2067b\u202Bc\u202C\u2069');
    expect(html`<p>${'a\u202Eb\u202Cc \u2066d\u2069'}</p>`.value).toBe(
      '<p>a\u202Eb\u202Cc \u2066d\u2069</p>',
    );
    // A PDI closes what was opened inside its isolate; a stray closer closes nothing.
    expect(html`<p>${'\u2067a\u202Eb\u2069\u202C'}</p>`.value).toBe('<p>\u2067a\u202Eb\u2069\u202C</p>');
  });

  it('is left as stored in an attribute and a textarea', () => {
    expect(html`<input value="${'Group\u202E'}" />`.value).toBe('<input value="Group\u202E" />');
    expect(html`<textarea name="csv">${'Group\u202E'}</textarea>`.value).toBe(
      '<textarea name="csv">Group\u202E</textarea>',
    );
    expect(
      html`<textarea>x</textarea>
        <p>${'Group\u202E'}</p>`.value.replace(/>\s+</g, '><'),
    ).toBe('<textarea>x</textarea><p>Group\u202E\u202C</p>');
  });

  it("a group named with an open override leaves its import page's sentence in order", async () => {
    const id = await addGroup('Group\u202E');
    const page = await get(`/dashboard/groups/${id}/import/`);
    expect(page).toContain('Group\u202E\u202C</a> holds');
  });
});
