// The server checks every dashboard action: each role on each registered dashboard route (a forbidden
// action answers 403), and a user of one organization reaches nothing of another through any route
// with an id in its path (404, and the other organization's rows unchanged).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { createTestUser, injectForm, injectSignIn, type InjectSession } from '../helpers/dashboard.ts';
import { can, ROLE_LABELS, ROLES, type Action, type Role } from '../../src/users/roles.ts';
import { createGroup, writeGroupAuthor } from '../../src/authors-groups/store.ts';
import { createCustomField } from '../../src/custom-fields/store.ts';
import { saveCustomValues } from '../../src/custom-fields/folder-manuscript-values.ts';
import { ensureFolder } from '../../src/folders/folders.ts';
import { createUser } from '../../src/users/users.ts';
import { enqueueEvent, saveWebhook } from '../../src/webhooks/store.ts';
import type { DashboardRouteInfo } from '../../src/dashboard/framework.ts';

let t: TestApp;
/** Per path parameter, an id of a row of the organization the ids belong to. */
type Rows = Record<string, string>;

async function makeRows(orgId: number): Promise<Rows> {
  const group = await createGroup(t.db, orgId, 'Board');
  await writeGroupAuthor(
    t.db,
    { organizationId: orgId, groupId: group.group_id, clientId: 'r1' },
    {
      name: 'Ada Lovelace',
      emails: null,
      orcids: null,
      articles: null,
      affiliations: null,
      custom_values: {},
    },
  );
  const field = await createCustomField(t.db, orgId, { owner: 'folder', dataKind: 'str', name: 'Code' });
  const folder = await ensureFolder(t.db, orgId, 'JFOLD');
  const user = await createUser(t.db, {
    organizationId: orgId,
    email: `target.${orgId}@example.org`,
    role: 'viewer',
  });
  const key = await t.db.query<{ id: number }>('SELECT id FROM api_keys WHERE organization_id = $1 LIMIT 1', [
    orgId,
  ]);
  const source = await t.db.query<{ id: number }>(
    `INSERT INTO sources (source_key, title) VALUES ($1, 'Journal of Tests') RETURNING id`,
    [`S-${orgId}`],
  );
  const manuscript = await t.db.query<{ id: number }>(
    `INSERT INTO manuscripts (organization_id, origin_id, folder_id, supplied, authors_count, title, abstract)
     VALUES ($1, 'ms-perm', $2, '{"title": "Ada Lovelace notes", "abstract": "", "authors": []}', 0,
       'Ada Lovelace notes', '') RETURNING id`,
    [orgId, folder],
  );
  // Values of a folder and of a manuscript, for the snapshot to see kept.
  await saveCustomValues(t.db, orgId, 'folder', folder, [[field.api_id, 'Folder value']]);
  const manuscriptField = await createCustomField(t.db, orgId, {
    owner: 'proposal',
    dataKind: 'number',
    name: 'Pages',
  });
  await saveCustomValues(t.db, orgId, 'proposal', manuscript.rows[0]!.id, [[manuscriptField.api_id, 12]]);
  const author = await t.db.query<{ id: number }>(
    `INSERT INTO authors (author_key, display_name) VALUES ($1, 'Grace Hopper') RETURNING id`,
    [`test:perm-${orgId}`],
  );
  await saveWebhook(
    t.db,
    orgId,
    { url: 'https://hooks.example.org/hook', secret: null, enabled: false },
    {
      allowPrivateAddresses: false,
    },
  );
  await t.db.query('UPDATE webhooks SET enabled = true WHERE organization_id = $1', [orgId]);
  await enqueueEvent(t.db, orgId, 'proposal_uploaded', { origin_id: 'ms-perm', title: 'Ada Lovelace notes' });
  await t.db.query('UPDATE webhooks SET enabled = false WHERE organization_id = $1', [orgId]);
  const delivery = await t.db.query<{ id: number }>(
    'SELECT id::int AS id FROM webhook_outbox WHERE organization_id = $1',
    [orgId],
  );
  return {
    manuscriptId: String(manuscript.rows[0]!.id),
    authorId: String(author.rows[0]!.id),
    deliveryId: String(delivery.rows[0]!.id),
    groupId: String(group.group_id),
    clientId: 'r1',
    fieldId: field.api_id,
    folderId: String(folder),
    userId: String(user.id),
    keyId: String(key.rows[0]!.id),
    sourceId: String(source.rows[0]!.id),
  };
}

function fill(url: string, rows: Rows): string {
  return url.replace(/:(\w+)/g, (_, name: string) => {
    const value = rows[name];
    if (value === undefined) throw new Error(`No row for the path parameter :${name}; add one to makeRows`);
    return encodeURIComponent(value);
  });
}

let orgA: number;
let orgB: number;
let rowsA: Rows;
let rowsB: Rows;
const users = new Map<Role, { email: string }>();

beforeAll(async () => {
  t = await createTestApp();
  orgA = (await createTestOrg(t)).id;
  orgB = (await createTestOrg(t)).id;
  rowsA = await makeRows(orgA);
  rowsB = await makeRows(orgB);
  for (const role of ROLES) users.set(role, await createTestUser(t.db, orgA, role));
});
afterAll(async () => {
  await t?.close();
});

type SignedInRoute = DashboardRouteInfo & { action: Action };

function routes(): SignedInRoute[] {
  return t.app.dashboardRoutes.filter((r): r is SignedInRoute => r.action !== 'public');
}

