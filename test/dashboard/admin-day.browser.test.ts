// An organization admin's first day in Chromium at 375 and 1280 px: signed in, an API key created
// (shown once), the settings that steer the candidates set, an editor added (custom fields and groups
// are an editor's, which those pages now say, with the way to the users page), who signs in, chooses
// a password, defines a custom field for group records and imports a group from CSV; then the editorial system's calls with that key
// (app.inject, ../shared/spec/interface.md 4.1-4.7) answer as the dashboard was set: the key works,
// the custom field and its options are listed (4.7) and carried by the records (4.1-4.3), the
// candidates follow the settings (4.5), journals are recommended for the manuscript (4.6). Each page
// passes axe.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg } from '../helpers/app.ts';
import { expectAccessible, signedInPage, signIn, useBrowserApp } from '../helpers/browser.ts';
import { buildCorpus, TOPIC } from '../referee-finder/fixtures.ts';
import { rankingFields, upload } from '../manuscripts/upload-helpers.ts';

const t = useBrowserApp();
let ids: Awaited<ReturnType<typeof buildCorpus>>;
beforeAll(async () => {
  ids = await buildCorpus(t.db, [
    { authors: [{ name: 'Nell Neutral', affiliation: 'University of Lisbon' }] },
    { authors: [{ name: 'Wei Zhang', affiliation: 'Harbin Institute of Technology' }] },
  ]);
  await t.app.refmatch.index.refresh();
});

