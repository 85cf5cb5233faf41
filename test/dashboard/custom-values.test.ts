// Custom field values of folders and manuscripts over HTTP in-process: each kind saved and shown,
// cleared, refused with a message (and what was typed kept), nothing of another organization reached,
// no value left behind by a deleted field, option, folder or manuscript, and who may change them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { injectForm, type InjectSession, signInAs } from '../helpers/dashboard.ts';
import { createCustomField, type CustomField } from '../../src/custom-fields/store.ts';
import { saveCustomValues, type ValueOwner } from '../../src/custom-fields/folder-manuscript-values.ts';
import type { DataKind } from '../../src/custom-fields/kinds.ts';
import { ensureFolder } from '../../src/folders/folders.ts';
import { createGroup } from '../../src/authors-groups/store.ts';
import type { Role } from '../../src/users/roles.ts';

let t: TestApp;
let counter = 0;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

type Fields = Record<'number' | 'str' | 'date' | 'single' | 'multi', CustomField>;

interface Org {
  id: number;
  folderId: number;
  manuscriptId: number;
  fields: Record<ValueOwner, Fields>;
  sessions: Partial<Record<Role, InjectSession>>;
}

async function makeOrg(roles: Role[] = ['editor']): Promise<Org> {
  const id = (await createTestOrg(t)).id;
  const folderId = await ensureFolder(t.db, id, `F${++counter}`);
  // A group to choose: without one, the folder's page has no referee finder form (nothing to act on).
  await createGroup(t.db, id, 'Pool');
  const manuscript = await t.db.query<{ id: number }>(
    `INSERT INTO manuscripts (organization_id, origin_id, folder_id, supplied, authors_count, title, abstract)
     VALUES ($1, 'ms-1', $2, '{"title": "Notes", "abstract": "", "authors": []}', 0, 'Notes', '')
     RETURNING id`,
    [id, folderId],
  );
  const fieldsOf = async (owner: ValueOwner): Promise<Fields> => {
    const make = (dataKind: DataKind, name: string, options: string[] = []) =>
      createCustomField(t.db, id, { owner, dataKind, name, options });
    return {
      number: await make('number', 'Pages'),
      str: await make('str', 'Note'),
      date: await make('date', 'Due'),
      single: await make('single_option', 'Open access', ['Yes', 'No']),
      multi: await make('multi_option', 'Topics', ['Biology', 'Physics', 'Maths']),
    };
  };
  const sessions: Org['sessions'] = {};
  for (const role of roles) {
    sessions[role] = await signInAs(t, id, role);
  }
  return {
    id,
    folderId,
    manuscriptId: manuscript.rows[0]!.id,
    fields: { folder: await fieldsOf('folder'), proposal: await fieldsOf('proposal') },
    sessions,
  };
}

const SUBJECTS = [
  { owner: 'folder', what: 'folder', table: 'folder_custom_values', subject: 'folder_id' },
  { owner: 'proposal', what: 'manuscript', table: 'manuscript_custom_values', subject: 'manuscript_id' },
] as const;

function pageOf(org: Org, owner: ValueOwner): string {
  return owner === 'folder'
    ? `/dashboard/folders/${org.folderId}/`
    : `/dashboard/manuscripts/${org.manuscriptId}/`;
}

function opt(field: CustomField, i: number): string {
  return field.options![i]!.api_id;
}

/** The form as the page posts it: every field of the owner on it, with the values given (else empty). */
function save(
  session: InjectSession,
  org: Org,
  owner: ValueOwner,
  values: Record<string, string | string[]>,
) {
  const fields = Object.values(org.fields[owner]);
  const form: Record<string, string | string[]> = {
    form: 'custom_values',
    on_form: fields.map((f) => f.api_id),
  };
  for (const f of fields) if (f.data_kind !== 'multi_option') form[`cf_${f.api_id}`] = '';
  for (const [id, value] of Object.entries(values)) form[`cf_${id}`] = value;
  return injectForm(t.app, session, `${pageOf(org, owner)}custom-values/`, form);
}

