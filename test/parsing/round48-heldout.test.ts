// Layouts met in the forty-fifth held-out set (economics and social-science working papers and
// manuscripts: NBER-style title pages, a central-bank co-authored paper, political-science
// submissions, Word manuscripts), fixed in the forty-eighth round. Names, titles and entries are
// made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeDocx, makeTextPdf, paragraph, wordBodyParagraphs } from './make-files.ts';

const limits = testConfig().parsing;

type PdfTextLine = Parameters<typeof makeTextPdf>[0][number][number];

/**
 * A hanging author-year list: each entry's first line flush at x 72, its others set in at 84,
 * 12 points apart within an entry and 20 between entries, from `top` down. An entry given as a
 * number of points in `setIn` starts its first line there (a rule drawn before it).
 */
function hangingEntries(entries: { lines: string[]; setIn?: number }[], top: number): PdfTextLine[] {
  const out: PdfTextLine[] = [];
  let y = top;
  for (const e of entries) {
    e.lines.forEach((text, k) => {
      out.push({ text, size: 10, x: k === 0 ? (e.setIn ?? 72) : 84, y });
      y -= 12;
    });
    y -= 8;
  }
  return out;
}

const entry = (surname: string, year: number): { lines: string[] } => ({
  lines: [
    `${surname}, Jane, and Bo Poe (${year}): "Lanterns of the northern shore and`,
    'their keepers," Journal of Lantern Studies, 12(3), 101–120.',
  ],
});

describe('a head that names the appendices, over the pages of a list set among them', () => {
  // A class's running head "APPENDICES", at the top of the appendices' pages only (too few of the
  // document's to count as recurring, with no page number beside it), over the list's pages.
  const head: PdfTextLine = { text: 'APPENDICES', size: 10, x: 260, y: 800 };
  const file = () =>
    makeTextPdf([
      [
        { text: 'Lanterns and the Keepers of the Shore', size: 17, x: 72, y: 760, bold: true },
        ...bodyProse(700, 40),
      ],
      ...Array.from({ length: 7 }, () => bodyProse(780, 50)),
      [
        head,
        { text: 'References', size: 14, x: 72, y: 760, bold: true },
        ...hangingEntries(
          ['Abel', 'Baker', 'Carter', 'Dale'].map((s) => entry(s, 2001)),
          730,
        ),
      ],
      [
        head,
        ...hangingEntries(
          ['Eaton', 'Fox', 'Grant', 'Hale'].map((s) => entry(s, 2002)),
          760,
        ),
      ],
      [
        head,
        ...hangingEntries(
          ['Irwin', 'Jones'].map((s) => entry(s, 2003)),
          760,
        ),
      ],
    ]);

  it('reads the list over all its pages: the head at their tops ends it nowhere', async () => {
    const result = await parseManuscript(file(), 'appendices-head.pdf', limits);
    expect(result.references).toHaveLength(10);
    expect(result.references.at(-1)!.raw).toMatch(/^Jones, Jane/);
  });
});

describe('repeated authors drawn as a rule in a hanging list', () => {
  it('opens an entry at a line that starts with its year, set in past the hanging lines (\\BySame)', async () => {
    const file = makeTextPdf([
      [
        { text: 'Lanterns and the Keepers of the Shore', size: 17, x: 72, y: 780, bold: true },
        ...bodyProse(740, 30),
        { text: 'References', size: 14, x: 72, y: 330, bold: true },
        ...hangingEntries(
          [
            entry('Abel', 2001),
            {
              lines: [
                '(2019): "More lanterns of the northern shore," Working Paper 25020, National',
                'Bureau of Lantern Research.',
              ],
              setIn: 110,
            },
            entry('Baker', 2005),
          ],
          300,
        ),
      ],
    ]);
    const result = await parseManuscript(file, 'bysame-year.pdf', limits);
    expect(result.references).toHaveLength(3);
    // The year in brackets before the colon is the entry's year, no label of a numbered list.
    expect(result.references[1]!.year).toBe(2019);
    expect(result.references[1]!.raw).toMatch(/^\(2019\): "More lanterns/);
  });

  it('opens one at a line that starts with the rest of the names or the title (AER’s \\bysame)', async () => {
    // The rule is as wide as the hanging indent: the text after it starts at the hanging lines'
    // indent, with the space between entries above it, or at the next page's top.
    const file = makeTextPdf([
      [
        { text: 'Lanterns and the Keepers of the Shore', size: 17, x: 72, y: 780, bold: true },
        ...bodyProse(740, 30),
        { text: 'References', size: 14, x: 72, y: 330, bold: true },
        ...hangingEntries(
          [
            entry('Abel', 2001),
            {
              lines: [
                'and Ann Lee, Keepers and their Lamps, Northvale: Lantern Press, 2002. Second',
                'edition.',
              ],
              setIn: 84,
            },
            { lines: [', "Lamps at dusk," Lantern Letters, 2003, 4 (2), 10–12.'], setIn: 84 },
            entry('Baker', 2005),
          ],
          300,
        ),
      ],
      [
        ...hangingEntries(
          [
            {
              lines: ['and Tom Fox, "The lantern census," Journal of Lantern Studies, 2006, 15 (1),', '5–9.'],
              setIn: 84,
            },
            {
              lines: [
                ', Ann Lee, and Tom Fox, "Lamps again," Journal of Lantern Studies, 2007, 16',
                '(1), 1–4.',
              ],
              setIn: 84,
            },
            entry('Carter', 2008),
          ],
          780,
        ),
      ],
    ]);
    const result = await parseManuscript(file, 'bysame-aer.pdf', limits);
    expect(result.references.map((r) => r.raw.slice(0, 12))).toEqual([
      'Abel, Jane, ',
      'and Ann Lee,',
      ', "Lamps at ',
      'Baker, Jane,',
      'and Tom Fox,',
      ', Ann Lee, a',
      'Carter, Jane',
    ]);
  });
});

describe('one author over the abbreviations of the affiliation, in one block (a working paper’s \\author{Name \\\\ MIT \\& NBER})', () => {
  it('reads the name and leaves the affiliation out of it', async () => {
    const file = makeTextPdf([
      [
        { text: 'Lanterns as Simulated Keepers of the Shore', size: 17, x: 120, y: 760 },
        { text: 'Jane A. Roe', size: 12, x: 250, y: 720 },
        { text: 'NLI & NBLR', size: 12, x: 252, y: 706 },
        { text: 'December 2, 2026', size: 12, x: 240, y: 680 },
        { text: 'Abstract', size: 10, x: 280, y: 640, bold: true },
        ...bodyProse(620, 30),
      ],
    ]);
    const result = await parseManuscript(file, 'nber-single-author.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Jane A. Roe']);
  });
});

describe('one author a Word paragraph with the affiliation run on after a comma', () => {
  it('reads the name before the comma of each author line', async () => {
    const file = makeDocx([
      paragraph('A Century of Lantern Measurement in the Division of Research: Beyond the Shore', 'Heading2'),
      paragraph('Jane Roe, formerly of the Division of Research and Statistics'),
      paragraph('Bo Poe, formerly of the Division of Research and Statistics'),
      paragraph('October 24, 2023'),
      paragraph('(Preliminary Draft, not for quotation)'),
      paragraph('Introduction', 'Heading2'),
      ...wordBodyParagraphs(20),
    ]);
    const result = await parseManuscript(file, 'fed-paper.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Roe', 'Bo Poe']);
  });
});
