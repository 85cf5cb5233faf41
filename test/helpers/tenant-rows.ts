// One organization's rows of every kind a route names by id (a group and its record, a custom field,
// a folder, a user, an API key, a manuscript, a corpus author and source, a webhook delivery), ids
// that name no row at all, and a snapshot of everything an organization keeps: what the tests of
// tenant isolation ask another organization's routes about, and compare before and after
// (test/dashboard/permissions.test.ts, test/organizations/route-isolation.test.ts).
import type { Database, Queryable } from '../../src/infra/db/index.ts';
import { createGroup, writeGroupAuthor } from '../../src/authors-groups/store.ts';
import { createCustomField } from '../../src/custom-fields/store.ts';
import { saveCustomValues } from '../../src/custom-fields/folder-manuscript-values.ts';
import { ensureFolder } from '../../src/folders/folders.ts';
import { createUser } from '../../src/users/users.ts';
import { enqueueEvent, saveWebhook } from '../../src/webhooks/store.ts';

/** Per path parameter, an id of a row of the organization the ids belong to. */
export type Rows = Record<string, string>;

/** The name every row of `tenantRows` carries somewhere: another organization's answer never holds it. */
export const TENANT_ROW_NAME = 'Ada Lovelace';

export async function tenantRows(db: Database, orgId: number): Promise<Rows> {
  const group = await createGroup(db, orgId, 'Board');
  await writeGroupAuthor(
    db,
    { organizationId: orgId, groupId: group.group_id, clientId: 'r1' },
    {
      name: TENANT_ROW_NAME,
      emails: null,
      orcids: null,
      articles: null,
      affiliations: null,
      custom_values: {},
    },
  );
  const field = await createCustomField(db, orgId, { owner: 'folder', dataKind: 'str', name: 'Code' });
  const folder = await ensureFolder(db, orgId, 'JFOLD');
  const user = await createUser(db, {
    organizationId: orgId,
    email: `target.${orgId}@example.org`,
    role: 'viewer',
  });
  const key = await db.query<{ id: number }>('SELECT id FROM api_keys WHERE organization_id = $1 LIMIT 1', [
    orgId,
  ]);
  const source = await db.query<{ id: number }>(
    `INSERT INTO sources (source_key, title) VALUES ($1, 'Journal of Tests') RETURNING id`,
    [`S-${orgId}`],
  );
  // The organization's own origin_id: another's, asked for, must be no manuscript at all.
  const originId = `ms-perm-${orgId}`;
  const manuscript = await db.query<{ id: number }>(
    `INSERT INTO manuscripts (organization_id, origin_id, folder_id, supplied, authors_count, title, abstract)
     VALUES ($1, $3, $2, '{"title": "Ada Lovelace notes", "abstract": "", "authors": []}', 0,
       'Ada Lovelace notes', '') RETURNING id`,
    [orgId, folder, originId],
  );
  // Values of a folder and of a manuscript, for the snapshot to see kept.
  await saveCustomValues(db, orgId, 'folder', folder, [[field.api_id, 'Folder value']]);
  const manuscriptField = await createCustomField(db, orgId, {
    owner: 'proposal',
    dataKind: 'number',
    name: 'Pages',
  });
  await saveCustomValues(db, orgId, 'proposal', manuscript.rows[0]!.id, [[manuscriptField.api_id, 12]]);
  const author = await db.query<{ id: number }>(
    `INSERT INTO authors (author_key, display_name) VALUES ($1, 'Grace Hopper') RETURNING id`,
    [`test:perm-${orgId}`],
  );
  await saveWebhook(
    db,
    orgId,
    { url: 'https://hooks.example.org/hook', secret: null, enabled: false },
    {
      allowPrivateAddresses: false,
    },
  );
  await db.query('UPDATE webhooks SET enabled = true WHERE organization_id = $1', [orgId]);
  await enqueueEvent(db, orgId, 'proposal_uploaded', { origin_id: originId, title: 'Ada Lovelace notes' });
  await db.query('UPDATE webhooks SET enabled = false WHERE organization_id = $1', [orgId]);
  const delivery = await db.query<{ id: number }>(
    'SELECT id::int AS id FROM webhook_outbox WHERE organization_id = $1',
    [orgId],
  );
  return {
    manuscriptId: String(manuscript.rows[0]!.id),
    originId,
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

/** Ids that name no row at all (of nine digits: a group id of a form has at most nine). */
export const MISSING_ROWS: Rows = {
  groupId: '900000001',
  clientId: 'nobody',
  fieldId: '00000000-0000-4000-8000-000000000000',
  folderId: '900000002',
  userId: '900000003',
  keyId: '900000004',
  sourceId: '900000005',
  manuscriptId: '900000006',
  originId: 'ms-nobody',
  authorId: '900000007',
  deliveryId: '900000008',
};

/** A route's URL with each `:name` replaced by the row's id of that name. */
export function fillRoute(url: string, rows: Rows): string {
  return url.replace(/:(\w+)/g, (_, name: string) => {
    const value = rows[name];
    if (value === undefined) throw new Error(`No row for the path parameter :${name}; add one to tenantRows`);
    return encodeURIComponent(value);
  });
}

/** Everything the organization keeps that a route could change, as one comparable string. */
export async function tenantSnapshot(db: Queryable, orgId: number): Promise<string> {
  const tables = [
    `SELECT name, prefer, include_conflicts, include_without_email, max_candidates FROM organizations WHERE id = $1`,
    `SELECT id, name FROM authors_groups WHERE organization_id = $1 ORDER BY id`,
    `SELECT group_id, client_id, name, emails, orcids, articles, affiliations, custom_values, linked_author_id
       FROM group_authors WHERE organization_id = $1 ORDER BY 1, 2`,
    `SELECT api_id, name, description FROM custom_fields WHERE organization_id = $1 ORDER BY 1`,
    `SELECT o.api_id, o.option FROM custom_field_options o JOIN custom_fields f ON f.api_id = o.field
      WHERE f.organization_id = $1 ORDER BY 1`,
    `SELECT f.id, f.name, s.authors_group_ids, s.effect FROM folders f LEFT JOIN folder_referee_settings s ON s.folder_id = f.id WHERE f.organization_id = $1 ORDER BY 1`,
    `SELECT source_id, folder_id FROM journal_links WHERE organization_id = $1 ORDER BY 1`,
    `SELECT id, email, role, disabled_at FROM users WHERE organization_id = $1 ORDER BY 1`,
    `SELECT id, revoked_at FROM api_keys WHERE organization_id = $1 ORDER BY 1`,
    `SELECT id, origin_id, folder_id, title, updated_at FROM manuscripts WHERE organization_id = $1 ORDER BY 1`,
    `SELECT k.author_id, k.marked_by FROM manuscript_marks k JOIN manuscripts m ON m.id = k.manuscript_id WHERE m.organization_id = $1 ORDER BY 1`,
    `SELECT origin_id, author_id, orcid, email FROM external_coi WHERE organization_id = $1 ORDER BY 1, 2, 3, 4`,
    `SELECT author_id, email FROM organization_author_emails WHERE organization_id = $1 ORDER BY 1, 2`,
    `SELECT folder_id, field, value FROM folder_custom_values WHERE organization_id = $1 ORDER BY 1, 2`,
    `SELECT manuscript_id, field, value FROM manuscript_custom_values WHERE organization_id = $1 ORDER BY 1, 2`,
    `SELECT url, secret, enabled FROM webhooks WHERE organization_id = $1`,
    `SELECT id, status, next_attempt_at FROM webhook_outbox WHERE organization_id = $1 ORDER BY 1`,
  ];
  const parts = [];
  for (const sql of tables) parts.push((await db.query(sql, [orgId])).rows);
  return JSON.stringify(parts);
}
