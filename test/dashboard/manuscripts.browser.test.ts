// The manuscript flow in Chromium: an integrations admin sets the webhook on its page; an editor
// opens a manuscript, reads a conflict's evidence and why a candidate is there, marks a candidate;
// the next upload's `marked_by` shows it over the API and the webhook receiver (a real HTTP server
// on loopback) gets the event.
// A viewer sees no marking button; axe checks every new page (the manuscript's with its custom
// values form).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, type TestOrg } from '../helpers/app.ts';
import { expectAccessible, screenshot, signIn, signedInPage, useBrowserApp } from '../helpers/browser.ts';
import { createTestUser, TEST_PASSWORD } from '../helpers/dashboard.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { rankingFields, upload } from '../manuscripts/upload-helpers.ts';
import { buildCorpus, TOPIC } from '../referee-finder/fixtures.ts';
import type { Role } from '../../src/users/roles.ts';
import { createCustomField } from '../../src/custom-fields/store.ts';
import { createGroup } from '../../src/authors-groups/store.ts';

const t = useBrowserApp({
  webhooks: {
    worker: true,
    pollMs: 200,
    timeoutMs: 5_000,
    retryBaseMs: 200,
    retryMaxMs: 2_000,
    maxAttempts: 50,
    // The receiver listens on loopback.
    allowPrivateAddresses: true,
    retentionDays: 30,
  },
});
let org: TestOrg;
let receiver: Receiver;
let ids: Awaited<ReturnType<typeof buildCorpus>>;
const ADA_ORCID = '0000-0002-9079-593X';
const SHARED = 'Graph neural networks for molecules, written by Ada and Cole';

beforeAll(async () => {
  receiver = await startReceiver();
  ids = await buildCorpus(t.db, [
    {
      authors: [{ name: 'Ada Expert', orcid: ADA_ORCID }, { name: 'Cole Coauthor' }],
      title: SHARED,
      year: 2021,
    },
    { authors: [{ name: 'Nell Neutral' }] },
    { authors: [{ name: 'Nell Neutral' }] },
    { authors: [{ name: 'Cole Coauthor' }] },
  ]);
  await t.app.refmatch.index.refresh();
  org = await createTestOrg(t);
  // The manuscript pages then hold the custom values form, for axe to check with the rest.
  await createCustomField(t.db, org.id, { owner: 'proposal', dataKind: 'date', name: 'Decision due' });
  await createCustomField(t.db, org.id, {
    owner: 'proposal',
    dataKind: 'multi_option',
    name: 'Topics',
    options: ['Chemistry', 'Machine learning'],
  });
});
afterAll(async () => {
  await receiver?.close();
});

async function as(role: Role, orgId = org.id): Promise<Page> {
  const page = await signedInPage(t, orgId, role);
  expect(new URL(page.url()).pathname).toBe('/dashboard/');
  return page;
}

async function go(page: Page, path: string): Promise<void> {
  await page.goto(`${t.url}${path}`);
  await expectAccessible(page);
}

async function uploadMs(originId: string) {
  const fields = rankingFields({
    origin_id: originId,
    title: 'Message passing graph neural networks for molecular property prediction',
    abstract: TOPIC,
    author1_name: 'Ada Expert',
    author1_orcid: ADA_ORCID,
  });
  const res = await upload(t.app, { apiKey: org.apiKey, fields });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    manuscript_id: number;
    candidates: Array<{ author_id: number; marked: boolean; marked_by: string | null }>;
  };
}

