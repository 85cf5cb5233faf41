// Layouts met in the sixty-fourth held-out set (revised manuscripts as authors resubmit them: the
// response to the reviewers bound before the manuscript, latexdiff's marked-up copy, a draft's
// abstract alone on the page after its title page), fixed in the sixty-ninth round. Names, titles
// and text are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, piecesOnOneLine, textLine, type PdfTextLine } from './make-files.ts';

const limits = testConfig().parsing;

const TITLE = 'Tidal sorting of pebbles on shingle spits';
const ORCID = '0000-0002-1825-0097';

/** A page of a letter's prose: paragraphs at the letter's size, one line each, a heading over them. */
function letterPage(heading: string | null, top = 780): PdfTextLine[] {
  const lines: PdfTextLine[] = heading ? [textLine(heading, top, 14, { bold: true })] : [];
  for (let i = 0; i < 20; i++)
    lines.push(
      textLine(
        `We have clarified point ${i + 1} in the revision, as was asked, and moved the section it refers to.`,
        top - 30 - i * 30,
        10,
      ),
    );
  return lines;
}

/** The manuscript's first page: the title over a marked byline, its place and address, the abstract. */
function titlePage(): PdfTextLine[] {
  return [
    textLine(TITLE, 760, 17),
    ...piecesOnOneLine([{ text: 'Jane Q. Roe' }, { text: '1', sup: true }], 730, 11),
    textLine('1 Department of Coasts, University of Northvale', 712, 10),
    textLine('Correspondence: jane.roe@northvale.example.org', 698, 10),
    textLine('Abstract', 670, 11, { bold: true }),
    textLine('Pebbles on a spit are sorted by the tide into bands of one size, which we measure here.', 654),
    textLine('1. Introduction', 620, 12, { bold: true }),
    ...bodyProse(600, 30),
  ];
}

describe('the letters bound before a revised manuscript (a response to the reviewers, then the manuscript)', () => {
  const file = (opening: string) =>
    makeTextPdf(
      [letterPage(opening), letterPage(null), letterPage('Reviewer 2'), titlePage()],
      '',
      // The name on the manuscript's page links to its ORCID record.
      [[], [], [], [{ rect: [70, 726, 150, 742], url: `https://orcid.org/${ORCID}` }]],
    );

  it('reads the title, the author and the address from the manuscript’s first page, past the letter', async () => {
    const result = await parseManuscript(file('Response to the reviewers'), 'resubmission.pdf', limits);
    expect(result.title).toBe(TITLE);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Jane Q. Roe', ['jane.roe@northvale.example.org']],
    ]);
  });

  it('reads the ORCID its name links to on that page, past the pages whose links are read for a manuscript', async () => {
    const result = await parseManuscript(file("Editor's comments"), 'resubmission-orcid.pdf', limits);
    expect(result.authors.map((a) => a.orcid)).toEqual([ORCID]);
  });
});

describe('an unlabelled abstract alone on the page after the title page (a draft’s own page for it)', () => {
  const abstract = [
    'Pebbles on a shingle spit are sorted by the tide into bands of one size, and the bands move with the seasons.',
    'We measured the bands of four spits over three winters and found that storms, not tides, set where they lie.',
    'A model of the swash that carries each size up the beach gives the bands we saw, and their shift after storms.',
  ];
  const pages = [
    [
      textLine(TITLE, 760, 17),
      textLine('Jane Q. Roe', 720, 10),
      textLine('Department of Coasts, University of Northvale', 706, 10),
      textLine('Correspondence to: jane.roe@northvale.example.org', 670, 10),
      textLine('Last revision: March 3, 2021', 300, 10),
    ],
    abstract.map((line, i) => textLine(line, 500 - i * 13, 10)),
    bodyProse(780, 50),
  ];

  it('reads the paragraph that is all that page holds as the abstract', async () => {
    const result = await parseManuscript(makeTextPdf(pages), 'draft-abstract-page.pdf', limits);
    expect(result.abstract).toBe(abstract.join(' '));
  });
});

describe('latexdiff’s wavy underline under added words (rows of a small colon glyph under the baseline)', () => {
  // "agent-to-agent" added, underlined with a row of colons in 6-point type 3.5 points under it.
  const line = (y: number, before: string, added: string, after: string): PdfTextLine[] => {
    const pieces = piecesOnOneLine([{ text: before }, { text: added }, { text: after }], y, 10);
    const under = pieces[1]!;
    return [...pieces, { text: ':'.repeat(added.length), size: 6, x: under.x, y: y - 3.5 }];
  };
  const page = [
    textLine(TITLE, 760, 17),
    textLine('Jane Q. Roe', 730, 11),
    textLine('Abstract', 700, 11, { bold: true }),
    ...line(684, 'Pebbles on a spit are sorted by ', 'the spring ', 'tides into bands of one size.'),
    ...line(671, 'We measured ', 'four spits ', 'over three winters with a laser level.'),
    ...line(658, 'Storms, not ', 'the ', 'tides, set where the bands lie on the beach.'),
    textLine('1. Introduction', 620, 12, { bold: true }),
    ...bodyProse(600, 30),
  ];

  it('reads the abstract’s words without the underline’s colons', async () => {
    const result = await parseManuscript(makeTextPdf([page]), 'latexdiff.pdf', limits);
    expect(result.abstract).toContain('sorted by the spring tides into bands');
    expect(result.abstract).toContain('We measured four spits over three winters');
    expect(result.abstract).not.toContain(':');
  });
});
