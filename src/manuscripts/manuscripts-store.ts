// SQL of the manuscripts table. Every query is scoped by organization: a manuscript is found by
// (organization_id, origin_id), never by origin_id alone.
import type { Queryable } from '../infra/db/index.ts';
import type { ManuscriptAuthor, ManuscriptReference } from '../referee-finder/types.ts';
import type { SourceFormat } from './file-type.ts';
import { FULL_TEXT_CHARS } from '../retrieval/manuscript-query.ts';
import type { ParsedMetadata, SuppliedMetadata } from './merge.ts';
import type { SuppliedAuthor } from './upload-form.ts';
import type { Prefer } from '../organizations/organizations.ts';

export interface ParseCounts {
  textLen: number;
  references: number;
  authors: number;
  emails: number;
  orcids: number;
}

/** What the manuscript keeps of its source file; carried over by an upload that sends no file. */
export interface SourceState {
  parsed: ParsedMetadata | null;
  /**
   * The text read from the file; when `carried`, its first FULL_TEXT_CHARS characters alone (what
   * ranking reads).
   */
  fullText: string | null;
  /**
   * The stored manuscript's source, carried over by an upload without a file: the write leaves the
   * stored text as it is. A text read to the parse limit (2 M characters) was read whole and written
   * back whole by every re-post of the form, two queries of 2-8 MB each holding the loop on PGlite.
   */
  carried: boolean;
  references: ManuscriptReference[];
  sourceFile: string | null;
  sourceFormat: SourceFormat | null;
  parseError: string | null;
  counts: ParseCounts;
}

export const NO_SOURCE: SourceState = {
  parsed: null,
  fullText: null,
  carried: false,
  references: [],
  sourceFile: null,
  sourceFormat: null,
  parseError: null,
  counts: { textLen: 0, references: 0, authors: 0, emails: 0, orcids: 0 },
};

interface SourceRow {
  parsed: ParsedMetadata | null;
  full_text: string | null;
  references: ManuscriptReference[];
  source_file: string | null;
  source_format: SourceFormat | null;
  parse_error: string | null;
  parsed_text_len: number;
  parsed_references: number;
  parsed_authors_count: number;
  parsed_emails_count: number;
  parsed_orcids_count: number;
}

/** The stored source state of the organization's manuscript with that origin_id, if any. */
export async function findSourceState(
  db: Queryable,
  organizationId: number,
  originId: string,
): Promise<SourceState | null> {
  const { rows } = await db.query<SourceRow>(
    `SELECT parsed, left(full_text, $3) AS full_text, "references", source_file, source_format,
            parse_error, parsed_text_len, parsed_references, parsed_authors_count, parsed_emails_count,
            parsed_orcids_count
       FROM manuscripts WHERE organization_id = $1 AND origin_id = $2`,
    [organizationId, originId, FULL_TEXT_CHARS],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    parsed: row.parsed,
    fullText: row.full_text,
    carried: true,
    references: row.references,
    sourceFile: row.source_file,
    sourceFormat: row.source_format,
    parseError: row.parse_error,
    counts: {
      textLen: row.parsed_text_len,
      references: row.parsed_references,
      authors: row.parsed_authors_count,
      emails: row.parsed_emails_count,
      orcids: row.parsed_orcids_count,
    },
  };
}

export interface ManuscriptWrite {
  organizationId: number;
  originId: string;
  folderId: number;
  supplied: SuppliedMetadata;
  authorsCount: number;
  title: string;
  abstract: string;
  keywords: string[];
  authors: ManuscriptAuthor[];
  source: SourceState;
  warnings: string[];
  /** The organization's setting the metadata was merged by (migration 0116). */
  prefer: Prefer;
  /** The file's authors the form did not name, used for conflicts only (migration 0117). */
  fileOnlyAuthors: ManuscriptAuthor[];
}

/**
 * `supplied` as the row stores it: its abstract and authors are left out when they are the ones used
 * (the `abstract` and `authors` columns), as they are whenever no file was read. A form of 1,000
 * authors at the field caps is 3.6 MB of authors: stored twice, the one statement that writes the row
 * held the event loop on PGlite (which runs in this thread) for twice as long, ~170 ms at load.
 */
export interface StoredSupplied {
  title: string;
  abstract?: string;
  authors?: SuppliedAuthor[];
}

function sameAuthors(a: readonly SuppliedAuthor[], b: readonly SuppliedAuthor[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (x, i) =>
        x.name === b[i]!.name &&
        x.email === b[i]!.email &&
        x.orcid === b[i]!.orcid &&
        x.affiliation === b[i]!.affiliation,
    )
  );
}

export function storedSupplied(
  supplied: SuppliedMetadata,
  used: { abstract: string; authors: readonly SuppliedAuthor[] },
): StoredSupplied {
  return {
    title: supplied.title,
    ...(supplied.abstract === used.abstract ? {} : { abstract: supplied.abstract }),
    ...(sameAuthors(supplied.authors, used.authors) ? {} : { authors: supplied.authors }),
  };
}

/** The supplied metadata of a stored row: the used abstract and authors where it left them out. */
export function suppliedOf(
  stored: StoredSupplied,
  used: { abstract: string; authors: SuppliedAuthor[] },
): SuppliedMetadata {
  return {
    title: stored.title,
    abstract: stored.abstract ?? used.abstract,
    authors: stored.authors ?? used.authors,
  };
}

/**
 * Creates the manuscript or updates the one with the same origin_id, in one statement: two
 * concurrent first uploads of an origin_id end as one row, and both learn its id. Returns its id
 * and the revision this write made (its updated_at, as text: exact to the microsecond), which what
 * is derived from it is stored against.
 */
