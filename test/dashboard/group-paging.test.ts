// An organization may hold thousands of authors groups: the groups page lists them 100 a page with a
// search by name (listed whole, thousands of rows were one page), paged as the folders are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import { injectForm, type InjectSession, signInAs } from '../helpers/dashboard.ts';

let t: TestApp;
let org: TestOrg;
let editor: InjectSession;

const get = (url: string) => t.app.inject({ url, headers: { cookie: editor.cookie } });
const groupLinks = (body: string) =>
  [...body.matchAll(/href="\/dashboard\/groups\/(\d+)\/"/g)].map((m) => m[1]);

beforeAll(async () => {
  t = await createTestApp();
  org = await createTestOrg(t);
  editor = await signInAs(t, org.id, 'editor');
  // Groups named `G0250` down to `G0001`: made in SQL, as an import of many would (the cap is not
  // what is tested), their ids in no order of their names.
  await t.db.query(
    `INSERT INTO authors_groups (organization_id, name) SELECT $1, 'G' || lpad(g::text, 4, '0') FROM generate_series(250, 1, -1) g`,
    [org.id],
  );
});
afterAll(async () => t?.close());

describe('authors groups, a page at a time', () => {
  it('lists 100 a page by name, with the way to the next; the pages together list each group once', async () => {
    const pages = await Promise.all(
      ['', '?page=2', '?page=3'].map(async (q) => (await get(`/dashboard/groups/${q}`)).body),
    );
    expect(pages.map((p) => groupLinks(p).length)).toEqual([100, 100, 50]);
    expect(new Set(pages.flatMap(groupLinks)).size).toBe(250);
    expect(pages[0]).toContain('250 groups');
    expect(pages[0]).toContain('Page 1 of 3');
    expect(pages[0]).toContain('href="/dashboard/groups/?page=2" rel="next"');
    expect(pages[0]).toContain('G0001');
    expect(pages[0]).not.toContain('G0101');
    expect(pages[2]).toContain('href="/dashboard/groups/?page=2" rel="prev"');
    // The form adding a group is on every page.
    expect(pages[2]).toContain('Add group');
    // Past the last page: the last page.
    const past = await get('/dashboard/groups/?page=9');
    expect(past.statusCode).toBe(303);
    expect(past.headers.location).toBe('/dashboard/groups/?page=3');
  });

  it('finds groups by the words of their names, literally, and keeps the search across pages', async () => {
    const added = await injectForm(t.app, editor, '/dashboard/groups/', { name: 'Panel of 100% Tests_A' });
    expect(added.statusCode).toBe(303);
    const found = (await get('/dashboard/groups/?q=100%25+tests_a')).body;
    expect(groupLinks(found)).toHaveLength(1);
    expect(found).toContain('1 group matching');
    expect(groupLinks((await get('/dashboard/groups/?q=G_0')).body)).toEqual([]);
    expect((await get('/dashboard/groups/?q=nothing-like-it')).body).toContain('No group matches.');
    const many = (await get('/dashboard/groups/?q=G0')).body;
    expect(many).toContain('250 groups matching');
    expect(many).toContain('href="/dashboard/groups/?q=G0&amp;page=2"');
  });

  it('a new group sent twice (a double click on Add group) is added once, and its page says it is there', async () => {
    const first = await injectForm(t.app, editor, '/dashboard/groups/', { name: 'Referees 2027' });
    const second = await injectForm(t.app, editor, '/dashboard/groups/', { name: ' Referees 2027 ' });
    expect(first.headers.location).toMatch(/^\/dashboard\/groups\/\d+\/$/);
    // The page the browser shows is the second's: the group, not "a group named ... already exists".
    expect(second.headers.location).toBe(first.headers.location);
    const shown = (await get(second.headers.location as string)).body;
    expect(shown).toContain(
      '(added before, or this form sent twice): nothing new was added, and the group is there once',
    );
    // Not said to be a second send: an editor typing a group's name made before was told so.
    expect(shown).not.toContain('the form was sent again');
    const { rows } = await t.db.query<{ n: number }>(
      "SELECT count(*)::integer AS n FROM authors_groups WHERE organization_id = $1 AND lower(name) = 'referees 2027'",
      [org.id],
    );
    expect(rows[0]!.n).toBe(1);
    // Another letter case is another name, refused as taken.
    const other = await injectForm(t.app, editor, '/dashboard/groups/', { name: 'REFEREES 2027' });
    expect(other.headers.location).toBe('/dashboard/groups/');
    expect((await get('/dashboard/groups/')).body).toContain('already exists');
  });

  it('puts the add form before the list, and a refused add comes back to the search and page it was sent from', async () => {
    const listed = (await get('/dashboard/groups/?q=G0&page=2')).body;
    // Before the 100 rows (some 110 Tabs), not after them.
    const form = listed.indexOf('action="/dashboard/groups/?q=G0&amp;page=2"');
    expect(form).toBeGreaterThan(0);
    expect(form).toBeLessThan(listed.indexOf('<table'));
    expect(listed.indexOf('Add group')).toBeLessThan(listed.indexOf('<table'));
    // A name taken in other letter case is refused: back on page 2 of the search, the name kept.
    const refused = await injectForm(t.app, editor, '/dashboard/groups/?q=G0&page=2', { name: 'g0001' });
    expect(refused.headers.location).toBe('/dashboard/groups/?q=G0&page=2');
    const back = (await get(refused.headers.location as string)).body;
    expect(back).toContain('already exists');
    expect(back).toContain('value="g0001"');
    expect(back).toContain('Page 2 of 3');
    expect(back).toContain('matching');
  });
});
