// Layouts met in the eighteenth held-out set, fixed in the twentieth round: the heading of an empty
// section stacked over the reference list's heading, both bold, read as one block (a journal
// template's "Data availability" left empty over "References"), over an author-year list whose
// entries open with initials; a publisher's permissions address in the first page's copyright
// notice; a list whose figure, captioned under its body, stands at the top of the page the list goes
// on to, with a footnote of the body at the foot of the page before, and after which the author's address (name, address, email, ORCID) is printed; a student
// paper's byline with each name's student number after a dash, over its college and programme in
// Indonesian, and its abstract under "Abstrak" with the text run in after a line break and a dash;
// a Word template whose byline style carries the template's tag ("Els-Author") and is also given to
// the title, its affiliation named in Turkish; a double-spaced draft whose first paragraph, in bold and with no label, is the
// abstract, each of its lines read as a block of its own.
// Names, titles and DOIs are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { isAuthorStyle } from '../../src/parsing/style-names.ts';
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

const line = (text: string, x: number, y: number, size = 10, bold = false) => ({ text, size, x, y, bold });

/** Author-year entries with initials before the surname, each broken under a hanging indent. */
const ENTRIES: [string, string][] = [
  [
    'A. B. Quist and C. Tell. Frost dates in valley gardens. Journal of',
    'Cold Gardens, 12:1-10, 2004. doi: 10.9999/jcg.2004.001.',
  ],
  [
    'C. Moss, D. Lind, and E. Roe. Flowering under late frost in the',
    'northern valleys. Valley Botany, 4:22-31, 2016.',
  ],
  ['E. Roe. Notebooks of a valley archive. Archive Studies, 9:100-112,', '2017. doi: 10.9999/as.2017.100.'],
  [
    'B. Tell and A. Quist. Altitude and the first frost. Journal of Cold',
    'Gardens, 15:40-52, 2018. doi: 10.9999/jcg.2018.040.',
  ],
];
const joined = ENTRIES.map(([a, b]) => `${a} ${b}`);

function entryLines(entries: [string, string][], top: number): ReturnType<typeof line>[] {
  return entries.flatMap(([a, b], k) => [line(a, 72, top - k * 26), line(b, 84, top - k * 26 - 12)]);
}

describe('an empty section heading stacked over the list heading', () => {
  const titlePage = [
    line('Frost and the Flowering Dates of Valley Gardens', 72, 780, 16, true),
    ...piecesOnOneLine(
      [
        { text: 'Alma Quist' },
        { text: '1', sup: true },
        { text: ', Bruno Tell' },
        { text: '1,*', sup: true },
        { text: ' and Clara Moss' },
        { text: '1', sup: true },
      ],
      750,
      11,
    ),
    ...piecesOnOneLine(
      [
        { text: '1', sup: true },
        { text: 'Department of Botany, University of Northvale, Northvale, Norway' },
      ],
      730,
      9,
    ),
    line('*Corresponding author. bruno.tell@northvale.edu', 72, 718, 9),
    line('Abstract', 72, 690, 12, true),
    ...bodyProse(672, 8),
    line('Introduction', 72, 550, 12, true),
    ...bodyProse(532, 20),
    line(
      '© The Author 2024. Published by a University Press. All rights reserved. For permissions, please e-mail:',
      72,
      90,
      8,
    ),
    line('journals.permissions@press.example.com', 72, 80, 8),
  ];
  const lastPage = [
    ...bodyProse(780, 10),
    line('Data availability', 72, 630, 12, true),
    line('References', 72, 614, 12, true),
    ...entryLines(ENTRIES, 596),
  ];

  it('opens the list under the heading and reads each initials-first entry', async () => {
    const result = await parseManuscript(makeTextPdf([titlePage, lastPage]), 'frost.pdf', limits);
    expect(result.references.map((r) => r.raw)).toEqual(joined);
  });

  it("gives no author the publisher's permissions address", async () => {
    const result = await parseManuscript(makeTextPdf([titlePage, lastPage]), 'frost.pdf', limits);
    const emails = result.authors.flatMap((a) => a.emails);
    expect(emails).toContain('bruno.tell@northvale.edu');
    expect(emails).not.toContain('journals.permissions@press.example.com');
  });

  it('keeps an address given for permissions in the name of an author', async () => {
    const page = titlePage.map((l) =>
      l.text.startsWith('journals.permissions')
        ? { ...l, text: 'Alma Quist, alma.quist@northvale.edu' }
        : l.text.startsWith('©')
          ? { ...l, text: 'For permissions to reuse the garden counts, write to' }
          : l,
    );
    const result = await parseManuscript(makeTextPdf([page, lastPage]), 'frost.pdf', limits);
    expect(result.authors[0]!.emails).toEqual(['alma.quist@northvale.edu']);
  });
});