export async function upsertManuscript(
  db: Queryable,
  m: ManuscriptWrite,
): Promise<{ id: number; revision: string }> {
  const { rows } = await db.query<{ id: number; revision: string }>(
    `INSERT INTO manuscripts (organization_id, origin_id, folder_id, supplied, authors_count, parsed,
       title, abstract, keywords, authors, full_text, "references", source_file, source_format,
       parse_error, warnings, parsed_text_len, parsed_references, parsed_authors_count,
       parsed_emails_count, parsed_orcids_count, prefer, file_only_authors)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6::jsonb, $7, $8, $9, $10::jsonb, $11, $12::jsonb, $13, $14,
       $15, $16, $17, $18, $19, $20, $21, $23, $24::jsonb)
     ON CONFLICT (organization_id, origin_id) DO UPDATE SET
       folder_id = EXCLUDED.folder_id, supplied = EXCLUDED.supplied,
       authors_count = EXCLUDED.authors_count, parsed = EXCLUDED.parsed, title = EXCLUDED.title,
       abstract = EXCLUDED.abstract, keywords = EXCLUDED.keywords, authors = EXCLUDED.authors,
       full_text = CASE WHEN $22::boolean THEN manuscripts.full_text ELSE EXCLUDED.full_text END,
       "references" = EXCLUDED."references",
       source_file = EXCLUDED.source_file, source_format = EXCLUDED.source_format,
       parse_error = EXCLUDED.parse_error, warnings = EXCLUDED.warnings,
       parsed_text_len = EXCLUDED.parsed_text_len, parsed_references = EXCLUDED.parsed_references,
       parsed_authors_count = EXCLUDED.parsed_authors_count,
       parsed_emails_count = EXCLUDED.parsed_emails_count,
       parsed_orcids_count = EXCLUDED.parsed_orcids_count, prefer = EXCLUDED.prefer,
       file_only_authors = EXCLUDED.file_only_authors, updated_at = now()
     RETURNING id, updated_at::text AS revision`,
    [
      m.organizationId,
      m.originId,
      m.folderId,
      JSON.stringify(storedSupplied(m.supplied, m)),
      m.authorsCount,
      m.source.parsed === null ? null : JSON.stringify(m.source.parsed),
      m.title,
      m.abstract,
      m.keywords,
      JSON.stringify(m.authors),
      m.source.fullText,
      JSON.stringify(m.source.references),
      m.source.sourceFile,
      m.source.sourceFormat,
      m.source.parseError,
      m.warnings,
      m.source.counts.textLen,
      m.source.counts.references,
      m.source.counts.authors,
      m.source.counts.emails,
      m.source.counts.orcids,
      m.source.carried,
      m.prefer,
      JSON.stringify(m.fileOnlyAuthors),
    ],
  );
  return rows[0]!;
}

/** The count of concepts the ranking of this revision of the manuscript extracted (none kept for an older one). */
export async function recordExtractedConcepts(
  db: Queryable,
  manuscriptId: number,
  revision: string,
  count: number,
) {
  await db.query(
    'UPDATE manuscripts SET extracted_concepts = $2 WHERE id = $1 AND updated_at = $3::timestamptz',
    [manuscriptId, count, revision],
  );
}

/** A stored manuscript as ranking reads it. */
export interface StoredManuscript {
  id: number;
  title: string;
  abstract: string;
  keywords: string[];
  /** Its first FULL_TEXT_CHARS characters (what the manuscript's query reads). */
  fullText: string | null;
  authors: ManuscriptAuthor[];
  references: Array<{ doi?: string | null; title?: string | null }>;
}

/** The manuscript's id and version (its `updated_at`, as text: microseconds kept), or null. */
export async function manuscriptVersion(
  db: Queryable,
  organizationId: number,
  originId: string,
): Promise<{ id: number; updatedAt: string } | null> {
  const { rows } = await db.query<{ id: number; updated_at: string }>(
    `SELECT id, updated_at::text AS updated_at FROM manuscripts WHERE organization_id = $1 AND origin_id = $2`,
    [organizationId, originId],
  );
  const row = rows[0];
  return row ? { id: row.id, updatedAt: row.updated_at } : null;
}

/** What ranking reads of the organization's manuscript with that origin_id (journal recommendation's input), or null. */
export async function findManuscriptForRanking(
  db: Queryable,
  organizationId: number,
  originId: string,
): Promise<StoredManuscript | null> {
  const { rows } = await db.query<{
    id: number;
    title: string;
    abstract: string;
    keywords: string[];
    full_text: string | null;
    authors: unknown;
    references: unknown;
  }>(
    // The full text's head alone: the query reads no more (FULL_TEXT_CHARS), and a text read to the
    // parse limit (2 M characters) was 2-8 MB more to read in the one query that holds the loop on PGlite.
    `SELECT id, title, abstract, keywords, left(full_text, $3) AS full_text, authors, "references"
       FROM manuscripts WHERE organization_id = $1 AND origin_id = $2`,
    [organizationId, originId, FULL_TEXT_CHARS],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    title: row.title,
    abstract: row.abstract,
    keywords: row.keywords,
    fullText: row.full_text,
    authors: Array.isArray(row.authors) ? (row.authors as ManuscriptAuthor[]) : [],
    references: Array.isArray(row.references) ? (row.references as StoredManuscript['references']) : [],
  };
}

/** The id of the organization's manuscript with that origin_id, or null. */
export async function findManuscriptId(
  db: Queryable,
  organizationId: number,
  originId: string,
): Promise<number | null> {
  return (await manuscriptVersion(db, organizationId, originId))?.id ?? null;
}
