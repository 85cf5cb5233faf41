// Each page of the dashboard doing its job end to end in Chromium, as each role, and what the API
// answers afterwards: a setting changes the next upload, a key made on the page authenticates and a
// revoked one does not, a custom field made on the page is listed by 4.7, a record's values are read
// back by 4.1, a folder's settings reach the next upload and its custom values are saved. axe checks
// every page.
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, type TestOrg } from '../helpers/app.ts';
import { expectAccessible, screenshot, signIn, signedInPage, useBrowserApp } from '../helpers/browser.ts';
import { rankingFields, upload } from '../manuscripts/upload-helpers.ts';
import { buildCorpus, TOPIC } from '../referee-finder/fixtures.ts';
import type { Role } from '../../src/users/roles.ts';
import { linkJournal, listLinks } from '../../src/journals/links.ts';
import { ensureFolder } from '../../src/folders/folders.ts';
import { createCustomField } from '../../src/custom-fields/store.ts';

const t = useBrowserApp();
let org: TestOrg;
const ADA_ORCID = '0000-0002-9079-593X';

beforeAll(async () => {
  await buildCorpus(t.db, [
    { authors: [{ name: 'Ada Expert', orcid: ADA_ORCID }] },
    { authors: [{ name: 'Nell Neutral' }] },
    { authors: [{ name: 'Gus Member' }] },
    { authors: [{ name: 'Cole Other' }] },
  ]);
  await t.app.refmatch.index.refresh();
  org = await createTestOrg(t);
});

async function as(role: Role): Promise<Page> {
  const page = await signedInPage(t, org.id, role);
  expect(new URL(page.url()).pathname).toBe('/dashboard/');
  return page;
}

async function go(page: Page, path: string): Promise<void> {
  await page.goto(`${t.url}${path}`);
  await expectAccessible(page);
}

async function uploadAs(apiKey: string, originId: string) {
  const fields = rankingFields({ origin_id: originId, abstract: TOPIC, author1_name: 'Someone Else' });
  return upload(t.app, { apiKey, fields });
}

async function mainText(page: Page): Promise<string> {
  return (await page.locator('main').innerText()).replace(/\s+/g, ' ');
}

async function flash(page: Page): Promise<string> {
  return (await page.locator('.flash').first().textContent())?.trim() ?? '';
}

/** The page's message, without the line a refusal of named fields adds under it. */
async function flashMessage(page: Page): Promise<string> {
  return (await flash(page)).replace(
    /\s*Nothing was saved: the message beside (the|each) field says what to change\.$/,
    '',
  );
}

/** What describes an input to a screen reader (its aria-describedby), as text, in order. */
async function descriptionOf(input: Locator): Promise<string> {
  const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  const texts = await Promise.all(
    ids.map(async (id) => (await input.page().locator(`[id="${id}"]`).textContent())?.trim() ?? ''),
  );
  return texts.join(' | ');
}

