// Layouts met in the fifty-eighth held-out set (manuscripts from producers other than LaTeX and
// Word: Quarto through pandoc's LaTeX writer, Quarto through Typst), fixed in the sixty-third
// round. Names, titles and text are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, piecesOnOneLine, textLine } from './make-files.ts';

const limits = testConfig().parsing;

describe('an unlabelled abstract closed by a keywords line in its own block (Typst preprint)', () => {
  // The title, a byline with typed and raised marks, the affiliations, then the abstract in a type
  // a little smaller than the body's with no label, "Keywords: ..." set as its last line, and a
  // word count under it in bold.
  it('reads the prose over the keywords line as the abstract', async () => {
    const abstract = [
      'We count the stones of three river beds and compare their sizes over ten years of floods',
      'and droughts in the valley. The stones grow smaller as the floods grow, and the beds that',
      'flood most often hold the smallest stones of all. We give the counts of every year and',
      'every bed, with the method that made them, so that others may count their rivers too.',
    ];
    const pdf = makeTextPdf(
      [
        [
          textLine('Counting Stones in River Beds', 760, 15, { x: 160, bold: true }),
          textLine('over Ten Years of Floods', 742, 15, { x: 180, bold: true }),
          ...piecesOnOneLine(
            [{ text: 'Jane Roe¹' }, { text: '*', sup: true }, { text: ' & John Poe²' }],
            720,
            12.5,
            { x: 200 },
          ),
          textLine('¹Northvale University, Department of Rivers', 704, 11, { x: 170 }),
          textLine('²Southvale University, Department of Stones', 692, 11, { x: 170 }),
          ...abstract.map((t, k) => textLine(t, 664 - k * 11, 9.2, { x: 90 })),
          textLine('Keywords: stones, rivers, floods', 620, 9.2, { x: 90 }),
          textLine('Words: 4200', 609, 9.2, { x: 90, bold: true }),
          textLine('Introduction', 570, 12, { x: 250 }),
          ...bodyProse(550, 30),
        ],
      ],
      '',
      [],
      { winAnsi: true },
    );
    const result = await parseManuscript(pdf, 'typst-preprint.pdf', limits);
    expect(result.abstract).toBe(abstract.join(' '));
  });
});
