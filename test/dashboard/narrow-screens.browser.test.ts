// The dashboard read on a phone-wide screen (375 px) in Chromium: what the tables say is read word
// by word, not broken mid-word into columns a few letters wide, each row's cells from its top; a
// search low on a long page answers in view. And on a laptop's (1024 px), a candidate's articles
// read word by word too.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, type TestOrg } from '../helpers/app.ts';
import { expectAccessible, signedInPage, useBrowserApp } from '../helpers/browser.ts';
import { createTestUser } from '../helpers/dashboard.ts';
import { createGroup } from '../../src/authors-groups/store.ts';
import { baseFields, rankingFields, upload } from '../manuscripts/upload-helpers.ts';
import { buildCorpus, TOPIC } from '../referee-finder/fixtures.ts';
import type { Role } from '../../src/users/roles.ts';

const t = useBrowserApp();
let org: TestOrg;
const LONG_NAME = 'Jürgen Groß-Überschwänglichkeitsmann';

beforeAll(async () => {
  await buildCorpus(t.db, [
    // Titles with words of 14 and 15 letters, as real titles have.
    {
      authors: [{ name: LONG_NAME }, { name: 'Ada Expert' }],
      title: 'Hyperparameter optimization of message passing graph neural networks for molecules',
    },
    {
      authors: [{ name: 'Nell Neutral' }],
      title: 'Representations of molecular graphs learned by message passing neural networks',
    },
  ]);
  await t.app.refmatch.index.refresh();
  org = await createTestOrg(t);
});

async function onPhone(role: Role, email?: string): Promise<Page> {
  return signedInPage(t, org.id, role, { width: 375, ...(email ? { email } : {}) });
}

/**
 * The words (between spaces and hyphens) of the selected cells that the layout broke across two
 * lines or more: a word whose boxes lie at different heights.
 */
async function brokenWords(page: Page, selector: string, word = '[^\\s-]+'): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const broken = [];
    for (const cell of document.querySelectorAll(${JSON.stringify(selector)})) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const m of node.data.matchAll(new RegExp(${JSON.stringify(word)}, 'g'))) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (tops.size > 1) broken.push(m[0]);
        }
      }
    }
    return broken;
  })()`);
}

/** The text of each line the cell of `selector` holding `text` is drawn on, as a reader sees it. */
async function linesOf(page: Page, selector: string, text: string): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const lines = new Map();
    const cell = [...document.querySelectorAll(${JSON.stringify(selector)})].find(
      (c) => c.textContent.trim() === ${JSON.stringify(text)},
    );
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.data.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const box = range.getClientRects()[0];
        if (!box) continue;
        const top = Math.round(box.top);
        lines.set(top, (lines.get(top) ?? '') + node.data[i]);
      }
    }
    return [...lines.entries()].sort((a, b) => a[0] - b[0]).map(([, text]) => text.trim()).filter(Boolean);
  })()`);
}

async function pageOverflow(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
}

describe('the candidates on a laptop screen (1024 px)', () => {
  it("a candidate's articles keep their words whole, their column 12rem wide at least", async () => {
    const fields = rankingFields({ origin_id: 'ms-laptop', abstract: TOPIC, author1_name: 'Someone Else' });
    const res = await upload(t.app, { apiKey: org.apiKey, fields });
    expect(res.statusCode, res.body).toBe(200);
    const { manuscript_id: id } = res.json() as { manuscript_id: number };
    const editor = await signedInPage(t, org.id, 'editor', { width: 1024 });
    await editor.goto(`${t.url}/dashboard/manuscripts/${id}/`);
    // Words broken anywhere (the page's rule above a phone's width) let the column shrink beside the
    // buttons' (kept on one line): with the demo corpus at 1280 px, 180 px, "Hyperparamete/r".
    const width = await editor.evaluate<number>(
      "document.querySelector('table.candidates td.evidence').getBoundingClientRect().width",
    );
    expect(await brokenWords(editor, 'table.candidates td.evidence li')).toEqual([]);
    expect(width).toBeGreaterThanOrEqual(12 * 16 - 1);
    // Within the page: it does not scroll sideways for it.
    expect(await pageOverflow(editor)).toBeLessThanOrEqual(0);
    // What was supplied, parsed and used is a table side by side here, each cell of the abstract's
    // row starting at the row's top, read across: what was supplied sat centred, halfway down beside
    // the abstract used.
    const firstLines = await editor.evaluate<number[]>(`(() => {
      const row = [...document.querySelectorAll('main table.stacked tr')].find((r) => r.cells[0].textContent.trim() === 'Abstract');
      return [...row.cells].map((cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        return Math.round(range.getClientRects()[0].top);
      });
    })()`);
    expect(firstLines).toHaveLength(4);
    expect(Math.max(...firstLines) - Math.min(...firstLines)).toBeLessThanOrEqual(2);
    expect(await editor.locator('main table.stacked .cell-label').first().isVisible()).toBe(false);
    await editor.context().close();
  });
});

