// What the finder reads about candidates once they are ranked: one query per kind of data for all
// of them, never one per candidate.
import type { Queryable } from '../infra/db/index.ts';
import { normalizeOrcid } from '../corpus/ids.ts';

export interface CandidateRow {
  id: number;
  display_name: string;
  orcid: string | null;
  emails: string[];
  articles_count: number;
  citations_count: number;
  h_index: number;
  first_publication_year: number | null;
  recent_affiliation: string | null;
  recent_institution_id: number | null;
  institution_name: string | null;
}

export async function candidateRows(
  db: Queryable,
  ids: readonly number[],
): Promise<Map<number, CandidateRow>> {
  if (!ids.length) return new Map();
  const { rows } = await db.query<CandidateRow>(
    `SELECT a.id, a.display_name, a.orcid, a.emails, a.articles_count, a.citations_count, a.h_index,
       a.first_publication_year, a.recent_affiliation, a.recent_institution_id, i.name AS institution_name
     FROM authors a LEFT JOIN institutions i ON i.id = a.recent_institution_id
     WHERE a.id = ANY($1::int[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** What the organization's own authors-group records say of a corpus author they are linked to. */
export interface GroupRecordIds {
  emails: string[];
  /** Normalized (corpus/ids.ts normalizeOrcid); those that are no ORCID left out. */
  orcids: string[];
}

/** Emails and ORCIDs the organization's own authors-group records hold for these corpus authors. */
export async function groupRecordIds(
  db: Queryable,
  organizationId: number,
  ids: readonly number[],
): Promise<Map<number, GroupRecordIds>> {
  if (!ids.length) return new Map();
  const { rows } = await db.query<{ linked_author_id: number; emails: string[]; orcids: string[] }>(
    `SELECT linked_author_id, coalesce(emails, '{}') AS emails, coalesce(orcids, '{}') AS orcids
       FROM group_authors
     WHERE organization_id = $1 AND linked_author_id = ANY($2::int[])
       AND (cardinality(emails) > 0 OR cardinality(orcids) > 0)
     ORDER BY group_id, client_id`,
    [organizationId, ids],
  );
  const byAuthor = new Map<number, GroupRecordIds>();
  for (const r of rows) {
    const known = byAuthor.get(r.linked_author_id) ?? { emails: [], orcids: [] };
    known.emails.push(...r.emails);
    for (const orcid of r.orcids) {
      const normalized = normalizeOrcid(orcid);
      if (normalized) known.orcids.push(normalized);
    }
    byAuthor.set(r.linked_author_id, known);
  }
  return byAuthor;
}

export interface GroupMembership {
  group_id: number;
  client_id: string | null;
}

/** Corpus authors held by the named groups of the organization, with the records holding them. */
export async function groupMembers(
  db: Queryable,
  organizationId: number,
  groupIds: readonly number[],
): Promise<Map<number, GroupMembership[]>> {
  if (!groupIds.length) return new Map();
  const { rows } = await db.query<{ group_id: number; client_id: string; linked_author_id: number }>(
    `SELECT group_id, client_id, linked_author_id FROM group_authors
     WHERE organization_id = $1 AND group_id = ANY($2::int[]) AND linked_author_id IS NOT NULL
     ORDER BY group_id, client_id`,
    [organizationId, groupIds],
  );
  const byAuthor = new Map<number, GroupMembership[]>();
  for (const r of rows) {
    const list = byAuthor.get(r.linked_author_id) ?? [];
    list.push({ group_id: r.group_id, client_id: r.client_id });
    byAuthor.set(r.linked_author_id, list);
  }
  return byAuthor;
}

/**
 * Per author id, every corpus author id with its ORCID, itself included: the catalogue sometimes
 * splits one person across ids, and a conflict found through any of them is that person's.
 */
export async function sameOrcidAuthors(
  db: Queryable,
  ids: readonly number[],
): Promise<Map<number, number[]>> {
  const same = new Map(ids.map((id) => [id, [id]]));
  if (!ids.length) return same;
  const { rows } = await db.query<{ id: number; same: number[] }>(
    `SELECT a.id, array_agg(b.id ORDER BY b.id) AS same FROM authors a JOIN authors b ON b.orcid = a.orcid
     WHERE a.id = ANY($1::int[]) AND a.orcid IS NOT NULL GROUP BY a.id`,
    [ids],
  );
  for (const r of rows) same.set(r.id, [...new Set([r.id, ...r.same])]);
  return same;
}

export async function workSummaries(
  db: Queryable,
  workIds: readonly number[],
): Promise<Map<number, { title: string; year: number | null }>> {
  if (!workIds.length) return new Map();
  const { rows } = await db.query<{ id: number; title: string; publication_year: number | null }>(
    'SELECT id, title, publication_year FROM works WHERE id = ANY($1::int[])',
    [workIds],
  );
  return new Map(rows.map((r) => [r.id, { title: r.title, year: r.publication_year }]));
}
