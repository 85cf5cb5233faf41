// Linking authors from groups to the corpus: each path, and the refusal to guess. The two Yang Lius
// are real, distinct people of the ACL Anthology (Edinburgh, later Microsoft; ICSI, later Amazon).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createGroup } from '../../src/authors-groups/store.ts';
import { createTestOrg } from '../helpers/app.ts';
import { AUTHORS_BY_EMAIL, findLink, findLinks } from '../../src/corpus/authors/linking.ts';
import { ingestFiles } from '../../src/corpus/ingest/ingest.ts';
import { worksKind } from '../../src/corpus/openalex/entities.ts';
import type { Database } from '../../src/infra/db/index.ts';
import { authorship, FIXTURES, ingest, OPENALEX, tempDir, work, writeLines } from './helpers.ts';

let t: TestApp;
let edinburgh: number;
let icsi: number;
let piwowar: number;

async function authorId(key: string): Promise<number> {
  const { rows } = await t.db.query<{ id: number }>('SELECT id FROM authors WHERE author_key = $1', [key]);
  return rows[0]!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  await ingest(t.db, 'works', [
    path.join(FIXTURES, 'corpus/yang-liu-acl.jsonl'),
    path.join(OPENALEX, 'W2741809807.json'),
  ]);
  edinburgh = await authorId('acl:person/yang-liu-edinburgh');
  icsi = await authorId('acl:person/yang-liu-icsi');
  piwowar = await authorId('A5048491430');
});
afterAll(async () => {
  await t.close();
});

describe('linking by ORCID', () => {
  it('links the corpus author with that ORCID, whatever form the ORCID is written in', async () => {
    expect(
      await findLink(t.db, { name: 'H. Piwowar', orcids: ['https://orcid.org/0000-0003-1613-5981'] }),
    ).toEqual({
      authorId: piwowar,
      via: 'orcid',
    });
  });
});

