// Spec 2.6 and 4.6: GET /api/external/recommend-journals/{origin_id}/, over HTTP on a small corpus
// made here, with manuscripts created through the real upload endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import { baseFields, upload } from '../manuscripts/upload-helpers.ts';
import { runCommand } from '../manuscripts/cli-helpers.ts';

interface Journal {
  id: number;
  title: string;
  score: number;
  publisher_name: string | null;
  folder_id: number | null;
  folder_name: string | null;
  relevant_articles: Array<{ id: number; title: string; year: number }>;
}

let t: TestApp;
const sources: Record<'protein' | 'translation' | 'ecology' | 'empty', number> = {
  protein: 0,
  translation: 0,
  ecology: 0,
  empty: 0,
};
const ecologyDois: string[] = [];

async function addSource(
  key: string,
  title: string,
  type: string,
  publisher: string | null,
): Promise<number> {
  const { rows } = await t.db.query<{ id: number }>(
    'INSERT INTO sources (source_key, title, type, publisher) VALUES ($1, $2, $3, $4) RETURNING id',
    [key, title, type, publisher],
  );
  return rows[0]!.id;
}

async function addWork(
  sourceId: number,
  key: string,
  title: string,
  abstract: string,
  year: number,
  doi?: string,
) {
  await t.db.query(
    `INSERT INTO works (work_key, title, abstract, publication_year, source_id, doi) VALUES ($1, $2, $3, $4, $5, $6)`,
    [key, title, abstract, year, sourceId, doi ?? null],
  );
}

beforeAll(async () => {
  t = await createTestApp();
  sources.protein = await addSource('test:protein', 'Journal of Protein Structure', 'journal', 'BioPress');
  sources.translation = await addSource('test:mt', 'Machine Translation Conference', 'conference', null);
  sources.ecology = await addSource('test:eco', 'Computational Ecology Letters', 'journal', 'EcoPub');
  sources.empty = await addSource('test:empty', 'Journal of Nothing Published', 'journal', null);
  // Twelve protein works, so the 10-article limit is reached.
  for (let i = 1; i <= 12; i++) {
    await addWork(
      sources.protein,
      `test:p${i}`,
      `Graph neural networks for protein folding, study ${i}`,
      `We apply graph neural networks to protein structure prediction and protein folding; variant ${i} uses residue contact graphs.`,
      2010 + i,
    );
  }
  for (let i = 1; i <= 4; i++) {
    await addWork(
      sources.translation,
      `test:t${i}`,
      `Neural machine translation with attention ${i}`,
      `Machine translation between low-resource languages with attention and subword segmentation, experiment ${i}.`,
      2020 + i,
    );
  }
  for (let i = 1; i <= 3; i++) {
    const doi = `10.5555/eco.${i}`;
    ecologyDois.push(doi);
    await addWork(
      sources.ecology,
      `test:e${i}`,
      `Species distribution models under climate change ${i}`,
      `Species distribution modelling of alpine plants under warming scenarios, site ${i}.`,
      2019,
      doi,
    );
  }
  await t.db.query(
    'UPDATE sources SET works_count = (SELECT count(*) FROM works w WHERE w.source_id = sources.id)',
  );
  await t.app.refmatch.index.refresh();
});

afterAll(async () => {
  await t?.close();
});

async function newOrgWithManuscript(
  originId = 'ms-1',
  fields: Record<string, string | number> = {},
): Promise<TestOrg> {
  const org = await createTestOrg(t);
  const res = await upload(t.app, {
    apiKey: org.apiKey,
    fields: baseFields({ origin_id: originId, ...fields }),
  });
  expect(res.statusCode).toBe(200);
  return org;
}

interface StoredReference {
  raw: string;
  doi: string | null;
  title: string | null;
}

/**
 * The upload stores references parsed from the source file; a file's parse is stood in for here,
 * written as the upload writes a manuscript: with a new version (updated_at).
 */
async function storeReferences(org: TestOrg, originId: string, references: StoredReference[]) {
  await t.db.query(
    `UPDATE manuscripts SET "references" = $3::jsonb, updated_at = now() WHERE organization_id = $1 AND origin_id = $2`,
    [org.id, originId, JSON.stringify(references)],
  );
}

async function recommend(org: TestOrg, originId: string, query = '') {
  return t.app.inject({
    method: 'GET',
    url: `/api/external/recommend-journals/${encodeURIComponent(originId)}/${query}`,
    headers: org.headers,
  });
}

async function journals(org: TestOrg, originId: string, query = ''): Promise<Journal[]> {
  const res = await recommend(org, originId, query);
  expect(res.statusCode).toBe(200);
  return (res.json() as { recommended_journals: Journal[] }).recommended_journals;
}

