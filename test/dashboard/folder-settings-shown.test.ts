// A folder's referee finder settings as each role meets them (docs/dashboard.md, "Folders"): every
// group id the API takes can be chosen, one it does not take is refused beside the groups; a role that
// may not change the settings reads them as text, with no control it cannot use; without a group there
// is no effect to choose or show; and the folder's and a manuscript's sections are linked from the top.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { injectForm, pageAs, signInAs } from '../helpers/dashboard.ts';
import { rankingFields, upload } from '../manuscripts/upload-helpers.ts';
import { createGroup } from '../../src/authors-groups/store.ts';
import { ensureFolder } from '../../src/folders/folders.ts';
import { MAX_INTEGER } from '../../src/http/schemas.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** The referee finder section of a folder's page: from its heading to the custom fields'. */
function refereeFinder(page: string): string {
  const from = page.indexOf('<h2 id="referee-finder"');
  expect(from, 'the referee finder heading').toBeGreaterThan(-1);
  return page.slice(from, page.indexOf('<h2 id="custom-fields"'));
}

/** A group of the organization with the id given (the API's ids go up to MAX_INTEGER). */
async function groupWithId(organizationId: number, id: number, name: string): Promise<void> {
  await t.db.query(
    'INSERT INTO authors_groups (id, organization_id, name) OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3)',
    [id, organizationId, name],
  );
}

describe('the group ids the folder form takes', () => {
  it('takes a group whose id has ten digits, as the API does', async () => {
    const org = await createTestOrg(t);
    const id = 1_000_000_000 + org.id;
    await groupWithId(org.id, id, 'Billionth pool');
    const folderId = await ensureFolder(t.db, org.id, 'JTEN');
    const editor = await signInAs(t, org.id, 'editor');
    const page = await pageAs(t.app, editor, `/dashboard/folders/${folderId}/`);
    expect(page).toContain(`value="${id}"`);
    const saved = await injectForm(t.app, editor, `/dashboard/folders/${folderId}/settings/`, {
      groups: String(id),
      effect: 'highlight',
    });
    expect(saved.statusCode, saved.body).toBe(303);
    expect(await pageAs(t.app, editor, String(saved.headers.location))).toContain(
      'The referee finder settings were saved.',
    );
    const stored = await t.db.query<{ ids: number[] }>(
      'SELECT authors_group_ids AS ids FROM folder_referee_settings WHERE folder_id = $1',
      [folderId],
    );
    expect(stored.rows[0]?.ids).toEqual([id]);
  });

  it('refuses an id past the largest, beside the groups, saying what an id is', async () => {
    const org = await createTestOrg(t);
    await createGroup(t.db, org.id, 'Pool');
    const folderId = await ensureFolder(t.db, org.id, 'JPAST');
    const editor = await signInAs(t, org.id, 'editor');
    const refused = await injectForm(t.app, editor, `/dashboard/folders/${folderId}/settings/`, {
      groups: String(MAX_INTEGER + 1),
      effect: 'highlight',
    });
    expect(refused.statusCode, refused.body).toBe(303);
    const section = refereeFinder(await pageAs(t.app, editor, String(refused.headers.location)));
    expect(section).toMatch(/<fieldset aria-describedby="groups-error" aria-invalid="true" autofocus>/);
    expect(section).toMatch(
      /<p id="groups-error" class="field-error">[^<]*<bdi>2147483648<\/bdi>[^<]*is not the id of an authors group: an id is a whole number from 1 to 2,147,483,647/,
    );
    const stored = await t.db.query('SELECT 1 FROM folder_referee_settings WHERE folder_id = $1', [folderId]);
    expect(stored.rows).toEqual([]);
  });
});

