// Layouts met in the sixtieth held-out set (book chapters and extended abstracts: an edited
// handbook's chapters written in R Markdown, a chapter's PDF turned into Word by a converter),
// fixed in the sixty-fifth round. Names, titles and entries are made up; only the shapes follow
// the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, textLine } from './make-files.ts';

const limits = testConfig().parsing;

describe("one author's name over the lines of its affiliation, in one paragraph (R Markdown's author block)", () => {
  // Title, then "| Name" / "| Department ..., University ..., Country" as one centred paragraph,
  // then the date, each at the body's size.
  const page = (affiliation: string, size = 12, date = true) => [
    textLine('Tidal sorting of pebbles on shingle spits', 760, 17),
    textLine('Jane Q. Roe', 728, size),
    textLine(affiliation, 714, size),
    ...(date ? [textLine('11/03/2021', 690, size)] : []),
    textLine('Abstract', 660, 11, { bold: true }),
    textLine('Pebbles on a spit are sorted by the tide into bands of one size, which we measure here.', 644),
    textLine('1. Introduction', 610, 12, { bold: true }),
    ...bodyProse(590, 30),
  ];

  it('reads the name as the author, the country closing the affiliation no name', async () => {
    const result = await parseManuscript(
      makeTextPdf([page('School of Geography, University of Northvale, Canada')]),
      'rmd-chapter.pdf',
      limits,
    );
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Q. Roe']);
  });

  it('reads it so in the body’s own type with no date under it, where a name alone might be a subtitle', async () => {
    const result = await parseManuscript(
      makeTextPdf([page('Department of Coasts, University of Northvale, Canada', 10, false)]),
      'rmd-chapter-body.pdf',
      limits,
    );
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Q. Roe']);
  });

  it('reads it so under an institution with its street address too', async () => {
    const result = await parseManuscript(
      makeTextPdf([page('Institute of Coasts, Southvale College, Harbour Road 4, Southvale, Norway')]),
      'rmd-chapter-2.pdf',
      limits,
    );
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Q. Roe']);
  });
});
