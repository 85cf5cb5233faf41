// Layouts met in the sixty-first held-out set (group authors and large collaborations: AASTeX's
// author groups over two pages, a collaboration named before its members), fixed in the
// sixty-sixth round. Names, titles and entries are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import {
  bodyProse,
  makeTextPdf,
  piecesOnOneLine,
  textLine,
  textWidth,
  type PdfTextLine,
} from './make-files.ts';

const limits = testConfig().parsing;

/** A byline line in bold at `size`: each name followed by its raised mark, the names parted by commas. */
const markedNames = (names: [string, string][], y: number, size = 9): PdfTextLine[] =>
  piecesOnOneLine(
    names.flatMap(([name, mark], k) => [
      { text: `${k === 0 ? '' : ' '}${name},` },
      { text: mark, sup: true },
    ]),
    y,
    size,
    { bold: true },
  );

describe('a title in the body’s type and face over a byline set in a face of its own (AASTeX 6.2)', () => {
  const TITLE = 'Tidal sorting of pebbles on shingle spits and the bands it leaves';
  // A collaboration's byline: its name, then thirty people on five lines, a mark after each.
  const GIVEN = ['Jane Q.', 'Amos T.', 'Lia', 'Ode K.', 'Una', 'Rex M.'];
  const FAMILY = ['Roe', 'Poe', 'Wu', 'Park', 'Vale'];
  const people = FAMILY.flatMap((f) => GIVEN.map((g) => `${g} ${f}`));
  const bylineLines = Array.from({ length: 5 }, (_, l) =>
    markedNames(
      people.slice(l * 6, l * 6 + 6).map((n, j): [string, string] => [n, String(((l + j) % 3) + 1)]),
      740 - l * 12,
    ),
  );
  const page = [
    textLine(TITLE, 760, 10),
    ...piecesOnOneLine([{ text: 'Garden Collaboration,' }], 752, 9, { bold: true }),
    ...bylineLines.flat(),
    textLine('1 Department of Coasts, University of Northvale, Northvale, Canada', 670, 8),
    textLine('2 Harbour Institute, Southvale, Norway', 660, 8),
    textLine('3 School of Geography, Eastvale College, Eastvale, Chile', 650, 8),
    textLine('ABSTRACT', 630, 9, { bold: true }),
    textLine('Pebbles on a spit are sorted by the tide into bands of one size, which we measure here.', 616),
    ...bodyProse(590, 30),
  ];

  it('takes the line over the byline for the title, not the byline', async () => {
    const result = await parseManuscript(makeTextPdf([page]), 'aastex62-title.pdf', limits);
    expect(result.title).toBe(TITLE);
    expect(result.authors.map((a) => a.name)).toEqual(people);
  });
});

