// Names written right to left (Arabic, Persian, Hebrew) read right to left on the dashboard, in
// Chromium: a record's name in the group's table and as its page's heading, a manuscript's title in
// the list, its authors on its page. The pages are left to right: an Arabic title with a Latin word
// in it ("تحليل BERT للغة العربية") was laid out left to right by runs, so that read from the right
// it began with its last words.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, type TestOrg } from '../helpers/app.ts';
import { expectAccessible, signedInPage, useBrowserApp } from '../helpers/browser.ts';
import { baseFields, upload } from '../manuscripts/upload-helpers.ts';
import { createTestUser } from '../helpers/dashboard.ts';
import { disableUser } from '../../src/users/users.ts';

const t = useBrowserApp();
let org: TestOrg;

beforeAll(async () => {
  org = await createTestOrg(t);
});

async function asViewer(width: number): Promise<Page> {
  return signedInPage(t, org.id, 'viewer', { width });
}

/**
 * Where the first and the last character of `text` are drawn, left edges in px, in the first
 * element matching `selector` whose text holds `text` (across its text nodes: an address is split by
 * the `<wbr>` it may wrap at). Text that reads right to left has its last character left of its first.
 */
async function ends(page: Page, selector: string, text: string): Promise<{ first: number; last: number }> {
  const found = await page.evaluate<{ first: number; last: number } | null>(`(() => {
    for (const el of document.querySelectorAll(${JSON.stringify(selector)})) {
      const nodes = [];
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node);
      const at = nodes.map((node) => node.data).join('').indexOf(${JSON.stringify(text)});
      if (at < 0) continue;
      const left = (i) => {
        let node = 0;
        while (i >= nodes[node].data.length) i -= nodes[node++].data.length;
        const range = document.createRange();
        range.setStart(nodes[node], i);
        range.setEnd(nodes[node], i + 1);
        return range.getBoundingClientRect().left;
      };
      return { first: left(at), last: left(at + ${text.length} - 1) };
    }
    return null;
  })()`);
  expect(found, `${text} in ${selector}`).not.toBeNull();
  return found!;
}

describe('text that starts right to left', () => {
  it("a record's name with Latin letters in it reads right to left in the group's table and its heading, at 1280 and 375 px", async () => {
    const { rows } = await t.db.query<{ id: number }>(
      `INSERT INTO authors_groups (organization_id, name) VALUES ($1, 'Reviewers') RETURNING id`,
      [org.id],
    );
    const groupId = rows[0]!.id;
    const name = 'سارة الحسيني (Sara Al-Husseini)';
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/external/author-from-group/${groupId}/sara/`,
      headers: { 'x-apikey': org.apiKey },
      payload: { name, emails: ['sara@uni.example'] },
    });
    expect(res.statusCode, res.body).toBe(200);

    for (const width of [1280, 375]) {
      const page = await asViewer(width);
      await page.goto(`${t.url}/dashboard/groups/${groupId}/`);
      const cell = await ends(page, 'td', name);
      expect(cell.last, `the table at ${width} px`).toBeLessThan(cell.first);
      // A Latin cell beside it is unchanged: left to right, from the column's left.
      const email = await ends(page, 'td', 'sara@uni.example');
      expect(email.first).toBeLessThan(email.last);

      await page.getByRole('link', { name }).click();
      const heading = await ends(page, 'h1', name);
      expect(heading.last, `the heading at ${width} px`).toBeLessThan(heading.first);
      await expectAccessible(page);
    }
  });

  it("a manuscript's title in the list, and its authors on its page", async () => {
    const title = 'تحليل BERT للغة العربية';
    const fields = baseFields({ origin_id: 'rtl-1', title, author1_name: 'محمد علي (Cairo)' });
    const res = await upload(t.app, { apiKey: org.apiKey, fields });
    expect(res.statusCode, res.body).toBe(200);
    const page = await asViewer(1280);
    await page.goto(`${t.url}/dashboard/manuscripts/`);
    const listed = await ends(page, 'td', title);
    expect(listed.last).toBeLessThan(listed.first);
    await page.getByRole('link', { name: title }).click();
    const author = await ends(page, 'li', 'محمد علي (Cairo)');
    expect(author.last).toBeLessThan(author.first);
  });
});

// A name inside an English sentence or heading is isolated (`<bdi>`): an Arabic group name ending
// in a full stop had the stop drawn at its right, where Arabic begins, and the words after it joined
// its run.
describe('a right-to-left name inside an English sentence', () => {
  it("keeps its full stop at its own end, and the sentence's words and number after it, in the heading and the flash", async () => {
    const name = 'فريق المراجعين.';
    const { rows } = await t.db.query<{ id: number }>(
      `INSERT INTO authors_groups (organization_id, name) VALUES ($1, $2) RETURNING id`,
      [org.id, name],
    );
    const groupId = rows[0]!.id;
    for (const clientId of ['a1', 'a2', 'a3']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/external/author-from-group/${groupId}/${clientId}/`,
        headers: { 'x-apikey': org.apiKey },
        payload: { name: `Author ${clientId}` },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const page = await signedInPage(t, org.id, 'editor', { width: 1280 });
    await page.goto(`${t.url}/dashboard/groups/${groupId}/`);
    // Read from the right, as Arabic is: the full stop (the name's last letter) is drawn left of its first.
    const heading = await ends(page, 'h1', name);
    expect(heading.last, 'the full stop in the heading').toBeLessThan(heading.first);
    // "Authors group " stays before the name, at the left.
    const lead = await ends(page, 'h1', 'Authors group ');
    expect(lead.last).toBeLessThan(Math.min(heading.first, heading.last));

    await page.getByRole('button', { name: 'Delete group' }).click();
    await page.getByRole('button', { name: 'Delete group and its records' }).click();
    await page.waitForURL(`${t.url}/dashboard/groups/`);
    const named = await ends(page, '.flash', name);
    expect(named.last, 'the full stop in the flash').toBeLessThan(named.first);
    // The rest of the sentence follows the whole name, left to right, its number in place.
    const rest = await ends(page, '.flash', ' was deleted, with 3 records.');
    expect(rest.first).toBeGreaterThan(Math.max(named.first, named.last));
    const three = await ends(page, '.flash', '3 records');
    expect(three.first).toBeGreaterThan(rest.first);
    expect(three.last).toBeGreaterThan(three.first);
    await expectAccessible(page);
  });
});

