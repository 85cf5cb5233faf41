// Layouts met in the fortieth held-out set (a physics meeting's proceedings read for a
// collaboration, Science's double-spaced template, a conference's cover page before the paper,
// Quantum's names linked to their ORCID records), fixed in the forty-third round. Names, titles
// and identifiers are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, piecesOnOneLine } from './make-files.ts';

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
