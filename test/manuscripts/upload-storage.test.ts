// Manuscripts belong to the organization and are found by origin_id: re-uploads update, folders move
// and are created, concurrent first uploads make one manuscript.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { baseFields, rankingFields, upload } from './upload-helpers.ts';
import { requireManuscript } from '../../src/manuscripts/list.ts';
import { findManuscriptForRanking, findSourceState } from '../../src/manuscripts/manuscripts-store.ts';
import { FULL_TEXT_CHARS } from '../../src/retrieval/manuscript-query.ts';
import { makeDocx, paragraph } from '../parsing/make-files.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

interface StoredRow {
  id: number;
  organization_id: number;
  origin_id: string;
  folder: string;
  title: string;
  abstract: string;
  authors: unknown;
  authors_count: number;
  warnings: string[];
}

async function stored(organizationId: number): Promise<StoredRow[]> {
  const { rows } = await t.db.query<StoredRow>(
    `SELECT m.id, m.organization_id, m.origin_id, f.name AS folder, m.title, m.abstract, m.authors,
            m.authors_count, m.warnings
       FROM manuscripts m JOIN folders f ON f.id = m.folder_id
      WHERE m.organization_id = $1 ORDER BY m.id`,
    [organizationId],
  );
  return rows;
}

async function folders(organizationId: number): Promise<string[]> {
  const { rows } = await t.db.query<{ name: string }>(
    'SELECT name FROM folders WHERE organization_id = $1 ORDER BY name',
    [organizationId],
  );
  return rows.map((r) => r.name);
}

