// Where the keyboard is after a successful add (a group, a custom field, a group's record, a user), in
// Chromium: on the message saying what was added, which a screen reader reads as it takes the focus
// (a status present as the page loads is not announced by itself), the next Tab going on into the
// page from there. Before, the focus was on the page itself and the next Tab the skip link, then the
// header and the navigation, the message unheard.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, type TestOrg } from '../helpers/app.ts';
import { expectAccessible, signedInPage, useBrowserApp } from '../helpers/browser.ts';

const t = useBrowserApp();
let org: TestOrg;

beforeAll(async () => {
  org = await createTestOrg(t);
});

/** The focused element: its text, role, and whether it is in the page's own content. */
function focused(page: Page): Promise<{ text: string; role: string | null; inMain: boolean }> {
  return page.evaluate(`(() => {
    const el = document.activeElement;
    return { text: el.textContent.trim(), role: el.getAttribute('role'), inMain: el.closest('main') !== null };
  })()`);
}

/** Presses the button and waits for the page its form leads to to load. */
async function send(page: Page, button: string): Promise<void> {
  await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: button }).click()]);
}

/** After an add: the message has the focus, and the next Tab stays in the page's content. */
async function expectFocusOnMessage(page: Page, message: RegExp): Promise<void> {
  const at = await focused(page);
  expect(at.role).toBe('status');
  expect(at.text).toMatch(message);
  await page.keyboard.press('Tab');
  expect((await focused(page)).inMain).toBe(true);
}

describe('after a successful add the focus is on what it says', () => {
  it('a group, then a record of it, then a custom field (at 375 px)', async () => {
    const page = await signedInPage(t, org.id, 'editor', { width: 375 });
    await page.goto(`${t.url}/dashboard/groups/`);
    await page.getByLabel('Group name').fill('Focus board');
    await send(page, 'Add group');
    await expectFocusOnMessage(page, /^The group .*Focus board.* was added\.$/);
    await expectAccessible(page);

    await page.getByRole('link', { name: 'Add a record' }).click();
    await page.getByLabel('Client id').fill('f1');
    await page.getByLabel('Name', { exact: true }).fill('Ada Focus');
    await send(page, 'Add record');
    await expectFocusOnMessage(page, /Ada Focus.* was added\.$/);

    await page.goto(`${t.url}/dashboard/custom-fields/`);
    await page.getByLabel('Name', { exact: true }).fill('Focus level');
    await send(page, 'Add field');
    await expectFocusOnMessage(page, /^The field .*Focus level.* was added\.$/);
    await page.context().close();
  });

  it('a user: the focus is on the one-time password shown, the next Tab in the add form', async () => {
    const page = await signedInPage(t, org.id, 'integrations_admin', { width: 1280 });
    await page.goto(`${t.url}/dashboard/users/`);
    await page.getByLabel('Email').fill('focus.added@example.org');
    await send(page, 'Add user');
    expect((await focused(page)).text).toMatch(/focus\.added@example\.org.* can now sign in/);
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('new-email');
    await page.context().close();
  });
});
