import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import type { Queryable } from '../../src/infra/db/index.ts';
import { loadAuthorSummaries } from '../../src/corpus/authors/author-summary.ts';
import { authorUrl, orgWithGroup } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

let seq = 0;
async function author(db: Queryable, name: string, articles: number, h: number): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO authors (author_key, display_name, articles_count, h_index) VALUES ($1, $2, $3, $4) RETURNING id`,
    [`test:author/${++seq}`, name, articles, h],
  );
  return rows[0]!.id;
}

async function work(db: Queryable, title: string, year: number | null, authorIds: number[]): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO works (work_key, title, publication_year) VALUES ($1, $2, $3) RETURNING id`,
    [`test:work/${++seq}`, title, year],
  );
  const id = rows[0]!.id;
  for (const [i, a] of authorIds.entries()) {
    await db.query('INSERT INTO authorships (work_id, position, author_id) VALUES ($1, $2, $3)', [
      id,
      i + 1,
      a,
    ]);
  }
  return id;
}

describe('loadAuthorSummaries (the linked author object of 2.1)', () => {
  it('gives profile link, name, counts and exactly the three newest works (year desc, then id desc)', async () => {
    const a = await author(t.db, 'Grace Hopper', 42, 7);
    const other = await author(t.db, 'Someone Else', 1, 0);
    await work(t.db, 'Oldest', 1950, [a]);
    const w2019a = await work(t.db, 'Same year, lower id', 2019, [a, other]);
    const w2019b = await work(t.db, 'Same year, higher id', 2019, [other, a]);
    const w2021 = await work(t.db, 'Newest', 2021, [a]);
    await work(t.db, 'No year', null, [a]);
    await work(t.db, 'Not hers', 2024, [other]);
    const summaries = await loadAuthorSummaries(t.db, 'https://rm.example', [a, a, 999_999]);
    expect(summaries.size).toBe(1);
    expect(summaries.get(a)).toEqual({
      id: a,
      service_url: `https://rm.example/authors/${a}`,
      name: 'Grace Hopper',
      articles_count: 42,
      h_index: 7,
      last_articles: [
        { service_url: `https://rm.example/works/${w2021}`, title: 'Newest', year: 2021 },
        { service_url: `https://rm.example/works/${w2019b}`, title: 'Same year, higher id', year: 2019 },
        { service_url: `https://rm.example/works/${w2019a}`, title: 'Same year, lower id', year: 2019 },
      ],
    });
  });

  it('counts a work once when the author holds two positions on it, and handles no works', async () => {
    const a = await author(t.db, 'Twice Listed', 2, 1);
    const lonely = await author(t.db, 'No Works', 0, 0);
    const w = await work(t.db, 'Both positions', 2020, [a, a]);
    const summaries = await loadAuthorSummaries(t.db, 'http://x', [a, lonely]);
    expect(summaries.get(a)!.last_articles).toEqual([
      { service_url: `http://x/works/${w}`, title: 'Both positions', year: 2020 },
    ]);
    expect(summaries.get(lonely)!.last_articles).toEqual([]);
  });

  it('answers an empty map for no ids without querying', async () => {
    expect((await loadAuthorSummaries(t.db, 'http://x', [])).size).toBe(0);
  });
});

describe('GET author-from-group with a linked author (4.1 `author`)', () => {
  it('returns the author object built from the corpus, with links under PUBLIC_BASE_URL', async () => {
    const org = await orgWithGroup(t);
    const url = authorUrl(org.groupId, 'linked');
    await t.app.inject({ method: 'POST', url, headers: org.headers, payload: { name: 'Grace' } });
    const a = await author(t.db, 'Grace B. Hopper', 3, 2);
    const w = await work(t.db, 'COBOL', 1959, [a]);
    await t.db.query('UPDATE group_authors SET linked_author_id = $1 WHERE group_id = $2', [a, org.groupId]);
    const res = await t.app.inject({ method: 'GET', url, headers: org.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ author: unknown }>().author).toEqual({
      id: a,
      service_url: `${t.config.publicBaseUrl}/authors/${a}`,
      name: 'Grace B. Hopper',
      articles_count: 3,
      h_index: 2,
      last_articles: [{ service_url: `${t.config.publicBaseUrl}/works/${w}`, title: 'COBOL', year: 1959 }],
    });
    expect(t.config.publicBaseUrl).toBe('http://refmatch.test');
  });

  it('gives each last article an integer year: 0 for a work whose year the corpus lacks, never null', async () => {
    const org = await orgWithGroup(t);
    const url = authorUrl(org.groupId, 'undated');
    await t.app.inject({ method: 'POST', url, headers: org.headers, payload: { name: 'Ida' } });
    const a = await author(t.db, 'Ida Undated', 2, 1);
    const dated = await work(t.db, 'Dated', 2001, [a]);
    const undated = await work(t.db, 'Undated', null, [a]);
    await t.db.query('UPDATE group_authors SET linked_author_id = $1 WHERE group_id = $2', [a, org.groupId]);
    const res = await t.app.inject({ method: 'GET', url, headers: org.headers });
    const base = t.config.publicBaseUrl;
    expect(res.json<{ author: { last_articles: unknown } }>().author.last_articles).toEqual([
      { service_url: `${base}/works/${dated}`, title: 'Dated', year: 2001 },
      { service_url: `${base}/works/${undated}`, title: 'Undated', year: 0 },
    ]);
  });
});
