// The smaller forms keep what was typed after a refusal, as the larger ones do: a folder's referee
// finder settings, a custom field's edit, the webhook (never its secret), a new group's name and a
// new user's email and role.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import { createTestUser, injectForm, type InjectSession, signInAs, pageAs } from '../helpers/dashboard.ts';
import { createGroup, deleteGroup } from '../../src/authors-groups/store.ts';
import { createCustomField } from '../../src/custom-fields/store.ts';
import { ensureFolder, folderGroupsSettings } from '../../src/folders/folders.ts';

let t: TestApp;
let org: TestOrg;
let editor: InjectSession;
let admin: InjectSession;
beforeAll(async () => {
  // The default refuses private webhook addresses: the refusal the webhook case relies on.
  t = await createTestApp();
  org = await createTestOrg(t);
  editor = await signInAs(t, org.id, 'editor');
  admin = await signInAs(t, org.id, 'integrations_admin');
});
afterAll(async () => t?.close());

const page = (session: InjectSession, url: string) => pageAs(t.app, session, url);

describe('a refused form shows what was typed, once', () => {
  it("a folder's referee finder settings", async () => {
    const folderId = await ensureFolder(t.db, org.id, 'KEPT');
    const reviewers = await createGroup(t.db, org.id, 'Reviewers');
    const board = await createGroup(t.db, org.id, 'Board');
    const url = `/dashboard/folders/${folderId}/`;
    const refused = await injectForm(t.app, editor, `${url}settings/`, {
      groups: [String(board.group_id)],
      effect: 'boost',
      boost: 'a lot',
    });
    expect(refused.statusCode).toBe(303);
    const shown = await page(editor, url);
    // Said as a custom value's number is (NOT_A_NUMBER), quoting what was typed.
    expect(shown.replace(/<\/?bdi>/g, '')).toContain(
      'The boost multiplier: “a lot” is not a number; enter a number, like 3 or 2.5',
    );
    expect(shown).toMatch(new RegExp(`value="${board.group_id}"\\s+checked`));
    expect(shown).not.toMatch(new RegExp(`value="${reviewers.group_id}"\\s+checked`));
    expect(shown).toMatch(/value="boost"\s+checked/);
    expect(shown).toContain('value="a lot"');
    const again = await page(editor, url);
    expect(again).not.toContain('a lot');
    expect(again).toMatch(/value="highlight"\s+checked/);
  });

  it("a folder's referee finder settings naming a group deleted meanwhile (another tab): said on the page, kept", async () => {
    const folderId = await ensureFolder(t.db, org.id, 'STALE');
    const kept = await createGroup(t.db, org.id, 'Kept reviewers');
    const gone = await createGroup(t.db, org.id, 'Gone reviewers');
    await deleteGroup(t.db, org.id, gone.group_id);
    const url = `/dashboard/folders/${folderId}/`;
    const refused = await injectForm(t.app, editor, `${url}settings/`, {
      groups: [String(kept.group_id), String(gone.group_id)],
      effect: 'limit_to',
    });
    // It was a 404 page ("Authors group N of organization M was not found"), the form lost.
    expect(refused.statusCode).toBe(303);
    expect(refused.headers.location).toBe(url);
    const shown = await page(editor, url);
    expect(shown).toContain(`The authors group ${gone.group_id} was deleted meanwhile`);
    expect(shown).toMatch(new RegExp(`value="${kept.group_id}"\\s+checked`));
    expect(shown).toMatch(/value="limit_to"\s+checked/);
    expect(await folderGroupsSettings(t.db, org.id, folderId)).toBeNull();
  });

  it("a folder's boost multiplier typed with a decimal comma: 1,5 is 1.5; 1,500 is refused saying how to type it", async () => {
    const folderId = await ensureFolder(t.db, org.id, 'COMMA');
    const board = await createGroup(t.db, org.id, 'Comma board');
    const url = `/dashboard/folders/${folderId}/`;
    const post = (boost: string) =>
      injectForm(t.app, editor, `${url}settings/`, {
        groups: [String(board.group_id)],
        effect: 'boost',
        boost,
      });
    expect((await post('1,5')).statusCode).toBe(303);
    expect((await folderGroupsSettings(t.db, org.id, folderId))?.boostMultiplier).toBe(1.5);
    expect(await page(editor, url)).toContain('The referee finder settings were saved.');

    expect((await post('1,500')).statusCode).toBe(303);
    const shown = await page(editor, url);
    expect(shown).toContain('The boost multiplier: &quot;1,500&quot; could be read more than one way.');
    expect(shown).toContain('value="1,500"');
    expect((await folderGroupsSettings(t.db, org.id, folderId))?.boostMultiplier).toBe(1.5);
  });

  it("a custom field's edit", async () => {
    await createCustomField(t.db, org.id, { owner: 'author_from_group', dataKind: 'str', name: 'Area' });
    const field = await createCustomField(t.db, org.id, {
      owner: 'author_from_group',
      dataKind: 'single_option',
      name: 'Seniority',
      options: ['junior', 'senior'],
    });
    const junior = field.options!.find((o) => o.option === 'junior')!;
    const url = `/dashboard/custom-fields/${field.api_id}/`;
    // The name of another field of the same owner: 409.
    const refused = await injectForm(t.app, editor, url, {
      name: 'Area',
      description: 'Typed description',
      remove_option: [junior.api_id],
      add_options: 'emeritus\nvisiting',
    });
    expect(refused.statusCode).toBe(303);
    const shown = await page(editor, url);
    expect(shown).toMatch(/already/);
    expect(shown).toContain('value="Area"');
    expect(shown).toContain('value="Typed description"');
    expect(shown).toMatch(new RegExp(`value="${junior.api_id}"\\s+checked`));
    // (A newline right after the start tag is no part of a textarea's value.)
    expect(shown).toMatch(
      /<textarea id="add_options" name="add_options"\s*>\n?emeritus\nvisiting<\/textarea>/,
    );
    const again = await page(editor, url);
    expect(again).toContain('value="Seniority"');
    expect(again).not.toContain('Typed description');
  });

  it('the webhook: the URL and the checkbox, never the secret', async () => {
    const secret = 'typed-secret-never-kept-1234';
    const refused = await injectForm(t.app, admin, '/dashboard/webhooks/', {
      url: 'https://127.0.0.1/typed-hook',
      secret,
    });
    expect(refused.statusCode).toBe(303);
    const shown = await page(admin, '/dashboard/webhooks/');
    expect(shown).toContain('value="https://127.0.0.1/typed-hook"');
    expect(shown).not.toMatch(/name="enabled"\s+checked/);
    expect(shown).not.toContain(secret);
    const { rows } = await t.db.query<{ flash: unknown }>(
      "SELECT flash FROM dashboard_sessions WHERE flash::text LIKE '%typed-secret%'",
    );
    expect(rows).toEqual([]);
    const again = await page(admin, '/dashboard/webhooks/');
    expect(again).not.toContain('typed-hook');
    expect(again).toMatch(/name="enabled"\s+checked/);
  });

  it("a new group's name", async () => {
    await createGroup(t.db, org.id, 'Editorial board');
    const refused = await injectForm(t.app, editor, '/dashboard/groups/', { name: 'editorial BOARD' });
    expect(refused.statusCode).toBe(303);
    const shown = await page(editor, '/dashboard/groups/');
    expect(shown).toMatch(/already exists/);
    expect(shown).toContain('value="editorial BOARD"');
    expect(await page(editor, '/dashboard/groups/')).not.toContain('editorial BOARD');
  });

  it("a new user's email and role", async () => {
    const taken = await createTestUser(t.db, org.id, 'viewer');
    const refused = await injectForm(t.app, admin, '/dashboard/users/', {
      email: taken.email,
      role: 'editor',
    });
    expect(refused.statusCode).toBe(303);
    const shown = await page(admin, '/dashboard/users/');
    // A user of this organization (the answer page reloaded): said so, with what to do.
    expect(shown).toContain(
      `<bdi>${taken.email}</bdi> is already a user of this organization (listed below)`,
    );
    const form = shown.slice(shown.indexOf('id="new-email"'), shown.indexOf('Add user</button>'));
    expect(form).toContain(`value="${taken.email}"`);
    expect(form).toMatch(/value="editor"\s+selected/);
    const again = await page(admin, '/dashboard/users/');
    const fresh = again.slice(again.indexOf('id="new-email"'), again.indexOf('Add user</button>'));
    expect(fresh).not.toContain(taken.email);
    expect(fresh).toMatch(/value="viewer"\s+selected/);
  });

  it('a form the schema refuses (a URL past its 2,100 characters) says which field and why, and keeps it', async () => {
    const long = `https://hooks.example.org/${'a'.repeat(2100)}`;
    const refused = await injectForm(t.app, admin, '/dashboard/webhooks/', { url: long });
    expect(refused.statusCode).toBe(303);
    const shown = await page(admin, '/dashboard/webhooks/');
    // It said only "The request is not valid": nothing to tell which field, or what to change.
    expect(shown).toContain('The request is not valid: url must NOT have more than 2100 characters.');
    expect(shown).toContain(`value="${long}"`);
  });
});

