// Addresses in the corpus records' raw affiliation strings (corpus/authors/emails.ts), on real OpenAlex
// records: one string listing four World Bank addresses repeated on all eight authors of a work, and
// an address of one author written in another author's affiliation.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { attributeEmails, emailSpellsName, emailsIn } from '../../src/corpus/authors/emails.ts';
import { OPENALEX, ingest } from './helpers.ts';

let db: TestDatabase;
beforeEach(async () => {
  db = await createTestDatabase();
});
afterEach(async () => {
  await db.destroy();
});

const WORLD_BANK =
  'Stefano Pagiola, Paola Agostini, Cees de Haan, Juan Pablo Ruíz World Bank, 1818 H Str NW, Washington DC, ' +
  '20433, USA. spagiola@worldbank.org; pagostini@worldbank.org; cdehaan@worldbank.org; jruiz@worldbank.orgStefano ' +
  'Pagiola is a senior environmental economist';

describe('addresses in affiliation strings', () => {
  it('reads every address, without the text glued after the domain', () => {
    expect(emailsIn(WORLD_BANK)).toEqual([
      'spagiola@worldbank.org',
      'pagostini@worldbank.org',
      'cdehaan@worldbank.org',
      'jruiz@worldbank.org',
    ]);
    expect(emailsIn('FAIR @ Meta')).toEqual([]);
  });

  it('reads no address whose local part is longer than the standard allows, and reads long runs once', () => {
    expect(emailsIn(`Lab, ${'a'.repeat(64)}@uni.edu`)).toEqual([`${'a'.repeat(64)}@uni.edu`]);
    // Not its last 64 characters: the run is one local part, too long to be an address.
    expect(emailsIn(`Lab, ${'a'.repeat(65)}@uni.edu`)).toEqual([]);
    // A run read again from each of its characters took minutes at this length (4x per doubling);
    // read once, it takes milliseconds.
    const hostile = `${'a'.repeat(300_000)}@ ${'b'.repeat(300_000)}@${'c'.repeat(300_000)}`;
    expect(emailsIn(hostile)).toEqual([]);
    expect(emailsIn(`${hostile} x.y@lab.org`)).toEqual(['x.y@lab.org']);
  });

  it('gives each address to the one author whose name it spells, and none to the others', () => {
    const names = ['Stefano Pagiola', 'Paola Agostini', 'José Gobbi', 'C. de Haan', 'Muhammad Ibrahim'];
    const found = attributeEmails(
      names.map((name, i) => ({ authorId: i + 1, name, rawAffiliations: [WORLD_BANK] })),
    );
    expect(Object.fromEntries(found)).toEqual({
      1: ['spagiola@worldbank.org'],
      2: ['pagostini@worldbank.org'],
      4: ['cdehaan@worldbank.org'],
    });
    // "jruiz": Juan Pablo Ruíz, when he is on the work.
    const withRuiz = attributeEmails(
      ['José Gobbi', 'Juan Pablo Pizarro Ruiz'].map((name, i) => ({
        authorId: i + 1,
        name,
        rawAffiliations: [WORLD_BANK],
      })),
    );
    expect(Object.fromEntries(withRuiz)).toEqual({ 2: ['jruiz@worldbank.org'] });
  });

  it('an address two authors could own goes to neither', () => {
    const found = attributeEmails([
      { authorId: 1, name: 'Wei Li', rawAffiliations: ['Tsinghua University. li@tsinghua.example'] },
      { authorId: 2, name: 'Ming Li', rawAffiliations: [] },
    ]);
    expect(found.size).toBe(0);
    expect(emailSpellsName('alfonso.aguirre@conservaciondeislas.org', 'Alfonso Aguirre‐Muñoz')).toBe(true);
    expect(emailSpellsName('alfonso.aguirre@conservaciondeislas.org', 'Donald A. Croll')).toBe(false);
  });

  it('ingesting the real records fills the authors it names, and only them', async () => {
    await ingest(db, 'works', [path.join(OPENALEX, 'openalexPro-biodiversity-finance-200works.jsonl')]);
    const { rows } = await db.query<{ display_name: string; emails: string[] }>(
      `SELECT display_name, emails FROM authors WHERE emails <> '{}' ORDER BY display_name`,
    );
    const byName = new Map(rows.map((r) => [r.display_name, r.emails]));
    expect(byName.get('Stefano Pagiola')).toContain('spagiola@worldbank.org');
    expect(byName.get('Célia A. Harvey')).toEqual(['c.harvey@conservation.org']);
    expect(byName.get('Alfonso Aguirre‐Muñoz')).toEqual(['alfonso.aguirre@conservaciondeislas.org']);
    expect(byName.has('José Gobbi')).toBe(false);
    expect(byName.has('Donald A. Croll')).toBe(false);
    // A record listing each author twice (with an id, then "Family, Given" without) makes one author.
    const twice = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM authors WHERE display_name IN ('Bond, Ivan', 'Grieg-Gran, Maryanne')`,
    );
    expect(twice.rows[0]!.n).toBe(0);
    // Every address went to an author whose name it spells.
    for (const r of rows) for (const e of r.emails) expect(emailSpellsName(e, r.display_name)).toBe(true);
  });
});
