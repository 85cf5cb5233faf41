// Conflicts of interest declared by the organization (spec 2.3 `external_coi`): imported from CSV,
// checked per candidate at ranking time.
import { parse } from 'csv-parse/sync';
import type { Database, Queryable } from '../infra/db/index.ts';
import { normalizeOrcid } from '../corpus/ids.ts';

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

export interface CoiSubject {
  authorId: number;
  /** Every corpus id of the person (same ORCID), authorId included: a flag on any of them counts. */
  sameAs?: readonly number[];
  /** The corpus's ORCID and those the organization's own group records give the person. */
  orcids: readonly string[];
  emails: string[];
}

/** The candidates the organization flagged for this manuscript (or for every manuscript). */
export async function flaggedAuthors(
  db: Queryable,
  organizationId: number,
  originId: string,
  subjects: readonly CoiSubject[],
): Promise<Set<number>> {
  if (!subjects.length) return new Set();
  const { rows } = await db.query<{ author_id: number | null; orcid: string | null; email: string | null }>(
    `SELECT author_id, orcid, email FROM external_coi
     WHERE organization_id = $1 AND (origin_id IS NULL OR origin_id = $2)
       AND (author_id = ANY($3::int[]) OR orcid = ANY($4::text[]) OR email = ANY($5::text[]))`,
    [
      organizationId,
      originId,
      subjects.flatMap((s) => s.sameAs ?? [s.authorId]),
      subjects.flatMap((s) => s.orcids),
      subjects.flatMap((s) => s.emails.map((e) => e.toLowerCase())),
    ],
  );
  const flagged = new Set<number>();
  for (const s of subjects) {
    const hit = rows.some(
      (r) =>
        (r.author_id !== null && (s.sameAs ?? [s.authorId]).includes(r.author_id)) ||
        (r.orcid !== null && s.orcids.includes(r.orcid)) ||
        (r.email !== null && s.emails.some((e) => e.toLowerCase() === r.email)),
    );
    if (hit) flagged.add(s.authorId);
  }
  return flagged;
}
