// Layouts met in the fortieth held-out set (a physics meeting's proceedings read for a
// collaboration, Science's double-spaced template, a conference's cover page before the paper,
// Quantum's names linked to their ORCID records), fixed in the forty-third round. Names, titles
// and identifiers are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, piecesOnOneLine, textWidth, textLine } from './make-files.ts';

const limits = testConfig().parsing;

const TITLE = 'Lanterns in the Dark Sector at Twelve Gigahertz';

/** The proceedings' first page: title, the speaker's line, then the lines under it, then the abstract. */
function proceedings(
  speaker: { text: string; sup?: boolean }[],
  under: { text: string; y: number }[],
  speakerSize = 11,
) {
  return makeTextPdf([
    [
      { text: TITLE, size: 14, x: 120, y: 780, bold: true },
      ...piecesOnOneLine(speaker, 752, speakerSize, { x: 150 }),
      ...under.map((u) => ({ text: u.text, size: 10, x: 190, y: u.y })),
      { text: 'Abstract', size: 12, x: 72, y: 640, bold: true },
      ...bodyProse(620, 6),
      { text: '1 Introduction', size: 12, x: 72, y: 520, bold: true },
      ...bodyProse(500, 20),
    ],
  ]);
}

describe('a speaker who reports for a collaboration', () => {
  it('reads the name before "on behalf of the ... Collaboration", not the collaboration', async () => {
    const file = proceedings(
      [{ text: 'Jane Q Roe on behalf of the Lantern Collaboration' }, { text: '1', sup: true }],
      [{ text: '1 Department of Physics, Northvale University, Freedonia', y: 736 }],
    );
    const result = await parseManuscript(file, 'lantern.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Q Roe']);
  });

  it('reads the name before "for the ... Consortium" too', async () => {
    const file = proceedings(
      [{ text: 'Bo Poe for the Lantern Consortium' }, { text: '1', sup: true }],
      [{ text: '1 Department of Physics, Northvale University, Freedonia', y: 736 }],
    );
    const result = await parseManuscript(file, 'lantern.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Bo Poe']);
  });
});

describe('a lone name over its institution with the email address on the line under it', () => {
  it('reads the name as the byline and gives it the address its note mark opens', async () => {
    // SciPost's proceedings: title, name, then institution and "*address" as one block, all at
    // the body's size.
    const file = proceedings(
      [{ text: 'Jane Roe' }],
      [
        { text: 'Northvale Institute of Technology, Freedonia', y: 734 },
        { text: '*jroe@northvale.example', y: 722 },
      ],
      10,
    );
    const result = await parseManuscript(file, 'lantern.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([['Jane Roe', ['jroe@northvale.example']]]);
  });
});

/** Lines of prose 24 points apart at 12 points (a manuscript set double-spaced), from `y` down. */
function doubleSpaced(y: number, texts: string[], x = 72, bold = false) {
  return texts.map((text, i) => ({ text, size: 12, x, y: y - i * 24, bold }));
}

const PARAGRAPH = [
  'The lanterns were counted at dusk on every night of the survey, along the whole shore of the',
  'lake and at the three stations inland, by two observers who kept their tallies apart until the',
  'morning. Their counts agreed to within a tenth on most nights; where they did not, the lower',
  'count was kept. The survey ran for two summers, and the second repeated the first in every',
  'detail of its method, so that the two could be compared night by night.',
];

describe('a manuscript set double-spaced', () => {
  it('reads the lines of a paragraph as one paragraph, not a paragraph a line', async () => {
    const file = makeTextPdf([
      [
        { text: TITLE, size: 16, x: 100, y: 790, bold: true },
        { text: 'Jane Roe and Bo Poe', size: 12, x: 230, y: 760 },
        { text: '1 Introduction', size: 14, x: 72, y: 720, bold: true },
        ...doubleSpaced(690, PARAGRAPH),
        { text: '2 Methods', size: 14, x: 72, y: 550, bold: true },
        ...doubleSpaced(520, PARAGRAPH),
      ],
    ]);
    const result = await parseManuscript(file, 'lanterns.pdf', limits);
    const intro = result.sections.find((s) => s.heading === '1 Introduction');
    expect(intro?.text).toContain('along the whole shore of the lake');
    expect(intro?.text).not.toContain('\n');
  });

  it("keeps a paragraph's short last line apart from the line under it (a title page set double-spaced)", async () => {
    // A Word manuscript's title page, double-spaced and set from the left margin: the byline runs
    // over two lines, its note under it. A paragraph's lines but its last fill the column; the
    // byline's second line does not, so the note is a paragraph of its own, not the byline's end.
    const file = makeTextPdf([
      [
        { text: TITLE, size: 16, x: 72, y: 780, bold: true },
        ...doubleSpaced(740, [
          'Authors: Jane Roe* (jroe@northvale.example), Bo Poe, Al Doe (Department of',
          'Physics, Northvale University, Freedonia)',
          '* Corresponding author',
        ]),
        { text: 'Abstract', size: 14, x: 72, y: 650, bold: true },
        ...doubleSpaced(620, PARAGRAPH),
        { text: '1 Introduction', size: 14, x: 72, y: 490, bold: true },
        ...doubleSpaced(460, [...PARAGRAPH, ...PARAGRAPH]),
      ],
    ]);
    const result = await parseManuscript(file, 'lanterns.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Roe', 'Bo Poe', 'Al Doe']);
  });

  it('reads a short bold paragraph indented on both sides over the first heading as the abstract', async () => {
    // Science's template: byline, addresses, the correspondence line, then the abstract in bold,
    // indented as a quote, with no label; then "Introduction" and the body, all double-spaced.
    const abstract = [
      'This paper counts the lanterns of the northern shore over two summers.',
      'We find twice as many on calm nights. An example of the method is given',
      'in full so that the counts can be repeated by other observers.',
    ];
    const file = makeTextPdf([
      [
        { text: 'A Simple Count of Lanterns', size: 18, x: 190, y: 790 },
        ...piecesOnOneLine(
          [
            { text: 'Jane Roe,' },
            { text: '1*', sup: true },
            { text: ' Bo Poe,' },
            { text: '1', sup: true },
            { text: ' Cy Doe' },
            { text: '2', sup: true },
          ],
          760,
          14,
          { x: 200 },
        ),
        ...piecesOnOneLine(
          [{ text: '1', sup: true }, { text: 'Department of Lights, Northvale University,' }],
          730,
          12,
          {
            x: 170,
          },
        ),
        { text: 'Lakeside 12345, Freedonia', size: 12, x: 230, y: 712 },
        ...piecesOnOneLine(
          [{ text: '2', sup: true }, { text: 'Westfield College, Lakeside 12345, Freedonia' }],
          694,
          12,
          {
            x: 170,
          },
        ),
        ...piecesOnOneLine(
          [
            { text: '*', sup: true },
            { text: 'To whom correspondence should be addressed; E-mail: jroe@northvale.example.' },
          ],
          664,
          12,
          { x: 100 },
        ),
        ...doubleSpaced(630, abstract, 110, true),
        { text: 'Introduction', size: 17, x: 72, y: 540, bold: true },
        ...doubleSpaced(510, [...PARAGRAPH, ...PARAGRAPH]),
      ],
    ]);
    const result = await parseManuscript(file, 'lanterns.pdf', limits);
    expect(result.abstract).toBe(abstract.join(' '));
  });
});

