// A refused form says which field is wrong beside that field (its message, named by the input's
// aria-describedby, the input marked aria-invalid), the values as typed; and a form past the body
// limit is answered with a page that says what happened and how to get back what was typed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import {
  createTestUser,
  injectForm,
  injectSignIn,
  type InjectSession,
  signInAs,
  pageAs,
} from '../helpers/dashboard.ts';
import { createGroup } from '../../src/authors-groups/store.ts';
import { authorUrl } from '../authors-groups/helpers.ts';
import { createCustomField } from '../../src/custom-fields/store.ts';
import { ensureFolder } from '../../src/folders/folders.ts';
import { setLimitOverrides } from '../../src/organizations/limits.ts';

let t: TestApp;
let org: TestOrg;
let editor: InjectSession;
let admin: InjectSession;
beforeAll(async () => {
  t = await createTestApp();
  org = await createTestOrg(t);
  editor = await signInAs(t, org.id, 'editor');
  admin = await signInAs(t, org.id, 'integrations_admin');
});
afterAll(async () => t?.close());

const page = (session: InjectSession, url: string) => pageAs(t.app, session, url);

/** The start tag of the input (or select, textarea, fieldset) with this id. */
function tagOf(shown: string, id: string): string {
  const tag = new RegExp(`<(?:input|select|textarea|fieldset)\\b[^>]*\\bid="${id}"[^>]*>`).exec(shown)?.[0];
  if (!tag) throw new Error(`no input with the id ${id}`);
  return tag;
}

/** The field's message, as the page shows it beside the input; null when there is none. */
function messageOf(shown: string, id: string): string | null {
  const message = new RegExp(`<p id="${id}-error" class="field-error">((?:[^<]|</?bdi>)*)</p>`).exec(
    shown,
  )?.[1];
  return message ?? null;
}

/** The input says it is refused and names its message first among what describes it. */
function expectRefused(shown: string, id: string): void {
  const tag = tagOf(shown, id);
  expect(tag).toContain('aria-invalid="true"');
  expect(tag).toMatch(new RegExp(`aria-describedby="${id}-error( |")`));
  expect(messageOf(shown, id)).not.toBeNull();
}

function expectNotRefused(shown: string, id: string): void {
  expect(tagOf(shown, id)).not.toContain('aria-invalid');
  expect(messageOf(shown, id)).toBeNull();
}

