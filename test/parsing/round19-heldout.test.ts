// Layouts met in the seventeenth held-out set, fixed in the nineteenth round: a Word title that
// asks a question (or ends in a colon) over its subtitle in the Subtitle style; a figure's caption
// label read between the abstract's label and its text (a float at the top of the other column); a
// Copernicus entry whose year is glued to its DOI by a comma ("doi:10.x/y,2010a."); algorithm
// floats set after the reference list; two author-date entries typed in one Word paragraph with a
// line break between them; an R Markdown byline printed "Family, I." with one name typed with a
// stop for its comma and the affiliations set under it in the same block, its corresponding mark on
// one author and the address (a "mailto:" link with Markdown's emphasis in it) spelling another's.
// Names, titles and DOIs are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { parseReference } from '../../src/parsing/references.ts';
import { testConfig } from '../helpers/app.ts';
import {
  bodyProse,
  docxParagraph,
  docxRun,
  makeDocx,
  makeTextPdf,
  paragraph,
  piecesOnOneLine,
  paragraphStyles,
} from './make-files.ts';

const limits = testConfig().parsing;

const PROSE =
  'Gardens in cold valleys were counted for ten seasons, and the first frost of each autumn was noted beside the flowering dates of their plants.';

describe('a Word title that leaves itself open for its subtitle', () => {
  const styles = paragraphStyles([
    ['Title', 'Title'],
    ['Subtitle', 'Subtitle'],
    ['Author', 'Author'],
    ['Heading1', 'heading 1'],
  ]);
  const doc = (title: string, subtitle: string) =>
    makeDocx(
      [
        paragraph(title, 'Title'),
        paragraph(subtitle, 'Subtitle'),
        paragraph('Alma Quist and Bruno Tell', 'Author'),
        paragraph('Introduction', 'Heading1'),
        paragraph(PROSE),
      ],
      [styles],
    );

  it.each([
    ['Do Valleys Still Freeze Early?', 'Frost and Flowering in Cold Gardens (2009-2019)'],
    ['Frost in the valleys:', 'a ten-season count of cold gardens'],
  ])('joins "%s" and its subtitle', async (title, subtitle) => {
    const result = await parseManuscript(doc(title, subtitle), 'frost.docx', limits);
    expect(result.title).toBe(`${title} ${subtitle}`);
  });

  it('keeps a title that closes as a statement without its subtitle', async () => {
    const result = await parseManuscript(
      doc('Frost and the Flowering Dates of Valley Gardens', 'A Ten-Season Count of Cold Gardens'),
      'frost.docx',
      limits,
    );
    expect(result.title).toBe('Frost and the Flowering Dates of Valley Gardens');
  });
});

describe("a figure's caption read between the abstract's label and its text", () => {
  it('leaves the caption out of the abstract', async () => {
    const page = [
      { text: 'Frost and the Flowering Dates of Valley Gardens', size: 16, x: 72, y: 780 },
      { text: 'Alma Quist        Bruno Tell', size: 11, x: 150, y: 755 },
      { text: 'Abstract', size: 11, x: 72, y: 720, bold: true },
      { text: 'Figure 1:', size: 10, x: 72, y: 700 },
      { text: 'We count the gardens of cold valleys over ten seasons.', size: 10, x: 72, y: 680 },
      { text: '1 Introduction', size: 11, x: 72, y: 650, bold: true },
      ...bodyProse(630, 20),
    ];
    const result = await parseManuscript(makeTextPdf([page]), 'frost.pdf', limits);
    expect(result.abstract).toBe('We count the gardens of cold valleys over ten seasons.');
  });
});

describe('a year glued to a DOI by a comma', () => {
  it.each([
    ['doi:10.5555/frost.2010-019,2010a.', '10.5555/frost.2010-019'],
    ['doi:10.5555/VALLEY-D-12-00511.1,2013.', '10.5555/VALLEY-D-12-00511.1'],
  ])('reads %s as the DOI and the year apart', (tail, doi) => {
    const ref = parseReference(
      `Quist, A. and Tell, B.: Frost in the valleys, Garden Forum, 6, 73–76, ${tail}`,
    );
    expect(ref.doi).toBe(doi);
  });
});

