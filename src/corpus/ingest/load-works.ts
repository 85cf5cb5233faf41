// Writes one batch of parsed works: COPY into temporary staging tables, then set-based upserts by the
// catalogue keys (`*_key`), all inside the caller's transaction. Unchanged rows are not rewritten, and
// a work's `change_seq` moves only when what the retrieval index reads (title, abstract, year,
// source) changed, so re-ingesting a file costs the index nothing. Rows are upserted in key order so
// that two ingests running at once lock rows in one order.
import type { Database, Transaction } from '../../infra/db/index.ts';
import { csvBytes, type CsvValue } from './csv.ts';
import { QUEUE_AUTHOR } from '../authors/metrics-refresh.ts';
import type { AuthorRow, InstitutionRow, SourceRow, WorkRecord } from '../openalex/openalex-work.ts';

// Staging tables live for the session and empty themselves at each commit: creating them once per
// connection, not once per batch, spares the catalog writes that CREATE/DROP would cost every batch.
const STAGING_TABLES: Record<string, string> = {
  stage_sources: '(source_key text, title text, type text, publisher text, issn_l text)',
  stage_institutions:
    '(institution_key text, name text, country_code text, normalized_name text, alternative_names text[])',
  stage_authors: '(author_key text, display_name text, orcid text, name_variants text[], name_key text)',
  stage_works: `(work_key text, doi text, pmid text, arxiv_id text, title text, abstract text,
    publication_year integer, type text, source_key text, is_retracted boolean, cited_by_count integer,
    referenced_work_keys text[], referenced_dois text[])`,
  stage_authorships: `(work_key text, position integer, author_key text, institution_keys text[],
    raw_affiliations text[], is_corresponding boolean)`,
  stage_incoming: `(work_id integer, position integer, author_id integer, institution_ids integer[],
    raw_affiliations text[], is_corresponding boolean)`,
  stage_author_entities: `(author_key text, display_name text, orcid text, name_variants text[],
    name_key text, institution_key text)`,
  // The initial load's (initial-load-db.ts).
  stage_author_updates: '(id integer, display_name text, orcid text, name_variants text[], name_key text)',
  stage_author_metrics: `(author_id integer, articles_count integer, citations_count integer, h_index integer,
    first_publication_year integer, last_publication_year integer, recent_affiliation text,
    recent_institution_id integer, recent_affiliations jsonb)`,
};

/** Makes sure the named staging tables exist in this session (empty, as every commit leaves them). */
export async function ensureStaging(tx: Transaction, names: readonly string[]): Promise<void> {
  await tx.exec(
    names
      .map((n) => `CREATE TEMP TABLE IF NOT EXISTS ${n} ${STAGING_TABLES[n]} ON COMMIT DELETE ROWS;`)
      .join('\n'),
  );
}

export const UPSERT_SOURCES = `
INSERT INTO sources (source_key, title, type, publisher, issn_l)
SELECT source_key, title, type, publisher, issn_l FROM stage_sources ORDER BY source_key
ON CONFLICT (source_key) DO UPDATE SET
  title = excluded.title,
  type = coalesce(excluded.type, sources.type),
  publisher = coalesce(excluded.publisher, sources.publisher),
  issn_l = coalesce(excluded.issn_l, sources.issn_l)
WHERE (sources.title, sources.type, sources.publisher, sources.issn_l)
  IS DISTINCT FROM (excluded.title, coalesce(excluded.type, sources.type),
                    coalesce(excluded.publisher, sources.publisher), coalesce(excluded.issn_l, sources.issn_l))`;

/**
 * The staged sources that do not exist yet, inserted; existing ones are left alone and unlocked (the
 * initial load's resolving of ids runs beside the batch writes, which update sources' rows).
 */
export const INSERT_NEW_SOURCES = `
INSERT INTO sources (source_key, title, type, publisher, issn_l)
SELECT source_key, title, type, publisher, issn_l FROM stage_sources ORDER BY source_key
ON CONFLICT (source_key) DO NOTHING`;

