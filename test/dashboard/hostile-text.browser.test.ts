// Stored text rendered back (hostile round 26): values an outsider chooses, holding markup, script,
// links, bidi controls and C0 controls, stored through the real entry points (an OpenAlex file
// ingested, the upload API, 4.2, the dashboard's forms), then every page that shows them rendered in
// Chromium with dialogs, page errors, console errors (a CSP violation is one) recorded: no script of
// a payload runs, no markup of one reaches the page's structure, no link leads anywhere but where the
// dashboard means it to, and no value's direction control reorders the text beside it.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, type TestOrg } from '../helpers/app.ts';
import { signedInPage, useBrowserApp } from '../helpers/browser.ts';
import { rankingFields, upload } from '../manuscripts/upload-helpers.ts';
import { buildCorpus, TOPIC } from '../referee-finder/fixtures.ts';
import { createCustomField } from '../../src/custom-fields/store.ts';
import { createGroup } from '../../src/authors-groups/store.ts';
import { updateSettings } from '../../src/organizations/organizations.ts';
import { saveWebhook } from '../../src/webhooks/store.ts';
import { createTestUser } from '../helpers/dashboard.ts';

/** Markup that would run or restructure the page if it were written unescaped, in text or an attribute. */
const MARKUP =
  `</td></tr></table><script>alert('script')</script><svg onload="alert('svg')"></svg>` +
  `<img src=x onerror="alert('img')">" onmouseover="alert('attr')" x='<style>*{color:red}</style>`;
/** A right-to-left override left open at a value's end: unisolated, it reverses the text after it. */
const RLO = '\u202E';

const t = useBrowserApp();
let org: TestOrg;
let manuscriptId: number;
let groupId: number;

beforeAll(async () => {
  await buildCorpus(t.db, [
    {
      authors: [
        { name: `Eve ${MARKUP}${RLO}`, affiliation: `Uni ${MARKUP}${RLO}` },
        { name: `Mal Hostile${RLO}`, institution: { id: 'https://openalex.org/I9', name: `Inst ${MARKUP}` } },
      ],
      title: `Graph neural networks ${MARKUP}${RLO}`,
      abstract: TOPIC,
    },
  ]);
  await t.app.refmatch.index.refresh();
  org = await createTestOrg(t);
  await updateSettings(t.db, org.id, { include_without_email: true });
  await createCustomField(t.db, org.id, {
    owner: 'proposal',
    dataKind: 'multi_option',
    name: `Topics ${MARKUP}${RLO}`,
    options: [`Chem ${MARKUP}${RLO}`, `ML${RLO}`],
  });
  const note = await createCustomField(t.db, org.id, {
    owner: 'author_from_group',
    dataKind: 'str',
    name: `Note ${MARKUP}${RLO}`,
  });
  const group = await createGroup(t.db, org.id, `Group ${MARKUP}${RLO}`);
  groupId = group.group_id;
  const record = await t.app.inject({
    method: 'POST',
    url: `/api/external/author-from-group/${groupId}/${encodeURIComponent(`c${RLO}<x>`)}/`,
    headers: org.headers,
    payload: {
      name: `Eve ${MARKUP}${RLO}`,
      emails: ['eve@uni.example?bcc=spy%40evil.example'],
      affiliations: [`Uni ${MARKUP}${RLO}`],
      orcids: ['0000-0002-1825-0097'],
      [note.api_id]: `Note ${MARKUP}${RLO}`,
    },
  });
  expect(record.statusCode, record.body).toBe(200);
  const res = await upload(t.app, {
    apiKey: org.apiKey,
    fields: rankingFields({
      folder: `F ${MARKUP}${RLO}`,
      origin_id: `ms ${MARKUP}${RLO}`,
      title: `Graph neural networks ${MARKUP}${RLO}`,
      abstract: TOPIC,
      authors_count: 2,
      author1_name: `Ann ${MARKUP}${RLO}`,
      author1_aff: `Aff ${MARKUP}${RLO}`,
      author1_email: 'ann@uni.example?bcc=spy%40evil.example',
      author2_name: `Eve ${MARKUP}${RLO}`,
    }),
  });
  expect(res.statusCode, res.body).toBe(200);
  manuscriptId = res.json().manuscript_id;
  await createTestUser(t.db, org.id, 'viewer', `viewer${RLO}@uni.example`);
  await saveWebhook(
    t.db,
    org.id,
    { url: `https://hooks.example/${MARKUP}${RLO}`, secret: null, enabled: true },
    { allowPrivateAddresses: true },
  );
});

interface Seen {
  dialogs: string[];
  errors: string[];
}

/** What a page did that a payload may have caused: dialogs opened, script errors, console errors. */
function watch(page: Page): Seen {
  const seen: Seen = { dialogs: [], errors: [] };
  page.on('dialog', (dialog) => {
    seen.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => seen.errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') seen.errors.push(message.text());
  });
  return seen;
}

