// Layouts met in the forty-second held-out set (biomedical and life-science manuscripts: a
// GENETICS paper with 32 authors and equal-contribution stars, eLife's line-numbered layout, an
// F1000Research draft, BMC, Scientific Reports, PLOS, clinical Word manuscripts), fixed in the
// forty-fifth round. Names, titles and identifiers are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { splitByline } from '../../src/parsing/names.ts';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, textWidth, textLine } from './make-files.ts';

const limits = testConfig().parsing;

type Piece = { text: string; sup?: boolean };

/**
 * A byline line whose marks are set only a little smaller than the names (0.86 of their size) and
 * raised well above their baseline, as GENETICS sets them: the marks fall into a row of their own.
 */
function markedLine(pieces: Piece[], y: number, size: number, x = 60) {
  const out = [];
  let left = x;
  for (const p of pieces) {
    const s = p.sup ? size * 0.86 : size;
    out.push({ text: p.text, size: s, x: left, y: p.sup ? y + size * 0.36 : y, bold: true });
    left += textWidth(p.text, s);
  }
  return out;
}

describe('a byline whose marks are set nearly at the names’ size', () => {
  it('reads the marks as the names’ superscripts and every name of the wrapped byline', async () => {
    const file = makeTextPdf([
      [
        { text: 'Lanterns of the northern shore and their keepers', size: 20, x: 60, y: 780, bold: true },
        ...markedLine(
          [
            { text: 'Jane Roe' },
            { text: '1', sup: true },
            { text: ', Ann Lee' },
            { text: '2', sup: true },
            { text: ', Carl Moss' },
            { text: '1', sup: true },
            { text: ', Dora Fenn' },
            { text: '2', sup: true },
            { text: ', Bo' },
          ],
          740,
          11,
        ),
        ...markedLine(
          [{ text: 'Poe' }, { text: '1', sup: true }, { text: ' and Kim Wu' }, { text: '2', sup: true }],
          725,
          11,
        ),
        { text: '1 Department of Biology, Northvale University, Freedonia', size: 9, x: 60, y: 700 },
        { text: '2 Institute of Lantern Studies, Southvale, Freedonia', size: 9, x: 60, y: 689 },
        { text: 'Abstract', size: 11, x: 60, y: 660, bold: true },
        ...bodyProse(640, 6),
        { text: 'Introduction', size: 11, x: 60, y: 550, bold: true },
        ...bodyProse(530, 20),
      ],
    ]);
    const result = await parseManuscript(file, 'genetics-byline.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual([
      'Jane Roe',
      'Ann Lee',
      'Carl Moss',
      'Dora Fenn',
      'Bo Poe',
      'Kim Wu',
    ]);
  });
});

describe('a star other than the asterisk set after a name’s raised marks', () => {
  it('is the name’s note mark, and the name wrapped after it is one name', () => {
    const names = splitByline([
      { text: 'Jane Roe', sup: false },
      { text: '1,', sup: true },
      { text: '⋆, Bo', sup: false },
      { text: '\n', sup: false },
      { text: 'Poe', sup: false },
      { text: '2,', sup: true },
      { text: '⋆, Kim Wu', sup: false },
      { text: '3', sup: true },
    ]);
    expect(names.map((n) => [n.name, n.marks])).toEqual([
      ['Jane Roe', ['1', '*']],
      ['Bo Poe', ['2', '*']],
      ['Kim Wu', ['3']],
    ]);
  });
});

describe('a DOI given to hyperref’s \\href with no "https://doi.org/"', () => {
  it('reads the DOI the entry prints, not the link to a PDF file of that name', async () => {
    // eLife's Vancouver style: "\href{10.55555/123456}{doi: 10.55555/123456}" makes a link to
    // the file "10.55555/123456.pdf" on disk, which pdf.js reads with its destination after "#".
    const file = makeTextPdf(
      [
        [
          { text: 'Lanterns of the northern shore', size: 16, x: 72, y: 780, bold: true },
          ...bodyProse(740, 30),
          { text: 'References', size: 12, x: 72, y: 330, bold: true },
          { text: 'Roe A. Lanterns at dusk. bioRxiv. 2019; doi: 10.55555/571234.', size: 10, x: 72, y: 310 },
          { text: 'Poe B. A history of lanterns. Northvale Press; 2001.', size: 10, x: 72, y: 296 },
        ],
      ],
      '',
      [[{ rect: [250, 306, 360, 318], url: '10.55555/571234.pdf', file: true }]],
    );
    const result = await parseManuscript(file, 'lanterns.pdf', limits);
    expect(result.references.map((r) => r.doi)).toEqual(['10.55555/571234', null]);
  });
});