describe('feature gate', () => {
  it('answers 403 feature_not_in_plan without the recommend_journals feature', async () => {
    const org = await createTestOrg(t, ['referee_finder']);
    const res = await upload(t.app, { apiKey: org.apiKey, fields: baseFields({ origin_id: 'gated' }) });
    expect(res.statusCode).toBe(200);
    const answer = await recommend(org, 'gated');
    expect(answer.statusCode).toBe(403);
    expect(answer.json().error.code).toBe('feature_not_in_plan');
  });

  it('answers 401 without an API key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/external/recommend-journals/x/' });
    expect(res.statusCode).toBe(401);
  });
});

describe('origin_id must be one of the caller organization’s manuscripts', () => {
  it('answers 404 for an unknown origin_id', async () => {
    const org = await createTestOrg(t);
    const res = await recommend(org, 'never-uploaded');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });

  it('finds a manuscript by the origin_id the upload was sent, white space around it included', async () => {
    const org = await newOrgWithManuscript(' padded-1 ');
    expect((await recommend(org, ' padded-1 ')).statusCode).toBe(200);
    expect((await recommend(org, 'padded-1')).statusCode).toBe(200);
  });

  it('answers 404 for a manuscript of another organization', async () => {
    await newOrgWithManuscript('shared-id');
    const other = await createTestOrg(t);
    const res = await recommend(other, 'shared-id');
    expect(res.statusCode).toBe(404);
  });
});

