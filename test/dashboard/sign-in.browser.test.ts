// Signing in, the forced password change, signing out: in a real browser, against the real app.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createTestOrg } from '../helpers/app.ts';
import { expectAccessible, signIn, useBrowserApp } from '../helpers/browser.ts';
import { createUser } from '../../src/users/users.ts';

const t = useBrowserApp();

async function newPage(): Promise<Page> {
  const context = await t.browser.newContext();
  return context.newPage();
}

describe('dashboard sign-in', () => {
  it('a new user signs in with the one-time password, must choose their own, then reaches the dashboard', async () => {
    const org = await createTestOrg(t);
    const user = await createUser(t.db, {
      organizationId: org.id,
      email: 'new.editor@example.org',
      role: 'editor',
    });
    const page = await newPage();

    await page.goto(`${t.url}/dashboard/sign-in/`);
    await expectAccessible(page);
    await signIn(page, t.url, user.email, user.password);
    expect(new URL(page.url()).pathname).toBe('/dashboard/password/');
    await expectAccessible(page);
    // The page's one task, its first field focused: it was the page itself, the next Tab the skip
    // link, then the header's, before "Current password".
    expect(await page.evaluate<string>('document.activeElement.id')).toBe('current');

    // Every other page sends them back here until they have chosen a password.
    await page.goto(`${t.url}/dashboard/`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/password/');

    await page.getByLabel('Current password').fill(user.password);
    await page.getByLabel('New password', { exact: true }).fill('a long enough passphrase');
    await page.getByLabel('New password again').fill('a long enough passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    expect(new URL(page.url()).pathname).toBe('/dashboard/');
    expect(await page.getByRole('status').textContent()).toContain('Your password was changed.');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Sign out' }).click();
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in/');
    await page.goto(`${t.url}/dashboard/`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in/');

    // The one-time password no longer works; the chosen one does.
    await signIn(page, t.url, user.email, user.password);
    expect(await page.getByRole('alert').textContent()).toContain('not right');
    await signIn(page, t.url, user.email, 'a long enough passphrase');
    expect(new URL(page.url()).pathname).toBe('/dashboard/');
    await page.context().close();
  });
});
