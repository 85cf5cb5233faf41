// The custom fields page over HTTP in-process: a refused new field comes back with everything typed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { notingStatements } from '../helpers/db.ts';
import {
  createTestUser,
  injectForm,
  injectSignIn,
  type InjectSession,
  signInAs,
} from '../helpers/dashboard.ts';
import { createGroup, writeGroupAuthor } from '../../src/authors-groups/store.ts';
import { ensureFolder } from '../../src/folders/folders.ts';
import { createCustomField, type CustomField } from '../../src/custom-fields/store.ts';
import { buildApp } from '../../src/app.ts';

let t: TestApp;
let editor: InjectSession;
beforeAll(async () => {
  t = await createTestApp();
  const org = await createTestOrg(t);
  editor = await signInAs(t, org.id, 'editor');
});
afterAll(async () => t?.close());

describe('adding a custom field', () => {
  it('refused (an option kind without options), shows the message and what was typed, once', async () => {
    const refused = await injectForm(t.app, editor, '/dashboard/custom-fields/', {
      owner: 'folder',
      data_kind: 'single_option',
      name: 'Handling editor',
      description: 'Who handles it',
      options: '',
    });
    expect(refused.statusCode).toBe(303);
    const page = (
      await t.app.inject({ url: '/dashboard/custom-fields/', headers: { cookie: editor.cookie } })
    ).body;
    expect(page).toMatch(/at least one option/);
    expect(page).toContain('value="Handling editor"');
    expect(page).toContain('value="Who handles it"');
    expect(page).toMatch(/<option value="folder"\s+selected/);
    expect(page).toMatch(/<option value="single_option"\s+selected/);
    const again = (
      await t.app.inject({ url: '/dashboard/custom-fields/', headers: { cookie: editor.cookie } })
    ).body;
    expect(again).not.toContain('Handling editor');
    // Where a field's values are entered is said before it is made.
    expect(again).toContain("entered on each folder's and each manuscript's");
  });
});

describe('custom field forms sent twice (a double click, or Back and send again)', () => {
  const fieldsNamed = async (name: string) =>
    (
      await t.db.query<{ api_id: string }>('SELECT api_id FROM custom_fields WHERE name = $1', [name])
    ).rows.map((r) => r.api_id);

  it('a new field is added once, and the second post leads to it', async () => {
    const form = {
      owner: 'proposal',
      data_kind: 'single_option',
      name: 'Decision',
      description: 'The editor’s decision',
      options: 'Accept\nReject',
    };
    const first = await injectForm(t.app, editor, '/dashboard/custom-fields/', form);
    const second = await injectForm(t.app, editor, '/dashboard/custom-fields/', form);
    const ids = await fieldsNamed('Decision');
    expect(ids).toHaveLength(1);
    expect(second.statusCode).toBe(303);
    expect(second.headers.location).toBe(first.headers.location);
    const page = (await t.app.inject({ url: second.headers.location!, headers: { cookie: editor.cookie } }))
      .body;
    expect(page).toContain(
      '(added before, or this form sent twice): nothing new was added, and the field is there once',
    );
    // Not said to be a second send: an editor typing a field made before in a fresh form was told so.
    expect(page).not.toContain('the form was sent again');
    expect(page).not.toContain('class="flash error"');
    // A field of that name that differs from the form is still refused as taken.
    await injectForm(t.app, editor, '/dashboard/custom-fields/', { ...form, options: 'Accept\nRevise' });
    expect(await fieldsNamed('Decision')).toHaveLength(1);
    const list = (
      await t.app.inject({ url: '/dashboard/custom-fields/', headers: { cookie: editor.cookie } })
    ).body;
    expect(list).toContain('class="flash error"');
  });

  it("a field's options added and removed: the second Save field is no refusal", async () => {
    await injectForm(t.app, editor, '/dashboard/custom-fields/', {
      owner: 'folder',
      data_kind: 'multi_option',
      name: 'Topics',
      options: 'Biology\nPhysics',
    });
    const [apiId] = await fieldsNamed('Topics');
    const url = `/dashboard/custom-fields/${apiId}/`;
    const open = async () => (await t.app.inject({ url, headers: { cookie: editor.cookie } })).body;
    const page = await open();
    const seen = /name="seen" value="([^"]*)"/.exec(page)![1]!;
    const biology = /name="remove_option"\s+value="([^"]*)"\s*\/>\s*Biology/.exec(page)![1]!;
    const form = { seen, name: 'Topics', description: '', remove_option: biology, add_options: 'Chemistry' };
    expect((await injectForm(t.app, editor, url, form)).statusCode).toBe(303);
    expect((await injectForm(t.app, editor, url, form)).statusCode).toBe(303);
    const after = await open();
    expect(after).toContain('The field was saved.');
    expect(after).not.toContain('class="flash error"');
    const { rows } = await t.db.query<{ option: string }>(
      'SELECT option FROM custom_field_options WHERE field = $1 ORDER BY "order"',
      [apiId],
    );
    expect(rows.map((r) => r.option)).toEqual(['Physics', 'Chemistry']);
  });
});