describe('journals_corpus', () => {
  it('answers 400 for any value other than all_journals or org_journals', async () => {
    const org = await newOrgWithManuscript();
    for (const bad of ['everything', 'ALL_JOURNALS', '']) {
      const res = await recommend(org, 'ms-1', `?journals_corpus=${bad}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
      // The detail names the values allowed, not ajv's "must be equal to constant".
      expect(res.json().error.details).toEqual([
        {
          path: 'querystring.journals_corpus',
          message: 'must be one of "all_journals", "org_journals"',
        },
      ]);
    }
  });

  it('answers 400 saying so for an option given more than once, not "must be integer"', async () => {
    const org = await newOrgWithManuscript();
    const res = await recommend(
      org,
      'ms-1',
      '?limit=5&limit=5&journals_corpus=all_journals&journals_corpus=all_journals',
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([
      { path: 'querystring.journals_corpus', message: 'must be given once (it was given 2 times)' },
      { path: 'querystring.limit', message: 'must be given once (it was given 2 times)' },
    ]);
  });

  it('all_journals is the default', async () => {
    const org = await newOrgWithManuscript();
    expect(await journals(org, 'ms-1')).toEqual(await journals(org, 'ms-1', '?journals_corpus=all_journals'));
  });
});

describe('all_journals', () => {
  it('ranks the corpus sources by fit, with every field of 2.6 in its type', async () => {
    const org = await newOrgWithManuscript();
    const list = await journals(org, 'ms-1');
    expect(list.length).toBeGreaterThan(0);
    expect(list.length).toBeLessThanOrEqual(20);
    const top = list[0]!;
    expect(top).toEqual({
      id: sources.protein,
      title: 'Journal of Protein Structure',
      score: expect.any(Number),
      publisher_name: 'BioPress',
      folder_id: null,
      folder_name: null,
      relevant_articles: expect.any(Array),
    });
    // In the order of the 2.6 table.
    expect(Object.keys(top)).toEqual([
      'id',
      'title',
      'score',
      'publisher_name',
      'folder_id',
      'folder_name',
      'relevant_articles',
    ]);
    for (const j of list) {
      expect(Number.isInteger(j.id)).toBe(true);
      expect(typeof j.title).toBe('string');
      expect(Number.isFinite(j.score)).toBe(true);
      for (const a of j.relevant_articles) {
        expect(Object.keys(a).sort()).toEqual(['id', 'title', 'year']);
        expect(Number.isInteger(a.id) && Number.isInteger(a.year)).toBe(true);
        expect(typeof a.title).toBe('string');
      }
    }
    const scores = list.map((j) => j.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // A journal with no relevant work is not recommended from the whole corpus.
    expect(list.map((j) => j.id)).not.toContain(sources.empty);
  });

  it('gives at most 10 relevant articles, all of that journal', async () => {
    const org = await newOrgWithManuscript();
    const top = (await journals(org, 'ms-1'))[0]!;
    expect(top.relevant_articles).toHaveLength(10);
    const { rows } = await t.db.query<{ id: number }>('SELECT id FROM works WHERE source_id = $1', [
      sources.protein,
    ]);
    const own = new Set(rows.map((r) => r.id));
    expect(top.relevant_articles.every((a) => own.has(a.id))).toBe(true);
    expect(new Set(top.relevant_articles.map((a) => a.id)).size).toBe(10);
  });

  it('uses the manuscript as uploaded: another title and abstract give another journal', async () => {
    const org = await newOrgWithManuscript('mt', {
      title: 'Attention for low-resource neural machine translation',
      abstract: 'We improve machine translation between low-resource languages with subword segmentation.',
    });
    expect((await journals(org, 'mt'))[0]!.id).toBe(sources.translation);
  });

  it('counts journals the manuscript cites as evidence', async () => {
    const org = await newOrgWithManuscript('cites');
    const before = await journals(org, 'cites');
    expect(before.map((j) => j.id)).not.toContain(sources.ecology);
    // Written as reference lists write them: a "doi:" prefix or a URL, capitals, a closing period.
    await storeReferences(
      org,
      'cites',
      ecologyDois.map((doi, i) => ({
        raw: doi,
        doi: i % 2 ? `doi:${doi.toUpperCase()}.` : `https://doi.org/${doi}`,
        title: null,
      })),
    );
    const after = await journals(org, 'cites');
    const ecology = after.find((j) => j.id === sources.ecology);
    expect(ecology).toBeDefined();
    expect(ecology!.score).toBeGreaterThan(0);
    expect(ecology!.relevant_articles).toHaveLength(3);
  });

  // Both name the works by title only: the DOIs are the preprints' (not the corpus's), or missing.
  it.each([
    {
      rule: "counts a cited journal by the reference's title when the corpus does not hold its DOI",
      reference: (i: number): StoredReference => ({
        raw: `Species distribution models under climate change ${i}. arXiv.`,
        doi: `10.48550/arXiv.2401.0000${i}`,
        title: `Species Distribution Models under Climate Change ${i}.`,
      }),
    },
    {
      rule: "matches a reference's title whatever its punctuation, case and spacing",
      reference: (i: number): StoredReference => ({
        raw: `Species-distribution models: under climate change (${i}).`,
        doi: null,
        title: `Species-distribution models: under  CLIMATE change (${i})`,
      }),
    },
  ])('$rule', async ({ reference }) => {
    const org = await newOrgWithManuscript('cites-by-title');
    await storeReferences(org, 'cites-by-title', [1, 2].map(reference));
    const ecology = (await journals(org, 'cites-by-title')).find((j) => j.id === sources.ecology);
    expect(ecology).toBeDefined();
    expect(ecology!.relevant_articles.map((a) => a.title).sort()).toEqual([
      'Species distribution models under climate change 1',
      'Species distribution models under climate change 2',
    ]);
  });

  it('answers a manuscript asked again from the answer kept, until the manuscript, its links or the corpus change', async () => {
    const org = await newOrgWithManuscript('asked-again');
    const answers = async () => {
      const text = (await t.app.inject({ url: '/metrics' })).body;
      const count = (answer: string) =>
        Number(
          new RegExp(`refmatch_journal_recommendations_total\\{answer="${answer}"\\} (\\d+)`).exec(
            text,
          )?.[1] ?? 0,
        );
      return { computed: count('computed'), cached: count('cached') };
    };
    const start = await answers();
    const first = await journals(org, 'asked-again');
    expect(await journals(org, 'asked-again')).toEqual(first);
    expect(await answers()).toEqual({ computed: start.computed + 1, cached: start.cached + 1 });
    // Another limit is another answer.
    expect(await journals(org, 'asked-again', '?limit=1')).toEqual(first.slice(0, 1));
    expect((await answers()).computed).toBe(start.computed + 2);
    // A journal linked to a folder shows at once.
    const folder = await t.db.query<{ id: number }>(
      `INSERT INTO folders (organization_id, name) VALUES ($1, 'KEPT') RETURNING id`,
      [org.id],
    );
    await t.db.query(
      'INSERT INTO journal_links (organization_id, source_id, folder_id) VALUES ($1, $2, $3)',
      [org.id, first[0]!.id, folder.rows[0]!.id],
    );
    expect((await journals(org, 'asked-again'))[0]).toMatchObject({ id: first[0]!.id, folder_name: 'KEPT' });
    // The manuscript uploaded again about something else is another answer.
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({
        origin_id: 'asked-again',
        title: 'Species distribution models of alpine plants under climate change',
        abstract: 'Species distribution modelling of alpine plants under warming scenarios.',
      }),
    });
    expect(res.statusCode).toBe(200);
    expect((await journals(org, 'asked-again'))[0]!.id).toBe(sources.ecology);
    expect(await answers()).toEqual({ computed: start.computed + 4, cached: start.cached + 1 });
  });

  it('honours the limit parameter', async () => {
    const org = await newOrgWithManuscript();
    expect(await journals(org, 'ms-1', '?limit=1')).toHaveLength(1);
  });
});

