import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { DEMO_CORPUS, ensureDemoCorpus } from '../../src/corpus/ingest/demo-corpus.ts';
import { existsSync, statSync } from 'node:fs';
import { FIXTURES } from './helpers.ts';

let db: TestDatabase;
beforeEach(async () => {
  db = await createTestDatabase();
});
afterEach(async () => {
  await db.destroy();
});

describe('demo corpus', () => {
  it('ships in the repository, under 10 MB, with its attribution', () => {
    expect(existsSync(DEMO_CORPUS)).toBe(true);
    expect(statSync(DEMO_CORPUS).size).toBeLessThanOrEqual(10 * 1024 * 1024);
    expect(existsSync(path.join(path.dirname(DEMO_CORPUS), 'README.md'))).toBe(true);
  });

  it('is ingested when the corpus is empty, and not again once it holds works', async () => {
    // A small file stands in for the demo corpus: the rule, not the 10,000 works, is under test.
    const lines: string[] = [];
    const file = path.join(FIXTURES, 'corpus/yang-liu-acl.jsonl');
    await ensureDemoCorpus(db, (l) => lines.push(l), file);
    expect(lines[0]).toMatch(/^Loading the demo corpus/);
    expect(lines.at(-1)).toMatch(/^Demo corpus loaded: 8 works/);
    const again: string[] = [];
    await ensureDemoCorpus(db, (l) => again.push(l), file);
    expect(again).toEqual([]);
  });
});
