// Layouts met in the twelfth held-out set, fixed in the fourteenth round: an abstract run in after an
// upper-case label and set in a face of its own ("ABSTRACT Measurement ...", Biophysical Journal's
// Quarto format), ending where the body's face comes back; Word drafts typed all in the body type
// with the title under a bare "Title:" label, or first with the first heading after the abstract's
// label; papaja's affiliation line "1 University" over an unlabelled abstract; pandoc's byline
// "Name, Institution (email)"; a headless "1.Name" list before a letter's Methods, and its summary
// paragraph in bold.
// Names and texts are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeDocx, makeTextPdf, paragraph } from './make-files.ts';

const limits = testConfig().parsing;

type PdfLine = Parameters<typeof makeTextPdf>[0][number][number];

const ABSTRACT_LINES = [
  'ABSTRACT Gardens in cold valleys were counted over ten seasons to learn how frost moves the',
  'dates of flowering. We found that the first frost of autumn came later each decade, and that',
  'early flowering plants gained the most from the change. The effect was larger in the north of',
  'the valleys than in the south, and it held when the altitude of each garden was allowed for.',
];

describe('an abstract run in after an upper-case label, in a face of its own (Biophysical Journal)', () => {
  const pdf = () => {
    const lines: PdfLine[] = [
      { text: 'Frost and the Flowering Dates of Valley Gardens', size: 16, x: 72, y: 780, bold: true },
      { text: 'Alma Quist1, Bruno Tell1', size: 10, x: 72, y: 755 },
      { text: '1Department of Botany, Northfield University, Northfield', size: 10, x: 72, y: 741 },
      ...ABSTRACT_LINES.map((text, k) => ({ text, size: 10, x: 72, y: 715 - k * 13, bold: true })),
      { text: 'All data are available in a public archive of the valley surveys.', size: 10, x: 72, y: 655 },
      ...bodyProse(625, 24),
    ];
    return makeTextPdf([lines]);
  };

  it('reads the abstract after the label and stops where the body face comes back', async () => {
    const result = await parseManuscript(pdf(), 'frost.pdf', limits);
    expect(result.abstract).toMatch(/^Gardens in cold valleys/);
    expect(result.abstract).toMatch(/allowed for\.$/);
    expect(result.abstract).not.toMatch(/public archive|Line 1 of the body/);
  });
});

describe('a Word draft typed all in the body type, with no Title style', () => {
  it('takes the title from the paragraph under a bare "Title:" label, without its quotation marks', async () => {
    const docx = makeDocx([
      paragraph('Title:'),
      paragraph('“Frost and the flowering dates of valley gardens: a ten-season count”'),
      paragraph('Abstract:'),
      paragraph(
        'Gardens in cold valleys were counted over ten seasons to learn how frost moves the dates of flowering. We found that the first frost came later each decade.',
      ),
      paragraph(
        'Counting gardens is an old pursuit of botanists in the northern valleys and the work goes back a century.',
      ),
      paragraph('Earlier counts', 'Heading1'),
      paragraph('The first counts were made by hand in notebooks that are kept in the valley archive.'),
    ]);
    const result = await parseManuscript(docx, 'frost.docx', limits);
    expect(result.title).toBe('Frost and the flowering dates of valley gardens: a ten-season count');
  });

  it('takes the first paragraph as title when the first heading comes after the abstract label', async () => {
    const docx = makeDocx([
      paragraph('The flowering dates of valley gardens'),
      paragraph('Alma Quist &amp; Bruno Tell'),
      paragraph('Northfield University'),
      paragraph(
        'Author note: AQ, Department of Botany, Northfield University. Correspondence concerning this article should be sent to alma.quist@northfield.example or bruno.tell@northfield.example.',
      ),
      paragraph('Abstract', 'Heading1'),
      paragraph(
        'Gardens in cold valleys were counted over ten seasons to learn how frost moves the dates of flowering. We found that the first frost came later each decade.',
      ),
      paragraph('Introduction', 'Heading1'),
      paragraph('Frost and flowering in the northern valleys', 'Heading1'),
      paragraph(
        'Counting gardens is an old pursuit of botanists in the northern valleys and the work goes back a century.',
      ),
    ]);
    const result = await parseManuscript(docx, 'gardens.docx', limits);
    expect(result.title).toBe('The flowering dates of valley gardens');
    expect(result.authors.map((a) => a.name)).toEqual(['Alma Quist', 'Bruno Tell']);
  });
});

