// A folder's boost multiplier applies with the boost effect only (checkFolderSettings): the settings
// form neither drops one typed under another effect without a word, nor refuses the move away from
// boost that leaves the multiplier the page was filled with.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import { createTestUser, injectForm, injectSignIn, type InjectSession } from '../helpers/dashboard.ts';
import { createGroup } from '../../src/authors-groups/store.ts';
import { ensureFolder, folderGroupsSettings } from '../../src/folders/folders.ts';

let t: TestApp;
let org: TestOrg;
let editor: InjectSession;
beforeAll(async () => {
  t = await createTestApp();
  org = await createTestOrg(t);
  editor = await injectSignIn(t.app, (await createTestUser(t.db, org.id, 'editor')).email);
});
afterAll(async () => t?.close());

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