describe('an abstract whose label, set large, runs into its first line', () => {
  it('reads the lines under the label’s line as the abstract’s, in the body’s type', async () => {
    // eLife: "Abstract" in bold at a larger size stands at the first line's start; the block of
    // that line takes the label's size, the lines under it the text's.
    const file = makeTextPdf([
      [
        { text: 'Lanterns of the northern shore', size: 20, x: 72, y: 780, bold: true },
        { text: 'Jane Roe, Bo Poe', size: 12, x: 72, y: 750, bold: true },
        { text: 'Department of Biology, Northvale University, Freedonia', size: 9, x: 72, y: 735 },
        { text: 'Abstract', size: 13, x: 72, y: 700, bold: true },
        textLine('Lanterns were counted at dusk along the whole shore of the lake and at', 700, 10, {
          x: 140,
        }),
        textLine('three stations inland, by two observers who kept their tallies apart until the', 688, 10, {
          x: 140,
        }),
        textLine('morning. Their counts agreed to within a tenth on most nights of the survey.', 676, 10, {
          x: 140,
        }),
        { text: 'Introduction', size: 13, x: 72, y: 640, bold: true },
        ...bodyProse(620, 30),
      ],
    ]);
    const result = await parseManuscript(file, 'elife-abstract.pdf', limits);
    expect(result.abstract).toBe(
      'Lanterns were counted at dusk along the whole shore of the lake and at three stations inland, by two ' +
        'observers who kept their tallies apart until the morning. Their counts agreed to within a tenth on most ' +
        'nights of the survey.',
    );
  });
});

describe('a DOI printed in an erratum’s title, spaced after each stop', () => {
  it('reads no DOI from one cut short at its first stop ("10.55555/j.")', async () => {
    const file = makeTextPdf([
      [
        { text: 'Lanterns of the northern shore', size: 16, x: 72, y: 780, bold: true },
        ...bodyProse(740, 30),
        { text: 'References', size: 12, x: 72, y: 330, bold: true },
        textLine('Roe, A., 2020 Erratum: Lanterns at dusk (lantern journal (2020) 107 (4)', 310),
        textLine('(583-588),(10.55555/j. lant. 2020.08. 017)). Lantern journal 107: 788-789.', 298),
        { text: 'Poe, B., 2001 A history of lanterns. Northvale Press.', size: 10, x: 72, y: 284 },
      ],
    ]);
    const result = await parseManuscript(file, 'lanterns.pdf', limits);
    expect(result.references.map((r) => r.doi)).toEqual([null, null]);
  });
});

describe('a title broken over two lines at a compound’s own hyphen', () => {
  const file = (declared: string) =>
    makeTextPdf(
      [
        [
          { text: 'lampR: an R package for single-', size: 20, x: 72, y: 780, bold: true },
          { text: 'sample lantern perturbation analysis', size: 20, x: 72, y: 756, bold: true },
          { text: 'Jane Roe, Bo Poe', size: 12, x: 72, y: 720, bold: true },
          { text: 'Introduction', size: 12, x: 72, y: 680, bold: true },
          ...bodyProse(660, 30),
        ],
      ],
      `/Info << /Title (${declared}) >> `,
    );

  it('keeps the hyphen the file’s declared title writes', async () => {
    const result = await parseManuscript(
      file('lampR: an R package for single-sample lantern perturbation analysis'),
      'title.pdf',
      limits,
    );
    expect(result.title).toBe('lampR: an R package for single-sample lantern perturbation analysis');
  });

  it('drops it as a typesetter’s break where the declared title has none', async () => {
    const result = await parseManuscript(file('Lantern analysis'), 'title.pdf', limits);
    expect(result.title).toBe('lampR: an R package for singlesample lantern perturbation analysis');
  });
});