describe('algorithm floats set after the reference list', () => {
  it('counts no algorithm as an entry', async () => {
    const entries = [
      'Quist, A. and Tell, B.: Frost in the valleys, Garden Forum, 6, 73-76, 2010.',
      'Moss, C.: Flowering under late frost, Valley Botany, 4, 22-31, 2016.',
      'Roe, E. and Lind, D.: Notebooks of a valley archive, Archive Studies, 9, 100-112, 2017.',
    ];
    const page = [
      { text: 'Frost and the Flowering Dates of Valley Gardens', size: 16, x: 72, y: 780 },
      ...bodyProse(740, 20),
      { text: 'References', size: 11, x: 72, y: 460, bold: true },
      ...entries.map((text, k) => ({ text, size: 9, x: 72, y: 440 - k * 14 })),
      { text: 'Algorithm 1 Compute the mean frost date of a garden over its valley', size: 9, x: 72, y: 380 },
      { text: 'for each garden g do', size: 9, x: 84, y: 368 },
      { text: 'total = total + first_frost[g]', size: 9, x: 96, y: 356 },
      { text: 'Algorithm 2 Find the coldest garden of each valley', size: 9, x: 72, y: 330 },
      { text: 'for each valley v do', size: 9, x: 84, y: 318 },
    ];
    const result = await parseManuscript(makeTextPdf([page]), 'frost.pdf', limits);
    expect(result.references.map((r) => r.raw)).toEqual(entries);
  });
});

describe('two author-date entries typed in one Word paragraph', () => {
  const first =
    'Quist, A., & Tell, B. (2019). Frost in the valleys. Garden Forum, 6(2), 73-76. https://doi.org/10.5555/frost.2019.001';
  const second =
    'Moss, C. (2011). Flowering under late frost. Valley Botany, 22(2), 144-151. https://doi.org/10.5555/valley.2011.003';
  const third =
    'Roe, E. (2017). Notebooks of a valley archive. Archive Studies, 9, 100-112. https://doi.org/10.5555/archive.2017.09';
  const doc = (middle: string) =>
    makeDocx([
      paragraph('Frost and the Flowering Dates of Valley Gardens', 'Title'),
      paragraph('Introduction', 'Heading1'),
      paragraph(PROSE),
      paragraph('References', 'Heading1'),
      middle,
      paragraph(third),
    ]);

  it('splits the paragraph at the line break where one entry ends with its link', async () => {
    const result = await parseManuscript(
      doc(docxParagraph(`${docxRun(first)}<w:r><w:br/></w:r>${docxRun(second)}`)),
      'frost.docx',
      limits,
    );
    expect(result.references.map((r) => r.raw)).toEqual([first, second, third]);
    expect(result.references.map((r) => r.doi)).toEqual([
      '10.5555/frost.2019.001',
      '10.5555/valley.2011.003',
      '10.5555/archive.2017.09',
    ]);
  });

  it('keeps an entry whose line break falls inside it whole', async () => {
    const broken = 'Quist, A., & Tell, B. (2019). Frost in the valleys.';
    const rest = 'Garden Forum, 6(2), 73-76. https://doi.org/10.5555/frost.2019.001';
    const result = await parseManuscript(
      doc(docxParagraph(`${docxRun(broken)}<w:r><w:br/></w:r>${docxRun(rest)}`)),
      'frost.docx',
      limits,
    );
    expect(result.references.map((r) => r.doi)).toEqual([
      '10.5555/frost.2019.001',
      '10.5555/archive.2017.09',
    ]);
  });
});

