// Layouts met in the fifteenth held-out set, fixed in the seventeenth round: a Word byline printed as
// a reference list prints names ("Quist, A.ᵃ*, Tell, B. K.ᵇ"); an ASCE journal byline with the
// membership grade glued to its society after a name ("Jane Roe, M.ASCE¹; ..."); a DOI broken at a
// colon inside its suffix; a Russian journal's byline led by the copyright year ("2018 г.") with
// its marks raised onto a line of their own and a stop spaced after the last name; a proceedings
// byline that names a collaboration only, with the corresponding author named under the abstract;
// a Word abstract given a heading's outline level; a reference's URL typed in a paragraph of its
// own under its entry; a table after the list with a "Reference" column.
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
  piecesOnOneLine,
  textLine,
} from './make-files.ts';

const limits = testConfig().parsing;

const ABSTRACT =
  'We count the gardens of cold valleys over ten seasons and ask how the first frost of autumn moves the ' +
  'dates on which their plants flower. The counts were made by hand in notebooks kept at the valley ' +
  'archive, with the altitude of each garden noted beside it. The first frost came later each decade, ' +
  'most of all in the northern valleys, and early flowering plants gained the most from it. Rules of ' +
  'thumb that gardeners hold about frost fail in the highest valleys.';

/** The abstract's sentences in lines of about 80 characters, for a PDF. */
const ABSTRACT_LINES = ABSTRACT.match(/.{1,80}(?:\s|$)/g)!.map((l) => l.trim());

const ENTRIES = [
  'Quist A, Tell B (2015) Frost dates in valley gardens. J Cold Gard 12:1–10',
  'Moss C, Lind D (2016) Flowering under late frost. Valley Bot 4:22–31',
  'Roe E (2017) Notebooks of a valley archive. Archive Stud 9:100–112',
  'Tell B, Quist A (2018) Altitude and the first frost. J Cold Gard 15:40–52',
];

describe('a Word byline printed "Family, Initials" as a reference list prints names', () => {
  it('reads each family name and its initials as one name', async () => {
    const docx = makeDocx([
      paragraph('Frost and the Flowering Dates of Valley Gardens', 'Title'),
      docxParagraph(
        [
          docxRun('Quist, A.'),
          docxRun('a*', true),
          docxRun(' , Tell, B. K. '),
          docxRun('b,c*', true),
          docxRun(', van Moss, C.'),
          docxRun('a', true),
          docxRun(', Lind-Roe, D.E.F.'),
          docxRun('c', true),
        ].join(''),
      ),
      paragraph('a Valley Institute of Botany, Northfield'),
      paragraph('b Department of Gardens, Southfield University, Southfield'),
      paragraph('c Frost Archive, Eastfield'),
      paragraph('Correspondence: Bruno Tell, Email: bruno.tell@southfield.example'),
      paragraph('Abstract'),
      paragraph(ABSTRACT),
    ]);
    const result = await parseManuscript(docx, 'frost.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual([
      'A. Quist',
      'B. K. Tell',
      'C. van Moss',
      'D.E.F. Lind-Roe',
    ]);
    expect(result.authors[1]!.emails).toEqual(['bruno.tell@southfield.example']);
  });
});

