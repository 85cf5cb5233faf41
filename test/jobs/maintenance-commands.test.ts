// The corpus upkeep that runs as a job (or with --wait): `refmatch corpus metrics [--all]` and
// `refmatch corpus relink`, each giving the state one ingest's end would have given.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findCommand } from '../../src/cli/registry.ts';
import { createGroup } from '../../src/authors-groups/store.ts';
import { createTestApp, createTestOrg, testConfig, type TestApp } from '../helpers/app.ts';
import { authorship, FIXTURES, ingest, tempDir, work, writeLines } from '../corpus/helpers.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const run = (app: TestApp, name: string, args: Record<string, unknown> = {}) =>
  findCommand(name)!.run({ config: testConfig(), db: app.db, progress: () => {} }, args);

describe('corpus metrics', () => {
  it('--all recomputes every author from their works; without it, only the authors queued', async () => {
    t = await createTestApp();
    const works = [10, 5, 3, 0].map((cited, i) =>
      work({
        cited_by_count: cited,
        publication_year: 2010 + i,
        authorships: [authorship('https://openalex.org/A44440001', 'Liis Mets')],
      }),
    );
    await ingest(t.db, 'works', [await writeLines(await tempDir(), 'w.jsonl', works)]);
    const read = () =>
      t!.db.query(
        'SELECT author_key, articles_count, citations_count, h_index FROM authors ORDER BY author_key',
      );
    const before = (await read()).rows;
    expect(before).toEqual([{ author_key: 'A44440001', articles_count: 4, citations_count: 18, h_index: 3 }]);

    await t.db.query('UPDATE authors SET articles_count = 0, citations_count = 0, h_index = 99');
    expect(await run(t, 'corpus metrics')).toEqual({ authors_recomputed: 0 });
    expect(await run(t, 'corpus metrics', { all: true })).toEqual({ authors_recomputed: 1 });
    expect((await read()).rows).toEqual(before);
  });
});

describe('corpus relink', () => {
  it("links every group author again to the corpus's answer, and counts the links it changed", async () => {
    t = await createTestApp();
    const org = await createTestOrg(t);
    const group = await createGroup(t.db, org.id, 'Relinked');
    const url = `/api/external/author-from-group/${group.group_id}/yang/`;
    await ingest(t.db, 'works', [path.join(FIXTURES, 'corpus/yang-liu-acl.jsonl')]);
    await t.app.inject({
      method: 'POST',
      url,
      headers: org.headers,
      payload: { name: 'Yang Liu', articles: ['10.18653/v1/D19-1387'] },
    });
    const linked = (await t.app.inject({ method: 'GET', url, headers: org.headers })).json().author;
    expect(linked).not.toBeNull();

    await t.db.query('UPDATE group_authors SET linked_author_id = NULL');
    expect(await run(t, 'corpus relink')).toEqual({ group_authors: 1, group_authors_relinked: 1 });
    expect((await t.app.inject({ method: 'GET', url, headers: org.headers })).json().author).toEqual(linked);
    expect(await run(t, 'corpus relink')).toEqual({ group_authors: 1, group_authors_relinked: 0 });
  });
});