// A folder's boost multiplier applies with the boost effect only (checkFolderSettings): the settings
// form neither drops one typed under another effect without a word, nor refuses the move away from
// boost that leaves the multiplier the page was filled with.
const shown = async (url: string) =>
  (await t.app.inject({ url, headers: { cookie: editor.cookie } })).body
    .replace(/<\/?bdi>|[\u2068\u2069]/g, '')
    .replaceAll('&#39;', "'");

describe("a folder's boost multiplier under another effect", () => {
  it('typed while another effect is chosen: refused beside the field, saying why, the form kept, nothing saved', async () => {
    const folderId = await ensureFolder(t.db, org.id, 'BOOST-TYPED');
    const board = await createGroup(t.db, org.id, 'Typed board');
    const url = `/dashboard/folders/${folderId}/`;
    const sent = await injectForm(t.app, editor, `${url}settings/`, {
      groups: [String(board.group_id)],
      effect: 'highlight',
      boost: '2,5',
    });
    expect(sent.statusCode).toBe(303);
    expect(sent.headers.location).toBe(url);
    const page = await shown(url);
    expect(page).toContain(
      "A boost multiplier (2.5) applies with the effect “Boost the groups' authors' scores by a multiplier” only",
    );
    // Said once, by the page's top message ("Nothing was saved: the message beside each field ...").
    expect(page.match(/Nothing was saved/g)).toHaveLength(1);
    expect(page).toMatch(/id="boost"[^>]*aria-invalid="true"/);
    expect(page).toContain('value="2,5"');
    expect(page).toMatch(/value="highlight"\s+checked/);
    // It was saved as highlight, the multiplier dropped, with "The referee finder settings were saved."
    expect(await folderGroupsSettings(t.db, org.id, folderId)).toBeNull();
  });

  it('the multiplier the page showed, left as it was while the effect moves away from boost: cleared, and said', async () => {
    const folderId = await ensureFolder(t.db, org.id, 'BOOST-LEFT');
    const board = await createGroup(t.db, org.id, 'Left board');
    const url = `/dashboard/folders/${folderId}/`;
    const save = (effect: string, boost: string) =>
      injectForm(t.app, editor, `${url}settings/`, { groups: [String(board.group_id)], effect, boost });
    expect((await save('boost', '1.5')).statusCode).toBe(303);
    expect((await folderGroupsSettings(t.db, org.id, folderId))?.boostMultiplier).toBe(1.5);
    await shown(url);
    // What a browser sends on choosing "Limit" with the multiplier input still holding 1.5.
    expect((await save('limit_to', '1.5')).statusCode).toBe(303);
    const settings = await folderGroupsSettings(t.db, org.id, folderId);
    expect(settings?.effect).toBe('limit_to');
    expect(settings?.boostMultiplier).toBeNull();
    const page = await shown(url);
    expect(page).toContain(
      'The referee finder settings were saved. The boost multiplier ×1.5 was cleared: it applies with the boost effect only.',
    );
    expect(page).toMatch(/id="boost"[^>]*value=""/);
    // Another number typed over it, with the effect still not boost, is a multiplier meant: refused.
    expect((await save('boost', '1.5')).statusCode).toBe(303);
    expect((await save('highlight', '3')).statusCode).toBe(303);
    expect(await shown(url)).toContain('A boost multiplier (3) applies with the effect');
    expect((await folderGroupsSettings(t.db, org.id, folderId))?.boostMultiplier).toBe(1.5);
  });

  it('the boost effect with the multiplier left empty: asked for in words, beside the field', async () => {
    const folderId = await ensureFolder(t.db, org.id, 'BOOST-EMPTY');
    const board = await createGroup(t.db, org.id, 'Empty board');
    const url = `/dashboard/folders/${folderId}/`;
    await injectForm(t.app, editor, `${url}settings/`, {
      groups: [String(board.group_id)],
      effect: 'boost',
      boost: '',
    });
    const page = await shown(url);
    // It said "The boost multiplier: “” is not a number".
    expect(page).toContain('The boost effect needs a multiplier: type one, such as 1.5.');
    expect(page).toMatch(/id="boost"[^>]*aria-invalid="true"/);
    expect(await folderGroupsSettings(t.db, org.id, folderId)).toBeNull();
  });
});
