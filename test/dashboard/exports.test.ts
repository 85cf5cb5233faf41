// Taking data out of the dashboard (docs/dashboard.md, "Exports"): a group's records as CSV in the
// columns its import reads (exported and imported again into another group, the records are the
// same), a manuscript's candidates as the page filters and sorts them, or the marked referees alone;
// the files UTF-8 with a byte order mark, CRLF, RFC 4180 quoting, formula cells neutralized, named
// for what they hold (RFC 6266/5987 for a name beyond ASCII); every role that reads the page may
// export; another organization's ids are 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { injectForm, pageAs, signInAs, type InjectSession } from '../helpers/dashboard.ts';
import { rankingFields, upload } from '../manuscripts/upload-helpers.ts';
import { buildCorpus, TOPIC } from '../referee-finder/fixtures.ts';
import { createCustomField } from '../../src/custom-fields/store.ts';
import {
  createGroup,
  findGroupAuthor,
  EXPORT_BATCH_RECORDS,
  groupAuthorsInBatches,
  writeGroupAuthor,
  type GroupAuthorRecord,
} from '../../src/authors-groups/store.ts';
import { updateSettings } from '../../src/organizations/organizations.ts';
import { contentDisposition, csvCell, unneutralizedCell } from '../../src/dashboard/csv.ts';
import { RECORD_HEADERS } from '../../src/dashboard/pages/group-import.ts';

let t: TestApp;
let ids: Awaited<ReturnType<typeof buildCorpus>>;
beforeAll(async () => {
  t = await createTestApp();
  ids = await buildCorpus(t.db, [
    { authors: [{ name: 'Nell Neutral', affiliation: '=HYPERLINK("http://evil.example","click")' }] },
    { authors: [{ name: 'Wei Zhang', affiliation: 'Harbin Institute of Technology' }] },
    { authors: [{ name: 'Zoë Ångström', orcid: '0000-0002-1825-0097' }] },
  ]);
  await t.app.refmatch.index.refresh();
});
afterAll(async () => t?.close());

const get = (session: InjectSession, url: string) =>
  t.app.inject({ url, headers: { cookie: session.cookie } });

/** The file's rows, read as a spreadsheet program's CSV reader reads them (after the byte order mark). */
function rowsOf(body: string): string[][] {
  expect(body.startsWith('\uFEFF')).toBe(true);
  return parse(body.slice(1), { relax_column_count: false }) as string[][];
}

