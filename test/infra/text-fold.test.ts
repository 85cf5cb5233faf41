// One fold for every comparison of names and words (src/infra/text-fold.ts), and its SQL twin
// (migration 0104's fold_text, the dashboard's group search) folding the same way.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LETTER_FOLDS, foldAccents, foldWords } from '../../src/infra/text-fold.ts';
import { nameKey, namesCompatible } from '../../src/corpus/authors/names.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db.destroy());

// Latin letters with accents, every letter of the table in both cases, compatibility forms.
const SAMPLES = [
  'Goran Glavaš',
  'José Núñez',
  'Ayşe Yıldız',
  'İlker Işık',
  'Đorđe Đurić',
  'Þór Ðórðarson',
  'Søren Ærø',
  'Œuvre Bœuf',
  'Straße STRASSE',
  'Łukasz Żółć',
  'Nguyễn Thị Minh Khai',
  'ﬁle ﬂow',
  ...Object.keys(LETTER_FOLDS).flatMap((c) => [c, c.toUpperCase()]),
];

describe('text fold', () => {
  it('folds accents, compatibility forms and the letters NFKD leaves whole', () => {
    expect(foldAccents('Ünïcode ﬁle Ærø Straße Yıldız Đurić')).toBe('unicode file aero strasse yildiz duric');
    expect(foldAccents('Plain ASCII, Kept.')).toBe('plain ascii, kept.');
    for (const [letter, folded] of Object.entries(LETTER_FOLDS)) {
      expect(foldAccents(letter)).toBe(folded);
      expect(foldAccents(letter.toUpperCase())).toBe(folded);
    }
  });

  it('folds words: punctuation and runs of spaces to one space', () => {
    expect(foldWords('  Dr.  José   Pérez-Ruiz ')).toBe('dr jose perez ruiz');
    expect(foldWords('Smith  J')).toBe('smith j');
  });

  it('gives a name written with ı, đ or þ and its ASCII spelling one key, compatible both ways', () => {
    expect(nameKey('Ayşe Yıldız')).toBe(nameKey('Ayse Yildiz'));
    expect(nameKey('Đorđe Đorđević')).toBe(nameKey('Dorde Dordevic'));
    expect(namesCompatible('Ayse Yildiz', 'Ayşe Yıldız')).toBe(true);
    expect(namesCompatible('Đorđe Đurić', 'Dorde Duric')).toBe(true);
    expect(namesCompatible('Ayse Yildiz', 'Ayse Yilmaz')).toBe(false);
  });

  it('folds in SQL (fold_text) as in TypeScript', async () => {
    const { rows } = await db.query<{ t: string; folded: string }>(
      'SELECT t, fold_text(t) AS folded FROM unnest($1::text[]) AS t',
      [SAMPLES],
    );
    expect(rows.map((r) => [r.t, r.folded])).toEqual(SAMPLES.map((t) => [t, foldAccents(t)]));
  });
});

describe('text fold of runs of combining marks', () => {
  const MARKS = /\p{M}+/gu;
  /** The fold as it was: the whole text normalised, then its marks dropped. */
  const foldedWhole = (text: string) =>
    text
      .normalize('NFKD')
      .replace(MARKS, '')
      .toLowerCase()
      .replace(new RegExp(`[${Object.keys(LETTER_FOLDS).join('')}]`, 'g'), (c) => LETTER_FOLDS[c] ?? c);

  it('folds every code point as a normalisation of the whole text does, alone and among marks', () => {
    const differ: string[] = [];
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      for (const text of [c, `e\u0301${c}\u0316\u0301`, `\u0345\u0316${c}\u0308x`])
        if (foldAccents(text) !== foldedWhole(text)) differ.push(cp.toString(16));
    }
    expect(differ).toEqual([]);
  });

  it('never hands the normalisation a run of marks: one letter and 100,000 marks in reverse order', () => {
    // Normalising sorts a run of marks into canonical order by insertion: 21 s for this text.
    const text = `a${'\u0301'.repeat(50_000)}${'\u0316'.repeat(50_000)}`;
    // What each normalisation is given, kept (and the text given back as it was: only its input counts).
    const seen: string[] = [];
    const spy = vi.spyOn(String.prototype, 'normalize').mockImplementation(function (this: string) {
      seen.push(String(this));
      return String(this);
    });
    try {
      foldAccents(text);
    } finally {
      spy.mockRestore();
    }
    let longest = 0;
    for (const given of seen)
      for (const run of given.match(MARKS) ?? []) longest = Math.max(longest, run.length);
    expect(seen.length).toBeGreaterThan(0);
    expect(longest).toBe(0);
    expect(foldAccents(text)).toBe('a');
  });
});

describe('migration 0104', () => {
  it("re-keys the corpus's names that kept ı, đ, ð, þ or œ, and queues their authors for linking", async () => {
    const { readFile } = await import('node:fs/promises');
    const sql = await readFile(new URL('../../migrations/0104_fold_text.sql', import.meta.url), 'utf8');
    // Keys as the fold before 0104 wrote them.
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO authors (author_key, display_name, name_key) VALUES
         ('A1', 'Ayşe Yıldız', 'yıldız'), ('A2', 'Đorđe Đurić', 'đuric'), ('A3', 'Þór Œsterberg', 'œsterberg'),
         ('A4', 'Goran Glavaš', 'glavas') RETURNING id`,
    );
    await db.exec(sql);
    const keys = await db.query<{ id: number; name_key: string; pending: boolean }>(
      `SELECT a.id, a.name_key, p.author_id IS NOT NULL AS pending
         FROM authors a LEFT JOIN author_metrics_pending p ON p.author_id = a.id WHERE a.id = ANY($1) ORDER BY a.id`,
      [rows.map((r) => r.id)],
    );
    expect(keys.rows.map((r) => [r.name_key, r.pending])).toEqual([
      [nameKey('Ayşe Yıldız'), true],
      [nameKey('Đorđe Đurić'), true],
      [nameKey('Þór Œsterberg'), true],
      ['glavas', false],
    ]);
  });
});