describe('integrations admin', () => {
  it('settings: a change on the page shows in the next upload response', async () => {
    const before = await uploadAs(org.apiKey, 'settings-1');
    expect(before.statusCode).toBe(200);
    expect((before.json() as { candidates: unknown[] }).candidates.length).toBeGreaterThan(1);

    const page = await as('integrations_admin');
    await go(page, '/dashboard/settings/');
    await screenshot(page, 'settings');
    await page.getByLabel('Maximum number of candidates').fill('1');
    await page.getByRole('button', { name: 'Save settings' }).click();
    expect(await flash(page)).toBe('Settings saved.');
    expect(await page.getByLabel('Maximum number of candidates').inputValue()).toBe('1');

    const after = await uploadAs(org.apiKey, 'settings-2');
    expect((after.json() as { candidates: unknown[] }).candidates).toHaveLength(1);

    // A value out of range is refused with the rule, and nothing changes.
    await page.getByLabel('Maximum number of candidates').evaluate((el) => el.removeAttribute('max'));
    await page.getByLabel('Maximum number of candidates').fill('501');
    await page.getByLabel('what was parsed from the file').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    expect(await flash(page)).toContain('1 to 500');
    // The form shows what was chosen, to correct; what is stored did not change.
    expect(await page.getByLabel('Maximum number of candidates').inputValue()).toBe('501');
    expect(await page.getByLabel('what was parsed from the file').isChecked()).toBe(true);
    await page.reload();
    expect(await page.getByLabel('Maximum number of candidates').inputValue()).toBe('1');
    expect(await page.getByLabel('the supplied fields').isChecked()).toBe(true);
    await page.context().close();
  });

  it('API keys: created (shown once), used (last use listed), revoked (then refused by the API)', async () => {
    const page = await as('integrations_admin');
    await go(page, '/dashboard/api-keys/');
    await page.getByRole('button', { name: 'Create an API key' }).click();
    const key = (await page.getByTestId('new-key').textContent())!.trim();
    expect(key).toMatch(/^rm_[a-f0-9]{16}_/);
    await expectAccessible(page);

    expect((await uploadAs(key, 'key-1')).statusCode).toBe(200);
    await go(page, '/dashboard/api-keys/');
    expect(await page.getByTestId('new-key').count()).toBe(0);
    const keyId = key.slice(3, 19);
    const row = page.getByRole('row').filter({ hasText: keyId });
    expect(await row.getByRole('cell').nth(2).textContent()).toMatch(/UTC/);

    // Revoking asks first, saying what it breaks; until confirmed the key still works.
    await row.getByRole('button', { name: /Revoke/ }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      `Revoke the API key rm_${keyId}_…?`,
    );
    await expectAccessible(page);
    expect((await uploadAs(key, 'key-asked')).statusCode).toBe(200);
    await page.getByRole('button', { name: 'Revoke key' }).click();
    expect(await flash(page)).toBe(`The key rm_${keyId}_… was revoked.`);
    expect((await uploadAs(key, 'key-2')).statusCode).toBe(401);
    await page.context().close();
  });

  it('users: added (one-time password shown once), role changed, disabled, enabled with a new one; the new user must change the password', async () => {
    const page = await as('integrations_admin');
    await go(page, '/dashboard/users/');
    await page.getByLabel('Email').fill('new.person@example.org');
    await page.getByLabel('Role', { exact: true }).selectOption('editor');
    await page.getByRole('button', { name: 'Add user' }).click();
    const password = (await page.getByTestId('one-time-password').textContent())!.trim();
    await expectAccessible(page);
    await screenshot(page, 'users');

    const newcomer = await (await t.browser.newContext()).newPage();
    await signIn(newcomer, t.url, 'new.person@example.org', password);
    expect(new URL(newcomer.url()).pathname).toBe('/dashboard/password/');

    await go(page, '/dashboard/users/');
    await page.getByLabel('Role of new.person@example.org').selectOption('viewer');
    const row = page.getByRole('row').filter({ hasText: 'new.person@example.org' });
    await row.getByRole('button', { name: 'Change role' }).click();
    expect(await flash(page)).toBe('new.person@example.org is now viewer.');

    await page.getByRole('button', { name: 'Disable new.person@example.org' }).click();
    expect(await flash(page)).toContain('disabled');
    // Their session has ended, and they cannot sign in again.
    await newcomer.goto(`${t.url}/dashboard/password/`);
    expect(new URL(newcomer.url()).pathname).toBe('/dashboard/sign-in/');
    await signIn(newcomer, t.url, 'new.person@example.org', password);
    expect(await newcomer.getByRole('alert').textContent()).toContain('not right');

    // Enabled again, with a new one-time password: the old one no longer works, the new one does.
    await page.getByRole('button', { name: /^Enable new\.person@example\.org with/ }).click();
    const renewed = (await page.getByTestId('one-time-password').textContent())!.trim();
    expect(renewed).not.toBe(password);
    await expectAccessible(page);
    await signIn(newcomer, t.url, 'new.person@example.org', password);
    expect(await newcomer.getByRole('alert').textContent()).toContain('not right');
    await signIn(newcomer, t.url, 'new.person@example.org', renewed);
    expect(new URL(newcomer.url()).pathname).toBe('/dashboard/password/');
    await newcomer.context().close();
    await page.context().close();
  });
});

