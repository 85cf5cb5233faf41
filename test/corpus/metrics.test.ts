import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { academicAge } from '../../src/corpus/authors/metrics.ts';
import { recomputePendingMetrics } from '../../src/corpus/authors/metrics-refresh.ts';
import { migrate } from '../../src/infra/db/migrate.ts';
import { authorship, ingest, tempDir, work, writeLines } from './helpers.ts';

let db: TestDatabase;
beforeEach(async () => {
  db = await createTestDatabase();
});
afterEach(async () => {
  await db.destroy();
});

const AUTHOR = 'https://openalex.org/A55550001';
const OTHER = 'https://openalex.org/A55550002';

async function metrics(key: string) {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT articles_count, citations_count, h_index, first_publication_year, last_publication_year, recent_affiliation,
            (SELECT institution_key FROM institutions WHERE id = recent_institution_id) AS institution
       FROM authors WHERE author_key = $1`,
    [key],
  );
  return rows[0];
}

const inst = { id: 'https://openalex.org/I5550001', display_name: 'University of Tartu', country_code: 'EE' };

describe('author metrics, after each ingest', () => {
  it('counts articles, sums citations, computes the h-index, the years and the most recent affiliation', async () => {
    const dir = await tempDir();
    const works = [
      work({
        cited_by_count: 10,
        publication_year: 2012,
        authorships: [authorship(AUTHOR, 'Kadri Tamm', { raw_affiliation_strings: ['Tallinn University'] })],
      }),
      work({ cited_by_count: 5, publication_year: 2015, authorships: [authorship(AUTHOR, 'Kadri Tamm')] }),
      work({
        cited_by_count: 3,
        publication_year: 2019,
        authorships: [
          authorship(OTHER, 'Mart Kask'),
          authorship(AUTHOR, 'Kadri Tamm', {
            institutions: [inst],
            raw_affiliation_strings: ['Univ. of Tartu, Estonia'],
          }),
        ],
      }),
      work({ cited_by_count: 1, publication_year: 2021, authorships: [authorship(AUTHOR, 'Kadri Tamm')] }),
      work({ cited_by_count: 0, publication_year: 2010, authorships: [authorship(AUTHOR, 'Kadri Tamm')] }),
    ];
    await ingest(db, 'works', [await writeLines(dir, 'a.jsonl', works)], 2);
    // Citations 10, 5, 3, 1, 0: three works with at least 3 citations, so h = 3.
    expect(await metrics('A55550001')).toEqual({
      articles_count: 5,
      citations_count: 19,
      h_index: 3,
      first_publication_year: 2010,
      last_publication_year: 2021,
      recent_affiliation: 'University of Tartu',
      institution: 'I5550001',
    });
    expect(await metrics('A55550002')).toMatchObject({ articles_count: 1, citations_count: 3, h_index: 1 });
    expect(academicAge(2010, new Date('2026-05-01'))).toBe(16);
  });

  it('keeps every affiliation of the last three years, one per organization, newest first', async () => {
    const dir = await tempDir();
    const y = new Date().getUTCFullYear();
    const by = (year: number, extra: Record<string, unknown>) =>
      work({ publication_year: year, authorships: [authorship(AUTHOR, 'Kadri Tamm', extra)] });
    await ingest(db, 'works', [
      await writeLines(dir, 'a.jsonl', [
        // The institution and a string naming it are one organization.
        by(y, { institutions: [inst], raw_affiliation_strings: ['Univ. of Tartu, Estonia'] }),
        // Two spellings of one organization: the later one named, stated last in the later year.
        by(y - 1, { raw_affiliation_strings: ['Tallinn University'] }),
        by(y - 3, { raw_affiliation_strings: ['Dept. of Informatics, Tallinn University, Estonia'] }),
        // Four years back: not recent.
        by(y - 4, { raw_affiliation_strings: ['Estonian Academy of Sciences'] }),
        by(y - 4, {
          institutions: [{ ...inst, id: 'https://openalex.org/I5550009', display_name: 'Old Place' }],
        }),
      ]),
    ]);
    const { rows } = await db.query<{ recent_affiliations: unknown }>(
      `SELECT recent_affiliations FROM authors WHERE author_key = 'A55550001'`,
    );
    const tartu = await db.query<{ id: number }>(
      `SELECT id FROM institutions WHERE institution_key = 'I5550001'`,
    );
    expect(rows[0]!.recent_affiliations).toEqual([
      {
        institution_id: tartu.rows[0]!.id,
        name: 'University of Tartu',
        core: 'university of tartu',
        year: y,
      },
      { institution_id: null, name: 'Tallinn University', core: 'tallinn university', year: y - 1 },
    ]);
  });

  it('a corpus loaded before migration 0091 has every author queued by it, and the recompute fills their recent affiliations', async () => {
    const dir = await tempDir();
    const y = new Date().getUTCFullYear();
    await ingest(db, 'works', [
      await writeLines(dir, 'a.jsonl', [
        work({
          publication_year: y,
          authorships: [authorship(AUTHOR, 'Kadri Tamm', { institutions: [inst] })],
        }),
      ]),
    ]);
    // As the corpus was before the migration: no list, and the migration not applied.
    await db.query('UPDATE authors SET recent_affiliations = NULL');
    await db.query(`DELETE FROM schema_migrations WHERE version = '0091'`);
    expect(await migrate(db)).toEqual(['0091_recent_affiliations.sql']);
    expect(await recomputePendingMetrics(db)).toBe(1);
    const { rows } = await db.query<{ recent_affiliations: Array<{ name: string }> | null }>(
      'SELECT recent_affiliations FROM authors',
    );
    expect(rows.map((r) => r.recent_affiliations?.map((a) => a.name))).toEqual([['University of Tartu']]);
  });

  it('updates incrementally: only the authors a new ingest touched are recomputed', async () => {
    const dir = await tempDir();
    const first = work({
      cited_by_count: 4,
      publication_year: 2018,
      authorships: [authorship(AUTHOR, 'Kadri Tamm')],
    });
    await ingest(db, 'works', [
      await writeLines(dir, '1.jsonl', [first, work({ authorships: [authorship(OTHER, 'Mart Kask')] })]),
    ]);
    const report = await ingest(db, 'works', [
      await writeLines(dir, '2.jsonl', [
        { ...first, cited_by_count: 9 },
        work({ cited_by_count: 7, publication_year: 2023, authorships: [authorship(AUTHOR, 'Kadri Tamm')] }),
      ]),
    ]);
    expect(report.authors_recomputed).toBe(1);
    expect(await metrics('A55550001')).toMatchObject({
      articles_count: 2,
      citations_count: 16,
      h_index: 2,
      last_publication_year: 2023,
    });
  });

  it('recomputes the author a work no longer lists', async () => {
    const dir = await tempDir();
    const w = work({ cited_by_count: 2, authorships: [authorship(AUTHOR, 'Kadri Tamm')] });
    await ingest(db, 'works', [await writeLines(dir, '1.jsonl', [w])]);
    await ingest(db, 'works', [
      await writeLines(dir, '2.jsonl', [{ ...w, authorships: [authorship(OTHER, 'Mart Kask')] }]),
    ]);
    expect(await metrics('A55550001')).toMatchObject({ articles_count: 0, citations_count: 0, h_index: 0 });
    expect(await metrics('A55550002')).toMatchObject({ articles_count: 1, citations_count: 2 });
  });
});
