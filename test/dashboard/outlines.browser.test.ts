// Focus outlines at a desktop width (1280 × 800) in Chromium: a control reached by Tab whose box
// ends at the screen's foot (or starts at its top) is brought wholly into view with its outline
// (3 px, 2 px away), not left where it was because its box, or all but a fraction of a pixel of it,
// showed.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, type TestOrg } from '../helpers/app.ts';
import { signedInPage, useBrowserApp } from '../helpers/browser.ts';
import { rankingFields, upload } from '../manuscripts/upload-helpers.ts';
import { buildCorpus, TOPIC } from '../referee-finder/fixtures.ts';

const t = useBrowserApp();
let org: TestOrg;

beforeAll(async () => {
  await buildCorpus(t.db, [
    { authors: [{ name: 'Ada Expert' }, { name: 'Cole Coauthor' }] },
    { authors: [{ name: 'Nell Neutral' }] },
    { authors: [{ name: 'Nell Neutral' }, { name: 'Cole Coauthor' }] },
  ]);
  await t.app.refmatch.index.refresh();
  org = await createTestOrg(t);
});

/**
 * Each control of `selector`, placed with its box `from` px past the screen's lower edge (negative:
 * inside it) or, `edge: 'top'`, past the upper one, then reached by Tab (Shift+Tab from below, at the
 * top) from its neighbour: the ones whose outline is then cut by the screen's edge.
 */
async function cutOutlines(
  page: Page,
  selector: string,
  edge: 'top' | 'bottom',
  from: number,
): Promise<string[]> {
  const count = await page.locator(selector).count();
  // Room below the page's foot, so that a control near it can be scrolled to the screen's top: how
  // far a page of three candidates reaches below its last rows depends on the fonts the machine has.
  if (edge === 'top') await page.evaluate(`document.body.style.paddingBottom = '100vh'`);
  const cut: string[] = [];
  let tried = 0;
  for (let i = 0; i < count; i++) {
    const placed = await page.evaluate<boolean>(`(() => {
      const el = document.querySelectorAll(${JSON.stringify(selector)})[${i}];
      // The controls Tab goes through: a form's hidden inputs take no focus (a neighbour that cannot
      // be focused left Tab to start from the page's top).
      const all = [...document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary')];
      const neighbour = all[all.indexOf(el) + (${JSON.stringify(edge)} === 'bottom' ? -1 : 1)];
      if (!neighbour) return false;
      neighbour.focus({ preventScroll: true });
      const box = el.getBoundingClientRect();
      const by = ${JSON.stringify(edge)} === 'bottom' ? box.bottom - innerHeight - ${from} : box.top + ${from};
      window.scrollBy(0, by);
      const now = el.getBoundingClientRect();
      // Scroll offsets are whole pixels: within one of the place asked, and the outline then cut.
      const past = ${JSON.stringify(edge)} === 'bottom' ? now.bottom - innerHeight : -now.top;
      return Math.abs(past - ${from}) <= 1 && past > -5;
    })()`);
    // Near the page's top or foot, it cannot be scrolled there.
    if (!placed) continue;
    tried++;
    await page.keyboard.press(edge === 'bottom' ? 'Tab' : 'Shift+Tab');
    const at = await page.evaluate<{ name: string; top: number; bottom: number }>(`(() => {
      const box = document.activeElement.getBoundingClientRect();
      return { name: document.activeElement.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40), top: box.top - 5, bottom: box.bottom + 5 };
    })()`);
    if (at.top < 0 || at.bottom > (await page.evaluate<number>('innerHeight')))
      cut.push(`${at.name}: ${at.top.toFixed(1)}..${at.bottom.toFixed(1)}`);
  }
  // Several were placed so (those in the page's first screen cannot be, at its foot); a test of none
  // would pass.
  expect(tried).toBeGreaterThanOrEqual(5);
  return cut;
}

describe('focus outlines at 1280 px', () => {
  it("a candidate's links and buttons reached by Tab at the screen's foot or top show their whole outline", async () => {
    const fields = rankingFields({ origin_id: 'ms-outline', abstract: TOPIC, author1_name: 'Someone Else' });
    const res = await upload(t.app, { apiKey: org.apiKey, fields });
    expect(res.statusCode, res.body).toBe(200);
    const { manuscript_id: id } = res.json() as { manuscript_id: number };
    const editor = await signedInPage(t, org.id, 'editor', { width: 1280 });
    await editor.goto(`${t.url}/dashboard/manuscripts/${id}/`);
    const controls = 'table.candidates a[href], table.candidates button, table.candidates summary';
    // Its box in view, ending 2 px above the screen's foot (the outline's 5 px cut by 3), or 0.3 px
    // below it (round 16's two-line article link): Chromium counted it as showing and left it there.
    expect(await cutOutlines(editor, controls, 'bottom', -2)).toEqual([]);
    expect(await cutOutlines(editor, controls, 'bottom', 0.3)).toEqual([]);
    // Back up with Shift+Tab, at the screen's top.
    expect(await cutOutlines(editor, controls, 'top', -2)).toEqual([]);
    await editor.context().close();
  });
});
