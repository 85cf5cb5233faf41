// The venues an account manager finds to link to a folder (journals/links.ts searchSources): by a part
// of the title, the largest first, each with its id and the years of its works, so that venues of
// one title (the ACL's several "Findings of ...") can be told apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { searchSources } from '../../src/journals/links.ts';

let t: TestApp;
const ids: number[] = [];

beforeAll(async () => {
  t = await createTestApp();
  for (const [key, years] of [
    ['test:findings-a', [2020, 2021, 2022]],
    ['test:findings-b', [2023, 2023]],
    ['test:findings-c', []],
  ] as const) {
    const { rows } = await t.db.query<{ id: number }>(
      `INSERT INTO sources (source_key, title, type) VALUES ($1, 'Findings of Everything', 'conference') RETURNING id`,
      [key],
    );
    ids.push(rows[0]!.id);
    for (const [i, year] of years.entries()) {
      await t.db.query(
        `INSERT INTO works (work_key, title, abstract, publication_year, source_id) VALUES ($1, 'A work', '', $2, $3)`,
        [`${key}:${i}`, year, rows[0]!.id],
      );
    }
  }
  // What the ingest keeps in each source's row (load-works.ts, RECOUNT_SOURCES).
  await t.db.query(
    'UPDATE sources SET works_count = (SELECT count(*) FROM works WHERE source_id = sources.id)',
  );
});
afterAll(async () => t?.close());

describe('finding a venue to link', () => {
  it('lists venues of one title apart, largest first, with their ids and years', async () => {
    expect(await searchSources(t.db, 'findings of', 10)).toEqual([
      {
        id: ids[0],
        title: 'Findings of Everything',
        publisher: null,
        works: 3,
        first_year: 2020,
        last_year: 2022,
      },
      {
        id: ids[1],
        title: 'Findings of Everything',
        publisher: null,
        works: 2,
        first_year: 2023,
        last_year: 2023,
      },
      {
        id: ids[2],
        title: 'Findings of Everything',
        publisher: null,
        works: 0,
        first_year: null,
        last_year: null,
      },
    ]);
    expect(await searchSources(t.db, '100%_', 10)).toEqual([]);
  });

  it('reads the works of the venues it lists, not of every venue whose title matches', async () => {
    // Before, every matching venue's works were counted on each search: a common letter read the
    // whole corpus. Counted here as the rows of works the search fetched, in its own transaction.
    await t.db.query(
      `INSERT INTO sources (source_key, title, works_count)
       SELECT 'test:many-' || g, 'Many Venues ' || g, 3 FROM generate_series(1, 30) g`,
    );
    await t.db.query(
      `INSERT INTO works (work_key, title, abstract, publication_year, source_id)
       SELECT 'test:many-work-' || s.id || '-' || g, 'A work', '', 2000 + g, s.id
         FROM sources s, generate_series(1, 3) g WHERE s.source_key LIKE 'test:many-%'`,
    );
    const { listed, fetched } = await t.db.transaction(async (tx) => {
      // The test's tables are small enough to be read whole; the corpus's are read by its index.
      await tx.query('SET LOCAL enable_seqscan = off');
      const worksRead = async () => {
        const { rows } = await tx.query<{ n: string }>(
          `SELECT (coalesce(idx_tup_fetch, 0) + coalesce(seq_tup_read, 0))::text AS n
             FROM pg_stat_xact_user_tables WHERE relname = 'works'`,
        );
        return Number(rows[0]?.n ?? 0);
      };
      const before = await worksRead();
      const found = await searchSources(tx, 'many venues', 2);
      return { listed: found, fetched: (await worksRead()) - before };
    });
    expect(listed.map((v) => [v.title, v.works, v.first_year, v.last_year])).toEqual([
      ['Many Venues 1', 3, 2001, 2003],
      ['Many Venues 10', 3, 2001, 2003],
    ]);
    // The two listed venues hold 6 works; before, all 30 venues' 90 were read. The planner's choice
    // on server PostgreSQL (with the statistics other tests leave) has read up to 16: far from 90.
    expect(fetched).toBeLessThan(30 * 3 * 0.5);
  });
});