describe('a "Family, I." byline with its affiliations under it in one block', () => {
  const AFFILIATIONS = [
    'Valley Institute of Botany, Department of Frost Studies, Northfield, NF 02881',
    'Frost Archive Agency, Office of Records and Seasons, Eastfield, EF 02882',
    'University of the Northern Valleys, Center for Garden Research, Westfield, WF 06438',
  ];
  const byline = piecesOnOneLine(
    [
      { text: 'Quist, A. B.' },
      { text: '1', sup: true },
      { text: ', Tell. C. D.' },
      { text: '*2', sup: true },
      { text: ', Moss, E.' },
      { text: '1', sup: true },
      { text: ', Lind, F. G.' },
      { text: '2', sup: true },
      { text: ', Roe, H.' },
      { text: '3', sup: true },
    ],
    740,
    10,
  );
  const page = [
    { text: 'Frost and the Flowering Dates of Valley Gardens', size: 16, x: 72, y: 780 },
    ...byline,
    ...piecesOnOneLine([{ text: '1', sup: true }, { text: AFFILIATIONS[0]! }], 727, 10),
    ...piecesOnOneLine([{ text: '2', sup: true }, { text: AFFILIATIONS[1]! }], 714, 10),
    // Markdown's emphasis printed as asterisks around the note.
    ...piecesOnOneLine([{ text: '3', sup: true }, { text: AFFILIATIONS[2]! }], 701, 10),
    { text: '* *corresponding author: aquist@northfield.example*', size: 9, x: 72, y: 680 },
    { text: 'Abstract', size: 11, x: 72, y: 660, bold: true },
    { text: 'We count the gardens of cold valleys over ten seasons.', size: 10, x: 72, y: 645 },
    { text: '1 Introduction', size: 11, x: 72, y: 620, bold: true },
    ...bodyProse(600, 20),
  ];
  const links = [
    [
      {
        rect: [72, 677, 420, 691] as [number, number, number, number],
        url: 'mailto:aquist@northfield.example*',
      },
    ],
  ];

  it('reads the names, the slipped one too, and the affiliations by their marks', async () => {
    const result = await parseManuscript(makeTextPdf([page], '', links), 'frost.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual([
      'A. B. Quist',
      'C. D. Tell',
      'E. Moss',
      'F. G. Lind',
      'H. Roe',
    ]);
    expect(result.authors.map((a) => a.affiliations)).toEqual([0, 1, 0, 1, 2].map((k) => [AFFILIATIONS[k]]));
  });

  it('gives the address to the author it spells, the mark aside, and cuts the emphasis from the link', async () => {
    const result = await parseManuscript(makeTextPdf([page], '', links), 'frost.pdf', limits);
    expect(result.authors.map((a) => a.emails)).toEqual([['aquist@northfield.example'], [], [], [], []]);
    expect(result.authors[1]!.corresponding).toBe(true);
  });
});

describe("a figure's caption over the rest of an entry broken over a page, each line a block", () => {
  it('reads the rest of the entry, whose year comes on the line after its first, back into it', async () => {
    // Lines spaced wide apart (a discussion paper's layout): each line a block of its own.
    const spaced = (lines: { text: string; x: number; y: number }[]) => lines.map((l) => ({ ...l, size: 9 }));
    const first = spaced([
      { text: 'Frost and the Flowering Dates of Valley Gardens', x: 72, y: 780 },
      ...bodyProse(740, 20).map(({ text, y }) => ({ text, x: 72, y })),
      { text: 'References', x: 72, y: 460 },
      { text: 'Moss, C.: Flowering under late frost, Valley Botany, 4, 22-31, 2016.', x: 72, y: 440 },
      { text: 'Quist, A., Tell, B., Roe, E., Lind, D., Vale, F., Holm, G., Dale, H.,', x: 72, y: 422 },
      { text: 'Berg, I., Fjell, J., Strand, K., Lund, L., Skog, M., Myr, N., Eng, O.,', x: 84, y: 404 },
    ]);
    const second = spaced([
      {
        text: 'Figure 1. A map of the valley gardens, each a circle, and the roads that join',
        x: 72,
        y: 780,
      },
      { text: '(grey lines) the gardens that share a valley.', x: 72, y: 762 },
      { text: 'Moor, P., Heath, Q., and Fen, R.: Frost in the valleys: the garden counts,', x: 84, y: 734 },
      { text: 'Garden Forum, 96, 997-1017, doi:10.5555/frost.d.13.00242.1, 2015.', x: 84, y: 716 },
      { text: 'Roe, E.: Notebooks of a valley archive, Archive Studies, 9, 100-112, 2017.', x: 72, y: 698 },
      { text: 'Tell, B.: Frost dates in the valley, Garden Forum, 12, 1-10, 2015.', x: 72, y: 680 },
    ]);
    const result = await parseManuscript(makeTextPdf([first, second]), 'frost.pdf', limits);
    expect(result.references.map((r) => r.doi)).toEqual([null, '10.5555/frost.d.13.00242.1', null, null]);
  });
});
