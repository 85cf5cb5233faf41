// Where the keyboard is when a refused form comes back, in Chromium: in the first wrong field (its
// label and message read by a screen reader as it takes the focus), or on the page's message when
// the refusal marks no field; after a refused sign-in, in the email. Before, it was at the page's
// top: the skip link, the header and the navigation came first, ten Tabs and more.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, type TestOrg } from '../helpers/app.ts';
import { expectAccessible, signedInPage, useBrowserApp } from '../helpers/browser.ts';
import { createTestUser } from '../helpers/dashboard.ts';
import { createCustomField } from '../../src/custom-fields/store.ts';
import { baseFields, upload } from '../manuscripts/upload-helpers.ts';

const t = useBrowserApp();
let org: TestOrg;

beforeAll(async () => {
  org = await createTestOrg(t);
});

async function asEditor(): Promise<Page> {
  return signedInPage(t, org.id, 'editor', { width: 375 });
}

/** The focused element: its id, and whether it is marked invalid or is the page's message. */
function focused(page: Page): Promise<{ id: string; invalid: string | null; alert: boolean }> {
  return page.evaluate(`(() => {
    const el = document.activeElement;
    return { id: el.id, invalid: el.getAttribute('aria-invalid'), alert: el.getAttribute('role') === 'alert' };
  })()`);
}

/** Whether the focus is inside the page's own content (main), past the header and navigation. */
function focusInMain(page: Page): Promise<boolean> {
  return page.evaluate<boolean>(`document.activeElement.closest('main') !== null`);
}

/** Presses the button and waits for the page its form leads to to load. */
async function send(page: Page, button: string): Promise<void> {
  await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: button }).click()]);
}

async function newGroup(name: string): Promise<number> {
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO authors_groups (organization_id, name) VALUES ($1, $2) RETURNING id`,
    [org.id, name],
  );
  return rows[0]!.id;
}

describe('a refused form comes back with the focus where the problem is', () => {
  it("a record's form: the first wrong field has the focus, the one lower down after it is corrected", async () => {
    await createCustomField(t.db, org.id, {
      owner: 'author_from_group',
      dataKind: 'number',
      name: 'Reviews done',
    });
    const groupId = await newGroup('Board');
    const page = await asEditor();
    await page.goto(`${t.url}/dashboard/groups/${groupId}/new-record/`);
    await page.getByLabel('Client id').fill('r1');
    await page.getByLabel('Name', { exact: true }).fill('Ada Expert');
    await page.getByRole('button', { name: 'Add record' }).click();
    await page.waitForURL(/\/records\/r1\/$/);

    // The same client id again, and a custom number that is not one: both marked, the first focused.
    await page.goto(`${t.url}/dashboard/groups/${groupId}/new-record/`);
    await page.getByLabel('Client id').fill('r1');
    await page.getByLabel('Name', { exact: true }).fill('Ada Again');
    await page.getByLabel('Reviews done').fill('lots');
    await send(page, 'Add record');
    await expect.poll(() => focused(page)).toEqual({ id: 'client_id', invalid: 'true', alert: false });
    // The title, said first as the page loads, says so too.
    expect(await page.title()).toBe('Not saved: Add a record to \u2068Board\u2069 · refmatch dashboard');
    await expectAccessible(page);

    // Only the custom number wrong, far down the form: the focus is there, the value as typed.
    await page.getByLabel('Client id').fill('r2');
    await send(page, 'Add record');
    const reviews = page.getByLabel('Reviews done');
    const reviewsId = await reviews.getAttribute('id');
    await expect.poll(() => focused(page)).toEqual({ id: reviewsId, invalid: 'true', alert: false });
    expect(await reviews.inputValue()).toBe('lots');
    // What is typed goes into the field at once, without a Tab.
    await page.keyboard.press('Control+A');
    await page.keyboard.type('3');
    await page.getByRole('button', { name: 'Add record' }).click();
    await page.waitForURL(/\/records\/r2\/$/);
  });

  it("a refusal that marks no field: the page's message has the focus, and the next Tab goes on from there", async () => {
    const fields = baseFields({ origin_id: 'focus-1', folder: 'FOCUS' });
    expect((await upload(t.app, { apiKey: org.apiKey, fields })).statusCode).toBe(200);
    const groupId = await newGroup('Soon deleted');
    const page = await asEditor();
    await page.goto(`${t.url}/dashboard/folders/`);
    await page.getByRole('link', { name: 'FOCUS' }).click();
    await page.getByLabel('Soon deleted').check();
    // Deleted meanwhile (another tab, another editor): refused with a message at the top (409).
    await t.db.query('DELETE FROM authors_groups WHERE id = $1', [groupId]);
    await send(page, 'Save referee finder settings');
    await expect.poll(() => focused(page)).toMatchObject({ alert: true });
    expect(await page.locator(':focus').textContent()).toContain('deleted meanwhile');
    await page.keyboard.press('Tab');
    // Past the message, inside the page's own content: not back through the header.
    expect(await focusInMain(page)).toBe(true);
    await expectAccessible(page);
  });

  it("a manuscript's refused custom value: the field has the focus, though the form's section is where the page comes back", async () => {
    await createCustomField(t.db, org.id, { owner: 'proposal', dataKind: 'number', name: 'Pages' });
    const fields = baseFields({ origin_id: 'focus-values', folder: 'FOCUS' });
    const upload1 = await upload(t.app, { apiKey: org.apiKey, fields });
    const id = (upload1.json() as { manuscript_id: number }).manuscript_id;
    const page = await asEditor();
    await page.goto(`${t.url}/dashboard/manuscripts/${id}/`);
    await page.getByLabel('Pages').fill('twelve');
    await send(page, 'Save custom fields');
    // Back at #custom-fields, the address's fragment, which Chromium lets win over the field's
    // autofocus: the focus stayed at the page's top, the skip link next.
    await expect.poll(() => focused(page)).toMatchObject({ invalid: 'true' });
    expect(await page.locator(':focus').inputValue()).toBe('twelve');
    expect(new URL(page.url()).hash).toBe('');
  });

  it('an address changed by hand, a page not allowed or not there: the refusal has the focus, the next Tab the way out', async () => {
    const page = await asEditor();
    for (const address of ['/dashboard/groups/?page=0', '/dashboard/manuscripts/abc/']) {
      await page.goto(`${t.url}${address}`);
      // It was at the page's top (a page asked for, not a form's answer): the skip link next.
      await expect.poll(() => focused(page)).toMatchObject({ alert: true });
      expect(await page.locator(':focus').textContent()).toContain('changed by hand, or cut short');
      await page.keyboard.press('Tab');
      expect(await focusInMain(page)).toBe(true);
      expect(await page.evaluate<string>('document.activeElement.tagName')).toBe('A');
    }
    await expectAccessible(page);
    // A page the role does not allow (an admin's link followed by an editor), or none at that address:
    // the refusal has the focus likewise.
    for (const [address, said] of [
      ['/dashboard/users/', 'does not allow this page'],
      ['/dashboard/no-such-page/', 'There is no page at /dashboard/no-such-page/'],
    ] as const) {
      await page.goto(`${t.url}${address}`);
      await expect.poll(() => focused(page)).toMatchObject({ alert: true });
      expect(await page.locator(':focus').textContent()).toContain(said);
    }
  });

  it('a refused sign-in: the email has the focus, as typed', async () => {
    const user = await createTestUser(t.db, org.id, 'viewer');
    const page = await (await t.browser.newContext()).newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${t.url}/dashboard/sign-in/`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('not the password');
    await send(page, 'Sign in');
    await expect.poll(() => focused(page)).toEqual({ id: 'email', invalid: 'true', alert: false });
    expect(await page.getByLabel('Email').inputValue()).toBe(user.email);
  });

  it('a page with a message that is no refusal has the focus on it, the next Tab in the page', async () => {
    const groupId = await newGroup('Renamed');
    const page = await asEditor();
    await page.goto(`${t.url}/dashboard/groups/${groupId}/`);
    await page.getByLabel('Group name').fill('Renamed again');
    await send(page, 'Rename');
    expect(await page.locator('.flash.ok').count()).toBe(1);
    expect(await page.title()).toBe('Authors group \u2068Renamed again\u2069 · refmatch dashboard');
    // Said first (a status present as the page loads is not announced unless focused), where the
    // focus was on the page itself, the skip link next: added-focus.browser.test.ts.
    expect(await focused(page)).toMatchObject({ id: '', alert: false });
    expect(await page.evaluate<string>('document.activeElement.getAttribute("role")')).toBe('status');
    await page.keyboard.press('Tab');
    expect(await focusInMain(page)).toBe(true);
  });
});