describe('score is a float (2.6)', () => {
  it('is written with a fraction even when whole: a linked journal nothing matched scores 0.0', async () => {
    const org = await newOrgWithManuscript();
    await runCommand(t, 'journal link', { org: org.id, folder: 'Empty', source: sources.empty });
    const res = await recommend(org, 'ms-1', '?journals_corpus=org_journals');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('"score":0.0,');
    expect(res.body).not.toMatch(/"score":-?\d+[,}]/);
    expect(res.json<{ recommended_journals: Journal[] }>().recommended_journals[0]!.score).toBe(0);
  });
});

describe('org_journals and linking', () => {
  it('answers an empty list when the organization has linked no journal', async () => {
    const org = await newOrgWithManuscript();
    expect(await journals(org, 'ms-1', '?journals_corpus=org_journals')).toEqual([]);
  });

  it('ranks only linked journals and names their folder; unlink removes them', async () => {
    const org = await newOrgWithManuscript();
    const linked = (await runCommand(t, 'journal link', {
      org: org.id,
      folder: 'MT-folder',
      source: sources.translation,
    })) as { folder_id: number; folder_name: string };
    expect(linked.folder_name).toBe('MT-folder');
    await runCommand(t, 'journal link', { org: org.id, folder: 'Empty', source: sources.empty });

    const own = await journals(org, 'ms-1', '?journals_corpus=org_journals');
    expect(own.map((j) => j.id)).toEqual([sources.translation, sources.empty]);
    expect(own[0]).toMatchObject({ folder_id: linked.folder_id, folder_name: 'MT-folder' });
    expect(own[1]).toMatchObject({ score: 0, relevant_articles: [], folder_name: 'Empty' });

    // In all_journals, unlinked journals carry a null folder.
    const all = await journals(org, 'ms-1');
    expect(all.find((j) => j.id === sources.protein)!.folder_id).toBeNull();

    await runCommand(t, 'journal unlink', { org: org.id, source: sources.translation });
    await runCommand(t, 'journal unlink', { org: org.id, source: sources.empty, folder: 'Empty' });
    expect(await journals(org, 'ms-1', '?journals_corpus=org_journals')).toEqual([]);
  });

  it("does not show another organization's links", async () => {
    const org = await newOrgWithManuscript();
    const other = await createTestOrg(t);
    await runCommand(t, 'journal link', { org: other.id, folder: 'Theirs', source: sources.protein });
    expect(await journals(org, 'ms-1', '?journals_corpus=org_journals')).toEqual([]);
    expect((await journals(org, 'ms-1'))[0]!.folder_name).toBeNull();
  });

  it('linking again moves the journal to the new folder, which shows in the upload’s folder names', async () => {
    const org = await newOrgWithManuscript();
    await runCommand(t, 'journal link', { org: org.id, folder: 'First', source: sources.protein });
    await runCommand(t, 'journal link', { org: org.id, folder: 'JOUR', source: sources.protein });
    const own = await journals(org, 'ms-1', '?journals_corpus=org_journals');
    expect(own).toHaveLength(1);
    expect(own[0]!.folder_name).toBe('JOUR');
    // all_journals names the linked journal's folder too.
    const top = (await journals(org, 'ms-1'))[0]!;
    expect(top).toMatchObject({ id: sources.protein, folder_id: own[0]!.folder_id, folder_name: 'JOUR' });
    // JOUR is the folder the upload created: the link reuses it rather than making a second one.
    const { rows } = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM folders WHERE organization_id = $1 AND name = 'JOUR'`,
      [org.id],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('refuses unknown journals, organizations and links', async () => {
    const org = await createTestOrg(t);
    await expect(
      runCommand(t, 'journal link', { org: org.id, folder: 'F', source: 999999 }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      runCommand(t, 'journal link', { org: 999999, folder: 'F', source: sources.protein }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      runCommand(t, 'journal unlink', { org: org.id, source: sources.protein }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      runCommand(t, 'journal link', { org: org.id, folder: '  ', source: sources.protein }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });
});

describe('OpenAPI document', () => {
  it('describes the route, its journals_corpus values and the 2.6 item', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as {
      paths: Record<
        string,
        { get?: { parameters?: Array<{ name: string; schema?: { enum?: string[]; anyOf?: unknown[] } }> } }
      >;
    };
    const path = Object.keys(doc.paths).find((p) => p.startsWith('/api/external/recommend-journals/'));
    expect(path).toBeDefined();
    const params = doc.paths[path!]!.get!.parameters!.map((p) => p.name);
    expect(params).toEqual(expect.arrayContaining(['origin_id', 'journals_corpus']));
    expect(JSON.stringify(doc.paths[path!])).toContain('relevant_articles');
  });
});
