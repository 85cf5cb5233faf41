// Shared by the corpus tests: writing input files, ingesting them, and reading the corpus back in a
// form that compares across runs (keys instead of generated ids).
import { mkdtemp, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { inject } from 'vitest';
import type { Database } from '../../src/infra/db/index.ts';
import { authorsKind, institutionsKind, sourcesKind, worksKind } from '../../src/corpus/openalex/entities.ts';
import { ingestFiles, type IngestReport } from '../../src/corpus/ingest/ingest.ts';
import type { IngestOptions } from '../../src/corpus/ingest/runner.ts';

export const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');
export const OPENALEX = path.join(FIXTURES, 'openalex');

const kinds = {
  works: worksKind,
  authors: authorsKind,
  sources: sourcesKind,
  institutions: institutionsKind,
};

export async function ingest(
  db: Database,
  kind: keyof typeof kinds,
  files: string[],
  batchSize?: number,
  options: IngestOptions = {},
): Promise<IngestReport> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- one call site for four record types
  return ingestFiles({ db, progress: () => {} }, kinds[kind] as any, files, batchSize, options);
}

export async function tempDir(): Promise<string> {
  return mkdtemp(path.join(inject('tmpDir'), 'corpus-'));
}

/** Writes records (objects, or raw strings for broken lines) as JSON lines; gzipped when the name ends in .gz. */
export async function writeLines(dir: string, name: string, records: unknown[]): Promise<string> {
  const text = `${records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n')}\n`;
  const file = path.join(dir, name);
  await writeFile(file, name.endsWith('.gz') ? gzipSync(text) : text);
  return file;
}

let counter = 0;

/** A minimal OpenAlex-shaped work; keys are unique per call unless given. */
export function work(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter++;
  return {
    id: `https://openalex.org/W9${String(counter).padStart(8, '0')}${process.pid}`,
    title: `A study number ${counter}`,
    publication_year: 2020,
    type: 'article',
    cited_by_count: 0,
    is_retracted: false,
    abstract_inverted_index: { Some: [0], words: [1] },
    authorships: [],
    referenced_works: [],
    ...overrides,
  };
}

export function authorship(
  id: string,
  name: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    author_position: 'first',
    author: { id, display_name: name, orcid: null },
    institutions: [],
    raw_author_name: name,
    raw_affiliation_strings: [],
    ...extra,
  };
}

/** The corpus as comparable data: everything but generated ids and sequence numbers. */
export async function snapshot(db: Database): Promise<unknown> {
  const works = await db.query(
    `SELECT w.work_key, w.doi, w.pmid, w.arxiv_id, w.title, w.abstract, w.publication_year, w.type, s.source_key,
            w.is_retracted, w.cited_by_count, w.referenced_work_keys, w.referenced_dois
       FROM works w LEFT JOIN sources s ON s.id = w.source_id ORDER BY w.work_key`,
  );
  const authors = await db.query(
    `SELECT a.author_key, a.display_name, a.orcid, a.name_variants, a.articles_count, a.citations_count, a.h_index,
            a.first_publication_year, a.last_publication_year, a.recent_affiliation, i.institution_key, a.emails,
            -- The person by its record's key: ids depend on the load's order.
            (SELECT p.author_key FROM authors p WHERE p.id = a.person_id) AS person_key,
            -- Institutions by key, in an order that does not depend on their ids.
            (SELECT jsonb_agg(e - 'institution_id' || jsonb_build_object('institution', r.institution_key)
                              ORDER BY (e->>'year')::int DESC, r.institution_key, e->>'name')
               FROM jsonb_array_elements(a.recent_affiliations) e
               LEFT JOIN institutions r ON r.id = (e->>'institution_id')::int) AS recent_affiliations
       FROM authors a LEFT JOIN institutions i ON i.id = a.recent_institution_id ORDER BY a.author_key`,
  );
  const authorships = await db.query(
    `SELECT w.work_key, s.position, a.author_key, s.raw_affiliations, s.is_corresponding,
            ARRAY(SELECT i.institution_key FROM institutions i WHERE i.id = ANY(s.institution_ids) ORDER BY 1) AS inst
       FROM authorships s JOIN works w ON w.id = s.work_id JOIN authors a ON a.id = s.author_id
      ORDER BY w.work_key, s.position`,
  );
  const sources = await db.query(
    'SELECT source_key, title, type, publisher, issn_l, works_count FROM sources ORDER BY source_key',
  );
  const institutions = await db.query(
    'SELECT institution_key, name, country_code FROM institutions ORDER BY institution_key',
  );
  return {
    works: works.rows,
    authors: authors.rows,
    authorships: authorships.rows,
    sources: sources.rows,
    institutions: institutions.rows,
  };
}
