// The groups page in Chromium, by keyboard: the "Add group" form is reached in a few Tabs from the
// page's top, before the list's 100 rows (it sat after them, some 110 Tabs away).
import { describe, expect, it } from 'vitest';
import { createTestOrg } from '../helpers/app.ts';
import { signedInPage, useBrowserApp } from '../helpers/browser.ts';

const t = useBrowserApp();

describe('the groups page by keyboard', () => {
  it('reaches the group name field before any row of a full page of groups', async () => {
    const org = await createTestOrg(t);
    await t.db.query(
      `INSERT INTO authors_groups (organization_id, name) SELECT $1, 'G' || lpad(g::text, 4, '0') FROM generate_series(1, 150) g`,
      [org.id],
    );
    const page = await signedInPage(t, org.id, 'editor');
    await page.goto(`${t.url}/dashboard/groups/`);
    const order: string[] = [];
    for (let i = 0; i < 200; i++) {
      await page.keyboard.press('Tab');
      const at = await page.evaluate(
        `(() => { const el = document.activeElement; return el.id || el.textContent.trim(); })()`,
      );
      order.push(String(at));
      if (at === 'group-name') break;
    }
    expect(order.at(-1)).toBe('group-name');
    // No group's link comes before it, and it is a few Tabs in (skip link, header, navigation).
    expect(order.filter((text) => /^G\d{4}$/.test(text))).toEqual([]);
    expect(order.length).toBeLessThan(30);
    // Typed and sent with Enter, the group is added.
    await page.keyboard.type('Keyboard pool');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/dashboard\/groups\/\d+\/$/);
    expect(await page.locator('h1').textContent()).toContain('Keyboard pool');
  });
});
