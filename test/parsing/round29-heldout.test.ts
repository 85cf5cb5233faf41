// Layouts met in the twenty-seventh held-out set, fixed in the twenty-ninth round.
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
  textLine,
} from './make-files.ts';

const limits = testConfig().parsing;

describe('a Word contact note set one labelled line a paragraph, the ORCID on the last', () => {
  const file = () =>
    makeDocx(
      [
        paragraph('Frost Dates and Flowering in Northern Valley Gardens', 'Title'),
        paragraph('Rahim Uddin Khan1, *, Mira Sen1,2, Tomas Brandt1'),
        paragraph('1Department of Botany, Northern Valley University, Valleytown, Country.'),
        paragraph('*Correspondence: Rahim Uddin Khan, Department of Botany, Northern Valley University.'),
        paragraph('Email: rahim.khan@nvu.example.edu'),
        paragraph('ORCID: https://orcid.org/0000-0002-1825-0097'),
        paragraph('Abstract', 'Heading1'),
        paragraph('We recorded the first frost and the first flowers in forty gardens over ten years.'),
        paragraph('Introduction', 'Heading1'),
        ...wordBodyParagraphs(4),
      ],
      [TITLE_STYLE],
    );

  it('gives the identifier to the author the note names', async () => {
    const result = await parseManuscript(file(), 'contact.docx', limits);
    const khan = result.authors.find((a) => a.name === 'Rahim Uddin Khan');
    expect(khan?.emails).toEqual(['rahim.khan@nvu.example.edu']);
    expect(khan?.orcid).toBe('0000-0002-1825-0097');
    expect(result.authors.filter((a) => a.orcid).length).toBe(1);
  });
});

describe('a DOI printed with en dashes where it has hyphens', () => {
  const file = () =>
    makeDocx(
      [
        paragraph('Frost Dates and Flowering in Northern Valley Gardens', 'Title'),
        paragraph('Lucía Ferrer Soto'),
        ...wordBodyParagraphs(4),
        paragraph('References', 'Heading1'),
        paragraph('(1) Alvarez, M.; Benitez, R. Frost in the northern valley. 10.5555/preprint–2023–x1abc.'),
        paragraph('(2) Castro, L. Records of frost. J. Gardens 2020, 12, 45–52. 10.5555/jg.2020.0012.'),
      ],
      [TITLE_STYLE],
    );

  it('reads the DOI with hyphens, and a page range keeps its dash', async () => {
    const result = await parseManuscript(file(), 'dashes.docx', limits);
    expect(result.references.map((r) => r.doi)).toEqual([
      '10.5555/preprint-2023-x1abc',
      '10.5555/jg.2020.0012',
    ]);
  });
});

describe("a thesis's abstract on a page of its own after the list, under the title and name again", () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'UNIVERSITY OF THE NORTHERN VALLEY', size: 14, x: 150, y: 760, bold: true },
        { text: 'MASTER THESIS No. 42', size: 14, x: 200, y: 700, bold: true },
        { text: 'FROST DATES IN VALLEY GARDENS', size: 18, x: 130, y: 600, bold: true },
        { text: 'Ana Horvat Kovac', size: 14, x: 220, y: 540 },
        { text: 'Valleytown, June 2021.', size: 12, x: 220, y: 300 },
      ],
      [{ text: '1. Introduction', size: 16, x: 72, y: 760, bold: true }, ...bodyProse(720, 30)],
      [
        { text: 'Literature', size: 16, x: 72, y: 760, bold: true },
        textLine('[1] M. Alvarez, "Frost in the northern valley", Journal of Gardens, 2015.', 720),
        textLine('[2] R. Benitez, "Late flowering in orchards", Orchard Studies, 2018.', 700),
      ],
      [
        { text: 'Abstract', size: 16, x: 72, y: 760, bold: true },
        { text: 'Frost Dates in Valley Gardens', size: 12, x: 200, y: 720, bold: true },
        { text: 'Ana Horvat Kovac', size: 12, x: 230, y: 700, bold: true },
        textLine('We recorded the first frost and the first flowers in forty gardens of the valley', 670),
        textLine('over ten years, and found that the flowers came a week later after each early frost.', 657),
      ],
    ]);

  it('reads the abstract past the repeated title and name', async () => {
    const result = await parseManuscript(file(), 'thesis.pdf', limits);
    expect(result.abstract).toBe(
      'We recorded the first frost and the first flowers in forty gardens of the valley over ten years, and found that the flowers came a week later after each early frost.',
    );
  });
});

