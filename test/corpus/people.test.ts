// One person, one candidate: which corpus records are one researcher (corpus/authors/people.ts), on real
// ACL Anthology records (one person written three ways, five namesakes who share co-authors), and the
// rule's limits on made-up ones.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { groupPeople, linkPeople, type AuthorRecord } from '../../src/corpus/authors/people.ts';
import { peopleRelinkCommand } from '../../src/corpus/commands.ts';
import { testConfig } from '../helpers/app.ts';
import { FIXTURES, authorship, ingest, tempDir, work, writeLines } from './helpers.ts';

let db: TestDatabase;
beforeEach(async () => {
  db = await createTestDatabase();
});
afterEach(async () => {
  await db.destroy();
});

const ACL_PEOPLE = path.join(FIXTURES, 'acl-people', 'works.jsonl');

async function personOf(key: string): Promise<number> {
  const { rows } = await db.query<{ person: number }>(
    'SELECT coalesce(person_id, id) AS person FROM authors WHERE author_key = $1',
    [key],
  );
  return rows[0]!.person;
}

async function row(key: string) {
  const { rows } = await db.query<{
    articles_count: number;
    h_index: number;
    first_publication_year: number;
  }>('SELECT articles_count, h_index, first_publication_year FROM authors WHERE author_key = $1', [key]);
  return rows[0]!;
}

const DEREK = ['acl:person/derek-f-wong', 'acl:person/derek-wong', 'acl:person/derek-fai-wong'];
const YANG_LIU = [
  'acl:person/yang-liu',
  'acl:person/yang-liu-ict',
  'acl:person/yang-liu-edinburgh',
  'acl:person/yang-liu-microsoft',
  'acl:person/yang-liu-icsi',
];