async function get(session: InjectSession, url: string) {
  return t.app.inject({ url, headers: { cookie: session.cookie } });
}

async function stored(owner: ValueOwner, subjectId: number): Promise<Record<string, unknown>> {
  const { table, subject } = SUBJECTS.find((s) => s.owner === owner)!;
  const { rows } = await t.db.query<{ field: string; value: unknown }>(
    `SELECT field::text, value FROM ${table} WHERE ${subject} = $1`,
    [subjectId],
  );
  return Object.fromEntries(rows.map((r) => [r.field, r.value]));
}

const subjectIdOf = (org: Org, owner: ValueOwner) => (owner === 'folder' ? org.folderId : org.manuscriptId);

for (const { owner, what } of SUBJECTS) {
  describe(`a ${what}'s custom values`, () => {
    it('each kind is saved, shown in the form, and read as text by a viewer', async () => {
      const org = await makeOrg(['editor', 'viewer']);
      const f = org.fields[owner];
      const res = await save(org.sessions.editor!, org, owner, {
        [f.number.api_id]: '2.5',
        [f.str.api_id]: 'Handle <with> care',
        [f.date.api_id]: '2026-03-31',
        [f.single.api_id]: opt(f.single, 1),
        [f.multi.api_id]: [opt(f.multi, 0), opt(f.multi, 2)],
      });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`${pageOf(org, owner)}#custom-fields-message`);
      expect(await stored(owner, subjectIdOf(org, owner))).toEqual({
        [f.number.api_id]: 2.5,
        [f.str.api_id]: 'Handle <with> care',
        [f.date.api_id]: '2026-03-31',
        [f.single.api_id]: opt(f.single, 1),
        [f.multi.api_id]: [opt(f.multi, 0), opt(f.multi, 2)],
      });

      const page = (await get(org.sessions.editor!, pageOf(org, owner))).body;
      expect(page).toContain('custom fields were saved.');
      expect(page).toMatch(new RegExp(`id="cf_${f.number.api_id}"[^>]*value="2.5"`));
      expect(page).toContain('value="Handle &lt;with&gt; care"');
      expect(page).toMatch(new RegExp(`type="date"[^>]*value="2026-03-31"`));
      expect(page).toMatch(new RegExp(`<option value="${opt(f.single, 1)}" selected`));
      expect(page).toMatch(new RegExp(`value="${opt(f.multi, 0)}"\\s+checked`));
      expect(page).not.toMatch(new RegExp(`value="${opt(f.multi, 1)}"\\s+checked`));
      // Each input is named by a label (or a fieldset's legend) and described by its rule.
      expect(page).toContain(`<label for="cf_${f.number.api_id}">Pages</label>`);
      expect(page).toContain(`aria-describedby="cf_${f.date.api_id}-rule"`);
      expect(page).toContain('<legend dir="auto">Topics</legend>');

      const viewer = (await get(org.sessions.viewer!, pageOf(org, owner))).body;
      expect(viewer).not.toContain('Save custom fields');
      expect(viewer).toContain('<dt dir="auto">Open access</dt>');
      expect(viewer).toMatch(/<dd>No<\/dd>/);
      expect(viewer).toMatch(/<dd>Biology, Maths<\/dd>/);
      expect(viewer).toContain('<dd>Handle &lt;with&gt; care</dd>');
    });

    it('a save comes back at its message, beside the fields, naming each field sent empty', async () => {
      const org = await makeOrg();
      const f = org.fields[owner];
      // A date the browser sent empty (a day that does not exist, 2025-02-30, is no value to a date
      // input): "saved" alone let the editor believe it was stored.
      const res = await save(org.sessions.editor!, org, owner, {
        [f.number.api_id]: '4',
        [f.str.api_id]: 'kept',
        [f.single.api_id]: opt(f.single, 0),
      });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`${pageOf(org, owner)}#custom-fields-message`);
      const page = (await get(org.sessions.editor!, pageOf(org, owner))).body;
      // Under the section's heading, where the page comes back to, not at the page's top.
      expect(page).toMatch(
        new RegExp(
          `<h2 id="custom-fields">Custom fields</h2>\\s*<p\\s+id="custom-fields-message"[^>]*tabindex="-1"[^>]*>\\s*The ${what}&#39;s custom fields were saved\\. Empty now: <bdi>Due</bdi>, <bdi>Topics</bdi>\\.\\s*</p>`,
        ),
      );
      expect(page.match(/custom fields were saved/g)).toHaveLength(1);
      // Every field filled: "saved", nothing more.
      await save(org.sessions.editor!, org, owner, {
        [f.number.api_id]: '4',
        [f.str.api_id]: 'kept',
        [f.date.api_id]: '2025-02-28',
        [f.single.api_id]: opt(f.single, 0),
        [f.multi.api_id]: [opt(f.multi, 1)],
      });
      expect((await get(org.sessions.editor!, pageOf(org, owner))).body).toMatch(
        new RegExp(`The ${what}&#39;s custom fields were saved\\.\\s*</p>`),
      );
    });

    it('a field left empty, or with no option chosen, has its value cleared; the others stay', async () => {
      const org = await makeOrg();
      const f = org.fields[owner];
      const editor = org.sessions.editor!;
      await save(editor, org, owner, {
        [f.number.api_id]: '3',
        [f.str.api_id]: 'kept',
        [f.multi.api_id]: [opt(f.multi, 1)],
      });
      const res = await save(editor, org, owner, { [f.str.api_id]: 'kept' });
      expect(res.statusCode).toBe(303);
      expect(await stored(owner, subjectIdOf(org, owner))).toEqual({ [f.str.api_id]: 'kept' });
    });

    it('a field not on the form that was posted (added since the page loaded) keeps its value', async () => {
      const org = await makeOrg();
      const f = org.fields[owner];
      await save(org.sessions.editor!, org, owner, { [f.str.api_id]: 'set elsewhere' });
      const res = await injectForm(t.app, org.sessions.editor!, `${pageOf(org, owner)}custom-values/`, {
        form: 'custom_values',
        on_form: f.number.api_id,
        [`cf_${f.number.api_id}`]: '7',
      });
      expect(res.statusCode).toBe(303);
      expect(await stored(owner, subjectIdOf(org, owner))).toEqual({
        [f.number.api_id]: 7,
        [f.str.api_id]: 'set elsewhere',
      });
    });

    it('invalid values are refused with a message naming each field; nothing changes; what was typed is shown again', async () => {
      const org = await makeOrg();
      const f = org.fields[owner];
      const editor = org.sessions.editor!;
      await save(editor, org, owner, { [f.number.api_id]: '1' });
      const other = org.fields[owner === 'folder' ? 'proposal' : 'folder'];
      const res = await save(editor, org, owner, {
        [f.number.api_id]: 'twelve',
        [f.str.api_id]: 'typed',
        [f.date.api_id]: '2023-02-29',
        // An option of another field: not one of this field's.
        [f.single.api_id]: opt(other.single, 0),
        [f.multi.api_id]: [opt(f.multi, 0), opt(f.multi, 0)],
      });
      expect(res.statusCode).toBe(303);
      // Refused: without the section's fragment, which would win over the first wrong field's autofocus.
      expect(res.headers.location).toBe(pageOf(org, owner));
      expect(await stored(owner, subjectIdOf(org, owner))).toEqual({ [f.number.api_id]: 1 });

      const page = (await get(editor, pageOf(org, owner))).body.replace(/<\/?bdi>/g, '');
      expect(page).toContain('role="alert"');
      // In an editor's words, quoting what was typed: the API's "must be a finite number" is its own.
      expect(page).toContain('Pages: “twelve” is not a number; enter a number, like 3 or 2.5');
      expect(page).not.toContain('finite');
      expect(page).toContain('Due must be a calendar date YYYY-MM-DD');
      expect(page).toContain('Open access is not an option of this field');
      expect(page).toContain('Topics (choice 2) repeats an option');
      // The message at the top says each once, by the field's name: it said "Pages must be a finite
      // number; …: cf_<id> Pages must be a finite number; cf_<id> …", the inputs' names and all.
      const flash = /<p\s+class="flash error"[\s\S]*?<\/p>/.exec(page)![0];
      expect(flash).not.toContain('cf_');
      expect(flash.split('is not a number')).toHaveLength(2);
      expect(page).toMatch(new RegExp(`id="cf_${f.number.api_id}"[^>]*value="twelve"`));
      expect(page).toContain('value="typed"');
      expect(page).toMatch(new RegExp(`value="${opt(f.multi, 0)}"\\s+checked`));
      // The folder's other form, its referee finder settings, shows what is stored, not this post.
      if (owner === 'folder') expect(page).toMatch(/value="highlight"\s+checked/);
      // Shown once: loaded again, the page shows what is stored.
      const again = (await get(editor, pageOf(org, owner))).body;
      expect(again).toMatch(new RegExp(`id="cf_${f.number.api_id}"[^>]*value="1"`));
      expect(again).not.toContain('value="typed"');
    });

    it('a text over its limit is refused saying the limit as the page writes counts', async () => {
      const org = await makeOrg();
      const f = org.fields[owner];
      const editor = org.sessions.editor!;
      const res = await save(editor, org, owner, { [f.str.api_id]: 'n'.repeat(10_001) });
      expect(res.statusCode).toBe(303);
      const page = (await get(editor, pageOf(org, owner))).body.replace(/<\/?bdi>/g, '');
      // The field's hint says "Text of at most 10,000 characters."; the refusal said "10000".
      expect(page).toContain('Note must have at most 10,000 characters');
      expect(page).toContain('Text of at most 10,000 characters.');
      expect(await stored(owner, subjectIdOf(org, owner))).toEqual({});
    });

    it('a decimal comma is read as a point where it cannot be misread; else the message says how to type it', async () => {
      const org = await makeOrg();
      const f = org.fields[owner];
      const editor = org.sessions.editor!;
      for (const [typed, value] of [
        ['3,5', 3.5],
        ['-0,25', -0.25],
        ['12,3456', 12.3456],
        // A sign, and a decimal without its leading zero, as editors type them: numbers, not "not a number".
        ['+3', 3],
        ['.5', 0.5],
        ['-.5', -0.5],
        ['2.5', 2.5],
      ] as const) {
        expect((await save(editor, org, owner, { [f.number.api_id]: typed })).statusCode).toBe(303);
        expect(await stored(owner, subjectIdOf(org, owner))).toEqual({ [f.number.api_id]: value });
      }
      // Fifteen hundred, or one and a half: refused, saying how to type it, what was typed kept.
      for (const typed of ['1,500', '1.234,5', '1,2,3']) {
        const res = await save(editor, org, owner, { [f.number.api_id]: typed, [f.str.api_id]: 'kept' });
        expect(res.statusCode).toBe(303);
        expect(await stored(owner, subjectIdOf(org, owner))).toEqual({ [f.number.api_id]: 2.5 });
        const page = (await get(editor, pageOf(org, owner))).body;
        expect(page).toContain(`<bdi>Pages</bdi>: &quot;${typed}&quot; could be read more than one way.`);
        expect(page).toContain('such as 1500 or 1.5 (a single decimal comma, as in 3,5, is read as 3.5)');
        expect(page).toMatch(
          new RegExp(`id="cf_${f.number.api_id}"[^>]*value="${typed.replace('.', '\\.')}"`),
        );
        expect(page).toContain('value="kept"');
      }
      // The rule is under the input.
      expect((await get(editor, pageOf(org, owner))).body).toContain(
        'A decimal comma (2,5) is read as a point.',
      );
    });

    it("another organization's " + what + ' is not found (404), and its values unchanged', async () => {
      const mine = await makeOrg();
      const theirs = await makeOrg();
      const f = theirs.fields[owner];
      await save(theirs.sessions.editor!, theirs, owner, { [f.str.api_id]: 'theirs' });
      const url = pageOf(theirs, owner);
      expect((await get(mine.sessions.editor!, url)).statusCode).toBe(404);
      const res = await save(mine.sessions.editor!, theirs, owner, { [f.str.api_id]: 'mine' });
      expect(res.statusCode).toBe(404);
      expect(await stored(owner, subjectIdOf(theirs, owner))).toEqual({ [f.str.api_id]: 'theirs' });
    });

    it("another organization's field is no field here: not stored from the form, refused by the store, and by the database", async () => {
      const mine = await makeOrg();
      const theirs = await makeOrg();
      const foreign = theirs.fields[owner].str;
      const res = await injectForm(t.app, mine.sessions.editor!, `${pageOf(mine, owner)}custom-values/`, {
        form: 'custom_values',
        on_form: foreign.api_id,
        [`cf_${foreign.api_id}`]: 'x',
      });
      expect(res.statusCode).toBe(303);
      expect(await stored(owner, subjectIdOf(mine, owner))).toEqual({});
      await expect(
        saveCustomValues(t.db, mine.id, owner, subjectIdOf(mine, owner), [[foreign.api_id, 'x']]),
      ).rejects.toMatchObject({
        status: 400,
        message: expect.stringContaining(`is not a field of a ${what}`),
      });
      // Nor can a value join a field of another organization, whatever the query.
      const { table, subject } = SUBJECTS.find((s) => s.owner === owner)!;
      await expect(
        t.db.query(
          `INSERT INTO ${table} (${subject}, field, organization_id, value) VALUES ($1, $2, $3, '"x"')`,
          [subjectIdOf(mine, owner), foreign.api_id, mine.id],
        ),
      ).rejects.toThrow();
      // The field's own page is another organization's too.
      expect(
        (await get(mine.sessions.editor!, `/dashboard/custom-fields/${foreign.api_id}/`)).statusCode,
      ).toBe(404);
    });

    it('a deleted field leaves no values; a removed option is taken out of the values that held it', async () => {
      const org = await makeOrg();
      const f = org.fields[owner];
      const editor = org.sessions.editor!;
      await save(editor, org, owner, {
        [f.number.api_id]: '4',
        [f.str.api_id]: 'stays',
        [f.single.api_id]: opt(f.single, 0),
        [f.multi.api_id]: [opt(f.multi, 0), opt(f.multi, 1)],
      });
      const deleted = await injectForm(t.app, editor, `/dashboard/custom-fields/${f.number.api_id}/delete/`, {
        confirm: 'yes',
      });
      expect(deleted.statusCode).toBe(303);
      for (const [field, option] of [
        [f.single, opt(f.single, 0)],
        [f.multi, opt(f.multi, 0)],
      ] as const) {
        const removed = await injectForm(t.app, editor, `/dashboard/custom-fields/${field.api_id}/`, {
          name: field.name,
          remove_option: option,
        });
        expect(removed.statusCode).toBe(303);
      }
      const { table } = SUBJECTS.find((s) => s.owner === owner)!;
      const left = await t.db.query(`SELECT 1 FROM ${table} WHERE field = $1`, [f.number.api_id]);
      expect(left.rows).toEqual([]);
      expect(await stored(owner, subjectIdOf(org, owner))).toEqual({
        [f.str.api_id]: 'stays',
        [f.multi.api_id]: [opt(f.multi, 1)],
      });
      const page = (await get(editor, pageOf(org, owner))).body;
      expect(page).not.toContain(`cf_${f.number.api_id}`);
    });
  });
}

