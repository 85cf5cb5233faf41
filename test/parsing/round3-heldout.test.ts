// Layouts met in the third held-out set of templates: a byline and its affiliations set in the
// title's size (ICASSP's spconf), names with their email on the same line or beside a column of
// emails (JMLR), a byline led in by "By" or "... by" (IMS, AAAI), a Word byline wrapped by hand
// after a comma, affiliations set in the byline's Word style (apaquarto), a reference list hung by
// three quarters of an em (OUP's bioinfo), a body as an entry's author (AAAI); and two kinds missed
// in the last round: a byline in capitals with memberships in brackets (IEEE Access), a DOI with an
// arXiv identifier glued to it, an accent set over a dotless i ("Mar ın"), names set apart only by
// raised stars ("⋆", MNRAS). Names and text are made up; only the shapes follow the templates.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { splitByline } from '../../src/parsing/names.ts';
import { findDoi, splitReferences } from '../../src/parsing/references.ts';
import { mendAccents } from '../../src/parsing/pdf/geometry.ts';
import { composeAccents } from '../../src/parsing/text-utils.ts';
import { testConfig } from '../helpers/app.ts';
import {
  bodyProse,
  makeDocx,
  makeTextPdf,
  piecesOnOneLine,
  textLine,
  paragraphStyles,
} from './make-files.ts';

const limits = testConfig().parsing;

type Line = Parameters<typeof makeTextPdf>[0][number][number];

const parse = (pages: Line[][]) => parseManuscript(makeTextPdf(pages), 'built.pdf', limits);

const onOneLine = (
  pieces: { text: string; sup?: boolean }[],
  y: number,
  size: number,
  bold = false,
): Line[] => piecesOnOneLine(pieces, y, size, { x: 72, bold });

describe('a byline and affiliations set in the title’s size (spconf)', () => {
  const page = (affiliationMark: string): Line[] => [
    { text: 'FAST ESTIMATES OF SOMETHING FROM FEW SAMPLES', size: 12, x: 120, y: 772, bold: true },
    ...onOneLine(
      [
        { text: 'Ann Carter' },
        { text: affiliationMark, sup: true },
        { text: ', Bob Dunn' },
        { text: affiliationMark, sup: true },
        { text: ', Cleo Evans' },
        { text: '†', sup: true },
      ],
      740,
      12,
      true,
    ),
    ...onOneLine(
      [
        { text: affiliationMark, sup: true },
        { text: 'Laboratory of Signals, Somewhere University, Town, Country' },
      ],
      722,
      12,
    ),
    ...onOneLine(
      [
        { text: '†', sup: true },
        { text: 'Department of Things, Elsewhere Institute of Technology, City, Country' },
      ],
      708,
      12,
    ),
    { text: 'ABSTRACT', size: 10, x: 150, y: 680, bold: true },
    ...bodyProse(665),
  ];

  it('takes the title over the longer byline and affiliation blocks, and reads the byline', async () => {
    for (const mark of ['*', '?']) {
      const result = await parse([page(mark)]);
      expect(result.title).toBe('FAST ESTIMATES OF SOMETHING FROM FEW SAMPLES');
      expect(result.authors.map((a) => a.name)).toEqual(['Ann Carter', 'Bob Dunn', 'Cleo Evans']);
    }
  });
});

describe('a name and its email on one line (JMLR)', () => {
  it('reads each name with the email beside it, and a column of names beside a column of emails', async () => {
    const result = await parse([
      [
        { text: 'Learning Things From Other Things', size: 14, x: 150, y: 760, bold: true },
        { text: 'Ann Carter', size: 10, x: 72, y: 730, bold: true },
        { text: 'ann@example.org', size: 10, x: 420, y: 730 },
        { text: 'Department of Statistics, Somewhere University, Town, Country', size: 9, x: 72, y: 718 },
        { text: 'Bob Dunn', size: 10, x: 72, y: 700, bold: true },
        { text: 'Cleo Evans', size: 10, x: 72, y: 688, bold: true },
        { text: 'bob.dunn@example.org', size: 10, x: 420, y: 700 },
        { text: 'cleo.evans@example.org', size: 10, x: 420, y: 688 },
        { text: 'Elsewhere Institute of Technology, City, Country', size: 9, x: 72, y: 676 },
        { text: 'Editor: Somebody Else', size: 9, x: 72, y: 660 },
        { text: 'Abstract', size: 11, x: 280, y: 640, bold: true },
        ...bodyProse(625),
      ],
    ]);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Ann Carter', ['ann@example.org']],
      ['Bob Dunn', ['bob.dunn@example.org']],
      ['Cleo Evans', ['cleo.evans@example.org']],
    ]);
  });
});