describe('tables at 375 px', () => {
  it("a manuscript's candidates and what was supplied keep their words whole, each cell from its row's top; rows stay short", async () => {
    const fields = rankingFields({ origin_id: 'ms-phone', abstract: TOPIC, author1_name: 'Someone Else' });
    const res = await upload(t.app, { apiKey: org.apiKey, fields });
    expect(res.statusCode, res.body).toBe(200);
    const { manuscript_id: id } = res.json() as { manuscript_id: number };

    const editor = await onPhone('editor');
    await editor.goto(`${t.url}/dashboard/manuscripts/${id}/`);
    await expectAccessible(editor);
    expect(await editor.locator('table.candidates').innerText()).toContain(LONG_NAME);
    // Broken anywhere, the name column was 61 px wide: "Übers/chwän/glick/eitsm/ann", and the
    // abstract read "networ/ks", "molecul/ar".
    expect(await brokenWords(editor, 'table.candidates tbody td:first-child')).toEqual([]);
    expect(await brokenWords(editor, 'main table:first-of-type td')).toEqual([]);
    // The evidence column has room: a candidate's row was 947 px tall, now under 400.
    const heights = await editor.evaluate<number[]>(
      "[...document.querySelectorAll('table.candidates tbody tr')].map((r) => r.offsetHeight)",
    );
    expect(heights.length).toBeGreaterThan(0);
    expect(Math.max(...heights)).toBeLessThan(400);
    // The candidates' table scrolls within the page; the page itself does not.
    expect(await pageOverflow(editor)).toBeLessThanOrEqual(0);
    // What was supplied, parsed and used reads without sideways scrolling: each row's cells one under
    // another, each led by its column's name. Side by side, the table was 453 px wide and main
    // scrolled sideways for it (with an upload's author emails, 600 px and more).
    const supplied = editor.locator('main table.stacked');
    expect(await supplied.evaluate((t) => t.getBoundingClientRect().right)).toBeLessThanOrEqual(375);
    expect(await supplied.evaluate((t) => t.scrollWidth - t.clientWidth)).toBeLessThanOrEqual(0);
    const abstract = await editor.evaluate<Array<{ left: number; top: number; text: string }>>(`(() => {
      const row = [...document.querySelectorAll('main table.stacked tr')].find((r) => r.cells[0].textContent.trim() === 'Abstract');
      return [...row.cells].map((cell) => ({ left: Math.round(cell.getBoundingClientRect().left), top: Math.round(cell.getBoundingClientRect().top), text: cell.innerText.trim() }));
    })()`);
    expect(abstract.map((c) => c.text.split('\n')[0])).toEqual(['Abstract', 'Supplied', 'Parsed', 'Used']);
    expect(new Set(abstract.map((c) => c.left)).size).toBe(1);
    expect(abstract.map((c) => c.top)).toEqual([...abstract.map((c) => c.top)].sort((a, b) => a - b));
    // Main itself does not scroll sideways for it: the candidates' table is the only one wider.
    const wider = await editor.evaluate<string[]>(`(() => {
      const main = document.querySelector('main');
      return [...main.querySelectorAll('table')].filter((t) => t.getBoundingClientRect().right > 375).map((t) => t.className || t.caption.textContent.trim());
    })()`);
    expect(wider).toEqual(['candidates']);
    await expectAccessible(editor);
    await editor.context().close();
  });

  it('a "Mark as referee" reached by Tab is scrolled wholly into view, in the table that scrolls sideways', async () => {
    const fields = rankingFields({ origin_id: 'ms-tab', abstract: TOPIC, author1_name: 'Someone Else' });
    const res = await upload(t.app, { apiKey: org.apiKey, fields });
    expect(res.statusCode, res.body).toBe(200);
    const { manuscript_id: id } = res.json() as { manuscript_id: number };
    const editor = await onPhone('editor');
    await editor.goto(`${t.url}/dashboard/manuscripts/${id}/`);
    const marks = editor.getByRole('button', { name: /Mark as referee/ });
    expect(await marks.count()).toBeGreaterThan(0);
    // Tabbed to from the control before it, as a keyboard user reaches it.
    await editor.evaluate(`(() => {
      const all = [...document.querySelectorAll('a[href], button, input, select, textarea')];
      const mark = [...document.querySelectorAll('table.candidates button')].find((b) => b.textContent.includes('Mark as referee'));
      all[all.indexOf(mark) - 1].focus();
    })()`);
    /** The focused control's text, and whether it lies wholly inside the viewport and `main`. */
    const focused = () =>
      editor.evaluate<{ text: string; inTable: boolean; shown: boolean }>(`(() => {
        const el = document.activeElement;
        const box = el.getBoundingClientRect();
        const main = document.querySelector('main').getBoundingClientRect();
        const shown = box.left >= Math.max(0, main.left) && box.right <= Math.min(document.documentElement.clientWidth, main.right)
          && box.top >= 0 && box.bottom <= window.innerHeight;
        return { text: el.textContent.trim().replace(/\\s+/g, ' '), inTable: !!el.closest('table.candidates'), shown };
      })()`);
    // Before, Chromium left the button where it was when 32 px of it or more showed: "Mark as refe".
    let checked = 0;
    for (let tab = 0; tab < 40 && checked < (await marks.count()); tab++) {
      await editor.keyboard.press('Tab');
      const now = await focused();
      if (!now.text.includes('Mark as referee')) continue;
      checked++;
      expect(now.shown, now.text).toBe(true);
    }
    // Back with Shift+Tab: each button of the rows (Mark, Flag a conflict) wholly shown too.
    for (let tab = 0; tab < 40; tab++) {
      await editor.keyboard.press('Shift+Tab');
      const now = await focused();
      if (!now.inTable) break;
      if (/Mark as referee|Flag a conflict/.test(now.text))
        expect(now.shown, `back to ${now.text}`).toBe(true);
    }
    expect(checked).toBeGreaterThan(0);
    await editor.context().close();
  });

  it("a phone's screen (375 × 667): every field reached by Tab is wholly in view with its outline, textareas too", async () => {
    const group = await createGroup(t.db, org.id, `Phone typing ${Date.now()}`);
    const editor = await onPhone('editor');
    await editor.setViewportSize({ width: 375, height: 667 });
    for (const page of ['import', 'new-record']) {
      await editor.goto(`${t.url}/dashboard/groups/${group.group_id}/${page}/`);
      const cut: string[] = [];
      for (let tab = 0; tab < 40; tab++) {
        await editor.keyboard.press('Tab');
        // The control with its focus outline (3 px, 2 px away), when it fits on the screen.
        const at = await editor.evaluate<{
          id: string;
          top: number;
          bottom: number;
          fits: boolean;
        } | null>(`(() => {
          const el = document.activeElement;
          if (el === document.body) return null;
          const box = el.getBoundingClientRect();
          return { id: el.id || el.textContent.trim(), top: box.top - 5, bottom: box.bottom + 5, fits: box.height + 10 <= innerHeight };
        })()`);
        if (at === null) break;
        if (at.fits && (at.top < 0 || at.bottom > 667)) cut.push(`${page} ${at.id} ${at.top}..${at.bottom}`);
      }
      // Chromium left a control where it was when a few pixels of it showed: the import's CSV field
      // with its top lines at the screen's foot, a record's emails and the Add record button cut.
      expect(cut).toEqual([]);
    }
    await editor.context().close();
  });

  it("a folder's journal search opens at its matches, not at the page's top", async () => {
    const fields = baseFields({ origin_id: 'ms-folder', abstract: TOPIC, folder: 'JPHONE' });
    expect((await upload(t.app, { apiKey: org.apiKey, fields })).statusCode).toBe(200);
    // As long as the ACL Anthology's titles and catalogue ids, with works over some years.
    const { rows } = await t.db.query<{ id: number }>(
      `INSERT INTO sources (source_key, title, publisher)
       VALUES ('acl:venue/findings-phone-reading', 'Transactions of the Association for Phone Reading and Computational Linguistics', 'Association for Phone Reading')
       RETURNING id`,
    );
    for (const year of [2023, 2025]) {
      await t.db.query(
        `INSERT INTO works (work_key, title, publication_year, source_id) VALUES ($1, 'Reading on phones', $2, $3)`,
        [`phone:${year}`, year, rows[0]!.id],
      );
    }
    const manager = await onPhone('account_manager');
    await manager.goto(`${t.url}/dashboard/folders/`);
    await manager.getByRole('link', { name: 'JPHONE' }).click();
    await manager.getByLabel('Find a journal to link').fill('phone reading');
    await manager.getByRole('button', { name: 'Find' }).click();
    await manager.waitForLoadState();
    await expectAccessible(manager);
    // The answer opened at the top, its matches two screens down: Find seemed to do nothing.
    const matches = manager.getByRole('table', { name: /Journals matching/ });
    expect(await matches.innerText()).toContain('Transactions of the Association for Phone Reading');
    const box = (await matches.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y).toBeLessThan(800);
    // The Link button, the search's point, in view without scrolling sideways: it was the last of
    // four columns, past the screen's right edge, beside a title as long as the ACL Anthology's.
    const link = manager.getByRole('button', {
      name: /^Link \u2068?Transactions of the Association for Phone Reading/,
    });
    const button = (await link.boundingBox())!;
    expect(button.x).toBeGreaterThanOrEqual(0);
    expect(button.x + button.width).toBeLessThanOrEqual(375);
    await link.click();
    await manager.waitForLoadState();
    const unlink = manager.getByRole('button', {
      name: /^Unlink \u2068?Transactions of the Association for Phone Reading/,
    });
    const unlinkBox = (await unlink.boundingBox())!;
    expect(unlinkBox.x + unlinkBox.width).toBeLessThanOrEqual(375);
    await manager.context().close();
  });

  it("the users table reads each person's email whole", async () => {
    const admin = await onPhone('integrations_admin');
    await createTestUser(t.db, org.id, 'editor', 'miriam.okonkwo-abernathy@editorial-office.example.org');
    await admin.goto(`${t.url}/dashboard/users/`);
    await expectAccessible(admin);
    // Broken anywhere, "editor.1.4242@example.org" read "editor./1.424/2@e/xampl/e.org".
    expect(await brokenWords(admin, 'main table tbody td:first-child')).toEqual([]);
    expect(await pageOverflow(admin)).toBeLessThanOrEqual(0);
    await admin.context().close();
  });

  it('an email wraps only where it must: after the @, its domain whole, not at every dot', async () => {
    const admin = await onPhone('integrations_admin');
    await createTestUser(t.db, org.id, 'viewer', 'office@demo.refmatch.example');
    await admin.goto(`${t.url}/dashboard/users/`);
    // The column is as narrow as its longest unbreakable piece: free to wrap before every dot, the
    // demo admin's address read "admin@ / demo / .refmatch / .example".
    expect(await linesOf(admin, 'main table td.address', 'office@demo.refmatch.example')).toEqual([
      'office@',
      'demo.refmatch.example',
    ]);
    await admin.context().close();
  });
});

