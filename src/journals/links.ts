// Linking journals (corpus sources) to an organization's folders: the account manager's job in the
// spec, done here by the CLI. One folder per journal per organization; linking again moves it.
import type { Database, Queryable } from '../infra/db/index.ts';
import { errors } from '../infra/errors.ts';
import { everyWordIn } from '../infra/db/paging.ts';
import { ensureFolder } from '../folders/folders.ts';
import { requireOrganization } from '../organizations/organizations.ts';

export interface LinkResult {
  organization_id: number;
  source_id: number;
  source_title: string;
  folder_id: number;
  folder_name: string;
}

/** The title of the corpus's journal (source) of that id; null when there is none (gone after an ingest). */
export async function findSourceTitle(db: Queryable, sourceId: number): Promise<string | null> {
  const { rows } = await db.query<{ title: string }>('SELECT title FROM sources WHERE id = $1', [sourceId]);
  return rows[0]?.title ?? null;
}

async function requireSource(db: Database, sourceId: number): Promise<string> {
  const title = await findSourceTitle(db, sourceId);
  if (title === null) throw errors.notFound(`Journal (source) ${sourceId}`);
  return title;
}

function folderName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 256) throw errors.validation('--folder must have 1 to 256 characters');
  return trimmed;
}

/** Links the journal to the folder (created when missing), replacing any earlier folder of it. */
export async function linkJournal(
  db: Database,
  organizationId: number,
  folder: string,
  sourceId: number,
): Promise<LinkResult> {
  const name = folderName(folder);
  await requireOrganization(db, organizationId);
  const title = await requireSource(db, sourceId);
  const folderId = await db.transaction(async (tx) => {
    const id = await ensureFolder(tx, organizationId, name);
    await tx.query(
      `INSERT INTO journal_links (organization_id, source_id, folder_id) VALUES ($1, $2, $3)
       ON CONFLICT (organization_id, source_id) DO UPDATE SET folder_id = EXCLUDED.folder_id, created_at = now()`,
      [organizationId, sourceId, id],
    );
    return id;
  });
  return {
    organization_id: organizationId,
    source_id: sourceId,
    source_title: title,
    folder_id: folderId,
    folder_name: name,
  };
}

/** Removes the journal's link; with a folder name, only when it is linked to that folder. */
export async function unlinkJournal(
  db: Database,
  organizationId: number,
  sourceId: number,
  folder?: string,
): Promise<{ unlinked: true; organization_id: number; source_id: number }> {
  await requireOrganization(db, organizationId);
  const name = folder === undefined ? null : folderName(folder);
  const { rows } = await db.query<{ source_id: number }>(
    `DELETE FROM journal_links l
      WHERE l.organization_id = $1 AND l.source_id = $2
        AND ($3::text IS NULL OR l.folder_id = (SELECT id FROM folders WHERE organization_id = $1 AND name = $3))
      RETURNING l.source_id`,
    [organizationId, sourceId, name],
  );
  if (rows.length === 0) {
    throw errors.notFound(
      `A link of journal ${sourceId}${name === null ? '' : ` to folder "${name}"`} in organization ${organizationId}`,
    );
  }
  return { unlinked: true, organization_id: organizationId, source_id: sourceId };
}

export async function listLinks(db: Database, organizationId: number): Promise<LinkResult[]> {
  await requireOrganization(db, organizationId);
  const { rows } = await db.query<LinkResult>(
    `SELECT l.organization_id, l.source_id, s.title AS source_title, l.folder_id, f.name AS folder_name
       FROM journal_links l JOIN sources s ON s.id = l.source_id JOIN folders f ON f.id = l.folder_id
      WHERE l.organization_id = $1 ORDER BY f.name, s.title`,
    [organizationId],
  );
  return rows;
}

export interface SourceMatch {
  id: number;
  title: string;
  publisher: string | null;
  works: number;
  /** The years of its works (null when none has one): tells apart venues of one title. */
  first_year: number | null;
  last_year: number | null;
}

/**
 * Journals of the corpus whose title holds every word of `text`, in any order, letter case and
 * accents aside (everyWordIn: "revista espanola" finds "Revista Española", as the dashboard's other
 * searches over names find theirs), the largest first: what an account manager links. A venue's size
 * is `sources.works_count`, the count the ingest keeps (the journal ranking's too), and the years are
 * read for the listed venues alone: counting the works of every matching venue on each search read
 * the whole corpus for a common letter (0.4 s at 500,000 works on the embedded database, whose
 * queries hold the event loop), for any reader of the dashboard.
 */
export async function searchSources(db: Queryable, text: string, limit: number): Promise<SourceMatch[]> {
  const words = everyWordIn('title', text, 2);
  if (words.conditions.length === 0) return [];
  const { rows } = await db.query<SourceMatch>(
    `SELECT s.id, s.title, s.publisher, s.works_count AS works, y.first_year, y.last_year
       FROM (SELECT id, title, publisher, works_count FROM sources WHERE ${words.conditions.join(' AND ')}
              ORDER BY works_count DESC, title, id LIMIT $1) s,
            LATERAL (SELECT min(publication_year) AS first_year, max(publication_year) AS last_year
                       FROM works WHERE source_id = s.id) y
      ORDER BY s.works_count DESC, s.title, s.id`,
    [limit, ...words.params],
  );
  return rows;
}
