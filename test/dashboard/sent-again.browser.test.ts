// Forms sent in ways a person sends them, in Chromium: an import whose session ended before it was
// sent (the CSV, pasted or chosen as a file, is there again after signing in), and the page showing
// a secret a form made (an API key, a one-time password) reached again by Back or a reload (nothing
// posted again, the secret not shown again). Chromium sends a double-clicked submit once; the inject
// tests (api-keys.test.ts, users.test.ts) send two at once.
import { describe, expect, it } from 'vitest';
import { createTestOrg } from '../helpers/app.ts';
import { createTestUser, TEST_PASSWORD } from '../helpers/dashboard.ts';
import { expectAccessible, signedInPage, useBrowserApp } from '../helpers/browser.ts';
import { createGroup } from '../../src/authors-groups/store.ts';

const t = useBrowserApp();

describe('an import sent after the session ended', () => {
  it('comes back after signing in with the chosen file as text in the field, and imports from there', async () => {
    const org = await createTestOrg(t);
    const editor = await createTestUser(t.db, org.id, 'editor');
    const page = await signedInPage(t, org.id, 'editor', { email: `late.${editor.id}@example.org` });
    const group = await createGroup(t.db, org.id, 'Late importers');
    await page.goto(`${t.url}/dashboard/groups/${group.group_id}/import/`);
    await page.getByLabel('Or a CSV file').setInputFiles({
      name: 'reviewers.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('client_id,name\nlate-1,Ana Late\nlate-2,Bo Late\n'),
    });
    // Eight hours on: the session has expired, and the browser dropped its cookie.
    await t.db.query(
      `UPDATE dashboard_sessions SET expires_at = now() - interval '1 second'
        WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [`late.${editor.id}@example.org`],
    );
    await page.context().clearCookies({ name: 'rm_session' });
    await page.getByRole('button', { name: 'Import records' }).click();
    await page.waitForURL(/\/dashboard\/sign-in\//);
    expect(await page.locator('main').textContent()).toContain('what you typed is kept');
    await page.getByLabel('Email').fill(`late.${editor.id}@example.org`);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.url}/dashboard/groups/${group.group_id}/import/`);
    expect(await page.locator('[role="alert"], .flash').first().textContent()).toContain(
      'The file reviewers.csv is kept as text',
    );
    expect(await page.getByLabel('Records as CSV').inputValue()).toBe(
      'client_id,name\nlate-1,Ana Late\nlate-2,Bo Late\n',
    );
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Import records' }).click();
    await page.waitForURL(`${t.url}/dashboard/groups/${group.group_id}/`);
    expect(await page.locator('main').textContent()).toContain('Imported: 2 records added');
    await page.context().close();
  });
});

describe('an import too large to keep, sent after the session ended', () => {
  it('is said not kept on the sign-in page and on its page after signing in, the field empty', async () => {
    const org = await createTestOrg(t);
    const email = `late.large.${org.id}@example.org`;
    const page = await signedInPage(t, org.id, 'editor', { email });
    const group = await createGroup(t.db, org.id, 'Large importers');
    await page.goto(`${t.url}/dashboard/groups/${group.group_id}/import/`);
    // Past the 1 MiB a form may send, within the file's own limit.
    const rows = Array.from({ length: 60_000 }, (_, i) => `r${i},Person number ${i}`).join('\n');
    await page.getByLabel('Or a CSV file').setInputFiles({
      name: 'everyone.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`client_id,name\n${rows}\n`),
    });
    await t.db.query(
      `UPDATE dashboard_sessions SET expires_at = now() - interval '1 second'
        WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [email],
    );
    await page.context().clearCookies({ name: 'rm_session' });
    await page.getByRole('button', { name: 'Import records' }).click();
    await page.waitForURL(/\/dashboard\/sign-in\//);
    const said = await page.getByRole('alert').textContent();
    // It said "what you typed is kept for you to check and send again".
    expect(said).not.toContain('is kept');
    expect(said).toContain('It could not be kept either');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.url}/dashboard/groups/${group.group_id}/import/`);
    const message = await page.locator('.flash').first().textContent();
    expect(message).toContain('nothing of it could be kept to show again');
    expect(message).toContain('It was too large to keep (over 1 MiB)');
    expect(message).not.toContain('What you typed is below');
    expect(await page.getByLabel('Records as CSV').inputValue()).toBe('');
    await expectAccessible(page);
    await page.context().close();
  });
});

