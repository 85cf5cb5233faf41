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
});
