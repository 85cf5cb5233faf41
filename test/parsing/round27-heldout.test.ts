// Layouts met in the twenty-fifth held-out set, fixed in the twenty-seventh round.
// Names, titles and texts are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { orderPage, type Item } from '../../src/parsing/pdf/geometry.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeDocx, makeTextPdf, paragraph, piecesOnOneLine, textLine } from './make-files.ts';

const limits = testConfig().parsing;

/** Lines of prose from `y` down, each with its line number at the right margin, from `first` on. */
function numberedProse(y: number, count: number, first: number) {
  return Array.from({ length: count }, (_, i) => [
    textLine(
      `Sentence ${i + 1} of the numbered review copy runs on across the full width of the text.`,
      y - i * 14,
    ),
    { text: String(first + i), size: 8, x: 572, y: y - i * 14 },
  ]).flat();
}

describe('line numbers in the right margin, one digit on the title page and two after it', () => {
  const file = () =>
    makeTextPdf([
      [
        textLine('Tidal Mixing and Sediment Transport in Shallow Estuaries Under', 760, 14, { bold: true }),
        { text: '1', size: 8, x: 572, y: 760 },
        { text: 'Storm Conditions', size: 14, x: 72, y: 742, bold: true },
        { text: '2', size: 8, x: 572, y: 742 },
        { text: 'Mara Quill, Tobin Aske', size: 10, x: 72, y: 716 },
        { text: '3', size: 8, x: 572, y: 716 },
        { text: 'Department of Oceanography, Coastal University, Harbour Town', size: 9, x: 72, y: 700 },
        { text: '4', size: 8, x: 572, y: 700 },
        ...bodyProse(640, 8),
      ],
      numberedProse(780, 40, 10),
    ]);

  it('are dropped: the column aligns on its left edge, not its right', async () => {
    const result = await parseManuscript(file(), 'review.pdf', limits);
    expect(result.title).toBe(
      'Tidal Mixing and Sediment Transport in Shallow Estuaries Under Storm Conditions',
    );
    expect(result.authors.map((a) => a.name)).toEqual(['Mara Quill', 'Tobin Aske']);
  });
});

describe('a name broken at the line end by hyphenation in a byline', () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'Grazing Pressure on Upland Meadows', size: 18, x: 72, y: 760, bold: true },
        ...piecesOnOneLine([{ text: 'Pia Lund' }, { text: '1', sup: true }, { text: '; Ana Ro-' }], 730, 11),
        ...piecesOnOneLine(
          [{ text: 'sales' }, { text: '1', sup: true }, { text: '; Bo Chen' }, { text: '2', sup: true }],
          716,
          11,
        ),
        { text: '1 Institute of Ecology, Northern University, Fjelltown', size: 9, x: 72, y: 696 },
        { text: '2 Faculty of Agronomy, Southern University, Dalby', size: 9, x: 72, y: 684 },
        { text: 'Introduction', size: 12, x: 72, y: 640, bold: true },
        ...bodyProse(620),
      ],
    ]);

  it('is one name', async () => {
    const result = await parseManuscript(file(), 'meadows.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Pia Lund', 'Ana Rosales', 'Bo Chen']);
  });
});

describe('a table of authors and their ORCIDs printed as columns', () => {
  const rows = [
    ['Pia Lund', '0000-0002-1825-0097'],
    ['Ana Rosales', '0000-0001-5109-3700'],
    ['Bo Chen', '0000-0002-9079-593X'],
  ];
  const file = () =>
    makeTextPdf([
      [
        { text: 'Grazing Pressure on Upland Meadows', size: 18, x: 72, y: 760, bold: true },
        ...piecesOnOneLine(
          [
            { text: 'Pia Lund' },
            { text: '1', sup: true },
            { text: '; Ana Rosales' },
            { text: '1', sup: true },
          ],
          730,
          11,
        ),
        ...piecesOnOneLine([{ text: '; Bo Chen' }, { text: '2', sup: true }], 716, 11),
        { text: '1 Institute of Ecology, Northern University, Fjelltown', size: 9, x: 72, y: 696 },
        { text: '2 Faculty of Agronomy, Southern University, Dalby', size: 9, x: 72, y: 684 },
        { text: 'Author', size: 10, x: 72, y: 650, bold: true },
        { text: 'ORCID', size: 10, x: 260, y: 650, bold: true },
        ...rows.flatMap(([name, id], k) => [
          { text: name!, size: 10, x: 72, y: 634 - k * 16 },
          { text: id!, size: 10, x: 260, y: 634 - k * 16 },
        ]),
        { text: 'Introduction', size: 12, x: 72, y: 560, bold: true },
        ...bodyProse(540),
      ],
    ]);

  it('gives each author the identifier on their row', async () => {
    const result = await parseManuscript(file(), 'meadows.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.orcid])).toEqual(rows);
  });
});

describe('a lone name between the title and a date (LaTeX: title, author, date)', () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'Quiet Estimators for Noisy Markets', size: 17, x: 150, y: 760 },
        { text: 'Mirela Oduya', size: 12, x: 250, y: 730 },
        { text: 'March 3, 2025', size: 12, x: 250, y: 705 },
        { text: 'Abstract', size: 12, x: 72, y: 660, bold: true },
        ...bodyProse(640),
      ],
    ]);

  it('is the author', async () => {
    const result = await parseManuscript(file(), 'proposal.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Mirela Oduya']);
  });
});

