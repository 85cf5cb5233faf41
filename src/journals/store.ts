// SQL of journal recommendation: facts about works and sources, the organization's linked journals,
// and the corpus works a manuscript's references point to (the manuscript itself is read by
// src/manuscripts, which owns its table).
import type { Queryable } from '../infra/db/index.ts';
import { matchableTitle, normalizeDoi } from '../corpus/openalex/ids.ts';
import type { WorkFacts } from './rank-journals.ts';
import type { StoredManuscript } from '../manuscripts/manuscripts-store.ts';

export interface WorkRow extends WorkFacts {
  id: number;
  title: string;
}

export async function findWorks(db: Queryable, ids: readonly number[]): Promise<Map<number, WorkRow>> {
  const out = new Map<number, WorkRow>();
  if (ids.length === 0) return out;
  const { rows } = await db.query<{
    id: number;
    title: string;
    source_id: number | null;
    publication_year: number | null;
  }>('SELECT id, title, source_id, publication_year FROM works WHERE id = ANY($1::int[])', [ids]);
  for (const r of rows)
    out.set(r.id, { id: r.id, title: r.title, sourceId: r.source_id, year: r.publication_year });
  return out;
}

export interface SourceRow {
  id: number;
  title: string;
  publisher: string | null;
  worksCount: number;
}

export async function findSources(db: Queryable, ids: readonly number[]): Promise<Map<number, SourceRow>> {
  const out = new Map<number, SourceRow>();
  if (ids.length === 0) return out;
  const { rows } = await db.query<{
    id: number;
    title: string;
    publisher: string | null;
    works_count: number;
  }>('SELECT id, title, publisher, works_count FROM sources WHERE id = ANY($1::int[])', [ids]);
  for (const r of rows)
    out.set(r.id, { id: r.id, title: r.title, publisher: r.publisher, worksCount: r.works_count });
  return out;
}

/**
 * Works per source of the given corpus authors (the manuscript's, as resolved by the referee
 * finder's rule): one count per authorship, so a work two of them wrote counts twice.
 */
export async function authorVenueCounts(
  db: Queryable,
  authorIds: readonly number[],
): Promise<Map<number, number>> {
  if (authorIds.length === 0) return new Map();
  const { rows } = await db.query<{ source_id: number; n: number }>(
    `SELECT w.source_id, count(*)::int AS n
       FROM authorships a JOIN works w ON w.id = a.work_id
      WHERE a.author_id = ANY($1::int[]) AND w.source_id IS NOT NULL
      GROUP BY w.source_id`,
    [authorIds],
  );
  return new Map(rows.map((r) => [r.source_id, r.n]));
}

export interface JournalLink {
  sourceId: number;
  folderId: number;
  folderName: string;
}

export async function linkedJournals(
  db: Queryable,
  organizationId: number,
): Promise<Map<number, JournalLink>> {
  const { rows } = await db.query<{ source_id: number; folder_id: number; folder_name: string }>(
    `SELECT l.source_id, l.folder_id, f.name AS folder_name
       FROM journal_links l JOIN folders f ON f.id = l.folder_id
      WHERE l.organization_id = $1`,
    [organizationId],
  );
  return new Map(
    rows.map((r) => [
      r.source_id,
      { sourceId: r.source_id, folderId: r.folder_id, folderName: r.folder_name },
    ]),
  );
}

/** Ids of the works of the given sources: the search is limited to them for `org_journals`. */
export async function workIdsOfSources(db: Queryable, sourceIds: readonly number[]): Promise<Set<number>> {
  if (sourceIds.length === 0) return new Set();
  const { rows } = await db.query<{ id: number }>('SELECT id FROM works WHERE source_id = ANY($1::int[])', [
    sourceIds,
  ]);
  return new Set(rows.map((r) => r.id));
}

/**
 * One row per (reference, work) found, by DOI or by title ($1 the references' DOIs, $2 their titles,
 * in one order); `ord` says which reference. Titles meet on the works_title_key_idx index.
 */
export const CITED_WORKS = `
  WITH refs AS (
    SELECT ord, doi, title_key(title) AS key
      FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS r(doi, title, ord)
  )
  SELECT refs.ord, w.id, w.source_id, true AS by_doi
    FROM refs JOIN works w ON w.doi = refs.doi
   WHERE w.source_id IS NOT NULL
  UNION ALL
  SELECT refs.ord, w.id, w.source_id, false AS by_doi
    FROM refs JOIN works w ON title_key(w.title) = refs.key
   WHERE w.source_id IS NOT NULL
  ORDER BY 1, 2`;

/**
 * Corpus works the references name: each reference by its DOI when the corpus holds a work with it,
 * else by its title, so a reference whose DOI the corpus does not hold (a preprint's against the
 * published version's, or a work stored without one) still counts for its journal, and one that the
 * DOI finds counts once. Titles compare by `title_key` (migration 0034: case, punctuation and spacing
 * aside), folded in the database on both sides, as the referee finder's conflict check does.
 */
export async function citedWorks(
  db: Queryable,
  references: StoredManuscript['references'],
): Promise<Array<{ workId: number; sourceId: number }>> {
  const dois = references.map((r) => normalizeDoi(r.doi));
  const titles = references.map((r) => matchableTitle(r.title));
  if (!dois.some(Boolean) && !titles.some(Boolean)) return [];
  const { rows } = await db.query<{ ord: string; id: number; source_id: number; by_doi: boolean }>(
    CITED_WORKS,
    [dois, titles],
  );
  const found = new Map<number, { byDoi: typeof rows; byTitle: typeof rows }>();
  for (const r of rows) {
    const ord = Number(r.ord);
    let f = found.get(ord);
    if (!f) found.set(ord, (f = { byDoi: [], byTitle: [] }));
    (r.by_doi ? f.byDoi : f.byTitle).push(r);
  }
  const seen = new Set<number>();
  const out: Array<{ workId: number; sourceId: number }> = [];
  // In reference order: the rows come ordered by it, and a Map keeps insertion order.
  for (const f of found.values()) {
    for (const r of f.byDoi.length > 0 ? f.byDoi : f.byTitle) {
      if (seen.has(r.id)) continue;
      seen.add(r.id);
      out.push({ workId: r.id, sourceId: r.source_id });
    }
  }
  return out;
}