describe('a cover page with a summary before the paper and its abstract', () => {
  it('takes the paragraph under "Abstract" on the paper’s first page, not the cover’s summary', async () => {
    const summary = bodyProse(640, 8).map((l) => ({ ...l, text: l.text.replace('Line', 'Summary line') }));
    const file = makeTextPdf([
      [
        { text: TITLE, size: 17, x: 90, y: 780, bold: true },
        { text: 'Anonymous authors', size: 12, x: 240, y: 756, bold: true },
        { text: 'Paper under double-blind review', size: 12, x: 210, y: 740 },
        { text: 'Summary', size: 14, x: 260, y: 680, bold: true },
        ...summary,
        { text: 'Contribution(s)', size: 14, x: 250, y: 520, bold: true },
        ...bodyProse(500, 10),
      ],
      [
        { text: TITLE, size: 17, x: 72, y: 780, bold: true },
        { text: 'Anonymous authors', size: 10, x: 72, y: 760, bold: true },
        { text: 'Paper under double-blind review', size: 10, x: 72, y: 748 },
        { text: 'Abstract', size: 12, x: 270, y: 720, bold: true },
        textLine('The abstract paragraph counts the lanterns of the shore over two summers.', 700, 10, {
          x: 100,
        }),
        textLine('Twice as many were seen on calm nights as on windy ones, on every station.', 688, 10, {
          x: 100,
        }),
        textLine('The method is given in full so that other observers can repeat the counts.', 676, 10, {
          x: 100,
        }),
        { text: '1 Submission of papers', size: 12, x: 72, y: 640, bold: true },
        ...bodyProse(620, 20),
      ],
    ]);
    const result = await parseManuscript(file, 'lanterns.pdf', limits);
    expect(result.abstract).toMatch(/^The abstract paragraph counts the lanterns/);
  });
});

