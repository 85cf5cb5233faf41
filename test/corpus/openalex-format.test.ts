import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { ingest, OPENALEX } from './helpers.ts';
import { parseWork } from '../../src/corpus/openalex/openalex-work.ts';

let db: TestDatabase;
beforeEach(async () => {
  db = await createTestDatabase();
});
afterEach(async () => {
  await db.destroy();
});

describe('ingest works: the OpenAlex work format, field by field (real record W2741809807)', () => {
  it('stores ids, title, rebuilt abstract, year, type, source, counts, references and authorships', async () => {
    const report = await ingest(db, 'works', [path.join(OPENALEX, 'W2741809807.json')]);
    expect(report).toMatchObject({ records: 1, bad_count: 0 });
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT w.*, s.source_key, s.title AS source_title, s.type AS source_type, s.publisher, s.issn_l
         FROM works w JOIN sources s ON s.id = w.source_id WHERE work_key = 'W2741809807'`,
    );
    const w = rows[0]!;
    expect(w).toMatchObject({
      doi: '10.7717/peerj.4375',
      pmid: '29456894',
      arxiv_id: null,
      title: 'The state of OA: a large-scale analysis of the prevalence and impact of Open Access articles',
      publication_year: 2018,
      type: 'article',
      is_retracted: false,
      cited_by_count: 962,
      source_key: 'S1983995261',
      source_title: 'PeerJ',
      source_type: 'journal',
      publisher: 'PeerJ, Inc.',
      issn_l: '2167-8359',
    });
    // The inverted index rebuilt in word order.
    expect(
      String(w.abstract).startsWith(
        'Despite growing interest in Open Access (OA) to scholarly literature, there is an unmet need',
      ),
    ).toBe(true);
    expect(w.referenced_work_keys).toHaveLength(45);
    expect((w.referenced_work_keys as string[])[0]).toBe('W1560783210');

    const authors = await db.query<Record<string, unknown>>(
      `SELECT s.position, a.author_key, a.display_name, a.orcid, s.raw_affiliations, s.is_corresponding,
              ARRAY(SELECT i.name FROM institutions i WHERE i.id = ANY(s.institution_ids)) AS institutions
         FROM authorships s JOIN authors a ON a.id = s.author_id JOIN works w ON w.id = s.work_id
        WHERE w.work_key = 'W2741809807' ORDER BY s.position`,
    );
    expect(authors.rows.length).toBeGreaterThan(5);
    expect(authors.rows[0]).toMatchObject({
      position: 1,
      author_key: 'A5048491430',
      display_name: 'Heather Piwowar',
      orcid: '0000-0003-1613-5981',
      raw_affiliations: ['Impactstory, Sanford, NC, USA'],
      institutions: ['Impact Technology Development (United States)'],
      is_corresponding: false,
    });
    const inst = await db.query<Record<string, unknown>>(
      `SELECT country_code, normalized_name FROM institutions WHERE institution_key = 'I4210166736'`,
    );
    expect(inst.rows[0]).toEqual({
      country_code: 'US',
      normalized_name: 'impact technology development united states',
    });
  });
});

describe('ingest works: the R client variant (openalexPro, 200 real works with an `abstract` field)', () => {
  it('reads all 200, takes the abstract from the `abstract` field when there is no inverted index', async () => {
    const report = await ingest(db, 'works', [
      path.join(OPENALEX, 'openalexPro-biodiversity-finance-200works.jsonl'),
    ]);
    expect(report).toMatchObject({ records: 200, bad_count: 0 });
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT w.doi, w.title, w.abstract, w.publication_year, w.cited_by_count, s.title AS source
         FROM works w LEFT JOIN sources s ON s.id = w.source_id WHERE work_key = 'W4235089722'`,
    );
    expect(rows[0]).toMatchObject({
      doi: '10.1111/1468-2346.00131',
      title: 'Biodiversity Finance',
      publication_year: 2000,
      cited_by_count: 22,
      source: 'International Affairs',
    });
    expect(String(rows[0]!.abstract)).toMatch(
      /^The 1992 Convention on Biological Diversity \(CBD\) challenged/,
    );
    const counts = await db.query<{ with_abstract: number; with_pmid: number }>(
      `SELECT count(*) FILTER (WHERE abstract IS NOT NULL)::int AS with_abstract,
              count(*) FILTER (WHERE pmid IS NOT NULL)::int AS with_pmid FROM works`,
    );
    // 151 of the 200 records carry an abstract, 18 a PubMed id (counted in the file itself).
    expect(counts.rows[0]).toEqual({ with_abstract: 151, with_pmid: 18 });
    const author = await db.query<Record<string, unknown>>(
      `SELECT display_name, orcid FROM authors WHERE author_key = 'A5035075703'`,
    );
    expect(author.rows[0]).toEqual({ display_name: 'Michael C. Rubino', orcid: '0000-0002-6528-1179' });
  });
});

