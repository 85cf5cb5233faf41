// An authors group's page over HTTP in-process: a table with no rows says why, and a page past the
// last (an old link, records deleted since) leads to the last one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroup } from '../../src/authors-groups/store.ts';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { injectForm, type InjectSession, signInAs } from '../helpers/dashboard.ts';
import { createCustomField } from '../../src/custom-fields/store.ts';
import { authorUrl } from '../authors-groups/helpers.ts';
import { buildCorpus } from '../referee-finder/fixtures.ts';

let t: TestApp;
let editor: InjectSession;
let groupId: number;
let orgId: number;
let apiHeaders: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  const org = await createTestOrg(t);
  orgId = org.id;
  apiHeaders = org.headers;
  editor = await signInAs(t, org.id, 'editor');
  groupId = (await createGroup(t.db, org.id, 'Board')).group_id;
});
afterAll(async () => t?.close());

const get = (url: string) => t.app.inject({ url, headers: { cookie: editor.cookie } });

/** The names of the records a group's page lists, in its order. */
const recordNames = (body: string) =>
  [...body.matchAll(/<td class="given"><a href="[^"]*">([^<]*)<\/a><\/td>/g)].map((m) => m[1]!);

/**
 * An organization of its own with an editor signed in and one group, its records written straight
 * into the table by `records` ($1 the group, $2 the organization). `page` opens a URL as that
 * editor; `search` lists the records the group's page finds for the words.
 */
async function groupWithRecords(name: string, records: string) {
  const org = await createTestOrg(t);
  const session = await signInAs(t, org.id, 'editor');
  const group = (await createGroup(t.db, org.id, name)).group_id;
  await t.db.query(records, [group, org.id]);
  const page = (url: string) => t.app.inject({ url, headers: { cookie: session.cookie } });
  const search = async (q: string) =>
    recordNames((await page(`/dashboard/groups/${group}/?q=${encodeURIComponent(q)}`)).body);
  return { group, page, search };
}

describe("an authors group's page", () => {
  it('says when it has no records, or none that match', async () => {
    expect((await get(`/dashboard/groups/${groupId}/`)).body).toContain('No records yet.');
    const search = await get(`/dashboard/groups/${groupId}/?q=zzzz`);
    expect(search.body).toContain('No record matches.');
    expect(search.body).not.toContain('No records yet.');
  });

  it('is read by its headings: the records have one, and for an editor the rename and delete forms another', async () => {
    const headings = (body: string) =>
      [...body.matchAll(/<h([12])[^>]*>((?:[^<]|<\/?bdi>)*)<\/h\1>/g)].map((m) => m[2]!.trim());
    // The page was its title alone: a screen reader going by headings never reached the records.
    expect(headings((await get(`/dashboard/groups/${groupId}/`)).body)).toEqual([
      'Authors group <bdi>Board</bdi>',
      'Rename or delete the group',
      'Records',
    ]);
    const viewer = await signInAs(t, orgId, 'viewer');
    const page = await t.app.inject({
      url: `/dashboard/groups/${groupId}/`,
      headers: { cookie: viewer.cookie },
    });
    expect(headings(page.body)).toEqual(['Authors group <bdi>Board</bdi>', 'Records']);
  });

  it("lists a record's emails free to wrap after the @, and before a dot in a long part, as the users table does", async () => {
    const { group, page } = await groupWithRecords(
      'Pool',
      `INSERT INTO group_authors (group_id, client_id, organization_id, name, emails) VALUES
         ($1, 'long', $2, 'Ada Long', ARRAY['ada.long-name@department.university.example', 'a@b.example'])`,
    );
    const body = (await page(`/dashboard/groups/${group}/`)).body;
    // Joined as plain text, a squeezed column broke an address anywhere ("…university.exam / ple");
    // free to wrap before every dot, a phone's column read "a@ / b / .example". A domain of more than
    // 24 characters may wrap before its dots; a shorter part is kept whole.
    expect(body).toContain(
      '<td class="address">ada.long-name@<wbr />department<wbr />.university<wbr />.example, a@<wbr />b.example</td>',
    );
  });

  it('finds each word searched, in any order, in the name, the client id or an email', async () => {
    const { search: found } = await groupWithRecords(
      'Pool',
      `INSERT INTO group_authors (group_id, client_id, organization_id, name, emails) VALUES
         ($1, 'dfw', $2, 'Derek F. Wong', ARRAY['dfwong@um.example']),
         ($1, 'ds', $2, 'Derek Smith', NULL),
         ($1, 'wl-100', $2, 'Li Wong', ARRAY['li@nlp.example'])`,
    );
    expect(await found('derek wong')).toEqual(['Derek F. Wong']);
    expect(await found('  WONG   derek ')).toEqual(['Derek F. Wong']);
    expect(await found('wong')).toEqual(['Derek F. Wong', 'Li Wong']);
    expect(await found('li nlp.example')).toEqual(['Li Wong']);
    expect(await found('wl-1 wong')).toEqual(['Li Wong']);
    expect(await found('derek 100%')).toEqual([]);
  });

  it('finds a name typed without its accents, or with them, as the manuscript page does; other scripts as typed', async () => {
    const { search } = await groupWithRecords(
      'Pool',
      `INSERT INTO group_authors (group_id, client_id, organization_id, name) VALUES
         ($1, 'gg', $2, 'Goran Glavaš'), ($1, 'jn', $2, 'José Núñez'), ($1, 'jo', $2, 'Jose Nunez'),
         ($1, 'wx', $2, '王小明'), ($1, 'op', $2, 'Ольга Петрова'), ($1, 'ay', $2, 'Ayşe Yıldız'),
         ($1, 'dj', $2, 'Đorđe Đurić'), ($1, 'sa', $2, 'SØREN ÆRØ')`,
    );
    const found = async (q: string) => (await search(q)).sort();
    // Typed on a keyboard without accents, "glavas" found nobody.
    expect(await found('glavas')).toEqual(['Goran Glavaš']);
    expect(await found('GORAN GLAVAS')).toEqual(['Goran Glavaš']);
    expect(await found('nunez jose')).toEqual(['Jose Nunez', 'José Núñez']);
    expect(await found('Núñez')).toEqual(['Jose Nunez', 'José Núñez']);
    expect(await found('小明')).toEqual(['王小明']);
    expect(await found('ольга')).toEqual(['Ольга Петрова']);
    expect(await found('glavaz')).toEqual([]);
    // Letters no accent decomposes, in either case: the dotless ı, đ, ø, æ.
    expect(await found('ayse yildiz')).toEqual(['Ayşe Yıldız']);
    expect(await found('Yıldız')).toEqual(['Ayşe Yıldız']);
    expect(await found('dorde duric')).toEqual(['Đorđe Đurić']);
    expect(await found('soren aero')).toEqual(['SØREN ÆRØ']);
  });

  it('leads a page past the last to the last, keeping the search', async () => {
    const res = await get(`/dashboard/groups/${groupId}/?q=a&page=999`);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/dashboard/groups/${groupId}/?q=a`);
  });

  it('a refused record comes back with the message and everything typed, once', async () => {
    const field = await createCustomField(t.db, orgId, {
      owner: 'author_from_group',
      dataKind: 'number',
      name: 'Reviews done',
    });
    const refused = await injectForm(t.app, editor, `/dashboard/groups/${groupId}/records/`, {
      client_id: 'c-typed',
      name: 'Ada Typed <b>',
      emails: 'ada@typed.example\nada@other.example',
      [`cf_${field.api_id}`]: 'three',
    });
    expect(refused.statusCode).toBe(303);
    expect(refused.headers.location).toBe(`/dashboard/groups/${groupId}/new-record/`);
    const form = (await get(`/dashboard/groups/${groupId}/new-record/`)).body;
    expect(form).toContain('“<bdi>three</bdi>” is not a number; enter a number, like 3 or 2.5');
    expect(form).not.toContain('finite');
    // The hint says what to type, not how the API writes it.
    expect(form).toContain('A number, such as 3 or 2.5.');
    expect(form).not.toContain('JSON number');
    expect(form).toContain('value="c-typed"');
    expect(form).toContain('value="Ada Typed &lt;b&gt;"');
    expect(form).toContain('>ada@typed.example\nada@other.example</textarea>');
    expect(form).toContain('value="three"');
    // Shown once: the next view is the empty form.
    const again = (await get(`/dashboard/groups/${groupId}/new-record/`)).body;
    expect(again).not.toContain('c-typed');
    expect(again).not.toContain('is not a number');
    // The API's words are its contract, unchanged: the dashboard says them its own way only.
    const api = await t.app.inject({
      method: 'POST',
      url: authorUrl(groupId, 'c-api'),
      headers: apiHeaders,
      payload: { name: 'Ada Api', [field.api_id]: 'three' },
    });
    expect(api.statusCode).toBe(400);
    expect(JSON.stringify(api.json())).toContain('must be a finite number');
  });

  it('an edit of a record deleted meanwhile (another tab) is offered as a new record, as typed, not lost to a 404', async () => {
    const made = await injectForm(t.app, editor, `/dashboard/groups/${groupId}/records/`, {
      client_id: 'gone-1',
      name: 'Gone Soon',
    });
    expect(made.statusCode).toBe(303);
    const deleted = await injectForm(t.app, editor, `/dashboard/groups/${groupId}/records/gone-1/delete/`, {
      confirm: 'yes',
    });
    expect(deleted.statusCode).toBe(303);
    const stale = await injectForm(t.app, editor, `/dashboard/groups/${groupId}/records/gone-1/`, {
      name: 'Gone Soon, edited',
      emails: 'gone@edited.example',
    });
    // It answered a 404 page: the edit was lost, with no form to send again.
    expect(stale.statusCode).toBe(303);
    expect(stale.headers.location).toBe(`/dashboard/groups/${groupId}/new-record/`);
    const form = (await get(`/dashboard/groups/${groupId}/new-record/`)).body;
    expect(form).toContain('The record <bdi>gone-1</bdi> was deleted meanwhile');
    expect(form).toContain('value="gone-1"');
    expect(form).toContain('value="Gone Soon, edited"');
    expect(form).toContain('>gone@edited.example</textarea>');
    // Nothing was written back by itself.
    expect((await get(`/dashboard/groups/${groupId}/records/gone-1/`)).statusCode).toBe(404);
    // A record of a group deleted meanwhile: still not found.
    const other = await injectForm(t.app, editor, '/dashboard/groups/999999/records/gone-1/', { name: 'X' });
    expect(other.statusCode).toBe(404);
  });

  it('a record whose client id is "new" opens as itself (the add form lives beside the records)', async () => {
    const added = await injectForm(t.app, editor, `/dashboard/groups/${groupId}/records/`, {
      client_id: 'new',
      name: 'Newton New',
    });
    expect(added.statusCode).toBe(303);
    const page = await get(`/dashboard/groups/${groupId}/records/new/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Newton New');
    expect(page.body).not.toContain('Add a record to');
  });

  it("names the corpus author a record is linked to, with a link to the author's page", async () => {
    const ids = await buildCorpus(t.db, [{ authors: [{ name: 'Lina Linked' }] }]);
    const author = ids.authorId('Lina Linked');
    await t.db.query(
      `INSERT INTO group_authors (group_id, client_id, organization_id, name, linked_author_id)
       VALUES ($1, 'lina', $2, 'L. Linked', $3)`,
      [groupId, orgId, author],
    );
    const page = (await get(`/dashboard/groups/${groupId}/`)).body;
    expect(page).toMatch(new RegExp(`/authors/${author}"\\s*>Lina Linked</a`));
  });

  it('renames the group, keeping its id; a blank name is refused on the page', async () => {
    const renamed = await injectForm(t.app, editor, `/dashboard/groups/${groupId}/name/`, {
      name: ' Review board ',
    });
    expect(renamed.statusCode).toBe(303);
    const page = (await get(`/dashboard/groups/${groupId}/`)).body;
    expect(page).toContain('The group is now named <bdi>Review board</bdi>.');
    expect(page).toContain(`Group id ${groupId}`);
    const { rows } = await t.db.query<{ name: string }>('SELECT name FROM authors_groups WHERE id = $1', [
      groupId,
    ]);
    expect(rows[0]!.name).toBe('Review board');
    await injectForm(t.app, editor, `/dashboard/groups/${groupId}/name/`, { name: '  ' });
    expect((await get(`/dashboard/groups/${groupId}/`)).body).toContain(
      'A group name must have 1 to 200 characters',
    );
  });

  it("refuses a second group of the organization's with one name, letter case aside (409), new or renamed", async () => {
    await injectForm(t.app, editor, '/dashboard/groups/', { name: 'Statistics panel' });
    const twin = await injectForm(t.app, editor, '/dashboard/groups/', { name: 'statistics PANEL' });
    expect(twin.statusCode).toBe(303);
    expect((await get('/dashboard/groups/')).body).toContain(
      'A group named “<bdi>statistics PANEL</bdi>” already exists',
    );
    const { rows } = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM authors_groups WHERE lower(name) = 'statistics panel'",
    );
    expect(rows[0]!.n).toBe(1);
    await injectForm(t.app, editor, `/dashboard/groups/${groupId}/name/`, { name: 'Statistics Panel' });
    expect((await get(`/dashboard/groups/${groupId}/`)).body).toContain('already exists');
    // Its own name, in other letters, is no conflict.
    const own = (
      await t.db.query<{ name: string }>('SELECT name FROM authors_groups WHERE id = $1', [groupId])
    ).rows[0]!.name;
    await injectForm(t.app, editor, `/dashboard/groups/${groupId}/name/`, { name: own.toUpperCase() });
    expect((await get(`/dashboard/groups/${groupId}/`)).body).toContain(
      `now named <bdi>${own.toUpperCase()}</bdi>`,
    );
  });
});