describe('names that are themselves the links to their ORCID records', () => {
  it('gives each identifier to the name under its link', async () => {
    // Quantum's byline: each name links to orcid.org, the marks after it outside the link, the
    // byline run on to a second line; one author has no identifier.
    const names = ['Ann Roe', 'Bo Poe', 'Cy Doe', 'Di Moe', 'Ed Loe'];
    const ids = [
      '0000-0002-1825-0097',
      null,
      '0000-0001-5109-3700',
      '0000-0002-1694-233X',
      '0000-0003-1415-9269',
    ];
    const pieces = (from: number, to: number, and = false) =>
      names
        .slice(from, to)
        .flatMap((n, k) => [
          { text: `${k === 0 ? (and ? 'and ' : '') : ', '}${n}` },
          { text: String(from + k + 1), sup: true },
        ]);
    const line1 = piecesOnOneLine(pieces(0, 4), 752, 11, { x: 72 });
    const line2 = piecesOnOneLine(pieces(4, 5, true), 738, 11, { x: 72 });
    const links = [...line1, ...line2]
      .filter((p) => names.some((n) => p.text.endsWith(n)))
      .flatMap((p) => {
        const n = names.findIndex((name) => p.text.endsWith(name));
        const id = ids[n];
        if (!id) return [];
        const start = p.x + textWidth(p.text.slice(0, p.text.length - names[n]!.length), p.size);
        const rect: [number, number, number, number] = [
          start,
          p.y - 2,
          start + textWidth(names[n]!, p.size),
          p.y + 9,
        ];
        return [{ rect, url: `https://orcid.org/${id}` }];
      });
    const file = makeTextPdf(
      [
        [
          { text: TITLE, size: 16, x: 72, y: 780, bold: true },
          ...line1,
          ...line2,
          ...names.map((_, k) => ({
            text: `${k + 1}Department ${k + 1} of Physics, Northvale University, Freedonia`,
            size: 9,
            x: 72,
            y: 716 - k * 11,
          })),
          ...bodyProse(640, 30),
        ],
      ],
      '',
      [links],
    );
    const result = await parseManuscript(file, 'lanterns.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.orcid])).toEqual(names.map((n, k) => [n, ids[k]]));
  });
});

describe('a DOI link whose address holds an encoded space', () => {
  it('reads the DOI without the space (a line break typed inside \\href)', async () => {
    // Quantum's template: the entry prints no DOI, its citation is linked to doi.org, and the
    // link's address has "%20" after the prefix's slash.
    const file = makeTextPdf(
      [
        [
          { text: TITLE, size: 16, x: 72, y: 780, bold: true },
          ...bodyProse(740, 30),
          { text: 'References', size: 12, x: 72, y: 330, bold: true },
          { text: '[1] Ann Roe, Lantern Quarterly 123, 123456 (2016).', size: 10, x: 72, y: 310 },
          { text: '[2] Bo Poe, A history of lanterns, Northvale Press (2001).', size: 10, x: 72, y: 296 },
        ],
      ],
      '',
      [[{ rect: [180, 306, 340, 318], url: 'https://doi.org/10.55555/%20lantern.2016.123456' }]],
    );
    const result = await parseManuscript(file, 'lanterns.pdf', limits);
    expect(result.references.map((r) => r.doi)).toEqual(['10.55555/lantern.2016.123456', null]);
  });
});

describe('a reference list balanced in two columns over the one-column part that follows', () => {
  it('reads both columns before the heading under them, which is too short to cross the gutter', async () => {
    // Two pages in two columns, the list opening at the foot of the second's right column; the
    // third page goes on with it at the top in two columns (the left column's last entry runs on
    // at the right column's top), then a one-column appendix opens with a short heading.
    const left = (y: number, text: string) => ({ text, size: 10, x: 57, y });
    const right = (y: number, text: string) => ({ text, size: 10, x: 325, y });
    const column = (x: number, top: number, count: number) =>
      Array.from({ length: count }, (_, i) => ({
        text: `Line ${i + 1} of a column of the body, long enough.`,
        size: 10,
        x,
        y: top - i * 13,
      }));
    const file = makeTextPdf([
      [{ text: TITLE, size: 16, x: 72, y: 790, bold: true }, ...column(57, 750, 50), ...column(325, 750, 50)],
      [
        ...column(57, 790, 55),
        ...column(325, 790, 40),
        { text: 'References', size: 12, x: 325, y: 250, bold: true },
        right(230, '[1] Ann Roe, Lantern Quarterly 12, 345'),
        right(217, '(2016).'),
        right(200, '[2] Bo Poe, Lantern Letters 3, 45 (2011).'),
      ],
      [
        left(774, '[3] Cy Doe, A history of lanterns in the'),
        left(761, 'northern towns (2001).'),
        left(747, 'Northvale Press.'),
        left(714, '[4] Di Moe, Lanterns and their keepers in'),
        right(774, 'the lake districts, Westfield (1999).'),
        right(756, '[5] Ed Loe, Counting lanterns at dusk on'),
        right(743, 'the shores of the northern lakes, Lantern'),
        right(729, 'Quarterly 7, 89 (1987).'),
        { text: 'A First section of the appendix', size: 12, x: 57, y: 683, bold: true },
        ...Array.from({ length: 12 }, (_, i) => ({
          text: `Appendix line ${i + 1} runs across the whole page, from the left margin to the right one, as one column does.`,
          size: 10,
          x: 57,
          y: 658 - i * 13,
        })),
      ],
    ]);
    const result = await parseManuscript(file, 'lanterns.pdf', limits);
    expect(result.references).toHaveLength(5);
    expect(result.references[3]?.raw).toMatch(/keepers in the lake districts/);
  });
});
