// Accessibility, walked in Chromium at 375 and 1280 px (docs/dashboard.md, "Accessibility"): every
// page each role reaches (an editor, an integrations admin, an account manager, a viewer), listed
// once in PAGES, has no axe-core violation of any impact and is Tabbed round; and an editor's main work done with the keyboard alone (sign in, upload a
// manuscript, read the candidates, mark and flag a referee, export, add a group record), each stop
// of the focus visible and in view, no trap, each refusal said and tied to its field.
// With AXE_REPORT=1 every violation found, of any impact, is printed by rule, page and width.
import type { FileChooser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, type TestOrg } from '../helpers/app.ts';
import { axeViolations, signIn, signedInPage, useBrowserApp, type AxeViolation } from '../helpers/browser.ts';
import { createTestUser, injectForm, signInAs, TEST_PASSWORD } from '../helpers/dashboard.ts';
import { rankingFields, upload } from '../manuscripts/upload-helpers.ts';
import { buildCorpus, TOPIC } from '../referee-finder/fixtures.ts';
import { createGroup } from '../../src/authors-groups/store.ts';
import { createCustomField } from '../../src/custom-fields/store.ts';
import { linkJournal } from '../../src/journals/links.ts';
import type { Role } from '../../src/users/roles.ts';

const t = useBrowserApp();
let org: TestOrg;

/** What the pages' addresses need: one of each thing the organization holds. */
interface Held {
  groupId: number;
  clientId: string;
  fieldId: string;
  folderId: number;
  manuscriptId: number;
  /** A journal's title word, which the folder's journal search finds (linked, and one not). */
  journalWord: string;
}
let held: Held;

/** Every role: the pages all of them read. */
const EVERY_ROLE: readonly Role[] = ['editor', 'integrations_admin', 'account_manager', 'viewer'];

/**
 * Every page each role reaches (the signed-out sign-in page aside, walked as the first of the
 * keyboard's), each with the roles it is checked as: the one list the axe test walks.
 */
const PAGES: ReadonlyArray<{ path: (h: Held) => string; roles: readonly Role[] }> = [
  { path: () => '/dashboard/', roles: EVERY_ROLE },
  { path: () => '/dashboard/settings/', roles: EVERY_ROLE },
  { path: () => '/dashboard/api-keys/', roles: ['integrations_admin'] },
  { path: () => '/dashboard/users/', roles: ['integrations_admin'] },
  { path: () => '/dashboard/webhooks/', roles: ['integrations_admin'] },
  { path: () => '/dashboard/custom-fields/', roles: EVERY_ROLE },
  { path: (h) => `/dashboard/custom-fields/${h.fieldId}/`, roles: ['editor', 'viewer'] },
  { path: () => '/dashboard/groups/', roles: EVERY_ROLE },
  { path: (h) => `/dashboard/groups/${h.groupId}/`, roles: EVERY_ROLE },
  { path: (h) => `/dashboard/groups/${h.groupId}/new-record/`, roles: ['editor'] },
  { path: (h) => `/dashboard/groups/${h.groupId}/records/${h.clientId}/`, roles: ['editor', 'viewer'] },
  { path: (h) => `/dashboard/groups/${h.groupId}/import/`, roles: ['editor'] },
  { path: () => '/dashboard/folders/', roles: EVERY_ROLE },
  { path: (h) => `/dashboard/folders/${h.folderId}/`, roles: EVERY_ROLE },
  // The account manager's work: a journal found, one to link and one linked.
  {
    path: (h) => `/dashboard/folders/${h.folderId}/?journal=${h.journalWord}#linked-journals`,
    roles: ['account_manager'],
  },
  { path: () => '/dashboard/manuscripts/', roles: EVERY_ROLE },
  { path: () => '/dashboard/manuscripts/upload/', roles: ['editor'] },
  { path: (h) => `/dashboard/manuscripts/${h.manuscriptId}/`, roles: EVERY_ROLE },
  { path: () => '/dashboard/password/', roles: EVERY_ROLE },
];

const WIDTHS = [375, 1280] as const;
const SKIP_LINK = 'Skip to content';