/** Elements, attributes and links on the page that only a payload would have put there. */
async function injected(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const found = [];
    for (const el of document.querySelectorAll('script, svg, img, iframe, object, embed, body style'))
      found.push('<' + el.localName + '>');
    for (const el of document.querySelectorAll('*'))
      for (const a of el.attributes) if (/^on/i.test(a.name) || a.name === "x") found.push(el.localName + '[' + a.name + ']');
    for (const a of document.querySelectorAll('a[href]')) {
      const href = a.getAttribute('href');
      if (!/^(\\/(?!\\/)|#|https?:|mailto:)/.test(href)) found.push('href ' + href);
      if (/^mailto:.*[?#]/.test(href)) found.push('href ' + href);
    }
    return found;
  })()`);
}

/** Latin words drawn right to left (their last letter left of their first): a control reordered them. */
async function reversedWords(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (/[\\u202a-\\u202e\\u2066-\\u2069]/.test(node.data)) continue;
      for (const m of node.data.matchAll(/[A-Za-z]{3,}/g)) {
        const at = (i) => {
          const r = document.createRange();
          r.setStart(node, i);
          r.setEnd(node, i + 1);
          return r.getBoundingClientRect();
        };
        const first = at(m.index), last = at(m.index + m[0].length - 1);
        if (first.width && last.width && Math.abs(first.top - last.top) < 2 && last.left < first.left)
          found.push(m[0]);
      }
    }
    return found;
  })()`);
}

describe('hostile text on every page that shows it', () => {
  it('runs no script, adds no markup or link, reorders nothing beside a value', async () => {
    const admin = await signedInPage(t, org.id, 'integrations_admin', { width: 1280 });
    const editor = await signedInPage(t, org.id, 'editor', { width: 1280 });
    const fields = await t.db.query<{ api_id: string }>(
      `SELECT api_id FROM custom_fields WHERE organization_id = $1`,
      [org.id],
    );
    const folders = await t.db.query<{ id: number }>(`SELECT id FROM folders WHERE organization_id = $1`, [
      org.id,
    ]);
    const works = await t.db.query<{ id: number }>(`SELECT id FROM works`);
    const authors = await t.db.query<{ id: number }>(`SELECT id FROM authors`);
    const searched = `?q=${encodeURIComponent(MARKUP + RLO)}`;
    // A record that is not there: its page says so, quoting the id.
    const missing = `/dashboard/groups/${groupId}/records/${encodeURIComponent(MARKUP + RLO)}/`;
    const walk: Array<[Page, string]> = [
      ...[
        '/dashboard/',
        '/dashboard/manuscripts/',
        `/dashboard/manuscripts/${searched}`,
        `/dashboard/manuscripts/${manuscriptId}/`,
        '/dashboard/groups/',
        `/dashboard/groups/${groupId}/`,
        `/dashboard/groups/${groupId}/${searched}`,
        `/dashboard/groups/${groupId}/records/${encodeURIComponent(`c${RLO}<x>`)}/`,
        missing,
        '/dashboard/custom-fields/',
        ...fields.rows.map((f) => `/dashboard/custom-fields/${f.api_id}/`),
        '/dashboard/folders/',
        ...folders.rows.map((f) => `/dashboard/folders/${f.id}/`),
        '/dashboard/users/',
        '/dashboard/webhooks/',
        '/dashboard/settings/',
        ...works.rows.map((w) => `/works/${w.id}`),
        ...authors.rows.map((a) => `/authors/${a.id}`),
      ].map((path): [Page, string] => [admin, path]),
      ...[
        '/dashboard/manuscripts/upload/',
        `/dashboard/groups/${groupId}/new-record/`,
        `/dashboard/groups/${groupId}/import/`,
      ].map((path): [Page, string] => [editor, path]),
    ];
    const findings: string[] = [];
    for (const [page, path] of walk) {
      const seen = watch(page);
      const res = await page.goto(`${t.url}${path}`);
      const marks = [...(await injected(page)), ...(await reversedWords(page))];
      if (res?.status() !== (path === missing ? 404 : 200)) marks.push(`status ${res?.status()}`);
      // The browser reports a 404 itself as a console error.
      const errors = seen.errors.filter((e) => !(path === missing && /status of 404/.test(e)));
      page.removeAllListeners();
      if (marks.length || seen.dialogs.length || errors.length)
        findings.push(`${path}: ${[...marks, ...seen.dialogs, ...errors].join(' | ')}`);
    }
    expect(findings).toEqual([]);
  });

  it('sees what it looks for: a page with an open override, a script and a hidden copy', async () => {
    const page = await t.browser.newPage();
    await page.setContent(
      `<p><b>Group\u202E</b> holds records</p><img src=x><a href="mailto:a@b.example?bcc=c%40d.example">a</a>`,
    );
    expect(await reversedWords(page)).toEqual(['holds', 'records']);
    expect(await injected(page)).toEqual(['<img>', 'href mailto:a@b.example?bcc=c%40d.example']);
    await page.close();
  });
});