async function call(session: InjectSession, route: DashboardRouteInfo, url: string) {
  return route.method === 'GET'
    ? t.app.inject({ method: 'GET', url, headers: { cookie: session.cookie } })
    : injectForm(t.app, session, url);
}

describe('the permission table is enforced on every dashboard route', () => {
  it('covers the pages of part A and the manuscripts and webhooks pages at least', () => {
    const urls = new Set(routes().map((r) => r.url));
    for (const url of [
      '/dashboard/settings/',
      '/dashboard/api-keys/',
      '/dashboard/users/',
      '/dashboard/custom-fields/',
      '/dashboard/manuscripts/',
      '/dashboard/manuscripts/:manuscriptId/',
      '/dashboard/manuscripts/:manuscriptId/candidates/:authorId/mark/',
      '/dashboard/manuscripts/:manuscriptId/candidates/:authorId/unmark/',
      '/dashboard/webhooks/',
      '/dashboard/webhooks/deliveries/:deliveryId/retry/',
    ]) {
      expect(urls.has(url)).toBe(true);
    }
  });

  for (const role of ROLES) {
    it(`${role}: each action outside its permissions answers 403, each within them does not`, async () => {
      const email = users.get(role)!.email;
      let session = await injectSignIn(t.app, email);
      for (const route of routes()) {
        const res = await call(session, route, fill(route.url, rowsA));
        const allowed = can(role, route.action);
        expect(res.statusCode === 403, `${role} ${route.method} ${route.url} -> ${res.statusCode}`).toBe(
          !allowed,
        );
        // The refusal names the role, and for a form says nothing was saved.
        if (!allowed) {
          expect(res.body).toContain(
            route.method === 'POST'
              ? `Your role, ${ROLE_LABELS[role]}, does not allow this: nothing was saved.`
              : `Your role, ${ROLE_LABELS[role]}, does not allow this page.`,
          );
        }
        // An allowed post may have ended this session (sign-out): start a fresh one.
        if (allowed && route.method === 'POST') session = await injectSignIn(t.app, email);
      }
    });
  }
});

async function snapshotOf(orgId: number): Promise<string> {
  const tables = [
    `SELECT name, prefer, include_conflicts, include_without_email, max_candidates FROM organizations WHERE id = $1`,
    `SELECT id, name FROM authors_groups WHERE organization_id = $1 ORDER BY id`,
    `SELECT group_id, client_id, name, custom_values FROM group_authors WHERE organization_id = $1 ORDER BY 1, 2`,
    `SELECT api_id, name, description FROM custom_fields WHERE organization_id = $1 ORDER BY 1`,
    `SELECT f.id, f.name, s.authors_group_ids, s.effect FROM folders f LEFT JOIN folder_referee_settings s ON s.folder_id = f.id WHERE f.organization_id = $1 ORDER BY 1`,
    `SELECT source_id, folder_id FROM journal_links WHERE organization_id = $1 ORDER BY 1`,
    `SELECT id, email, role, disabled_at FROM users WHERE organization_id = $1 ORDER BY 1`,
    `SELECT id, revoked_at FROM api_keys WHERE organization_id = $1 ORDER BY 1`,
    `SELECT k.author_id, k.marked_by FROM manuscript_marks k JOIN manuscripts m ON m.id = k.manuscript_id WHERE m.organization_id = $1 ORDER BY 1`,
    `SELECT folder_id, field, value FROM folder_custom_values WHERE organization_id = $1 ORDER BY 1, 2`,
    `SELECT manuscript_id, field, value FROM manuscript_custom_values WHERE organization_id = $1 ORDER BY 1, 2`,
    `SELECT url, secret, enabled FROM webhooks WHERE organization_id = $1`,
    `SELECT id, status, next_attempt_at FROM webhook_outbox WHERE organization_id = $1 ORDER BY 1`,
  ];
  const parts = [];
  for (const sql of tables) parts.push((await t.db.query(sql, [orgId])).rows);
  return JSON.stringify(parts);
}

/** Ids that name no row at all. */
const MISSING: Rows = {
  groupId: '2147480001',
  clientId: 'nobody',
  fieldId: '00000000-0000-4000-8000-000000000000',
  folderId: '2147480002',
  userId: '2147480003',
  keyId: '2147480004',
  sourceId: '2147480005',
  manuscriptId: '2147480006',
  authorId: '2147480007',
  deliveryId: '2147480008',
};

describe('a user of one organization sees nothing of another', () => {
  it("every route with an id in its path treats another organization's ids as missing ones", async () => {
    const before = await snapshotOf(orgB);
    const sessions = new Map<Role, InjectSession>();
    const withIds = routes().filter((r) => r.url.includes(':'));
    expect(withIds.length).toBeGreaterThan(5);
    for (const route of withIds) {
      const role = ROLES.find((r) => can(r, route.action))!;
      const session = sessions.get(role) ?? (await injectSignIn(t.app, users.get(role)!.email));
      sessions.set(role, session);
      const res = await call(session, route, fill(route.url, rowsB));
      const missing = await call(session, route, fill(route.url, MISSING));
      const what = `${route.method} ${route.url}: ${res.body.slice(0, 300)}`;
      // A page answers 404; a form post may first refuse its (empty) form, exactly as for a missing id.
      if (route.method === 'GET') expect(res.statusCode, what).toBe(404);
      expect(res.statusCode, what).toBe(missing.statusCode);
      expect(res.body).not.toContain('Ada Lovelace');
    }
    expect(await snapshotOf(orgB)).toBe(before);
  });
});
