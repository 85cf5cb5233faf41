// Layouts met in the thirteenth held-out set, fixed in the fifteenth round: a submission to Word that
// prints a block of declarations above the abstract ("Abstract word count: 300 words", "Summary
// statement: ..."), then an "Abstract" heading over a structured abstract whose parts have headings
// of their own in bold ("Background", then its paragraph); a Word file in a Cell Press layout whose
// bold title sits over a marked byline, with a larger first-level heading ("SCIENCE FOR SOCIETY")
// before the summary; an elsarticle "Email addresses:" footnote that runs on to the foot of page 2.
// Names and texts are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import {
  bodyProse,
  docxParagraph,
  docxRun,
  makeDocx,
  makeTextPdf,
  paragraph,
  textLine,
} from './make-files.ts';

const limits = testConfig().parsing;

/** A paragraph of one bold run: a structured abstract's part heading set by hand. */
const bold = (text: string) =>
  docxParagraph(`<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r>`, 'BodyText');

const declarations = [
  paragraph('Declarations', 'Heading2'),
  paragraph('Trial registration: Not applicable', 'BodyText'),
  paragraph('Abstract word count: 250 words', 'BodyText'),
  paragraph('Total word count: 3100 words', 'BodyText'),
  paragraph('Number of figures: 3', 'BodyText'),
  paragraph(
    'Summary statement: Gardeners should expect the first frost a week later than a century ago.',
    'BodyText',
  ),
  paragraph('Funding statement: No outside funding was received for this count.', 'BodyText'),
];

const structured = [
  bold('Background'),
  paragraph('Frost dates decide when valley gardens flower. We asked how far they have moved.', 'BodyText'),
  bold('Methods'),
  paragraph(
    'Gardens in cold valleys were counted over ten seasons, with the altitude of each noted.',
    'BodyText',
  ),
  bold('Results'),
  paragraph('The first frost of autumn came later each decade, most of all in the north.', 'BodyText'),
  bold('Conclusion'),
  paragraph('Early flowering plants gained the most from the later frosts.', 'BodyText'),
];

const body = [
  paragraph('Introduction', 'Heading2'),
  paragraph('Counting gardens is an old pursuit of botanists and the work goes back a century.', 'BodyText'),
  paragraph('Methods', 'Heading2'),
  paragraph('The counts were made by hand in notebooks kept in the valley archive.', 'BodyText'),
];

const front = [
  paragraph('Frost and the flowering dates of valley gardens', 'Title'),
  paragraph('Alma Quist1, Bruno Tell2', 'Author'),
  paragraph('1 Northfield University 2 Southfield College', 'FirstParagraph'),
];

describe('an "Abstract word count" line in a block of declarations above the abstract', () => {
  it('is no label: the abstract is read under the "Abstract" heading after it', async () => {
    const docx = makeDocx([
      ...front,
      ...declarations,
      paragraph('Abstract', 'Heading3'),
      paragraph(
        'Gardens in cold valleys were counted over ten seasons to learn how frost moves the dates of flowering.',
        'BodyText',
      ),
      ...body,
    ]);
    const result = await parseManuscript(docx, 'frost.docx', limits);
    expect(result.abstract).toMatch(/^Gardens in cold valleys/);
    expect(result.abstract).not.toMatch(/word count|Summary statement/);
  });
});

describe('a structured abstract whose parts have bold headings of their own', () => {
  it('reads every part, headings included, and stops at the body', async () => {
    const docx = makeDocx([...front, paragraph('Abstract', 'Heading3'), ...structured, ...body]);
    const result = await parseManuscript(docx, 'frost.docx', limits);
    expect(result.abstract).toMatch(/^Background\s+Frost dates decide/);
    expect(result.abstract).toMatch(/Results\s+The first frost/);
    expect(result.abstract).toMatch(/later frosts\.$/);
    expect(result.abstract).not.toMatch(/old pursuit|notebooks/);
  });

  it('ends before the body repeats a part name as its own heading', async () => {
    const docx = makeDocx([
      ...front,
      paragraph('Abstract', 'Heading3'),
      ...structured.slice(0, 4),
      bold('Methods'),
      paragraph('The counts were made by hand in notebooks kept in the valley archive.', 'BodyText'),
    ]);
    const result = await parseManuscript(docx, 'frost.docx', limits);
    expect(result.abstract).toMatch(/altitude of each noted\.$/);
    expect(result.abstract).not.toMatch(/notebooks/);
  });

  it('leaves an empty abstract empty when the body opens with a "Background" heading', async () => {
    const docx = makeDocx([
      ...front,
      paragraph('Abstract', 'Heading3'),
      bold('Background'),
      paragraph('Frost dates decide when valley gardens flower, and they have moved.', 'BodyText'),
      paragraph(
        'Counting gardens is an old pursuit of botanists and the work goes back a century.',
        'BodyText',
      ),
      bold('Methods'),
      paragraph('The counts were made by hand in notebooks kept in the valley archive.', 'BodyText'),
    ]);
    const result = await parseManuscript(docx, 'frost.docx', limits);
    expect(result.abstract ?? '').not.toMatch(/^Background/);
  });
});