describe('a form kept for one organization, its editor being in two', () => {
  it('is chosen first at sign-in; signed into the other, it is not applied and waits; then comes back in its own', async () => {
    const [first, second] = [await createTestOrg(t), await createTestOrg(t)];
    const names = [`Journal of Kept Forms ${first.id}`, `Journal of Elsewhere ${second.id}`] as const;
    await t.db.query('UPDATE organizations SET name = $2 WHERE id = $1', [first.id, names[0]]);
    await t.db.query('UPDATE organizations SET name = $2 WHERE id = $1', [second.id, names[1]]);
    const email = `two.journals.${first.id}@example.org`;
    await createTestUser(t.db, first.id, 'editor', email);
    await createTestUser(t.db, second.id, 'editor', email);
    const group = await createGroup(t.db, first.id, 'Board');
    const page = await (await t.browser.newContext({ viewport: { width: 375, height: 800 } })).newPage();
    page.setDefaultTimeout(15_000);
    /** Sign-in with the email's password, then the choice of organization, as a person does. */
    const signInTo = async (organization: string | null) => {
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('group', { name: 'Organization' }).waitFor();
      if (organization) await page.getByRole('radio', { name: organization }).check();
      await page.getByLabel('Password').fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/dashboard/sign-in/'));
    };
    await page.goto(`${t.url}/dashboard/sign-in/`);
    await signInTo(names[0]);
    await page.goto(`${t.url}/dashboard/groups/${group.group_id}/new-record/`);
    await page.getByLabel('Client id').fill('kept-1');
    await page.getByLabel('Name').fill('Kept For The First');
    await t.db.query(
      `UPDATE dashboard_sessions SET expires_at = now() - interval '1 second'
        WHERE user_id IN (SELECT id FROM users WHERE email = $1)`,
      [email],
    );
    await page.context().clearCookies({ name: 'rm_session' });
    await page.getByRole('button', { name: 'Add record' }).click();
    await page.waitForURL(/\/dashboard\/sign-in\//);
    expect(await page.getByRole('alert').textContent()).toContain('what you typed is kept');

    // The choice: the organization the form waits for is chosen, and says so; the other is taken.
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const waits = page.getByRole('radio', { name: names[0] });
    expect(await waits.isChecked()).toBe(true);
    expect(await page.getByRole('group', { name: 'Organization' }).textContent()).toContain(
      'what you sent after you were signed out waits here',
    );
    await expectAccessible(page);
    await page.getByRole('radio', { name: names[1] }).check();
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.url}/dashboard/`);
    expect(await page.getByRole('status').textContent()).toContain(
      `What you sent in ${names[0]} after you were signed out is kept for that organization, not used here`,
    );
    expect(await page.locator('main').textContent()).not.toContain('Kept For The First');

    // Signed out, and into the first again: the form as typed, on its page.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/dashboard\/sign-in\//);
    await signInTo(null);
    expect(page.url()).toBe(`${t.url}/dashboard/groups/${group.group_id}/new-record/`);
    expect(await page.getByLabel('Name').inputValue()).toBe('Kept For The First');
    await page.context().close();
  });
});

describe('a secret a form made (an API key, a one-time password), shown once', () => {
  it('Back, Forward and a reload of the page that showed it send nothing again and show it no more', async () => {
    const org = await createTestOrg(t);
    const page = await signedInPage(t, org.id, 'integrations_admin');
    let posts = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST') posts += 1;
    });
    // Chromium's "Confirm Form Resubmission" is a dialog playwright would report (or an error page).
    page.on('dialog', () => {
      throw new Error('a dialog was shown');
    });
    const count = async () =>
      (
        await t.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM api_keys WHERE organization_id = $1',
          [org.id],
        )
      ).rows[0]!.n;
    const before = await count();

    await page.goto(`${t.url}/dashboard/api-keys/`);
    await page.getByLabel(/^Label/).fill('Shown once');
    await page.getByRole('button', { name: 'Create an API key' }).click();
    expect(new URL(page.url()).pathname).toBe('/dashboard/api-keys/new/');
    const key = (await page.getByTestId('new-key').textContent())!;
    expect(key).toMatch(/^rm_[a-f0-9]{16}_/);
    expect(page.url()).not.toContain(key);
    // The focus is on the new key's heading, read first; the next Tab goes on into the page.
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Your new API key');
    await expectAccessible(page);

    await page.reload();
    expect(await page.getByTestId('new-key').count()).toBe(0);
    // Reloaded, its cookie cleared: it says it has no key to show, and why, focused.
    expect(await page.locator('main').textContent()).toContain('There is no new key to show here');
    expect(await page.evaluate('document.activeElement?.getAttribute("role")')).toBe('status');
    await page.goBack();
    expect(new URL(page.url()).pathname).toBe('/dashboard/api-keys/');
    await page.goForward();
    expect(new URL(page.url()).pathname).toBe('/dashboard/api-keys/new/');
    expect(await page.getByTestId('new-key').count()).toBe(0);
    expect(await page.locator('main').textContent()).not.toContain(key);
    expect(posts).toBe(1);
    expect(await count()).toBe(before + 1);

    // A user's one-time password the same way.
    await page.goto(`${t.url}/dashboard/users/`);
    await page.getByLabel('Email').fill('shown.once@example.org');
    await page.getByRole('button', { name: 'Add user' }).click();
    expect(new URL(page.url()).pathname).toBe('/dashboard/users/new/');
    const password = (await page.getByTestId('one-time-password').textContent())!;
    expect(password.length).toBeGreaterThan(8);
    expect(await page.evaluate('document.activeElement?.id')).toBe('new-user');
    await page.reload();
    expect(await page.getByTestId('one-time-password').count()).toBe(0);
    expect(await page.locator('main').textContent()).toContain('There is no one-time password to show here');
    await page.goBack();
    await page.goForward();
    expect(await page.locator('main').textContent()).not.toContain(password);
    expect(posts).toBe(2);
    await expectAccessible(page);
    await page.context().close();
  });
});
