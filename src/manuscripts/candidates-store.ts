// The candidates of a manuscript's last upload, kept for the dashboard's manuscript page (migration
// 0056): ranked once at upload, shown on every view without ranking again. Each carries the
// conflicts the policy found with their evidence (referee-finder/conflict-policy.ts), and why it is
// there (the works and terms behind its score). Marks are not kept here: manuscript_marks is their
// one store, read when the page is shown.
import type { Queryable } from '../infra/db/index.ts';
import type { CandidateWhy } from '../referee-finder/concepts.ts';
import type { Conflict } from '../referee-finder/conflict-policy.ts';
import type { RankedCandidate } from '../referee-finder/types.ts';
import type { AuthorsGroupsSettings } from './upload-schema.ts';

export type StoredCandidate = RankedCandidate & {
  conflicts: Conflict[];
  /** Why the candidate is there (referee-finder/concepts.ts); absent from candidates stored before it was kept. */
  why?: CandidateWhy | null;
};

export interface StoredCandidates {
  candidates: StoredCandidate[];
  concepts: string[];
  rankedAt: Date;
  /**
   * The authors groups settings they were ranked with, as the upload answered them (null: none);
   * undefined for candidates stored before they were kept (migration 0102).
   */
  groupsSettings?: AuthorsGroupsSettings | null;
}

/**
 * Stores the candidates ranked for `revision` of the manuscript (manuscripts-store.ts upsertManuscript),
 * unless another upload of the same origin_id has replaced that revision meanwhile: two uploads at
 * once (a client's retry) rank in parallel, and the one that finishes last must not leave its
 * candidates beside the other's manuscript. Returns whether they were stored.
 */
export async function saveCandidates(
  db: Queryable,
  manuscriptId: number,
  revision: string,
  candidates: readonly StoredCandidate[],
  concepts: readonly string[],
  groupsSettings: AuthorsGroupsSettings | null = null,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO manuscript_candidates (manuscript_id, candidates, candidate_count, concepts, authors_groups_settings)
     SELECT $1, $2::jsonb, $3, $4, $6::jsonb
      WHERE EXISTS (SELECT 1 FROM manuscripts WHERE id = $1 AND updated_at = $5::timestamptz)
     ON CONFLICT (manuscript_id) DO UPDATE SET candidates = EXCLUDED.candidates,
       candidate_count = EXCLUDED.candidate_count, concepts = EXCLUDED.concepts, ranked_at = now(),
       authors_groups_settings = EXCLUDED.authors_groups_settings`,
    // JSON null (not SQL NULL) when there were no settings: SQL NULL is "not known" (migration 0102).
    [
      manuscriptId,
      JSON.stringify(candidates),
      candidates.length,
      concepts,
      revision,
      JSON.stringify(groupsSettings),
    ],
  );
  return rowCount > 0;
}

/** An upload that asked for no candidates (or whose plan has none) leaves none to show (as saveCandidates, for its revision). */
export async function clearCandidates(db: Queryable, manuscriptId: number, revision: string): Promise<void> {
  await db.query(
    `DELETE FROM manuscript_candidates WHERE manuscript_id = $1
       AND EXISTS (SELECT 1 FROM manuscripts WHERE id = $1 AND updated_at = $2::timestamptz)`,
    [manuscriptId, revision],
  );
}

export async function loadCandidates(db: Queryable, manuscriptId: number): Promise<StoredCandidates | null> {
  const { rows } = await db.query<{
    candidates: StoredCandidate[];
    concepts: string[];
    ranked_at: Date;
    groups_settings: AuthorsGroupsSettings | null;
    groups_settings_known: boolean;
  }>(
    `SELECT candidates, concepts, ranked_at, authors_groups_settings AS groups_settings,
            authors_groups_settings IS NOT NULL AS groups_settings_known
       FROM manuscript_candidates WHERE manuscript_id = $1`,
    [manuscriptId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    candidates: row.candidates,
    concepts: row.concepts,
    rankedAt: row.ranked_at,
    ...(row.groups_settings_known ? { groupsSettings: row.groups_settings } : {}),
  };
}

/** Whether the author is among the candidates the manuscript's last upload stored. */
export async function isStoredCandidate(
  db: Queryable,
  manuscriptId: number,
  authorId: number,
): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM manuscript_candidates mc, jsonb_array_elements(mc.candidates) c
        WHERE mc.manuscript_id = $1 AND (c->>'author_id')::int = $2) AS found`,
    [manuscriptId, authorId],
  );
  return rows[0]?.found ?? false;
}