describe('a figure captioned under its body among the entries, and the address after the list', () => {
  const titlePage = [
    line('Frost and the Flowering Dates of Valley Gardens', 72, 780, 16, true),
    line('Alma Quist', 72, 755),
    line('Department of Botany, University of Northvale', 72, 743, 10),
    line('Abstract', 72, 720, 12, true),
    ...bodyProse(712, 8),
    line('Introduction', 72, 600, 12, true),
    ...bodyProse(582, 30),
  ];
  const listPage = [
    ...bodyProse(780, 20),
    line('Bibliography', 72, 500, 12, true),
    ...entryLines(ENTRIES.slice(0, 2), 482),
    // The body's footnote at the page's foot, under the list's first entries.
    line('1https://frost.example.org/notebooks', 84, 60, 8),
  ];
  // A chart at the top of the next page: its title, axis labels and legend, set small, then its
  // caption under it, then the list goes on, then the author's address.
  const nextPage = [
    line('Frost dates by valley and altitude', 150, 790, 9),
    line('1e+02', 90, 760, 6),
    line('north valley', 300, 760, 6),
    line('1e+00', 90, 720, 6),
    line('south valley', 300, 720, 6),
    line('1e+02 1e+03 1e+04', 150, 690, 6),
    line('Altitude of the garden in metres', 160, 680, 7),
    line('Figure 2: First frost dates against the altitude of each garden, for the two valleys.', 72, 660),
    ...entryLines(ENTRIES.slice(2), 630),
    line('Alma Quist', 72, 560),
    line('Department of Botany', 72, 548),
    line('University of Northvale', 72, 536),
    line('alma.quist@northvale.edu', 72, 524),
    line('ORCID 0000-0002-1825-0097', 72, 512),
  ];

  it('leaves the figure out of the entries, goes on after its caption and ends at the address', async () => {
    const result = await parseManuscript(makeTextPdf([titlePage, listPage, nextPage]), 'frost.pdf', limits);
    expect(result.references.map((r) => r.raw)).toEqual(joined);
  });

  it("reads the author's ORCID from the address after the list", async () => {
    const result = await parseManuscript(makeTextPdf([titlePage, listPage, nextPage]), 'frost.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.emails, a.orcid])).toEqual([
      ['Alma Quist', ['alma.quist@northvale.edu'], '0000-0002-1825-0097'],
    ]);
  });
});

const PROSE =
  'Gardens in cold valleys were counted for ten seasons, and the first frost of each autumn was noted beside the flowering dates of their plants. The counts show that frost came earlier where the valley floor lay higher, and that the plants flowered later in those gardens.';

describe('a student paper in Indonesian', () => {
  const docx = () =>
    makeDocx([
      paragraph('Frost and the Flowering Dates of Valley Gardens', 'Title'),
      paragraph('Alma Quist - 221100001, Bruno Tell - 221100002, Clara Dewi Moss - 221100003'),
      paragraph('STMIK Lembah Utara, Teknik Informatika'),
      docxParagraph(`${docxRun('Abstrak')}<w:r><w:br/></w:r>${docxRun(`- ${PROSE}`)}`),
      paragraph('Kata Kunci: frost, gardens, valleys'),
      paragraph('Pendahuluan', 'Heading1'),
      paragraph(PROSE),
    ]);

  it('reads the names without their student numbers, and the college line as no name', async () => {
    const result = await parseManuscript(docx(), 'frost.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Alma Quist', 'Bruno Tell', 'Clara Dewi Moss']);
  });

  it('reads the abstract under "Abstrak"', async () => {
    const result = await parseManuscript(docx(), 'frost.docx', limits);
    expect(result.abstract).toBe(PROSE);
  });
});