describe('people on real ACL Anthology records', () => {
  it('"Derek F. Wong", "Derek Wong" and "Derek Fai Wong" are one person, with one set of metrics', async () => {
    await ingest(db, 'works', [ACL_PEOPLE]);
    const persons = await Promise.all(DEREK.map(personOf));
    expect(new Set(persons).size).toBe(1);
    // The person's metrics count the works of all three records (48 works, none shared).
    for (const key of DEREK) expect((await row(key)).articles_count).toBe(48);
  });

  it('five namesakes called "Yang Liu" stay five people, though they share co-authors', async () => {
    await ingest(db, 'works', [ACL_PEOPLE]);
    const persons = await Promise.all(YANG_LIU.map(personOf));
    expect(new Set(persons).size).toBe(YANG_LIU.length);
  });

  it("'refmatch people relink' rebuilds the people of a corpus loaded before them, as the ingest linked them", async () => {
    await ingest(db, 'works', [ACL_PEOPLE]);
    const persons = 'SELECT id, person_id FROM authors WHERE person_id IS NOT NULL ORDER BY id';
    const linkedByIngest = (await db.query(persons)).rows;
    await db.query('UPDATE authors SET person_id = NULL');
    const report = await peopleRelinkCommand.run(
      { config: testConfig(), db, progress: () => {} },
      {} as Record<string, never>,
    );
    expect(report.authors_relinked).toBeGreaterThanOrEqual(3);
    expect(new Set(await Promise.all(DEREK.map(personOf))).size).toBe(1);
    expect(new Set(await Promise.all(YANG_LIU.map(personOf))).size).toBe(YANG_LIU.length);
    // Both decide over the same name keys (those where a link can be made), so the same people.
    expect((await db.query(persons)).rows).toEqual(linkedByIngest);
    // Running it again changes nothing.
    const again = await peopleRelinkCommand.run(
      { config: testConfig(), db, progress: () => {} },
      {} as Record<string, never>,
    );
    expect(again.authors_relinked).toBe(0);
  });

  /**
   * "Kate Knill" and "Kate M. Knill" share no co-author record, only a person: Mark's two records,
   * one person by their shared co-author Phil Woodland. Returns the records' ids by role.
   */
  async function ingestChain(
    markFamily: string,
    extra: (url: (id: string) => string, phil: string) => unknown[] = () => [],
  ) {
    const dir = await tempDir();
    const url = (id: string) => `https://openalex.org/${id}`;
    const ids = { M1: 'A67700001', M2: 'A67700002', P: 'A67700003', K1: 'A67700004', K2: 'A67700005' };
    const [mark, markJF] = [`Mark ${markFamily}`, `Mark J. F. ${markFamily}`];
    await ingest(db, 'works', [
      await writeLines(dir, 'w.jsonl', [
        work({ authorships: [authorship(url(ids.M1), mark), authorship(url(ids.P), 'Phil Woodland')] }),
        work({ authorships: [authorship(url(ids.M2), markJF), authorship(url(ids.P), 'Phil Woodland')] }),
        work({ authorships: [authorship(url(ids.K1), 'Kate Knill'), authorship(url(ids.M1), mark)] }),
        work({ authorships: [authorship(url(ids.K2), 'Kate M. Knill'), authorship(url(ids.M2), markJF)] }),
        ...extra(url, ids.P),
      ]),
    ]);
    return ids;
  }

  it('co-authors count as the people they turn out to be: one ingest links what a second relink would', async () => {
    // All four are decided in one pass, which reads co-authors as their persons before it has made any.
    const { M1, M2, K1, K2 } = await ingestChain('Gales');
    expect(await personOf(M1)).toBe(await personOf(M2));
    expect(await personOf(K1)).toBe(await personOf(K2));
    const again = await peopleRelinkCommand.run(
      { config: testConfig(), db, progress: () => {} },
      {} as Record<string, never>,
    );
    expect(again.authors_relinked).toBe(0);
  });

  it('where the passes split does not change the people: one name key a pass gives what one pass gives', async () => {
    // The chain across passes: name keys are decided in their order, so "knill" comes before
    // "zeller" and reads Mark Zeller's two records as two people; only a later round, over the
    // records decided before a co-author's person changed, links Kate Knill.
    const [Q1, Q2] = ['A67700006', 'A67700007'];
    const { K1, K2 } = await ingestChain('Zeller', (url, phil) => [
      // Namesakes in Knill's name key, outside the chain, keep their own decision: two people.
      work({
        authorships: [authorship(url(Q1), 'Quentin Knill'), authorship(url(phil), 'Phil Woodland')],
      }),
      work({ authorships: [authorship(url(Q2), 'Quentin Knill')] }),
    ]);
    const persons = 'SELECT id, person_id FROM authors WHERE person_id IS NOT NULL ORDER BY id';
    const onePass = (await db.query(persons)).rows;
    expect(await personOf(K1)).toBe(await personOf(K2));
    expect(await personOf(Q1)).not.toBe(await personOf(Q2));
    await db.query('UPDATE authors SET person_id = NULL');
    // A pass a name key: "knill", "woodland", then "zeller".
    const split = await linkPeople(db, 'all', 1);
    expect(split.authors_relinked).toBe(onePass.length);
    expect((await db.query(persons)).rows).toEqual(onePass);
    expect((await linkPeople(db, 'all', 1)).authors_relinked).toBe(0);
    expect((await linkPeople(db, 'all')).authors_relinked).toBe(0);
  });

  it('a later ingest joins a new record of a known person, and the metrics follow', async () => {
    const dir = await tempDir();
    // Stored by their OpenAlex ids, without the URL.
    const A = 'A66600001';
    const B = 'A66600002';
    const CO = 'A66600003';
    const url = (id: string) => `https://openalex.org/${id}`;
    await ingest(db, 'works', [
      await writeLines(dir, 'a.jsonl', [
        work({
          publication_year: 2010,
          cited_by_count: 4,
          authorships: [authorship(url(A), 'Marta Q. Kovalenko'), authorship(url(CO), 'Ivo Coauthor')],
        }),
        work({
          publication_year: 2012,
          cited_by_count: 4,
          authorships: [authorship(url(A), 'Marta Q. Kovalenko')],
        }),
      ]),
    ]);
    expect((await row(A)).h_index).toBe(2);
    await ingest(db, 'works', [
      await writeLines(dir, 'b.jsonl', [
        work({
          publication_year: 2020,
          cited_by_count: 3,
          authorships: [authorship(url(B), 'Marta Quinn Kovalenko'), authorship(url(CO), 'Ivo Coauthor')],
        }),
      ]),
    ]);
    expect(await personOf(A)).toBe(await personOf(B));
    for (const key of [A, B]) {
      const m = await row(key);
      expect(m.articles_count).toBe(3);
      expect(m.h_index).toBe(3);
      expect(m.first_publication_year).toBe(2010);
    }
  });
});

function rec(id: number, name: string, facts: Partial<AuthorRecord> = {}): AuthorRecord {
  return {
    id,
    name,
    orcid: null,
    works: new Set([id * 100]),
    coauthors: new Set(),
    affiliations: [],
    ...facts,
  };
}