export const UPSERT_INSTITUTIONS = `
INSERT INTO institutions (institution_key, name, country_code, normalized_name, alternative_names)
SELECT institution_key, name, country_code, normalized_name, alternative_names FROM stage_institutions
ORDER BY institution_key
ON CONFLICT (institution_key) DO UPDATE SET
  name = excluded.name,
  country_code = coalesce(excluded.country_code, institutions.country_code),
  normalized_name = excluded.normalized_name,
  alternative_names = CASE WHEN cardinality(excluded.alternative_names) > 0
                           THEN excluded.alternative_names ELSE institutions.alternative_names END
WHERE (institutions.name, institutions.country_code, institutions.alternative_names)
  IS DISTINCT FROM (excluded.name, coalesce(excluded.country_code, institutions.country_code),
    CASE WHEN cardinality(excluded.alternative_names) > 0 THEN excluded.alternative_names ELSE institutions.alternative_names END)`;

/**
 * How an author row takes a newer record of the author (`from`: `excluded`, or a staging alias): the
 * latest name and name key; name variants accumulate (every spelling an author was printed under
 * helps linking); an ORCID, once known, is not forgotten by a record that lacks it.
 */
export function mergeAuthorSet(from: string): string {
  return `display_name = ${from}.display_name,
  orcid = coalesce(${from}.orcid, authors.orcid),
  name_variants = ARRAY(SELECT DISTINCT v FROM unnest(authors.name_variants || ${from}.name_variants) v ORDER BY v),
  name_key = ${from}.name_key`;
}

export const UPSERT_AUTHORS = `
INSERT INTO authors (author_key, display_name, orcid, name_variants, name_key)
SELECT author_key, display_name, orcid, name_variants, name_key FROM stage_authors ORDER BY author_key
ON CONFLICT (author_key) DO UPDATE SET
  ${mergeAuthorSet('excluded')}
WHERE authors.display_name IS DISTINCT FROM excluded.display_name
   OR (excluded.orcid IS NOT NULL AND authors.orcid IS DISTINCT FROM excluded.orcid)
   OR NOT (authors.name_variants @> excluded.name_variants)
   OR authors.name_key IS DISTINCT FROM excluded.name_key`;

// The works of the batch, with their source ids and retraction marks, inserted in key order.
const INSERT_WORKS = `
INSERT INTO works (work_key, doi, pmid, arxiv_id, title, abstract, publication_year, type, source_id,
                   is_retracted, cited_by_count, referenced_work_keys, referenced_dois)
SELECT s.work_key, s.doi, s.pmid, s.arxiv_id, s.title, s.abstract, s.publication_year, s.type, src.id,
       s.is_retracted
         OR EXISTS (SELECT 1 FROM retraction_notices r WHERE r.original_doi = s.doi)
         OR EXISTS (SELECT 1 FROM retraction_notices r WHERE r.original_pmid = s.pmid),
       s.cited_by_count, s.referenced_work_keys, s.referenced_dois
  FROM stage_works s LEFT JOIN sources src ON src.source_key = s.source_key
 ORDER BY s.work_key`;

// A batch of works none of which existed: the insert alone (see INSERT_NEW_AUTHORSHIPS for the race).
// Their authors are queued when the authorships are written.
const INSERT_NEW_WORKS = INSERT_WORKS;