describe("a chart's tick labels, in the text's size, on the page after an author-year list", () => {
  const entries = [
    'Abbot, R. (1957). Dynamic methods. Northtown: Lakeside Press.',
    'Birch, G. B. (1955). Planning under doubt. Planning Science 1(3), 197-206.',
    'Crane, E. B. (1961). Operators of random processes. Journal of Chance 6, 264-274.',
  ];
  const file = () =>
    makeTextPdf([
      [
        { text: 'Counting Queues in Busy Clinics', size: 17, x: 120, y: 760 },
        { text: 'Introduction', size: 12, x: 72, y: 720, bold: true },
        ...bodyProse(700, 20),
        { text: 'References', size: 12, x: 72, y: 420, bold: true },
        ...entries.map((text, k) => ({ text, size: 10, x: 72, y: 400 - k * 14 })),
      ],
      [
        { text: '4', size: 10, x: 80, y: 760 },
        { text: '2', size: 10, x: 80, y: 720 },
        { text: '0', size: 10, x: 80, y: 680 },
        { text: '-6.8 -6.6 -6.4 -6.2', size: 10, x: 100, y: 665 },
        { text: '(a) Dimension 50', size: 9, x: 150, y: 645 },
        { text: 'Figure 4: Simulated regret over the dimensions.', size: 10, x: 150, y: 620 },
      ],
    ]);

  it('belong to the chart, not the last entry', async () => {
    const result = await parseManuscript(file(), 'clinics.pdf', limits);
    expect(result.references).toHaveLength(3);
    expect(result.references[2]!.raw).toBe(entries[2]);
  });
});

/** A line drawn one glyph an item, right to left for the Hebrew letters (XeLaTeX's bidi output). */
function glyphs(text: string, right: number, y: number, size = 12): Item[] {
  const w = size * 0.5;
  return [...text].map((ch, k) => ({ str: ch, x: right - (k + 1) * w, y, w, size, font: 'F1' }));
}

describe('a line of Hebrew drawn one glyph an item, from the right', () => {
  it('reads from its right end', () => {
    // Drawn in reading order from the right: "שלום עולם" (hello world).
    const lines = orderPage(glyphs('שלום עולם', 400, 700), 1, []);
    expect(lines.map((l) => l.text)).toEqual(['שלום עולם']);
  });

  it('keeps a Latin word and a number inside it in their own order', () => {
    const items = [
      ...glyphs('מחקר חדש ', 400, 700),
      { str: 'BERT', x: 352 - 24, y: 700, w: 24, size: 12, font: 'F1' },
      ...glyphs(' משנת ', 328, 700),
      { str: '2018', x: 298 - 24, y: 700, w: 24, size: 12, font: 'F1' },
    ];
    expect(orderPage(items, 1, []).map((l) => l.text)).toEqual(['מחקר חדש BERT משנת 2018']);
  });

  it('reads a Hebrew phrase inside an English line from its right end, in its place', () => {
    const items = [
      { str: 'Summary', x: 72, y: 700, w: 42, size: 12, font: 'F1' },
      { str: ':', x: 114, y: 700, w: 3, size: 12, font: 'F1' },
      ...glyphs('סיכום', 160, 700),
    ];
    expect(orderPage(items, 1, []).map((l) => l.text)).toEqual(['Summary: סיכום']);
  });
});

describe('a reference list in two parts by language, each under its own heading', () => {
  const file = () =>
    makeDocx([
      paragraph('מודלים של שפה בעברית', 'Title'),
      ...Array.from({ length: 6 }, (_, i) =>
        paragraph(`פסקה ${i + 1} מתארת את השיטה, את הנתונים ואת התוצאות של המחקר הזה בכמה שורות של טקסט.`),
      ),
      paragraph('מקורות בעברית', 'Heading1'),
      paragraph('א. לוי, "תחביר וחישוב", כתב עת לבלשנות, כרך 4, עמ\' 10–20, 2021.'),
      paragraph('ר. כהן, "מילים ומספרים", מחקרי שפה, כרך 9, עמ\' 5–9, 2019.'),
      paragraph('English References', 'Heading1'),
      paragraph('Roe, J. (2020). Parsing the unparsed. Journal of Tests, 1, 1-9. doi: 10.1234/ptu.2020.1'),
      paragraph('Doe, A. (2018). Counting words. Word Studies, 3, 4-8.'),
    ]);

  it('is read as one list: the Hebrew heading heads it, the English heading stays out of its entries', async () => {
    const result = await parseManuscript(file(), 'maamar.docx', limits);
    expect(result.references).toHaveLength(4);
    expect(result.references.map((r) => r.raw).some((t) => /English References/.test(t))).toBe(false);
    expect(result.references[2]!.doi).toBe('10.1234/ptu.2020.1');
  });
});