describe('a byline led in by "by"', () => {
  it('drops "By" (IMS) and a phrase ending in "by" before the first name', () => {
    const names = (text: string) => splitByline([{ text, sup: false }]).map((n) => n.name);
    expect(names('BY ANN CARTER, BOB DUNN')).toEqual(['ANN CARTER', 'BOB DUNN']);
    expect(names('Style contributions by Ann Carter, Bob Dunn')).toEqual(['Ann Carter', 'Bob Dunn']);
    // "by" inside a word, or a name that has "By" as a word of its own but no name after it, stays.
    expect(names('Abby Lane, Derby Smith')).toEqual(['Abby Lane', 'Derby Smith']);
  });
});

describe('a Word byline wrapped by hand after a comma', () => {
  it('reads the names on the line after the break as more of the byline, not as an address', async () => {
    const runs = (text: string, sup = false) =>
      `<w:r>${sup ? '<w:rPr><w:vertAlign w:val="superscript"/></w:rPr>' : ''}<w:t xml:space="preserve">${text}</w:t></w:r>`;
    const docx = makeDocx(
      [
        `<w:p><w:pPr><w:pStyle w:val="Title"/></w:pPr>${runs('Measuring Things Again, More Carefully')}</w:p>`,
        `<w:p><w:pPr><w:pStyle w:val="AuthorName"/></w:pPr>${runs('Ann Carter')}${runs('1', true)}${runs(', Bob Dunn')}${runs('2', true)}${runs(',')}<w:r><w:br/></w:r>${runs('Cleo Evans')}${runs('1', true)}${runs(', Dan Fox')}${runs('2', true)}</w:p>`,
        `<w:p>${runs('1', true)}${runs('Somewhere University ')}${runs('2', true)}${runs('Elsewhere Institute')}</w:p>`,
        `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>${runs('Introduction')}</w:p>`,
        `<w:p>${runs('Things were measured again, and more carefully than the last time they were measured.')}</w:p>`,
      ],
      [
        paragraphStyles([
          ['Title', 'Title'],
          ['AuthorName', 'Author Name'],
          ['Heading1', 'heading 1'],
        ]),
      ],
    );
    const result = await parseManuscript(docx, 'built.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Ann Carter', 'Bob Dunn', 'Cleo Evans', 'Dan Fox']);
  });
});

describe('affiliations set in the byline’s Word style (apaquarto)', () => {
  it('are no names, so a correspondence note names one author and its email is hers', async () => {
    const runs = (text: string, sup = false) =>
      `<w:r>${sup ? '<w:rPr><w:vertAlign w:val="superscript"/></w:rPr>' : ''}<w:t xml:space="preserve">${text}</w:t></w:r>`;
    const author = (...content: string[]) =>
      `<w:p><w:pPr><w:pStyle w:val="Author"/></w:pPr>${content.join('')}</w:p>`;
    const docx = makeDocx(
      [
        `<w:p><w:pPr><w:pStyle w:val="Title"/></w:pPr>${runs('Measuring Things Again, More Carefully')}</w:p>`,
        author(runs('Ann Carter'), runs('1', true), runs(', and Bob Dunn'), runs('2', true)),
        author(runs('1', true), runs('Department of Things, Somewhere University')),
        author(runs('2', true), runs('School of Stuff, TU Elsewhere')),
        `<w:p>${runs('Correspondence concerning this article should be addressed to Bob Dunn, School of Stuff, TU Elsewhere, Email: bob.dunn@example.org')}</w:p>`,
        `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>${runs('Introduction')}</w:p>`,
        `<w:p>${runs('Things were measured again, and more carefully than the last time they were measured.')}</w:p>`,
      ],
      [
        paragraphStyles([
          ['Title', 'Title'],
          ['Author', 'Author'],
          ['Heading1', 'heading 1'],
        ]),
      ],
    );
    const result = await parseManuscript(docx, 'built.docx', limits);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Ann Carter', []],
      ['Bob Dunn', ['bob.dunn@example.org']],
    ]);
  });
});

