// The organization's manuscripts as the dashboard lists and shows them: newest first, by keyset
// (ids below or above the last one seen, through manuscripts_org_list_idx / _folder_list_idx), with
// a title search by word prefixes, accents aside (manuscripts_title_folded_words_idx), or an exact
// origin_id.
import type { Queryable } from '../infra/db/index.ts';
import { errors } from '../infra/errors.ts';
import { foldAccents } from '../infra/text-fold.ts';
import type { ManuscriptAuthor } from '../referee-finder/types.ts';
import type { ParsedMetadata, SuppliedMetadata } from './merge.ts';
import { suppliedOf, type StoredSupplied } from './manuscripts-store.ts';
import type { Prefer } from '../organizations/organizations.ts';

export interface ManuscriptListItem {
  id: number;
  origin_id: string;
  title: string;
  folder_id: number;
  folder: string;
  updated_at: Date;
  candidates: number | null;
  marks: number;
}

export interface ListQuery {
  folderId: number | null;
  search: string;
  /** Older than this id (the next page) ... */
  before: number | null;
  /** ... or newer than this one (the previous page). */
  after: number | null;
  limit: number;
}

/**
 * The words of a search, folded (foldAccents, as fold_text folds the titles searched), as a prefix
 * query ('graph:* & neur:*'); null when there are none.
 */
export function titleQuery(search: string): string | null {
  const words =
    foldAccents(search)
      .match(/[\p{L}\p{N}]+/gu)
      ?.slice(0, 8) ?? [];
  return words.length ? words.map((w) => `${w}:*`).join(' & ') : null;
}

/** A page of the list, newest first; `more` says whether the list goes on past it in its direction. */
export async function listManuscripts(
  db: Queryable,
  organizationId: number,
  q: ListQuery,
): Promise<{ items: ManuscriptListItem[]; more: boolean }> {
  const backwards = q.after !== null && q.before === null;
  // Only the conditions in use, as plain bounds: `$n IS NULL OR m.id < $n` would hide the keyset's
  // bound from the index scan.
  const where = ['m.organization_id = $1'];
  const values: unknown[] = [organizationId];
  const param = (value: unknown) => `$${values.push(value)}`;
  if (q.folderId !== null) where.push(`m.folder_id = ${param(q.folderId)}`);
  const words = titleQuery(q.search);
  if (words !== null) {
    where.push(
      `(to_tsvector('simple', fold_text(m.title)) @@ to_tsquery('simple', ${param(words)}) OR m.origin_id = ${param(q.search.trim())})`,
    );
  } else if (q.search.trim()) {
    // A search with no word in it ("#", "—") can only be an origin id: listing every manuscript
    // under "matching" would say they all match.
    where.push(`m.origin_id = ${param(q.search.trim())}`);
  }
  if (q.before !== null) where.push(`m.id < ${param(q.before)}`);
  else if (q.after !== null) where.push(`m.id > ${param(q.after)}`);
  const { rows } = await db.query<ManuscriptListItem>(
    `SELECT m.id, m.origin_id, m.title, m.folder_id, f.name AS folder, m.updated_at,
            c.candidate_count AS candidates,
            (SELECT count(*)::int FROM manuscript_marks k WHERE k.manuscript_id = m.id) AS marks
       FROM manuscripts m JOIN folders f ON f.id = m.folder_id
       LEFT JOIN manuscript_candidates c ON c.manuscript_id = m.id
      WHERE ${where.join(' AND ')}
      ORDER BY m.id ${backwards ? 'ASC' : 'DESC'} LIMIT ${param(q.limit + 1)}`,
    values,
  );
  const more = rows.length > q.limit;
  const items = rows.slice(0, q.limit);
  return { items: backwards ? items.reverse() : items, more };
}

/**
 * The manuscript whose origin_id is exactly the search, if any: the list finds it among the titles
 * its words also match, ordered by upload, where it could come last of many.
 */
export async function findByOriginId(
  db: Queryable,
  organizationId: number,
  originId: string,
): Promise<{ id: number; title: string; origin_id: string } | null> {
  const { rows } = await db.query<{ id: number; title: string; origin_id: string }>(
    'SELECT id, title, origin_id FROM manuscripts WHERE organization_id = $1 AND origin_id = $2',
    [organizationId, originId.trim()],
  );
  return rows[0] ?? null;
}

export interface ManuscriptDetail {
  id: number;
  origin_id: string;
  folder_id: number;
  folder: string;
  title: string;
  abstract: string;
  keywords: string[];
  authors: ManuscriptAuthor[];
  supplied: SuppliedMetadata;
  parsed: ParsedMetadata | null;
  authors_count: number;
  source_file: string | null;
  source_format: string | null;
  parse_error: string | null;
  warnings: string[];
  /** The setting the upload merged by; null for uploads made before it was kept (0116). */
  prefer: Prefer | null;
  /**
   * The file's authors the form did not name, as the upload used them for conflicts; null for uploads
   * made before they were kept (0117).
   */
  file_only_authors: ManuscriptAuthor[] | null;
  parsed_text_len: number;
  parsed_references: number;
  extracted_concepts: number;
  created_at: Date;
  updated_at: Date;
}

/** One manuscript of the organization (never its full text); 404 for another organization's. */
export async function requireManuscript(
  db: Queryable,
  organizationId: number,
  manuscriptId: number,
): Promise<ManuscriptDetail> {
  const { rows } = await db.query<Omit<ManuscriptDetail, 'supplied'> & { supplied: StoredSupplied }>(
    `SELECT m.id, m.origin_id, m.folder_id, f.name AS folder, m.title, m.abstract, m.keywords, m.authors,
            m.supplied, m.parsed, m.authors_count, m.source_file, m.source_format, m.parse_error, m.warnings,
            m.prefer, m.file_only_authors, m.parsed_text_len, m.parsed_references, m.extracted_concepts, m.created_at, m.updated_at
       FROM manuscripts m JOIN folders f ON f.id = m.folder_id
      WHERE m.id = $1 AND m.organization_id = $2`,
    [manuscriptId, organizationId],
  );
  const row = rows[0];
  if (!row) throw errors.notFound('Manuscript');
  return { ...row, supplied: suppliedOf(row.supplied, row) };
}