describe('manuscripts by origin_id', () => {
  it('creates the manuscript and its folder on first upload', async () => {
    const org = await createTestOrg(t);
    const res = await upload(t.app, { apiKey: org.apiKey, fields: baseFields({ folder: 'NEWJ' }) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const rows = await stored(org.id);
    expect(rows).toHaveLength(1);
    expect(body.manuscript_id).toBe(rows[0]!.id);
    expect(rows[0]).toMatchObject({ origin_id: 'ms-1', folder: 'NEWJ', title: baseFields().title });
    expect(rows[0]!.authors).toEqual([{ name: 'Ada Lovelace', email: null, orcid: null, affiliation: null }]);
    expect(await folders(org.id)).toEqual(['NEWJ']);
  });

  it('updates the manuscript with the same origin_id, keeping its manuscript_id', async () => {
    const org = await createTestOrg(t);
    const first = await upload(t.app, { apiKey: org.apiKey, fields: baseFields() });
    const second = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({ title: 'A revised title', abstract: 'Revised.' }),
    });
    expect(second.statusCode).toBe(200);
    expect(second.json().manuscript_id).toBe(first.json().manuscript_id);
    const rows = await stored(org.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ title: 'A revised title', abstract: 'Revised.' });
  });

  it('moves the manuscript to a new folder, creating it, and to an existing one', async () => {
    const org = await createTestOrg(t);
    await upload(t.app, { apiKey: org.apiKey, fields: baseFields({ folder: 'A' }) });
    await upload(t.app, { apiKey: org.apiKey, fields: baseFields({ origin_id: 'other', folder: 'B' }) });
    await upload(t.app, { apiKey: org.apiKey, fields: baseFields({ folder: 'C' }) });
    expect((await stored(org.id)).find((r) => r.origin_id === 'ms-1')!.folder).toBe('C');
    await upload(t.app, { apiKey: org.apiKey, fields: baseFields({ folder: 'B' }) });
    const rows = await stored(org.id);
    expect(rows.map((r) => [r.origin_id, r.folder])).toEqual([
      ['ms-1', 'B'],
      ['other', 'B'],
    ]);
    expect(await folders(org.id)).toEqual(['A', 'B', 'C']);
  });

  it('makes one manuscript and one folder from two concurrent first uploads', async () => {
    const org = await createTestOrg(t);
    const fields = baseFields({ origin_id: 'race', folder: 'RACE' });
    const [a, b] = await Promise.all([
      upload(t.app, { apiKey: org.apiKey, fields }),
      upload(t.app, { apiKey: org.apiKey, fields: { ...fields, title: 'Second writer' } }),
    ]);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.json().manuscript_id).toBe(b.json().manuscript_id);
    expect(await stored(org.id)).toHaveLength(1);
    expect(await folders(org.id)).toEqual(['RACE']);
  });

  it('makes one folder from eight concurrent first uploads of different manuscripts to it', async () => {
    const org = await createTestOrg(t);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        upload(t.app, {
          apiKey: org.apiKey,
          fields: baseFields({ origin_id: `crowd-${i}`, folder: 'CROWD' }),
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect(await stored(org.id)).toHaveLength(8);
    expect(await folders(org.id)).toEqual(['CROWD']);
  });

  it('leaves an existing folder row unwritten by later uploads (no lock held on it for their transactions)', async () => {
    const org = await createTestOrg(t);
    await upload(t.app, { apiKey: org.apiKey, fields: baseFields({ origin_id: 'first', folder: 'STILL' }) });
    const version = async () =>
      (
        await t.db.query<{ v: string }>('SELECT xmin::text AS v FROM folders WHERE organization_id = $1', [
          org.id,
        ])
      ).rows[0]!.v;
    const before = await version();
    await upload(t.app, { apiKey: org.apiKey, fields: baseFields({ origin_id: 'second', folder: 'STILL' }) });
    expect(await version()).toBe(before);
  });

  it('keeps organizations apart: the same origin_id and folder name are separate manuscripts', async () => {
    const a = await createTestOrg(t);
    const b = await createTestOrg(t);
    const ra = await upload(t.app, { apiKey: a.apiKey, fields: baseFields({ title: 'Org A paper' }) });
    const rb = await upload(t.app, { apiKey: b.apiKey, fields: baseFields({ title: 'Org B paper' }) });
    expect(ra.json().manuscript_id).not.toBe(rb.json().manuscript_id);
    expect((await stored(a.id)).map((r) => r.title)).toEqual(['Org A paper']);
    expect((await stored(b.id)).map((r) => r.title)).toEqual(['Org B paper']);
    const { rows } = await t.db.query<{ organization_id: number }>(
      'SELECT organization_id FROM folders WHERE name = $1 AND organization_id = ANY($2::int[])',
      ['JOUR', [a.id, b.id]],
    );
    expect(rows.map((r) => r.organization_id).sort()).toEqual([a.id, b.id].sort());
  });

  it('stores the supplied authors with normalized ORCIDs and lower-cased emails', async () => {
    const org = await createTestOrg(t);
    await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({
        authors_count: 2,
        author1_name: 'Ada Lovelace',
        author1_email: 'Ada@Example.ORG',
        author1_orcid: 'https://orcid.org/0000-0002-1694-233x',
        author1_aff: 'University of London',
        author2_name: 'Charles Babbage',
      }),
    });
    expect((await stored(org.id))[0]!.authors).toEqual([
      {
        name: 'Ada Lovelace',
        email: 'ada@example.org',
        orcid: '0000-0002-1694-233X',
        affiliation: 'University of London',
      },
      { name: 'Charles Babbage', email: null, orcid: null, affiliation: null },
    ]);
  });

  it('accepts an authors_count that differs from the authors found, recording a warning', async () => {
    const org = await createTestOrg(t);
    const res = await upload(t.app, { apiKey: org.apiKey, fields: baseFields({ authors_count: 3 }) });
    expect(res.statusCode).toBe(200);
    const row = (await stored(org.id))[0]!;
    expect(row.authors_count).toBe(3);
    expect(row.warnings).toEqual(['authors_count is 3 but 1 author was found']);
  });
});

describe('what was supplied, stored once', () => {
  // 200 authors with 2,000-character affiliations: 430 KB of authors, which the row stored twice
  // (as supplied and as used) while no file was read.
  const many = () => {
    const fields: Record<string, string | number> = { authors_count: 200 };
    for (let k = 1; k <= 200; k++) {
      fields[`author${k}_name`] = `Author Number${k}`;
      fields[`author${k}_aff`] = `Institute ${k} of Imaginary Studies, `.repeat(60).slice(0, 2_000);
    }
    return fields;
  };

  it("keeps the form's authors and abstract once when they are the ones used, and gives them back as supplied", async () => {
    const org = await createTestOrg(t);
    const fields = baseFields({ ...many(), abstract: 'An abstract used as supplied. '.repeat(500) });
    expect((await upload(t.app, { apiKey: org.apiKey, fields })).statusCode).toBe(200);
    const { rows } = await t.db.query<{ id: number; supplied: Record<string, unknown>; bytes: number }>(
      `SELECT id, supplied, octet_length(supplied::text) AS bytes FROM manuscripts WHERE organization_id = $1`,
      [org.id],
    );
    expect(Object.keys(rows[0]!.supplied)).toEqual(['title']);
    expect(rows[0]!.bytes).toBeLessThan(1_000);
    const shown = await requireManuscript(t.db, org.id, rows[0]!.id);
    expect(shown.supplied.abstract).toBe(String(fields.abstract).trim());
    expect(shown.supplied.authors).toHaveLength(200);
    expect(shown.supplied.authors[199]).toEqual({
      name: 'Author Number200',
      email: null,
      orcid: null,
      affiliation: String(fields.author200_aff).trim(),
    });
  });
});

