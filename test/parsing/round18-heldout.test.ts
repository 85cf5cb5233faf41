// Layouts met in the sixteenth held-out set, fixed in the eighteenth round: a reference list under
// its heading in a script other than the Latin (Chinese "参考文献", Korean "참고문헌", Persian
// "منابع", Arabic "المراجع", Russian "Список литературы"), its entries Word list-numbered paragraphs
// that carry no number in their text; a two-column journal's list whose column a table's cells
// (figures only, their caption above the column) follow in reading order, and whose last entry on
// the page goes on at the next page's top under a figure's caption; a Word paper with no abstract
// typed in the body's face, its title in italics over the author's name in bold; a Persian Word
// paper with an invocation ("In the name of God") in the Title style over its title, which is
// typed with a closing full stop.
// Names and texts are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, docxRun, makeDocx, makeTextPdf, paragraph } from './make-files.ts';

const limits = testConfig().parsing;

/** A paragraph numbered by Word's list numbering: its number is not in its text. */
function listParagraph(text: string): string {
  return `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="2"/></w:numPr></w:pPr>${docxRun(text)}</w:p>`;
}

const CJK_ENTRIES = [
  '林山,木水.寒谷园圃的霜期研究[J].园艺学报,2019,(03):12-20.',
  '石川,白云,青草,等.山谷花期与初霜[J].植物杂志,2020,41(02):33-41.',
  '田野.山谷档案笔记[M].北京:园林出版社,2018.',
  '高原,林山.海拔与初霜日期[J].园艺学报,2021,(05):50-58.',
];

const LATIN_ENTRIES = [
  'Quist A, Tell B (2015) Frost dates in valley gardens. J Cold Gard 12:1–10',
  'Moss C, Lind D (2016) Flowering under late frost. Valley Bot 4:22–31',
  'Roe E (2017) Notebooks of a valley archive. Archive Stud 9:100–112',
];

describe('a reference list under a heading in another script', () => {
  it.each([['参考文献'], ['参 考 文 献'], ['参考文献：']])(
    'counts the list-numbered entries under "%s"',
    async (heading) => {
      const docx = makeDocx([
        paragraph('寒谷园圃的霜期与花期', 'Title'),
        paragraph('引言', 'Heading1'),
        paragraph('本文统计了寒冷山谷中的园圃十年间的花期。'),
        paragraph(heading, 'Heading1'),
        ...CJK_ENTRIES.map(listParagraph),
        paragraph('附录', 'Heading1'),
        paragraph('附表一列出了各园圃的海拔。'),
      ]);
      const result = await parseManuscript(docx, 'frost.docx', limits);
      expect(result.references.map((r) => r.raw)).toEqual(CJK_ENTRIES);
    },
  );

  it.each([['참고문헌'], ['منابع'], ['مراجع'], ['المراجع'], ['Список литературы'], ['Литература']])(
    'counts the entries under "%s"',
    async (heading) => {
      const docx = makeDocx([
        paragraph('Frost and the Flowering Dates of Valley Gardens', 'Title'),
        paragraph('Introduction', 'Heading1'),
        paragraph('Gardens in cold valleys were counted for ten years (Quist and Tell 2015).'),
        paragraph(heading, 'Heading1'),
        ...LATIN_ENTRIES.map(listParagraph),
      ]);
      const result = await parseManuscript(docx, 'frost.docx', limits);
      expect(result.references.map((r) => r.raw)).toEqual(LATIN_ENTRIES);
    },
  );
});