describe('the header at 375 px', () => {
  it("reads the signed-in user's long email wrapped where an address may wrap, each part whole", async () => {
    const email = 'managing.editor.of.the.journal@editorialoffice.publisher.example';
    const viewer = await onPhone('viewer', email);
    await viewer.goto(`${t.url}/dashboard/`);
    // Broken anywhere, the header read "…@editorialoffice.publisher.example.or / g" (round 31).
    expect(await brokenWords(viewer, 'header.top .who', '[^\\s@.-]+')).toEqual([]);
    expect(await viewer.locator('header.top .who .address').innerText()).toBe(email);
    expect(await pageOverflow(viewer)).toBeLessThanOrEqual(0);
    await viewer.context().close();
  });
});

describe('the users table at 1280 px', () => {
  it('reads a long email wrapped where an address may wrap, after the @ or before a dot, each part whole', async () => {
    const admin = await signedInPage(t, org.id, 'integrations_admin', { width: 1280 });
    const email =
      'editor.of.the.journal.of.computational.linguistics.and.speech@editorialoffice.publisher.example';
    await createTestUser(t.db, org.id, 'editor', email);
    await admin.goto(`${t.url}/dashboard/users/`);
    const cell = admin.locator('main table tbody td:first-child', { hasText: 'computational' });
    // The parts between the @, the dots and the hyphens each on one line: broken anywhere, the
    // squeezed column read "…publisher.exampl / e".
    expect(await brokenWords(admin, 'main table tbody td:first-child', '[^\\s@.-]+')).toEqual([]);
    // What is copied is the address as it is.
    expect(await cell.innerText()).toBe(email);
    expect(await pageOverflow(admin)).toBeLessThanOrEqual(0);
    await admin.context().close();
  });
});

