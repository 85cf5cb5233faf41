// Layouts met in the forty-ninth held-out set (engineering and earth and space sciences: JFM,
// ASME asmeconf and a Word manuscript after ASME's template, AMS ametsoc, Springer Nature sn-jnl
// in Nature's layout), fixed in the fifty-second round. Names, titles and entries are made up;
// only the shapes follow the files.
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
  wordBodyParagraphs,
} from './make-files.ts';

const limits = testConfig().parsing;

const ABSTRACT_LINES = [
  'This work shows that the wake of a drifting lantern depends on the angle at which it meets',
  'the shore. Two regimes are told apart by this angle: below a right angle the wake turns',
  'towards the shore, above it a ring of eddies forms and travels along the shore line. We',
  'explain the change with a simple flow model that holds at early times, and simulations',
  'show that the ring it predicts carries the lantern far from where it was first released.',
];

describe('a JFM first page: no abstract label, and the class note "Abstract must not spill onto p.2" at its foot', () => {
  // jfm.cls sets the abstract with no heading under the byline and the received line, and prints
  // an instruction to the author at the first page's foot, in a bold type larger than the body's,
  // which opens with the word "Abstract".
  const file = () =>
    makeTextPdf([
      [
        { text: 'On the wake of a lantern drifting near a shore', size: 17, x: 72, y: 740 },
        { text: 'Jane Roe and Tom Fox', size: 11, x: 72, y: 712 },
        {
          text: 'Department of Harbour Science, University of Northvale, Northvale, Country',
          size: 9,
          x: 72,
          y: 696,
        },
        { text: '(Received xx; revised xx; accepted xx)', size: 9, x: 72, y: 676 },
        ...ABSTRACT_LINES.map((text, i) => ({ text, size: 10, x: 72, y: 650 - i * 13 })),
        { text: 'Key words: lanterns, wakes, shores', size: 9, x: 72, y: 572 },
        { text: '1. Introduction', size: 10, x: 72, y: 548, bold: true },
        ...bodyProse(532, 10),
        { text: 'Abstract must not spill onto p.2', size: 13, x: 72, y: 60, bold: true },
      ],
      [...bodyProse(740, 40)],
    ]);

  it('reads the prose under the byline as the abstract, not the note', async () => {
    const result = await parseManuscript(file(), 'jfm-note.pdf', limits);
    expect(result.abstract).toMatch(/^This work shows that the wake of a drifting lantern/);
    expect(result.abstract).not.toContain('spill');
  });
});

describe('an AMS submission: a title over two double-spaced lines', () => {
  // ametsoc's submission layout double-spaces everything, the title's two lines too: the gap
  // between them is wider than a single-spaced line of the body, narrower than a blank line of
  // the title's own size (here 34 points apart for a 12-point title over a 10-point body).
  const file = () =>
    makeTextPdf([
      [
        {
          text: 'Tropopause Lanterns in a Rapidly Brightening Harbour: A Static',
          size: 12,
          x: 72,
          y: 740,
          bold: true,
        },
        { text: 'Budget Analysis in an Idealized Framework', size: 12, x: 72, y: 706, bold: true },
        { text: 'Jane Roe and Tom Fox', size: 10, x: 72, y: 682 },
        { text: 'University of Northvale, Northvale, Country', size: 10, x: 72, y: 670, bold: true },
        { text: 'ABSTRACT', size: 10, x: 72, y: 640 },
        ...bodyProse(620, 30),
      ],
    ]);

  it('reads both lines as the title', async () => {
    const result = await parseManuscript(file(), 'ametsoc-title.pdf', limits);
    expect(result.title).toBe(
      'Tropopause Lanterns in a Rapidly Brightening Harbour: A Static Budget Analysis in an Idealized Framework',
    );
  });
});

describe('an asmeconf first page: the conference lines in bold over the title in bold, a size larger', () => {
  // asmeconf prints the conference's name, dates and place (here what a course report put there)
  // in bold over the title, which is bold capitals at the body's size: no larger type marks it.
  const file = () =>
    makeTextPdf([
      [
        { text: 'Presented to the Lantern Design Teaching Team 2023', size: 9, x: 150, y: 760, bold: true },
        {
          text: 'In Partial Fulfillment of the Requirements for the Course 1.234',
          size: 9,
          x: 150,
          y: 749,
          bold: true,
        },
        { text: 'February - May 2023, Northvale', size: 9, x: 200, y: 738, bold: true },
        {
          text: 'LANTERN FLEETS: DESIGN OPTIMIZATION FOR HARBOUR LIGHTING',
          size: 10,
          x: 100,
          y: 712,
          bold: true,
        },
        { text: 'Jane Roe1, Tom Fox1, Ann Lee1', size: 9, x: 200, y: 694, bold: true },
        { text: '1University of Northvale, Northvale', size: 9, x: 200, y: 682, bold: true },
        { text: 'ABSTRACT', size: 9, x: 72, y: 660, bold: true },
        ...bodyProse(644, 30),
      ],
    ]);

  it('takes the larger bold line as the title', async () => {
    const result = await parseManuscript(file(), 'asmeconf-title.pdf', limits);
    expect(result.title).toBe('LANTERN FLEETS: DESIGN OPTIMIZATION FOR HARBOUR LIGHTING');
  });
});