describe('CSV cells', () => {
  it('neutralizes what a spreadsheet would run as a formula, and the import reads it back as written', () => {
    for (const value of [
      '=1+2',
      '+1+A1',
      '-cmd|x',
      '@SUM(A1)',
      '\tx',
      '\rx',
      "'=x",
      "''+x",
      '-',
      '@',
      // Spaces before a formula (a spreadsheet that trims them runs it), DDE, a line break first.
      ' =1+1',
      " \u00a0=cmd|' /C calc'!A0",
      "' =x",
      '\n=1+3',
    ]) {
      const cell = csvCell(value);
      expect(cell.replace(/^"/, '')).toMatch(/^'/);
      const read = (parse(`${cell}\r\n`) as string[][])[0]![0]!;
      expect(unneutralizedCell(read)).toBe(value);
    }
    // Numbers and ordinary text are left as they are; "'x" (no formula after it) too.
    for (const value of ['-1.5', '+3', '1e-3', 'Ada', "'x", "O'Brien"]) expect(csvCell(value)).toBe(value);
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });

  it('names a file in ASCII for old clients and in UTF-8 by RFC 5987 for the others', () => {
    expect(contentDisposition('group-Équipe-2026-12-02.csv')).toBe(
      `attachment; filename="group-_quipe-2026-12-02.csv"; filename*=UTF-8''group-%C3%89quipe-2026-12-02.csv`,
    );
    expect(contentDisposition("a'b (1).csv")).toBe(
      `attachment; filename="a'b (1).csv"; filename*=UTF-8''a%27b%20%281%29.csv`,
    );
  });
});

describe("a group's records", () => {
  async function orgWithGroup() {
    const org = await createTestOrg(t);
    const make = (
      dataKind: 'number' | 'date' | 'single_option' | 'multi_option' | 'str',
      name: string,
      options: string[] = [],
    ) => createCustomField(t.db, org.id, { owner: 'author_from_group', dataKind, name, options });
    const fields = {
      pages: await make('number', 'Reviews done'),
      due: await make('date', 'Available from'),
      level: await make('single_option', 'Seniority', ['Junior', 'Senior; tenured']),
      topics: await make('multi_option', 'Topics', ['Biology', 'Physics', 'Maths']),
      // Named as a record's column: the export names it by its api_id, which the import reads.
      email: await make('str', 'Email'),
    };
    const group = await createGroup(t.db, org.id, 'Équipe "A", 2026');
    return { org, fields, group };
  }

  it('exports every record in the columns the import reads; imported into another group, they are the same', async () => {
    const { org, fields, group } = await orgWithGroup();
    const option = (f: typeof fields.level, text: string) =>
      f.options!.find((o) => o.option === text)!.api_id;
    const records: Array<[string, GroupAuthorRecord]> = [
      [
        'r1',
        {
          name: '=HYPERLINK("http://evil.example","Ada")',
          emails: ['ada@example.org', 'lovelace@example.org'],
          orcids: ['0000-0002-1825-0097'],
          articles: ['10.1000/xyz'],
          affiliations: ['Dept. of Maths; University of London', 'Analytical Engines, Ltd.'],
          custom_values: {
            [fields.pages.api_id]: -3.5,
            [fields.due.api_id]: '2027-01-31',
            [fields.level.api_id]: option(fields.level, 'Senior; tenured'),
            [fields.topics.api_id]: [option(fields.topics, 'Physics'), option(fields.topics, 'Maths')],
            [fields.email.api_id]: '@handle',
          },
        },
      ],
      [
        '-r2',
        {
          name: 'Zoë Ångström, "Zo"',
          emails: null,
          orcids: null,
          articles: null,
          affiliations: ['Uppsala; Sweden'],
          custom_values: { [fields.topics.api_id]: [option(fields.topics, 'Biology')] },
        },
      ],
      [
        'r3',
        {
          name: "'+already quoted",
          emails: null,
          orcids: null,
          articles: null,
          affiliations: null,
          custom_values: {},
        },
      ],
      [
        'r4',
        {
          name: '王小明',
          emails: ['x@example.cn'],
          orcids: null,
          articles: null,
          affiliations: null,
          custom_values: { [fields.pages.api_id]: 12 },
        },
      ],
    ];
    for (const [clientId, record] of records) {
      await writeGroupAuthor(t.db, { organizationId: org.id, groupId: group.group_id, clientId }, record);
    }
    const viewer = await signInAs(t, org.id, 'viewer');
    // The group's page links it, for a viewer too.
    expect(await pageAs(t.app, viewer, `/dashboard/groups/${group.group_id}/`)).toContain(
      `href="/dashboard/groups/${group.group_id}/export/" download`,
    );
    const answer = await get(viewer, `/dashboard/groups/${group.group_id}/export/`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    const date = new Date().toISOString().slice(0, 10);
    expect(answer.headers['content-disposition']).toBe(
      contentDisposition(`group-Équipe-A-,-2026-${date}.csv`),
    );
    const body = answer.body;
    // Every line ends CRLF; a line break inside a cell is inside quotes.
    expect(body.endsWith('\r\n')).toBe(true);
    expect(
      body
        .replace(/"[^"]*"/g, '')
        .split('\n')
        .every((line, i, all) => i === all.length - 1 || line.endsWith('\r')),
    ).toBe(true);
    const rows = rowsOf(body);
    expect(rows[0]).toEqual([
      'client_id',
      'name',
      'emails',
      'orcids',
      'articles',
      'affiliations',
      'Reviews done',
      'Available from',
      'Seniority',
      'Topics',
      fields.email.api_id,
    ]);
    // In client id order, formulas neutralized, lists as the import splits them.
    expect(rows.slice(1).map((r) => r[0])).toEqual(["'-r2", 'r1', 'r3', 'r4']);
    expect(rows[2]![1]).toBe(`'=HYPERLINK("http://evil.example","Ada")`);
    expect(rows[2]![2]).toBe('ada@example.org; lovelace@example.org');
    expect(rows[2]![5]).toBe('Dept. of Maths; University of London\r\nAnalytical Engines, Ltd.');
    expect(rows[2]![6]).toBe('-3.5');
    expect(rows[2]![8]).toBe('Senior; tenured');
    expect(rows[2]![10]).toBe("'@handle");
    expect(rows[3]![1]).toBe("''+already quoted");

    // Imported into a new group of the same organization, the records are those exported.
    const editor = await signInAs(t, org.id, 'editor');
    const copy = await createGroup(t.db, org.id, 'Copy');
    const imported = await injectForm(t.app, editor, `/dashboard/groups/${copy.group_id}/import/`, {
      csv: body,
    });
    expect(imported.statusCode).toBe(303);
    for (const [clientId, record] of records) {
      const back = await findGroupAuthor(t.db, { organizationId: org.id, groupId: copy.group_id, clientId });
      expect(back, clientId).toMatchObject({ ...record, custom_values: record.custom_values });
    }
  });

  it("is a 404 for another organization's group, and reads a group a batch at a time in client id order", async () => {
    const { org, group } = await orgWithGroup();
    const other = await createTestOrg(t);
    const stranger = await signInAs(t, other.id, 'editor');
    const answer = await get(stranger, `/dashboard/groups/${group.group_id}/export/`);
    expect(answer.statusCode).toBe(404);
    expect(answer.headers['content-disposition']).toBeUndefined();

    const blank = { emails: null, orcids: null, articles: null, affiliations: null, custom_values: {} };
    for (const clientId of ['e', 'a', 'c', 'b', 'd']) {
      await writeGroupAuthor(
        t.db,
        { organizationId: org.id, groupId: group.group_id, clientId },
        { ...blank, name: `N ${clientId}` },
      );
    }
    const batches: string[][] = [];
    for await (const batch of groupAuthorsInBatches(
      t.db,
      { organizationId: org.id, groupId: group.group_id },
      2,
    )) {
      batches.push(batch.map((r) => r.client_id));
    }
    expect(batches).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    // Another organization's key reads nothing.
    const none: unknown[] = [];
    for await (const batch of groupAuthorsInBatches(
      t.db,
      { organizationId: other.id, groupId: group.group_id },
      2,
    ))
      none.push(batch);
    expect(none).toEqual([]);
  });
});

describe("a large group's records", () => {
  it('are every one exported once, across the statements that read them', async () => {
    const org = await createTestOrg(t);
    const group = await createGroup(t.db, org.id, 'Large');
    const n = EXPORT_BATCH_RECORDS * 2 + 1;
    await t.db.query(
      `INSERT INTO group_authors (group_id, client_id, organization_id, name)
       SELECT $1, 'c' || i, $2, 'Name ' || i FROM generate_series(1, $3::integer) i`,
      [group.group_id, org.id, n],
    );
    const viewer = await signInAs(t, org.id, 'viewer');
    const rows = rowsOf((await get(viewer, `/dashboard/groups/${group.group_id}/export/`)).body).slice(1);
    expect(rows.length).toBe(n);
    expect(new Set(rows.map((r) => r[0])).size).toBe(n);
  });
});

describe('exports at once', () => {
  it("take a place of the organization's (EXPORTS_IN_FLIGHT_PER_ORG) until the file is sent; past them, 503 and when to try again", async () => {
    const gate = t.app.refmatch.inFlight.exports;
    const [org, other] = [await createTestOrg(t), await createTestOrg(t)];
    const [group, otherGroup] = [
      await createGroup(t.db, org.id, 'G'),
      await createGroup(t.db, other.id, 'G'),
    ];
    const [viewer, otherViewer] = [
      await signInAs(t, org.id, 'viewer'),
      await signInAs(t, other.id, 'viewer'),
    ];
    // The organization's two places held, as two exports still sending would hold them.
    const held = [gate.admit(org.id), gate.admit(org.id)];
    const refused = await get(viewer, `/dashboard/groups/${group.group_id}/export/`);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.headers['content-disposition']).toBeUndefined();
    expect(refused.body).toContain('The organization has 2 exports in progress, the most at once');
    // Another organization's export is not refused for them, and gives its place back once sent.
    const sent = await get(otherViewer, `/dashboard/groups/${otherGroup.group_id}/export/`);
    expect(sent.statusCode).toBe(200);
    held.pop()!();
    expect((await get(viewer, `/dashboard/groups/${group.group_id}/export/`)).statusCode).toBe(200);
    // Each file sent gave its place back: one held, the test's own.
    for (let i = 0; i < 10 && gate.inFlight > 1; i++) await new Promise((r) => setImmediate(r));
    expect(gate.inFlight).toBe(1);
    held.pop()!();
    expect(gate.inFlight).toBe(0);
  });
});

describe("a manuscript's candidates", () => {
  async function uploaded() {
    const org = await createTestOrg(t);
    await updateSettings(t.db, org.id, { include_without_email: true });
    const editor = await signInAs(t, org.id, 'editor');
    const fields = rankingFields({ origin_id: 'ms/ÉX 7', title: 'Molecular graphs', abstract: TOPIC });
    const id = (await upload(t.app, { apiKey: org.apiKey, fields })).json().manuscript_id as number;
    return { org, editor, id };
  }

  it('exports the candidates as the page filters and sorts them, or the marked referees alone, with conflicts', async () => {
    const { org, editor, id } = await uploaded();
    const [nell, wei] = [ids.authorId('Nell Neutral'), ids.authorId('Wei Zhang')];
    const base = `/dashboard/manuscripts/${id}/`;
    expect((await injectForm(t.app, editor, `${base}candidates/${nell}/mark/`)).statusCode).toBe(303);
    expect((await injectForm(t.app, editor, `${base}candidates/${wei}/mark/`)).statusCode).toBe(303);
    expect((await injectForm(t.app, editor, `${base}candidates/${wei}/conflict/`)).statusCode).toBe(303);

    const viewer = await signInAs(t, org.id, 'viewer');
    const page = await pageAs(t.app, viewer, `${base}?sort=name&order=asc`);
    expect(page).toContain(`href="${base}export/?sort=name&amp;order=asc" download`);
    expect(page).toContain(`href="${base}export/?marked=yes&amp;sort=name&amp;order=asc" download`);
    expect(page).toContain('the 2 marked referees only');

    const all = await get(viewer, `${base}export/?sort=name&order=asc`);
    expect(all.statusCode).toBe(200);
    const date = new Date().toISOString().slice(0, 10);
    expect(all.headers['content-disposition']).toBe(contentDisposition(`candidates-ms-ÉX-7-${date}.csv`));
    const rows = rowsOf(all.body);
    const header = rows[0]!;
    const col = (name: string) => header.indexOf(name);
    expect(header).toEqual(
      expect.arrayContaining([
        'Email',
        'ORCID iD',
        'Affiliation',
        'Score',
        'h-index',
        'Conflicts',
        'Marked as referee by',
      ]),
    );
    const names = rows.slice(1).map((r) => r[col('Name')]);
    expect(names).toEqual(
      [...names].sort((a, b) => a!.split(' ').at(-1)!.localeCompare(b!.split(' ').at(-1)!)),
    );
    const nellRow = rows.find((r) => r[col('Author id')] === String(nell))!;
    expect(nellRow[col('Affiliation')]).toBe(`'=HYPERLINK("http://evil.example","click")`);
    expect(nellRow[col('Marked as referee by')]).toMatch(/@/);
    const weiRow = rows.find((r) => r[col('Author id')] === String(wei))!;
    expect(weiRow[col('Conflicts')]).toContain("Organization's flag");
    const zoe = rows.find((r) => r[col('Name')] === 'Zoë Ångström')!;
    expect(zoe[col('ORCID iD')]).toBe('0000-0002-1825-0097');
    expect(zoe[col('Marked as referee by')]).toBe('');

    const marked = await get(viewer, `${base}export/?marked=yes`);
    expect(marked.headers['content-disposition']).toBe(contentDisposition(`referees-ms-ÉX-7-${date}.csv`));
    expect(
      rowsOf(marked.body)
        .slice(1)
        .map((r) => r[col('Author id')])
        .sort(),
    ).toEqual([String(nell), String(wei)].sort());

    // Filtered as the page: without conflicts, the flagged candidate is left out.
    const clean = rowsOf((await get(viewer, `${base}export/?conflicts=none`)).body);
    expect(clean.slice(1).map((r) => r[col('Author id')])).not.toContain(String(wei));
    expect(clean.length).toBeGreaterThan(1);
  });

  it('takes the marked referees into a new authors group, where a search finds one back', async () => {
    const { org, editor, id } = await uploaded();
    const nell = ids.authorId('Nell Neutral');
    const base = `/dashboard/manuscripts/${id}/`;
    expect((await injectForm(t.app, editor, `${base}candidates/${nell}/mark/`)).statusCode).toBe(303);
    const page = await pageAs(t.app, editor, base);
    expect(page).toContain(`href="${base}export/?marked=yes&amp;as=records" download`);
    const file = await get(editor, `${base}export/?marked=yes&as=records`);
    expect(file.statusCode).toBe(200);
    // The group import's own column names, in its order, less the one a candidate has no value for.
    expect(RECORD_HEADERS.filter((h) => h !== 'articles')).toEqual(rowsOf(file.body)[0]);
    expect(rowsOf(file.body)).toEqual([
      ['client_id', 'name', 'emails', 'orcids', 'affiliations'],
      [`author-${nell}`, 'Nell Neutral', '', '', `'=HYPERLINK("http://evil.example","click")`],
    ]);
    const group = await createGroup(t.db, org.id, 'Picked referees');
    const imported = await injectForm(t.app, editor, `/dashboard/groups/${group.group_id}/import/`, {
      csv: file.body,
    });
    expect(imported.statusCode).toBe(303);
    const found = await pageAs(t.app, editor, `/dashboard/groups/${group.group_id}/?q=neutral`);
    expect(found).toContain('1 record matching');
    expect(found).toContain(`author-${nell}`);
    expect(
      (
        await findGroupAuthor(t.db, {
          organizationId: org.id,
          groupId: group.group_id,
          clientId: `author-${nell}`,
        })
      )?.affiliations,
    ).toEqual(['=HYPERLINK("http://evil.example","click")']);
  });

  it("says of a candidate named as the manuscript's author that the name could be theirs, as the row does", async () => {
    const { org, editor, id } = await uploaded();
    const nell = ids.authorId('Nell Neutral');
    const base = `/dashboard/manuscripts/${id}/`;
    expect((await injectForm(t.app, editor, `${base}candidates/${nell}/mark/`)).statusCode).toBe(303);
    // Sent again through the API, the authors changed: Nell Neutral is named as the manuscript's author.
    const fields = rankingFields({
      origin_id: 'ms/ÉX 7',
      title: 'Molecular graphs',
      abstract: TOPIC,
      author1_name: 'Nell Neutral',
    });
    expect((await upload(t.app, { apiKey: org.apiKey, fields })).statusCode).toBe(200);
    expect(await pageAs(t.app, editor, base)).toContain("Named as the manuscript's author");
    const rows = rowsOf((await get(editor, `${base}export/?marked=yes`)).body);
    const conflicts = rows[0]!.indexOf('Conflicts');
    expect(rows[1]![conflicts]).toBe(
      "None found; named as the manuscript's author Nell Neutral (the name alone does not show whether this is the same person)",
    );
  });

  it('says a marked referee flagged, then left out of the candidates by an upload since, is still flagged', async () => {
    // Round 27's walk: a referee flagged and marked, the manuscript sent again on another subject;
    // the marked referees' file said "Not known" of the flag the organization still holds.
    const { org, editor, id } = await uploaded();
    const [nell, wei] = [ids.authorId('Nell Neutral'), ids.authorId('Wei Zhang')];
    const base = `/dashboard/manuscripts/${id}/`;
    expect((await injectForm(t.app, editor, `${base}candidates/${wei}/conflict/`)).statusCode).toBe(303);
    for (const author of [nell, wei])
      expect((await injectForm(t.app, editor, `${base}candidates/${author}/mark/`)).statusCode).toBe(303);
    const again = rankingFields({
      origin_id: 'ms/ÉX 7',
      title: 'Medieval poetry',
      abstract: 'Troubadour lyric in the Occitan courts of the twelfth century.',
    });
    expect((await upload(t.app, { apiKey: org.apiKey, fields: again })).statusCode).toBeLessThan(300);
    const rows = rowsOf((await get(editor, `${base}export/?marked=yes`)).body);
    const conflicts = (author: number) => rows.find((r) => r[1] === String(author))![13];
    expect(conflicts(wei)).toBe(
      "Organization's flag; others not known: not among the last upload's candidates",
    );
    expect(conflicts(nell)).toBe("Not known: not among the last upload's candidates");
    // The page's list of them says the flag too, as the candidates list does (round 27 left it out).
    const page = (await get(editor, base)).body;
    const apart = page.slice(page.indexOf('<ul class="other-marks">'));
    // Each item begins with the referee's name; a conflicts list inside it has items of its own.
    const item = (author: number) =>
      apart
        .split(/<li>\s*<bdi>/)
        .find((li) => li.includes(`(author ${author})`))!
        .replace(/&#39;/g, "'")
        .replace(/\s+/g, ' ');
    expect(item(wei)).toContain(
      `<strong>Organization's flag</strong>: flagged for this manuscript by author id <code><bdi>${wei}</bdi></code>`,
    );
    expect(item(nell)).not.toContain("Organization's flag");
  });

  it('exports a marked referee left out of the candidates by an upload since with the details a candidate has', async () => {
    // Round 27 left: such marks were exported with an empty name split, affiliation and email; the
    // corpus author's details are now read for them as for a candidate (referee-finder/contacts.ts).
    const { org, editor, id } = await uploaded();
    const wei = ids.authorId('Wei Zhang');
    const base = `/dashboard/manuscripts/${id}/`;
    expect((await injectForm(t.app, editor, `${base}candidates/${wei}/mark/`)).statusCode).toBe(303);
    const before = rowsOf((await get(editor, `${base}export/?marked=yes`)).body);
    const beforeRecords = rowsOf((await get(editor, `${base}export/?marked=yes&as=records`)).body);
    const again = rankingFields({
      origin_id: 'ms/ÉX 7',
      title: 'Medieval poetry',
      abstract: 'Troubadour lyric in the Occitan courts of the twelfth century.',
    });
    expect((await upload(t.app, { apiKey: org.apiKey, fields: again })).statusCode).toBeLessThan(300);
    const page = (await get(editor, base)).body;
    expect(page).toContain('Also marked as referees');
    const after = rowsOf((await get(editor, `${base}export/?marked=yes`)).body);
    const row = (rows: string[][]) => rows.find((r) => r[1] === String(wei))!;
    // Name, its parts, email, ORCID iD and affiliation as the candidate's row had them; the score,
    // metrics and conflicts are the upload's, not known for an author it left out.
    expect(row(after).slice(0, 9)).toEqual(row(before).slice(0, 9));
    expect(row(after)[3]).toBe('Wei');
    expect(row(after)[5]).toBe('Zhang');
    expect(row(after)[8]).toBe('Harbin Institute of Technology');
    expect(row(after).slice(9, 13)).toEqual(['', '', '', '']);
    const afterRecords = rowsOf((await get(editor, `${base}export/?marked=yes&as=records`)).body);
    expect(afterRecords.find((r) => r[0] === `author-${wei}`)).toEqual(
      beforeRecords.find((r) => r[0] === `author-${wei}`),
    );
    // An email the organization learnt since (another manuscript of theirs names the referee with
    // it) is read as the finder reads a candidate's.
    const named = rankingFields({
      origin_id: 'ms-wei-author',
      author1_name: 'Wei Zhang',
      author1_email: 'wei.zhang@hit.example',
      author1_aff: 'Harbin Institute of Technology',
    });
    expect((await upload(t.app, { apiKey: org.apiKey, fields: named })).statusCode).toBeLessThan(300);
    const learnt = rowsOf((await get(editor, `${base}export/?marked=yes`)).body);
    expect(row(learnt)[6]).toBe('wei.zhang@hit.example');
    const learntRecords = rowsOf((await get(editor, `${base}export/?marked=yes&as=records`)).body);
    expect(learntRecords.find((r) => r[0] === `author-${wei}`)).toEqual([
      `author-${wei}`,
      'Wei Zhang',
      'wei.zhang@hit.example',
      '',
      'Harbin Institute of Technology',
    ]);
  });

  it('offers the marked referees alone when no candidate is left, and says so', async () => {
    // Round 27 left: the page offered "all 0 candidates" (a file of its header alone) when the last
    // upload left no candidate but marks remained; and none at all when it asked for none.
    const { org, editor, id } = await uploaded();
    const wei = ids.authorId('Wei Zhang');
    const base = `/dashboard/manuscripts/${id}/`;
    expect((await injectForm(t.app, editor, `${base}candidates/${wei}/mark/`)).statusCode).toBe(303);
    const offers = async () => {
      const page = (await get(editor, base)).body.replace(/\s+/g, ' ');
      expect(page).toContain('Also marked as referees');
      expect(page).not.toMatch(/all 0 candidates/);
      expect(page).toContain(`href="${base}export/?marked=yes" download >the 1 marked referee only</a`);
      expect(page).toContain('No candidate to export');
      const rows = rowsOf((await get(editor, `${base}export/?marked=yes`)).body);
      expect(rows.map((r) => r[1])).toEqual(['Author id', String(wei)]);
    };
    // Ranked again, on a subject no author of the corpus wrote on.
    const again = rankingFields({
      origin_id: 'ms/ÉX 7',
      title: 'Medieval poetry',
      abstract: 'Troubadour lyric in the Occitan courts of the twelfth century.',
    });
    expect((await upload(t.app, { apiKey: org.apiKey, fields: again })).json().candidates).toEqual([]);
    await offers();
    // Sent again asking for no candidates.
    const none = { ...again, exclude_candidates: '1' };
    expect((await upload(t.app, { apiKey: org.apiKey, fields: none })).statusCode).toBeLessThan(300);
    expect((await get(editor, base)).body).toContain('No candidates: the last upload asked for none');
    await offers();
  });

  it("is a 404 for another organization's manuscript", async () => {
    const { id } = await uploaded();
    const stranger = await signInAs(t, (await createTestOrg(t)).id, 'viewer');
    expect((await get(stranger, `/dashboard/manuscripts/${id}/export/`)).statusCode).toBe(404);
  });
});