// The rows it returns are the works inserted or changed; those already present get their authors'
// metrics queued (a new work's authors are queued when its authorships are written).
const UPSERT_WORKS = `
WITH upserted AS (${INSERT_WORKS}
ON CONFLICT (work_key) DO UPDATE SET
  doi = excluded.doi, pmid = excluded.pmid, arxiv_id = excluded.arxiv_id, title = excluded.title,
  abstract = excluded.abstract, publication_year = excluded.publication_year, type = excluded.type,
  source_id = excluded.source_id, is_retracted = excluded.is_retracted,
  cited_by_count = excluded.cited_by_count, referenced_work_keys = excluded.referenced_work_keys,
  referenced_dois = excluded.referenced_dois,
  change_seq = CASE
    WHEN (works.title, works.abstract, works.publication_year, works.source_id)
         IS DISTINCT FROM (excluded.title, excluded.abstract, excluded.publication_year, excluded.source_id)
    THEN excluded.change_seq ELSE works.change_seq END
WHERE (works.doi, works.pmid, works.arxiv_id, works.title, works.abstract, works.publication_year, works.type,
       works.source_id, works.is_retracted, works.cited_by_count, works.referenced_work_keys, works.referenced_dois)
  IS DISTINCT FROM
      (excluded.doi, excluded.pmid, excluded.arxiv_id, excluded.title, excluded.abstract, excluded.publication_year,
       excluded.type, excluded.source_id, excluded.is_retracted, excluded.cited_by_count,
       excluded.referenced_work_keys, excluded.referenced_dois)
RETURNING id, xmax <> 0 AS updated
)
-- Only updated works: a new work has no authorships yet. The lateral index look-up per work keeps the
-- planner from scanning all authorships to join a batch of new works that match none.
INSERT INTO author_metrics_pending (author_id)
SELECT DISTINCT a.author_id
  FROM upserted u CROSS JOIN LATERAL (SELECT author_id FROM authorships WHERE work_id = u.id) a
 WHERE u.updated
 ORDER BY a.author_id
${QUEUE_AUTHOR}`;

// Authorships of the batch's works are replaced: rows that changed author are deleted, the rest
// upserted. Authors dropped or added, and the authors of works whose citation count or year changed,
// need their metrics recomputed. Unchanged rows are left alone, so re-ingesting an unchanged file
// leaves no author pending.
const STAGE_INCOMING = `
INSERT INTO stage_incoming (work_id, position, author_id, institution_ids, raw_affiliations, is_corresponding)
SELECT w.id AS work_id, sa.position, a.id AS author_id,
       ARRAY(SELECT i.id FROM unnest(sa.institution_keys) WITH ORDINALITY k(key, ord)
               JOIN institutions i ON i.institution_key = k.key ORDER BY k.ord) AS institution_ids,
       sa.raw_affiliations, sa.is_corresponding
  FROM stage_authorships sa
  JOIN works w ON w.work_key = sa.work_key
  JOIN authors a ON a.author_key = sa.author_key`;

// Asked before the works are upserted: only a work that was already there can have authorships that
// the batch no longer lists. On a first load no work was, and the stale-authorship pass is skipped.
const ANY_WORK_PRESENT = `
SELECT EXISTS (SELECT 1 FROM stage_works s JOIN works w ON w.work_key = s.work_key) AS present`;

const DELETE_STALE_AUTHORSHIPS = `
WITH batch_works AS (SELECT w.id FROM stage_works s JOIN works w ON w.work_key = s.work_key),
stale AS (
  SELECT o.work_id, o.position, o.author_id
    FROM batch_works b CROSS JOIN LATERAL (SELECT * FROM authorships WHERE work_id = b.id) o
  EXCEPT
  SELECT work_id, position, author_id FROM stage_incoming
),
removed AS (
  DELETE FROM authorships o USING stale
   WHERE o.work_id = stale.work_id AND o.position = stale.position
  RETURNING o.author_id
)
INSERT INTO author_metrics_pending (author_id) SELECT DISTINCT author_id FROM removed ORDER BY author_id
${QUEUE_AUTHOR}`;

const INSERT_AUTHORSHIPS = `
  INSERT INTO authorships (work_id, position, author_id, institution_ids, raw_affiliations, is_corresponding)
  SELECT work_id, position, author_id, institution_ids, raw_affiliations, is_corresponding FROM stage_incoming`;

const UPSERT_AUTHORSHIPS = `
WITH written AS (${INSERT_AUTHORSHIPS}
  ON CONFLICT (work_id, position) DO UPDATE SET
    institution_ids = excluded.institution_ids, raw_affiliations = excluded.raw_affiliations,
    is_corresponding = excluded.is_corresponding
  WHERE (authorships.institution_ids, authorships.raw_affiliations, authorships.is_corresponding)
        IS DISTINCT FROM (excluded.institution_ids, excluded.raw_affiliations, excluded.is_corresponding)
  RETURNING author_id
)
INSERT INTO author_metrics_pending (author_id) SELECT DISTINCT author_id FROM written ORDER BY author_id
${QUEUE_AUTHOR}`;

