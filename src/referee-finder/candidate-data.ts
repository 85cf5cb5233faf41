// What the finder reads about candidates once they are ranked: one query per kind of data for all
// of them, never one per candidate.
import type { Queryable } from '../infra/db/index.ts';
import type { RecentAffiliation } from '../corpus/authors/metrics.ts';
import { normalizeOrcid } from '../corpus/openalex/ids.ts';
import { appendTo } from '../infra/collections.ts';

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
  /** Null until the recompute has computed it (migration 0091). */
  recent_affiliations: RecentAffiliation[] | null;
}

export async function candidateRows(
  db: Queryable,
  ids: readonly number[],
): Promise<Map<number, CandidateRow>> {
  if (!ids.length) return new Map();
  const { rows } = await db.query<CandidateRow>(
    `SELECT a.id, a.display_name, a.orcid, a.emails, a.articles_count, a.citations_count, a.h_index,
       a.first_publication_year, a.recent_affiliation, a.recent_institution_id, i.name AS institution_name,
       a.recent_affiliations
     FROM authors a LEFT JOIN institutions i ON i.id = a.recent_institution_id
     WHERE a.id = ANY($1::int[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** What the conflicts and the contact email read of each record of a candidate's person. */
export interface RecordFacts {
  /** The corpus's own addresses (corpus/authors/emails.ts). */
  emails: string[];
  /** Null until the recompute has computed it (migration 0091). */
  recentAffiliations: RecentAffiliation[] | null;
}

/**
 * The corpus's own addresses and recent affiliations of these records, where they have any: one read
 * of the person's author rows for both.
 */
export async function recordFacts(db: Queryable, ids: readonly number[]): Promise<Map<number, RecordFacts>> {
  if (!ids.length) return new Map();
  const { rows } = await db.query<{
    id: number;
    emails: string[];
    recent_affiliations: RecentAffiliation[] | null;
  }>(
    `SELECT id, emails, recent_affiliations FROM authors
      WHERE id = ANY($1::int[]) AND (emails <> '{}' OR recent_affiliations <> '[]'::jsonb)`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, { emails: r.emails, recentAffiliations: r.recent_affiliations }]));
}

/** What the organization's own authors-group records say of a corpus author they are linked to. */
export interface GroupRecordIds {
  emails: string[];
  /** Normalized (corpus/openalex/ids.ts normalizeOrcid); those that are no ORCID left out. */
  orcids: string[];
  /** As the organization wrote them: often newer than the corpus's (a reviewer who moved this year). */
  affiliations: string[];
}

/** Emails, ORCIDs and affiliations the organization's own authors-group records hold for these corpus authors. */
export async function groupRecordIds(
  db: Queryable,
  organizationId: number,
  ids: readonly number[],
): Promise<Map<number, GroupRecordIds>> {
  if (!ids.length) return new Map();
  const { rows } = await db.query<{
    linked_author_id: number;
    emails: string[];
    orcids: string[];
    affiliations: string[];
  }>(
    `SELECT linked_author_id, coalesce(emails, '{}') AS emails, coalesce(orcids, '{}') AS orcids,
            coalesce(affiliations, '{}') AS affiliations
       FROM group_authors
     WHERE organization_id = $1 AND linked_author_id = ANY($2::int[])
       AND (cardinality(emails) > 0 OR cardinality(orcids) > 0 OR cardinality(affiliations) > 0)
     ORDER BY group_id, client_id`,
    [organizationId, ids],
  );
  const byAuthor = new Map<number, GroupRecordIds>();
  for (const r of rows) {
    const known = byAuthor.get(r.linked_author_id) ?? { emails: [], orcids: [], affiliations: [] };
    known.emails.push(...r.emails);
    known.affiliations.push(...r.affiliations);
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

/**
 * Corpus persons held by the named groups of the organization (by the person of the record each group
 * record is linked to), with the group records holding them.
 */
export async function groupMembers(
  db: Queryable,
  organizationId: number,
  groupIds: readonly number[],
): Promise<Map<number, GroupMembership[]>> {
  if (!groupIds.length) return new Map();
  const { rows } = await db.query<{ group_id: number; client_id: string; linked_author_id: number }>(
    `SELECT g.group_id, g.client_id, coalesce(a.person_id, g.linked_author_id) AS linked_author_id
       FROM group_authors g JOIN authors a ON a.id = g.linked_author_id
     WHERE g.organization_id = $1 AND g.group_id = ANY($2::int[])
     ORDER BY g.group_id, g.client_id`,
    [organizationId, groupIds],
  );
  const byAuthor = new Map<number, GroupMembership[]>();
  for (const r of rows) {
    appendTo(byAuthor, r.linked_author_id, { group_id: r.group_id, client_id: r.client_id });
  }
  return byAuthor;
}

export interface PersonOfRecord {
  /** The person's id (corpus/authors/people.ts): the one the ranking and the candidate list go by. */
  person: number;
  /** Every record of the person, and every record with its ORCID, itself included. */
  records: number[];
}

// Three index look-ups, not one OR (which would read the whole table for each id).
const PERSONS_OF = `
SELECT a.id, coalesce(a.person_id, a.id) AS person,
       ARRAY(SELECT a.id
             UNION SELECT b.id FROM authors b WHERE a.person_id IS NOT NULL AND b.person_id = a.person_id
             UNION SELECT b.id FROM authors b WHERE a.orcid IS NOT NULL AND b.orcid = a.orcid
             ORDER BY 1) AS records
  FROM authors a WHERE a.id = ANY($1::int[])`;

/**
 * Per corpus author record, its person and every record of it: a conflict found through any of them
 * is the person's, and so is an email.
 */
export async function personsOf(db: Queryable, ids: readonly number[]): Promise<Map<number, PersonOfRecord>> {
  const out = new Map(ids.map((id) => [id, { person: id, records: [id] }]));
  if (!ids.length) return out;
  const { rows } = await db.query<{ id: number; person: number; records: number[] }>(PERSONS_OF, [ids]);
  for (const r of rows) out.set(r.id, { person: r.person, records: r.records });
  return out;
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