describe('who may change custom values', () => {
  it("an editor changes a folder's and a manuscript's; a viewer, an account manager and an integrations admin get neither the form nor the post (403)", async () => {
    const org = await makeOrg(['editor', 'viewer', 'account_manager', 'integrations_admin']);
    for (const { owner } of SUBJECTS) {
      const f = org.fields[owner];
      expect((await get(org.sessions.editor!, pageOf(org, owner))).body).toContain('Save custom fields');
      for (const role of ['viewer', 'account_manager', 'integrations_admin'] as const) {
        const session = org.sessions[role]!;
        expect((await get(session, pageOf(org, owner))).body).not.toContain('Save custom fields');
        const res = await save(session, org, owner, { [f.str.api_id]: role });
        expect(res.statusCode, `${role} ${owner}`).toBe(403);
      }
      expect(await stored(owner, subjectIdOf(org, owner))).toEqual({});
    }
  });
});

describe('an organization without such fields', () => {
  it('is told where they are made, and is offered no form', async () => {
    const id = (await createTestOrg(t)).id;
    const folderId = await ensureFolder(t.db, id, 'BARE');
    const editor = await signInAs(t, id, 'editor');
    const page = (await get(editor, `/dashboard/folders/${folderId}/`)).body;
    expect(page).toContain('No custom fields for folders yet');
    expect(page).not.toContain('Save custom fields');
  });

  it('tells a role that cannot make them who can, not where they are made', async () => {
    const id = (await createTestOrg(t)).id;
    const folderId = await ensureFolder(t.db, id, 'BARE');
    for (const role of ['viewer', 'account_manager', 'integrations_admin'] as const) {
      const page = (await get(await signInAs(t, id, role), `/dashboard/folders/${folderId}/`)).body;
      expect(page, role).toContain('No custom fields for folders yet.');
      expect(page, role).toMatch(/Only an editor can\s+make them\./);
      expect(page, role).not.toContain('they are made on the');
    }
    const editorPage = (await get(await signInAs(t, id, 'editor'), `/dashboard/folders/${folderId}/`)).body;
    expect(editorPage).toContain('they are made on the');
  });
});