describe('a refused form: each message beside its field, the values kept', () => {
  it("a group record's custom value: beside that input, its rule still describing it; once", async () => {
    const group = await createGroup(t.db, org.id, 'Field errors pool');
    const field = await createCustomField(t.db, org.id, {
      owner: 'author_from_group',
      dataKind: 'number',
      name: 'Reviews done',
    });
    const input = `cf_${field.api_id}`;
    const form = `/dashboard/groups/${group.group_id}/new-record/`;
    const refused = await injectForm(t.app, editor, `/dashboard/groups/${group.group_id}/records/`, {
      client_id: 'fe-1',
      name: 'Ada Lovelace',
      [input]: '1,500',
    });
    expect(refused.statusCode).toBe(303);
    expect(refused.headers.location).toBe(form);
    const shown = await page(editor, form);
    expectRefused(shown, input);
    expect(tagOf(shown, input)).toContain(`aria-describedby="${input}-error ${input}-rule"`);
    expect(tagOf(shown, input)).toContain('value="1,500"');
    expect(messageOf(shown, input)).toContain('could be read more than one way');
    // The fields that were right are not marked, and keep what was typed.
    expectNotRefused(shown, 'client_id');
    expectNotRefused(shown, 'name');
    expect(tagOf(shown, 'name')).toContain('value="Ada Lovelace"');
    // One field refused: the line under the top message speaks of it, not of "each field".
    expect(shown).toContain('Nothing was saved: the message beside the field says what to change.');
    const again = await page(editor, form);
    expectNotRefused(again, input);
  });

  it("a record's client id taken in the group (409), and a blank name: beside the field concerned", async () => {
    const group = await createGroup(t.db, org.id, 'Taken ids');
    const records = `/dashboard/groups/${group.group_id}/records/`;
    const form = `/dashboard/groups/${group.group_id}/new-record/`;
    expect((await injectForm(t.app, editor, records, { client_id: 'x1', name: 'First' })).statusCode).toBe(
      303,
    );
    await injectForm(t.app, editor, records, { client_id: 'x1', name: 'Second' });
    const taken = await page(editor, form);
    expectRefused(taken, 'client_id');
    expect(messageOf(taken, 'client_id')).toContain('already has a record with the client id <bdi>x1</bdi>');
    // Whose it is, and what to do: another id, or that record.
    expect(messageOf(taken, 'client_id')).toContain(
      '(<bdi>First</bdi>): choose another client id, or open <bdi>First</bdi>',
    );
    expect(tagOf(taken, 'client_id')).toContain('value="x1"');
    expectNotRefused(taken, 'name');
    await injectForm(t.app, editor, records, { client_id: 'x2', name: '   ' });
    const blank = await page(editor, form);
    expectRefused(blank, 'name');
    expectNotRefused(blank, 'client_id');
  });

  it('a record with several wrong fields: each marked at once, not one a send', async () => {
    const group = await createGroup(t.db, org.id, 'All at once');
    const field = await createCustomField(t.db, org.id, {
      owner: 'author_from_group',
      dataKind: 'number',
      name: 'Papers reviewed',
    });
    const input = `cf_${field.api_id}`;
    const records = `/dashboard/groups/${group.group_id}/records/`;
    await injectForm(t.app, editor, records, { client_id: 'y1', name: 'First' });
    const refused = await injectForm(t.app, editor, records, {
      client_id: 'y1',
      name: ' ',
      [input]: 'lots',
    });
    expect(refused.statusCode).toBe(303);
    const shown = await page(editor, `/dashboard/groups/${group.group_id}/new-record/`);
    expectRefused(shown, 'client_id');
    expectRefused(shown, 'name');
    expectRefused(shown, input);
    expect(shown).toContain('Nothing was saved: the message beside each field says what to change.');
    expect(messageOf(shown, input)).toBe(
      '<bdi>Papers reviewed</bdi>: “<bdi>lots</bdi>” is not a number; enter a number, like 3 or 2.5',
    );
    // An existing record's edit: its name and its custom value at once.
    await injectForm(t.app, editor, `${records}y1/`, { name: '', [input]: 'lots' });
    const edited = await page(editor, `${records}y1/`);
    expectRefused(edited, 'name');
    expectRefused(edited, input);
  });

  it("a record's emails: what is no address is refused beside the field, as typed; one stored so is no bar to an edit", async () => {
    const group = await createGroup(t.db, org.id, 'Emails checked');
    const records = `/dashboard/groups/${group.group_id}/records/`;
    const typed = 'ada@uni.example\nAda Lovelace\nada at uni dot example';
    const refused = await injectForm(t.app, editor, records, { client_id: 'e1', name: 'Ada', emails: typed });
    expect(refused.statusCode).toBe(303);
    const shown = await page(editor, `/dashboard/groups/${group.group_id}/new-record/`);
    expectRefused(shown, 'emails');
    expect(messageOf(shown, 'emails')!.replace(/<\/?bdi>/g, '')).toBe(
      '“Ada Lovelace” (line 2) and “ada at uni dot example” (line 3) are not email addresses: write each address whole, one a line, such as name@university.edu',
    );
    expect(shown).toContain(`>${typed}</textarea>`);
    expect((await t.db.query('SELECT 1 FROM group_authors WHERE client_id = $1', ['e1'])).rows).toEqual([]);
    // An address written with its owner's name, or two on a line, as a mail program copies them:
    // the message gives the address to write.
    await injectForm(t.app, editor, records, {
      client_id: 'e1',
      name: 'Ada',
      emails: 'Ada Lovelace <ada@uni.example>\nada@uni.example, ada@home.example',
    });
    const pasted = await page(editor, `/dashboard/groups/${group.group_id}/new-record/`);
    expect(messageOf(pasted, 'emails')!.replace(/<\/?bdi>/g, '')).toBe(
      '“Ada Lovelace &lt;ada@uni.example&gt;” (line 1: write ada@uni.example alone) and “ada@uni.example, ada@home.example” (line 2: write ada@uni.example and ada@home.example one a line) are not email addresses: write each address whole, one a line, such as name@university.edu',
    );
    // Corrected, it is added.
    const added = await injectForm(t.app, editor, records, {
      client_id: 'e1',
      name: 'Ada',
      emails: 'ada@uni.example',
    });
    expect(added.headers.location).toBe(`${records}e1/`);

    // A record whose emails the API took as they came (any strings, docs/interface.md) is edited
    // without retyping them: only an item added in the form is checked.
    const api = await t.app.inject({
      method: 'POST',
      url: authorUrl(group.group_id, 'e1'),
      headers: org.headers,
      payload: { name: 'Ada', emails: ['n/a'] },
    });
    expect(api.statusCode).toBe(200);
    const edit = await page(editor, `${records}e1/`);
    const seen = /name="seen" value="([^"]*)"/.exec(edit)![1]!;
    const saved = await injectForm(t.app, editor, `${records}e1/`, { seen, name: 'Ada L.', emails: 'n/a' });
    expect(saved.headers.location).toBe(`${records}e1/`);
    expect(await page(editor, `${records}e1/`)).toContain('Saved.');
    await injectForm(t.app, editor, `${records}e1/`, { name: 'Ada L.', emails: 'n/a\nnobody' });
    const again = await page(editor, `${records}e1/`);
    expectRefused(again, 'emails');
    expect(messageOf(again, 'emails')).toContain('is not an email address');
  });

  it("a new group's name taken, and a rename to a taken name: beside the name, as typed", async () => {
    await createGroup(t.db, org.id, 'Board');
    await injectForm(t.app, editor, '/dashboard/groups/', { name: 'BOARD' });
    const list = await page(editor, '/dashboard/groups/');
    expectRefused(list, 'group-name');
    expect(tagOf(list, 'group-name')).toContain('value="BOARD"');
    const other = await createGroup(t.db, org.id, 'Panel');
    await injectForm(t.app, editor, `/dashboard/groups/${other.group_id}/name/`, { name: 'board' });
    const renamed = await page(editor, `/dashboard/groups/${other.group_id}/`);
    expectRefused(renamed, 'group-name');
    expect(tagOf(renamed, 'group-name')).toContain('value="board"');
  });

  it("an organization's limit reached is said at the top, not beside a field no change of which lifts it", async () => {
    const small = await createTestOrg(t);
    await setLimitOverrides(t.db, small.id, { authors_groups: 1 });
    const smallEditor = await signInAs(t, small.id, 'editor');
    await createGroup(t.db, small.id, 'The one group');
    await injectForm(t.app, smallEditor, '/dashboard/groups/', { name: 'A second group' });
    const list = await page(smallEditor, '/dashboard/groups/');
    expect(list).toContain('reached its limit of 1 authors groups');
    expectNotRefused(list, 'group-name');
    expect(tagOf(list, 'group-name')).toContain('value="A second group"');
  });

  it("a folder's custom value and its boost multiplier: each beside its input", async () => {
    const folderId = await ensureFolder(t.db, org.id, 'FE-FOLDER');
    const field = await createCustomField(t.db, org.id, { owner: 'folder', dataKind: 'date', name: 'Due' });
    const input = `cf_${field.api_id}`;
    const url = `/dashboard/folders/${folderId}/`;
    await injectForm(t.app, editor, `${url}custom-values/`, {
      form: 'custom_values',
      on_form: field.api_id,
      [input]: '2023-02-29',
    });
    const values = await page(editor, url);
    expectRefused(values, input);
    expect(messageOf(values, input)).toMatch(/Due/);
    expectNotRefused(values, 'boost');
    const group = await createGroup(t.db, org.id, 'FE boost');
    await injectForm(t.app, editor, `${url}settings/`, {
      groups: [String(group.group_id)],
      effect: 'boost',
      boost: '0',
    });
    const settings = await page(editor, url);
    expectRefused(settings, 'boost');
    expect(tagOf(settings, 'boost')).toContain('aria-describedby="boost-error boost-hint"');
    expect(tagOf(settings, 'boost')).toContain('value="0"');
  });

  it('the settings, the webhook (a schema refusal) and a new custom field: beside the field', async () => {
    await injectForm(t.app, admin, '/dashboard/settings/', { prefer: 'supplied', max_candidates: '0' });
    const settings = await page(admin, '/dashboard/settings/');
    expectRefused(settings, 'max_candidates');
    expect(messageOf(settings, 'max_candidates')).toContain('from 1 to 500');
    await injectForm(t.app, admin, '/dashboard/webhooks/', {
      url: `https://example.org/${'a'.repeat(2200)}`,
    });
    const webhook = await page(admin, '/dashboard/webhooks/');
    expectRefused(webhook, 'url');
    expect(messageOf(webhook, 'url')).toBe('Must not have more than 2100 characters');
    expectNotRefused(webhook, 'secret');
    await injectForm(t.app, editor, '/dashboard/custom-fields/', {
      owner: 'folder',
      data_kind: 'single_option',
      name: 'Track',
      options: '',
    });
    const fields = await page(editor, '/dashboard/custom-fields/');
    expectRefused(fields, 'options');
    expectNotRefused(fields, 'name');
    expect(tagOf(fields, 'name')).toContain('value="Track"');
  });

  it('the password page: the field concerned is marked, and no password is shown again', async () => {
    const user = await createTestUser(t.db, org.id, 'viewer');
    const viewer = await injectSignIn(t.app, user.email);
    await injectForm(t.app, viewer, '/dashboard/password/', {
      current: user.password,
      password: 'a new long password 1',
      confirm: 'a new long password 2',
    });
    const differ = await page(viewer, '/dashboard/password/');
    expectRefused(differ, 'confirm');
    expectNotRefused(differ, 'current');
    expect(differ).not.toContain('a new long password');
    await injectForm(t.app, viewer, '/dashboard/password/', {
      current: 'not the password at all',
      password: 'a new long password 1',
      confirm: 'a new long password 1',
    });
    const wrong = await page(viewer, '/dashboard/password/');
    expectRefused(wrong, 'current');
    expectNotRefused(wrong, 'confirm');
  });
});