describe('the manuscript flow', () => {
  it('admin sets the webhook; editor sees the evidence, marks; the API and the receiver see the mark', async () => {
    const admin = await as('integrations_admin');
    await go(admin, '/dashboard/webhooks/');
    await admin.getByLabel('Endpoint URL').fill(receiver.url);
    await admin.getByLabel('Signing secret').fill('a-secret-for-the-browser-test');
    await admin.getByRole('button', { name: 'Save webhook' }).click();
    await admin.waitForLoadState();
    expect(await admin.locator('.flash').first().textContent()).toContain('Webhook saved.');

    const { manuscript_id: id } = await uploadMs('ms-browser');
    const nellId = ids.authorId('Nell Neutral');
    const coleId = ids.authorId('Cole Coauthor');

    const editor = await as('editor');
    await go(editor, '/dashboard/manuscripts/');
    await screenshot(editor, 'manuscripts');
    await editor.getByLabel('Search titles or an origin id').fill('message passing');
    await editor.getByRole('button', { name: 'Search' }).click();
    await editor.waitForLoadState();
    await expectAccessible(editor);
    await editor.getByRole('link', { name: /Message passing graph neural networks/ }).click();
    await editor.waitForLoadState();
    expect(new URL(editor.url()).pathname).toBe(`/dashboard/manuscripts/${id}/`);
    await expectAccessible(editor);
    await screenshot(editor, 'manuscript');

    const coleRow = editor.locator(`#candidate-${coleId}`);
    const evidence = (await coleRow.locator('ul.conflicts').innerText()).replace(/\s+/g, ' ');
    expect(evidence).toContain('Co-authorship');
    expect(evidence).toContain(`${SHARED} (2021)`);

    // Why Cole is there: folded away until asked for, then the works and terms behind the score.
    const why = coleRow.locator('details.why');
    const works = why.locator('ol');
    expect(await works.isVisible()).toBe(false);
    await why.getByText('Why this candidate').click();
    expect(await works.isVisible()).toBe(true);
    expect((await works.innerText()).replace(/\s+/g, ' ')).toMatch(/\d+% of the evidence, on /);
    expect(await why.getByRole('link', { name: SHARED }).count()).toBe(1);
    await expectAccessible(editor);
    await why.scrollIntoViewIfNeeded();
    await screenshot(editor, 'manuscript-why', coleRow);

    await editor
      .locator(`#candidate-${nellId}`)
      .getByRole('button', { name: /Mark as referee/ })
      .click();
    await editor.waitForLoadState();
    await expectAccessible(editor);
    expect(await editor.locator('.flash').first().textContent()).toContain(
      'Nell Neutral is marked as referee.',
    );
    const editorEmail = (await editor.locator('header .who').innerText()).split(' · ')[0]!.toLowerCase();
    expect(await editor.locator(`#candidate-${nellId}`).innerText()).toContain(`Marked by ${editorEmail}`);

    const next = await uploadMs('ms-browser');
    expect(next.candidates.find((c) => c.author_id === nellId)).toMatchObject({
      marked: true,
      marked_by: editorEmail,
    });
    await receiver.waitFor(
      (got) =>
        got.some((e) => e.json.event === 'mark_as_proposal_referee' && e.json.data.author_id === nellId),
      'the mark event',
    );
    const event = receiver.received.find((e) => e.json.event === 'mark_as_proposal_referee')!;
    expect(event.json.data).toMatchObject({
      manuscript_id: id,
      origin_id: 'ms-browser',
      marked: true,
      marked_by: editorEmail,
    });

    // The delivery log shows it delivered.
    await receiver.waitFor((got) => got.length >= 3, 'the uploads and the mark');
    await go(admin, '/dashboard/webhooks/');
    await screenshot(admin, 'webhooks');
    expect(await admin.locator('table').last().innerText()).toContain('mark_as_proposal_referee');
  });

  it('a viewer reads the manuscript but has no marking button, and a forced post is refused', async () => {
    const { manuscript_id: id } = await uploadMs('ms-viewer');
    const viewer = await as('viewer');
    await go(viewer, `/dashboard/manuscripts/${id}/`);
    expect(await viewer.getByRole('button', { name: /Mark as referee/ }).count()).toBe(0);
    // The browser's own cookies, posted without the page (which offers no such form).
    const forced = await viewer.request.post(
      `${t.url}/dashboard/manuscripts/${id}/candidates/${ids.authorId('Nell Neutral')}/mark/`,
      { form: { _csrf: 'x' }, maxRedirects: 0 },
    );
    expect(forced.status()).toBe(403);
    expect((await viewer.goto(`${t.url}/dashboard/webhooks/`))!.status()).toBe(403);
  });

  it('by the keyboard at 375 px, a mark or a flag comes back with the focus on its message under its button, both in view, or above the next row when filtered out', async () => {
    const { manuscript_id: id } = await uploadMs('ms-keyboard');
    const coleId = ids.authorId('Cole Coauthor');
    const nellId = ids.authorId('Nell Neutral');
    const editor = await signedInPage(t, org.id, 'editor', { width: 375 });
    /** The focused control: its id, its name, whether it lies wholly in the screen, its row. */
    const focused = () =>
      editor.evaluate<{ id: string; name: string; inView: boolean; row: string | null }>(`(() => {
        const el = document.activeElement;
        const box = el.getBoundingClientRect();
        return {
          id: el.id,
          name: el.getAttribute('aria-label') ?? el.textContent.replace(/\\s+/g, ' ').trim(),
          inView: box.top >= 0 && box.bottom <= window.innerHeight,
          row: el.closest('tr')?.id ?? null,
        };
      })()`);
    const press = async (button: ReturnType<Page['locator']>) => {
      await button.focus();
      await Promise.all([editor.waitForNavigation(), editor.keyboard.press('Enter')]);
    };
    await editor.goto(`${t.url}/dashboard/manuscripts/${id}/`);
    const nellRow = editor.locator(`#candidate-${nellId}`);
    await press(nellRow.getByRole('button', { name: /Mark as referee/ }));
    // On the message, under the button just pressed (now Unmark) in its cell, both in view with the
    // cell's "Marked by": it was at the page's top, out of view of the row (and back at the row's top
    // before that, 9 Tabs back through the name, the articles and "Why this candidate"); said in a
    // row under the candidate's, the button was out of view (off the screen's side at 375 px, above
    // a tall row at 1280).
    expect(await focused()).toMatchObject({
      id: `referee-${nellId}-message`,
      name: /^Nell Neutral is marked as referee\.$/,
      inView: true,
      row: `candidate-${nellId}`,
    });
    expect(await editor.locator('.flash').count()).toBe(1);
    /** Whether the element lies wholly on the screen, across as well as down. */
    const wholly = (selector: string) =>
      editor.evaluate<boolean>(`(() => {
        const box = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect();
        return box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= document.documentElement.clientWidth;
      })()`);
    expect(await wholly(`#referee-${nellId}`)).toBe(true);
    expect(await wholly(`#referee-${nellId}-message`)).toBe(true);
    const markedBy = await nellRow.getByText(/^Marked by /).boundingBox();
    expect(markedBy!.y).toBeGreaterThanOrEqual(0);
    // Shift+Tab: the button just pressed, now Unmark.
    await editor.keyboard.press('Shift+Tab');
    expect(await focused()).toMatchObject({ id: `referee-${nellId}`, name: /^Unmark/, inView: true });
    await press(nellRow.getByRole('button', { name: /Flag a conflict/ }));
    expect(await focused()).toMatchObject({
      id: `conflict-${nellId}-message`,
      name: /^Nell Neutral is flagged as a conflict of interest/,
      inView: true,
    });
    expect(await wholly(`#conflict-${nellId}`)).toBe(true);
    expect(await wholly(`#conflict-${nellId}-message`)).toBe(true);
    await press(nellRow.getByRole('button', { name: /Remove conflict flag/ }));
    await press(nellRow.getByRole('button', { name: /Unmark/ }));

    // Under "Not marked", by name (Cole, Nell): Cole marked leaves the list, and the next Tab is
    // Nell's name, the next candidate, where it was the skip link at the page's top.
    await editor.goto(`${t.url}/dashboard/manuscripts/${id}/?marked=no&sort=name&order=asc#candidates`);
    await press(editor.locator(`#candidate-${coleId}`).getByRole('button', { name: /Mark as referee/ }));
    // The message has the focus, in view, above Nell's row: it was at the page's top, out of view.
    expect(await focused()).toMatchObject({
      name: /This page's filters no longer list them: here is the next candidate\./,
      inView: true,
    });
    expect(
      await editor.evaluate<string | undefined>(
        `document.activeElement.closest('tr')?.nextElementSibling?.id`,
      ),
    ).toBe(`candidate-${nellId}`);
    // Its lines within the screen's width, though the table is wider than a phone's screen.
    expect(
      await editor.evaluate<boolean>(
        `document.activeElement.getBoundingClientRect().right <= document.documentElement.clientWidth`,
      ),
    ).toBe(true);
    expect(await editor.locator('.flash').count()).toBe(1);
    await editor.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ name: 'Nell Neutral', row: `candidate-${nellId}`, inView: true });
    await editor.context().close();
  });

  it('on a phone-wide screen (375 px) no page scrolls sideways as a whole: wide tables scroll within the page', async () => {
    const { manuscript_id: id } = await uploadMs('ms-narrow');
    // A long email in the header, as real ones are.
    const user = await createTestUser(
      t.db,
      org.id,
      'integrations_admin',
      'a.very-long-name.of-an-editor@editorial-office.example.org',
    );
    // A field whose description is one long word (a pasted URL): the page shows it as the API lists
    // it, in a <pre> that scrolled sideways, a region no keyboard could scroll (axe: serious).
    const pasted = await createCustomField(t.db, org.id, {
      owner: 'author_from_group',
      dataKind: 'str',
      name: 'Profile',
      description: `https://editorial-office.example.org/reviewers/profile?${'x'.repeat(300)}`,
    });
    const admin = await (await t.browser.newContext()).newPage();
    await signIn(admin, t.url, user.email, TEST_PASSWORD);
    await admin.setViewportSize({ width: 375, height: 800 });
    for (const path of [
      '/dashboard/',
      '/dashboard/manuscripts/',
      `/dashboard/manuscripts/${id}/`,
      '/dashboard/users/',
      '/dashboard/api-keys/',
      '/dashboard/webhooks/',
      '/dashboard/settings/',
      `/dashboard/custom-fields/${pasted.api_id}/`,
    ]) {
      await go(admin, path);
      // How far the whole page scrolls sideways (a string: the test's types know no DOM).
      const overflow = await admin.evaluate<number>(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      );
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    await go(admin, `/dashboard/manuscripts/${id}/`);
    // The visually hidden labels (of the Mark buttons) are placed within main, which scrolls a wide
    // table; placed against the page, they widened it once the table was wider than the screen.
    const hiddenOutside = await admin.evaluate<number>(
      "[...document.querySelectorAll('main .visually-hidden')].filter((e) => !document.querySelector('main').contains(e.offsetParent)).length",
    );
    expect(await admin.locator('main .visually-hidden').count()).toBeGreaterThan(0);
    expect(hiddenOutside).toBe(0);
    await screenshot(admin, 'manuscript-narrow');
    await admin.context().close();
  });

  it('on a desktop screen (1280 px) a group or a field named with one long word wraps: no page scrolls sideways', async () => {
    const word = 'É'.repeat(190);
    const group = await createGroup(t.db, org.id, word);
    const field = await createCustomField(t.db, org.id, {
      owner: 'author_from_group',
      dataKind: 'str',
      name: `F${word}`,
      description: `D${word}`,
    });
    const editor = await as('editor');
    await editor.setViewportSize({ width: 1280, height: 800 });
    for (const path of [
      '/dashboard/groups/',
      `/dashboard/groups/${group.group_id}/`,
      `/dashboard/groups/${group.group_id}/new-record/`,
      '/dashboard/custom-fields/',
      `/dashboard/custom-fields/${field.api_id}/`,
    ]) {
      await go(editor, path);
      // Only a phone-wide screen wrapped long words: here the whole page scrolled 700 px and more.
      const overflow = await editor.evaluate<number>(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      );
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    await editor.context().close();
  });

  it("another organization's user gets 404 for the manuscript", async () => {
    const { manuscript_id: id } = await uploadMs('ms-private');
    const other = await createTestOrg(t);
    const stranger = await as('editor', other.id);
    const res = await stranger.goto(`${t.url}/dashboard/manuscripts/${id}/`);
    expect(res!.status()).toBe(404);
    expect(await stranger.locator('main').innerText()).not.toContain('Message passing');
    await expectAccessible(stranger);
  });
});