describe("a manuscript's saved custom values come back at their message, beside the fields", () => {
  /** The focused element's id and text, and whether it lies wholly in the screen. */
  const focusedInView = (page: Page) =>
    page.evaluate<{ id: string; text: string; inView: boolean }>(`(() => {
      const el = document.activeElement;
      const box = el.getBoundingClientRect();
      return {
        id: el.id,
        text: el.textContent.replace(/\\s+/g, ' ').trim(),
        inView: box.top >= 0 && box.bottom <= window.innerHeight,
      };
    })()`);

  it('the message has the focus, in view at 375 px, with the first field under it; a date sent empty is named', async () => {
    await createCustomField(t.db, org.id, { owner: 'proposal', dataKind: 'str', name: 'Handling note' });
    await createCustomField(t.db, org.id, { owner: 'proposal', dataKind: 'date', name: 'Decision due' });
    const fields = baseFields({ origin_id: 'saved-values', folder: 'SAVED' });
    const id = ((await upload(t.app, { apiKey: org.apiKey, fields })).json() as { manuscript_id: number })
      .manuscript_id;
    const page = await asEditor();
    await page.goto(`${t.url}/dashboard/manuscripts/${id}/`);
    await page.getByLabel('Handling note').fill('Ask the board');
    // A day that does not exist, set as a script sets it (a test driver, an extension): the input
    // holds no value, and the form sends the field empty. "Saved" alone said a date was stored.
    await page.getByLabel('Decision due').fill('2025-02-30');
    await send(page, 'Save custom fields');
    // At the message, under the section's heading: back at the heading, the message at the page's
    // top was out of view.
    const saved = await focusedInView(page);
    expect(saved).toMatchObject({ id: 'custom-fields-message', inView: true });
    expect(saved.text).toMatch(/custom fields were saved\. Empty now: .*Decision due.*\.$/);
    expect(saved.text).not.toContain('Handling note');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(`document.activeElement.id`)).toMatch(/^cf_/);
    // Said once: not at the page's top as well.
    expect(await page.locator('.flash').count()).toBe(1);
    await expectAccessible(page);

    // Typed by the keyboard, the day that does not exist is not sent at all: Chromium's own check of
    // the date input (its validity's badInput) stops the form and says why; nothing is saved.
    const due = page.getByLabel('Decision due');
    const dueId = await due.getAttribute('id');
    await due.focus();
    await page.keyboard.type('02302025');
    const before = page.url();
    await page.getByRole('button', { name: 'Save custom fields' }).click();
    expect(await page.evaluate(`document.getElementById(${JSON.stringify(dueId)}).validity.badInput`)).toBe(
      true,
    );
    expect(page.url()).toBe(before);
    await page.context().close();
  });
});