// When no work of the batch was there before, none of its authorships can be either: a plain insert
// spares the speculative insertion of ON CONFLICT. (Another ingest inserting the same work meanwhile
// makes it fail on the key; the batch is then retried record by record, where the work is present.)
const INSERT_NEW_AUTHORSHIPS = `
WITH written AS (${INSERT_AUTHORSHIPS}
  RETURNING author_id
)
INSERT INTO author_metrics_pending (author_id) SELECT DISTINCT author_id FROM written ORDER BY author_id
${QUEUE_AUTHOR}`;

// Only the sources of this batch are recounted; the count is an index lookup per source.
const RECOUNT_SOURCES = `
UPDATE sources SET works_count = c.n
  FROM (SELECT w.source_id, count(*)::int AS n FROM works w
         WHERE w.source_id IN (SELECT src.id FROM sources src JOIN (SELECT DISTINCT source_key FROM stage_works) s
                                 ON s.source_key = src.source_key)
         GROUP BY w.source_id) c
 WHERE sources.id = c.source_id AND sources.works_count <> c.n`;

function dedupe<T>(rows: Iterable<T>, key: (row: T) => string): T[] {
  const map = new Map<string, T>();
  for (const row of rows) map.set(key(row), row);
  return [...map.values()];
}

/** The CSV payload of one COPY into a staging table. */
export interface StagedCopy {
  table: string;
  columns: readonly string[];
  /** The rows' CSV as UTF-8 bytes (csvBytes): handed to COPY as they are, and moved, not copied, out of the parse thread. */
  csv: Uint8Array;
}

/**
 * A batch turned into COPY payloads, ready to write. Making it is pure CPU work (no database), so the
 * ingestion loop does it in the thread that parses the file, beside the database's work.
 */
export interface StagedBatch {
  copies: StagedCopy[];
}

export function stagedCopy(table: string, columns: readonly string[], rows: CsvValue[][]): StagedCopy[] {
  return rows.length === 0 ? [] : [{ table, columns, csv: csvBytes(rows) }];
}

export function hasRows(staged: StagedBatch, table: string): boolean {
  return staged.copies.some((c) => c.table === table);
}

/**
 * Creates the batch's staging tables (once per session), with `alsoCreate` (tables the statements
 * read even when the batch has no rows for them), and COPYs its payloads into them.
 */
export async function copyStaged(
  db: Database,
  tx: Transaction,
  staged: StagedBatch,
  alsoCreate: readonly string[] = [],
): Promise<void> {
  await ensureStaging(tx, [...new Set([...alsoCreate, ...staged.copies.map((c) => c.table)])]);
  for (const copy of staged.copies) await db.copyCsv(copy.table, copy.columns, copy.csv, tx);
}

/** The columns of a work row, with its source given by `source` (key when staged, id when final). */
export function workColumns(source: 'source_key' | 'source_id'): string[] {
  return [
    'work_key',
    'doi',
    'pmid',
    'arxiv_id',
    'title',
    'abstract',
    'publication_year',
    'type',
    source,
    'is_retracted',
    'cited_by_count',
    'referenced_work_keys',
    'referenced_dois',
  ];
}

/** A work's row in workColumns' order, with its source as given (key or id). */
export function workRow(w: WorkRecord, source: string | number | null): CsvValue[] {
  return [
    w.work_key,
    w.doi,
    w.pmid,
    w.arxiv_id,
    w.title,
    w.abstract,
    w.publication_year,
    w.type,
    source,
    w.is_retracted,
    w.cited_by_count,
    w.referenced_work_keys,
    w.referenced_dois,
  ];
}

export function stageSources(rows: readonly SourceRow[]): StagedCopy[] {
  return stagedCopy(
    'stage_sources',
    ['source_key', 'title', 'type', 'publisher', 'issn_l'],
    rows.map((s) => [s.source_key, s.title, s.type, s.publisher, s.issn_l]),
  );
}

