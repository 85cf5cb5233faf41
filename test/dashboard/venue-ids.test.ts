// Journals of one title told apart. The ACL Anthology's "Findings of the Association for
// Computational Linguistics" is three venues of one publisher; the folder's journal search, its
// linked journals and a manuscript's recommended journals showed them as identical rows but for an
// internal id (QA round 14, over the demo corpus). Each row now shows the catalogue's id of the venue
// and its ISSN-L when known.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { buttonNames, injectForm, signInAs } from '../helpers/dashboard.ts';
import { ensureFolder } from '../../src/folders/folders.ts';
import { linkJournal } from '../../src/journals/links.ts';
import { baseFields, upload } from '../manuscripts/upload-helpers.ts';

const TITLE = 'Findings of the Association for Computational Linguistics';
let t: TestApp;
let emnlp = 0;
let naacl = 0;

async function addVenue(key: string, issn: string | null, topic: string): Promise<number> {
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO sources (source_key, title, type, publisher, issn_l)
     VALUES ($1, $2, 'conference', 'Association for Computational Linguistics', $3) RETURNING id`,
    [key, TITLE, issn],
  );
  const id = rows[0]!.id;
  for (let i = 0; i < 3; i++) {
    await t.db.query(
      `INSERT INTO works (work_key, title, abstract, publication_year, source_id) VALUES ($1, $2, $3, 2024, $4)`,
      [`${key}:${i}`, `${topic} study ${i}`, `${topic} ${topic} methods and results, part ${i}.`, id],
    );
  }
  return id;
}

beforeAll(async () => {
  t = await createTestApp();
  emnlp = await addVenue('acl:venue/findings-emnlp', null, 'dialogue state tracking');
  naacl = await addVenue('acl:venue/findings-naacl', '2000-0001', 'dialogue response generation');
  await t.app.refmatch.index.refresh();
});
afterAll(async () => t?.close());

const rowOf = (body: string, id: number, cellOfId: string) => {
  const rows = body.split('<tr').filter((r) => r.includes(cellOfId));
  expect(rows, `a row of id ${id}`).toHaveLength(1);
  return rows[0]!.replace(/\s+/g, ' ');
};

describe('journals that share a title', () => {
  it("a folder's journal search and linked journals show each one's catalogue id and ISSN-L", async () => {
    const org = await createTestOrg(t);
    const manager = await signInAs(t, org.id, 'account_manager');
    const folder = await ensureFolder(t.db, org.id, 'DIALOGUE');
    await linkJournal(t.db, org.id, 'DIALOGUE', naacl);
    const page = await t.app.inject({
      url: `/dashboard/folders/${folder}/?journal=findings`,
      headers: { cookie: manager.cookie },
    });
    expect(page.statusCode).toBe(200);
    const [linked, search] = page.body.split('Journals matching');
    expect(rowOf(linked!, naacl, `<td>${naacl}</td>`)).toContain(
      'catalogue id <code>acl:venue/findings-naacl</code> · ISSN-L 2000-0001',
    );
    expect(rowOf(search!, emnlp, `<td>${emnlp}</td>`)).toContain(
      'Association for Computational Linguistics</bdi> · catalogue id <code>acl:venue/findings-emnlp</code>',
    );
    expect(rowOf(search!, naacl, `<td>${naacl}</td>`)).toContain('<code>acl:venue/findings-naacl</code>');
  });

  it('the Link and Unlink buttons name each journal and the folder in words, each name once on the page', async () => {
    const org = await createTestOrg(t);
    const manager = await signInAs(t, org.id, 'account_manager');
    const folder = await ensureFolder(t.db, org.id, 'NAMES');
    await linkJournal(t.db, org.id, 'NAMES', naacl);
    const page = await t.app.inject({
      url: `/dashboard/folders/${folder}/?journal=findings`,
      headers: { cookie: manager.cookie },
    });
    const journalButtons = buttonNames(page.body).filter((n) => /^(Link|Unlink|Move)/.test(n));
    // They said "(id 123)", a number a screen reader user cannot tie to anything.
    expect(journalButtons.join('\n')).not.toMatch(/\(id \d+\)/);
    expect(journalButtons).toEqual(
      expect.arrayContaining([
        `Unlink <bdi>${TITLE}</bdi> (catalogue id acl:venue/findings-naacl, ISSN-L 2000-0001) from <bdi>NAMES</bdi>`,
        `Link <bdi>${TITLE}</bdi> (catalogue id acl:venue/findings-emnlp) to <bdi>NAMES</bdi>`,
      ]),
    );
    expect(new Set(journalButtons).size).toBe(journalButtons.length);
  });

  it('a link, a move and an unlink say which journal by its catalogue id, not an internal number', async () => {
    const org = await createTestOrg(t);
    const manager = await signInAs(t, org.id, 'account_manager');
    const first = await ensureFolder(t.db, org.id, 'FIRST');
    const second = await ensureFolder(t.db, org.id, 'SECOND');
    const said = async (url: string, form: Record<string, string>) => {
      const sent = await injectForm(t.app, manager, url, form);
      expect(sent.statusCode).toBe(303);
      const page = await t.app.inject({
        url: String(sent.headers.location),
        headers: { cookie: manager.cookie },
      });
      const flash = /<p[^>]*class="flash ok[^"]*"[^>]*>([\s\S]*?)<\/p>/.exec(page.body)?.[1] ?? '';
      return flash
        .replace(/<\/?bdi>/g, '')
        .replace(/\s+/g, ' ')
        .trim();
    };
    const journal = `${TITLE} (catalogue id acl:venue/findings-naacl, ISSN-L 2000-0001)`;
    // It said "Findings of the Association for Computational Linguistics (id 13) is linked to FIRST".
    expect(await said(`/dashboard/folders/${first}/journals/`, { source_id: String(naacl) })).toBe(
      `${journal} is linked to FIRST.`,
    );
    expect(await said(`/dashboard/folders/${second}/journals/`, { source_id: String(naacl) })).toBe(
      `${journal} is moved from FIRST to SECOND: FIRST no longer has it.`,
    );
    expect(await said(`/dashboard/folders/${second}/journals/${naacl}/unlink/`, {})).toBe(
      `${journal} is unlinked from SECOND.`,
    );
  });

  it("a manuscript's recommended journals show them too", async () => {
    const org = await createTestOrg(t);
    const viewer = await signInAs(t, org.id, 'viewer');
    const fields = baseFields({
      origin_id: 'ms-dialogue',
      title: 'Dialogue state tracking and response generation',
      abstract: 'dialogue state tracking, dialogue response generation',
    });
    const id = (await upload(t.app, { apiKey: org.apiKey, fields })).json().manuscript_id as number;
    const body = (
      await t.app.inject({ url: `/dashboard/manuscripts/${id}/`, headers: { cookie: viewer.cookie } })
    ).body;
    const journals = body.slice(body.indexOf('id="journals"'));
    expect(rowOf(journals, emnlp, `id ${emnlp}<`)).toContain(
      'catalogue id <code>acl:venue/findings-emnlp</code> · id',
    );
    expect(rowOf(journals, naacl, `id ${naacl}<`)).toContain(
      'catalogue id <code>acl:venue/findings-naacl</code> · ISSN-L 2000-0001 · id',
    );
  });
});
