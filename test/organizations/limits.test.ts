// Caps on what one organization stores (src/organizations/limits.ts, docs/api.md "Limits"): a create
// past a cap is a 409 limit_reached naming the cap and its value, on the API, the dashboard and the
// CLI alike; replacing or updating what exists never is; the operator's override moves one
// organization's cap and no other's; concurrent creates at the cap never both pass it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import { injectForm, signInAs } from '../helpers/dashboard.ts';
import { authorUrl } from '../authors-groups/helpers.ts';
import { baseFields, upload } from '../manuscripts/upload-helpers.ts';
import { AppError } from '../../src/infra/app-error.ts';
import { ConfigError, parseConfig } from '../../src/infra/config.ts';
import { createGroup, deleteGroup, writeGroupAuthor } from '../../src/authors-groups/store.ts';
import { createCustomField, updateCustomField } from '../../src/custom-fields/store.ts';
import { ensureFolder } from '../../src/folders/folders.ts';
import { createApiKey, createApiKeyFromForm, revokeApiKey } from '../../src/organizations/api-keys.ts';
import { createUser } from '../../src/users/users.ts';
import { keyCreate, orgLimits } from '../../src/organizations/commands.ts';
import type { CommandContext } from '../../src/infra/cli/command.ts';
import { getDeploymentLimits, type LimitName } from '../../src/organizations/limits.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

function commandContext(): CommandContext {
  return { config: t.config, db: t.db, progress: () => {} };
}

/** `refmatch org limits --org <id> --<name> <value>`, as the CLI runs it. */
async function override(orgId: number, changes: Record<string, number | 'default'>) {
  const args: Record<string, unknown> = { org: orgId };
  for (const [name, value] of Object.entries(changes)) {
    args[name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())] = value;
  }
  return orgLimits.run(commandContext(), args as { org: number });
}

