// Layouts met in the thirty-ninth held-out set (REVTeX papers of a collaboration citing arXiv ids,
// a pandoc Chicago notes-and-bibliography paper), fixed in the forty-second round. Names, titles
// and identifiers are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf } from './make-files.ts';

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
        {
          text: 'FIG. 2. The limits on the coupling from the lantern data, with the earlier searches shown in the inset.',
          size: 9,
          x: 72,
          y: 600,
        },
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