describe('a long text read from the file', () => {
  // 150,000 characters of prose: more than the head a manuscript's query reads (FULL_TEXT_CHARS).
  const sentence = (i: number) => `Sentence ${i} describes a made-up experiment with quantum gardening. `;
  const prose = Array.from({ length: 2_200 }, (_, i) => sentence(i)).join('');
  const docx = Buffer.from(
    makeDocx([
      paragraph('A long manuscript', 'Title'),
      ...Array.from({ length: 30 }, (_, k) => paragraph(prose.slice(k * 5_000, (k + 1) * 5_000))),
    ]),
  );

  it('is read back as its head alone, and a re-post without the file keeps it whole', async () => {
    const org = await createTestOrg(t);
    const first = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields(),
      files: [{ name: 'long.docx', bytes: docx }],
    });
    expect(first.statusCode).toBe(200);
    const length = first.json().debug_info.parsed_text_len;
    expect(length).toBeGreaterThan(2 * FULL_TEXT_CHARS);

    // What the upload carries over and what 4.6 reads: the head its query reads, not the whole text.
    const carried = (await findSourceState(t.db, org.id, 'ms-1'))!;
    expect(carried.carried).toBe(true);
    expect(carried.fullText!.length).toBe(FULL_TEXT_CHARS);
    expect((await findManuscriptForRanking(t.db, org.id, 'ms-1'))!.fullText!.length).toBe(FULL_TEXT_CHARS);

    // A re-post of the form without the file: the stored text is left as it was, whole.
    const again = await upload(t.app, { apiKey: org.apiKey, fields: baseFields({ title: 'Retitled' }) });
    expect(again.statusCode).toBe(200);
    expect(again.json().debug_info.parsed_text_len).toBe(length);
    const { rows } = await t.db.query<{ title: string; full_text: string }>(
      'SELECT title, full_text FROM manuscripts WHERE organization_id = $1',
      [org.id],
    );
    expect(rows[0]!.title).toBe('Retitled');
    expect(rows[0]!.full_text.length).toBe(length);
    expect(rows[0]!.full_text.startsWith(carried.fullText!)).toBe(true);
  });
});

describe('when candidates are not computed', () => {
  it.each(['1', 'true', 'false', '0', 'no', ' '])(
    'exclude_candidates=%s stores the manuscript and answers candidates: null',
    async (value) => {
      const org = await createTestOrg(t);
      const res = await upload(t.app, {
        apiKey: org.apiKey,
        fields: baseFields({ exclude_candidates: value }),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().candidates).toBeNull();
      expect(res.json().debug_info.extracted_concepts).toBe(0);
      expect(await stored(org.id)).toHaveLength(1);
    },
  );

  it('a plan without referee_finder stores the manuscript and answers candidates: null, not 403', async () => {
    const org = await createTestOrg(t, ['recommend_journals']);
    const fields = rankingFields();
    const res = await upload(t.app, { apiKey: org.apiKey, fields });
    expect(res.statusCode).toBe(200);
    expect(res.json().candidates).toBeNull();
    expect(await stored(org.id)).toHaveLength(1);
  });
});

describe('the response without a source file', () => {
  it('has exactly the fields of 4.5 and 2.7, with version 7', async () => {
    const org = await createTestOrg(t);
    const res = await upload(t.app, { apiKey: org.apiKey, fields: baseFields({ origin_id: 'shape' }) });
    const body = res.json();
    expect(Object.keys(body)).toEqual([
      'version',
      'manuscript_id',
      'origin_id',
      'candidates',
      'authors_groups_settings',
      'debug_info',
    ]);
    expect(body).toEqual({
      version: 7,
      manuscript_id: expect.any(Number),
      origin_id: 'shape',
      candidates: null,
      authors_groups_settings: null,
      debug_info: {
        source_file: null,
        parsed_text_len: 0,
        parsed_references: 0,
        extracted_concepts: 0,
        authors_info: { authors_count: 0, emails_count: 0, orcids_count: 0 },
      },
    });
    expect(Number.isInteger(body.manuscript_id)).toBe(true);
  });
});