/** The error a store call throws, or null. */
async function refusal(promise: Promise<unknown>): Promise<AppError | null> {
  try {
    await promise;
    return null;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

function expectLimit(error: AppError | null, name: LimitName, value: number): void {
  expect(error?.status).toBe(409);
  expect(error?.code).toBe('limit_reached');
  expect(error?.details).toEqual([{ path: `limits.${name}`, message: String(value) }]);
}

function author(name: string, email?: string) {
  return {
    name,
    emails: email ? [email] : null,
    orcids: null,
    articles: null,
    affiliations: null,
    custom_values: {},
  };
}

describe('records per group, through the external API (4.2)', () => {
  let org: TestOrg;
  let groupId: number;
  const post = (clientId: string, payload: Record<string, unknown>, target = org) =>
    t.app.inject({ method: 'POST', url: authorUrl(groupId, clientId), headers: target.headers, payload });

  beforeAll(async () => {
    org = await createTestOrg(t);
    groupId = (await createGroup(t.db, org.id, 'Reviewers')).group_id;
    await override(org.id, { records_per_group: 3 });
    for (const id of ['a', 'b', 'c']) expect((await post(id, { name: `Author ${id}` })).statusCode).toBe(200);
  });

  it('refuses a new record at the cap with 409 limit_reached naming the cap and its value', async () => {
    const res = await post('d', { name: 'Author d' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      error: {
        code: 'limit_reached',
        message: 'The organization has reached its limit of 3 records in one authors group',
        details: [{ path: 'limits.records_per_group', message: '3' }],
      },
    });
    const read = await t.app.inject({ method: 'GET', url: authorUrl(groupId, 'd'), headers: org.headers });
    expect(read.statusCode).toBe(404);
  });

  it('accepts a replace of an existing record at the cap, with or without new linking inputs', async () => {
    expect((await post('a', { name: 'Author a, renamed' })).statusCode).toBe(200);
    expect((await post('b', { name: 'Author b', emails: ['b@example.org'] })).statusCode).toBe(200);
    const partial = await t.app.inject({
      method: 'POST',
      url: authorUrl(groupId, 'c', true),
      headers: org.headers,
      payload: { emails: ['c@example.org'] },
    });
    expect(partial.statusCode).toBe(200);
  });

  it('accepts a replace when a lowered cap leaves the group over it, and a create once under it again', async () => {
    await override(org.id, { records_per_group: 1 });
    expect((await post('a', { name: 'Author a' })).statusCode).toBe(200);
    expect((await post('e', { name: 'Author e' })).statusCode).toBe(409);
    await override(org.id, { records_per_group: 3 });
    const removed = await t.app.inject({
      method: 'DELETE',
      url: authorUrl(groupId, 'c'),
      headers: org.headers,
    });
    expect(removed.statusCode).toBe(200);
    expect((await post('e', { name: 'Author e' })).statusCode).toBe(200);
    expect((await post('f', { name: 'Author f' })).statusCode).toBe(409);
  });

  it("moves one organization's cap only: another's group takes records past it", async () => {
    const other = await createTestOrg(t);
    const otherGroup = await createGroup(t.db, other.id, 'Reviewers');
    for (const id of ['a', 'b', 'c', 'd', 'e']) {
      const res = await t.app.inject({
        method: 'POST',
        url: authorUrl(otherGroup.group_id, id),
        headers: other.headers,
        payload: { name: id },
      });
      expect(res.statusCode).toBe(200);
    }
  });

  it('keeps the count in step with rows written outside the API and with deleted groups', async () => {
    const g = await createGroup(t.db, org.id, 'Bulk');
    await t.db.query(
      `INSERT INTO group_authors (group_id, client_id, organization_id, name)
       SELECT $1, 'bulk-' || i, $2, 'Name ' || i FROM generate_series(1, 3) i`,
      [g.group_id, org.id],
    );
    const refused = await refusal(
      writeGroupAuthor(t.db, { organizationId: org.id, groupId: g.group_id, clientId: 'new' }, author('New')),
    );
    expectLimit(refused, 'records_per_group', 3);
    await deleteGroup(t.db, org.id, g.group_id);
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM authors_groups g WHERE g.organization_id = $1 AND g.record_count <> ' +
        '(SELECT count(*) FROM group_authors a WHERE a.group_id = g.id)',
      [org.id],
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('lets concurrent creates at the cap pass it never: exactly the free places are taken', async () => {
    const g = await createGroup(t.db, org.id, 'Race');
    const key = (clientId: string) => ({ organizationId: org.id, groupId: g.group_id, clientId });
    await writeGroupAuthor(t.db, key('first'), author('First'));
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        refusal(writeGroupAuthor(t.db, key(`racer-${i}`), author(`R ${i}`))),
      ),
    );
    expect(results.filter((r) => r === null)).toHaveLength(2);
    for (const r of results.filter((r) => r !== null)) expectLimit(r, 'records_per_group', 3);
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM group_authors WHERE group_id = $1',
      [g.group_id],
    );
    expect(rows[0]!.n).toBe(3);
  });
});

describe('authors groups, custom fields, options, folders, API keys and users', () => {
  it('authors groups: refused at the cap; renaming one goes on', async () => {
    const org = await createTestOrg(t);
    await override(org.id, { authors_groups: 2 });
    const a = await createGroup(t.db, org.id, 'A');
    await createGroup(t.db, org.id, 'B');
    expectLimit(await refusal(createGroup(t.db, org.id, 'C')), 'authors_groups', 2);
    const { renameGroup } = await import('../../src/authors-groups/store.ts');
    expect((await renameGroup(t.db, org.id, a.group_id, 'A2')).name).toBe('A2');
    await deleteGroup(t.db, org.id, a.group_id);
    expect((await createGroup(t.db, org.id, 'C')).name).toBe('C');
  });

  it('authors groups: concurrent creates at the cap never both pass it', async () => {
    const org = await createTestOrg(t);
    await override(org.id, { authors_groups: 3 });
    await createGroup(t.db, org.id, 'First');
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => refusal(createGroup(t.db, org.id, `Racer ${i}`))),
    );
    expect(results.filter((r) => r === null)).toHaveLength(2);
    for (const r of results.filter((r) => r !== null)) expectLimit(r, 'authors_groups', 3);
  });

  it('custom fields: refused at the cap over all owners; editing one goes on', async () => {
    const org = await createTestOrg(t);
    await override(org.id, { custom_fields: 2 });
    const area = await createCustomField(t.db, org.id, {
      owner: 'author_from_group',
      dataKind: 'str',
      name: 'Area',
    });
    await createCustomField(t.db, org.id, { owner: 'folder', dataKind: 'number', name: 'Volume' });
    const refused = await refusal(
      createCustomField(t.db, org.id, { owner: 'proposal', dataKind: 'date', name: 'Due' }),
    );
    expectLimit(refused, 'custom_fields', 2);
    const renamed = await updateCustomField(t.db, area.api_id, { name: 'Research area' }, org.id);
    expect(renamed.name).toBe('Research area');
  });

  it('options per field: refused past the cap at creation and when adding; a swap at the cap goes on', async () => {
    const org = await createTestOrg(t);
    await override(org.id, { options_per_field: 2 });
    const tooMany = createCustomField(t.db, org.id, {
      owner: 'author_from_group',
      dataKind: 'single_option',
      name: 'Seniority',
      options: ['junior', 'mid', 'senior'],
    });
    expectLimit(await refusal(tooMany), 'options_per_field', 2);
    const field = await createCustomField(t.db, org.id, {
      owner: 'author_from_group',
      dataKind: 'single_option',
      name: 'Seniority',
      options: ['junior', 'senior'],
    });
    expectLimit(
      await refusal(updateCustomField(t.db, field.api_id, { addOptions: ['mid'] }, org.id)),
      'options_per_field',
      2,
    );
    const junior = field.options!.find((o) => o.option === 'junior')!;
    const swapped = await updateCustomField(
      t.db,
      field.api_id,
      { removeOptions: [junior.api_id], addOptions: ['early career'] },
      org.id,
    );
    expect(swapped.options!.map((o) => o.option).sort()).toEqual(['early career', 'senior']);
  });

  it('options of all fields: refused past the cap at creation and when adding; a swap at the cap goes on', async () => {
    const org = await createTestOrg(t);
    await override(org.id, { options: 3 });
    const field = (name: string, options: string[]) =>
      createCustomField(t.db, org.id, { owner: 'folder', dataKind: 'multi_option', name, options });
    const topics = await field('Topics', ['algebra', 'topology']);
    expectLimit(await refusal(field('Regions', ['north', 'south'])), 'options', 3);
    const regions = await field('Regions', ['north']);
    expectLimit(
      await refusal(updateCustomField(t.db, topics.api_id, { addOptions: ['geometry'] }, org.id)),
      'options',
      3,
    );
    const north = regions.options![0]!;
    const swapped = await updateCustomField(
      t.db,
      regions.api_id,
      { removeOptions: [north.api_id], addOptions: ['south'] },
      org.id,
    );
    expect(swapped.options!.map((o) => o.option)).toEqual(['south']);
    await override(org.id, { options: 4 });
    const added = await updateCustomField(t.db, topics.api_id, { addOptions: ['geometry'] }, org.id);
    expect(added.options).toHaveLength(3);
  });

  it('characters of all options: counted in characters, not bytes; a swap that fits goes on', async () => {
    const org = await createTestOrg(t);
    await override(org.id, { option_characters: 10 });
    // Six characters, twelve bytes in UTF-8: counted six.
    const seniority = await createCustomField(t.db, org.id, {
      owner: 'author_from_group',
      dataKind: 'single_option',
      name: 'Seniority',
      options: ['jünïör'],
    });
    const tooLong = createCustomField(t.db, org.id, {
      owner: 'proposal',
      dataKind: 'single_option',
      name: 'Track',
      options: ['short'],
    });
    expectLimit(await refusal(tooLong), 'option_characters', 10);
    const track = await createCustomField(t.db, org.id, {
      owner: 'proposal',
      dataKind: 'single_option',
      name: 'Track',
      options: ['main'],
    });
    expectLimit(
      await refusal(updateCustomField(t.db, track.api_id, { addOptions: ['x'] }, org.id)),
      'option_characters',
      10,
    );
    const old = seniority.options![0]!;
    const swapped = await updateCustomField(
      t.db,
      seniority.api_id,
      { removeOptions: [old.api_id], addOptions: ['senior'] },
      org.id,
    );
    expect(swapped.options!.map((o) => o.option)).toEqual(['senior']);
    // Lowered below what is stored: what exists stays, renaming goes on, adding is refused.
    await override(org.id, { option_characters: 5 });
    const renamed = await updateCustomField(t.db, track.api_id, { name: 'Tracks' }, org.id);
    expect(renamed.options!.map((o) => o.option)).toEqual(['main']);
    expectLimit(
      await refusal(updateCustomField(t.db, track.api_id, { addOptions: ['y'] }, org.id)),
      'option_characters',
      5,
    );
  });

  it('options of all fields: concurrent adds to different fields never pass the cap together', async () => {
    const org = await createTestOrg(t);
    await override(org.id, { options: 4 });
    const fields = [];
    for (const name of ['A', 'B', 'C', 'D']) {
      fields.push(
        await createCustomField(t.db, org.id, {
          owner: 'folder',
          dataKind: 'single_option',
          name,
          options: ['first'],
        }),
      );
    }
    await override(org.id, { options: 6 });
    const results = await Promise.all(
      fields.map((f) => refusal(updateCustomField(t.db, f.api_id, { addOptions: ['second'] }, org.id))),
    );
    expect(results.filter((r) => r === null)).toHaveLength(2);
    for (const r of results.filter((r) => r !== null)) expectLimit(r, 'options', 6);
  });

  it('options of all fields: the field page says so on adding; the 4.7 list is unchanged', async () => {
    const org = await createTestOrg(t);
    const editor = await signInAs(t, org.id, 'editor');
    await override(org.id, { options: 2 });
    const level = await createCustomField(t.db, org.id, {
      owner: 'author_from_group',
      dataKind: 'single_option',
      name: 'Level',
      options: ['junior', 'senior'],
    });
    const url = `/dashboard/custom-fields/${level.api_id}/`;
    const refused = await injectForm(t.app, editor, url, { name: 'Level', add_options: 'mid' });
    expect(refused.statusCode).toBe(303);
    const shown = await t.app.inject({ url: refused.headers.location!, headers: { cookie: editor.cookie } });
    expect(shown.body).toContain('The organization has reached its limit of 2 options of custom fields');
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/external/custom-fields/all/',
      headers: org.headers,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().author_from_group[0].options.map((o: { option: string }) => o.option)).toEqual([
      'junior',
      'senior',
    ]);
  });

  it('folders: a new one is refused at the cap, on upload too; an existing one is still found', async () => {
    const org = await createTestOrg(t);
    await override(org.id, { folders: 2 });
    const first = await ensureFolder(t.db, org.id, 'J1');
    await ensureFolder(t.db, org.id, 'J2');
    expectLimit(await refusal(ensureFolder(t.db, org.id, 'J3')), 'folders', 2);
    expect(await ensureFolder(t.db, org.id, 'J1')).toBe(first);
    const refused = await upload(t.app, { apiKey: org.apiKey, fields: baseFields({ folder: 'J3' }) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.details).toEqual([{ path: 'limits.folders', message: '2' }]);
    const accepted = await upload(t.app, { apiKey: org.apiKey, fields: baseFields({ folder: 'J1' }) });
    expect(accepted.statusCode).toBe(200);
  });

  it('folders: concurrent first uploads to one new folder at one place from the cap both get it', async () => {
    const org = await createTestOrg(t);
    await override(org.id, { folders: 1 });
    const ids = await Promise.all([ensureFolder(t.db, org.id, 'NEW'), ensureFolder(t.db, org.id, 'NEW')]);
    expect(ids[0]).toBe(ids[1]);
    expectLimit(await refusal(ensureFolder(t.db, org.id, 'OTHER')), 'folders', 1);
  });

  it('API keys: a dashboard form posted again at the cap makes no key and is not refused', async () => {
    const org = await createTestOrg(t);
    await override(org.id, { api_keys: 2 });
    const made = await createApiKeyFromForm(t.db, org.id, 'form-once', 'CI');
    expect(made).toEqual({ key: expect.stringMatching(/^rm_/), repeated: false });
    expect(await createApiKeyFromForm(t.db, org.id, 'form-once', 'CI')).toEqual({ ...made, repeated: true });
    expectLimit(await refusal(createApiKeyFromForm(t.db, org.id, 'form-twice', 'CI')), 'api_keys', 2);
  });

  it('API keys: active keys count; revoking one frees its place; the CLI says which cap', async () => {
    const org = await createTestOrg(t); // holds one key already
    await override(org.id, { api_keys: 2 });
    const second = await createApiKey(t.db, org.id);
    expectLimit(await refusal(createApiKey(t.db, org.id)), 'api_keys', 2);
    expectLimit(await refusal(keyCreate.run(commandContext(), { org: org.id })), 'api_keys', 2);
    await revokeApiKey(t.db, second);
    expect(await createApiKey(t.db, org.id)).toMatch(/^rm_/);
  });

  it('users: refused at the cap', async () => {
    const org = await createTestOrg(t);
    await override(org.id, { users: 1 });
    await createUser(t.db, { organizationId: org.id, email: 'one@example.org', role: 'editor' });
    const refused = await refusal(
      createUser(t.db, { organizationId: org.id, email: 'two@example.org', role: 'viewer' }),
    );
    expectLimit(refused, 'users', 1);
  });
});