describe('a list whose labels stand in a column of their own, set at one and a half lines', () => {
  const labels = ['[Alv15]', '[BC18]', '[Cas20]', '[Dom21]', '[Est19]', '[Fer17]', '[Gil16]', '[Her14]'];
  const entries = [
    [
      'M. Alvarez. Frost in the northern valley and the first flowers of the gardens',
      'there. Journal of Gardens, 12:45-52, 2015.',
    ],
    [
      'R. Benitez and L. Castro. Late flowering in the orchards of the northern valley',
      'after early frost. Orchard Studies, 2:20-43, 2018.',
    ],
    ['L. Castro. Records of frost. Valley Press, Valleytown, 2020.'],
    [
      'P. Dominguez. A census of the valley gardens and their keepers over ten years',
      'of records. Garden History, 7:1-26, 2021.',
    ],
    [
      'J. Esteban. Orchards of the north and the frost that comes in the spring months',
      'of the year. Orchard Studies, 3:1-9, 2019.',
    ],
    [
      'A. Fernandez. Frost and fruit in the valley orchards of the northern slopes',
      'and hills. Journal of Gardens, 10:5-15, 2017.',
    ],
    [
      'C. Gil. The gardens of the valley in the old maps of the region and the town',
      'records. Garden History, 2:3-8, 2016.',
    ],
    [
      'T. Herrera. Late frost over the valley and its gardens in the years of records',
      'kept. Valley Press, Valleytown, 2014.',
    ],
  ];
  // Each entry's lines 15 points apart at 10 points (one and a half lines), the entries 9 more;
  // the labels, in a column of their own, are read as blocks before the entries.
  const file = () => {
    const list: { text: string; size: number; x: number; y: number }[] = [];
    let y = 720;
    entries.forEach((lines, k) => {
      list.push({ text: labels[k]!, size: 10, x: 72, y });
      lines.forEach((text, n) => list.push({ text, size: 10, x: 140, y: y - n * 15 }));
      y -= lines.length * 15 + 9;
    });
    return makeTextPdf([
      [
        { text: 'Frost Dates in Valley Gardens', size: 18, x: 150, y: 760, bold: true },
        ...bodyProse(700, 40),
      ],
      [{ text: 'References', size: 14, x: 72, y: 760, bold: true }, ...list],
    ]);
  };

  it('reads the list under its heading, one entry to each label', async () => {
    const result = await parseManuscript(file(), 'labels.pdf', limits);
    expect(result.references.length).toBe(8);
    expect(result.references[0]!.raw).toBe(
      'M. Alvarez. Frost in the northern valley and the first flowers of the gardens there. Journal of Gardens, 12:45-52, 2015.',
    );
  });
});

describe('Lithuanian list headings', () => {
  const file = () =>
    makeDocx(
      [
        paragraph('Šalnų datos slėnio soduose', 'Title'),
        paragraph('Vardenis Pavardenis'),
        ...wordBodyParagraphs(4),
        paragraph('Literatūros sąrašas', 'Heading1'),
        paragraph('A. Pavardonis. Šalnos šiaurės slėnyje. Sodų žurnalas, 12:45–52, 2015.'),
        paragraph('B. Pavardenis. Vėlyvas žydėjimas soduose. Sodininkystė, 2:20–43, 2018.'),
      ],
      [TITLE_STYLE],
    );

  it('finds the list under "Literatūros sąrašas"', async () => {
    const result = await parseManuscript(file(), 'lt.docx', limits);
    expect(result.references.length).toBe(2);
  });
});

describe('a Thai title, its words written with no space between them', () => {
  /** A paragraph of one run in a size of its own (half-points, as Word writes it). */
  const sized = (text: string, halfPoints: number) =>
    `<w:p><w:r><w:rPr><w:sz w:val="${halfPoints}"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
  const file = () =>
    makeDocx([
      sized('การศึกษาวันน้ำค้างแข็งในสวน', 36),
      sized('สมชาย ใจดี', 24),
      ...Array.from({ length: 4 }, () =>
        sized('เนื้อหาของบทความนี้ยาวพอที่จะอ่านเป็นย่อหน้าของเนื้อหาในส่วนนี้ของเอกสาร', 24),
      ),
    ]);

  it('reads the line in the largest type as the title', async () => {
    const result = await parseManuscript(file(), 'thai.docx', limits);
    expect(result.title).toBe('การศึกษาวันน้ำค้างแข็งในสวน');
  });
});

describe('a Lithuanian thesis cover: the student under "Atliko:", a signature\'s caption after the name', () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'VILNIAUS UNIVERSITETAS', size: 12, x: 220, y: 780 },
        { text: 'Magistro baigiamasis darbas', size: 12, x: 210, y: 700 },
        { text: 'Sodu salnu datos siaures sleniuose', size: 17, x: 150, y: 640, bold: true },
        { text: 'Frost dates in northern valley gardens', size: 14, x: 160, y: 610 },
        { text: 'Atliko:', size: 12, x: 300, y: 520 },
        { text: 'Jonas Petraitis (parasas)', size: 12, x: 300, y: 506 },
        { text: 'Darbo vadovas:', size: 12, x: 300, y: 460 },
        { text: 'prof. dr. Petras Jonaitis (parasas)', size: 12, x: 300, y: 446 },
        { text: 'Vilnius 2015', size: 12, x: 270, y: 100 },
      ],
      [{ text: 'Ivadas', size: 16, x: 72, y: 760, bold: true }, ...bodyProse(720, 30)],
    ]);

  it('reads the student as the author, not the supervisor', async () => {
    const result = await parseManuscript(file(), 'lt-cover.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Jonas Petraitis']);
  });
});
