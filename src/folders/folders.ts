// Folders of an organization and their referee finder settings. A folder is created by the first
// upload (or CLI call) that names it; concurrent creators agree on one row (ensureFolder).
import { inTransaction, type Queryable } from '../infra/db/index.ts';
import { countedNameMatches, type CountedPage, type PageRequest } from '../infra/db/paging.ts';
import { errors } from '../infra/errors.ts';
import type { FolderGroupsSettings, GroupsEffect } from '../referee-finder/types.ts';
import { findOrganizationGroups } from './groups.ts';
import { checkLimit } from '../organizations/limits.ts';

export const GROUPS_EFFECTS: readonly GroupsEffect[] = ['highlight', 'limit_to', 'boost'];

export function isGroupsEffect(value: string): value is GroupsEffect {
  return (GROUPS_EFFECTS as readonly string[]).includes(value);
}

/** The id of the organization's folder of that name, created when missing. */
export async function ensureFolder(db: Queryable, organizationId: number, name: string): Promise<number> {
  // Read first: a folder exists for all but an organization's first upload to it. The upsert that
  // returned the row in one statement (ON CONFLICT DO UPDATE, a no-op write) wrote a new version of
  // the row at every upload and held its lock until the upload's transaction ended, so concurrent
  // uploads to one folder waited on each other.
  const select = 'SELECT id FROM folders WHERE organization_id = $1 AND name = $2';
  const found = await db.query<{ id: number }>(select, [organizationId, name]);
  if (found.rows[0]) return found.rows[0].id;
  const inserted = await inTransaction(db, async (tx) => {
    await checkLimit(
      tx,
      organizationId,
      'folders',
      'SELECT count(*)::integer AS n FROM folders WHERE organization_id = $1',
      [organizationId],
    ).catch(async (error: unknown) => {
      // At the cap, a concurrent upload may have just made this very folder (the lock waited for
      // it): found, it is no new folder.
      if ((await tx.query(select, [organizationId, name])).rows[0]) return;
      throw error;
    });
    return tx.query<{ id: number }>(
      `INSERT INTO folders (organization_id, name) VALUES ($1, $2)
       ON CONFLICT (organization_id, name) DO NOTHING RETURNING id`,
      [organizationId, name],
    );
  });
  if (inserted.rows[0]) return inserted.rows[0].id;
  // Another upload created it between the two statements; its row is committed (the insert waited
  // for it to settle the conflict).
  const raced = await db.query<{ id: number }>(select, [organizationId, name]);
  return raced.rows[0]!.id;
}

interface SettingsRow {
  authors_group_ids: number[];
  effect: GroupsEffect;
  boost_multiplier: number | null;
}

/**
 * The folder's settings naming authors groups, with the groups that still exist in the
 * organization; null when the folder names none (or none of those it names remain).
 */
export async function folderGroupsSettings(
  db: Queryable,
  organizationId: number,
  folderId: number,
): Promise<FolderGroupsSettings | null> {
  const { rows } = await db.query<SettingsRow>(
    `SELECT s.authors_group_ids, s.effect, s.boost_multiplier
       FROM folder_referee_settings s JOIN folders f ON f.id = s.folder_id
      WHERE s.folder_id = $1 AND f.organization_id = $2`,
    [folderId, organizationId],
  );
  const row = rows[0];
  if (!row || row.authors_group_ids.length === 0) return null;
  const groups = await findOrganizationGroups(db, organizationId, row.authors_group_ids);
  if (groups.length === 0) return null;
  return {
    groups,
    effect: row.effect,
    boostMultiplier: row.effect === 'boost' ? (row.boost_multiplier ?? 1) : null,
  };
}