describe('the dashboard shows the refusal on the form that hit it', () => {
  it('a new group past the cap: the groups page says so and keeps the typed name', async () => {
    const org = await createTestOrg(t);
    const admin = await signInAs(t, org.id, 'editor');
    await createGroup(t.db, org.id, 'Board');
    await override(org.id, { authors_groups: 1 });
    const refused = await injectForm(t.app, admin, '/dashboard/groups/', { name: 'Second panel' });
    expect(refused.statusCode).toBe(303);
    expect(refused.headers.location).toBe('/dashboard/groups/');
    const shown = await t.app.inject({ url: '/dashboard/groups/', headers: { cookie: admin.cookie } });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('The organization has reached its limit of 1 authors groups');
    expect(shown.body).toContain('value="Second panel"');
  });

  it('a new record past the cap: the new-record form says so and keeps what was typed', async () => {
    const org = await createTestOrg(t);
    const admin = await signInAs(t, org.id, 'editor');
    const group = await createGroup(t.db, org.id, 'Board');
    await override(org.id, { records_per_group: 0 });
    const url = `/dashboard/groups/${group.group_id}/records/`;
    const refused = await injectForm(t.app, admin, url, { client_id: 'kept-id', name: 'Kept Name' });
    expect(refused.statusCode).toBe(303);
    const shown = await t.app.inject({ url: refused.headers.location!, headers: { cookie: admin.cookie } });
    expect(shown.body).toContain('The organization has reached its limit of 0 records in one authors group');
    expect(shown.body).toContain('value="Kept Name"');
  });
});

