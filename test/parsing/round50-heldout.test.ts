// Layouts met in the forty-seventh held-out set (chemistry, materials and physics journal
// templates: ACS achemso, IUCr, RSC, elsarticle, IOP), fixed in the fiftieth round. Names, titles
// and entries are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, piecesOnOneLine } from './make-files.ts';

const limits = testConfig().parsing;

describe('an achemso byline whose last author carries "@" among her note marks', () => {
  // achemso's note symbols run on past ∥, ⊥ and # to "@": an author with many affiliations
  // carries it, raised, after her name, on the byline's second line (a name wrapped onto it).
  const file = () =>
    makeTextPdf([
      [
        { text: 'Lantern Ensembles and the Keepers of the', size: 17, x: 72, y: 760, bold: true },
        { text: 'Northern Shore', size: 17, x: 72, y: 740, bold: true },
        ...piecesOnOneLine(
          [
            { text: 'Jane A. Roe,' },
            { text: '†', sup: true },
            { text: ' Tom Fox,' },
            { text: '‡,¶', sup: true },
            { text: ' Ann Lee,' },
            { text: '§', sup: true },
            { text: ' Bo' },
          ],
          705,
          12,
        ),
        ...piecesOnOneLine(
          [
            { text: 'C. Park,' },
            { text: '#', sup: true },
            { text: ' and Eve Stone' },
            { text: '*,‡,§,#,@', sup: true },
          ],
          689,
          12,
        ),
        {
          text: '†Department of Chemistry, University of Northvale, Northvale, Country',
          size: 10,
          x: 72,
          y: 665,
        },
        { text: '‡Institute of Lantern Science, Southvale, Country', size: 10, x: 72, y: 652 },
        {
          text: '¶Department of Physics, University of Northvale, Northvale, Country',
          size: 10,
          x: 72,
          y: 639,
        },
        { text: '§Graduate Program in Optics, University of Eastvale, Country', size: 10, x: 72, y: 626 },
        { text: '#Westvale Institute of Technology, Westvale, Country', size: 10, x: 72, y: 613 },
        { text: '@Harbour Light Foundation, Northvale, Country', size: 10, x: 72, y: 600 },
        { text: 'E-mail: estone@northvale.edu', size: 10, x: 200, y: 580 },
        { text: 'Abstract', size: 11, x: 72, y: 550, bold: true },
        ...bodyProse(532, 14),
      ],
    ]);

  it('reads every name, the wrapped one joined, and gives the starred author the address', async () => {
    const result = await parseManuscript(file(), 'achemso-at-mark.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual([
      'Jane A. Roe',
      'Tom Fox',
      'Ann Lee',
      'Bo C. Park',
      'Eve Stone',
    ]);
    expect(result.authors.find((a) => a.name === 'Eve Stone')?.emails).toEqual(['estone@northvale.edu']);
  });
});

describe('a numbered list with no heading, its names with initials after them and no stops (IOP)', () => {
  // iopart's thebibliography prints no heading of its own: the list stands alone on the last
  // page, after an appendix, its entries "[n] Surname I I, Surname I and Surname I Year Journal".
  const surnames = [
    'Roe',
    'Fox',
    'Lee',
    'Park',
    'Stone',
    'Hale',
    'Irwin',
    'Jones',
    'Kent',
    'Lord',
    'Marsh',
    'Noble',
  ];
  const entries = surnames.map((s, k) => ({
    text:
      k % 3 === 0
        ? `[${k + 1}] ${s} J A, Fox T and Lee B C ${1990 + k} Nucl. Lanterns ${30 + k} ${1500 + k}`
        : k % 3 === 1
          ? `[${k + 1}] ${s} R O et al ${1990 + k} Lantern Phys. Control. ${40 + k} 0850${k}`
          : `[${k + 1}] ${s} W W and Sadler G ${1990 + k} Rev. Lantern Instrum. ${50 + k}, 10J1${k}`,
    size: 10,
    x: 72,
    y: 760 - 14 * k,
  }));
  const file = () =>
    makeTextPdf([
      [
        { text: 'Doublet Splitting of Lantern Light in Harbour Fog', size: 17, x: 72, y: 760, bold: true },
        { text: 'J. W. Roe', size: 12, x: 72, y: 730 },
        { text: 'Harbour Light Centre, Northvale, Country', size: 10, x: 72, y: 716 },
        { text: 'Abstract', size: 11, x: 72, y: 690, bold: true },
        ...bodyProse(672, 40),
      ],
      bodyProse(780, 50),
      [{ text: 'Appendix A.', size: 12, x: 72, y: 780, bold: true }, ...bodyProse(760, 30)],
      entries,
    ]);

  it('reads the run of entries at the end as the list', async () => {
    const result = await parseManuscript(file(), 'iop-headless.pdf', limits);
    expect(result.references).toHaveLength(12);
    expect(result.references[0]!.raw).toMatch(/^Roe J A, Fox T and Lee B C 1990/);
  });
});

