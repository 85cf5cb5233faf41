// A folder's journal links sent from a page older than the corpus or than another tab's change: a
// journal id an ingest removed (a stale folder page, a bookmark of its search, a tab left open)
// gives the dashboard's page saying so, still a 404, with the way back to the folder's journal
// search; an unlink pressed twice says nothing changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import { injectForm, type InjectSession, signInAs } from '../helpers/dashboard.ts';
import { ensureFolder } from '../../src/folders/folders.ts';
import { linkJournal } from '../../src/journals/links.ts';

let t: TestApp;
let org: TestOrg;
let manager: InjectSession;

beforeAll(async () => {
  t = await createTestApp();
  org = await createTestOrg(t);
  manager = await signInAs(t, org.id, 'account_manager');
});
afterAll(async () => t?.close());

async function addSource(key: string, title: string): Promise<number> {
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO sources (source_key, title, type) VALUES ($1, $2, 'journal') RETURNING id`,
    [key, title],
  );
  return rows[0]!.id;
}

const mainOf = (body: string) => body.slice(body.indexOf('<main'), body.indexOf('</main>'));

describe('a journal gone from the corpus', () => {
  it('linked from a folder page opened before the ingest: the page says so, in the layout, with the way back to the search', async () => {
    const folder = await ensureFolder(t.db, org.id, 'Linguistics');
    const gone = await addSource('test:gone-1', 'Revista Vieja');
    // The page listed it; then an ingest removed it.
    const shown = await t.app.inject({
      url: `/dashboard/folders/${folder}/?journal=revista`,
      headers: { cookie: manager.cookie },
    });
    expect(shown.body).toContain(`<td>${gone}</td>`);
    await t.db.query('DELETE FROM sources WHERE id = $1', [gone]);
    const sent = await injectForm(t.app, manager, `/dashboard/folders/${folder}/journals/`, {
      source_id: String(gone),
      journal: 'revista',
    });
    expect(sent.statusCode).toBe(404);
    expect(sent.body).toContain('<title>Journal no longer in the catalogue');
    // The dashboard's page: its header and navigation, as any other.
    expect(sent.body).toContain('href="/dashboard/folders/"');
    const main = mainOf(sent.body);
    expect(main).toContain(`The journal with id ${gone} is no longer in the catalogue`);
    expect(main).toContain(`href="/dashboard/folders/${folder}/?journal=revista#linked-journals"`);
    expect(main).not.toContain('organization');
    const { rows } = await t.db.query('SELECT 1 FROM journal_links WHERE organization_id = $1', [org.id]);
    expect(rows).toEqual([]);
  });

  it('unlinked after the ingest removed it (its link gone with it): the same page', async () => {
    const folder = await ensureFolder(t.db, org.id, 'Phonology');
    const gone = await addSource('test:gone-2', 'Old Phonology Letters');
    await linkJournal(t.db, org.id, 'Phonology', gone);
    await t.db.query('DELETE FROM sources WHERE id = $1', [gone]);
    const sent = await injectForm(
      t.app,
      manager,
      `/dashboard/folders/${folder}/journals/${gone}/unlink/`,
      {},
    );
    expect(sent.statusCode).toBe(404);
    const main = mainOf(sent.body);
    expect(main).toContain(`The journal with id ${gone} is no longer in the catalogue`);
    expect(main).toContain(`href="/dashboard/folders/${folder}/#linked-journals"`);
  });
});

describe('an unlink sent twice', () => {
  it('unlinks once, then says the journal is not linked there and nothing changed', async () => {
    const folder = await ensureFolder(t.db, org.id, 'Semantics');
    const source = await addSource('test:twice', 'Semantics Quarterly');
    await linkJournal(t.db, org.id, 'Semantics', source);
    const unlink = () =>
      injectForm(t.app, manager, `/dashboard/folders/${folder}/journals/${source}/unlink/`, {});
    const flash = async (sent: Awaited<ReturnType<typeof unlink>>) => {
      expect(sent.statusCode).toBe(303);
      const page = await t.app.inject({
        url: String(sent.headers.location),
        headers: { cookie: manager.cookie },
      });
      return page.body;
    };
    expect(await flash(await unlink())).toContain('(catalogue id test:twice) is unlinked from');
    const again = await flash(await unlink());
    expect(again).toContain('(catalogue id test:twice) is not linked to');
    expect(again).toContain('nothing changed');
  });
});

describe("a folder's linked journals read by a role that may not unlink", () => {
  it('have no Unlink column for an editor or a viewer; an account manager has it, with its buttons', async () => {
    const folder = await ensureFolder(t.db, org.id, 'Journal of Roles');
    const source = await addSource('test:roles', 'Journal of Roles');
    await linkJournal(t.db, org.id, 'Journal of Roles', source);
    const tableOf = async (session: InjectSession) => {
      const page = await t.app.inject({
        url: `/dashboard/folders/${folder}/`,
        headers: { cookie: session.cookie },
      });
      const body = page.body.slice(page.body.indexOf('id="linked-journals"'));
      return body.slice(0, body.indexOf('</table>'));
    };
    for (const role of ['editor', 'viewer'] as const) {
      const reader = await signInAs(t, org.id, role);
      const table = await tableOf(reader);
      // It read "Unlink" over an empty cell in each row.
      expect(table, role).not.toContain('>Unlink<');
      expect(table.match(/<th scope="col">/g), role).toHaveLength(2);
      expect(table.match(/<td/g), role).toHaveLength(2);
    }
    const managed = await tableOf(manager);
    expect(managed).toContain('<th scope="col">Unlink</th>');
    expect(managed).toContain(`action="/dashboard/folders/${folder}/journals/${source}/unlink/"`);
  });
});
