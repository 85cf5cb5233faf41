// Layouts met in the sixty-third held-out set (APA-style manuscripts: the apa7 class in manuscript
// and student modes through R Markdown, papaja, apaquarto, Quarto to Word), fixed in the sixty-eighth
// round. Names, titles and entries are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, textLine, type PdfTextLine } from './make-files.ts';

const limits = testConfig().parsing;

/** A double-spaced page of an APA manuscript: its running head, then `lines` 24 points apart. */
function apaPage(
  head: string,
  lines: { text: string; bold?: boolean; x?: number }[],
  top = 740,
): PdfTextLine[] {
  return [
    textLine(head, 800, 10),
    ...lines.map((l, i) => textLine(l.text, top - i * 24, 10, { x: l.x ?? 72, bold: l.bold })),
  ];
}

describe('tables and figures after the references, each labelled alone on its line (APA 7)', () => {
  const HEAD = 'TIDAL PEBBLES';
  // Hanging indents: an entry's first line at the margin, its other lines indented.
  const entries = [
    { text: 'Abel, J. Q., & Baker, R. T. (2019). Pebbles and the tide: A field study of sorting.' },
    { text: 'Journal of Coastal Stones, 12(3), 45–67. https://doi.org/10.5555/jcs.2019.003', x: 108 },
    { text: 'Carver, M. (2020). Shingle spits of the north. Northvale Press.' },
    { text: 'Dunn, P. L. (2021). Measuring pebbles at scale. Coastal Methods, 4, 1–19.' },
    { text: 'https://doi.org/10.5555/cm.2021.001', x: 108 },
  ];
  const pages = (label: string) => [
    [textLine('Tidal sorting of pebbles on shingle spits', 700, 12, { bold: true }), ...bodyProse(660, 40)],
    apaPage(HEAD, [{ text: 'References', bold: true, x: 260 }, ...entries]),
    apaPage(HEAD, [
      { text: label, bold: true },
      { text: 'Pebble Sizes by Band and Season' },
      { text: 'Band Season n Mean size (mm)' },
      { text: 'Upper Winter 44 18.8' },
      { text: 'Lower Summer 56 19.7' },
    ]),
  ];

  it('ends the list at the table on the next page', async () => {
    const result = await parseManuscript(makeTextPdf(pages('Table 1')), 'apa-man.pdf', limits);
    expect(result.references).toHaveLength(3);
    expect(result.references.map((r) => r.doi)).toEqual([
      '10.5555/jcs.2019.003',
      null,
      '10.5555/cm.2021.001',
    ]);
  });

  it('ends it so at a figure', async () => {
    const result = await parseManuscript(makeTextPdf(pages('Figure 2')), 'apa-man-figure.pdf', limits);
    expect(result.references).toHaveLength(3);
  });
});

describe("an APA student paper's title page: the course, the instructor and the due date under the affiliation", () => {
  const page = (course: string, instructor: string, date: string) =>
    apaPage('', [
      { text: 'Tidal Sorting of Pebbles on Shingle Spits', bold: true, x: 150 },
      { text: 'Jane Q. Roe', x: 250 },
      { text: 'Department of Geography, Northvale University', x: 170 },
      { text: course, x: 200 },
      { text: instructor, x: 240 },
      { text: date, x: 250 },
    ]);
  const body = apaPage('', [
    { text: 'Tidal Sorting of Pebbles on Shingle Spits', bold: true, x: 150 },
    ...bodyProse(0, 20).map((l) => ({ text: l.text })),
  ]);

  it('reads the student as the author, not the instructor or the course named without its number', async () => {
    const result = await parseManuscript(
      makeTextPdf([page('Coastal Processes', 'Dr. Amos T. Poe', 'March 31, 2021'), body]),
      'apa-stu.pdf',
      limits,
    );
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Q. Roe']);
  });

  it('reads it so under a course code in capitals, the due date typed as month and year parted by a comma', async () => {
    const result = await parseManuscript(
      makeTextPdf([page('PSY XXX', 'Prof. Amos T. Poe', 'March, 2021'), body]),
      'apa-stu-2.pdf',
      limits,
    );
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Q. Roe']);
  });
});
