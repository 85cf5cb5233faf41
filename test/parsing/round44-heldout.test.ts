// Layouts met in the forty-first held-out set (author-formatted Word theses and papers: a Croatian
// master's thesis written in English, a Hungarian BSc thesis, Romanian student papers, a review
// exported from LibreOffice), fixed in the forty-fourth round. Names, titles and identifiers are
// made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import {
  bodyProse,
  docxParagraph,
  docxRun,
  docxSizedParagraph,
  makeDocx,
  makeTextPdf,
  paragraph,
  wordBodyParagraphs,
} from './make-files.ts';

const limits = testConfig().parsing;

/** A thesis cover typed by hand in Word: university and faculty, the title set large, then `rest`. */
const cover = (rest: string[]) => [
  docxSizedParagraph('UNIVERSITY OF NORTHVALE', 14),
  docxSizedParagraph('FACULTY OF LANTERN ENGINEERING', 14, { bold: true }),
  docxSizedParagraph('Lantern light in the dark sector', 20, { bold: true }),
  ...rest,
];

describe('a Word cover that dates itself with the year written as an ordinal, its stop after it', () => {
  const file = () =>
    makeDocx([
      ...cover([docxSizedParagraph('Ana Horvat', 14), docxSizedParagraph('Northvale, May 2022.', 14)]),
      paragraph('Introduction', 'Heading1'),
      ...wordBodyParagraphs(12),
    ]);

  it('reads the name between the title and the date as the author’s', async () => {
    const result = await parseManuscript(file(), 'ordinal-year.docx', limits);
    expect(result.title).toBe('Lantern light in the dark sector');
    expect(result.authors.map((a) => a.name)).toEqual(['Ana Horvat']);
  });
});

describe('a Word thesis that prints its abstracts at its end, each a chapter of its own', () => {
  // The cover, a body of 150 paragraphs (past where a label is looked for after the front matter),
  // the bibliography, then "Sažetak" (the abstract in Croatian) and "Summary", each under a
  // first-level heading: Word has no pages to say each opens one.
  const summary =
    'Lanterns are read in two phases, finding and decoding. The first finds the lantern in an image by its patterns, the second corrects the errors of the channel.';
  const file = () =>
    makeDocx([
      ...cover([docxSizedParagraph('Ana Horvat', 14)]),
      paragraph('Introduction', 'Heading1'),
      ...wordBodyParagraphs(150),
      paragraph('Bibliography', 'Heading1'),
      paragraph('[1] Roe, J. Lanterns and their light. Northvale Press, 2019.'),
      paragraph('[2] Poe, A. Reading the dark sector. J. Lantern Stud. 12, 2021.'),
      paragraph('Sažetak', 'Heading1'),
      paragraph(
        'Lanterne se čitaju u dvije faze, pronalaženje i dekodiranje. Prva pronalazi lanternu na slici, druga ispravlja pogreške.',
      ),
      paragraph('Summary', 'Heading1'),
      paragraph(summary),
    ]);

  it('takes the English summary under its heading as the abstract', async () => {
    const result = await parseManuscript(file(), 'abstract-at-end.docx', limits);
    expect(result.abstract).toBe(summary);
    expect(result.references).toHaveLength(2);
  });
});

describe('a Word thesis whose numbered chapter headings are set larger than its cover’s title', () => {
  // No title style: the title typed in 16-point bold, the chapters "1. ...", "2. ..." in a heading
  // style at 20 points, after a table of contents.
  const file = () =>
    makeDocx([
      docxSizedParagraph('Northvale University Faculty of Informatics', 14, { bold: true }),
      docxSizedParagraph('A framework for spreading heavy computations over many machines', 16, {
        bold: true,
      }),
      docxSizedParagraph('Ana Horvat', 13),
      docxSizedParagraph('Northvale, 2019', 13),
      docxSizedParagraph('Contents', 14, { bold: true }),
      docxSizedParagraph('1. Introduction', 20, { bold: true, style: 'Heading1' }),
      ...wordBodyParagraphs(6),
      docxSizedParagraph('2. User documentation', 20, { bold: true, style: 'Heading1' }),
      ...wordBodyParagraphs(6),
    ]);

  it('takes the cover’s title, not a chapter heading', async () => {
    const result = await parseManuscript(file(), 'numbered-chapters.docx', limits);
    expect(result.title).toBe('A framework for spreading heavy computations over many machines');
  });
});