describe("an organization admin's first day, then the API with the key made", () => {
  for (const width of [375, 1280]) {
    it(`at ${width} px`, async () => {
      const org = await createTestOrg(t);
      const page = await signedInPage(t, org.id, 'integrations_admin', { width });
      const main = async () => (await page.locator('main').innerText()).replace(/\s+/g, ' ');

      // An API key, shown once.
      await page.goto(`${t.url}/dashboard/api-keys/`);
      await expectAccessible(page);
      await page.getByLabel(/^Label/).fill('Editorial Manager');
      await page.getByRole('button', { name: 'Create an API key' }).click();
      const key = (await page.getByTestId('new-key').innerText()).trim();
      expect(key.length).toBeGreaterThan(20);
      await expectAccessible(page);
      await page.reload();
      expect(await page.getByTestId('new-key').count()).toBe(0);
      const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
        t.app.inject({ method, url, headers: { 'x-apikey': key }, ...(payload ? { payload } : {}) });

      // The settings that steer the candidates: without an email too, one candidate at most.
      await page.goto(`${t.url}/dashboard/settings/`);
      await expectAccessible(page);
      await page.getByLabel('Include candidates without an email').check();
      await page.getByLabel('Maximum number of candidates').fill('1');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.waitForLoadState();
      await expectAccessible(page);
      expect(await page.getByLabel('Include candidates without an email').isChecked()).toBe(true);
      expect(await page.getByLabel('Maximum number of candidates').inputValue()).toBe('1');

      // What the admin may not do says who may, and where to add one: the custom fields and groups
      // pages left their forms out without a word (round 28).
      for (const [path, what] of [
        ['custom-fields', 'Only an editor can add or change fields.'],
        ['groups', 'Only an editor can add groups, or add and import their records.'],
      ]) {
        await page.goto(`${t.url}/dashboard/${path}/`);
        await expectAccessible(page);
        expect(await main()).toContain(`${what} Add one, or give a user that role, on the users page.`);
      }
      await page.getByRole('link', { name: 'users page' }).click();
      await page.waitForURL(/\/dashboard\/users\/$/);

      // An editor, who signs in with the one-time password given and chooses their own.
      await expectAccessible(page);
      const editorEmail = `editor-${width}-${org.id}@press.example`;
      await page.getByLabel('Email', { exact: true }).fill(editorEmail);
      await page.getByLabel('Role').selectOption('editor');
      await page.getByRole('button', { name: 'Add user' }).click();
      const password = (await page.getByTestId('one-time-password').innerText()).trim();
      await expectAccessible(page);
      const editorContext = await t.browser.newContext({ viewport: { width, height: 800 } });
      const editor = await editorContext.newPage();
      editor.setDefaultTimeout(15_000);
      await signIn(editor, t.url, editorEmail.toUpperCase(), password);
      await editor.waitForURL(/\/dashboard\/password\/$/);
      await expectAccessible(editor);
      await editor.getByLabel('Current password').fill(password);
      await editor.getByLabel('New password', { exact: true }).fill('a long passphrase of the editor');
      await editor.getByLabel('New password again').fill('a long passphrase of the editor');
      await editor.getByRole('button', { name: 'Change password' }).click();
      await editor.waitForLoadState();
      expect(editor.url()).not.toMatch(/password\/$/);
      const editorMain = async () => (await editor.locator('main').innerText()).replace(/\s+/g, ' ');

      // A custom field of group records, with options.
      await editor.goto(`${t.url}/dashboard/custom-fields/`);
      await expectAccessible(editor);
      await editor.getByLabel('Owner').selectOption('author_from_group');
      await editor.getByLabel('Kind of value').selectOption('single_option');
      await editor.getByLabel('Name', { exact: true }).fill('Seniority');
      await editor.getByLabel(/^Options, one a line/).fill('Junior\nSenior');
      await editor.getByRole('button', { name: 'Add field' }).click();
      await editor.waitForLoadState();
      await expectAccessible(editor);
      const listed = (await api('GET', '/api/external/custom-fields/all/')).json() as {
        author_from_group: Array<{
          api_id: string;
          name: string;
          data_kind: string;
          options: Array<{ api_id: string; option: string }>;
        }>;
        folder: unknown[];
        proposal: unknown[];
      };
      expect(listed.author_from_group).toHaveLength(1);
      const seniority = listed.author_from_group[0]!;
      expect(seniority).toMatchObject({ name: 'Seniority', data_kind: 'single_option' });
      expect(seniority.options.map((o) => o.option)).toEqual(['Junior', 'Senior']);
      const senior = seniority.options.find((o) => o.option === 'Senior')!.api_id;
      // The page shows the API's own listing of them.
      expect(await editorMain()).toContain(seniority.api_id);

      // A group, its records imported from CSV with the custom field's column by its name.
      await editor.goto(`${t.url}/dashboard/groups/`);
      await editor.getByLabel('Group name').fill(`Reviewers ${width}`);
      await editor.keyboard.press('Enter');
      await editor.waitForURL(/\/dashboard\/groups\/\d+\/$/);
      const groupId = Number(/Group id (\d+)/.exec(await editorMain())![1]);
      await editor.getByRole('link', { name: 'Import records' }).click();
      await expectAccessible(editor);
      await editor
        .getByLabel('Records as CSV')
        .fill(
          'client_id,name,emails,affiliations,Seniority\n' +
            'r-wei,Wei Zhang,wei.zhang@hit.example,Harbin Institute of Technology,Senior\n' +
            'r-nell,Nell Neutral,,University of Lisbon,Junior\n',
        );
      await editor.getByRole('button', { name: 'Import records' }).click();
      await editor.waitForURL(/\/dashboard\/groups\/\d+\/$/);
      expect(await editorMain()).toContain('2 records added');
      await expectAccessible(editor);

      // 4.1: a record as imported, the custom value by its option's api_id, linked to the corpus.
      const wei = await api('GET', `/api/external/author-from-group/${groupId}/r-wei/`);
      expect(wei.statusCode, wei.body).toBe(200);
      expect(wei.json()).toMatchObject({
        name: 'Wei Zhang',
        emails: ['wei.zhang@hit.example'],
        affiliations: ['Harbin Institute of Technology'],
        [seniority.api_id]: senior,
        author: { id: ids.authorId('Wei Zhang') },
      });
      // 4.2 and 4.3: replaced, then partly updated; the dashboard's record page shows the value.
      const junior = seniority.options.find((o) => o.option === 'Junior')!.api_id;
      expect(
        (
          await api('POST', `/api/external/author-from-group/${groupId}/r-new/`, {
            name: 'Ana Álvarez',
            [seniority.api_id]: junior,
          })
        ).json(),
      ).toEqual({ ok: true });
      expect(
        (
          await api('POST', `/api/external/author-from-group/${groupId}/r-new/partial/`, {
            [seniority.api_id]: senior,
          })
        ).json(),
      ).toEqual({ ok: true });
      await editor.goto(`${t.url}/dashboard/groups/${groupId}/records/r-new/`);
      await expectAccessible(editor);
      expect(await editor.getByLabel('Seniority').inputValue()).toBe(senior);
      // 4.4
      expect((await api('DELETE', `/api/external/author-from-group/${groupId}/r-new/`)).json()).toEqual({
        ok: true,
      });
      expect((await api('GET', `/api/external/author-from-group/${groupId}/r-new/`)).statusCode).toBe(404);

      // 4.5: the candidates as the settings say: one at most, without an email kept; the group's
      // email given to its linked author.
      const uploaded = await upload(t.app, {
        apiKey: key,
        fields: rankingFields({ origin_id: `ADM-${width}`, title: 'Molecular graphs', abstract: TOPIC }),
      });
      expect(uploaded.statusCode, uploaded.body).toBe(200);
      const candidates = uploaded.json().candidates as Array<{ author_id: number; email: string | null }>;
      expect(candidates).toHaveLength(1);
      // The admin leaves out candidates without an email: the one with the group record's email is
      // given, with it.
      await page.goto(`${t.url}/dashboard/settings/`);
      await page.getByLabel('Include candidates without an email').uncheck();
      await page.getByLabel('Maximum number of candidates').fill('5');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.waitForLoadState();
      const again = await upload(t.app, {
        apiKey: key,
        fields: rankingFields({ origin_id: `ADM-${width}`, title: 'Molecular graphs', abstract: TOPIC }),
      });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().candidates).toEqual([
        expect.objectContaining({ author_id: ids.authorId('Wei Zhang'), email: 'wei.zhang@hit.example' }),
      ]);
      // The editor has the folder the upload made highlight the group's authors: the answer says so
      // (2.4), and the candidate carries the record's client id (2.3).
      await editor.goto(`${t.url}/dashboard/folders/`);
      await editor.getByRole('link', { name: 'JOUR', exact: true }).click();
      await expectAccessible(editor);
      await editor.getByLabel(`Reviewers ${width}`).check();
      await editor.getByLabel("Highlight the groups' authors among the candidates").check();
      await editor.getByRole('button', { name: 'Save referee finder settings' }).click();
      await editor.waitForLoadState();
      await expectAccessible(editor);
      const grouped = await upload(t.app, {
        apiKey: key,
        fields: rankingFields({ origin_id: `ADM-${width}`, title: 'Molecular graphs', abstract: TOPIC }),
      });
      expect(grouped.json().authors_groups_settings).toEqual({
        authors_groups: [{ id: groupId, name: `Reviewers ${width}`, label: null }],
        effect: 'highlight',
      });
      expect(grouped.json().candidates).toEqual([
        expect.objectContaining({ authors_groups: [{ group_id: groupId, client_id: 'r-wei' }] }),
      ]);
      // The editor flags the candidate's conflict on the manuscript's page; the admin leaves out
      // candidates with a conflict: the next upload has none.
      await editor.goto(`${t.url}/dashboard/manuscripts/${grouped.json().manuscript_id}/`);
      await editor.getByRole('button', { name: 'Flag a conflict of interest with Wei Zhang' }).click();
      await editor.waitForURL(/#conflict-\d+-message$/);
      await expectAccessible(editor);
      await page.goto(`${t.url}/dashboard/settings/`);
      await page.getByLabel('Include candidates with conflicts of interest').uncheck();
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.waitForLoadState();
      const flagged = await upload(t.app, {
        apiKey: key,
        fields: rankingFields({ origin_id: `ADM-${width}`, title: 'Molecular graphs', abstract: TOPIC }),
      });
      expect(flagged.json().candidates).toEqual([]);
      // 4.6: journals for the manuscript uploaded.
      const journals = await api('GET', `/api/external/recommend-journals/ADM-${width}/`);
      expect(journals.statusCode, journals.body).toBe(200);
      expect(Array.isArray(journals.json().recommended_journals)).toBe(true);
      await editorContext.close();
      await page.context().close();
    });
  }
});