describe('an unlabelled abstract under an affiliation line that opens with its mark (papaja, jou mode)', () => {
  it('reads "1 Northfield University" as an affiliation, not a numbered section heading', async () => {
    const abstractLines = [
      'Gardens in cold valleys were counted over ten seasons to learn how frost moves the dates of',
      'flowering in the northern valleys. We found that the first frost of autumn came later each',
      'decade, and that early flowering plants gained the most from the change over the period. The',
      'effect was larger in the north of the valleys than in the south, and it held when the altitude',
      'of each garden was allowed for in a model of the dates. We discuss what this means for the',
      'gardens that are planted in the valleys today and for the records that are kept of them.',
    ];
    const pdf = makeTextPdf([
      [
        { text: 'Frost and the Flowering Dates of Valley Gardens', size: 16, x: 72, y: 780 },
        { text: 'Alma Quist1 & Bruno Tell1', size: 12, x: 72, y: 755 },
        { text: '1 Northfield University', size: 10, x: 72, y: 735 },
        ...abstractLines.map((text, k) => ({ text, size: 9, x: 72, y: 705 - k * 11 })),
        { text: 'Keywords: frost, flowering, gardens', size: 9, x: 72, y: 630 },
        ...bodyProse(605, 30),
      ],
    ]);
    const result = await parseManuscript(pdf, 'gardens.pdf', limits);
    expect(result.abstract).toMatch(/^Gardens in cold valleys/);
    expect(result.abstract).toMatch(/records that are kept of them\.$/);
  });
});

describe('one author a line with the affiliation and the address run on (pandoc Markdown to LaTeX)', () => {
  const pdf = (byline: string) =>
    makeTextPdf([
      [
        { text: 'Frost and the Flowering Dates of Valley Gardens', size: 17, x: 72, y: 780 },
        { text: byline, size: 12, x: 72, y: 752 },
        { text: 'March 2026', size: 12, x: 72, y: 726 },
        { text: 'Abstract', size: 12, x: 72, y: 705, bold: true },
        ...bodyProse(685, 30),
      ],
    ]);

  it('reads the name before the comma and gives it the address in parentheses', async () => {
    const result = await parseManuscript(
      pdf('Alma R. Quist, Valley Gardens Trust (Alma.Quist@valleytrust.example)'),
      'gardens.pdf',
      limits,
    );
    expect(result.authors.map((a) => a.name)).toEqual(['Alma R. Quist']);
    expect(result.authors[0]!.emails).toEqual(['Alma.Quist@valleytrust.example']);
  });

  it('leaves a line of two names alone when the address spells neither out', async () => {
    const result = await parseManuscript(
      pdf('Alma R. Quist, Bruno Tell (office@valleytrust.example)'),
      'gardens.pdf',
      limits,
    );
    expect(result.authors.map((a) => a.name)).not.toEqual(['Alma R. Quist']);
  });
});

describe('a Word letter whose numbered list has no heading and stands before its Methods', () => {
  it('reads the "1.Name" entries as the reference list, though the Methods fill the second half', async () => {
    const prose = (k: number) =>
      paragraph(
        `Paragraph ${k} of the text tells what was counted in the gardens and why the count matters to the valleys and to the people who plant them.`,
      );
    const docx = makeDocx([
      paragraph('Frost and the flowering dates of valley gardens', 'Title'),
      paragraph('Alma Quist &amp; Bruno Tell'),
      ...Array.from({ length: 6 }, (_, k) => prose(k + 1)),
      paragraph('Received 3 March 2025; accepted 9 June 2025'),
      ...Array.from({ length: 12 }, (_, k) =>
        paragraph(
          ` ${k + 1}.Abbot, A. &amp; Berry, B. Frost dates in cold valleys, part ${k + 1}. J. Valley Stud. ${k + 3}, 11–19 (20${10 + k}).`,
        ),
      ),
      paragraph('Methods', 'Heading1'),
      ...Array.from({ length: 30 }, (_, k) => prose(k + 7)),
    ]);
    const result = await parseManuscript(docx, 'letter.docx', limits);
    expect(result.references).toHaveLength(12);
  });
});

describe('an unlabelled summary paragraph in bold over the body in plain type (a Word letter)', () => {
  it('reads the bold paragraph as the abstract', async () => {
    const bold = (text: string) =>
      `<w:p><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
    const summary =
      'Gardens in cold valleys were counted over ten seasons to learn how frost moves the dates of flowering. We found that the first frost of autumn came later each decade, and that early flowering plants gained the most from the change. The effect held when the altitude of each garden was allowed for.';
    const docx = makeDocx([
      paragraph('Frost and the flowering dates of valley gardens', 'Title'),
      paragraph('Alma Quist &amp; Bruno Tell'),
      paragraph('*e-mail: alma.quist@northfield.example'),
      bold(summary),
      ...Array.from({ length: 8 }, (_, k) =>
        paragraph(
          `Paragraph ${k + 1} of the text tells what was counted in the gardens and why the count matters to the valleys and to the people who plant them, season after season, in the cold of the north and the warmth of the south.`,
        ),
      ),
    ]);
    const result = await parseManuscript(docx, 'letter.docx', limits);
    expect(result.abstract).toBe(summary);
  });
});