describe('an ASCE journal front page', () => {
  const page = () => [
    { text: 'Frost Loads on Valley Greenhouses', size: 14, x: 150, y: 780, bold: true },
    ...piecesOnOneLine(
      [
        { text: 'Alma Q. Roe, M.ASCE' },
        { text: 'a', sup: true },
        { text: '; Bruno Tell' },
        { text: 'b', sup: true },
        { text: '; and Carla Moss' },
        { text: 'b', sup: true },
      ],
      755,
      10,
      { x: 130, bold: true },
    ),
    ...piecesOnOneLine(
      [
        { text: 'a', sup: true },
        { text: 'Professor, Dept. of Civil Engrg., Univ. of Northfield, 12 Garden Road,' },
      ],
      730,
      10,
    ),
    { text: 'Northfield. E-mail: roe@northfield.example.', size: 10, x: 72, y: 718 },
    ...piecesOnOneLine(
      [{ text: 'b', sup: true }, { text: 'Affiliation of the second and third authors.' }],
      706,
      10,
    ),
    { text: `Abstract: ${ABSTRACT_LINES[0]!}`, size: 10, x: 72, y: 690 },
    ...ABSTRACT_LINES.slice(1).map((text, i) => ({ text, size: 10, x: 72, y: 677 - i * 13 })),
    { text: 'Introduction', size: 12, x: 72, y: 600, bold: true },
    ...bodyProse(585),
  ];

  it('drops the grade glued to its society after a name and reads the byline', async () => {
    const result = await parseManuscript(makeTextPdf([page()]), 'frost.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Alma Q. Roe', 'Bruno Tell', 'Carla Moss']);
    // The grade's mark is the name's: the affiliation keyed by it is hers.
    expect(result.authors[0]!.affiliations[0]).toMatch(
      /^Professor, Dept\. of Civil Engrg\., Univ\. of Northfield/,
    );
    expect(result.authors[0]!.emails).toEqual(['roe@northfield.example']);
  });

  it('reads a DOI broken at a colon inside its suffix whole', async () => {
    const refs = [
      { text: 'References', size: 12, x: 72, y: 780, bold: true },
      textLine(
        'Quist, A. and B. Tell. 2001a. "Frost loads on glass roofs. I: Theory." J. Cold Engrg. 42 (7):',
        760,
      ),
      { text: '1130–1145. https://doi.org/10.9999/(ABCD)1234-5678(2001)42:', size: 10, x: 72, y: 748 },
      { text: '7(1130).', size: 10, x: 72, y: 736 },
      textLine(
        'Quist, A. and B. Tell. 2001b. "Frost loads on glass roofs. II: Tests." J. Cold Engrg. 42 (7):',
        720,
      ),
      textLine('1146–1160. https://doi.org/10.9999/(ABCD)1234-5678(2001)42:7(1146).', 708),
    ];
    const result = await parseManuscript(makeTextPdf([page(), refs]), 'frost.pdf', limits);
    expect(result.references.map((r) => r.doi)).toEqual([
      '10.9999/(ABCD)1234-5678(2001)42:7(1130)',
      '10.9999/(ABCD)1234-5678(2001)42:7(1146)',
    ]);
  });
});

