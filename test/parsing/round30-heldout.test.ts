// Layouts met in the twenty-eighth held-out set, fixed in the thirtieth round.
// Names, titles and identifiers are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import {
  bodyProse,
  makeDocx,
  makeTextPdf,
  paragraph,
  TITLE_STYLE,
  wordBodyParagraphs,
  paragraphStyles,
} from './make-files.ts';

const limits = testConfig().parsing;

/** A Polish master's thesis cover, the student's lines (if any) under the university, then its first page. */
const polishCover = (student: { text: string; size: number; x: number; y: number }[]) =>
  makeTextPdf([
    [
      { text: 'Uniwersytet Nadrzeczny', size: 14, x: 220, y: 780 },
      ...student,
      { text: 'Przymrozki w ogrodach doliny', size: 18, x: 170, y: 600, bold: true },
      { text: 'Praca magisterska', size: 12, x: 250, y: 560 },
      { text: 'na kierunku OGRODNICTWO', size: 12, x: 230, y: 544 },
      { text: 'Praca wykonana pod kierunkiem', size: 12, x: 320, y: 420 },
      { text: 'dra hab. Jana Nowaka', size: 12, x: 320, y: 406 },
      { text: 'Instytut Ogrodnictwa Dolinnego', size: 12, x: 320, y: 392 },
      { text: 'Maj 2010', size: 12, x: 270, y: 100 },
    ],
    [{ text: 'Wprowadzenie', size: 16, x: 72, y: 760, bold: true }, ...bodyProse(720, 30)],
  ]);

describe('a Polish thesis cover: the student over "Nr albumu:", the supervisor\'s institute under the title', () => {
  const file = () =>
    polishCover([
      { text: 'Piotr Zielinski', size: 14, x: 240, y: 700 },
      { text: 'Nr albumu: 123456', size: 12, x: 245, y: 684 },
    ]);

  it("reads the student as the author, not the supervisor's institute", async () => {
    const result = await parseManuscript(file(), 'pl-cover.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Piotr Zielinski']);
  });
});

describe("a Polish cover's university and institute, no student named on it", () => {
  const file = () => polishCover([]);

  it('reads neither as an author', async () => {
    const result = await parseManuscript(file(), 'pl-institutions.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual([]);
  });
});

describe("a Word byline one author a paragraph, a master's written with its subject after a name", () => {
  const file = () =>
    makeDocx(
      [
        paragraph('Frost Dates and Flowering in Northern Valley Gardens', 'Title'),
        paragraph('Author information'),
        paragraph('Lena Hartmann PhD1'),
        paragraph('Omar Haddad MStatistics2'),
        paragraph('Rosa Lind BNursing1'),
        paragraph('1 Department of Botany, Northern Valley University'),
        paragraph('2 Department of Statistics, Northern Valley University'),
        paragraph('Abstract', 'Heading1'),
        paragraph('We recorded the first frost and the first flowers in forty gardens over ten years.'),
        paragraph('Introduction', 'Heading1'),
        ...wordBodyParagraphs(4),
      ],
      [TITLE_STYLE],
    );

  it('cuts the degree from the name', async () => {
    const result = await parseManuscript(file(), 'degrees.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Lena Hartmann', 'Omar Haddad', 'Rosa Lind']);
  });
});

describe('a Polish abstract ("Streszczenie") followed by "Słowa kluczowe"', () => {
  const file = () =>
    makeDocx(
      [
        paragraph('Przymrozki w ogrodach doliny', 'Title'),
        paragraph('Piotr Zieliński'),
        paragraph('Streszczenie', 'Heading1'),
        paragraph('Badano pierwsze przymrozki i pierwsze kwiaty w czterdziestu ogrodach przez dziesięć lat.'),
        paragraph('Słowa kluczowe'),
        paragraph('przymrozki, ogrody, kwitnienie, dolina'),
        paragraph('Wprowadzenie', 'Heading1'),
        ...wordBodyParagraphs(4),
      ],
      [TITLE_STYLE],
    );

  it("ends the abstract at the keywords' label", async () => {
    const result = await parseManuscript(file(), 'pl-abstract.docx', limits);
    expect(result.abstract).toBe(
      'Badano pierwsze przymrozki i pierwsze kwiaty w czterdziestu ogrodach przez dziesięć lat.',
    );
  });
});

describe("a student's paper in Word: the name and register number over the title, a numbered heading under it", () => {
  /** A paragraph of one run in a size of its own (half-points, as Word writes it), in a style if given. */
  const sized = (text: string, halfPoints: number, style?: string) =>
    `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:rPr><w:sz w:val="${halfPoints}"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
  const listStyle = paragraphStyles([['ListeParagraf', 'List Paragraph']]);
  const file = () =>
    makeDocx(
      [
        sized('JAN KOWAL   210601708', 24),
        sized('Valley University Department of Gardening 1st Year', 24),
        sized('FROST DATES IN VALLEY GARDENS', 32),
        sized('THE GARDENS AND THEIR RECORDS', 24, 'ListeParagraf'),
        ...Array.from({ length: 4 }, (_, i) =>
          sized(`Paragraph ${i + 1} of the body, long enough to read as running prose of the section.`, 24),
        ),
      ],
      [listStyle],
    );

  it('reads the name before the number as the author, the heading as none', async () => {
    const result = await parseManuscript(file(), 'student.docx', limits);
    expect(result.title).toBe('FROST DATES IN VALLEY GARDENS');
    expect(result.authors.map((a) => a.name)).toEqual(['Jan Kowal']);
  });
});
