// Journals recommended for a manuscript, as the dashboard's manuscript page shows them: computed by
// the same recommendation as the API (recommend.ts) at the first view after an upload, then read
// back while the manuscript is unchanged (migration 0056). The linked folders are applied at each
// view, so linking a journal shows at once.
import type { Queryable } from '../infra/db/index.ts';
import { recommendJournals, type RecommendDeps, type RecommendedJournal } from './recommend.ts';
import { linkedJournals } from './store.ts';

export const DASHBOARD_JOURNALS = 10;

export async function journalsForManuscript(
  deps: RecommendDeps,
  organizationId: number,
  manuscript: { id: number; originId: string },
): Promise<RecommendedJournal[]> {
  const { db } = deps;
  const { rows } = await db.query<{ journals: RecommendedJournal[] | null; version: string }>(
    // As text: a JS Date would drop the microseconds, and the stamp would never match again.
    `SELECT j.journals, m.updated_at::text AS version FROM manuscripts m
       LEFT JOIN manuscript_journals j ON j.manuscript_id = m.id AND j.manuscript_updated_at = m.updated_at
      WHERE m.id = $1 AND m.organization_id = $2`,
    [manuscript.id, organizationId],
  );
  const row = rows[0];
  if (!row) return [];
  if (row.journals) return withCurrentLinks(db, organizationId, row.journals);
  const journals = await recommendJournals(
    deps,
    organizationId,
    manuscript.originId,
    'all_journals',
    DASHBOARD_JOURNALS,
  );
  // Stamped with the version read before computing: an upload meanwhile makes this entry stale.
  await db.query(
    `INSERT INTO manuscript_journals (manuscript_id, manuscript_updated_at, journals) VALUES ($1, $2::timestamptz, $3::jsonb)
     ON CONFLICT (manuscript_id) DO UPDATE SET manuscript_updated_at = EXCLUDED.manuscript_updated_at,
       journals = EXCLUDED.journals`,
    [manuscript.id, row.version, JSON.stringify(journals)],
  );
  return journals;
}

async function withCurrentLinks(
  db: Queryable,
  organizationId: number,
  journals: RecommendedJournal[],
): Promise<RecommendedJournal[]> {
  const links = await linkedJournals(db, organizationId);
  return journals.map((j) => {
    const link = links.get(j.id);
    return { ...j, folder_id: link?.folderId ?? null, folder_name: link?.folderName ?? null };
  });
}
