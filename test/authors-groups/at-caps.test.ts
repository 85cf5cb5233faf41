// The author-from-group writes at their caps (a 1 MiB body of the longest affiliations the limits
// allow) under a name many corpus authors share: the linker compares the record's affiliations with
// the namesakes' by their words, not every pair of strings (hostile round 10).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { authorship, ingest, tempDir, work, writeLines } from '../corpus/helpers.ts';
import { orgWithGroup, postAuthor, getAuthor, type OrgWithGroup } from './helpers.ts';

const NAME = 'Wei Wang';
const NAMESAKES = 20;
const STATED = 10;
const COLLABORATORS = 1500;
const PAPERS = 200;

let t: TestApp;
let org: OrgWithGroup;

beforeAll(async () => {
  t = await createTestApp();
  org = await orgWithGroup(t);
  const works = [];
  for (let a = 0; a < NAMESAKES; a++) {
    for (let w = 0; w < STATED; w++) {
      works.push(
        work({
          authorships: [
            authorship(`https://openalex.org/A6${String(a).padStart(8, '0')}`, NAME, {
              raw_affiliation_strings: [`Institute ${a} ${w} of Corpus Studies, Corpus City`],
            }),
          ],
        }),
      );
    }
  }
  await ingest(t.db, 'works', [await writeLines(await tempDir(), 'namesakes.jsonl', works)]);
  // A large collaboration: COLLABORATORS authors (one of them named as the record) on every one of
  // PAPERS works.
  await t.db.query(
    `INSERT INTO authors (author_key, display_name, name_key)
     SELECT 'C' || i, CASE WHEN i = 1 THEN 'Li Zhang' ELSE 'Member ' || i || ' Collab' END,
            CASE WHEN i = 1 THEN 'zhang' ELSE 'collab' END
       FROM generate_series(1, $1::integer) i`,
    [COLLABORATORS],
  );
  await t.db.query(
    `INSERT INTO works (work_key, title, doi)
     SELECT 'CW' || i, 'Collaboration paper ' || i, '10.5555/collab.' || i FROM generate_series(1, $1::integer) i`,
    [PAPERS],
  );
  await t.db.query(
    `INSERT INTO authorships (work_id, position, author_id)
     SELECT w.id, row_number() OVER (PARTITION BY w.id ORDER BY a.id), a.id
       FROM works w JOIN authors a ON a.author_key LIKE 'C%' WHERE w.work_key LIKE 'CW%'`,
  );
});
afterAll(async () => {
  await t.close();
});

/** An affiliation of one segment of `length` characters (its core as long), different for each `i`. */
function longAffiliation(i: number, length: number): string {
  return `University of ${i} ${'hostile studies institute '.repeat(Math.ceil(length / 26))}`.slice(0, length);
}

describe('an author from group at the caps', () => {
  // No wall-clock budget here (a loaded machine must not fail a test): `npm run bench:hostile-authors`
  // measures these requests against the code before the fix; here they must answer, and link right.
  it('writes 500 affiliations of 2,000 characters under a shared name', async () => {
    const affiliations = Array.from({ length: 500 }, (_, i) => longAffiliation(i, 2000));
    for (const partial of [false, true]) {
      // Every string against every namesake's took ~10 s here (the core of each recomputed per pair).
      const res = await postAuthor(t, org, 'long', { name: NAME, affiliations }, partial);
      expect(res.statusCode).toBe(200);
    }
    const read = await getAuthor(t, org, 'long');
    expect(read.json()).toMatchObject({ affiliations, author: null });
  });

  it('still links by an affiliation held inside a long one, or holding a namesake’s', async () => {
    const filler = Array.from({ length: 300 }, (_, i) => longAffiliation(i, 1500));
    // A namesake's institute named inside a long affiliation of the record.
    const inside = `${'x '.repeat(200)}Institute 7 3 of Corpus Studies at Corpus City`;
    let res = await postAuthor(t, org, 'inside', { name: NAME, affiliations: [...filler, inside] });
    expect(res.statusCode).toBe(200);
    expect((await getAuthor(t, org, 'inside')).json().author).toMatchObject({ name: NAME });
    const linked = (await getAuthor(t, org, 'inside')).json().author.id as number;
    const { rows } = await t.db.query<{ author_key: string }>(
      'SELECT author_key FROM authors WHERE id = $1',
      [linked],
    );
    expect(rows[0]!.author_key).toBe('A600000007');
    // One namesake's whole institute, among 300 that match nobody.
    res = await postAuthor(t, org, 'equal', {
      name: NAME,
      affiliations: [...filler, 'Institute 12 0 of Corpus Studies'],
    });
    expect(res.statusCode).toBe(200);
    const equal = (await getAuthor(t, org, 'equal')).json().author.id as number;
    const found = await t.db.query<{ author_key: string }>('SELECT author_key FROM authors WHERE id = $1', [
      equal,
    ]);
    expect(found.rows[0]!.author_key).toBe('A600000012');
  });

  it('links by the works of a large collaboration without reading every authorship with its names', async () => {
    const articles = Array.from({ length: PAPERS }, (_, i) => `10.5555/collab.${i + 1}`);
    // Each authorship a row with the author's names, filed by copying its work's list: ~10 s here.
    const res = await postAuthor(t, org, 'collab', { name: 'Li Zhang', articles });
    expect(res.statusCode).toBe(200);
    const linked = (await getAuthor(t, org, 'collab')).json().author.id as number;
    const { rows } = await t.db.query<{ author_key: string }>(
      'SELECT author_key FROM authors WHERE id = $1',
      [linked],
    );
    expect(rows[0]!.author_key).toBe('C1');
  });
});