describe('a large group, paged by name', () => {
  it("shows the group's size and pages in name order, ignoring case, after rows written by any path", async () => {
    // 120 records written straight into the table, names in no order of their ids, half in capitals.
    const { group: large, page } = await groupWithRecords(
      'Large pool',
      `INSERT INTO group_authors (group_id, client_id, organization_id, name)
       SELECT $1, 'c' || i, $2, CASE WHEN i % 2 = 0 THEN upper(n) ELSE n END
         FROM generate_series(1, 120) i, LATERAL (SELECT 'name ' || md5(i::text) AS n) m`,
    );
    const listed = (await page('/dashboard/groups/')).body.replace(/\s+/g, ' ');
    expect(listed).toMatch(new RegExp(`>${large}</td> <td>120</td>`));
    const expected = (
      await t.db.query<{ name: string }>(
        'SELECT name FROM group_authors WHERE group_id = $1 ORDER BY lower(name), client_id',
        [large],
      )
    ).rows.map((r) => r.name);
    const first = await page(`/dashboard/groups/${large}/`);
    expect(first.body).toContain('Page 1 of 3');
    expect(recordNames(first.body)).toEqual(expected.slice(0, 50));
    const third = await page(`/dashboard/groups/${large}/?page=3`);
    expect(recordNames(third.body)).toEqual(expected.slice(100));

    await t.db.query("DELETE FROM group_authors WHERE group_id = $1 AND client_id LIKE 'c1%'", [large]);
    const left = 120 - 32; // c1, c10-c19, c100-c120
    expect((await page('/dashboard/groups/')).body.replace(/\s+/g, ' ')).toMatch(
      new RegExp(`>${large}</td> <td>${left}</td>`),
    );
    expect((await page(`/dashboard/groups/${large}/`)).body).toContain('Page 1 of 2');
  });
});
