// Conflicts of interest declared by the organization (spec 2.3 `external_coi`): imported from CSV,
// matched to candidates by the conflict policy (conflict-policy.ts; read in conflict-facts.ts).
import { parse } from 'csv-parse/sync';
import type { Database, Queryable } from '../infra/db/index.ts';
import { normalizeOrcid } from '../corpus/openalex/ids.ts';

export interface CoiRow {
  originId: string | null;
  authorId: number | null;
  orcid: string | null;
  email: string | null;
}

/** One person identifier: an ORCID, an email or a corpus author id; null when it is none of them. */
export function classifyPerson(value: string): Omit<CoiRow, 'originId'> | null {
  const v = value.trim();
  // An author id fits the column (int4); longer digit strings are ORCIDs written without hyphens.
  if (/^\d{1,10}$/.test(v) && Number(v) <= 2_147_483_647) {
    return { authorId: Number(v), orcid: null, email: null };
  }
  if (v.includes('@')) return { authorId: null, orcid: null, email: v.toLowerCase() };
  const orcid = normalizeOrcid(v);
  if (orcid) return { authorId: null, orcid, email: null };
  return null;
}

/** Rows of `origin_id,person`; a first row naming the columns is skipped. */
export function parseCoiCsv(text: string): {
  rows: CoiRow[];
  rejected: Array<{ line: number; reason: string }>;
} {
  const records = parse(text, { relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
  const rows: CoiRow[] = [];
  const rejected: Array<{ line: number; reason: string }> = [];
  records.forEach((record, i) => {
    const [origin, person] = record;
    if (i === 0 && origin && /origin/i.test(origin)) return;
    if (!origin || !person) {
      rejected.push({ line: i + 1, reason: 'expected two columns: origin_id (or *) and the person' });
      return;
    }
    const who = classifyPerson(person);
    if (!who) {
      rejected.push({ line: i + 1, reason: `"${person}" is not an ORCID, an email or an author id` });
      return;
    }
    rows.push({ originId: origin === '*' ? null : origin, ...who });
  });
  return { rows, rejected };
}

export async function importCoi(
  db: Database,
  organizationId: number,
  rows: readonly CoiRow[],
  replace: boolean,
): Promise<{ inserted: number }> {
  return db.transaction(async (tx) => {
    if (replace) await tx.query('DELETE FROM external_coi WHERE organization_id = $1', [organizationId]);
    if (!rows.length) return { inserted: 0 };
    const { rows: done } = await tx.query<{ n: number }>(
      `WITH ins AS (
        INSERT INTO external_coi (organization_id, origin_id, author_id, orcid, email)
        SELECT $1, * FROM unnest($2::text[], $3::int[], $4::text[], $5::text[])
        ON CONFLICT DO NOTHING RETURNING 1
      ) SELECT count(*)::int AS n FROM ins`,
      [
        organizationId,
        rows.map((r) => r.originId),
        rows.map((r) => r.authorId),
        rows.map((r) => r.orcid),
        rows.map((r) => r.email),
      ],
    );
    return { inserted: done[0]?.n ?? 0 };
  });
}

/** One author's flag on one manuscript: set, or taken off; true when that changed a row. */
function authorFlagStatement(sql: string) {
  return async (
    db: Queryable,
    organizationId: number,
    originId: string,
    authorId: number,
  ): Promise<boolean> => {
    const { rows } = await db.query(sql, [organizationId, originId, authorId]);
    return rows.length > 0;
  };
}

/**
 * Flags a corpus author as in conflict with one manuscript (the dashboard's button on a candidate):
 * a row as `refmatch coi import` writes for `origin_id,author_id`. True when it was not flagged yet.
 */
export const flagAuthorConflict = authorFlagStatement(
  `INSERT INTO external_coi (organization_id, origin_id, author_id) VALUES ($1, $2, $3)
   ON CONFLICT DO NOTHING RETURNING 1`,
);

/** Takes off the flag `flagAuthorConflict` wrote (not one for every manuscript, nor by ORCID or email). */
export const unflagAuthorConflict = authorFlagStatement(
  `DELETE FROM external_coi WHERE organization_id = $1 AND origin_id = $2 AND author_id = $3 RETURNING 1`,
);

/** Which of the authors are flagged for this manuscript by author id (what the button flags). */
export async function authorsFlaggedFor(
  db: Queryable,
  organizationId: number,
  originId: string,
  authorIds: readonly number[],
): Promise<Set<number>> {
  if (!authorIds.length) return new Set();
  const { rows } = await db.query<{ author_id: number }>(
    `SELECT author_id FROM external_coi
      WHERE organization_id = $1 AND origin_id = $2 AND author_id = ANY($3::int[])`,
    [organizationId, originId, authorIds],
  );
  return new Set(rows.map((r) => r.author_id));
}