describe('a two-column list with a table and a figure set among its entries', () => {
  const line = (text: string, x: number, y: number, size = 9) => ({ text, size, x, y });
  const firstPage = [
    { text: 'Frost and the Flowering Dates of Valley Gardens', size: 16, x: 72, y: 780, bold: true },
    ...bodyProse(740, 40),
  ];
  const left = Array.from({ length: 14 }, (_, i) =>
    line(`Body line ${i + 1} of the closing section, in the left column.`, 72, 760 - i * 12, 10),
  );
  // A table's rows at the foot of the left column: figures only.
  const cells = ['819.6 0.816 4.713', '1408 0.724 3.174', '950.2 0.739 4.239', '890.2 0.692 3.900'].map(
    (t, i) => line(t, 72, 560 - i * 11),
  );
  const entries: [string, string][] = [
    [
      'Quist, A., Tell, B. & Moss, C., 2004. Frost dates in valley',
      'gardens, J. Cold Gard., 12, 1-10, doi:10.9999/jcg.2004.001.',
    ],
    [
      'Moss, C. & Lind, D., 2016. Flowering under late frost, Valley',
      'Bot., 4, 22-31, doi:10.9999/vb.2016.022.',
    ],
    ['Roe, E., 2017. Notebooks of a valley archive, Archive Stud., 9,', '100-112, doi:10.9999/as.2017.100.'],
    [
      'Tell, B., Quist, A. & Roe, E., 2018. Altitude and the first frost',
      'in northern valleys, J. Cold Gard., 15, 40-52,',
    ],
  ];
  const right = [{ text: 'REFERENCES', size: 10, x: 320, y: 760, bold: true }];
  entries.forEach(([a, b], k) =>
    right.push(
      { ...line(a, 320, 744 - k * 22), bold: false },
      { ...line(b, 330, 733 - k * 22), bold: false },
    ),
  );
  // The next page: a figure's caption across the page, then the last entry's end and two more.
  const nextPage = [
    line(
      'Figure 3. The counts of each garden by season, for the three valleys and their altitudes.',
      72,
      780,
    ),
    line('doi:10.9999/jcg.2018.040.', 82, 500),
    line('Lind, D., 2019. Gardens resistant to frost, Valley Bot., 7,', 72, 489),
    line('1-9, doi:10.9999/vb.2019.001.', 82, 478),
    line('Moss, C., 2020. Late frost and early flowers, J. Cold Gard.,', 72, 467),
    line('20, 5-15, doi:10.9999/jcg.2020.005.', 82, 456),
  ];

  it('skips the cells and the caption and splits the entries by their hanging indent', async () => {
    const pdf = makeTextPdf([firstPage, [...left, ...cells, ...right], nextPage]);
    const result = await parseManuscript(pdf, 'frost.pdf', limits);
    expect(result.references.map((r) => r.raw)).toEqual([
      'Quist, A., Tell, B. & Moss, C., 2004. Frost dates in valley gardens, J. Cold Gard., 12, 1-10, doi:10.9999/jcg.2004.001.',
      'Moss, C. & Lind, D., 2016. Flowering under late frost, Valley Bot., 4, 22-31, doi:10.9999/vb.2016.022.',
      'Roe, E., 2017. Notebooks of a valley archive, Archive Stud., 9, 100-112, doi:10.9999/as.2017.100.',
      'Tell, B., Quist, A. & Roe, E., 2018. Altitude and the first frost in northern valleys, J. Cold Gard., 15, 40-52, doi:10.9999/jcg.2018.040.',
      'Lind, D., 2019. Gardens resistant to frost, Valley Bot., 7, 1-9, doi:10.9999/vb.2019.001.',
      'Moss, C., 2020. Late frost and early flowers, J. Cold Gard., 20, 5-15, doi:10.9999/jcg.2020.005.',
    ]);
  });
});

describe("a Word title in the body's face over an author's name in bold", () => {
  const italic = (text: string) =>
    `<w:p><w:r><w:rPr><w:i/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
  const bold = (text: string) =>
    `<w:p><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

  it('takes the first paragraph as the title and the name as the byline', async () => {
    const docx = makeDocx([
      italic('Beyond the first frost: do valley gardeners read the seasons differently than hill gardeners?'),
      bold('Alma Q. Roe'),
      paragraph('Valley Institute of Botany'),
      bold('Introduction'),
      paragraph('Gardens in cold valleys were counted for ten years, and their flowering dates noted.'),
    ]);
    const result = await parseManuscript(docx, 'frost.docx', limits);
    expect(result.title).toBe(
      'Beyond the first frost: do valley gardeners read the seasons differently than hill gardeners?',
    );
    expect(result.authors.map((a) => a.name)).toEqual(['Alma Q. Roe']);
  });

  it('still takes a bold title of a few words over no byline', async () => {
    const docx = makeDocx([
      paragraph('Draft for the valley archive'),
      bold('Frost Dates of Valley Gardens'),
      paragraph('Gardens in cold valleys were counted for ten years, and their flowering dates noted.'),
    ]);
    const result = await parseManuscript(docx, 'frost.docx', limits);
    expect(result.title).toBe('Frost Dates of Valley Gardens');
  });
});

describe('an invocation in the Title style over the title', () => {
  it.each([['به نام ایزد'], ['بسم الله الرحمن الرحیم'], ['In the name of God']])(
    'leaves "%s" out of the title',
    async (invocation) => {
      const docx = makeDocx([
        paragraph(invocation, 'Title'),
        paragraph('مقایسه تاریخ گلدهی باغ‌های دره‌های سرد.', 'Title'),
        paragraph('مقدمه', 'Heading1'),
        paragraph('باغ‌های دره‌های سرد ده سال شمرده شدند.'),
      ]);
      const result = await parseManuscript(docx, 'frost.docx', limits);
      expect(result.title).toBe('مقایسه تاریخ گلدهی باغ‌های دره‌های سرد');
    },
  );

  it("keeps an abbreviation's stop at the end of a title", async () => {
    const docx = makeDocx([
      paragraph('Frost Dates of Valley Gardens in the U.S.', 'Title'),
      paragraph('Introduction', 'Heading1'),
      paragraph('Gardens in cold valleys were counted for ten years.'),
    ]);
    const result = await parseManuscript(docx, 'frost.docx', limits);
    expect(result.title).toBe('Frost Dates of Valley Gardens in the U.S.');
  });
});