export function stageInstitutions(rows: readonly InstitutionRow[]): StagedCopy[] {
  return stagedCopy(
    'stage_institutions',
    ['institution_key', 'name', 'country_code', 'normalized_name', 'alternative_names'],
    rows.map((i) => [i.institution_key, i.name, i.country_code, i.normalized_name, i.alternative_names]),
  );
}

/**
 * The batch's authors, one row per key: the last occurrence's name, the latest ORCID known, every
 * name variant (what the authors upsert then does across batches).
 */
export function mergeBatchAuthors(works: readonly WorkRecord[]): AuthorRow[] {
  const authorMap = new Map<string, AuthorRow>();
  for (const w of works) {
    for (const a of w.authors) {
      const prior = authorMap.get(a.author_key);
      if (!prior) {
        authorMap.set(a.author_key, a);
        continue;
      }
      authorMap.set(a.author_key, {
        ...a,
        orcid: a.orcid ?? prior.orcid ?? null,
        name_variants: [...new Set([...prior.name_variants, ...a.name_variants])].sort(),
      });
    }
  }
  return [...authorMap.values()];
}

/** Stages works (already deduplicated by key, last occurrence kept) for `writeWorks`. */
export function stageWorks(works: WorkRecord[]): StagedBatch {
  const sources = dedupe(
    works.flatMap((w) => (w.source ? [w.source] : [])),
    (s: SourceRow) => s.source_key,
  );
  const institutions = dedupe(
    works.flatMap((w) => w.institutions),
    (i: InstitutionRow) => i.institution_key,
  );
  const authors = mergeBatchAuthors(works);
  return {
    copies: [
      ...stageSources(sources),
      ...stageInstitutions(institutions),
      ...stagedCopy(
        'stage_authors',
        ['author_key', 'display_name', 'orcid', 'name_variants', 'name_key'],
        authors.map((a) => [a.author_key, a.display_name, a.orcid, a.name_variants, a.name_key]),
      ),
      ...stagedCopy(
        'stage_works',
        workColumns('source_key'),
        works.map((w) => workRow(w, w.source?.source_key ?? null)),
      ),
      ...stagedCopy(
        'stage_authorships',
        ['work_key', 'position', 'author_key', 'institution_keys', 'raw_affiliations', 'is_corresponding'],
        works.flatMap((w) =>
          w.authorships.map((a) => [
            w.work_key,
            a.position,
            a.author_key,
            a.institution_keys,
            a.raw_affiliations,
            a.is_corresponding,
          ]),
        ),
      ),
    ],
  };
}

/** Writes a batch staged by `stageWorks` inside `tx`. */
export async function writeWorks(db: Database, tx: Transaction, staged: StagedBatch): Promise<void> {
  // The join that resolves authorships' keys is estimated above the JIT threshold; compiling it took
  // ~20 ms a batch, more than it saved.
  await tx.exec('SET LOCAL jit = off');
  // stage_incoming is filled from the others by SQL; it is created with them.
  await copyStaged(db, tx, staged, ['stage_works', 'stage_authorships', 'stage_incoming']);
  const sources = hasRows(staged, 'stage_sources');
  if (sources) await tx.query(UPSERT_SOURCES);
  if (hasRows(staged, 'stage_institutions')) await tx.query(UPSERT_INSTITUTIONS);
  if (hasRows(staged, 'stage_authors')) await tx.query(UPSERT_AUTHORS);
  const present = (await tx.query<{ present: boolean }>(ANY_WORK_PRESENT)).rows[0]!.present;
  await tx.query(present ? UPSERT_WORKS : INSERT_NEW_WORKS);
  if (sources) await tx.query(RECOUNT_SOURCES);
  await tx.query(STAGE_INCOMING);
  if (present) {
    await tx.query(DELETE_STALE_AUTHORSHIPS);
    await tx.query(UPSERT_AUTHORSHIPS);
  } else {
    await tx.query(INSERT_NEW_AUTHORSHIPS);
  }
}
