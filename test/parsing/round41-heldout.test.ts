// Layouts met in the thirty-seventh and thirty-eighth held-out sets that rounds 39 and 40 left (a
// byline giving each author's institution in brackets after the name, one of them a collective
// named by its own name only; an APA title page set all in the body's type, its title printed
// again over the text; a Word table of contents typed by hand formatting, its page numbers at a
// right tab stop led to by dots), fixed in the forty-first round. Names, titles and identifiers are
// made up; only the shapes follow the files.
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
  TITLE_STYLE,
  wordBodyParagraphs,
  textLine,
} from './make-files.ts';

const limits = testConfig().parsing;

describe('a byline giving each author’s institution in brackets, one of them named by its own name only', () => {
  // Pandoc's author field: "Name (Institution)" a line, the lines in one block under the title.
  const file = () =>
    makeTextPdf([
      [
        { text: 'Weaving Numbers Into Cords', size: 17, x: 72, y: 760, bold: true },
        textLine(
          'Mara Quellen (The Institute For Sound And Media, Northvale Academy of Music, Lakeside)',
          730,
          11,
          { bold: true },
        ),
        { text: 'Tomas Brandtner (Wavecraft Kernel)', size: 11, x: 72, y: 716, bold: true },
        { text: 'Abstract', size: 11, x: 72, y: 690, bold: true },
        ...bodyProse(672, 6),
        { text: 'Introduction', size: 11, x: 72, y: 580, bold: true },
        ...bodyProse(562, 20),
      ],
    ]);

  it('reads both names, without the brackets', async () => {
    const result = await parseManuscript(file(), 'bracketed.pdf', limits);
    expect(result.title).toBe('Weaving Numbers Into Cords');
    expect(result.authors.map((a) => a.name)).toEqual(['Mara Quellen', 'Tomas Brandtner']);
  });
});

describe('an APA title page set all in the body’s type, the title printed again over the text', () => {
  // Double spaced at 12 points: every line 24 points under the one before it.
  const lines = (texts: string[], top: number) =>
    texts.map((text, k) => ({ text, size: 12, x: 72, y: top - k * 24 }));
  const head = (page: number) => ({ text: `TIDES IN SMALL HARBORS ${page}`, size: 12, x: 72, y: 780 });
  const title = ['Tides in small harbors: Comparing gauge records with the models of the', 'coast'];
  const prose = (count: number) =>
    Array.from(
      { length: count },
      (_, k) => `Line ${k + 1} of the text, set double spaced as a draft for review is, and long enough.`,
    );
  const file = () =>
    makeTextPdf([
      [
        { text: 'Running head: TIDES IN SMALL HARBORS 1', size: 12, x: 72, y: 780 },
        ...lines(title, 620),
        ...lines(
          ['Hanna R. Velde1, Oskar Brink1, & Lena Fahrer1', '1 Northvale University of Technology'],
          548,
        ),
        ...lines(
          [
            'Author Note',
            'Correspondence concerning this article should be addressed to Hanna R. Velde, Harbor',
            'Road 4, 1234 AB, Northvale. E-mail: h.r.velde@northvale.example',
          ],
          380,
        ),
      ],
      [head(2), ...lines(['Abstract', ...prose(10)], 720)],
      [head(3), ...lines([...title, ...prose(24)], 720)],
      [head(4), ...lines(prose(28), 720)],
    ]);

  it('reads the title, the byline and the address from the title page', async () => {
    const result = await parseManuscript(file(), 'apa-draft.pdf', limits);
    expect(result.title).toBe(title.join(' '));
    expect(result.authors.map((a) => a.name)).toEqual(['Hanna R. Velde', 'Oskar Brink', 'Lena Fahrer']);
    expect(result.authors[0]!.emails).toEqual(['h.r.velde@northvale.example']);
  });
});

describe('a Word table of contents typed by hand formatting: no contents style, tabs to a stop led to by dots', () => {
  // A TOC field's entries in the Normal style: the number, a tab to a left stop, the chapter, a
  // tab to the right stop whose leader is a line of dots, the page number.
  const entry = (number: string, name: string, page: number) =>
    `<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="880" w:leader="none"/>` +
    `<w:tab w:val="right" w:pos="9629" w:leader="dot"/></w:tabs></w:pPr>` +
    `${docxRun(number)}<w:r><w:tab/></w:r>${docxRun(name)}<w:r><w:tab/></w:r>${docxRun(String(page))}</w:p>`;
  const file = () =>
    makeDocx(
      [
        paragraph('A Web Shop for a Small Wine Merchant', 'Title'),
        paragraph('Ruben Vermeulen'),
        paragraph('Final project, second year of web development'),
        docxParagraph(docxRun('Contents')),
        entry('1.', 'Scope of the project', 3),
        entry('2.', 'Database structure', 3),
        entry('3.', 'Choice of frameworks', 4),
        paragraph('Scope of the project', 'Heading1'),
        ...wordBodyParagraphs(12),
      ],
      [TITLE_STYLE],
    );

  it('prints the leader as dots, so that the entries are read as contents and end the front matter', async () => {
    const result = await parseManuscript(file(), 'hand-contents.docx', limits);
    expect(result.text).toContain('1. Scope of the project ........ 3');
    const front = result.sections.filter((s) => s.kind === 'front').map((s) => s.text);
    expect(front.join('\n')).not.toContain('Database structure');
  });
});