describe('settings a role may not change are read as text', () => {
  it("a viewer reads a folder's groups and effect, with no control", async () => {
    const org = await createTestOrg(t);
    const group = await createGroup(t.db, org.id, 'Boosted pool');
    const folderId = await ensureFolder(t.db, org.id, 'JREAD');
    const editor = await signInAs(t, org.id, 'editor');
    const saved = await injectForm(t.app, editor, `/dashboard/folders/${folderId}/settings/`, {
      groups: String(group.group_id),
      effect: 'boost',
      boost: '1.5',
    });
    expect(saved.statusCode, saved.body).toBe(303);
    for (const role of ['viewer', 'account_manager', 'integrations_admin'] as const) {
      const section = refereeFinder(
        await pageAs(t.app, await signInAs(t, org.id, role), `/dashboard/folders/${folderId}/`),
      );
      expect(section, role).not.toMatch(/<(input|select|textarea|button)\b/);
      expect(section.replace(/\s+/g, ' '), role).toMatch(
        /<dt>Authors groups<\/dt> <dd><bdi>Boosted pool<\/bdi><\/dd> <dt>Effect<\/dt> <dd> Boost the groups&#39; authors&#39; scores by a multiplier \(×1\.5\) <\/dd>/,
      );
    }
  });

  it('a viewer is shown no effect where no group is chosen', async () => {
    const org = await createTestOrg(t);
    await createGroup(t.db, org.id, 'Unchosen pool');
    const folderId = await ensureFolder(t.db, org.id, 'JNONE');
    const section = refereeFinder(
      await pageAs(t.app, await signInAs(t, org.id, 'viewer'), `/dashboard/folders/${folderId}/`),
    );
    expect(section).not.toMatch(/<(input|select|textarea|button)\b/);
    expect(section).not.toContain('Highlight');
    expect(section).toContain('No authors group is chosen');
  });

  it("the organization's settings are read as text by every role but the admin", async () => {
    const org = await createTestOrg(t);
    for (const role of ['viewer', 'editor', 'account_manager'] as const) {
      const page = await pageAs(t.app, await signInAs(t, org.id, role), '/dashboard/settings/');
      const main = page.slice(page.indexOf('<main'));
      expect(main, role).not.toMatch(/<(input|select|textarea|button)\b/);
      expect(main.replace(/\s+/g, ' '), role).toMatch(/<dt>Maximum number of candidates<\/dt> <dd>\d+<\/dd>/);
    }
    const admin = await pageAs(
      t.app,
      await signInAs(t, org.id, 'integrations_admin'),
      '/dashboard/settings/',
    );
    expect(admin).toMatch(/<input[^>]*id="max_candidates"/);
    expect(admin).not.toMatch(/<input[^>]*\bdisabled\b/);
  });

  it('an editor, in an organization without groups, is shown no effect but where to make a group', async () => {
    const org = await createTestOrg(t);
    const folderId = await ensureFolder(t.db, org.id, 'JEMPTY');
    const section = refereeFinder(
      await pageAs(t.app, await signInAs(t, org.id, 'editor'), `/dashboard/folders/${folderId}/`),
    );
    expect(section).not.toMatch(/<(form|input|button)\b/);
    expect(section).not.toContain('Highlight');
    expect(section).toContain('<a href="/dashboard/groups/">authors groups</a>');
  });
});

describe("a long page's sections linked from its top", () => {
  /** The links of the page's "On this page" list, each to a section the page has. */
  function sectionLinks(page: string): string[] {
    const nav = /<nav class="sections" aria-label="On this page">([\s\S]*?)<\/nav>/.exec(page);
    expect(nav, 'the "On this page" links').not.toBeNull();
    const targets = [...nav![1]!.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]!);
    for (const id of targets) expect(page, `#${id}`).toContain(`id="${id}"`);
    // Above the sections they lead to.
    expect(page.indexOf(nav![0])).toBeLessThan(page.indexOf('<h2'));
    return targets;
  }

  it("a folder's, its linked journals among them, for every role", async () => {
    const org = await createTestOrg(t);
    const folderId = await ensureFolder(t.db, org.id, 'JLINKS');
    for (const role of ['account_manager', 'viewer', 'editor'] as const) {
      const page = await pageAs(t.app, await signInAs(t, org.id, role), `/dashboard/folders/${folderId}/`);
      expect(sectionLinks(page), role).toEqual(['referee-finder', 'custom-fields', 'linked-journals']);
    }
  });

  it("a manuscript's, its candidates and recommended journals among them", async () => {
    const org = await createTestOrg(t);
    const uploaded = await upload(t.app, {
      apiKey: org.apiKey,
      fields: rankingFields({ origin_id: 'LINKS-1', folder: 'JLINKS', author1_name: 'Someone Else' }),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const { rows } = await t.db.query<{ id: number }>(
      'SELECT id FROM manuscripts WHERE organization_id = $1',
      [org.id],
    );
    const page = await pageAs(
      t.app,
      await signInAs(t, org.id, 'viewer'),
      `/dashboard/manuscripts/${rows[0]!.id}/`,
    );
    expect(sectionLinks(page)).toEqual(['custom-fields', 'candidates', 'journals']);
  });
});