describe('reference lists', () => {
  const line = (text: string, indent = 0) => ({ text, indent, gapAbove: 0.12 });

  it('splits entries hung by three quarters of the body’s size (bioinfo), though two lines open a column', () => {
    // The list's first line and the first line of the next column stand apart by a wider gap:
    // read as spacing between entries, those two gaps made the whole list one or two entries.
    const entries = splitReferences(
      [
        { ...line('Carter, A., Dunn, B., and Evans, C. (2008). A tool for the analysis'), gapAbove: 0.25 },
        line('of things measured twice. Journal of Things, 24(14), 1650–1651.', 0.78),
        line('Fox, D. (1935). The design of small experiments. In The Design of'),
        { ...line('Experiments. Some Press, Town.', 0.78), gapAbove: 0.4 },
        line('Gunn, E. and Hale, F. (2011). A simple approach to ranking things'),
        line('through a process. Journal of Stuff, 12, 1–9.', 0.78),
      ],
      null,
    );
    expect(entries.map((e) => e.text.slice(0, 9))).toEqual(['Carter, A', 'Fox, D. (', 'Gunn, E. ']);
  });

  it('starts an entry at a body named as its author, with no initials, before the year (AAAI)', () => {
    const entries = splitReferences(
      [
        line('Carter, A. 1984. A Study of Things. Journal of Things, 20(1):'),
        line('3–19.'),
        line('NASA. 2015. Some Planet Seen Closely. https://www.example.'),
        line('org/some-planet. Accessed: 2018-12-06.'),
        line('World Health Organization. 2020. A Report on Things. Geneva.'),
        line('Rice, J. 1986. Solving Problems in Parallel. Technical Report'),
        line('KSL-86-19, Some University.'),
      ],
      null,
    );
    expect(entries.map((e) => e.text.split('.')[0])).toEqual([
      'Carter, A',
      'NASA',
      'World Health Organization',
      'Rice, J',
    ]);
  });
});

describe('a byline in capitals with each membership in brackets (IEEE Access)', () => {
  it('reads the names, drops the memberships, and splits on "AND"', async () => {
    const result = await parse([
      [
        { text: 'A Study of Things Sent Over a Network', size: 20, x: 72, y: 760 },
        ...onOneLine(
          [
            { text: 'ANN CARTER' },
            { text: '1', sup: true },
            { text: ' (Student Member, IEEE), BOB DUNN' },
            { text: '2', sup: true },
            { text: ' (Senior Member, IEEE), AND CLEO EVANS' },
            { text: '1,2', sup: true },
            { text: ' (Fellow, IEEE)' },
          ],
          728,
          9,
          true,
        ),
        { text: '1', size: 5, x: 72, y: 712 },
        { text: 'School of Things, Somewhere University, Town 12345, Country', size: 7, x: 76, y: 709 },
        { text: '2', size: 5, x: 72, y: 700 },
        { text: 'Department of Stuff, Elsewhere Institute, City 67890, Country', size: 7, x: 76, y: 697 },
        textLine(
          'ABSTRACT This paper studies things sent over a network and how many of them arrive.',
          670,
          9,
        ),
        ...bodyProse(650),
      ],
    ]);
    expect(result.authors.map((a) => a.name)).toEqual(['Ann Carter', 'Bob Dunn', 'Cleo Evans']);
  });
});

describe('a DOI with the next identifier glued to it', () => {
  it('ends before an arXiv identifier run into it, and keeps a DOI that names arXiv with a dot', () => {
    expect(findDoi('Phys. Rev. D 100, 123456 (2019), doi:10.1103/PhysRevD.100.123456arXiv:1905.01234')).toBe(
      '10.1103/PhysRevD.100.123456',
    );
    expect(findDoi('Preprint, https://doi.org/10.48550/arXiv.1905.01234.')).toBe('10.48550/arXiv.1905.01234');
  });
});

describe('an accent over a dotless i or j (TeX’s \\i, \\j)', () => {
  const item = (str: string, x: number, w: number) => ({ str, x, y: 700, w, size: 10, font: 'F1' });
  it('becomes the accented letter, across items and inside one', () => {
    // pdf.js ends one item with the accent and its shift read as a space, the next starts at the ı.
    expect(mendAccents([item('Ana Mar ´', 90, 42), item('ın Soto', 127, 30)]).map((i) => i.str)).toEqual([
      'Ana Marín Soto',
    ]);
    expect(composeAccents('Mart´ınez and Ben´ıtez')).toBe('Martínez and Benítez');
    expect(composeAccents('a dotless ı alone stays')).toBe('a dotless ı alone stays');
  });
});

describe('names set apart only by raised marks that are stars (MNRAS’s ⋆)', () => {
  it('ends each name at its star, read as "*" (the corresponding author’s mark)', () => {
    const names = splitByline([
      { text: 'Ann Carter', sup: false },
      { text: '⋆', sup: true },
      { text: ' Bob Dunn', sup: false },
      { text: '†', sup: true },
      { text: ' Cleo Evans', sup: false },
      { text: '∗', sup: true },
      { text: ' and Dan Fox', sup: false },
      { text: '1★', sup: true },
    ]);
    expect(names.map((n) => [n.name, n.marks])).toEqual([
      ['Ann Carter', ['*']],
      ['Bob Dunn', ['†']],
      ['Cleo Evans', ['*']],
      ['Dan Fox', ['1', '*']],
    ]);
  });
});
