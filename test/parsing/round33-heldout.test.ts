// Layouts met in the thirty-first held-out set (author-formatted submissions), fixed in the
// thirty-third round. Names, titles and identifiers are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import {
  bodyProse,
  docxLinkedRun,
  docxLinkRels,
  docxParagraph,
  docxRun,
  makeDocx,
  makeTextPdf,
  paragraph,
  wordBodyParagraphs,
  textLine,
} from './make-files.ts';

const limits = testConfig().parsing;

describe("a student's Word paper in the body's type: the title, then the abstract's label right under it", () => {
  const file = () =>
    makeDocx([
      paragraph('산간 마을의 소규모 수력 발전 제도 고찰'),
      paragraph('Abstract'),
      paragraph(
        '산간 마을에서 소규모 수력 발전을 보급하는 제도를 살펴보고 그 효율과 공정을 함께 비교하였다.',
      ),
      paragraph('Introduction', 'Heading1'),
      ...wordBodyParagraphs(12),
    ]);

  it('reads the first paragraph as the title', async () => {
    const result = await parseManuscript(file(), 'ko-student.docx', limits);
    expect(result.title).toBe('산간 마을의 소규모 수력 발전 제도 고찰');
  });
});

describe('a Word title page whose byline is led in by "Author names:", letter marks raised after each name', () => {
  const file = () =>
    makeDocx([
      paragraph('TITLE PAGE'),
      paragraph('Article title: Dry valleys and the gullies that cut their slopes'),
      docxParagraph(
        docxRun('Author names: Ana Paula Lima ') +
          docxRun('a', true) +
          docxRun(', Rui Costa ') +
          docxRun('b', true) +
          docxRun(',c', true) +
          docxRun('*, Marta Souza Reis ') +
          docxRun('a', true),
      ),
      docxParagraph(
        docxRun('a', true) + docxRun(' Institute of Earth Sciences, State University of the South, Brazil.'),
      ),
      docxParagraph(docxRun('b', true) + docxRun(' Department of Geography, Northern University, Portugal.')),
      docxParagraph(docxRun('c', true) + docxRun(' Centre of Land Studies, Northern University, Portugal.')),
      paragraph('* Corresponding author: rui.costa@north.example.org'),
    ]);

  it('reads the three names after the label', async () => {
    const result = await parseManuscript(file(), 'title-page.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Ana Paula Lima', 'Rui Costa', 'Marta Souza Reis']);
    expect(result.title).toBe('Dry valleys and the gullies that cut their slopes');
  });
});

describe('a LaTeX title page: each author a bold name, the affiliation under it with dashes between its parts, then the email', () => {
  const people: [string, string][] = [
    ['Carla Mendes Rojas', 'Universite du Nord - LRPI - F-59000, Lille, France.'],
    ['Pablo Santos', 'University of the South, Faculty of Engineering, Chile'],
    ['Hugo Bastos', 'Universite du Nord - LRPI - F-59000, Lille, France.'],
  ];
  const file = () => {
    const lines = [
      { text: 'Title page for: Journal of Things Made Again', size: 12, x: 150, y: 800, bold: true },
      { text: 'Title: Life cycle of plastic made again by printing', size: 14, x: 72, y: 770, bold: true },
    ];
    people.forEach(([name, affiliation], k) => {
      const y = 740 - 44 * k;
      lines.push({ text: name, size: 10, x: 72, y, bold: true });
      lines.push({ text: affiliation, size: 10, x: 72, y: y - 12, bold: false });
      lines.push({
        text: `Email: ${name.split(' ')[0]!.toLowerCase()}@uni.example.org`,
        size: 10,
        x: 72,
        y: y - 24,
        bold: true,
      });
    });
    lines.push({ text: 'Keywords: life cycle; recycling; plastic', size: 10, x: 72, y: 600, bold: false });
    return makeTextPdf([
      lines,
      [{ text: 'Introduction', size: 14, x: 72, y: 780, bold: true }, ...bodyProse(760, 30)],
    ]);
  };

  it('reads every author with the email under the name, the dashed address no note', async () => {
    const result = await parseManuscript(file(), 'title-page.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Carla Mendes Rojas', ['carla@uni.example.org']],
      ['Pablo Santos', ['pablo@uni.example.org']],
      ['Hugo Bastos', ['hugo@uni.example.org']],
    ]);
  });
});

