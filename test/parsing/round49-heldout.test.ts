// Layouts met in the forty-sixth held-out set (humanities and law: a law article cited in
// footnotes only, philosophy and classics essays with MLA bibliographies, a musicology
// dissertation draft with Chicago notes), fixed in the forty-ninth round. Names, titles and
// entries are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf } from './make-files.ts';

const limits = testConfig().parsing;

type PdfTextLine = Parameters<typeof makeTextPdf>[0][number][number];

/**
 * A hanging list (MLA, Chicago): each entry's first line flush at x 72, its others set in at 96,
 * 14 points apart, from `top` down.
 */
function hangingEntries(entries: string[][], top: number): PdfTextLine[] {
  const out: PdfTextLine[] = [];
  let y = top;
  for (const lines of entries)
    lines.forEach((text, k) => {
      out.push({ text, size: 11, x: k === 0 ? 72 : 96, y });
      y -= 14;
    });
  return out;
}

const ENTRIES = [
  ['Alder, Mara. The Keepers of the Northern Lights. Translated by Ivo Renn, Harbour', 'Press, 1990.'],
  ['---. Lanterns of the Island Parishes. Harbour Press, 1994.'],
  ['Birch, Tomas. "A Light on the Shore." Journal of Coastal Letters, vol. 4, no. 2,', '1987, pp. 11-30.'],
  ['Cole, Enid. Winter Watches: Essays on the Keepers. Northgate UP, 2001.'],
];

describe('a title page whose main title closes with a colon over its subtitle', () => {
  // humanize.cls and an article's \maketitle: the main title in bold small capitals, broken over
  // two lines and closed by a colon, then the subtitle in roman at the same size over more lines;
  // "By Name" beside the college under them.
  const file = () =>
    makeTextPdf([
      [
        { text: 'A Journal of the', size: 20, x: 210, y: 740, bold: true },
        { text: 'Lantern Keepers:', size: 20, x: 210, y: 716, bold: true },
        { text: 'A Walk with the Keepers along the Northern', size: 20, x: 90, y: 692 },
        { text: 'Shore of the Island Parishes', size: 20, x: 150, y: 668 },
        { text: 'By Mara Alder      Northgate College', size: 12, x: 170, y: 630 },
        { text: 'March 3rd, 2021', size: 12, x: 250, y: 610 },
        ...bodyProse(560, 30),
      ],
      bodyProse(780, 50),
    ]);

  it('reads the main title and the subtitle as one title', async () => {
    const result = await parseManuscript(file(), 'colon-title.pdf', limits);
    expect(result.title).toBe(
      'A Journal of the Lantern Keepers: A Walk with the Keepers along the Northern Shore of the Island Parishes',
    );
  });
});

describe('a bibliography headed as a chapter numbered with a zero after it', () => {
  // A book-class essay whose chapters are numbered like sections: "6.0 Conclusion", then
  // "7.0 Bibliography" over an MLA list.
  const file = () =>
    makeTextPdf([
      [
        { text: 'Lanterns and the Keepers of the Shore', size: 18, x: 72, y: 760, bold: true },
        ...bodyProse(700, 40),
      ],
      [{ text: '6.0 Conclusion', size: 14, x: 72, y: 780, bold: true }, ...bodyProse(750, 40)],
      [{ text: '7.0 Bibliography', size: 14, x: 72, y: 780, bold: true }, ...hangingEntries(ENTRIES, 750)],
    ]);

  it('reads the entries under it', async () => {
    const result = await parseManuscript(file(), 'chapter-zero-bibliography.pdf', limits);
    expect(result.references).toHaveLength(4);
    expect(result.references[0]!.raw).toMatch(/^Alder, Mara\. The Keepers/);
  });
});

describe('a note on the sources set under the heading of a hanging list', () => {
  // "All quotations are from ...": a paragraph of prose, every line flush, over the entries.
  const file = () =>
    makeTextPdf([
      [
        { text: 'Lanterns and the Keepers of the Shore', size: 18, x: 72, y: 760, bold: true },
        ...bodyProse(700, 40),
      ],
      [
        { text: '9 Bibliography', size: 14, x: 72, y: 780, bold: true },
        {
          text: "All quotations from the Keepers' letters are taken from the 1990 edition by Ivo",
          size: 11,
          x: 72,
          y: 752,
        },
        {
          text: 'Renn, whose numbering of the letters this essay follows throughout, as in the',
          size: 11,
          x: 72,
          y: 738,
        },
        { text: 'earlier studies of the northern parishes and their lanterns.', size: 11, x: 72, y: 724 },
        ...hangingEntries(ENTRIES, 700),
      ],
    ]);

  it('keeps the note out of the entries', async () => {
    const result = await parseManuscript(file(), 'note-over-list.pdf', limits);
    expect(result.references.map((r) => r.raw.slice(0, 12))).toEqual([
      'Alder, Mara.',
      '---. Lantern',
      'Birch, Tomas',
      'Cole, Enid. ',
    ]);
  });
});

describe('front matter numbered in roman numerals at the tops of its pages', () => {
  // A dissertation draft: its abstract page numbered "iv" at the top, then the contents page
  // numbered "v", under the same kind of number.
  const number = (text: string): PdfTextLine => ({ text, size: 11, x: 300, y: 800 });
  const file = () =>
    makeTextPdf([
      [
        { text: 'Lanterns of the Northern Shore', size: 20, x: 120, y: 600 },
        { text: 'by', size: 12, x: 290, y: 560 },
        { text: 'Mara Alder', size: 12, x: 260, y: 540 },
      ],
      [number('ii'), { text: 'Acknowledgements', size: 16, x: 72, y: 740, bold: true }, ...bodyProse(710, 3)],
      [
        number('iii'),
        { text: 'Abstract', size: 16, x: 72, y: 740, bold: true },
        {
          text: 'This study reads the letters of the keepers of the northern lanterns.',
          size: 11,
          x: 72,
          y: 710,
        },
      ],
      [
        number('iv'),
        { text: 'Contents', size: 16, x: 72, y: 740, bold: true },
        { text: 'Acknowledgements', size: 11, x: 72, y: 710, bold: true },
        { text: 'Abstract', size: 11, x: 72, y: 690, bold: true },
        { text: 'Introduction', size: 11, x: 72, y: 670, bold: true },
      ],
      [{ text: 'Introduction', size: 16, x: 72, y: 760, bold: true }, ...bodyProse(730, 50)],
    ]);

  it('ends the abstract at the next page’s heading: the numeral over it is no text', async () => {
    const result = await parseManuscript(file(), 'roman-front-matter.pdf', limits);
    expect(result.abstract).toBe('This study reads the letters of the keepers of the northern lanterns.');
  });
});