describe('the rule', () => {
  const co = new Set([901, 902]);
  it('same ORCID: one person, whatever the names', () => {
    expect(groupPeople([rec(1, 'Ann Lee', { orcid: 'X' }), rec(2, 'A. Lee-Smith', { orcid: 'X' })])).toEqual([
      [1, 2],
    ]);
  });
  it('different ORCIDs: never', () => {
    expect(
      groupPeople([
        rec(1, 'Ann Lee', { orcid: 'X', coauthors: co }),
        rec(2, 'Ann B. Lee', { orcid: 'Y', coauthors: co }),
      ]),
    ).toEqual([]);
  });
  it('compatible names need a shared co-author or affiliation', () => {
    expect(groupPeople([rec(1, 'Ann Lee'), rec(2, 'Ann B. Lee')])).toEqual([]);
    expect(
      groupPeople([rec(1, 'Ann Lee', { coauthors: co }), rec(2, 'Ann B. Lee', { coauthors: co })]),
    ).toEqual([[1, 2]]);
    expect(
      groupPeople([
        rec(1, 'Ann Lee', { affiliations: ['university of macau'] }),
        rec(2, 'Ann B. Lee', { affiliations: ['university of macau'] }),
      ]),
    ).toEqual([[1, 2]]);
  });
  it('an initial needs more: one shared co-author is not enough', () => {
    const one = new Set([901]);
    expect(
      groupPeople([rec(1, 'Ann Lee', { coauthors: one }), rec(2, 'A. Lee', { coauthors: one })]),
    ).toEqual([]);
    expect(groupPeople([rec(1, 'Ann Lee', { coauthors: co }), rec(2, 'A. Lee', { coauthors: co })])).toEqual([
      [1, 2],
    ]);
  });
  it('the same written name in two records: never (the catalogue kept them apart)', () => {
    expect(
      groupPeople([rec(1, 'Yang Liu', { coauthors: co }), rec(2, 'Yang Liu', { coauthors: co })]),
    ).toEqual([]);
  });
  it('two records on one work: never', () => {
    const w = new Set([5]);
    expect(
      groupPeople([
        rec(1, 'Ann Lee', { coauthors: co, works: w }),
        rec(2, 'Ann B. Lee', { coauthors: co, works: w }),
      ]),
    ).toEqual([]);
  });
  it('a name that fits two people joins neither ("J. Smith" between John and Jane)', () => {
    const people = groupPeople([
      rec(1, 'John Smith', { coauthors: co }),
      rec(2, 'Jane Smith', { coauthors: co }),
      rec(3, 'J. Smith', { coauthors: co }),
    ]);
    expect(people).toEqual([]);
  });
  it('a short name whose works point to two people joins neither ("Wei Zhang")', () => {
    const people = groupPeople([
      rec(1, 'Wei Zhang', { coauthors: co, affiliations: ['tsinghua university'] }),
      rec(2, 'Wei-Qiang Zhang', { coauthors: co, affiliations: ['tsinghua university'] }),
      rec(3, 'Wei-Nan Zhang', { coauthors: co }),
    ]);
    expect(people).toEqual([]);
    // Beside a second fuller name its works do not point to, it joins the one they do.
    expect(
      groupPeople([
        rec(1, 'Thien Nguyen', { coauthors: co }),
        rec(2, 'Thien Huu Nguyen', { coauthors: co }),
        rec(3, 'Thien Hai Nguyen', { coauthors: new Set([903]) }),
      ]),
    ).toEqual([[1, 2]]);
    // Alone beside one fuller name, it joins it.
    expect(
      groupPeople([rec(1, 'Thien Nguyen', { coauthors: co }), rec(2, 'Thien Huu Nguyen', { coauthors: co })]),
    ).toEqual([[1, 2]]);
  });
  it('the first part of a hyphenated given name alone is weaker, as an initial is; its parts written together are not', () => {
    // "Wei Zhang" for "Wei-Qiang Zhang": one shared co-author is not enough, two are.
    expect(
      groupPeople([
        rec(1, 'Wei Zhang', { coauthors: new Set([901]) }),
        rec(2, 'Wei-Qiang Zhang', { coauthors: new Set([901]) }),
      ]),
    ).toEqual([]);
    expect(
      groupPeople([rec(1, 'Wei Zhang', { coauthors: co }), rec(2, 'Wei-Qiang Zhang', { coauthors: co })]),
    ).toEqual([[1, 2]]);
    // "Weinan" is "Wei-Nan" written together: one shared co-author, as for any full name.
    expect(
      groupPeople([
        rec(1, 'Weinan Zhang', { coauthors: new Set([901]) }),
        rec(2, 'Wei-Nan Zhang', { coauthors: new Set([901]) }),
      ]),
    ).toEqual([[1, 2]]);
    expect(
      groupPeople([
        rec(1, 'Weinan Zhang', { coauthors: new Set([901]) }),
        rec(2, 'Wei-Nan Zhang', { coauthors: new Set([902]) }),
      ]),
    ).toEqual([]);
    // In a block of one family name and first initial the pairing meets both forms.
    expect(
      groupPeople([
        rec(1, 'Wei-Nan Zhang', { coauthors: co }),
        rec(2, 'Weinan Zhang', { coauthors: co }),
        rec(3, 'Wei Ming Zhang', { coauthors: new Set([950]) }),
      ]),
    ).toEqual([[1, 2]]);
  });
});