/** A submission system's cover sheet: the journal's name, the title's lines given, then its fields. */
const coverSheet = (title: { text: string; size: number; x: number; y: number; bold: boolean }[]) => [
  { text: 'Journal of River Teaching', size: 9, x: 220, y: 790, bold: true },
  ...title,
  { text: 'Journal: Journal of River Teaching', size: 7.5, x: 120, y: 680, bold: true },
  { text: 'Manuscript ID Draft', size: 7.5, x: 120, y: 660, bold: true },
  { text: 'Manuscript Type: Original Article', size: 7.5, x: 120, y: 640, bold: true },
];

describe('a submission system\'s cover sheet: the journal\'s name over the title, then a "Journal:" field', () => {
  const file = () =>
    makeTextPdf([
      coverSheet([
        { text: 'Counting mayflies in a mountain stream with a class', size: 10, x: 120, y: 740, bold: true },
        { text: 'of first-year students and a borrowed net', size: 10, x: 150, y: 726, bold: true },
      ]),
      [{ text: 'Abstract', size: 12, x: 72, y: 780, bold: true }, ...bodyProse(760, 30)],
    ]);

  it('reads the title, not the journal', async () => {
    const result = await parseManuscript(file(), 'cover-sheet.pdf', limits);
    expect(result.title).toBe(
      'Counting mayflies in a mountain stream with a class of first-year students and a borrowed net',
    );
  });
});

describe("a submission system's review PDF: the manuscript, then a supplement with its own list", () => {
  const entries = [
    'Abbot, J. L., and M. S. Lane. 2017. Warm winters in the western valleys. Valley Science 10:430-436.',
    'Baird, S., and R. W. Fell. 2003. A forensic approach to the diet of river birds. River Ecology 17:270-275.',
    'Cole, H., and J. Marsh. 2002. Stable isotopes in the microbial ecology of ponds. Pond Letters 40:85-95.',
  ];
  const file = () =>
    makeTextPdf([
      coverSheet([
        { text: 'Counting mayflies in a mountain stream with a class', size: 10, x: 120, y: 740, bold: true },
      ]),
      [{ text: 'Introduction', size: 12, x: 72, y: 780, bold: true }, ...bodyProse(760, 40)],
      [
        { text: 'References', size: 12, x: 72, y: 780, bold: true },
        ...entries.map((text, k) => ({ text, size: 10, x: 72, y: 750 - 26 * k })),
      ],
      [
        { text: 'Supplementary File 1: A field guide for the class', size: 12, x: 72, y: 780, bold: true },
        ...bodyProse(750, 20),
        { text: 'Literature Cited', size: 12, x: 72, y: 470, bold: true },
        textLine('Dunn, K. W. 1996. Aquatic insects of the mountains. Third edition. Hill Press.', 445),
      ],
    ]);

  it("reads the manuscript's list, not the supplement's", async () => {
    const result = await parseManuscript(file(), 'review.pdf', limits);
    expect(result.references.map((r) => r.raw.slice(0, 5))).toEqual(['Abbot', 'Baird', 'Cole,']);
  });
});