describe('a list with no heading whose raised numbers are read glued to the entries (AIP REVTeX)', () => {
  // REVTeX's AIP styles set each entry's number raised, with no space after it: the text layer
  // reads "1J. Roe and ...". One entry opens with a company's name, one with its title; a line
  // inside an entry opens with a formula glued to a number ("4LED lanterns ...").
  type Line = Parameters<typeof makeTextPdf>[0][number][number];
  const entries: string[][] = [
    [
      'J. Roe and T. Fox, “Lanterns of the northern shore,” Journal of',
      'Lantern Studies 12, 101–120 (2001).',
    ],
    ['A. Lee, “Harbour fog and its light,” Physics of Fog 3, 11–19', '(2003).'],
    [
      'B. C. Park, “Keepers and their lamps: a survey of the coast,”',
      'Lantern Review 7, 1–9, with a note on the',
      '4LED lanterns compared, Northvale (2005).',
    ],
    ['Lantern Society, “Lamp Manual,” (2019).', 'Northvale Press.'],
    [
      'E. Stone and F. Hale, “Glass in the wind and the rain,”',
      'Glass Letters 5, 77–80 (2010).',
      'Reprinted in the Northvale series.',
    ],
    ['A Study of Lanterns in Harbour Fog, technical report, Northvale', 'Harbour Board (2012).'],
    ['G. Irwin, “Tides and lamps,” Journal of Tides 9, 200–210 (2014).'],
  ];
  const list: Line[] = [];
  let y = 760;
  entries.forEach((lines, k) => {
    list.push(...piecesOnOneLine([{ text: String(k + 1), sup: true }, { text: lines[0]! }], y, 9));
    for (const text of lines.slice(1)) list.push({ text, size: 9, x: 80, y: (y -= 11) });
    y -= 15;
  });
  const file = () =>
    makeTextPdf([
      [
        { text: 'Harbour Lanterns in Fog: Numerical Approaches', size: 17, x: 72, y: 760, bold: true },
        { text: 'J. Roe', size: 12, x: 72, y: 730 },
        { text: 'Harbour Light Centre, Northvale, Country', size: 10, x: 72, y: 716 },
        { text: 'Abstract', size: 11, x: 72, y: 690, bold: true },
        ...bodyProse(672, 40),
      ],
      bodyProse(780, 50),
      list,
    ]);

  it('reads each entry from its raised number, the company and the title-first entry too', async () => {
    const result = await parseManuscript(file(), 'aip-raised-labels.pdf', limits);
    const raws = result.references.map((r) => r.raw);
    expect(raws).toHaveLength(7);
    expect(raws[0]).toMatch(/^J\. Roe and T\. Fox/);
    expect(raws[2]).toMatch(/4LED lanterns compared/);
    expect(raws[3]).toMatch(/^Lantern Society/);
    expect(raws[5]).toMatch(/^A Study of Lanterns/);
  });
});
