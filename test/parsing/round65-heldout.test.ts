// Layouts met in the sixtieth held-out set (book chapters and extended abstracts: an edited
// handbook's chapters written in R Markdown, a chapter's PDF turned into Word by a converter),
// fixed in the sixty-fifth round. Names, titles and entries are made up; only the shapes follow
// the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import {
  bodyProse,
  docxParagraph,
  docxSizedParagraph,
  makeDocx,
  makeTextPdf,
  paragraph,
  textLine,
  wordBodyParagraphs,
} from './make-files.ts';

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

/** A run of text set in `points` type (a converter writes sizes, not superscripts). */
const sizedRun = (text: string, points: number) =>
  `<w:r><w:rPr><w:sz w:val="${points * 2}"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r>`;

describe('a PDF turned into Word by a converter: marks as small runs, the margin line numbers as text', () => {
  const TITLE = 'Reading lantern ledgers of the northern coast';

  it('reads the small runs of marks after the names as superscripts, and the names apart', async () => {
    const result = await parseManuscript(
      makeDocx([
        docxSizedParagraph(TITLE, 14),
        docxParagraph(
          sizedRun('Jane Q. Roe', 10) +
            sizedRun('*', 7) +
            sizedRun('1 ', 7) +
            sizedRun('and Amos T. Poe', 10) +
            sizedRun('1,2 1', 7) +
            sizedRun('Department of Lanterns, University of Northvale', 10),
        ),
        docxParagraph(sizedRun('2', 7) + sizedRun('School of Wicks, University of Northvale', 10)),
        paragraph('Abstract. Lanterns are read by their keepers in two phases, which we tell apart here.'),
        ...wordBodyParagraphs(12),
      ]),
      'converted.docx',
      limits,
    );
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Q. Roe', 'Amos T. Poe']);
  });

  const lineNo = (n: number) => docxParagraph(sizedRun(String(n), 5));
  const entries = [
    ['Abbot, J., 2015. Lanterns of the northern shore. Journal of', 'Lantern Studies, 3(2), pp. 10-19.'],
    ['Baker, T., 2017. Wicks and their keepers. Coast Press,', 'Northvale.'],
    ['Carver, L., 2019. A ledger of lights. Journal of Lantern', 'Studies, 7(1), pp. 1-9.'],
    ['Dunn, P., 2020. Fog and the reading of beacons. Sea Notes,', '12, pp. 33-41.'],
  ];

  it('drops the margin numbers set between the lines of the list, and reads its entries', async () => {
    let n = 300;
    const list = entries.flatMap(([first, second], i) => [
      lineNo(n++),
      paragraph(`${i + 1}. ${first}`),
      lineNo(n++),
      paragraph(second!),
    ]);
    const result = await parseManuscript(
      makeDocx([
        docxSizedParagraph(TITLE, 14),
        paragraph('Jane Q. Roe'),
        paragraph('Abstract. Lanterns are read by their keepers in two phases, which we tell apart here.'),
        ...wordBodyParagraphs(12),
        paragraph('References', 'Heading1'),
        ...list,
      ]),
      'converted-list.docx',
      limits,
    );
    expect(result.references).toHaveLength(4);
    for (const r of result.references) expect(r.raw).not.toMatch(/\b3\d\d\b/);
  });

  it('cuts the margin number a line of the list opens with', async () => {
    let n = 530;
    const list = entries.flatMap(([first, second], i) => [
      docxParagraph(sizedRun(String(n++), 5) + sizedRun(`${i + 1}. ${first}`, 9)),
      docxParagraph(sizedRun(String(n++), 5) + sizedRun(second!, 9)),
    ]);
    const result = await parseManuscript(
      makeDocx([
        docxSizedParagraph(TITLE, 14),
        paragraph('Jane Q. Roe'),
        paragraph('Abstract. Lanterns are read by their keepers in two phases, which we tell apart here.'),
        ...wordBodyParagraphs(12),
        paragraph('References', 'Heading1'),
        ...list,
      ]),
      'converted-list-2.docx',
      limits,
    );
    expect(result.references).toHaveLength(4);
    expect(result.references[0]!.raw).toMatch(/^(?:1\. )?Abbot/);
    for (const r of result.references) expect(r.raw).not.toMatch(/\b5[34]\d\b/);
  });
});