describe("a Russian journal's byline led by the copyright year", () => {
  it('drops the year and the spaced closing stop, and reads marks raised onto a line of their own', async () => {
    const page = [
      { text: 'FROST AND THE FLOWERING DATES OF VALLEY GARDENS', size: 13, x: 110, y: 780, bold: true },
      { text: '*1', size: 7, x: 236, y: 760, bold: true },
      { text: '1', size: 7, x: 326, y: 760, bold: true },
      { text: '2', size: 7, x: 410, y: 760, bold: true },
      { text: '2018 A.B. Quist , C.D. Tell , E.F. Moss .', size: 10, x: 130, y: 748, bold: true },
      { text: '1Valley Institute of Botany, Northfield', size: 9, x: 150, y: 730, bold: true },
      { text: '2Frost Archive, Eastfield', size: 9, x: 150, y: 718, bold: true },
      { text: 'INTRODUCTION', size: 10, x: 72, y: 690, bold: true },
      ...bodyProse(675, 20),
      ...piecesOnOneLine(
        [{ text: '*', sup: true }, { text: 'E-mail: frost.desk@northfield.example' }],
        60,
        8,
      ),
    ];
    const result = await parseManuscript(makeTextPdf([page]), 'frost.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['A.B. Quist', 'C.D. Tell', 'E.F. Moss']);
    expect(result.authors[0]!.emails).toEqual(['frost.desk@northfield.example']);
  });

  it('reads Cyrillic names after the year and its "г."', async () => {
    const docx = makeDocx([
      paragraph('Даты цветения садов в холодных долинах', 'Title'),
      paragraph('2018 г. А.Б. Иванов , В.Г. Петрова .'),
      paragraph('Аннотация'),
      paragraph('Введение', 'Heading1'),
      paragraph('Сады холодных долин считали десять лет подряд.'),
    ]);
    const result = await parseManuscript(docx, 'frost.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['А.Б. Иванов', 'В.Г. Петрова']);
  });
});

describe('a proceedings byline that names a collaboration only', () => {
  const page = [
    { text: 'Searching for Frost in Valley Gardens', size: 16, x: 150, y: 780, bold: true },
    ...piecesOnOneLine([{ text: 'The Valley Frost Collaboration' }, { text: '†', sup: true }], 755, 11, {
      x: 200,
      bold: true,
    }),
    { text: '† http://frost.example/collaboration/authors', size: 10, x: 72, y: 735, bold: true },
    { text: 'E-mail: alma.roe@frost.example', size: 9, x: 72, y: 722, bold: true },
    ...ABSTRACT_LINES.map((text, i) => ({ text, size: 9, x: 72, y: 700 - i * 12 })),
    ...piecesOnOneLine([{ text: 'Corresponding authors: Alma Roe' }, { text: '*1', sup: true }], 610, 9, {
      bold: true,
    }),
    { text: '1 Frost Archive, Eastfield', size: 9, x: 72, y: 597, bold: true },
    { text: '1. Introduction', size: 12, x: 72, y: 560, bold: true },
    ...bodyProse(545),
  ];

  it('reports the corresponding author named on the first page, not the collaboration', async () => {
    const result = await parseManuscript(makeTextPdf([page]), 'frost.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Alma Roe']);
    expect(result.authors[0]!.emails).toEqual(['alma.roe@frost.example']);
  });

  it('ends the unlabelled abstract at the "Corresponding authors:" line', async () => {
    const result = await parseManuscript(makeTextPdf([page]), 'frost.pdf', limits);
    expect(result.abstract).toBe(ABSTRACT);
  });
});

describe('a Word abstract given a heading outline level', () => {
  it('is read under its label as prose, not stopped as a heading', async () => {
    const docx = makeDocx([
      paragraph('Frost and the Flowering Dates of Valley Gardens', 'Title'),
      docxParagraph(
        docxRun('Alma Quist,') + docxRun('1', true) + docxRun(' and Bruno Tell') + docxRun('2', true),
      ),
      paragraph('Abstract'),
      `<w:p><w:pPr><w:outlineLvl w:val="0"/></w:pPr>${docxRun(ABSTRACT)}</w:p>`,
      paragraph('Introduction', 'Heading1'),
      paragraph('Gardens in cold valleys were counted for ten years.'),
    ]);
    const result = await parseManuscript(docx, 'frost.docx', limits);
    expect(result.abstract).toBe(ABSTRACT);
  });
});

describe('a Word reference list', () => {
  it("counts a URL typed in a paragraph of its own under its entry as that entry's", async () => {
    const docx = makeDocx([
      paragraph('Frost and the Flowering Dates of Valley Gardens', 'Title'),
      paragraph('Introduction', 'Heading1'),
      paragraph('Gardens in cold valleys were counted for ten years (Quist and Tell 2015).'),
      paragraph('References', 'Heading1'),
      paragraph(ENTRIES[0]!),
      paragraph('Valley Agency (2017) Frost warnings for gardeners.'),
      paragraph('https://www.valley.example/frost-warnings-for-gardeners. Accessed: January 4, 2018'),
      paragraph(ENTRIES[1]!),
      paragraph(
        'Roe E (2018) Gardens resistant to frost. http://www.frost.example/Summary.aspx. Accessed: May 1, 2018',
      ),
      paragraph(ENTRIES[2]!),
    ]);
    const result = await parseManuscript(docx, 'frost.docx', limits);
    expect(result.references).toHaveLength(5);
    expect(result.references[1]!.raw).toMatch(/Frost warnings for gardeners\. https:\/\/www\.valley/);
  });

  it('is not replaced by a later table whose column is headed "Reference"', async () => {
    const cells = ['Northern valley', 'Quist and Tell, 2015', 'Southern valley', 'Moss and Lind, 2016'];
    const docx = makeDocx([
      paragraph('Frost and the Flowering Dates of Valley Gardens', 'Title'),
      paragraph('Introduction', 'Heading1'),
      paragraph('Gardens in cold valleys were counted for ten years (Quist and Tell 2015).'),
      paragraph('References', 'Heading1'),
      ...ENTRIES.map((e) => paragraph(e)),
      paragraph('Table 1. Frost dates reported for valley gardens.'),
      paragraph('Site'),
      paragraph('Frost date'),
      paragraph('Reference'),
      ...cells.flatMap((c) => [paragraph(c), paragraph('12 Oct')]),
    ]);
    const result = await parseManuscript(docx, 'frost.docx', limits);
    expect(result.references.map((r) => r.raw.slice(0, 10))).toEqual(ENTRIES.map((e) => e.slice(0, 10)));
  });
});
