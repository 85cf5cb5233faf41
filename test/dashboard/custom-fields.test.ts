// The custom fields page over HTTP in-process: a refused new field comes back with everything typed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { createTestUser, injectForm, injectSignIn, type InjectSession } from '../helpers/dashboard.ts';

let t: TestApp;
let editor: InjectSession;
beforeAll(async () => {
  t = await createTestApp();
  const org = await createTestOrg(t);
  editor = await injectSignIn(t.app, (await createTestUser(t.db, org.id, 'editor')).email);
});
afterAll(async () => t?.close());

describe('adding a custom field', () => {
  it('refused (an option kind without options), shows the message and what was typed, once', async () => {
    const refused = await injectForm(t.app, editor, '/dashboard/custom-fields/', {
      owner: 'folder',
      data_kind: 'single_option',
      name: 'Handling editor',
      description: 'Who handles it',
      options: '',
    });
    expect(refused.statusCode).toBe(303);
    const page = (
      await t.app.inject({ url: '/dashboard/custom-fields/', headers: { cookie: editor.cookie } })
    ).body;
    expect(page).toMatch(/at least one option/);
    expect(page).toContain('value="Handling editor"');
    expect(page).toContain('value="Who handles it"');
    expect(page).toMatch(/<option value="folder"\s+selected/);
    expect(page).toMatch(/<option value="single_option"\s+selected/);
    const again = (
      await t.app.inject({ url: '/dashboard/custom-fields/', headers: { cookie: editor.cookie } })
    ).body;
    expect(again).not.toContain('Handling editor');
    // Where a field's values are entered is said before it is made.
    expect(again).toContain("entered on each folder's and each manuscript's");
  });
});