/**
 * Runs `run` with an app on the test's database that notes each statement it sends, an editor signed
 * in to a new organization, and a group of that organization.
 */
async function withNotingEditor(
  run: (ctx: {
    app: Awaited<ReturnType<typeof buildApp>>;
    statements: string[];
    org: Awaited<ReturnType<typeof createTestOrg>>;
    session: InjectSession;
    group: Awaited<ReturnType<typeof createGroup>>;
  }) => Promise<void>,
): Promise<void> {
  const { db: noting, statements } = notingStatements(t.db);
  const app = await buildApp({ config: t.config, db: noting });
  await app.ready();
  try {
    const org = await createTestOrg(t);
    const session = await injectSignIn(app, (await createTestUser(t.db, org.id, 'editor')).email);
    const group = await createGroup(t.db, org.id, 'Reviewers');
    await run({ app, statements, org, session, group });
  } finally {
    await app.close();
  }
}

describe("removing many of a field's options held by many records", () => {
  // Each option removed read every record of the organization again (1,000 options over 205,000
  // records: 41 s of CPU); now one statement forgets them all. Counted in the statements that touch
  // the records, through an app on the test's database that notes each statement it sends.
  it('forgets them in every record, of both option kinds, in one statement each', async () => {
    await withNotingEditor(async ({ app, statements, org, session, group }) => {
      const options = Array.from({ length: 1_000 }, (_, i) => `Option ${i}`);
      const make = (dataKind: 'single_option' | 'multi_option') =>
        createCustomField(t.db, org.id, { owner: 'author_from_group', dataKind, name: dataKind, options });
      const single = await make('single_option');
      const multi = await make('multi_option');
      const id = (field: CustomField, i: number) => field.options![i]!.api_id;
      await t.db.query(
        `INSERT INTO group_authors (group_id, client_id, organization_id, name, custom_values)
         SELECT $1, 'c' || g, $2, 'Person ' || g,
                jsonb_build_object($3::text, ($4::text[])[1 + g % 1000], $5::text, jsonb_build_array($6::text, $7::text))
           FROM generate_series(1, 2000) g`,
        [
          group.group_id,
          org.id,
          single.api_id,
          single.options!.map((o) => o.api_id),
          multi.api_id,
          id(multi, 0),
          id(multi, 999),
        ],
      );
      const removeAllButLast = async (field: CustomField) => {
        const url = `/dashboard/custom-fields/${field.api_id}/`;
        const page = (await app.inject({ url, headers: { cookie: session.cookie } })).body;
        const seen = /name="seen" value="([^"]*)"/.exec(page)![1]!;
        const remove_option = field.options!.slice(0, 999).map((o) => o.api_id);
        const saved = await injectForm(app, session, url, { seen, name: field.name, remove_option });
        expect(saved.statusCode).toBe(303);
        const after = (
          await app.inject({ url: saved.headers.location!, headers: { cookie: session.cookie } })
        ).body;
        expect(after).toContain('The field was saved.');
        // One statement for the field's 999 options, not one an option.
        expect(statements.filter((sql) => /^\s*UPDATE group_authors\b/.test(sql))).toHaveLength(1);
        expect(statements.filter((sql) => /\bgroup_authors\b/.test(sql))).toHaveLength(1);
      };
      statements.length = 0;
      await removeAllButLast(multi);
      statements.length = 0;
      await removeAllButLast(single);
      const { rows } = await t.db.query<{ single: string | null; multi: string[]; n: number }>(
        `SELECT custom_values ->> $1::text AS single, custom_values -> $2::text AS multi, count(*)::integer AS n
           FROM group_authors WHERE group_id = $3 GROUP BY 1, 2 ORDER BY 1 NULLS FIRST`,
        [single.api_id, multi.api_id, group.group_id],
      );
      expect(rows).toEqual([
        { single: null, multi: [id(multi, 999)], n: 1_998 },
        { single: id(single, 999), multi: [id(multi, 999)], n: 2 },
      ]);
    });
  });
});

