// The institutions a manuscript's stated affiliations name by another name (conflict-facts.ts), at the
// upload form's caps: 1,000 authors whose affiliations each write the same acronym many times. Each
// (part, author) is one entry, so the work grows with the form, not with its square (it was 20,000
// entries, each copied into a new list: 40 s of CPU for one upload). On a real database.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { institutionsNamedBy } from '../../src/referee-finder/conflict-facts.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.query(
    `INSERT INTO institutions (institution_key, name, normalized_name, alternative_names)
     VALUES ('I1', 'Massachusetts Institute of Technology', 'massachusetts institute of technology', '{MIT}')`,
  );
});
afterAll(async () => db.destroy());

it('names each stated institution once per author, however often the affiliation writes it', async () => {
  const affiliation = Array.from({ length: 20 }, (_, i) => `MIT, Lab ${i}`).join(', ');
  const authors = Array.from({ length: 1000 }, (_, k) => ({ name: `Author ${k}`, affiliation }));
  // The same author sent twice with the same affiliation states it once.
  authors.push({ name: 'Author 0', affiliation });
  const named = await institutionsNamedBy(db, authors);
  expect(named).toHaveLength(1000);
  expect(new Set(named.map((n) => n.author)).size).toBe(1000);
  expect(named[0]).toEqual({
    institutionId: expect.any(Number),
    institutionName: 'Massachusetts Institute of Technology',
    affiliation,
    author: 'Author 0',
  });
});

it('still names the institution of an affiliation that is the other name alone', async () => {
  const named = await institutionsNamedBy(db, [
    { name: 'Ada', affiliation: 'MIT' },
    { name: 'Bob', affiliation: null },
  ]);
  expect(named.map((n) => [n.author, n.affiliation])).toEqual([['Ada', 'MIT']]);
});

it('names the institution written between runs of separators, as between single ones', async () => {
  const affiliation = `${'('.repeat(900)}MIT${');,'.repeat(300)}`;
  const named = await institutionsNamedBy(db, [{ name: 'Ada', affiliation }]);
  expect(named.map((n) => [n.author, n.institutionName])).toEqual([
    ['Ada', 'Massachusetts Institute of Technology'],
  ]);
});