describe('a Word title page that sets two names side by side on one line, a tab between them', () => {
  const file = () =>
    makeDocx([
      paragraph('Lantern light in the dark sector', 'Title'),
      docxParagraph(`<w:r><w:tab/></w:r>${docxRun('Ana Horvat')}<w:r><w:tab/></w:r>${docxRun('Ivo Kovač')}`),
      paragraph('Northvale University'),
      paragraph('Introduction', 'Heading1'),
      ...wordBodyParagraphs(12),
    ]);

  it('reads two names, not one of four words', async () => {
    const result = await parseManuscript(file(), 'side-by-side.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Ana Horvat', 'Ivo Kovač']);
    expect(result.text).toContain('Ana Horvat Ivo Kovač');
  });
});

describe('a Croatian, Slovene or Czech faculty named under the author', () => {
  const file = (faculty: string) =>
    makeDocx([
      paragraph('Lantern light in the dark sector', 'Title'),
      paragraph('Ana Horvat'),
      paragraph(faculty),
      paragraph('Introduction', 'Heading1'),
      ...wordBodyParagraphs(12),
    ]);

  it('reads "Fakultet ..." as the author’s affiliation, in capitals or not, and no name', async () => {
    for (const faculty of [
      'Fakultet elektrotehnike i računarstva',
      'FAKULTET ELEKTROTEHNIKE I RAČUNARSTVA',
    ]) {
      const result = await parseManuscript(file(faculty), 'faculty.docx', limits);
      expect(result.authors.map((a) => [a.name, a.affiliations])).toEqual([['Ana Horvat', [faculty]]]);
    }
  });

  it('reads Czech "Fakulta ..." and Slovene "Fakulteta ..." as affiliations too', async () => {
    for (const faculty of ['Fakulta informatiky', 'Fakulteta za elektrotehniko']) {
      const result = await parseManuscript(file(faculty), 'faculty.docx', limits);
      expect(result.authors.map((a) => a.affiliations)).toEqual([[faculty]]);
    }
  });
});

describe('a Word PDF whose title prints its spaces narrower than a word gap is read', () => {
  // Word's PDF prints the spaces its author typed as glyphs of their own; a title in capitals set
  // by formatting gave them a fifth of an em or less, and pdf.js gave each as a piece " ". Here each
  // word and space is drawn where Word put it, the gap 0.15 of the size; the space is set in the
  // regular face, which makes pdf.js give it as a piece of its own too.
  const size = 16;
  const words = ['QR', 'CODE', 'READING'];
  // Helvetica-Bold's advances (its AFM, thousandths of an em) of the letters used.
  const advance: Record<string, number> = {
    A: 722,
    C: 722,
    D: 722,
    E: 667,
    G: 778,
    I: 278,
    N: 722,
    O: 778,
    Q: 778,
    R: 722,
  };
  const wordWidth = (w: string) => ([...w].reduce((n, c) => n + advance[c]!, 0) / 1000) * size;
  const title = () => {
    const out: { text: string; size: number; x: number; y: number; bold: boolean }[] = [];
    let x = 150;
    for (const [k, w] of words.entries()) {
      if (k > 0) {
        out.push({ text: ' ', size, x, y: 700, bold: false });
        x += 0.15 * size;
      }
      out.push({ text: w, size, x, y: 700, bold: true });
      x += wordWidth(w);
    }
    return out;
  };
  const file = () =>
    makeTextPdf([
      [
        { text: 'UNIVERSITY OF NORTHVALE', size: 14, x: 150, y: 780 },
        ...title(),
        { text: 'Ana Horvat', size: 12, x: 150, y: 640 },
        ...bodyProse(560, 20),
      ],
    ]);

  it('keeps the spaces between the title’s words', async () => {
    const result = await parseManuscript(file(), 'narrow-spaces.pdf', limits);
    expect(result.title).toBe('QR CODE READING');
  });
});