/** The names of the organization's folders whose settings name the group, by name. */
export async function foldersNamingGroup(
  db: Queryable,
  organizationId: number,
  groupId: number,
): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT f.name FROM folders f JOIN folder_referee_settings s ON s.folder_id = f.id
      WHERE f.organization_id = $1 AND $2 = ANY(s.authors_group_ids) ORDER BY f.name`,
    [organizationId, groupId],
  );
  return rows.map((r) => r.name);
}

/**
 * Takes a group that is being deleted out of every setting of the organization's folders that names
 * it; returns those folders' names. A folder left naming no group has no referee finder settings, as
 * when it is saved with none: its uploads are ranked over the whole corpus with no group effect (a
 * folder limited to the group only is no longer limited, rather than left with no candidates).
 */
export async function removeGroupFromFolderSettings(
  db: Queryable,
  organizationId: number,
  groupId: number,
): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `UPDATE folder_referee_settings s
        SET authors_group_ids = array_remove(s.authors_group_ids, $2), updated_at = now()
       FROM folders f
      WHERE f.id = s.folder_id AND f.organization_id = $1 AND $2 = ANY(s.authors_group_ids)
      RETURNING f.name`,
    [organizationId, groupId],
  );
  return rows.map((r) => r.name).sort();
}

export interface FolderSettingsInput {
  groupIds: number[];
  effect: GroupsEffect;
  boostMultiplier: number | null;
}

export async function saveFolderSettings(
  db: Queryable,
  folderId: number,
  input: FolderSettingsInput,
): Promise<void> {
  await db.query(
    `INSERT INTO folder_referee_settings (folder_id, authors_group_ids, effect, boost_multiplier)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (folder_id) DO UPDATE SET authors_group_ids = EXCLUDED.authors_group_ids,
       effect = EXCLUDED.effect, boost_multiplier = EXCLUDED.boost_multiplier, updated_at = now()`,
    [folderId, input.groupIds, input.effect, input.boostMultiplier],
  );
}

/**
 * The rules of a folder's settings, for every way they are set (CLI, dashboard): a known effect, a
 * multiplier with `boost` only (greater than 0, at most 1000), and only the organization's own groups
 * (another organization's group id is refused like a missing one).
 */
export async function checkFolderSettings(
  db: Queryable,
  organizationId: number,
  input: { groupIds: readonly number[]; effect: string; boostMultiplier: number | null },
): Promise<FolderSettingsInput> {
  if (!isGroupsEffect(input.effect))
    throw errors.validation('The effect must be highlight, limit_to or boost');
  const boost = input.boostMultiplier;
  if (input.effect !== 'boost' && boost !== null) {
    throw errors.validation('A boost multiplier applies only with the boost effect');
  }
  if (input.effect === 'boost' && (boost === null || !(boost > 0) || boost > 1000)) {
    throw errors.validation('The boost effect needs a multiplier greater than 0 and at most 1000');
  }
  const groupIds = [...new Set(input.groupIds)];
  const own = await findOrganizationGroups(db, organizationId, groupIds);
  const missing = groupIds.filter((id) => !own.some((g) => g.id === id));
  if (missing.length > 0) {
    throw errors.notFound(`Authors group ${missing.join(', ')} of organization ${organizationId}`);
  }
  return { groupIds, effect: input.effect, boostMultiplier: boost };
}

export interface FolderRow {
  id: number;
  name: string;
  authors_group_ids: number[];
  effect: GroupsEffect | null;
  boost_multiplier: number | null;
  journals: number;
}

const FOLDER_ROWS = `
  SELECT f.id, f.name, coalesce(s.authors_group_ids, '{}') AS authors_group_ids, s.effect, s.boost_multiplier,
         (SELECT count(*)::integer FROM journal_links l WHERE l.folder_id = f.id) AS journals
    FROM folders f LEFT JOIN folder_referee_settings s ON s.folder_id = f.id`;

/**
 * One page of the organization's folders by name, and how many there are (with `search`, how many
 * match: every word of it, in any order, somewhere in the name, letter case and accents aside). An
 * organization may hold 10,000
 * folders (`limits.folders`): listed whole, with each one's settings and links, a page was 4.7 MB
 * of HTML and 0.23 s of CPU at each view.
 */
export async function listFolderPage(
  db: Queryable,
  organizationId: number,
  options: PageRequest,
): Promise<CountedPage<FolderRow>> {
  const { where, params, total } = await countedNameMatches(
    db,
    'folders',
    'f',
    organizationId,
    options.search,
  );
  const { rows } = await db.query<FolderRow>(
    `${FOLDER_ROWS} WHERE f.id IN (SELECT f.id FROM folders f WHERE ${where}
                                  ORDER BY f.name, f.id LIMIT $${params.length + 1} OFFSET $${params.length + 2})
      ORDER BY f.name, f.id`,
    [...params, options.limit, options.offset],
  );
  return { total, rows };
}

export interface FolderName {
  id: number;
  name: string;
}

/** The organization's first `limit` folders by name, ids and names only (a menu of them). */
export async function listFolderNames(
  db: Queryable,
  organizationId: number,
  limit: number,
): Promise<FolderName[]> {
  const { rows } = await db.query<FolderName>(
    'SELECT id, name FROM folders WHERE organization_id = $1 ORDER BY name, id LIMIT $2',
    [organizationId, limit],
  );
  return rows;
}

/**
 * The organization's folder that `asked` names: the folder of that id when `id` is given (the
 * caller read `asked` as one) and the organization has it, else the folder of that name, as written
 * or else in any case; null when the organization has none such. By id first, then by name: a folder
 * named with digits ("2024", "0042") could not be found by its name, which was read as an id alone.
 */
export async function findFolderNamed(
  db: Queryable,
  organizationId: number,
  asked: string,
  id: number | null,
): Promise<FolderName | null> {
  if (id !== null) {
    const { rows } = await db.query<FolderName>(
      'SELECT id, name FROM folders WHERE organization_id = $1 AND id = $2',
      [organizationId, id],
    );
    if (rows[0]) return rows[0];
  }
  const { rows } = await db.query<FolderName>(
    `SELECT id, name FROM folders WHERE organization_id = $1 AND lower(name) = lower($2)
      ORDER BY name = $2 DESC, id LIMIT 1`,
    [organizationId, asked],
  );
  return rows[0] ?? null;
}

/** The organization's folder of that id; another organization's is "not found". */
export async function requireFolder(
  db: Queryable,
  organizationId: number,
  folderId: number,
): Promise<FolderRow> {
  const { rows } = await db.query<FolderRow>(`${FOLDER_ROWS} WHERE f.organization_id = $1 AND f.id = $2`, [
    organizationId,
    folderId,
  ]);
  if (!rows[0]) throw errors.notFound(`Folder ${folderId}`);
  return rows[0];
}