describe('editor', () => {
  it('custom fields: created with options (names escaped), listed by 4.7, edited, deleted', async () => {
    const page = await as('editor');
    await go(page, '/dashboard/custom-fields/');
    const hostile = '<script>alert(1)</script> Level';
    await page.getByLabel('Owner').selectOption('author_from_group');
    await page.getByLabel('Kind of value').selectOption('single_option');
    await page.getByLabel('Name').fill(hostile);
    await page.getByLabel('Description').fill('Seniority <b>bold</b>');
    await page.getByLabel(/^Options, one a line/).fill('Junior\nSenior');
    await page.getByRole('button', { name: 'Add field' }).click();
    expect(await flash(page)).toBe(`The field ${hostile} was added.`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Custom field ${hostile}`);
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.locator('b').count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'custom-field');

    const listed = await t.app.inject({ url: '/api/external/custom-fields/all/', headers: org.headers });
    const fields = (
      listed.json() as {
        author_from_group: Array<{ api_id: string; name: string; options: Array<{ option: string }> }>;
      }
    ).author_from_group;
    const field = fields.find((f) => f.name === hostile)!;
    expect(field.options.map((o) => o.option)).toEqual(['Junior', 'Senior']);

    await page.getByLabel('Junior').check();
    await page.getByLabel('Add options, one a line').fill('Emeritus');
    await page.getByRole('button', { name: 'Save field' }).click();
    expect(await flash(page)).toBe('The field was saved.');
    const relisted = await t.app.inject({ url: '/api/external/custom-fields/all/', headers: org.headers });
    const changed = (relisted.json() as { author_from_group: typeof fields }).author_from_group.find(
      (f) => f.api_id === field.api_id,
    )!;
    expect(changed.options.map((o) => o.option)).toEqual(['Senior', 'Emeritus']);

    // A rule of 2.5 shown as the page's message: an option field keeps at least one option.
    await page.getByLabel('Senior').check();
    await page.getByLabel('Emeritus').check();
    await page.getByRole('button', { name: 'Save field' }).click();
    expect(await flashMessage(page)).toBe('An option field must keep at least one option');
    // Said beside the options to remove, too.
    expect(await descriptionOf(page.getByRole('group', { name: 'Remove options' }))).toBe(
      'An option field must keep at least one option',
    );

    await page.getByRole('button', { name: 'Delete field' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      `Delete the custom field ${hostile}?`,
    );
    await page.getByRole('button', { name: 'Delete field and its values' }).click();
    expect(await flash(page)).toBe('The field was deleted.');
    // Back is the question's own page loaded again, which says the field is gone: the question was a
    // post's answer, and Back showed the browser's "Confirm Form Resubmission" (ERR_CACHE_MISS).
    const back = await page.goBack();
    expect(back?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Not there any more');
    expect(await page.getByRole('alert').first().textContent()).toContain('it was deleted already');
    const gone = await t.app.inject({ url: '/api/external/custom-fields/all/', headers: org.headers });
    expect((gone.json() as { author_from_group: unknown[] }).author_from_group).toEqual([]);
    await page.context().close();
  });

  it('authors groups: a group and a record with custom values added, searched, shown linked, edited, deleted', async () => {
    const page = await as('editor');
    await go(page, '/dashboard/custom-fields/');
    for (const [kind, name] of [
      ['number', 'Reviews done'],
      ['date', 'Available from'],
      ['multi_option', 'Topics'],
    ]) {
      await page.getByLabel('Owner').selectOption('author_from_group');
      await page.getByLabel('Kind of value').selectOption(kind!);
      await page.getByLabel('Name').fill(name!);
      if (kind === 'multi_option') await page.getByLabel(/^Options, one a line/).fill('Graphs\nChemistry');
      await page.getByRole('button', { name: 'Add field' }).click();
      await go(page, '/dashboard/custom-fields/');
    }

    await go(page, '/dashboard/groups/');
    await page.getByLabel('Group name').fill('Editorial board');
    await page.getByRole('button', { name: 'Add group' }).click();
    const groupId = Number(/\/groups\/(\d+)\//.exec(page.url())![1]);
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Add a record' }).click();
    await expectAccessible(page);
    await page.getByLabel('Client id').fill('rev/1');
    await page.getByLabel('Name').fill('Ada Expert');
    await page.getByLabel('ORCID iDs, one a line').fill(ADA_ORCID);
    await page.getByLabel('Emails, one a line').fill('ada@uni.example');
    await page.getByLabel('Reviews done').fill('many');
    await page.getByLabel('Graphs').check();
    await page.getByRole('button', { name: 'Add record' }).click();
    // The number rule of 2.5, named after the field, in an editor's words (not the API's "must be a
    // finite number"), and nothing stored.
    expect(await flashMessage(page)).toBe(
      'Reviews done: “many” is not a number; enter a number, like 3 or 2.5',
    );
    // Beside the field, before its rule, the field marked, what was typed kept.
    const reviews = page.getByLabel('Reviews done');
    expect(await descriptionOf(reviews)).toBe(
      'Reviews done: “many” is not a number; enter a number, like 3 or 2.5 | A number, such as 3 or 2.5. A decimal comma (2,5) is read as a point.',
    );
    expect(await reviews.getAttribute('aria-invalid')).toBe('true');
    expect(await reviews.inputValue()).toBe('many');
    await expectAccessible(page);

    await page.getByLabel('Client id').fill('rev/1');
    await page.getByLabel('Name').fill('Ada Expert');
    await page.getByLabel('ORCID iDs, one a line').fill(ADA_ORCID);
    await page.getByLabel('Reviews done').fill('12');
    await page.getByLabel('Available from').fill('2027-01-15');
    await page.getByLabel('Graphs').check();
    await page.getByRole('button', { name: 'Add record' }).click();
    expect(await flash(page)).toBe('Ada Expert was added.');
    expect(await mainText(page)).toContain('Linked by ORCID iD to Ada Expert');
    await expectAccessible(page);
    await screenshot(page, 'group-record');

    const read = await t.app.inject({
      url: `/api/external/author-from-group/${groupId}/rev%2F1/`,
      headers: org.headers,
    });
    const record = read.json() as Record<string, unknown> & { author: { name: string } | null };
    expect(record.orcids).toEqual([ADA_ORCID]);
    expect(Object.values(record)).toContain(12);
    expect(Object.values(record)).toContain('2027-01-15');
    expect(record.author?.name).toBe('Ada Expert');

    // A record with nothing to go on says why it is not linked.
    await go(page, `/dashboard/groups/${groupId}/new-record/`);
    await page.getByLabel('Client id').fill('rev-2');
    await page.getByLabel('Name').fill('Zed Unknown');
    await page.getByRole('button', { name: 'Add record' }).click();
    expect(await mainText(page)).toContain('Not linked: no author of the corpus');
    await page.getByLabel('Name').fill('Zed Renamed');
    await page.getByRole('button', { name: 'Save record' }).click();
    expect(await flash(page)).toBe('Saved.');

    await go(page, `/dashboard/groups/${groupId}/`);
    await page.getByLabel('Search by name, client id or email').fill('renamed');
    await page.getByRole('button', { name: 'Search' }).click();
    expect(await page.locator('caption').textContent()).toContain('1 record matching');
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Zed Renamed' }).click();
    await page.getByRole('button', { name: 'Delete record' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Delete the record of Zed Renamed?',
    );
    // Cancel leads back to the record, kept; asked again, confirmed.
    await page.getByRole('link', { name: 'Cancel' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Zed Renamed');
    await page.getByRole('button', { name: 'Delete record' }).click();
    await page.getByRole('button', { name: 'Delete record' }).click();
    expect(await flash(page)).toBe('The record was deleted.');
    const deleted = await t.app.inject({
      url: `/api/external/author-from-group/${groupId}/rev-2/`,
      headers: org.headers,
    });
    expect(deleted.statusCode).toBe(404);
    await page.context().close();
  });

  it('authors groups: records imported from pasted CSV; a wrong row named beside the field, nothing written, the CSV kept', async () => {
    const page = await as('editor');
    await go(page, '/dashboard/groups/');
    await page.getByLabel('Group name').fill('Imported pool');
    await page.getByRole('button', { name: 'Add group' }).click();
    const groupId = Number(/\/groups\/(\d+)\//.exec(page.url())![1]);
    await page.getByRole('link', { name: 'Import records' }).click();
    await expectAccessible(page);
    expect(await mainText(page)).toMatch(/of at most\s+50 MiB/);
    const csv = 'client_id,name,emails\nimp-1,"Lovelace, Ada",ada@uni.example\nimp-2,,nobody@uni.example\n';
    await page.getByLabel('Records as CSV').fill(csv);
    await page.getByRole('button', { name: 'Import records' }).click();
    expect(await flashMessage(page)).toBe('Nothing was imported: 1 problem to correct.');
    const field = page.getByLabel('Records as CSV');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(field)).toContain(
      'Nothing was imported: 1 problem to correct | Row 3, column name: The name must have 1 to 1,000 characters',
    );
    expect(await field.inputValue()).toBe(csv);
    await expectAccessible(page);
    const none = await t.app.inject({
      url: `/api/external/author-from-group/${groupId}/imp-1/`,
      headers: org.headers,
    });
    expect(none.statusCode).toBe(404);

    await field.fill(csv.replace('imp-2,,', 'imp-2,Nobody,'));
    await page.getByRole('button', { name: 'Import records' }).click();
    expect(await flash(page)).toBe('Imported: 2 records added, 0 updated, 0 unchanged.');
    expect(await page.locator('caption').textContent()).toContain('2 records');
    await expectAccessible(page);
    const read = await t.app.inject({
      url: `/api/external/author-from-group/${groupId}/imp-1/`,
      headers: org.headers,
    });
    expect(read.json()).toMatchObject({ name: 'Lovelace, Ada', emails: ['ada@uni.example'] });

    // The same records as a file: the field emptied, a file chosen.
    await page.getByRole('link', { name: 'Import records' }).click();
    await page.getByLabel('Or a CSV file').setInputFiles({
      name: 'records.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('client_id,name\nimp-2,"Nobody, Jr."\nimp-3,Grace Hopper\n'),
    });
    await page.getByRole('button', { name: 'Import records' }).click();
    expect(await flash(page)).toBe('Imported: 1 record added, 1 updated, 0 unchanged.');
    await page.getByRole('link', { name: 'Import records' }).click();
    await page.getByLabel('Or a CSV file').setInputFiles({
      name: 'sheet.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('client_id,name\nimp-4,Jos\u00e9\n', 'latin1'),
    });
    await page.getByRole('button', { name: 'Import records' }).click();
    expect(await flashMessage(page)).toBe('Nothing was imported: 1 problem to correct.');
    expect(await mainText(page)).toContain('The file sheet.csv is not UTF-8 text');
    await expectAccessible(page);
    await page.context().close();
  });
});

describe('folders', () => {
  it("an editor sets a folder's referee finder settings (the next upload shows them); an account manager links a journal", async () => {
    expect((await uploadAs(org.apiKey, 'folder-1')).statusCode).toBe(200);
    const group = await t.db.query<{ id: number }>(
      `INSERT INTO authors_groups (organization_id, name) VALUES ($1, 'Reviewers') RETURNING id`,
      [org.id],
    );
    const source = await t.db.query<{ id: number }>(
      `INSERT INTO sources (source_key, title, publisher) VALUES ('S-graph', 'Journal of Graph Learning', 'Acme') RETURNING id`,
    );

    await createCustomField(t.db, org.id, { owner: 'folder', dataKind: 'str', name: 'Handling editor' });
    await createCustomField(t.db, org.id, {
      owner: 'folder',
      dataKind: 'single_option',
      name: 'Review model',
      options: ['Single blind', 'Double blind'],
    });

    const editor = await as('editor');
    await go(editor, '/dashboard/folders/');
    await editor.getByRole('link', { name: 'JOUR' }).click();
    await expectAccessible(editor);
    await editor.getByLabel('Reviewers').check();
    await editor.getByLabel(/Boost the groups/).check();
    await editor.getByLabel(/Boost multiplier/).fill('0');
    await editor.getByRole('button', { name: 'Save referee finder settings' }).click();
    expect(await flash(editor)).toContain('greater than 0');
    // The refused form shows what is stored (nothing yet); choose again with a valid multiplier.
    await editor.getByLabel('Reviewers').check();
    await editor.getByLabel(/Boost the groups/).check();
    await editor.getByLabel(/Boost multiplier/).fill('1.5');
    await editor.getByRole('button', { name: 'Save referee finder settings' }).click();
    expect(await flash(editor)).toBe('The referee finder settings were saved.');
    const next = (await uploadAs(org.apiKey, 'folder-2')).json() as { authors_groups_settings: unknown };
    expect(next.authors_groups_settings).toMatchObject({
      effect: 'boost',
      boost_multiplier: 1.5,
      authors_groups: [{ id: group.rows[0]!.id, name: 'Reviewers' }],
    });
    // With no group ticked the effect acts on nobody: the page says so, and the uploads have none.
    await editor.getByLabel('Reviewers').uncheck();
    await editor.getByRole('button', { name: 'Save referee finder settings' }).click();
    expect(await flash(editor)).toContain('No authors group is chosen');
    const cleared = (await uploadAs(org.apiKey, 'folder-3')).json() as { authors_groups_settings: unknown };
    expect(cleared.authors_groups_settings).toBeNull();
    await editor.getByLabel('Reviewers').check();
    await editor.getByRole('button', { name: 'Save referee finder settings' }).click();
    expect(await flash(editor)).toBe('The referee finder settings were saved.');
    // The folder's custom values: typed and chosen, saved, shown again.
    await editor.getByLabel('Handling editor').fill('Dr. Grace');
    await editor.getByLabel('Review model').selectOption({ label: 'Double blind' });
    await editor.getByRole('button', { name: 'Save custom fields' }).click();
    expect(await flash(editor)).toBe("The folder's custom fields were saved.");
    expect(await editor.getByLabel('Handling editor').inputValue()).toBe('Dr. Grace');
    expect(await editor.getByLabel('Review model').locator('option:checked').textContent()).toContain(
      'Double blind',
    );
    await expectAccessible(editor);
    // An editor links no journals.
    expect(await editor.getByLabel('Find a journal to link').count()).toBe(0);
    await editor.context().close();

    const manager = await as('account_manager');
    await go(manager, '/dashboard/folders/');
    await manager.getByRole('link', { name: 'JOUR' }).click();
    await manager.getByLabel('Find a journal to link').fill('graph learning');
    await manager.getByRole('button', { name: 'Find' }).click();
    await expectAccessible(manager);
    // The button names the venue and the folder, in words.
    await manager
      .getByRole('button', {
        name: 'Link Journal of Graph Learning to JOUR',
        exact: true,
      })
      .click();
    expect(await flash(manager)).toBe(`Journal of Graph Learning (catalogue id S-graph) is linked to JOUR.`);
    await expectAccessible(manager);
    await screenshot(manager, 'folder');
    expect((await listLinks(t.db, org.id)).map((l) => [l.source_id, l.folder_name])).toEqual([
      [source.rows[0]!.id, 'JOUR'],
    ]);
    // Linked to JOUR, the journal is offered to another folder as a move, which names what JOUR loses.
    const other = await ensureFolder(t.db, org.id, 'OTHER');
    await go(manager, `/dashboard/folders/${other}/?journal=graph+learning`);
    await expectAccessible(manager);
    await manager
      .getByRole('button', {
        name: 'Move to OTHER: Journal of Graph Learning, linked to JOUR',
        exact: true,
      })
      .click();
    expect(await flash(manager)).toBe(
      `Journal of Graph Learning (catalogue id S-graph) is moved from JOUR to OTHER: JOUR no longer has it.`,
    );
    await linkJournal(t.db, org.id, 'JOUR', source.rows[0]!.id);
    await go(manager, '/dashboard/folders/');
    await manager.getByRole('link', { name: 'JOUR' }).click();
    // The manager's page shows the referee settings without a way to change them.
    expect(await manager.getByRole('button', { name: 'Save referee finder settings' }).count()).toBe(0);
    // And its custom values as text.
    expect(await manager.getByRole('button', { name: 'Save custom fields' }).count()).toBe(0);
    expect(await mainText(manager)).toContain('Handling editor Dr. Grace');
    await manager
      .getByRole('button', {
        name: 'Unlink Journal of Graph Learning from JOUR',
        exact: true,
      })
      .click();
    expect(await flash(manager)).toBe(
      `Journal of Graph Learning (catalogue id S-graph) is unlinked from JOUR.`,
    );
    expect(await listLinks(t.db, org.id)).toEqual([]);
    await manager.context().close();
  });
});
