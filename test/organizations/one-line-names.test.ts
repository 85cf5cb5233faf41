// The names an organization gives its own things are one line of text (src/infra/one-line-text.ts):
// a group's name (new and renamed), a custom field's name and each of its options, an API key's
// label and the organization's own name are refused with a line break, a tab, an escape character,
// a C1 control or a line separator inside them, over HTTP through the dashboard's forms and through
// the CLI's commands; the same names with those only at their ends are trimmed and kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroup } from '../../src/authors-groups/store.ts';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { injectForm, pageAs, signInAs, type InjectSession } from '../helpers/dashboard.ts';
import { runCommand } from '../manuscripts/cli-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

/** Each kind of character a one-line name may not hold, inside a name that is otherwise fine. */
const NOT_ONE_LINE = [
  ['a CR/LF', 'Board\r\nX-Injected: 1', 'a carriage return, U+000D'],
  ['a line feed', 'Board\nSecond line', 'a line feed, U+000A'],
  ['a tab', 'Board\tpanel', 'a tab, U+0009'],
  ['a terminal escape', 'Board\u001b[31mred', 'an escape character, U+001B'],
  ['a C1 control (CSI)', 'Board\u009b31mred', 'a control character, U+009B'],
  ['a line separator', 'Board\u2028panel', 'a line separator, U+2028'],
] as const;

const refusal = (what: string, holds: string) =>
  `${what} must be one line of text, without line breaks, tabs or other control characters (it holds ${holds})`;

async function tableNames(table: 'authors_groups' | 'custom_fields', orgId: number): Promise<string[]> {
  const { rows } = await t.db.query<{ name: string }>(
    `SELECT name FROM ${table} WHERE organization_id = $1 ORDER BY name`,
    [orgId],
  );
  return rows.map((r) => r.name);
}

/** The page a refused form leads back to, with the message the refusal flashed. */
async function refusedOn(session: InjectSession, url: string, fields: Record<string, string>) {
  const sent = await injectForm(t.app, session, url, fields);
  expect(sent.statusCode).toBe(303);
  return pageAs(t.app, session, sent.headers.location as string);
}

describe("a group's name is one line", () => {
  it.each(NOT_ONE_LINE)('a new group named with %s is refused, nothing made', async (_, name, holds) => {
    const org = await createTestOrg(t);
    const editor = await signInAs(t, org.id, 'editor');
    const page = await refusedOn(editor, '/dashboard/groups/', { name });
    expect(page).toContain(refusal('A group name', holds));
    expect(await tableNames('authors_groups', org.id)).toEqual([]);
  });

  it('a rename to two lines is refused, the name kept; line breaks at the ends are trimmed', async () => {
    const org = await createTestOrg(t);
    const editor = await signInAs(t, org.id, 'editor');
    const { group_id } = await createGroup(t.db, org.id, 'Board');
    const page = await refusedOn(editor, `/dashboard/groups/${group_id}/name/`, { name: 'Bad\r\nX: 1' });
    expect(page).toContain(refusal('A group name', 'a carriage return, U+000D'));
    expect(await tableNames('authors_groups', org.id)).toEqual(['Board']);
    const trimmed = await injectForm(t.app, editor, `/dashboard/groups/${group_id}/name/`, {
      name: '\r\nReview board\r\n',
    });
    expect(trimmed.statusCode).toBe(303);
    expect(await tableNames('authors_groups', org.id)).toEqual(['Review board']);
  });

  it('the CLI refuses it too, with the catalogue error', async () => {
    const org = await createTestOrg(t);
    await expect(
      runCommand(t, 'group create', { org: org.id, name: 'Bad\u001b[2Jname' }),
    ).rejects.toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: refusal('A group name', 'an escape character, U+001B'),
    });
    expect(await tableNames('authors_groups', org.id)).toEqual([]);
  });
});

describe("a custom field's name and options are one line", () => {
  it('a field named with a line feed is refused; an option with a tab is refused', async () => {
    const org = await createTestOrg(t);
    const editor = await signInAs(t, org.id, 'editor');
    const named = await refusedOn(editor, '/dashboard/custom-fields/', {
      owner: 'author_from_group',
      data_kind: 'str',
      name: 'Career\nstage',
    });
    expect(named).toContain(refusal('A field name', 'a line feed, U+000A'));
    // Options are typed one a line: a tab inside one is still refused.
    const option = await refusedOn(editor, '/dashboard/custom-fields/', {
      owner: 'author_from_group',
      data_kind: 'single_option',
      name: 'Career stage',
      options: 'Early\r\nSenior\tlead\r\n',
    });
    expect(option).toContain(refusal('An option', 'a tab, U+0009'));
    expect(await tableNames('custom_fields', org.id)).toEqual([]);
  });
});

describe("an API key's label and an organization's name are one line", () => {
  it('a key labelled with a C1 control is refused, no key made', async () => {
    const org = await createTestOrg(t);
    const admin = await signInAs(t, org.id, 'integrations_admin');
    const form = await pageAs(t.app, admin, '/dashboard/api-keys/');
    const once = /name="once" value="([^"]+)"/.exec(form)![1]!;
    const page = await refusedOn(admin, '/dashboard/api-keys/', { once, label: 'ci\u009b2Jkey' });
    expect(page).toContain(refusal('A key label', 'a control character, U+009B'));
    const { rows } = await t.db.query('SELECT 1 FROM api_keys WHERE organization_id = $1', [org.id]);
    // The organization's own first key, none more.
    expect(rows).toHaveLength(1);
  });

  it('`org create` refuses a name of two lines', async () => {
    await expect(
      runCommand(t, 'org create', { name: 'Acme\u2029Press', features: 'referee_finder' }),
    ).rejects.toMatchObject({
      status: 400,
      message: refusal('The organization name', 'a paragraph separator, U+2029'),
    });
  });
});