describe('a collaboration’s author groups, each under its label, running on over the next page', () => {
  const first = [
    textLine('Open tools for the survey of shingle coasts', 780, 14, { bold: true }),
    ...markedNames(
      [
        ['Jane Q. Roe', '1'],
        ['Amos T. Poe', '2'],
        ['Lia Wu', '1'],
      ],
      756,
    ),
    textLine('et al.', 738, 9, { bold: true, x: 250 }),
    textLine('(Paper Authors)', 720, 9, { bold: true, x: 230 }),
    ...markedNames(
      [
        ['Ode K. Park', '3'],
        ['Una Vale', '2'],
        ['Rex M. Hale', '4'],
      ],
      700,
    ),
    ...markedNames(
      [
        ['Ida N. Moss', '1'],
        ['Tom B. Reed', '5'],
      ],
      688,
    ),
    // The first page's notes at its foot, in two paragraphs.
    textLine('Corresponding author: Coordination Committee', 130, 7),
    textLine('committee@garden.example.org', 121, 7),
    textLine(
      'The author list has two parts: the paper’s authors, then the contributors in alphabetical order.',
      100,
      7,
    ),
    textLine('The order of the list says nothing of the contributions to the project as a whole.', 91, 7),
  ];
  const second = [
    textLine('2', 800, 8, { x: 290 }),
    ...markedNames(
      [
        ['Ann C. Sole', '6'],
        ['Bo Lindqvist', '2'],
        ['Cy D. Marsh', '7'],
      ],
      760,
    ),
    ...piecesOnOneLine(
      [
        { text: 'Dora E. Vance,' },
        { text: '8', sup: true },
        { text: ' and Eli F. Ward' },
        { text: '2', sup: true },
      ],
      748,
      9,
      { bold: true },
    ),
    textLine('(Project Contributors)', 732, 9, { bold: true, x: 140 }),
    textLine('1 Department of Coasts, University of Northvale, Northvale, Canada', 712, 8),
    textLine('2 Harbour Institute, Southvale, Norway', 702, 8),
    textLine('ABSTRACT', 680, 9, { bold: true }),
    textLine('We describe open tools for surveying shingle coasts and the community that keeps them.', 666),
    ...bodyProse(640, 30),
  ];

  it('reads every group’s names, past the labels and the first page’s notes', async () => {
    const result = await parseManuscript(makeTextPdf([first, second]), 'aastex631-groups.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual([
      'Jane Q. Roe',
      'Amos T. Poe',
      'Lia Wu',
      'Ode K. Park',
      'Una Vale',
      'Rex M. Hale',
      'Ida N. Moss',
      'Tom B. Reed',
      'Ann C. Sole',
      'Bo Lindqvist',
      'Cy D. Marsh',
      'Dora E. Vance',
      'Eli F. Ward',
    ]);
  });

  it('does not run on over the next page when its first lines are no names', async () => {
    const prose = [...bodyProse(780, 40)];
    const result = await parseManuscript(makeTextPdf([first, prose]), 'groups-then-prose.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual([
      'Jane Q. Roe',
      'Amos T. Poe',
      'Lia Wu',
      'Ode K. Park',
      'Una Vale',
      'Rex M. Hale',
      'Ida N. Moss',
      'Tom B. Reed',
    ]);
  });
});

describe('ORCID links over names set in one run of text (names without marks, AASTeX)', () => {
  it('gives each link to the name under it, not the whole run to the first', async () => {
    const size = 9;
    const x = 72;
    // One text item: three names with no mark between them, the last two linked to ORCID records.
    const run = 'Amos Poe, Lia Wu, Odessa Kristiansen-Parkhurst,';
    const lines = [
      textLine('Tidal sorting of pebbles on shingle spits', 780, 14, { bold: true }),
      ...markedNames(
        [
          ['Jane Q. Roe', '1'],
          ['Una Vale', '2'],
        ],
        756,
        size,
      ),
      textLine(run, 744, size, { bold: true, x }),
      ...piecesOnOneLine([{ text: 'and Rex M. Hale' }, { text: '1', sup: true }], 732, size, { bold: true }),
      textLine('1 Department of Coasts, University of Northvale, Northvale, Canada', 710, 8),
      textLine('2 Harbour Institute, Southvale, Norway', 700, 8),
      textLine('ABSTRACT', 680, 9, { bold: true }),
      textLine(
        'Pebbles on a spit are sorted by the tide into bands of one size, which we measure here.',
        666,
      ),
      ...bodyProse(640, 30),
    ];
    // The rectangles over "Lia Wu," and over the long name, by shares of the run's estimated width
    // with room to spare on both sides (the font's true widths differ from the estimate); the
    // run's middle lies under the second.
    const width = textWidth(run, size);
    const result = await parseManuscript(
      makeTextPdf([lines], '', [
        [
          {
            rect: [x + 0.17 * width, 742, x + 0.35 * width, 753],
            url: 'https://orcid.org/0000-0002-1825-0097',
          },
          {
            rect: [x + 0.37 * width, 742, x + 1.05 * width, 753],
            url: 'https://orcid.org/0000-0001-5109-3700',
          },
        ],
      ]),
      'names-in-one-run.pdf',
      limits,
    );
    expect(result.authors.map((a) => [a.name, a.orcid])).toEqual([
      ['Jane Q. Roe', null],
      ['Una Vale', null],
      ['Amos Poe', null],
      ['Lia Wu', '0000-0002-1825-0097'],
      ['Odessa Kristiansen-Parkhurst', '0000-0001-5109-3700'],
      ['Rex M. Hale', null],
    ]);
  });
});
