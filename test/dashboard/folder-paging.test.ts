// An organization may hold 10,000 folders (`limits.folders`): the folders page lists them 100 a page
// with a search by name, and the manuscripts page's folder menu turns into a field for a folder's
// name past 500 of them (listed whole, each view of either page was megabytes of HTML).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import { type InjectSession, signInAs } from '../helpers/dashboard.ts';
import { ensureFolder } from '../../src/folders/folders.ts';

let t: TestApp;
let org: TestOrg;
let viewer: InjectSession;

const get = (url: string) => t.app.inject({ url, headers: { cookie: viewer.cookie } });
const folderLinks = (body: string) =>
  [...body.matchAll(/href="\/dashboard\/folders\/(\d+)\/"/g)].map((m) => m[1]);

/** Folders named `F0001`...: made in SQL, as uploads naming them would (the cap is not what is tested). */
async function addFolders(from: number, to: number): Promise<void> {
  await t.db.query(
    `INSERT INTO folders (organization_id, name) SELECT $1, 'F' || lpad(g::text, 4, '0') FROM generate_series($2::int, $3::int) g`,
    [org.id, from, to],
  );
}

beforeAll(async () => {
  t = await createTestApp();
  org = await createTestOrg(t);
  viewer = await signInAs(t, org.id, 'viewer');
});
afterAll(async () => t?.close());

describe('folders, a page at a time', () => {
  it('lists 100 a page with the way to the next; the pages together list each folder once', async () => {
    await addFolders(1, 250);
    const pages = await Promise.all(
      ['', '?page=2', '?page=3'].map(async (q) => (await get(`/dashboard/folders/${q}`)).body),
    );
    expect(pages.map((p) => folderLinks(p).length)).toEqual([100, 100, 50]);
    expect(new Set(pages.flatMap(folderLinks)).size).toBe(250);
    expect(pages[0]).toContain('250 folders');
    expect(pages[0]).toContain('Page 1 of 3');
    expect(pages[0]).toContain('href="/dashboard/folders/?page=2"');
    expect(pages[0]).toContain('F0001');
    expect(pages[0]).not.toContain('F0101');
    expect(pages[2]).toContain('href="/dashboard/folders/?page=2"');
    // Past the last page: the last page.
    const past = await get('/dashboard/folders/?page=9');
    expect(past.statusCode).toBe(303);
    expect(past.headers.location).toBe('/dashboard/folders/?page=3');
  });

  it('finds folders by the words of their names, literally', async () => {
    const journal = await ensureFolder(t.db, org.id, 'Journal of 100% Tests_A');
    const found = (await get('/dashboard/folders/?q=100%25+tests_a')).body;
    expect(folderLinks(found)).toEqual([String(journal)]);
    expect(found).toContain('1 folder matching');
    // `%` and `_` are letters of the name, not patterns.
    expect(folderLinks((await get('/dashboard/folders/?q=F_0')).body)).toEqual([]);
    expect((await get('/dashboard/folders/?q=nothing-like-it')).body).toContain('No folder matches.');
  });
});

describe("the manuscripts page's folder menu", () => {
  it('lists the folders while they are few; past 500, the folder is typed by its name', async () => {
    const few = (await get('/dashboard/manuscripts/')).body;
    expect(few).toContain('<select id="folder" name="folder">');
    await addFolders(251, 600);
    const many = (await get('/dashboard/manuscripts/')).body;
    expect(many).not.toContain('<select id="folder"');
    expect(many).not.toContain('F0599');
    expect(many.length).toBeLessThan(20_000);
    // A folder named, in any case, or numbered: the field shows its name; a name the organization
    // has none of is said.
    const id = (
      await t.db.query<{ id: number }>(
        `SELECT id FROM folders WHERE organization_id = $1 AND name = 'F0599'`,
        [org.id],
      )
    ).rows[0]!.id;
    for (const asked of ['F0599', 'f0599', String(id)]) {
      const chosen = (await get(`/dashboard/manuscripts/?folder=${asked}`)).body;
      expect(chosen).toMatch(/<input\s+id="folder"\s+name="folder"[^>]*value="F0599"/);
      expect(chosen).not.toContain('This organization has no folder');
    }
    expect((await get('/dashboard/manuscripts/?folder=NOPE')).body).toContain(
      'This organization has no folder named “<bdi>NOPE</bdi>”: choose one above.',
    );
  });
});

describe('a count of folders past a thousand', () => {
  it('is said with its thousands separated, as every count of the dashboard, the pages too', async () => {
    const before = Number(
      (
        await t.db.query<{ n: string }>('SELECT count(*) AS n FROM folders WHERE organization_id = $1', [
          org.id,
        ])
      ).rows[0]!.n,
    );
    await addFolders(2001, 2000 + 1_234 - before);
    const page = (await get('/dashboard/folders/')).body;
    // The caption wrote its count by hand: "1234 folders", beside the groups' "2,000 groups".
    expect(page).toContain('1,234 folders');
    expect(page).toContain('Page 1 of 13');
  });
});
