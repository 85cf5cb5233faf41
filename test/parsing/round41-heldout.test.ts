// Layouts met in the thirty-seventh and thirty-eighth held-out sets that rounds 39 and 40 left (a
// byline giving each author's institution in brackets after the name, one of them a collective
// named by its own name only), fixed in the forty-first round. Names, titles and identifiers are
// made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf } from './make-files.ts';

const limits = testConfig().parsing;

describe('a byline giving each author’s institution in brackets, one of them named by its own name only', () => {
  // Pandoc's author field: "Name (Institution)" a line, the lines in one block under the title.
  const file = () =>
    makeTextPdf([
      [
        { text: 'Weaving Numbers Into Cords', size: 17, x: 72, y: 760, bold: true },
        {
          text: 'Mara Quellen (The Institute For Sound And Media, Northvale Academy of Music, Lakeside)',
          size: 11,
          x: 72,
          y: 730,
          bold: true,
        },
        { text: 'Tomas Brandtner (Wavecraft Kernel)', size: 11, x: 72, y: 716, bold: true },
        { text: 'Abstract', size: 11, x: 72, y: 690, bold: true },
        ...bodyProse(672, 6),
        { text: 'Introduction', size: 11, x: 72, y: 580, bold: true },
        ...bodyProse(562, 20),
      ],
    ]);

  it('reads both names, without the brackets', async () => {
    const result = await parseManuscript(file(), 'bracketed.pdf', limits);
    expect(result.title).toBe('Weaving Numbers Into Cords');
    expect(result.authors.map((a) => a.name)).toEqual(['Mara Quellen', 'Tomas Brandtner']);
  });
});
