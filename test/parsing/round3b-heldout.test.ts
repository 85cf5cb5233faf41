// Layouts met in the measure half of the third held-out set, now fixed against: a byline holding a
// person known by one name (Interspeech), a placeholder byline of initials and lower-case words
// (Royal Society), emails in the institute notes at the foot of the title page (Springer's
// svjour3), numbered sample names and addresses printed after the article (VTeX, International Press).
// Names and text are made up; only the shapes follow the
// templates.
import { describe, expect, it } from 'vitest';
import { isMarkedNameLike, splitByline } from '../../src/parsing/names.ts';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf } from './make-files.ts';

const limits = testConfig().parsing;

type Line = Parameters<typeof makeTextPdf>[0][number][number];

const parse = (pages: Line[][]) => parseManuscript(makeTextPdf(pages), 'built.pdf', limits);

describe('a person known by one name in a byline (Interspeech)', () => {
  const page = (byline: string): Line[] => [
    { text: 'Listening to Dialects With Two Ears', size: 16, x: 150, y: 760, bold: true },
    { text: byline, size: 13, x: 130, y: 735, bold: true },
    { text: 'Department of Hearing, Somewhere University, Town, Country', size: 13, x: 110, y: 718 },
    {
      text: 'ann.carter@example.org, zubin77@example.org, cleo@example.org',
      size: 10,
      x: 120,
      y: 704,
      bold: true,
    },
    { text: 'Abstract', size: 13, x: 100, y: 680, bold: true },
    ...bodyProse(665),
  ];

  it('reads a single word set between two names as a name, and gives each its email in order', async () => {
    const result = await parse([page('Ann Carter, Zubin , Cleo Evans')]);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Ann Carter', ['ann.carter@example.org']],
      ['Zubin', ['zubin77@example.org']],
      ['Cleo Evans', ['cleo@example.org']],
    ]);
  });

  it('keeps a single word at the end of the list out: it may be an affiliation run on', async () => {
    const result = await parse([page('Ann Carter, Cleo Evans, Google')]);
    expect(result.authors.map((a) => a.name)).not.toContain('Google');
  });

  it('reads a long byline of one-word pieces in bounded time', async () => {
    const byline = Array.from({ length: 4000 }, (_, i) => (i % 2 ? 'Zubin' : 'Ann Carter')).join(', ');
    const result = await parse([page(byline)]);
    expect(result.title).toBe('Listening to Dialects With Two Ears');
  });
});

describe('a placeholder byline of initials and words in lower case (Royal Society)', () => {
  it('reads each marked entry that opens with initials as a name, across the wrapped line', async () => {
    const line = (pieces: { text: string; sup?: boolean }[], y: number): Line[] => {
      let x = 200;
      return pieces.map((p) => {
        const size = p.sup ? 9 : 13;
        const out = { text: p.text, size, x, y: p.sup ? y + 4 : y, bold: true };
        x += p.text.length * size * 0.5;
        return out;
      });
    };
    const result = await parse([
      [
        { text: 'Put the article title here', size: 19, x: 200, y: 700, bold: true },
        ...line(
          [
            { text: 'Y. Z. Lead writer' },
            { text: '1', sup: true },
            { text: ', Y. Other writer' },
            { text: '2', sup: true },
            { text: ' and' },
          ],
          670,
        ),
        ...line([{ text: 'Y. Last writer' }, { text: '3', sup: true }], 654),
        { text: 'Address of the lead writer', size: 10, x: 200, y: 630, bold: true },
        ...bodyProse(600),
      ],
    ]);
    expect(result.authors.map((a) => a.name)).toEqual([
      'Y. Z. Lead writer',
      'Y. Other writer',
      'Y. Last writer',
    ]);
  });

  it('weighs a long run of initials in bounded time, and calls it no name', () => {
    expect(isMarkedNameLike('X. '.repeat(50_000) + 'writer', true)).toBe(false);
  });
});

describe('institute notes at the foot of the title page, one per author (svjour3)', () => {
  it('gives each note’s email to the author its first line names by initials and surname', async () => {
    const result = await parse([
      [
        { text: 'Put your title here', size: 14, x: 72, y: 740, bold: true },
        { text: 'Alma Writer Jr. · Boris Writer', size: 10, x: 72, y: 710, bold: true },
        { text: 'Received: date / Accepted: date', size: 8, x: 72, y: 690 },
        { text: 'Abstract', size: 10, x: 72, y: 670, bold: true },
        ...bodyProse(655, 10),
        { text: 'A. Writer', size: 8, x: 72, y: 160 },
        { text: 'Some Street 12, Some Town, Country', size: 8, x: 72, y: 151 },
        { text: 'E-mail: awriter@example.com', size: 8, x: 72, y: 142 },
        { text: 'B. Writer', size: 8, x: 72, y: 126 },
        { text: 'Department of Counting, Other University, Other Town, Country', size: 8, x: 72, y: 117 },
        { text: 'Present address: Far Away Institute, Remote Place, Country', size: 8, x: 72, y: 104 },
        { text: 'E-mail: bwriter@example.org', size: 8, x: 72, y: 95 },
      ],
    ]);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Alma Writer Jr.', ['awriter@example.com']],
      ['Boris Writer', ['bwriter@example.org']],
    ]);
  });
});

describe('numbered sample names (VTeX)', () => {
  it('keeps the number printed on each word of the name, and marks raised after it apart', () => {
    const names = splitByline([
      { text: 'Givenname1 FAMILYNAME1', sup: false },
      { text: '1,∗', sup: true },
      { text: ', Givenname2 FAMILYNAME2', sup: false },
      { text: '2', sup: true },
    ]);
    expect(names.map((n) => [n.name, n.marks])).toEqual([
      ['Givenname1 FAMILYNAME1', ['1', '*']],
      ['Givenname2 FAMILYNAME2', ['2']],
    ]);
  });

  it('reads a numbered name with hyphens ("Given-Name1 Family-1") as a name when it carries marks', () => {
    expect(isMarkedNameLike('Given-Name1 Family-1', true)).toBe(true);
    expect(isMarkedNameLike('Given-Name1 Family-1', false)).toBe(false);
  });
});
