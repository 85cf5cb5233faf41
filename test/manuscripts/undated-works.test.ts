// Spec 2.3 and 2.6 type an article's `year` as an integer. A corpus work without a publication year
// reports 0 there, never null (docs/api.md, "Years of works"); 2.1's last_articles is checked in
// test/authors-groups/linked-author.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { buildCorpus, TOPIC } from '../referee-finder/fixtures.ts';
import { rankingFields, upload } from './upload-helpers.ts';

interface Article {
  id: number;
  title: string;
  year: number;
}

let t: TestApp;
let undatedId: number;

beforeAll(async () => {
  t = await createTestApp();
  const ids = await buildCorpus(t.db, [
    { authors: [{ name: 'Una Expert' }], title: 'Message passing on molecules', year: 2020 },
    { authors: [{ name: 'Una Expert' }], title: 'Undated graph networks for molecules' },
  ]);
  undatedId = ids.workId('Undated graph networks for molecules');
  await t.db.query('UPDATE works SET publication_year = NULL WHERE id = $1', [undatedId]);
  const source = await t.db.query<{ id: number }>(
    `INSERT INTO sources (source_key, title, type, publisher) VALUES ('test:mol', 'Molecular Graphs', 'journal', NULL)
     RETURNING id`,
  );
  await t.db.query('UPDATE works SET source_id = $1', [source.rows[0]!.id]);
  await t.db.query(
    'UPDATE sources SET works_count = (SELECT count(*) FROM works w WHERE w.source_id = sources.id)',
  );
  await t.app.refmatch.index.refresh();
});
afterAll(async () => t.close());

async function uploaded(apiKey: string) {
  const fields = rankingFields({
    origin_id: 'undated',
    title: 'Graph neural networks for molecules',
    abstract: TOPIC,
  });
  const res = await upload(t.app, { apiKey, fields });
  expect(res.statusCode).toBe(200);
  return res.json<{ candidates: Array<{ relevant_articles: Article[] }> }>();
}

function expectUndatedAsZero(articles: Article[]) {
  const undated = articles.find((a) => a.id === undatedId);
  expect(undated?.year).toBe(0);
  for (const a of articles) expect(Number.isInteger(a.year)).toBe(true);
}

describe('a work without a known year reports year 0, an integer (2.3, 2.6)', () => {
  it("in a candidate's relevant_articles", async () => {
    const org = await createTestOrg(t);
    const { candidates } = await uploaded(org.apiKey);
    expect(candidates).toHaveLength(1);
    expectUndatedAsZero(candidates[0]!.relevant_articles);
  });

  it("in a recommended journal's relevant_articles", async () => {
    const org = await createTestOrg(t);
    await uploaded(org.apiKey);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/external/recommend-journals/undated/',
      headers: org.headers,
    });
    expect(res.statusCode).toBe(200);
    const journals = res.json<{ recommended_journals: Array<{ relevant_articles: Article[] }> }>();
    expect(journals.recommended_journals).toHaveLength(1);
    expectUndatedAsZero(journals.recommended_journals[0]!.relevant_articles);
  });
});