describe("a Word manuscript after ASME's template: each author a paragraph of lines, none in bold", () => {
  // The author's name, a grade ("Fellow ASME"), department, university, city and "email: ..." on
  // lines of one paragraph (broken by hand), one paragraph an author, under the title.
  const lines = (ls: string[]) =>
    docxParagraph(ls.map((l, i) => `${i ? '<w:r><w:br/></w:r>' : ''}${docxRun(l)}`).join(''));
  const file = () =>
    makeDocx([
      paragraph('Modelling the Wake of Drifting Lanterns for Harbour Diagnostics', 'Title'),
      lines([
        'Jane Roe',
        'School of Harbour Engineering',
        'University of Northvale',
        'Northvale, Country',
        'email: jroe@northvale.edu',
      ]),
      lines([
        'Tom Fox',
        'Fellow ASME',
        'School of Harbour Engineering',
        'University of Northvale',
        'Northvale, Country',
        'email: tfox@northvale.edu',
      ]),
      paragraph('Abstract', 'Heading1'),
      ...wordBodyParagraphs(12),
    ]);

  it("reads each paragraph's first line as an author, with the email under it", async () => {
    const result = await parseManuscript(file(), 'asme-word.docx', limits);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Jane Roe', ['jroe@northvale.edu']],
      ['Tom Fox', ['tfox@northvale.edu']],
    ]);
  });
});

describe('Nature\'s layout in sn-jnl: the references, the methods, then "Methods References"', () => {
  // The second list numbers on from the first and stands under its own heading after the methods
  // section and its statements.
  const entry = (n: number, name: string, y: number) => ({
    text: `[${n}] ${name}, A. & Fox, T. Lanterns on the shore of a harbour. Harbour Letters ${n}, 1${n}-2${n} (2019).`,
    size: 9,
    x: 72,
    y,
  });
  const file = () =>
    makeTextPdf([
      [
        { text: 'Lanterns on the Shore', size: 17, x: 72, y: 740 },
        { text: 'Abstract', size: 11, x: 72, y: 700, bold: true },
        ...bodyProse(680, 40),
      ],
      [
        { text: 'References', size: 14, x: 72, y: 740, bold: true },
        entry(1, 'Roe', 720),
        entry(2, 'Lee', 706),
        entry(3, 'Park', 692),
        { text: 'Methods', size: 14, x: 72, y: 660, bold: true },
      ],
      // A long methods section: many short parts, each a heading and its paragraph.
      ...Array.from({ length: 6 }, (_, p) =>
        Array.from({ length: 8 }, (_, k) => [
          {
            text: `Part ${p * 8 + k + 1} of the lantern model`,
            size: 12,
            x: 72,
            y: 740 - k * 80,
            bold: true,
          },
          ...bodyProse(722 - k * 80, 4),
        ]).flat(),
      ),
      [
        { text: 'Data availability', size: 14, x: 72, y: 740, bold: true },
        {
          text: 'The data are available from the authors on request, as the harbour office allows.',
          size: 10,
          x: 72,
          y: 720,
        },
      ],
      [
        { text: 'Methods References', size: 14, x: 72, y: 740, bold: true },
        entry(5, 'Stone', 720),
        entry(6, 'Vance', 706),
        { text: 'Acknowledgements', size: 14, x: 72, y: 670, bold: true },
        {
          text: 'We thank the harbour office for the lanterns it lent us over two winters.',
          size: 10,
          x: 72,
          y: 650,
        },
      ],
    ]);

  it('reads both lists, and nothing of the methods between them', async () => {
    const result = await parseManuscript(file(), 'nature-methods-refs.pdf', limits);
    console.log(JSON.stringify(result.references.map((r) => r.raw)));
    expect(result.references.map((r) => r.raw.split(',')[0])).toEqual([
      'Roe',
      'Lee',
      'Park',
      'Stone',
      'Vance',
    ]);
  });
});
