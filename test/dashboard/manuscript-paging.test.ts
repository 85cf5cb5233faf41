// A manuscript's candidates are shown 50 a page (an organization may ask for 500: shown at once they
// were 1.6 MB of HTML); filters, sort and marks keep the page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import { injectForm, type InjectSession, signInAs } from '../helpers/dashboard.ts';
import { rankingFields, upload } from '../manuscripts/upload-helpers.ts';
import { buildCorpus, TOPIC } from '../referee-finder/fixtures.ts';

let t: TestApp;
let org: TestOrg;
let editor: InjectSession;
let manuscriptId = 0;
// Seventy distinct reviewers, each the author of one work on the manuscript's topic.
const letters = (i: number) =>
  String.fromCharCode(97 + Math.floor(i / 26)) + String.fromCharCode(97 + (i % 26));
const NAMES = Array.from({ length: 70 }, (_, i) => `Rey Pag${letters(i)}`);

beforeAll(async () => {
  t = await createTestApp();
  await buildCorpus(
    t.db,
    NAMES.map((name) => ({ authors: [{ name }] })),
  );
  await t.app.refmatch.index.refresh();
  org = await createTestOrg(t);
  await t.db.query('UPDATE organizations SET max_candidates = 100 WHERE id = $1', [org.id]);
  editor = await signInAs(t, org.id, 'editor');
  const fields = rankingFields({ origin_id: 'ms-many', abstract: TOPIC });
  const res = await upload(t.app, { apiKey: org.apiKey, fields });
  expect(res.statusCode, res.body).toBe(200);
  expect((res.json() as { candidates: unknown[] }).candidates.length).toBeGreaterThan(50);
  manuscriptId = (res.json() as { manuscript_id: number }).manuscript_id;
});
afterAll(async () => t?.close());

const page = async (query = '') =>
  (
    await t.app.inject({
      url: `/dashboard/manuscripts/${manuscriptId}/${query}`,
      headers: { cookie: editor.cookie },
    })
  ).body;
const rows = (body: string) => [...body.matchAll(/<tr id="candidate-(\d+)">/g)].map((m) => Number(m[1]));

describe("a manuscript's candidates, a page at a time", () => {
  it('shows 50 a page, with the way to the next and back; the pages together show each once', async () => {
    const first = await page();
    expect(rows(first)).toHaveLength(50);
    expect(first.replace(/\s+/g, ' ')).toMatch(/of \d+ candidates, 1-50 shown/);
    expect(first).toMatch(/Page 1 of 2/);
    expect(first).toContain(`href="/dashboard/manuscripts/${manuscriptId}/?page=2#candidates" rel="next"`);
    const second = await page('?page=2');
    expect(rows(second).length).toBeGreaterThan(0);
    expect(second).toContain(`href="/dashboard/manuscripts/${manuscriptId}/#candidates" rel="prev"`);
    expect(new Set([...rows(first), ...rows(second)]).size).toBe(rows(first).length + rows(second).length);
    // Past the last page: the last page.
    expect(rows(await page('?page=9'))).toEqual(rows(second));
  });

  it('a mark made on the second page comes back to that page, at the row', async () => {
    const sorted = await page('?sort=name&order=asc&page=2');
    const target = rows(sorted)[0]!;
    const marked = await injectForm(
      t.app,
      editor,
      `/dashboard/manuscripts/${manuscriptId}/candidates/${target}/mark/?sort=name&order=asc&page=2`,
    );
    expect(marked.headers.location).toBe(
      `/dashboard/manuscripts/${manuscriptId}/?sort=name&order=asc&page=2#referee-${target}-message`,
    );
    expect(rows(await page('?sort=name&order=asc&page=2'))).toContain(target);
  });
});
