// OpenAlex entity records (authors, sources, institutions) as the API returns them, and how each kind
// of record is parsed and loaded by the ingestion loop.
import { normalizeOrcid, openAlexKey } from './ids.ts';
import { nameKey } from '../authors/names.ts';
import {
  BadRecord,
  institutionRow,
  parseWork,
  type InstitutionRow,
  type SourceRow,
  type WorkRecord,
} from './openalex-work.ts';
import {
  copyStaged,
  hasRows,
  mergeAuthorSet,
  stagedCopy,
  stageInstitutions,
  stageSources,
  stageWorks,
  UPSERT_INSTITUTIONS,
  UPSERT_SOURCES,
  writeWorks,
} from '../ingest/load-works.ts';
import type { RecordKind } from '../ingest/runner.ts';

type Json = Record<string, unknown>;

function object(value: unknown): Json {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new BadRecord('not a JSON object');
  return value as Json;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.replaceAll('\u0000', '').trim() : null;
}

function requireKey(record: Json, prefix: string, what: string): string {
  const key = openAlexKey(record.id);
  if (!key) throw new BadRecord('missing id');
  if (/^[A-Z]\d+$/.test(key) && !key.startsWith(prefix))
    throw new BadRecord(`id ${key} is not an OpenAlex ${what} id`);
  return key;
}

export const worksKind: RecordKind<WorkRecord> = {
  kind: 'works',
  parse: parseWork,
  key: (w) => w.work_key,
  stage: stageWorks,
  write: writeWorks,
};

export const sourcesKind: RecordKind<SourceRow> = {
  kind: 'sources',
  parse(value) {
    const record = object(value);
    const key = requireKey(record, 'S', 'source');
    const title = text(record.display_name);
    if (!title) throw new BadRecord('missing display_name');
    return {
      source_key: key,
      title,
      type: text(record.type),
      publisher: text(record.host_organization_name),
      issn_l: text(record.issn_l),
    };
  },
  key: (s) => s.source_key,
  stage: (rows) => ({
    copies: stageSources(rows),
  }),
  async write(db, tx, staged) {
    await copyStaged(db, tx, staged);
    if (hasRows(staged, 'stage_sources')) await tx.query(UPSERT_SOURCES);
  },
};

export const institutionsKind: RecordKind<InstitutionRow> = {
  kind: 'institutions',
  parse(value) {
    const record = object(value);
    requireKey(record, 'I', 'institution');
    const row = institutionRow(record);
    if (!row) throw new BadRecord('missing display_name');
    return row;
  },
  key: (i) => i.institution_key,
  stage: (rows) => ({ copies: stageInstitutions(rows) }),
  async write(db, tx, staged) {
    await copyStaged(db, tx, staged);
    if (hasRows(staged, 'stage_institutions')) await tx.query(UPSERT_INSTITUTIONS);
  },
};

export interface AuthorEntity {
  author_key: string;
  display_name: string;
  orcid: string | null;
  name_variants: string[];
  name_key: string | null;
  institution: InstitutionRow | null;
}

// An author entity carries no works: its metrics stay what the corpus's works say. Its last known
// institution is kept as the recent affiliation until a work of the author states a newer one.
const UPSERT_AUTHOR_ENTITIES = `
INSERT INTO authors (author_key, display_name, orcid, name_variants, name_key, recent_affiliation, recent_institution_id)
SELECT s.author_key, s.display_name, s.orcid, s.name_variants, s.name_key, i.name, i.id
  FROM stage_author_entities s LEFT JOIN institutions i ON i.institution_key = s.institution_key
ON CONFLICT (author_key) DO UPDATE SET
  ${mergeAuthorSet('excluded')},
  recent_affiliation = CASE WHEN authors.articles_count = 0 OR authors.recent_affiliation IS NULL
                            THEN coalesce(excluded.recent_affiliation, authors.recent_affiliation) ELSE authors.recent_affiliation END,
  recent_institution_id = CASE WHEN authors.articles_count = 0 OR authors.recent_affiliation IS NULL
                            THEN coalesce(excluded.recent_institution_id, authors.recent_institution_id) ELSE authors.recent_institution_id END`;

export const authorsKind: RecordKind<AuthorEntity> = {
  kind: 'authors',
  parse(value) {
    const record = object(value);
    const key = requireKey(record, 'A', 'author');
    const name = text(record.display_name);
    if (!name) throw new BadRecord('missing display_name');
    const alternatives = Array.isArray(record.display_name_alternatives)
      ? record.display_name_alternatives.map(text).filter((s): s is string => s !== null)
      : [];
    const lastKnown = Array.isArray(record.last_known_institutions)
      ? record.last_known_institutions[0]
      : undefined;
    return {
      author_key: key,
      display_name: name,
      orcid: normalizeOrcid(record.orcid) ?? normalizeOrcid((record.ids as Json | undefined)?.orcid),
      name_variants: [...new Set([name, ...alternatives])].sort(),
      name_key: nameKey(name),
      institution: institutionRow(lastKnown),
    };
  },
  key: (a) => a.author_key,
  stage(rows) {
    const institutions = new Map<string, InstitutionRow>();
    for (const r of rows) if (r.institution) institutions.set(r.institution.institution_key, r.institution);
    return {
      copies: [
        ...stageInstitutions([...institutions.values()]),
        ...stagedCopy(
          'stage_author_entities',
          ['author_key', 'display_name', 'orcid', 'name_variants', 'name_key', 'institution_key'],
          rows.map((a) => [
            a.author_key,
            a.display_name,
            a.orcid,
            a.name_variants,
            a.name_key,
            a.institution?.institution_key ?? null,
          ]),
        ),
      ],
    };
  },
  async write(db, tx, staged) {
    await copyStaged(db, tx, staged);
    if (hasRows(staged, 'stage_institutions')) await tx.query(UPSERT_INSTITUTIONS);
    if (hasRows(staged, 'stage_author_entities')) await tx.query(UPSERT_AUTHOR_ENTITIES);
  },
};

/** Every record kind by name: how the parse thread finds the kind it was started for. */
export const recordKinds = {
  works: worksKind,
  sources: sourcesKind,
  institutions: institutionsKind,
  authors: authorsKind,
} as const;

export type RecordKindName = keyof typeof recordKinds;