describe("a page's custom fields", () => {
  // A page shows the fields of one owner; it read every option of the organization, a folder's page
  // with no field of its own some 200 ms of CPU on PGlite for the 20,000 options (the cap) of the
  // records' fields (docs/benchmarks/hostile-uploads.md, round 19). Counted in the statements that
  // read options, through an app on the test's database that notes each statement it sends.
  it('reads the options of its own fields only, and none when its fields take none', async () => {
    await withNotingEditor(async ({ app, statements, org, session, group }) => {
      const options = Array.from({ length: 1_000 }, (_, i) => `Record option ${i}`);
      await createCustomField(t.db, org.id, {
        owner: 'author_from_group',
        dataKind: 'multi_option',
        name: 'Topics',
        options,
      });
      await createCustomField(t.db, org.id, { owner: 'folder', dataKind: 'str', name: 'Handling editor' });
      await createCustomField(t.db, org.id, {
        owner: 'proposal',
        dataKind: 'single_option',
        name: 'Decision',
        options: ['Accept', 'Reject'],
      });
      const folderId = await ensureFolder(t.db, org.id, 'J1');
      await writeGroupAuthor(
        t.db,
        { organizationId: org.id, groupId: group.group_id, clientId: 'c1' },
        {
          name: 'Person One',
          emails: null,
          orcids: null,
          articles: null,
          affiliations: null,
          custom_values: {},
        },
      );
      const optionReads = async (url: string) => {
        statements.length = 0;
        const page = await app.inject({ url, headers: { cookie: session.cookie } });
        expect(page.statusCode, page.body.slice(0, 300)).toBe(200);
        return { page: page.body, reads: statements.filter((sql) => /\bcustom_field_options\b/.test(sql)) };
      };
      // Every statement reading options names the page's owner: none reads the records' 1,000 on the
      // folder's page, the folder's none, the manuscripts' none on the record's.
      const ofEveryOwner = (reads: string[]) => reads.filter((sql) => !/\bowner = \$2\b/.test(sql));
      const folder = await optionReads(`/dashboard/folders/${folderId}/`);
      expect(folder.page).toContain('Handling editor');
      expect(folder.page).not.toContain('Record option');
      expect(ofEveryOwner(folder.reads)).toEqual([]);
      const record = await optionReads(`/dashboard/groups/${group.group_id}/records/c1/`);
      expect(record.page).toContain('Record option 999');
      expect(record.page).not.toContain('Accept');
      expect(ofEveryOwner(record.reads)).toEqual([]);
    });
  });
});
