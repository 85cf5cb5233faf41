// Builds a small corpus through the real ingestion and a real index over it, for the referee finder
// tests. Works are OpenAlex-shaped records; people are named by short keys ("expert", "coauthor").
import type { Database } from '../../src/infra/db/index.ts';
import { openWorkIndex, type DbWorkIndex } from '../../src/retrieval/db-work-index.ts';
import { findCandidatesWith } from '../../src/referee-finder/find-candidates.ts';
import type {
  FindCandidatesOptions,
  FindCandidatesResult,
  ManuscriptForRanking,
} from '../../src/referee-finder/types.ts';
import { ingest, tempDir, writeLines } from '../corpus/helpers.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { createTestOrg } from '../helpers/app.ts';

export const TOPIC =
  'Graph neural networks for molecular property prediction. Message passing neural networks learn ' +
  'molecular representations from atoms and bonds; we study molecular property prediction with graph ' +
  'neural networks and message passing on benchmark molecule datasets.';

export const OFF_TOPIC =
  'Coral reef fisheries and ocean acidification. We survey reef fish stocks, coastal fisheries ' +
  'management and the effect of ocean acidification on coral growth.';

export interface Person {
  name: string;
  orcid?: string;
  affiliation?: string;
  /** `acronyms`: the institution's other names, as OpenAlex gives them (`display_name_acronyms`). */
  institution?: { id: string; name: string; acronyms?: string[] };
}

export interface WorkSpec {
  authors: Person[];
  title?: string;
  abstract?: string;
  year?: number;
  doi?: string;
  retracted?: boolean;
  cited?: number;
}

function invert(text: string): Record<string, number[]> {
  const index: Record<string, number[]> = {};
  text.split(/\s+/).forEach((word, i) => (index[word] ??= []).push(i));
  return index;
}

let serial = 0;
const keyOf = (name: string) => `https://openalex.org/A7${Buffer.from(name).toString('hex')}`;

/** Ingests the works; people are keyed by name (one corpus author per distinct name + key suffix). */
export async function buildCorpus(
  db: Database,
  works: WorkSpec[],
): Promise<{ authorId: (name: string) => number; workId: (title: string) => number }> {
  const records = works.map((w) => {
    serial++;
    const title = w.title ?? `Graph neural networks for molecules, part ${serial}`;
    return {
      id: `https://openalex.org/W8${String(serial).padStart(6, '0')}${process.pid}`,
      doi: w.doi ? `https://doi.org/${w.doi}` : null,
      title,
      publication_year: w.year ?? 2022,
      type: 'article',
      cited_by_count: w.cited ?? 0,
      is_retracted: w.retracted ?? false,
      abstract_inverted_index: invert(w.abstract ?? TOPIC),
      referenced_works: [],
      authorships: w.authors.map((p, i) => ({
        author_position: i === 0 ? 'first' : 'middle',
        // A "#2" suffix in a name makes a second person with the same display name.
        author: { id: keyOf(p.name), display_name: p.name.replace(/ #\d+$/, ''), orcid: p.orcid ?? null },
        institutions: p.institution
          ? [
              {
                id: p.institution.id,
                display_name: p.institution.name,
                country_code: 'US',
                display_name_acronyms: p.institution.acronyms ?? [],
              },
            ]
          : [],
        raw_author_name: p.name,
        raw_affiliation_strings: p.affiliation ? [p.affiliation] : [],
      })),
    };
  });
  const dir = await tempDir();
  await ingest(db, 'works', [await writeLines(dir, `works-${serial}.jsonl`, records)]);
  const authors = await db.query<{ id: number; author_key: string }>('SELECT id, author_key FROM authors');
  const byKey = new Map(authors.rows.map((r) => [r.author_key, r.id]));
  const titles = await db.query<{ id: number; title: string }>('SELECT id, title FROM works');
  const byTitle = new Map(titles.rows.map((r) => [r.title, r.id]));
  return {
    authorId(name) {
      const hex = Buffer.from(name).toString('hex');
      const id = [...byKey].find(([key]) => key.endsWith(`A7${hex}`))?.[1];
      if (id === undefined) throw new Error(`no corpus author ${name}`);
      return id;
    },
    workId(title) {
      const id = byTitle.get(title);
      if (id === undefined) throw new Error(`no work ${title}`);
      return id;
    },
  };
}

export function manuscript(
  organizationId: number,
  overrides: Partial<ManuscriptForRanking> = {},
): ManuscriptForRanking {
  return {
    organizationId,
    manuscriptId: 1,
    originId: 'MS-1',
    folderId: 1,
    title: 'Message passing graph neural networks for molecular property prediction',
    abstract: TOPIC,
    keywords: [],
    fullText: null,
    authors: [],
    references: [],
    ...overrides,
  };
}

export function options(overrides: Partial<FindCandidatesOptions> = {}): FindCandidatesOptions {
  return {
    filters: {},
    groups: null,
    includeConflicts: true,
    includeWithoutEmail: true,
    maxCandidates: 50,
    ...overrides,
  };
}

export interface Finder {
  find(m: ManuscriptForRanking, o?: Partial<FindCandidatesOptions>): Promise<FindCandidatesResult>;
  close(): Promise<void>;
}

export async function openFinder(db: Database): Promise<Finder> {
  const index: DbWorkIndex = await openWorkIndex(db, { pollMs: 0 });
  return {
    find: (m, o) => findCandidatesWith({ db, index, publicBaseUrl: 'http://refmatch.test' }, m, options(o)),
    close: () => index.close(),
  };
}

export function idsOf(result: FindCandidatesResult): number[] {
  return result.candidates.map((c) => c.author_id);
}

/** A test database and finder closed after each test. */
export function finderScope(afterEach: (fn: () => Promise<void>) => void) {
  const open: Array<{ db: Database & { destroy(): Promise<void> }; finder?: Finder }> = [];
  afterEach(async () => {
    for (const o of open.splice(0)) {
      await o.finder?.close();
      await o.db.destroy();
    }
  });
  return async function setup(works: WorkSpec[]) {
    const db = await createTestDatabase();
    const entry: (typeof open)[number] = { db };
    open.push(entry);
    const ids = await buildCorpus(db, works);
    const org = await createTestOrg({ db });
    entry.finder = await openFinder(db);
    return { db, ids, org, finder: entry.finder };
  };
}
