// Names a client or an editor chose, written as one long unbroken word (a pasted identifier, a
// label typed without spaces): 200 characters each (100 for an API key's label, its limit; 64 for an
// email's mailbox), shown by every page that lists them in a table, at 375 and 1280 px in Chromium.
// No table is widened past the screen by them: each such cell wraps.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, type TestOrg } from '../helpers/app.ts';
import { signedInPage, useBrowserApp } from '../helpers/browser.ts';
import { createTestUser } from '../helpers/dashboard.ts';
import { rankingFields, upload } from '../manuscripts/upload-helpers.ts';
import { buildCorpus, TOPIC } from '../referee-finder/fixtures.ts';
import { createCustomField } from '../../src/custom-fields/store.ts';
import { createGroup } from '../../src/authors-groups/store.ts';
import { createApiKeyFromForm } from '../../src/organizations/api-keys.ts';
import { saveWebhook } from '../../src/webhooks/store.ts';
import { saveFolderSettings, ensureFolder } from '../../src/folders/folders.ts';
import type { Role } from '../../src/users/roles.ts';

const t = useBrowserApp();

interface Org {
  org: TestOrg;
  manuscriptId: number;
  groupId: number;
  folderId: number;
  fieldId: string;
}
/** The organization whose names are long unbroken words, and one whose names are short words. */
let long: Org;
let short: Org;

/** One unbroken word of `n` letters, starting with `tag` (so that each is told apart). */
const longWord = (tag: string, n = 200) => `${tag}${'x'.repeat(n - tag.length)}`;
const shortWord = (tag: string) => tag;

/** An organization holding a thing of each name a table shows, each named by `word`. */
async function organizationNamed(word: (tag: string, n?: number) => string): Promise<Org> {
  const org = await createTestOrg(t);
  await createApiKeyFromForm(t.db, org.id, 'n'.repeat(32), word('Label', 100));
  const { group_id: groupId } = await createGroup(t.db, org.id, word('Group'));
  const field = await createCustomField(t.db, org.id, {
    owner: 'author_from_group',
    dataKind: 'single_option',
    name: word('Field'),
    description: word('Description'),
    options: [word('Option')],
  });
  for (const owner of ['folder', 'proposal'] as const)
    await createCustomField(t.db, org.id, { owner, dataKind: 'str', name: word(`Field${owner}`) });
  const record = await t.app.inject({
    method: 'POST',
    url: `/api/external/author-from-group/${groupId}/${word('Client')}/`,
    headers: org.headers,
    payload: {
      name: word('Name'),
      emails: [`${word('mailbox', 64)}@${word('domain', 63)}.example`],
      affiliations: [word('Affiliation')],
    },
  });
  expect(record.statusCode, record.body).toBe(200);
  const res = await upload(t.app, {
    apiKey: org.apiKey,
    fields: rankingFields({
      folder: word('Folder'),
      origin_id: word('Origin', 100),
      title: word('Title'),
      abstract: TOPIC,
      author1_name: word('Author'),
      author1_email: `${word('author', 64)}@uni.example`,
      author1_aff: word('Affiliation'),
    }),
  });
  expect(res.statusCode, res.body).toBe(200);
  const folderId = await ensureFolder(t.db, org.id, word('Folder'));
  await saveFolderSettings(t.db, folderId, {
    groupIds: [groupId],
    effect: 'highlight',
    boostMultiplier: null,
  });
  await createTestUser(t.db, org.id, 'viewer', `${word('user', 64)}@${word('domain', 63)}.example`);
  await saveWebhook(
    t.db,
    org.id,
    { url: `https://hooks.example/${word('path')}`, secret: null, enabled: true },
    { allowPrivateAddresses: true },
  );
  return { org, manuscriptId: res.json().manuscript_id, groupId, folderId, fieldId: field.api_id };
}

beforeAll(async () => {
  await buildCorpus(t.db, [
    { authors: [{ name: 'Ada Expert' }], title: 'Graph neural networks', abstract: TOPIC },
  ]);
  await t.app.refmatch.index.refresh();
  long = await organizationNamed(longWord);
  short = await organizationNamed(shortWord);
});

const PAGES: Array<{ role: Role; path: (o: Org) => string }> = [
  { role: 'integrations_admin', path: () => '/dashboard/api-keys/' },
  { role: 'integrations_admin', path: () => '/dashboard/users/' },
  { role: 'integrations_admin', path: () => '/dashboard/webhooks/' },
  { role: 'editor', path: () => '/dashboard/groups/' },
  { role: 'editor', path: (o) => `/dashboard/groups/${o.groupId}/` },
  { role: 'editor', path: () => '/dashboard/folders/' },
  { role: 'editor', path: (o) => `/dashboard/folders/${o.folderId}/` },
  { role: 'editor', path: () => '/dashboard/custom-fields/' },
  { role: 'editor', path: (o) => `/dashboard/custom-fields/${o.fieldId}/` },
  { role: 'editor', path: () => '/dashboard/manuscripts/' },
  { role: 'editor', path: (o) => `/dashboard/manuscripts/${o.manuscriptId}/` },
];

/** The width of each table of main (by its place), and the room main's content box has, in px. */
async function tableWidths(page: Page): Promise<{ room: number; widths: number[] }> {
  return page.evaluate(`(() => {
    const main = document.querySelector('main');
    const style = getComputedStyle(main);
    const room = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { room, widths: [...main.querySelectorAll('table')].map((t) => Math.round(t.getBoundingClientRect().width)) };
  })()`);
}

/** For each page, its tables' widths in the organization `o`, at `width` px. */
async function widthsOf(o: Org, width: number): Promise<Map<string, { room: number; widths: number[] }>> {
  const seen = new Map<string, { room: number; widths: number[] }>();
  for (const role of ['integrations_admin', 'editor'] as const) {
    const page = await signedInPage(t, o.org.id, role, { width });
    for (const p of PAGES.filter((x) => x.role === role)) {
      const res = await page.goto(`${t.url}${p.path(o)}`);
      expect(res?.status(), p.path(o)).toBe(200);
      seen.set(p.path(PAGE_KEYS), await tableWidths(page));
    }
    await page.context().close();
  }
  return seen;
}
/** Pages named alike in either organization. */
const PAGE_KEYS: Org = { org: {} as TestOrg, manuscriptId: 0, groupId: 0, folderId: 0, fieldId: 'field' };

describe.each([375, 1280])('long unbroken names at %i px', (width) => {
  it('widen no table: one that fits the screen with short names fits with long ones, and a wider one is no wider', async () => {
    const [withLong, withShort] = [await widthsOf(long, width), await widthsOf(short, width)];
    const widened: string[] = [];
    for (const [path, { room, widths }] of withLong) {
      const shortWidths = withShort.get(path)!.widths;
      expect(widths.length, path).toBe(shortWidths.length);
      widths.forEach((w, i) => {
        // A table already wider than the screen with short names (the candidates', the users' at
        // 375 px) scrolls within main, as designed; a long name's cell adds at most 8rem to it.
        const allowed = shortWidths[i]! <= room ? room : shortWidths[i]! + 8 * 16;
        if (w > allowed)
          widened.push(`${path} table ${i + 1}: ${w} px, ${shortWidths[i]} with short names, room ${room}`);
      });
    }
    expect(widened).toEqual([]);
  });
});