describe('linking by email', () => {
  it('looks emails up through the partial index of the authors that have one', async () => {
    // Forced off a sequential scan, the planner can only pick the index if the query states its
    // condition (emails <> '{}'); a query that dropped it would quietly scan every author.
    const plan = await t.db.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN ${AUTHORS_BY_EMAIL.replace('$1::text[]', "'{a@example.org}'::text[]")}`,
      );
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('authors_emails_idx');
  });

  it('links the one corpus author known by that email, and refuses when two share it', async () => {
    await t.db.query(`UPDATE authors SET emails = '{yang.liu@example.org}' WHERE id = $1`, [edinburgh]);
    expect(await findLink(t.db, { name: 'Yang Liu', emails: ['Yang.Liu@example.org'] })).toEqual({
      authorId: edinburgh,
      via: 'email',
    });
    await t.db.query(`UPDATE authors SET emails = '{yang.liu@example.org}' WHERE id = $1`, [icsi]);
    expect(await findLink(t.db, { name: 'Yang Liu', emails: ['yang.liu@example.org'] })).toEqual({
      authorId: null,
      via: 'ambiguous',
      among: [edinburgh, icsi].sort((a, b) => a - b),
    });
    await t.db.query(`UPDATE authors SET emails = '{}' WHERE id = ANY($1::int[])`, [[edinburgh, icsi]]);
  });

  it('lets the articles choose between the records that share the email', async () => {
    await t.db.query(`UPDATE authors SET emails = '{yang.liu@example.org}' WHERE id = ANY($1::int[])`, [
      [edinburgh, icsi],
    ]);
    try {
      expect(
        await findLink(t.db, {
          name: 'Yang Liu',
          emails: ['yang.liu@example.org'],
          articles: ['https://doi.org/10.18653/v1/D19-1387'],
        }),
      ).toEqual({ authorId: edinburgh, via: 'articles' });
    } finally {
      await t.db.query(`UPDATE authors SET emails = '{}' WHERE id = ANY($1::int[])`, [[edinburgh, icsi]]);
    }
  });

  it('links the person when the records that share the email are one person’s', async () => {
    // As the people step leaves two records of one person (people.ts): the person's canonical one
    // holds its own id. (The two Yang Lius stand in for one person here.)
    await t.db.query(
      `UPDATE authors SET emails = '{yang.liu@example.org}', person_id = $2 WHERE id = ANY($1::int[])`,
      [[edinburgh, icsi], icsi],
    );
    try {
      expect(await findLink(t.db, { name: 'Yang Liu', emails: ['yang.liu@example.org'] })).toEqual({
        authorId: icsi,
        via: 'email',
      });
    } finally {
      await t.db.query(`UPDATE authors SET emails = '{}', person_id = NULL WHERE id = ANY($1::int[])`, [
        [edinburgh, icsi],
      ]);
    }
  });
});

describe('linking by articles', () => {
  it('tells the two Yang Lius apart by a DOI of their own', async () => {
    expect(
      await findLink(t.db, { name: 'Yang Liu', articles: ['https://doi.org/10.18653/v1/D19-1387'] }),
    ).toEqual({
      authorId: edinburgh,
      via: 'articles',
    });
    expect(await findLink(t.db, { name: 'Liu, Y.', articles: ['10.18653/v1/D17-1231'] })).toEqual({
      authorId: icsi,
      via: 'articles',
    });
  });

  it('by title, case and a trailing period aside', async () => {
    const result = await findLink(t.db, {
      name: 'Yang Liu',
      articles: ['using context information for dialog act classification in DNN framework.'],
    });
    expect(result).toEqual({ authorId: icsi, via: 'articles' });
  });

  it('by title whatever its punctuation and spacing (a title copied from a reference list)', async () => {
    const result = await findLink(t.db, {
      name: 'Yang Liu',
      articles: ['Using context-information for dialog act classification in  DNN framework?'],
    });
    expect(result).toEqual({ authorId: icsi, via: 'articles' });
  });

  it('by PubMed id and arXiv id', async () => {
    const dir = await tempDir();
    const file = await writeLines(dir, 'ids.jsonl', [
      work({
        id: 'https://openalex.org/W77770001',
        ids: { pmid: 'https://pubmed.ncbi.nlm.nih.gov/31234567' },
        authorships: [authorship('https://openalex.org/A77770001', 'Ingrid Kvist')],
      }),
      work({
        id: 'https://openalex.org/W77770002',
        locations: [{ landing_page_url: 'https://arxiv.org/abs/2101.00042v2' }],
        authorships: [authorship('https://openalex.org/A77770002', 'Oskar Lund')],
      }),
    ]);
    await ingest(t.db, 'works', [file]);
    expect(await findLink(t.db, { name: 'Ingrid Kvist', articles: ['PMID: 31234567'] })).toEqual({
      authorId: await authorId('A77770001'),
      via: 'articles',
    });
    expect(await findLink(t.db, { name: 'O. Lund', articles: ['arXiv:2101.00042'] })).toEqual({
      authorId: await authorId('A77770002'),
      via: 'articles',
    });
  });

  it('ignores an author of the article whose name is not compatible', async () => {
    expect(await findLink(t.db, { name: 'Mirella Lapata', articles: ['10.18653/v1/D19-1387'] })).toEqual({
      authorId: await authorId('acl:person/mirella-lapata'),
      via: 'articles',
    });
    expect(await findLink(t.db, { name: 'Wei Liu', articles: ['10.18653/v1/D19-1387'] })).toEqual({
      authorId: null,
      via: 'no_evidence',
    });
  });

  it('refuses to choose when one article of each Yang Liu is given', async () => {
    expect(
      await findLink(t.db, { name: 'Yang Liu', articles: ['10.18653/v1/D19-1387', '10.18653/v1/D17-1231'] }),
    ).toEqual({ authorId: null, via: 'ambiguous', among: [edinburgh, icsi].sort((a, b) => a - b) });
  });
});

describe('linking by name and affiliation', () => {
  it('tells the two Yang Lius apart by where they work', async () => {
    expect(
      await findLink(t.db, { name: 'Yang Liu', affiliations: ['Microsoft Research, Redmond, WA, USA'] }),
    ).toEqual({
      authorId: edinburgh,
      via: 'affiliation',
    });
    expect(
      await findLink(t.db, { name: 'Yang Liu', affiliations: ['Amazon Alexa AI, Sunnyvale, CA'] }),
    ).toEqual({
      authorId: icsi,
      via: 'affiliation',
    });
  });

  it('refuses a name alone, and a name whose affiliation matches nobody', async () => {
    expect(await findLink(t.db, { name: 'Yang Liu' })).toEqual({ authorId: null, via: 'no_evidence' });
    expect(await findLink(t.db, { name: 'Yang Liu', affiliations: ['Stanford University'] })).toEqual({
      authorId: null,
      via: 'no_evidence',
    });
  });

  it('refuses when two people of one name share the affiliation (departments of one university)', async () => {
    const dir = await tempDir();
    const file = await writeLines(dir, 'garcia.jsonl', [
      work({
        authorships: [
          authorship('https://openalex.org/A88880001', 'Maria Garcia', {
            raw_affiliation_strings: ['Department of Physics, University of Valencia, Spain'],
          }),
        ],
      }),
      work({
        authorships: [
          authorship('https://openalex.org/A88880002', 'María García', {
            raw_affiliation_strings: ['Dept. of Chemistry, Univ. of Valencia'],
          }),
        ],
      }),
    ]);
    await ingest(t.db, 'works', [file]);
    expect(
      await findLink(t.db, {
        name: 'Maria Garcia',
        affiliations: ['University of Valencia, Valencia, Spain'],
      }),
    ).toEqual({
      authorId: null,
      via: 'ambiguous',
      among: [await authorId('A88880001'), await authorId('A88880002')].sort((a, b) => a - b),
    });
  });
});

describe('linking compound family names, hyphenated in one place and not in the other', () => {
  it('by an article and by an affiliation, either way round', async () => {
    const dir = await tempDir();
    const file = await writeLines(dir, 'compound.jsonl', [
      work({
        id: 'https://openalex.org/W77770011',
        doi: 'https://doi.org/10.9999/compound.1',
        authorships: [authorship('https://openalex.org/A77770011', 'María García-López')],
      }),
      work({
        id: 'https://openalex.org/W77770012',
        authorships: [
          authorship('https://openalex.org/A77770012', 'Inés Ruiz Moreno', {
            raw_affiliation_strings: ['Departamento de Lenguajes, Universidad de Sevilla, Sevilla, Spain'],
          }),
        ],
      }),
    ]);
    await ingest(t.db, 'works', [file]);
    expect(await findLink(t.db, { name: 'María García López', articles: ['10.9999/compound.1'] })).toEqual({
      authorId: await authorId('A77770011'),
      via: 'articles',
    });
    expect(
      await findLink(t.db, { name: 'Inés Ruiz-Moreno', affiliations: ['Universidad de Sevilla'] }),
    ).toEqual({ authorId: await authorId('A77770012'), via: 'affiliation' });
  });
});

describe('relinking on every write of an author from group, and after every ingest', () => {
  it('links on create, unlinks on a replace that removes the evidence, relinks on partial update', async () => {
    const org = await createTestOrg(t);
    const group = await createGroup(t.db, org.id, 'Reviewers');
    const url = `/api/external/author-from-group/${group.group_id}/yl-1/`;
    let res = await t.app.inject({
      method: 'POST',
      url,
      headers: org.headers,
      payload: { name: 'Yang Liu', articles: ['10.18653/v1/P19-1500'] },
    });
    expect(res.statusCode).toBe(200);
    res = await t.app.inject({ method: 'GET', url, headers: org.headers });
    const linked = res.json().author;
    expect(linked).toMatchObject({
      id: edinburgh,
      name: 'Yang Liu',
      service_url: `http://refmatch.test/authors/${edinburgh}`,
    });
    expect(linked.last_articles).toHaveLength(3);

    await t.app.inject({ method: 'POST', url, headers: org.headers, payload: { name: 'Yang Liu' } });
    res = await t.app.inject({ method: 'GET', url, headers: org.headers });
    expect(res.json().author).toBeNull();

    await t.app.inject({
      method: 'POST',
      url: `${url}partial/`,
      headers: org.headers,
      payload: { affiliations: ['Amazon'] },
    });
    res = await t.app.inject({ method: 'GET', url, headers: org.headers });
    expect(res.json().author).toMatchObject({ id: icsi });
  });

  it("links a group author created before the corpus's first load (the initial load)", async () => {
    // An empty corpus takes the initial load, whose end names the run's authors to relink.
    const fresh = await createTestApp();
    try {
      const org = await createTestOrg(fresh);
      const group = await createGroup(fresh.db, org.id, 'Early');
      const url = `/api/external/author-from-group/${group.group_id}/early/`;
      await fresh.app.inject({
        method: 'POST',
        url,
        headers: org.headers,
        payload: { name: 'Yang Liu', articles: ['10.18653/v1/D19-1387'] },
      });
      expect((await fresh.app.inject({ method: 'GET', url, headers: org.headers })).json().author).toBeNull();
      const report = await ingest(fresh.db, 'works', [path.join(FIXTURES, 'corpus/yang-liu-acl.jsonl')]);
      expect(report.files[0]!.initial_load).toBe(true);
      expect(report.group_authors_relinked).toBe(1);
      const res = await fresh.app.inject({ method: 'GET', url, headers: org.headers });
      const { rows } = await fresh.db.query<{ id: number }>(
        `SELECT id FROM authors WHERE author_key = 'acl:person/yang-liu-edinburgh'`,
      );
      expect(res.json().author).toMatchObject({ id: rows[0]!.id, name: 'Yang Liu' });
    } finally {
      await fresh.close();
    }
  });

  it('relinks a group author linked while the initial load ran, when the rest of the load changes the answer', async () => {
    // Two people of one name at one university, in two batches of the corpus's first load. A group
    // author written between the batches links to the only one there is then; once the second
    // arrives, the right answer is none. The load's end takes its authors off the metrics queue,
    // so only the name keys it hands over make the run relink that group author.
    const fresh = await createTestApp();
    try {
      const org = await createTestOrg(fresh);
      const group = await createGroup(fresh.db, org.id, 'Mid-load');
      const url = `/api/external/author-from-group/${group.group_id}/garcia/`;
      const dir = await tempDir();
      const file = await writeLines(dir, 'garcia.jsonl', [
        work({
          authorships: [
            authorship('https://openalex.org/A77770001', 'Maria Garcia', {
              raw_affiliation_strings: ['Department of Physics, University of Valencia, Spain'],
            }),
          ],
        }),
        work({
          authorships: [
            authorship('https://openalex.org/A77770002', 'María García', {
              raw_affiliation_strings: ['Dept. of Chemistry, Univ. of Valencia'],
            }),
          ],
        }),
      ]);
      // The load waits, before its second batch, for the group author's write (on the same database,
      // not through this handle): the write then sees exactly the first batch.
      let midLoad: Promise<unknown> | null = null;
      const pausing = new Proxy(fresh.db, {
        get(target, prop, receiver) {
          if (prop === 'transaction')
            return async (...args: Parameters<Database['transaction']>) => {
              await midLoad;
              return target.transaction(...args);
            };
          const value = Reflect.get(target, prop, receiver) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      let linkedMidLoad: unknown = null;
      const report = await ingestFiles(
        {
          db: pausing,
          progress: ({ done }) => {
            if (done !== 1 || midLoad) return;
            midLoad = (async () => {
              await fresh.app.inject({
                method: 'POST',
                url,
                headers: org.headers,
                payload: { name: 'Maria Garcia', affiliations: ['University of Valencia, Valencia, Spain'] },
              });
              linkedMidLoad = (await fresh.app.inject({ method: 'GET', url, headers: org.headers })).json()
                .author;
            })();
          },
        },
        worksKind,
        [file],
        1,
      );
      expect(report.files[0]!.initial_load).toBe(true);
      const { rows } = await fresh.db.query<{ id: number }>(
        `SELECT id FROM authors WHERE author_key = 'A77770001'`,
      );
      expect(linkedMidLoad).toMatchObject({ id: rows[0]!.id });
      expect(report.group_authors_relinked).toBe(1);
      expect((await fresh.app.inject({ method: 'GET', url, headers: org.headers })).json().author).toBeNull();
    } finally {
      await fresh.close();
    }
  });

  it('links a group author when an ingest brings the evidence', async () => {
    const org = await createTestOrg(t);
    const group = await createGroup(t.db, org.id, 'Later');
    const url = `/api/external/author-from-group/${group.group_id}/later/`;
    await t.app.inject({
      method: 'POST',
      url,
      headers: org.headers,
      payload: { name: 'Saoirse Byrne', articles: ['10.5555/later.2024.1'] },
    });
    expect((await t.app.inject({ method: 'GET', url, headers: org.headers })).json().author).toBeNull();
    const dir = await tempDir();
    const file = await writeLines(dir, 'later.jsonl', [
      work({
        doi: 'https://doi.org/10.5555/LATER.2024.1',
        authorships: [authorship('https://openalex.org/A99990001', 'Saoirse Byrne')],
      }),
    ]);
    const report = await ingest(t.db, 'works', [file]);
    expect(report.group_authors_relinked).toBeGreaterThanOrEqual(1);
    const res = await t.app.inject({ method: 'GET', url, headers: org.headers });
    expect(res.json().author).toMatchObject({
      id: await authorId('A99990001'),
      name: 'Saoirse Byrne',
      articles_count: 1,
    });
  });
});

describe('linking many records at once (an import links five thousand together)', () => {
  it("finds for each record what linking it alone finds, whatever the others' evidence", async () => {
    const inputs = [
      { name: 'H. Piwowar', orcids: ['https://orcid.org/0000-0003-1613-5981'] },
      { name: 'Yang Liu', articles: ['https://doi.org/10.18653/v1/D19-1387'] },
      { name: 'Liu, Y.', articles: ['10.18653/v1/D17-1231'] },
      { name: 'Yang Liu', articles: ['10.18653/v1/D19-1387', '10.18653/v1/D17-1231'] },
      { name: 'Mirella Lapata', articles: ['10.18653/v1/D19-1387'] },
      { name: 'Yang Liu', affiliations: ['Microsoft Research, Redmond, WA, USA'] },
      { name: 'Yang Liu', affiliations: ['Amazon Alexa AI, Sunnyvale, CA'] },
      { name: 'Yang Liu' },
      { name: 'Maria Garcia', affiliations: ['University of Valencia, Valencia, Spain'] },
      { name: 'María García López', articles: ['10.9999/compound.1'] },
      { name: 'Inés Ruiz-Moreno', affiliations: ['Universidad de Sevilla'] },
      // Evidence of one record (an ORCID, a DOI) next to a name it does not fit.
      { name: 'Wei Liu', articles: ['10.18653/v1/D19-1387'], orcids: ['0000-0000-0000-0000'] },
    ];
    const alone = [];
    for (const input of inputs) alone.push(await findLink(t.db, input));
    expect(alone.filter((link) => link.authorId !== null).length).toBeGreaterThanOrEqual(6);
    expect(await findLinks(t.db, inputs)).toEqual(alone);
    expect(await findLinks(t.db, [...inputs].reverse())).toEqual([...alone].reverse());
  });
});