describe('ingest authors|sources|institutions: OpenAlex entity records', () => {
  it('reads the real author, source and institution records', async () => {
    await ingest(db, 'institutions', [path.join(OPENALEX, 'I27837315.json')]);
    await ingest(db, 'sources', [path.join(OPENALEX, 'S137773608.json')]);
    const a = await ingest(db, 'authors', [path.join(OPENALEX, 'A5023888391.json')]);
    expect(a.records).toBe(1);
    const inst = await db.query<Record<string, unknown>>(
      `SELECT name, country_code, normalized_name, alternative_names FROM institutions WHERE institution_key = 'I27837315'`,
    );
    expect(inst.rows[0]).toMatchObject({
      name: 'University of Michigan',
      country_code: 'US',
      normalized_name: 'university of michigan',
    });
    expect(inst.rows[0]!.alternative_names).toEqual(expect.arrayContaining(['UMich', 'UM']));
    const source = await db.query<Record<string, unknown>>(
      `SELECT title, type, publisher, issn_l FROM sources WHERE source_key = 'S137773608'`,
    );
    expect(source.rows[0]).toEqual({
      title: 'Nature',
      type: 'journal',
      publisher: 'Nature Portfolio',
      issn_l: '0028-0836',
    });
    const author = await db.query<Record<string, unknown>>(
      `SELECT display_name, orcid, name_variants, recent_affiliation FROM authors WHERE author_key = 'A5023888391'`,
    );
    expect(author.rows[0]).toEqual({
      display_name: 'Jason Priem',
      orcid: '0000-0001-6187-6610',
      name_variants: ['Jason Priem', 'Priem Jason'],
      recent_affiliation: 'OurResearch',
    });
  });

  it('rejects a record of the wrong kind as a bad record, not a failure', async () => {
    const report = await ingest(db, 'authors', [path.join(OPENALEX, 'S137773608.json')]);
    expect(report).toMatchObject({ records: 0, bad_count: 1 });
    expect(report.files[0]!.bad_records[0]).toEqual({
      line: 1,
      reason: 'id S137773608 is not an OpenAlex author id',
    });
  });
});

describe('authors a record lists twice', () => {
  const entry = (name: string, id?: string) => ({
    author_position: 'middle',
    author: { ...(id ? { id } : {}), display_name: name },
    raw_author_name: name,
    institutions: [],
  });
  const record = (authorships: unknown[]) => ({
    id: 'https://openalex.org/W1',
    title: 'A work',
    publication_year: 2020,
    authorships,
  });

  it('drops an authorship without an id that repeats, in another order, the name of one with an id', () => {
    const work = parseWork(
      record([
        entry('Ivan Bond', 'https://openalex.org/A1'),
        entry('Ann Lee', 'https://openalex.org/A2'),
        entry('Bond, Ivan'),
      ]),
    );
    expect(work.authors.map((a) => a.author_key)).toEqual(['A1', 'A2']);
  });

  it('keeps every authorship when all have ids, the same name in two orders included, and when none repeats', () => {
    const identified = parseWork(
      record([entry('Ivan Bond', 'https://openalex.org/A1'), entry('Bond, Ivan', 'https://openalex.org/A3')]),
    );
    expect(identified.authors.map((a) => a.author_key)).toEqual(['A1', 'A3']);
    const anonymous = parseWork(record([entry('Ivan Bond', 'https://openalex.org/A1'), entry('Jane Roe')]));
    expect(anonymous.authors).toHaveLength(2);
  });
});