beforeAll(async () => {
  await buildCorpus(t.db, [
    { authors: [{ name: 'Ada Expert' }] },
    { authors: [{ name: 'Nell Neutral' }] },
    { authors: [{ name: 'Gus Member' }] },
  ]);
  await t.app.refmatch.index.refresh();
  org = await createTestOrg(t);
  const editor = await signInAs(t, org.id, 'editor');
  const group = await createGroup(t.db, org.id, 'Reviewer pool');
  const field = await createCustomField(t.db, org.id, {
    owner: 'author_from_group',
    dataKind: 'single_option',
    name: 'Career stage',
    options: ['Early', 'Senior'],
  });
  for (const owner of ['folder', 'proposal'] as const)
    await createCustomField(t.db, org.id, { owner, dataKind: 'str', name: `Handling ${owner}` });
  const added = await injectForm(t.app, editor, `/dashboard/groups/${group.group_id}/records/`, {
    client_id: 'rp-1',
    name: 'Gus Member',
  });
  expect(added.statusCode).toBe(303);
  const uploaded = await upload(t.app, {
    apiKey: org.apiKey,
    fields: rankingFields({ origin_id: 'A11Y-1', abstract: TOPIC, author1_name: 'Someone Else' }),
  });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  const { rows } = await t.db.query<{ id: number; folder_id: number }>(
    'SELECT id, folder_id FROM manuscripts WHERE organization_id = $1',
    [org.id],
  );
  // Two journals of the corpus with the manuscript's articles: one linked to its folder.
  const { rows: journals } = await t.db.query<{ id: number }>(
    `INSERT INTO sources (source_key, title, type)
     VALUES ('test:a11y-1', 'Journal of Molecular Graphs', 'journal'), ('test:a11y-2', 'Molecular Graph Letters', 'journal')
     RETURNING id`,
  );
  await t.db.query('UPDATE works SET source_id = $1', [journals[1]!.id]);
  await linkJournal(t.db, org.id, 'JOUR', journals[0]!.id);
  held = {
    journalWord: 'molecular',
    groupId: group.group_id,
    clientId: 'rp-1',
    fieldId: field.api_id,
    folderId: rows[0]!.folder_id,
    manuscriptId: rows[0]!.id,
  };
});

/** Each violation of the page, by rule, for the report (AXE_REPORT=1); the test fails on any. */
const found: string[] = [];

async function audit(page: Page, where: string): Promise<AxeViolation[]> {
  const violations = await axeViolations(page);
  for (const v of violations) found.push(`${v.impact}\t${v.id}\t${where}\t${v.nodes.length}`);
  return violations;
}