/** A first-level heading in 16-point type. */
const largeHeading = (text: string) =>
  docxParagraph(
    `<w:r><w:rPr><w:sz w:val="32"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r>`,
    'Heading1',
  );

describe('a bold title over a marked byline, a larger heading before the summary', () => {
  it('takes the bold paragraph over the byline as the title, and finds the authors', async () => {
    const docx = makeDocx([
      bold('Frost and the flowering dates of valley gardens'),
      docxParagraph(
        [
          docxRun('Alma Quist'),
          docxRun('1', true),
          docxRun('*, Bruno Tell'),
          docxRun('2', true),
          docxRun(', Carla Moss'),
          docxRun('1', true),
        ].join(''),
        'BodyText',
      ),
      paragraph('1 Northfield University, Northfield 2 Southfield College, Southfield', 'BodyText'),
      paragraph('*Lead contact and correspondence: alma.quist@northfield.example', 'BodyText'),
      largeHeading('NOTES FOR READERS'),
      paragraph(
        'Gardeners will find the first frost a week later than their grandparents did.',
        'FirstParagraph',
      ),
      largeHeading('SUMMARY'),
      paragraph(
        'Gardens in cold valleys were counted over ten seasons to learn how frost moves the dates of flowering. We found that the first frost came later each decade.',
        'FirstParagraph',
      ),
      largeHeading('INTRODUCTION'),
      paragraph(
        'Counting gardens is an old pursuit of botanists and the work goes back a century.',
        'FirstParagraph',
      ),
    ]);
    const result = await parseManuscript(docx, 'frost.docx', limits);
    expect(result.title).toBe('Frost and the flowering dates of valley gardens');
    expect(result.authors.map((a) => a.name)).toEqual(['Alma Quist', 'Bruno Tell', 'Carla Moss']);
  });
});

describe('an "Email addresses:" footnote that runs on to the foot of the next page (elsarticle)', () => {
  it('reads the addresses on the second page, each by the name after it', async () => {
    const page1 = [
      { text: 'Frost and the Flowering Dates of Valley Gardens', size: 16, x: 72, y: 780 },
      { text: 'Alma Quist1,*, Bruno Tell2, Carla Moss1, Dora Vance2', size: 11, x: 72, y: 755 },
      { text: '1Northfield University, Department of Botany, Northfield', size: 9, x: 72, y: 740 },
      { text: '2Southfield College, School of Plants, Southfield', size: 9, x: 72, y: 729 },
      { text: 'Abstract', size: 11, x: 72, y: 705, bold: true },
      textLine(
        'Gardens in cold valleys were counted over ten seasons to learn how frost moves flowering.',
        690,
      ),
      { text: 'Keywords: frost, gardens, flowering', size: 10, x: 72, y: 670 },
      ...bodyProse(640, 30),
      { text: '*Corresponding author', size: 8, x: 72, y: 110 },
      textLine('Email addresses: alma.q@northfield.example (Alma Quist), btell@south.example', 100, 8),
    ];
    const page2 = [
      ...bodyProse(780, 40),
      textLine(
        '(Bruno Tell), cmoss@northfield.example (Carla Moss), dvance@south.example (Dora Vance)',
        90,
        8,
      ),
    ];
    const result = await parseManuscript(makeTextPdf([page1, page2]), 'frost.pdf', limits);
    const emails = Object.fromEntries(result.authors.map((a) => [a.name, a.emails]));
    expect(emails['Carla Moss']).toEqual(['cmoss@northfield.example']);
    expect(emails['Dora Vance']).toEqual(['dvance@south.example']);
  });
});