describe('text fields at 375 px', () => {
  it('every field typed into is drawn as the others: the text size of the page, a border, room to tap', async () => {
    const group = await t.db.query<{ group_id: number }>(
      `INSERT INTO authors_groups (organization_id, name) VALUES ($1, 'Fields') RETURNING id AS group_id`,
      [org.id],
    );
    const pages: Array<[Role, string[]]> = [
      [
        'integrations_admin',
        [
          '/dashboard/api-keys/',
          '/dashboard/users/',
          '/dashboard/webhooks/',
          '/dashboard/settings/',
          '/dashboard/password/',
        ],
      ],
      [
        'editor',
        [
          '/dashboard/custom-fields/',
          '/dashboard/groups/',
          `/dashboard/groups/${group.rows[0]!.group_id}/`,
          `/dashboard/groups/${group.rows[0]!.group_id}/new-record/`,
          '/dashboard/folders/',
          '/dashboard/manuscripts/',
        ],
      ],
    ];
    const odd: string[] = [];
    for (const [role, paths] of pages) {
      const page = await onPhone(role);
      for (const path of paths) {
        await page.goto(`${t.url}${path}`);
        const found = await page.evaluate<string[]>(`(() => {
          const body = parseFloat(getComputedStyle(document.body).fontSize);
          const out = [];
          for (const el of document.querySelectorAll('main input, main select, main textarea')) {
            if (['checkbox', 'radio', 'hidden', 'file', 'submit'].includes(el.type)) continue;
            const style = getComputedStyle(el);
            const height = el.getBoundingClientRect().height;
            if (parseFloat(style.fontSize) !== body || style.borderTopWidth !== '1px' || height < 32) {
              out.push(el.id + ' ' + style.fontSize + ' ' + style.borderTopWidth + ' ' + Math.round(height) + 'px');
            }
          }
          return out;
        })()`);
        odd.push(...found.map((f) => `${path} ${f}`));
      }
      await page.context().close();
    }
    // The API key's label, an input without a type, was drawn by the browser's defaults: 13 px text
    // in a field 21 px tall, beside fields of 16 px text and 38 px.
    expect(odd).toEqual([]);
  });
});