describe('every page, axe-core: no violation of any impact', () => {
  for (const width of WIDTHS) {
    for (const role of EVERY_ROLE) {
      it(`as ${role} at ${width} px`, async () => {
        const page = await signedInPage(t, org.id, role, { width });
        for (const { path, roles } of PAGES) {
          if (!roles.includes(role)) continue;
          const url = path(held);
          const res = await page.goto(`${t.url}${url}`);
          expect(res?.status(), url).toBe(200);
          const violations = await audit(page, `${url} ${role} ${width}`);
          expect.soft(violations, `${url}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
          // Then once round by Tab: each stop outlined and in view, back at the skip link (no trap).
          // An address with a fragment starts the Tabs at its section (the journal search's answer).
          await tabTo(page, (s) => s.name === SKIP_LINK, url.includes('#') ? 2000 : 1);
          await tabTo(page, (s) => s.name === SKIP_LINK, 2000);
        }
        await page.context().close();
        if (process.env.AXE_REPORT) console.log(found.splice(0).join('\n'));
      });
    }
  }
});

/** Where the focus is: what a screen reader says of it, and whether a sighted user sees it. */
interface Stop {
  tag: string;
  id: string;
  name: string;
  /** An outline or a box shadow drawn round it. */
  outlined: boolean;
  /** Wholly inside the window. */
  inView: boolean;
  /** Its left, right, the window's width, its top, bottom, the window's height (px), for a message. */
  box: string;
}

async function focused(page: Page): Promise<Stop> {
  return page.evaluate(`(() => {
    const el = document.activeElement;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    const labels = el.labels ? [...el.labels].map((l) => l.textContent.trim()).join(' ') : '';
    // Its text as a screen reader has it: what is aria-hidden left out (a row button's visible label).
    const copy = el.cloneNode(true);
    for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
    return {
      tag: el.tagName.toLowerCase(),
      id: el.id,
      name: (el.getAttribute('aria-label') || labels || copy.textContent || '').replace(/\\s+/g, ' ').trim(),
      outlined:
        (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none',
      inView: box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth,
      box: [box.left, box.right, innerWidth, box.top, box.bottom, innerHeight].map(Math.round).join(' '),
    };
  })()`);
}

/**
 * Presses Tab until the focus is on what `wanted` picks, at most `most` times; each stop on the way
 * must show its focus and be in view (fails with the stop that does not).
 */
async function tabTo(page: Page, wanted: (s: Stop) => boolean, most = 120): Promise<Stop[]> {
  const stops: Stop[] = [];
  for (let i = 0; i < most; i++) {
    await page.keyboard.press('Tab');
    const stop = await focused(page);
    stops.push(stop);
    if (stop.tag !== 'body') {
      expect(stop.outlined, `focus not shown on ${JSON.stringify(stop)}`).toBe(true);
      expect(stop.inView, `focus out of view on ${JSON.stringify(stop)}`).toBe(true);
    }
    if (wanted(stop)) return stops;
  }
  throw new Error(`not reached in ${most} Tabs: ${JSON.stringify(stops.map((s) => s.id || s.name))}`);
}

/** The text of the elements an input's aria-describedby names, in order. */
async function describedBy(page: Page): Promise<string> {
  return page.evaluate(`(() => {
    const ids = (document.activeElement.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
    return ids.map((id) => document.getElementById(id)?.textContent.trim() ?? '').join(' | ');
  })()`);
}

describe('an editor by keyboard alone', () => {
  for (const width of WIDTHS) {
    it(`signs in, uploads, reads the candidates, marks and flags, exports, adds a record (${width} px)`, async () => {
      const user = await createTestUser(t.db, org.id, 'editor');
      const context = await t.browser.newContext({ viewport: { width, height: 800 }, acceptDownloads: true });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      // Listened for from the start: the browser intercepts the file dialog only once a listener is
      // set, which a wait begun with the key press could set too late (the dialog opened unseen).
      const chosen = new Promise<FileChooser>((resolve) => page.once('filechooser', resolve));
      const enter = async () => Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);

      // Sign in: the first Tab is the skip link, then the form.
      await page.goto(`${t.url}/dashboard/sign-in/`);
      await tabTo(page, (s) => s.id === 'email', 10);
      await page.keyboard.type(user.email);
      await tabTo(page, (s) => s.id === 'password', 2);
      await page.keyboard.type(TEST_PASSWORD);
      await enter();
      expect(new URL(page.url()).pathname).toBe('/dashboard/');
      expect(await audit(page, 'home after sign-in')).toEqual([]);

      // The skip link is the first stop and takes the focus past the header and navigation.
      const first = await tabTo(page, () => true, 1);
      expect(first[0]!.name).toBe(SKIP_LINK);
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      expect(await page.evaluate('!!document.activeElement.closest("main")')).toBe(true);

      // Upload: by the navigation, then the form's fields in order, a refused file first.
      await page.goto(`${t.url}/dashboard/manuscripts/`);
      await tabTo(page, (s) => s.name === 'Upload a manuscript');
      await enter();
      const order = await tabTo(page, (s) => s.id === 'source_file');
      expect(
        order
          .map((s) => s.id)
          .filter((id) => ['folder', 'origin_id', 'title', 'abstract', 'authors'].includes(id)),
      ).toEqual(['folder', 'origin_id', 'title', 'abstract', 'authors']);
      await page.locator('#folder').focus();
      await page.keyboard.type('KEYS');
      await page.keyboard.press('Tab');
      await page.keyboard.type(`KEYS-${width}`);
      await page.keyboard.press('Tab');
      await page.keyboard.type('Typed by keyboard');
      await page.keyboard.press('Tab');
      await page.keyboard.type(TOPIC);
      await page.keyboard.press('Tab');
      await page.keyboard.type('Someone Else');
      await tabTo(page, (s) => s.id === 'source_file', 3);
      await page.keyboard.press('Space');
      await (
        await chosen
      ).setFiles({
        name: 'notes.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('notes\n'),
      });
      await tabTo(page, (s) => s.name === 'Upload and find candidates', 3);
      await enter();
      // Refused: the focus on the file's input, its message read with it, the top one an alert.
      const refusedAt = await focused(page);
      expect(refusedAt.id).toBe('source_file');
      expect(await describedBy(page)).toMatch(/^The file notes\.pdf is neither a PDF nor a DOCX document/);
      expect(await page.locator('main [role="alert"]').count()).toBe(1);
      expect(await page.locator('#title').inputValue()).toBe('Typed by keyboard');
      expect(await audit(page, `upload refused ${width}`)).toEqual([]);
      // Sent again without a file: the typed metadata is ranked.
      await tabTo(page, (s) => s.name === 'Upload and find candidates', 3);
      await enter();
      expect(new URL(page.url()).pathname).toMatch(/^\/dashboard\/manuscripts\/\d+\/$/);

      // The candidates: a mark's Enter comes back focused on its message, in view.
      await tabTo(page, (s) => s.name.startsWith('Mark as referee'), 400);
      await enter();
      const marked = await focused(page);
      expect(marked.id).toMatch(/^referee-\d+-message$/);
      expect(marked.inView).toBe(true);
      await tabTo(page, (s) => s.name.startsWith('Flag a conflict of interest with'), 400);
      await enter();
      expect((await focused(page)).id).toMatch(/^conflict-\d+-message$/);
      expect(await audit(page, `manuscript after a mark and a flag ${width}`)).toEqual([]);

      // Export: the link by keyboard gives the file.
      await page.goto(page.url().replace(/#.*$/, ''));
      await tabTo(page, (s) => /^all \d+ candidates?$/.test(s.name), 400);
      const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
      expect(download.suggestedFilename()).toMatch(/\.csv$/);

      // No trap: Tab from the page's top goes through the whole page and back round to the skip link.
      await page.goto(page.url());
      await tabTo(page, (s) => s.name === SKIP_LINK, 1);
      const round = await tabTo(page, (s) => s.name === SKIP_LINK, 2000);
      expect(round.length).toBeGreaterThan(20);

      // A group record: a refused email said beside its field, focused, then the record added.
      await page.goto(`${t.url}/dashboard/groups/${held.groupId}/`);
      await tabTo(page, (s) => s.name === 'Add a record');
      await enter();
      await tabTo(page, (s) => s.id === 'client_id', 30);
      await page.keyboard.type(`kb-${width}`);
      await tabTo(page, (s) => s.id === 'name', 3);
      await page.keyboard.type('Kay Board');
      await tabTo(page, (s) => s.id === 'emails', 6);
      await page.keyboard.type('kay at example dot org');
      await tabTo(page, (s) => /^(Add record)$/.test(s.name), 20);
      await enter();
      const refused = await focused(page);
      expect(refused.id).toBe('emails');
      expect(await describedBy(page)).toContain('kay at example dot org');
      expect(await audit(page, `record refused ${width}`)).toEqual([]);
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('kay@example.org');
      await tabTo(page, (s) => s.name === 'Add record', 20);
      await enter();
      expect(await page.locator('main').innerText()).toContain('Kay Board');
      await context.close();
    });
  }
});

describe('pages reached by a form, axe-core', () => {
  it('a refused sign-in, a new key and a new user (integrations admin), at 375 and 1280 px', async () => {
    for (const width of WIDTHS) {
      const context = await t.browser.newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      await signIn(page, t.url, 'nobody@example.org', 'wrong password');
      expect(await audit(page, `sign-in refused ${width}`)).toEqual([]);
      await context.close();
      const admin = await signedInPage(t, org.id, 'integrations_admin', { width });
      await admin.goto(`${t.url}/dashboard/api-keys/`);
      await admin.getByLabel(/^Label/).fill(`key ${width}`);
      await admin.getByRole('button', { name: /create/i }).click();
      await admin.waitForURL(/\/api-keys\/new\/$/);
      expect(await audit(admin, `new key ${width}`)).toEqual([]);
      await admin.goto(`${t.url}/dashboard/users/`);
      await admin.getByLabel('Email', { exact: true }).fill(`new.${width}@example.org`);
      await admin.getByRole('button', { name: /add/i }).click();
      await admin.waitForURL(/\/users\/new\/$/);
      expect(await audit(admin, `new user ${width}`)).toEqual([]);
      await admin.context().close();
    }
    if (process.env.AXE_REPORT) console.log(found.splice(0).join('\n'));
  });
});