describe('a Word corresponding line whose printed address is linked to another, older one', () => {
  const file = () =>
    makeDocx(
      [
        paragraph('Joint floods of peak and volume in a river basin of the delta', 'Title'),
        docxParagraph(
          docxRun('Nadia Haque') + docxRun('1', true) + docxRun(', Karim Rahman') + docxRun('1', true),
        ),
        docxParagraph(
          docxRun('1', true) + docxRun(' Department of Statistics, University of the Delta, Bangladesh'),
        ),
        docxParagraph(
          docxRun('*Corresponding Author: Karim Rahman; ') +
            docxLinkedRun('karim_delta@mail.example.org ; Department of Statistics', 'rId9'),
        ),
        paragraph('Abstract'),
        paragraph('We fit joint laws of flood peak and volume to forty years of river records.'),
        ...wordBodyParagraphs(10),
      ],
      [docxLinkRels({ rId9: 'mailto:karim-old@uni.example.org' })],
    );

  it('gives the author the printed address only', async () => {
    const result = await parseManuscript(file(), 'stale-link.docx', limits);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Nadia Haque', []],
      ['Karim Rahman', ['karim_delta@mail.example.org']],
    ]);
  });
});

describe("a Word title page's letter-marked institutions, each line closing on its author's email", () => {
  const file = () =>
    makeDocx([
      paragraph('Article title: Dry valleys and the gullies that cut their slopes'),
      docxParagraph(
        docxRun('Author names: Ana Paula Lima ') +
          docxRun('a', true) +
          docxRun(', Rui Costa ') +
          docxRun('b,c', true) +
          docxRun('*, Marta Souza Reis ') +
          docxRun('d', true),
      ),
      docxParagraph(
        docxRun('a ', true) +
          docxRun(
            'Institute of Earth Sciences, State University of the South, Brazil. Email address: ana@south.example.org',
          ),
      ),
      docxParagraph(
        docxRun('b ', true) +
          docxRun(
            'Department of Geography, Northern University, Portugal. Email address: rui.costa@north.example.org',
          ),
      ),
      docxParagraph(docxRun('c ', true) + docxRun('Centre of Land Studies, Northern University, Portugal.')),
      docxParagraph(
        docxRun('d', true) +
          docxRun(
            ' Institute of Sea Sciences, State University of the South, Brazil. Email address: marta@south.example.org',
          ),
      ),
      paragraph('* Corresponding author: rui.costa@north.example.org'),
    ]);

  it('gives each author the institution before the email label, and the email', async () => {
    const result = await parseManuscript(file(), 'title-page-emails.docx', limits);
    expect(result.authors.map((a) => [a.name, a.affiliations, a.emails])).toEqual([
      [
        'Ana Paula Lima',
        ['Institute of Earth Sciences, State University of the South, Brazil'],
        ['ana@south.example.org'],
      ],
      [
        'Rui Costa',
        [
          'Department of Geography, Northern University, Portugal',
          'Centre of Land Studies, Northern University, Portugal',
        ],
        ['rui.costa@north.example.org'],
      ],
      [
        'Marta Souza Reis',
        ['Institute of Sea Sciences, State University of the South, Brazil'],
        ['marta@south.example.org'],
      ],
    ]);
  });
});

describe("a Word title page that prints every author's email after the institution, the name spelt in it", () => {
  const file = () =>
    makeDocx([
      paragraph('Article title: Dry valleys and the gullies that cut their slopes'),
      docxParagraph(
        docxRun('Author names: Ana Paula Lima ') +
          docxRun('a', true) +
          docxRun(', Rui Costa ') +
          docxRun('b', true) +
          docxRun('*'),
      ),
      docxParagraph(
        docxRun('a ', true) +
          docxRun(
            'Institute of Earth Sciences, State University of the South, Brazil. Email address: ana.lima@south.example.org',
          ),
      ),
      docxParagraph(
        docxRun('b ', true) +
          docxRun(
            'Department of Geography, Northern University, Portugal. Email address: rui.costa@north.example.org',
          ),
      ),
      paragraph('* Corresponding author: rui.costa@north.example.org'),
    ]);

  it('marks only the starred author as corresponding', async () => {
    const result = await parseManuscript(file(), 'title-page-corresponding.docx', limits);
    expect(result.authors.map((a) => [a.name, a.corresponding])).toEqual([
      ['Ana Paula Lima', false],
      ['Rui Costa', true],
    ]);
  });
});
