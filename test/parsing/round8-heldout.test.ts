// Layouts met in the seventh held-out set, fixed in the eighth round: an APA title page set all at
// the body's size (title in bold, the author's name, the affiliation, an author note with the
// email at the foot of the page), where the lone name is the byline; a journal's name drawn as
// one large word in the page head over the real title (RSC); a "References" heading set in the
// block of an empty section's heading, over a list numbered by bare numbers (RSC); a note symbol
// raised before an author's affiliation letter ("∗a", RSC). Names, titles and addresses are made
// up; only the shapes follow the templates.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { splitMarks } from '../../src/parsing/names.ts';
import { findReferences } from '../../src/parsing/sections.ts';
import type { Block } from '../../src/parsing/types.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, piecesOnOneLine, textLine } from './make-files.ts';

const limits = testConfig().parsing;

type Line = Parameters<typeof makeTextPdf>[0][number][number];

const parse = (pages: Line[][]) => parseManuscript(makeTextPdf(pages), 'built.pdf', limits);

const onOneLine = (
  pieces: { text: string; sup?: boolean }[],
  y: number,
  size: number,
  bold = false,
): Line[] => piecesOnOneLine(pieces, y, size, { x: 150, bold });

/** Double-spaced lines at 12 points, as an APA manuscript sets everything. */
function doubleSpaced(texts: string[], y: number, x = 72): Line[] {
  return texts.map((text, k) => ({ text, size: 12, x, y: y - k * 24 }));
}

describe('an APA title page set all at the body’s size', () => {
  const page = (underName: string): Line[][] => [
    [
      { text: 'Reading the Habits of Readers Who Read Often', size: 12, x: 160, y: 700, bold: true },
      { text: 'Ann B. Carter', size: 12, x: 260, y: 652 },
      { text: underName, size: 12, x: 220, y: 628 },
      { text: 'Author Note', size: 12, x: 265, y: 460, bold: true },
      ...doubleSpaced(
        [
          'Correspondence concerning this article should be addressed to Ann B. Carter,',
          'Department of Reading Studies, Somewhere State University, 12 Main St., Town,',
          'ST 12345. E-mail: abc.reads.much@example.org',
        ],
        430,
      ),
    ],
    [
      { text: 'Abstract', size: 12, x: 270, y: 760, bold: true },
      ...doubleSpaced(
        Array.from(
          { length: 12 },
          (_, k) => `Line ${k + 1} of the abstract, long enough to read as the running prose of a paragraph.`,
        ),
        736,
      ),
    ],
  ];

  it('reads the lone name over the affiliation as the byline, with the email of the author note', async () => {
    const result = await parse(page('Somewhere State University'));
    expect(result.title).toBe('Reading the Habits of Readers Who Read Often');
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Ann B. Carter', ['abc.reads.much@example.org']],
    ]);
  });

  it('reads no name from a lone line over a line that names no institution', async () => {
    const result = await parse(page('Draft of the second of May'));
    expect(result.authors).toEqual([]);
  });
});

describe('a journal’s name drawn as one large word over the title (RSC)', () => {
  const page = (banner: string): Line[] => [
    { text: banner, size: 24, x: 42, y: 760, bold: true },
    { text: 'A Method for Measuring How Small Ions Move', size: 15, x: 150, y: 700, bold: true },
    { text: 'Through Layers of Charged Polymers', size: 15, x: 150, y: 682, bold: true },
    ...onOneLine(
      [
        { text: 'Ann B. Carter,' },
        { text: '*a', sup: true },
        { text: ' Bob Dunn,' },
        { text: 'b', sup: true },
        { text: ' and Cleo Evans' },
        { text: 'a', sup: true },
      ],
      660,
      11,
      true,
    ),
    { text: 'Abstract', size: 10, x: 72, y: 620, bold: true },
    ...bodyProse(600, 20),
    textLine('a Department of Chemistry, Somewhere University, Town, Country. E-mail:', 80, 7),
    { text: 'contact@example.org', size: 7, x: 72, y: 71 },
    { text: 'b Institute of Things, Elsewhere University, Town, Country.', size: 7, x: 72, y: 62 },
  ];

  it('is no title: the title is the block over the byline', async () => {
    const result = await parse([page('Chemtopia')]);
    expect(result.title).toBe(
      'A Method for Measuring How Small Ions Move Through Layers of Charged Polymers',
    );
    expect(result.authors.map((a) => a.name)).toEqual(['Ann B. Carter', 'Bob Dunn', 'Cleo Evans']);
  });

  it('gives the email of the affiliation note to the author whose star is raised before the letter', async () => {
    const result = await parse([page('Chemtopia')]);
    expect(result.authors.map((a) => a.emails)).toEqual([['contact@example.org'], [], []]);
    expect(result.authors[0]!.corresponding).toBe(true);
  });
});

describe('a note symbol raised before an affiliation letter', () => {
  it('is read as a mark, and so is the letter', () => {
    expect(splitMarks('∗a')).toEqual(['a', '*']);
    expect(splitMarks('†1')).toEqual(['1', '†']);
    expect(splitMarks('b‡')).toEqual(['b', '‡']);
  });

  it('does not make a word a mark', () => {
    expect(splitMarks('*ab')).toEqual([]);
  });
});

/** A block at `relSize` whose lines are `texts`. */
function block(texts: string[], relSize = 1, emphasis = false): Block {
  return {
    text: texts.join(' '),
    relSize,
    emphasis,
    styleLevel: null,
    page: 8,
    runs: [],
    links: [],
    lines: texts.map((text) => ({ text, indent: 0, gapAbove: 0.1 })),
  };
}

describe('a "References" heading set in the block of an empty section’s heading (RSC)', () => {
  const body = block([
    'The results above show that the method works for the ions measured here and for others alike,',
    'and that the rates it gives agree with the ones measured by the older methods of the field.',
  ]);

  it('opens a list whose entries are numbered by bare numbers', () => {
    const blocks = [
      body,
      block(['5 Conclusions', 'References'], 1.33, true),
      block([
        '1 A. Carter, B. Dunn and C. Evans, J. Chem. Things, 2001, 12,',
        '100–110.',
        '2 D. B. Fox, Moving Ions, Some Press, 1999.',
      ]),
    ];
    expect(findReferences(blocks)).toMatchObject({ start: 2, end: 3, headingIndex: 1 });
  });

  it('is not taken over a bare number that opens a sentence', () => {
    const blocks = [
      body,
      block(['5 Conclusions', 'References'], 1.33, true),
      block(['1 The method is cheap and quick to set up in most laboratories.']),
    ];
    expect(findReferences(blocks)).toBeNull();
  });
});