describe('the operator override (`refmatch org limits`)', () => {
  it('shows the caps that apply and the overrides; "default" removes one', async () => {
    const org = await createTestOrg(t);
    const deployment = getDeploymentLimits();
    expect(await override(org.id, {})).toEqual({
      organization_id: org.id,
      limits: deployment,
      overrides: {},
    });
    const raised = await override(org.id, { users: deployment.users * 2, folders: 5 });
    expect(raised).toEqual({
      organization_id: org.id,
      limits: { ...deployment, users: deployment.users * 2, folders: 5 },
      overrides: { users: deployment.users * 2, folders: 5 },
    });
    const reset = await override(org.id, { users: 'default' });
    expect(reset.overrides).toEqual({ folders: 5 });
    expect(reset.limits.users).toBe(deployment.users);
  });

  it('refuses a value out of range and an unknown organization', async () => {
    const org = await createTestOrg(t);
    expect((await refusal(override(org.id, { users: -1 })))?.code).toBe('validation_failed');
    expect((await refusal(override(2_000_000_000, { users: 5 })))?.code).toBe('not_found');
  });

  it('raises the cap for one organization only', async () => {
    const raised = await createTestOrg(t);
    const other = await createTestOrg(t);
    const limits = getDeploymentLimits();
    // The deployment's cap, lowered for both, then raised for one.
    await override(raised.id, { authors_groups: 1 });
    await override(other.id, { authors_groups: 1 });
    await createGroup(t.db, raised.id, 'A');
    await createGroup(t.db, other.id, 'A');
    await override(raised.id, { authors_groups: 2 });
    expect((await createGroup(t.db, raised.id, 'B')).name).toBe('B');
    expectLimit(await refusal(createGroup(t.db, other.id, 'B')), 'authors_groups', 1);
    expect(limits.authors_groups).toBeGreaterThan(2);
  });
});