describe('a form past the body limit', () => {
  it('says nothing was saved, how large a form may be and how to get back what was typed; still signed in', async () => {
    const group = await createGroup(t.db, org.id, 'Too large');
    const before = await page(editor, `/dashboard/groups/${group.group_id}/`);
    const answer = await injectForm(t.app, editor, `/dashboard/groups/${group.group_id}/records/`, {
      client_id: 'big',
      name: 'Big record',
      articles: 'x'.repeat(t.config.bodyLimitBytes + 10),
    });
    expect(answer.statusCode).toBe(413);
    expect(answer.body).toContain('Too large to save');
    expect(answer.body).toContain('Nothing was saved');
    expect(answer.body).toMatch(/the form you sent was 1(\.0)? MiB, more than the 1 MiB a form\s+may send/);
    expect(answer.body).toContain("your browser's Back button");
    expect(answer.body).toContain(`href="/dashboard/groups/${group.group_id}/new-record/"`);
    // The header still names the signed-in user, and the session goes on.
    expect(answer.body).toContain('Sign out');
    expect(await page(editor, `/dashboard/groups/${group.group_id}/`)).toBe(before);
  });
});

describe("a page refused by the address's rate limit", () => {
  it('carries Retry-After and the security headers, as every dashboard page does', async () => {
    const limited = await createTestApp({
      rateLimits: { ...t.config.rateLimits, perAddress: 2, windowSeconds: 3600 },
    });
    try {
      let answer = await limited.app.inject({ url: '/dashboard/sign-in/' });
      for (let i = 0; i < 3 && answer.statusCode !== 429; i++) {
        answer = await limited.app.inject({ url: '/dashboard/sign-in/' });
      }
      expect(answer.statusCode).toBe(429);
      expect(answer.headers['retry-after']).toMatch(/^\d+$/);
      expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['cache-control']).toBe('no-store');
    } finally {
      await limited.close();
    }
  });
});
