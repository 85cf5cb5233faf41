// Layouts met in the twenty-third held-out set, fixed in the twenty-fifth round.
// Names, titles and texts are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { withoutTitles } from '../../src/corpus/authors/name-titles.ts';
import { testConfig } from '../helpers/app.ts';
import {
  bodyProse,
  makeDocx,
  makeTextPdf,
  paragraph,
  piecesOnOneLine,
  textLine,
  paragraphStyles,
} from './make-files.ts';

const limits = testConfig().parsing;

const prose = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    paragraph(
      `Paragraph ${i + 1} of the body describes the method, the data and the results of this study at length.`,
    ),
  );

describe('a conference byline over its one unmarked affiliation, both in one block (JACoW)', () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'GRAPH COLOURING OF SPARSE NETWORKS FOR', size: 14, x: 86, y: 736, bold: true },
        { text: 'FASTER TRAFFIC ROUTING IN CITIES', size: 14, x: 113, y: 714, bold: true },
        ...piecesOnOneLine(
          [{ text: 'J. V. Smith, M. B. Alves' }, { text: '*', sup: true }, { text: ', F. H. de Costa' }],
          682,
          12,
          {
            x: 181,
          },
        ),
        textLine('Institute of Applied Routing (IAR), 12345-678, Springfield, Brazil', 664, 12, { x: 70 }),
        { text: 'Resumo', size: 12, x: 57, y: 636, bold: true },
        ...bodyProse(614, 12).map((l) => ({ ...l, x: 68 })),
        { text: 'INTRODUCTION', size: 12, x: 100, y: 440, bold: true },
        ...bodyProse(420, 25),
      ],
    ]);

  it('reads the names on the first line and leaves the affiliation out', async () => {
    const result = await parseManuscript(file(), 'jacow.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['J. V. Smith', 'M. B. Alves', 'F. H. de Costa']);
  });
});

describe('Czech and Slovak degrees written before a name ("Bc.", "Ing.", "Mgr. et Mgr.")', () => {
  const file = () =>
    makeDocx([
      paragraph('Řídké grafy a rychlé trasy v městské dopravě', 'Title'),
      paragraph('Bc. Jana Nováková, Ing. Petr Dvořák, MUDr. Eva Malá'),
      paragraph('Katedra aplikované matematiky, Univerzita v Městě'),
      ...prose(8),
    ]);

  it('are cut from the byline’s names', async () => {
    const result = await parseManuscript(file(), 'clanek.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Jana Nováková', 'Petr Dvořák', 'Eva Malá']);
  });

  it('are cut only with their stop: a name that reads like one stays whole', () => {
    expect(withoutTitles('Mgr. et Mgr. Jana Nováková')).toBe('Jana Nováková');
    expect(withoutTitles('Doc Rivers')).toBe('Doc Rivers');
    expect(withoutTitles('Ing Marie Olsen')).toBe('Ing Marie Olsen');
  });
});

/** Headings of three levels, under the ids a localised LibreOffice gives them ("Überschrift"). */
const headingStyles = paragraphStyles(
  [1, 2, 3].map((n): [string, string, string] => [
    `Berschrift${n}`,
    `Heading ${n}`,
    `<w:pPr><w:outlineLvl w:val="${n - 1}"/></w:pPr>`,
  ]),
);

describe('a labelled byline with the address after a name and the affiliation in brackets (LibreOffice)', () => {
  const file = (byline: string) =>
    makeDocx(
      [
        paragraph('Sharing Field Notes - A Review of Tools for Open Botany', 'Heading1'),
        paragraph(byline),
        paragraph('* Corresponding author'),
        paragraph('Keywords: botany, open science'),
        paragraph('Abstract', 'Heading2'),
        paragraph('Background', 'Heading3'),
        paragraph(
          'We review tools that share field notes openly and ask what they still lack for botanists.',
        ),
        paragraph('Materials and methods', 'Heading3'),
        paragraph('We compared ten tools by their licences, their formats and how long they keep the notes.'),
        paragraph('Results', 'Heading3'),
        paragraph('Most tools share notes but few keep the specimens linked to them over time.'),
        paragraph('Background', 'Heading2'),
        ...prose(8),
      ].map((p) => p.replace(/w:val="Heading(\d)"/, 'w:val="Berschrift$1"')),
      [headingStyles],
    );

  it('reads the three names and gives the address to the first', async () => {
    const result = await parseManuscript(
      file(
        'Authors: Jane Roe* (j.roe@uni-northvale.de), Ann Lee, Tom Fox (Institute for Botany, University of Northvale, Northvale, Germany)',
      ),
      'review.docx',
      limits,
    );
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Jane Roe', ['j.roe@uni-northvale.de']],
      ['Ann Lee', []],
      ['Tom Fox', []],
    ]);
  });

  it('reads an abstract whose parts have headings, "Materials and methods" among them', async () => {
    const result = await parseManuscript(file('Authors: Jane Roe, Ann Lee, Tom Fox'), 'review.docx', limits);
    expect(result.abstract).toContain('We compared ten tools');
    expect(result.abstract).toContain('few keep the specimens');
  });
});

describe('a structured abstract in a PDF whose every line is a block of its own (LibreOffice export)', () => {
  /** Lines 20 points apart at 10 points: too far apart to be joined into paragraphs. */
  const spaced = (y: number, texts: string[]) =>
    texts.map((text, i) => ({ text, size: 10, x: 72, y: y - i * 20 }));
  const file = () =>
    makeTextPdf([
      [
        textLine('Sharing Field Notes - A Review of Tools for Open Botany', 790, 16, { bold: true }),
        { text: 'Authors: Jane Roe, Ann Lee, Tom Fox', size: 10, x: 72, y: 760 },
        { text: 'Abstract', size: 14, x: 72, y: 730, bold: true },
        { text: 'Background', size: 12, x: 72, y: 710, bold: true },
        ...spaced(692, [
          'We review the tools that share field notes openly and ask what they',
          'still lack for botanists who work far from any network in the field.',
        ]),
        { text: 'Materials and methods', size: 12, x: 72, y: 640, bold: true },
        ...spaced(622, [
          'We compared ten tools by their licences, their formats and how long',
          'they keep the notes and the photographs taken with them.',
        ]),
        { text: 'Results', size: 12, x: 72, y: 570, bold: true },
        ...spaced(552, ['Most tools share notes but few keep the specimens linked to them.']),
        { text: 'Background', size: 14, x: 72, y: 520, bold: true },
        ...bodyProse(500, 25),
      ],
    ]);

  it('reads the parts over the lines of the first one', async () => {
    const result = await parseManuscript(file(), 'review.pdf', limits);
    expect(result.abstract).toContain('still lack for botanists');
    expect(result.abstract).toContain('few keep the specimens');
  });
});