describe('the deployment caps come from configuration (LIMIT_*)', () => {
  it('reads each cap from its variable, with the defaults otherwise, and refuses a bad value', () => {
    const config = parseConfig({
      LIMIT_USERS: '7',
      LIMIT_RECORDS_PER_GROUP: '500000',
      LIMIT_OPTIONS: '300',
      LIMIT_OPTION_CHARACTERS: '9000',
    });
    expect(config.limits.users).toBe(7);
    expect(config.limits.options).toBe(300);
    expect(config.limits.option_characters).toBe(9_000);
    expect(config.limits.records_per_group).toBe(500_000);
    expect(parseConfig({}).limits).toEqual({
      authors_groups: 2_000,
      records_per_group: 250_000,
      custom_fields: 200,
      options_per_field: 1_000,
      options: 20_000,
      option_characters: 500_000,
      folders: 10_000,
      api_keys: 50,
      users: 1_000,
    });
    expect(() => parseConfig({ LIMIT_FOLDERS: '0' })).toThrow(ConfigError);
    expect(() => parseConfig({ LIMIT_FOLDERS: 'many' })).toThrow(ConfigError);
  });

  describe('an app whose configuration lowers a cap', () => {
    let lowered: TestApp;
    beforeAll(async () => {
      lowered = await createTestApp({ limits: { ...t.config.limits, users: 2 } });
    });
    afterAll(async () => {
      await lowered?.close();
      // The caps are the process's: give the other tests theirs back.
      const { setDeploymentLimits } = await import('../../src/organizations/limits.ts');
      setDeploymentLimits(t.config.limits);
    });

    it('applies it to every organization without an override, and an override beats it', async () => {
      const plain = await createTestOrg(lowered);
      const raised = await createTestOrg(lowered);
      await orgLimits.run({ config: lowered.config, db: lowered.db, progress: () => {} }, {
        org: raised.id,
        users: 3,
      } as { org: number });
      for (const org of [plain, raised]) {
        await createUser(lowered.db, { organizationId: org.id, email: 'a@example.org', role: 'viewer' });
        await createUser(lowered.db, { organizationId: org.id, email: 'b@example.org', role: 'viewer' });
      }
      const refused = await refusal(
        createUser(lowered.db, { organizationId: plain.id, email: 'c@example.org', role: 'viewer' }),
      );
      expectLimit(refused, 'users', 2);
      await createUser(lowered.db, { organizationId: raised.id, email: 'c@example.org', role: 'viewer' });
    });
  });
});
