// How titles from reference lists and group records meet the corpus's titles (migration 0034): one
// folding rule, applied by the database to both sides, served by one index. The three matchers that
// use it (conflict check, journal recommendation, author linking) are tested end to end in their own
// files; this file holds the rule itself and the index each of their queries must use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { CITED_WORKS } from '../../src/journals/store.ts';
import { WORKS_OF_ARTICLES } from '../../src/corpus/authors/linking.ts';
import { CITED_WORK_IDS, WORKS_BY_TITLE_HEADS } from '../../src/referee-finder/conflict-facts.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db.destroy());

async function key(title: string | null): Promise<string | null> {
  const { rows } = await db.query<{ key: string | null }>('SELECT title_key($1) AS key', [title]);
  return rows[0]!.key;
}

describe('title_key', () => {
  it('folds case, punctuation and spacing, as reference lists change them', async () => {
    const corpus = await key(
      'BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding',
    );
    expect(corpus).toBe('bert pre training of deep bidirectional transformers for language understanding');
    for (const asCited of [
      'BERT - pre-training of deep bidirectional transformers for language understanding.',
      'Bert: Pre- training of deep  bidirectional transformers for language understanding',
      '“BERT”: pre-training of deep bidirectional transformers\nfor language understanding?',
    ]) {
      expect(await key(asCited)).toBe(corpus);
    }
  });

  it('keeps letters beyond ASCII and digits, and finds nothing in punctuation alone', async () => {
    expect(await key('Élan-Vital: García López 2.0')).toBe('élan vital garcía lópez 2 0');
    expect(await key(' -- ... ')).toBeNull();
    expect(await key(null)).toBeNull();
  });

  it('keeps words apart: different titles stay different', async () => {
    expect(await key('Deep learning for parsing')).not.toBe(await key('Deep learning for parsing 2'));
    expect(await key('Pre-training')).not.toBe(await key('Pretraining'));
  });
});

describe('the title look-ups use the works_title_key_idx index', () => {
  // Forced off sequential scans, the planner can use the index only if the query's expression is
  // the index's; a query that folded titles any other way could not (with many candidates, or none
  // for journals and linking, it would read every work).
  async function plan(sql: string, params: unknown[]): Promise<string> {
    return db.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
  }
  const titles = ['Graph transformers - message passing over molecular conformers'];

  it('the conflict check of cited works', async () => {
    expect(await plan(CITED_WORK_IDS, [[], titles])).toContain('works_title_key_idx');
  });

  it("the conflict check's titles written in a reference's text, by their first words (works_title_head_idx)", async () => {
    expect(await plan(WORKS_BY_TITLE_HEADS, [['Graph transformers message'], [1, 2]])).toContain(
      'works_title_head_idx',
    );
  });

  it("journal recommendation's cited works", async () => {
    expect(await plan(CITED_WORKS, [[null], titles])).toContain('works_title_key_idx');
  });

  it("author linking by a group record's articles", async () => {
    expect(
      await plan(WORKS_OF_ARTICLES, [
        [],
        [],
        [],
        ['graph transformers message passing over molecular conformers'],
      ]),
    ).toContain('works_title_key_idx');
  });
});
