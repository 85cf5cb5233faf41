// A delete sent twice (a double click on the confirming button, Back to the question and send, or
// another tab): the second finds nothing to delete. It showed a bare "Authors group 12 was not found"
// in place of the first one's success, as if nothing had been deleted; it now says the row was
// deleted already and nothing more was, in the dashboard's page (the first click's message too when
// it is kept), still a 404 (another organization's id reads the same), with the way back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import { injectForm, type InjectSession, signInAs } from '../helpers/dashboard.ts';
import { createGroup, writeGroupAuthor } from '../../src/authors-groups/store.ts';
import { createCustomField } from '../../src/custom-fields/store.ts';

let t: TestApp;
let org: TestOrg;
let editor: InjectSession;

beforeAll(async () => {
  t = await createTestApp();
  org = await createTestOrg(t);
  editor = await signInAs(t, org.id, 'editor');
});
afterAll(async () => t?.close());

const mainOf = (body: string) =>
  body.slice(body.indexOf('<main'), body.indexOf('</main>')).replace(/\s+/g, ' ');

/** The confirmed delete at `url` sent twice: the first deletes, the second says it was done. */
async function deleteTwice(url: string) {
  const first = await injectForm(t.app, editor, url, { confirm: 'yes' });
  expect(first.statusCode).toBe(303);
  const second = await injectForm(t.app, editor, url, { confirm: 'yes' });
  expect(second.statusCode).toBe(404);
  return mainOf(second.body);
}

describe('a delete sent twice', () => {
  it("of a group: the second says it was deleted already, with the first click's message", async () => {
    const group = await createGroup(t.db, org.id, 'Short-lived');
    const said = await deleteTwice(`/dashboard/groups/${group.group_id}/delete/`);
    expect(said).toContain('The group <bdi>Short-lived</bdi> was deleted, with 0 records.');
    expect(said).toContain(`The group ${group.group_id} is not there any more: it was deleted already`);
    expect(said).toContain('Nothing more was deleted.');
    expect(said).toContain('href="/dashboard/groups/"');
    // Back to the question after the delete: the same.
    const asked = await t.app.inject({
      url: `/dashboard/groups/${group.group_id}/delete/`,
      headers: { cookie: editor.cookie },
    });
    expect(asked.statusCode).toBe(404);
    expect(mainOf(asked.body)).toContain('is not there any more');
  });

  it('of a record and of a custom field: the same', async () => {
    const group = (await createGroup(t.db, org.id, 'Keeps')).group_id;
    await writeGroupAuthor(
      t.db,
      { organizationId: org.id, groupId: group, clientId: 'r1' },
      { name: 'Ada', emails: null, orcids: null, articles: null, affiliations: null, custom_values: {} },
    );
    const record = await deleteTwice(`/dashboard/groups/${group}/records/r1/delete/`);
    expect(record).toContain('The record was deleted.');
    expect(record).toContain('The record <bdi>r1</bdi> is not there any more');
    expect(record).toContain(`href="/dashboard/groups/${group}/"`);

    const field = await createCustomField(t.db, org.id, {
      owner: 'author_from_group',
      dataKind: 'str',
      name: 'Short-lived field',
    });
    const said = await deleteTwice(`/dashboard/custom-fields/${field.api_id}/delete/`);
    expect(said).toContain('The field was deleted.');
    expect(said).toContain(`The field <bdi>${field.api_id}</bdi> is not there any more`);
    expect(said).toContain('href="/dashboard/custom-fields/"');
  });
});
