// The journals on a manuscript's page: the API's recommendation, computed at the first view and kept
// while the manuscript is unchanged; a re-upload computes them again, and linked folders show at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { buttonNames, injectForm, signInAs } from '../helpers/dashboard.ts';
import { ensureFolder } from '../../src/folders/folders.ts';
import { baseFields, upload } from '../manuscripts/upload-helpers.ts';
import { linkJournal } from '../../src/journals/links.ts';

let t: TestApp;
let protein = 0;

async function addSource(key: string, title: string, topic: string): Promise<number> {
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO sources (source_key, title, type) VALUES ($1, $2, 'journal') RETURNING id`,
    [key, title],
  );
  const id = rows[0]!.id;
  for (let i = 0; i < 4; i++) {
    await t.db.query(
      `INSERT INTO works (work_key, title, abstract, publication_year, source_id) VALUES ($1, $2, $3, 2022, $4)`,
      [`${key}:${i}`, `${topic} study ${i}`, `${topic} ${topic} methods and results, part ${i}.`, id],
    );
  }
  return id;
}

beforeAll(async () => {
  t = await createTestApp();
  protein = await addSource('test:protein', 'Journal of Protein Structure', 'protein folding structure');
  await addSource('test:mt', 'Machine Translation Letters', 'machine translation bilingual');
  await t.app.refmatch.index.refresh();
});
afterAll(async () => t?.close());

describe("a manuscript page's journals", () => {
  it('are computed once, show linked folders at once, and follow a re-upload', async () => {
    const org = await createTestOrg(t);
    const session = await signInAs(t, org.id, 'viewer');
    const fields = baseFields({
      origin_id: 'ms-j',
      title: 'Protein folding structure prediction',
      abstract: 'protein folding',
    });
    const id = (await upload(t.app, { apiKey: org.apiKey, fields })).json().manuscript_id as number;
    const view = async () =>
      (await t.app.inject({ url: `/dashboard/manuscripts/${id}/`, headers: { cookie: session.cookie } }))
        .body;
    const journalsPart = (body: string) => body.slice(body.indexOf('id="journals"'));

    expect(journalsPart(await view())).toContain('Journal of Protein Structure');
    // The score's column said "1.000" and no more: what it is, and what it compares.
    expect(journalsPart(await view())).toContain(
      'a score has no unit: higher is closer, and it compares the journals of this list only',
    );
    // Venues may share a title: each row shows its id.
    expect(journalsPart(await view())).toMatch(new RegExp(`id ${protein}\\b`));
    const cached = await t.db.query('SELECT 1 FROM manuscript_journals WHERE manuscript_id = $1', [id]);
    expect(cached.rows).toHaveLength(1);

    await linkJournal(t.db, org.id, 'PROTEINS', protein);
    expect(journalsPart(await view())).toContain('PROTEINS');

    await upload(t.app, {
      apiKey: org.apiKey,
      fields: {
        ...fields,
        title: 'Machine translation for bilingual text',
        abstract: 'machine translation bilingual',
      },
    });
    const after = journalsPart(await view());
    expect(after.indexOf('Machine Translation Letters')).toBeGreaterThan(0);
    expect(after.indexOf('Machine Translation Letters')).toBeLessThan(
      after.indexOf('Journal of Protein Structure') === -1
        ? Infinity
        : after.indexOf('Journal of Protein Structure'),
    );
  });

  it('linking from a folder page comes back to the same search, where the linked journal says so', async () => {
    const org = await createTestOrg(t);
    const manager = await signInAs(t, org.id, 'account_manager');
    const folderId = await ensureFolder(t.db, org.id, 'LINKS');
    const linked = await injectForm(t.app, manager, `/dashboard/folders/${folderId}/journals/`, {
      source_id: String(protein),
      journal: 'protein structure',
    });
    expect(linked.headers.location).toBe(`/dashboard/folders/${folderId}/?journal=protein+structure`);
    const page = (
      await t.app.inject({ url: linked.headers.location as string, headers: { cookie: manager.cookie } })
    ).body;
    const matches = page.slice(page.indexOf('Journals matching'));
    expect(matches).toContain('Journal of Protein Structure');
    expect(matches).toContain('Linked');
    expect(
      buttonNames(matches).filter((n) => n.startsWith('Link <bdi>Journal of Protein Structure')),
    ).toEqual([]);
  });

  it('a journal linked to another folder says where, and moving it here says what that folder loses', async () => {
    const org = await createTestOrg(t);
    const manager = await signInAs(t, org.id, 'account_manager');
    const first = await ensureFolder(t.db, org.id, 'FIRST');
    const second = await ensureFolder(t.db, org.id, 'SECOND');
    await linkJournal(t.db, org.id, 'FIRST', protein);
    const search = await t.app.inject({
      url: `/dashboard/folders/${second}/?journal=protein+structure`,
      headers: { cookie: manager.cookie },
    });
    const matches = search.body.slice(search.body.indexOf('Journals matching'));
    expect(matches).toContain('Linked to <bdi>FIRST</bdi>');
    expect(matches).toContain(
      'Move to SECOND: <bdi>Journal of Protein Structure</bdi>, linked to <bdi>FIRST</bdi>',
    );
    expect(
      buttonNames(matches).filter((n) => n.startsWith('Link <bdi>Journal of Protein Structure')),
    ).toEqual([]);

    const moved = await injectForm(t.app, manager, `/dashboard/folders/${second}/journals/`, {
      source_id: String(protein),
    });
    const page = (
      await t.app.inject({ url: moved.headers.location as string, headers: { cookie: manager.cookie } })
    ).body;
    expect(page).toContain(
      `<bdi>Journal of Protein Structure</bdi> (catalogue id test:protein) is moved from <bdi>FIRST</bdi> to <bdi>SECOND</bdi>: <bdi>FIRST</bdi> no longer has it.`,
    );
    const firstPage = (
      await t.app.inject({ url: `/dashboard/folders/${first}/`, headers: { cookie: manager.cookie } })
    ).body;
    expect(firstPage.slice(firstPage.indexOf('Journals linked to'))).toContain('None.');
  });

  it("a recommended journal leads to its folder, and, for an account manager, one linked to none to the manuscript's folder's search for it", async () => {
    const org = await createTestOrg(t);
    const fields = baseFields({
      folder: 'JPROT',
      origin_id: 'ms-link',
      title: 'Protein folding structure prediction',
      abstract: 'protein folding',
    });
    const id = (await upload(t.app, { apiKey: org.apiKey, fields })).json().manuscript_id as number;
    const folderId = await ensureFolder(t.db, org.id, 'JPROT');
    const journalsOf = async (role: 'account_manager' | 'viewer') => {
      const session = await signInAs(t, org.id, role);
      const body = (
        await t.app.inject({ url: `/dashboard/manuscripts/${id}/`, headers: { cookie: session.cookie } })
      ).body;
      return body.slice(body.indexOf('id="journals"'));
    };
    const search = `/dashboard/folders/${folderId}/?journal=Journal+of+Protein+Structure#linked-journals`;
    expect(await journalsOf('account_manager')).toContain(`href="${search.replace(/&/g, '&amp;')}"`);
    // A role that may not link is led to no search it cannot use.
    expect(await journalsOf('viewer')).not.toContain('?journal=');

    await linkJournal(t.db, org.id, 'JPROT', protein);
    for (const role of ['account_manager', 'viewer'] as const) {
      const part = await journalsOf(role);
      expect(part).toMatch(
        new RegExp(`<a href="/dashboard/folders/${folderId}/#linked-journals"\\s*><bdi>JPROT</bdi></a`),
      );
      expect(part).not.toContain('?journal=');
    }
  });
});