/** The accessible names of the page's buttons, as Chromium hands them to a screen reader. */
async function buttonNames(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
    nodes: Array<{ ignored: boolean; role?: { value: string }; name?: { value: string } }>;
  };
  await cdp.detach();
  return nodes.filter((n) => !n.ignored && n.role?.value === 'button').map((n) => n.name?.value ?? '');
}

// A row's button named for a screen reader (`actionButton`'s accessible name) names a user-written
// value: isolated for direction by `<bdi>` in its hidden text. Given as `aria-label`, with U+2068 and
// U+2069 around the name, those two characters were in the name Chromium hands a screen reader
// ("Revoke key ⁨مفتاح الإنتاج.⁩, rm_…"), which a braille display may show.
describe("a row's button named for a screen reader", () => {
  it('says a right-to-left name without isolate characters, the name isolated in <bdi>', async () => {
    const label = 'مفتاح الإنتاج.';
    const { rows } = await t.db.query<{ key_id: string }>(
      'UPDATE api_keys SET label = $1 WHERE organization_id = $2 RETURNING key_id',
      [label, org.id],
    );
    const keyId = rows[0]!.key_id;
    const away = await createTestUser(t.db, org.id, 'viewer', 'away.reader@rtl.example');
    await disableUser(t.db, away.id);
    await createTestUser(t.db, org.id, 'editor', 'editor.here@rtl.example');
    const admin = await signedInPage(t, org.id, 'integrations_admin', { width: 1280 });

    await admin.goto(`${t.url}/dashboard/api-keys/`);
    const keys = await buttonNames(admin);
    expect(keys).toContain(`Revoke key ${label}, rm_${keyId}`);
    const revoke = admin.getByRole('button', { name: `Revoke key ${label}, rm_${keyId}` });
    expect(await revoke.locator('bdi').innerText()).toBe(label);
    // Seen, the button says "Revoke" alone, as it did.
    expect(await revoke.locator('[aria-hidden="true"]').innerText()).toBe('Revoke');

    await admin.goto(`${t.url}/dashboard/users/`);
    const users = await buttonNames(admin);
    expect(users).toContain('Disable editor.here@rtl.example');
    expect(users).toContain('Enable away.reader@rtl.example with a new one-time password');
    for (const name of [...keys, ...users]) expect(name, name).not.toMatch(/[\u2066-\u2069]/);
    await expectAccessible(admin);
    await admin.context().close();
  });
});