describe("a folder's two forms", () => {
  it('a refused referee finder settings form comes back alone: the custom values form shows what is stored', async () => {
    const org = await makeOrg();
    const f = org.fields.folder;
    const editor = org.sessions.editor!;
    await save(editor, org, 'folder', { [f.str.api_id]: 'stored' });
    const refused = await injectForm(t.app, editor, `/dashboard/folders/${org.folderId}/settings/`, {
      effect: 'boost',
      boost: 'lots',
    });
    expect(refused.statusCode).toBe(303);
    const page = (await get(editor, pageOf(org, 'folder'))).body;
    expect(page).toContain('The boost multiplier: “<bdi>lots</bdi>” is not a number');
    expect(page).toContain('value="lots"');
    expect(page).toMatch(new RegExp(`id="cf_${f.str.api_id}"[^>]*value="stored"`));
  });
});

describe('deleting a folder or a manuscript', () => {
  it('deletes its values', async () => {
    const org = await makeOrg();
    const editor = org.sessions.editor!;
    await save(editor, org, 'folder', { [org.fields.folder.str.api_id]: 'f' });
    await save(editor, org, 'proposal', { [org.fields.proposal.str.api_id]: 'm' });
    await t.db.query('DELETE FROM manuscripts WHERE id = $1', [org.manuscriptId]);
    expect(await stored('proposal', org.manuscriptId)).toEqual({});
    expect(await stored('folder', org.folderId)).not.toEqual({});
    await t.db.query('DELETE FROM folders WHERE id = $1', [org.folderId]);
    expect(await stored('folder', org.folderId)).toEqual({});
  });
});
