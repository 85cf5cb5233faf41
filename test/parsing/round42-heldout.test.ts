// Layouts met in the thirty-ninth held-out set (REVTeX papers of a collaboration citing arXiv ids,
// a pandoc Chicago notes-and-bibliography paper), fixed in the forty-second round. Names, titles
// and identifiers are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, piecesOnOneLine, textLine } from './make-files.ts';

const limits = testConfig().parsing;

describe('a numbered list broken by a figure set across the top of the next page, its blocks two lines each', () => {
  // A two-column letter's list: a full-width figure and its caption open the next page, and the
  // list goes on under it in blocks of two lines, each an entry's last line (its year in it) and
  // the next entry’s bracketed number, the blocks set apart by more space than their lines.
  const entry = (n: number) => `[${n}] A. Roe et al. (Lantern Collaboration), Phys. Rev. Lett.`;
  const rest = (n: number) => `${100 + n}, ${200000 + n} (20${10 + n}).`;
  const pairs = (from: number, to: number, top: number) =>
    Array.from({ length: to - from + 1 }, (_, k) => [
      { text: rest(from + k - 1), size: 9, x: 72, y: top - k * 32 },
      { text: entry(from + k), size: 9, x: 72, y: top - k * 32 - 11 },
    ]).flat();
  const file = () =>
    makeTextPdf([
      [
        { text: 'Lanterns in the Dark Sector at 12 GHz', size: 14, x: 72, y: 780, bold: true },
        ...bodyProse(740, 14),
        { text: 'References', size: 10, x: 72, y: 540, bold: true },
        { text: entry(1), size: 9, x: 72, y: 522 },
        ...pairs(2, 8, 511),
      ],
      [
        textLine(
          'FIG. 2. The limits on the coupling from the lantern data, with the earlier searches shown in the inset.',
          600,
          9,
        ),
        { text: 'The grey band shows the models allowed.', size: 9, x: 72, y: 589 },
        ...pairs(9, 16, 560),
        { text: rest(16), size: 9, x: 72, y: 560 - 8 * 32 },
      ],
    ]);

  it('reads the list on under the figure', async () => {
    const result = await parseManuscript(file(), 'lantern.pdf', limits);
    expect(result.references).toHaveLength(16);
  });
});

describe('REVTeX notes at the foot of the title page, a line each, each opened by its mark', () => {
  // The byline's marks raised and smaller, as REVTeX sets them (its ∗, †, ‡ are drawn here as the
  // *, § and ¶ the test's font can print: the rule reads any of them).
  const top = (byline: { text: string; sup?: boolean }[]) => [
    { text: 'Lanterns in the Dark Sector at 12 GHz', size: 14, x: 72, y: 780, bold: true },
    ...piecesOnOneLine(byline, 756, 10, { x: 150 }),
    textLine('1Department of Physics, Northvale University, Lakeside 12345, Freedonia', 740, 9, { x: 110 }),
    { text: '(Dated: May 11, 2022)', size: 9, x: 240, y: 726 },
    ...bodyProse(700, 8).map((l) => ({ ...l, size: 9, x: 90 })),
    ...bodyProse(580, 30).map((l) => ({ ...l, text: l.text.replace('section.', 'section') })),
  ];

  it('gives each address to the author its mark stands after, the title’s note aside', async () => {
    // A draft: the title's note, an author's second address, and the other author's email.
    const page = [
      ...top([
        { text: 'Ann Roe' },
        { text: '§', sup: true },
        { text: ' and Bo Poe' },
        { text: '¶', sup: true },
      ]),
      { text: '* A footnote to the article title', size: 8, x: 72, y: 120 },
      { text: '§ Also at Physics Department, Westfield College.', size: 8, x: 72, y: 110 },
      { text: '¶ lantern.desk@northvale.example', size: 8, x: 72, y: 100 },
    ];
    page[0] = { ...page[0]!, text: 'Lanterns in the Dark Sector at 12 GHz*' };
    const result = await parseManuscript(makeTextPdf([page]), 'draft.pdf', limits);
    expect(result.authors.map((a) => a.emails)).toEqual([[], ['lantern.desk@northvale.example']]);
  });

  it('reads two correspondence notes under a paragraph that runs on into the next column', async () => {
    const page = [
      ...top([
        { text: 'Ann Roe,' },
        { text: '1, *', sup: true },
        { text: ' Carl Dane,' },
        { text: '1', sup: true },
        { text: ' and Bo Poe' },
        { text: '1, §', sup: true },
      ]),
      textLine(
        'Several lantern experiments have searched the band. The most significant efforts are from',
        160,
      ),
      { text: '* Correspondence to: a1@nv.example', size: 8, x: 72, y: 110 },
      { text: '§ Correspondence to: b2@nv.example', size: 8, x: 72, y: 100 },
    ];
    const result = await parseManuscript(makeTextPdf([page]), 'letter.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Ann Roe', 'Carl Dane', 'Bo Poe']);
    expect(result.authors.map((a) => a.emails)).toEqual([['a1@nv.example'], [], ['b2@nv.example']]);
  });
});

describe('REVTeX preprint notes at the foot of the page that holds the abstract and the contents', () => {
  it('reads the address in the last of the notes, by its mark', async () => {
    const first = [
      { text: 'APS/123-QED', size: 10, x: 480, y: 800 },
      { text: 'Lanterns in the Dark Sector at 12 GHz*', size: 14, x: 110, y: 760, bold: true },
      ...piecesOnOneLine(
        [{ text: 'Ann Roe' }, { text: '§', sup: true }, { text: ' and Bo Poe' }, { text: '¶', sup: true }],
        730,
        11,
        { x: 220 },
      ),
      { text: 'Authors’ institution and/or address', size: 10, x: 210, y: 712 },
      { text: '(Lantern Collaboration)', size: 11, x: 240, y: 690 },
      { text: '(Dated: January 27, 2022)', size: 10, x: 235, y: 672 },
    ];
    const second = [
      { text: 'Abstract', size: 11, x: 270, y: 780, bold: true },
      ...bodyProse(760, 6).map((l) => ({ ...l, size: 11 })),
      { text: 'CONTENTS', size: 11, x: 260, y: 660 },
      ...Array.from({ length: 8 }, (_, k) => ({
        text: `${['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII'][k]}. Part number ${k + 1} of the paper ${3 + 2 * k}`,
        size: 11,
        x: 72,
        y: 640 - k * 16,
      })),
      { text: '* A footnote to the article title', size: 9, x: 72, y: 120 },
      { text: '§ Also at Physics Department, Westfield College.', size: 9, x: 72, y: 110 },
      { text: '¶ lantern.desk@northvale.example', size: 9, x: 72, y: 100 },
    ];
    const third = [
      { text: 'I. INTRODUCTION', size: 11, x: 72, y: 780 },
      ...bodyProse(760, 40).map((l) => ({ ...l, size: 11 })),
    ];
    const result = await parseManuscript(makeTextPdf([first, second, third]), 'preprint.pdf', limits);
    expect(result.authors.map((a) => a.emails)).toEqual([[], ['lantern.desk@northvale.example']]);
  });
});