describe("a byline style named with its template's tag", () => {
  const styles = paragraphStyles([
    ['Els-Author', 'Els-Author'],
    ['Els-Affiliation', 'Els-Affiliation'],
    ['Els-1storder-head', 'heading 1'],
  ]);

  it('reads the name in it under a title set in the same style', async () => {
    const docx = makeDocx(
      [
        `<w:p><w:pPr><w:pStyle w:val="Els-Author"/></w:pPr><w:r><w:rPr><w:sz w:val="34"/></w:rPr><w:t>Frost and the Flowering Dates of Valley Gardens</w:t></w:r></w:p>`,
        `<w:p><w:pPr><w:pStyle w:val="Els-Author"/></w:pPr><w:r><w:rPr><w:sz w:val="26"/></w:rPr><w:t>Alma Quist</w:t></w:r></w:p>`,
        `<w:p><w:pPr><w:pStyle w:val="Els-Affiliation"/></w:pPr><w:r><w:rPr><w:sz w:val="16"/></w:rPr><w:t>Vadi Üniversitesi Botanik Fakültesi, Kuzeykent</w:t></w:r></w:p>`,
        paragraph('Giriş', 'Els-1storder-head'),
        paragraph(PROSE),
      ],
      [styles],
    );
    const result = await parseManuscript(docx, 'frost.docx', limits);
    expect(result.title).toBe('Frost and the Flowering Dates of Valley Gardens');
    expect(result.authors.map((a) => a.name)).toEqual(['Alma Quist']);
  });

  it('reads a lone name over a Turkish affiliation with no style to say so', async () => {
    const docx = makeDocx([
      paragraph('Frost and the Flowering Dates of Valley Gardens', 'Title'),
      paragraph('Alma Quist'),
      paragraph('Vadi Üniversitesi, Botanik Bölümü, Kuzeykent'),
      paragraph('Giriş', 'Heading1'),
      paragraph(PROSE),
    ]);
    const result = await parseManuscript(docx, 'frost.docx', limits);
    expect(result.authors.map((a) => [a.name, a.affiliations])).toEqual([
      ['Alma Quist', ['Vadi Üniversitesi, Botanik Bölümü, Kuzeykent']],
    ]);
  });

  it.each([
    ['Els-Author', true],
    ['MDPI_1.3_authornames', true],
    ['Author Names', true],
    ['Corresponding Author', false],
    ['Author Note', false],
    ['Els-Affiliation', false],
  ])('says whether "%s" is a byline style: %s', (name, expected) => {
    expect(isAuthorStyle(name)).toBe(expected);
  });
});

describe('a double-spaced draft with its abstract in bold and unlabelled', () => {
  // Each line 24 points under the one before: the reader sets each apart as a block.
  const abstractLines = [
    'Gardens in cold valleys were counted for ten seasons, and the first frost',
    'of each autumn was noted beside the flowering dates of their plants. The',
    'counts show that frost came earlier where the valley floor lay higher, and',
    'that the plants flowered later in those gardens, by as much as three weeks',
    'in the highest of them. We model the dates as a function of the altitude.',
  ];
  const page = [
    line('Frost and the Flowering Dates of Valley Gardens', 72, 790, 16, true),
    ...piecesOnOneLine(
      [{ text: 'Alma Quist' }, { text: '1', sup: true }, { text: ' & Bruno Tell' }, { text: '1', sup: true }],
      760,
      12,
    ),
    ...piecesOnOneLine(
      [{ text: '1', sup: true }, { text: 'Department of Botany, University of Northvale, Northvale' }],
      730,
      12,
    ),
    ...abstractLines.map((t, k) => line(t, 72, 690 - k * 24, 12, true)),
    line('Frost in the valleys was first counted by hand, and the dates were kept in', 90, 560, 12),
    ...Array.from({ length: 16 }, (_, k) =>
      line(
        `the notebooks of each garden, line ${k + 1} of the running text of the body.`,
        72,
        536 - k * 24,
        12,
      ),
    ),
  ];

  it('reads the bold paragraph as the abstract', async () => {
    const result = await parseManuscript(makeTextPdf([page]), 'frost.pdf', limits);
    expect(result.abstract).toBe(abstractLines.join(' '));
  });
});
