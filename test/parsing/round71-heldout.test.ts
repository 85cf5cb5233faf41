// Layouts met in the sixty-sixth held-out set (software and data papers: JOSS drafts, a Scientific
// Data descriptor, a SoftwareX submission), fixed in the seventy-first round. Names, titles and
// text are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { findGutters, type Item } from '../../src/parsing/pdf/geometry.ts';
import { testConfig } from '../helpers/app.ts';
import { makeTextPdf, textLine, textWidth, type PdfLink, type PdfTextLine } from './make-files.ts';

const limits = testConfig().parsing;

const TITLE = 'Shoalkit: a Python package for mapping tidal shoals';

/** Prose of a section at the body's size from `x`, one sentence a line, 12 points apart. */
function prose(top: number, count: number, x: number, words = 'tidal'): PdfTextLine[] {
  return Array.from({ length: count }, (_, i) =>
    textLine(
      `The ${words} survey of line ${i + 1} is read here as running prose of the section.`,
      top - i * 12,
      10,
      {
        x,
      },
    ),
  );
}

describe('a JOSS byline whose names break over lines, an ORCID icon after each name', () => {
  // "Jane Q. Roe¹ [iD], Tom Baker¹ [iD], Ada M." / "Lovelace² [iD], Ivo Kant¹ [iD], and Mia Wong² [iD]"
  const rows: { name: string; mark: string; orcid: string | null }[][] = [
    [
      { name: 'Jane Q. Roe', mark: '1', orcid: '0000-0002-1825-0097' },
      { name: ', Tom Baker', mark: '1', orcid: '0000-0001-5109-3700' },
      { name: ', Ada M.', mark: '', orcid: null },
    ],
    [
      { name: 'Lovelace', mark: '2', orcid: '0000-0002-1694-233X' },
      { name: ', Ivo Kant', mark: '1', orcid: '0000-0003-1419-2405' },
      { name: ', and Mia Wong', mark: '2', orcid: '0000-0001-5000-0007' },
    ],
  ];
  const lines: PdfTextLine[] = [textLine(TITLE, 760, 17)];
  const links: PdfLink[] = [];
  rows.forEach((row, r) => {
    const y = 730 - r * 16;
    let x = 72;
    for (const { name, mark, orcid } of row) {
      lines.push(textLine(name, y, 12, { x }));
      x += textWidth(name, 12);
      if (mark) {
        lines.push(textLine(mark, y + 4, 8, { x }));
        x += textWidth(mark, 8) + 2;
      }
      if (orcid) {
        // The icon is drawn, not written: the link's rectangle over a blank square.
        links.push({ rect: [x, y - 1, x + 10, y + 9], url: `https://orcid.org/${orcid}` });
        x += 14;
      }
    }
  });
  lines.push(
    textLine('1 Department of Coasts, University of Northvale 2 Institute of Tides, Southmere', 690, 9),
    textLine('Summary', 660, 14, { bold: true }),
    ...prose(640, 10, 72),
  );
  const file = makeTextPdf([lines], '', [links]);

  it('gives each identifier to the name its icon follows, the broken name’s to its last word', async () => {
    const result = await parseManuscript(file, 'joss-byline.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.orcid])).toEqual([
      ['Jane Q. Roe', '0000-0002-1825-0097'],
      ['Tom Baker', '0000-0001-5109-3700'],
      ['Ada M. Lovelace', '0000-0002-1694-233X'],
      ['Ivo Kant', '0000-0003-1419-2405'],
      ['Mia Wong', '0000-0001-5000-0007'],
    ]);
  });
});

describe('a sidebar of small type in the left margin beside the summary (a JOSS draft’s first page)', () => {
  const BODY = 170;
  // The sidebar starts beside the affiliation, over the summary's heading, as JOSS sets it.
  const sidebar = [
    'DOI: 10.21105/joss.01234',
    'Software',
    '• Review',
    '• Repository',
    '• Archive',
    'Editor: Open Journals',
    'Submitted: 01 May 2025',
    'Published: 02 June 2025',
    'License',
    'Authors retain copyright',
    'under a Creative Commons',
    'Attribution 4.0 Licence.',
  ].map((t, i) => textLine(t, 700 - i * 12, 8, { x: 28 }));
  const summary = [
    'Shoalkit reads echo soundings of a tidal flat and maps the shoals they outline.',
    'It joins surveys made years apart and reports how far each shoal has moved.',
    'Coastal engineers and students can use it without writing a line of code.',
    'The package draws each map with its own legend and a scale in metres.',
    'It reads the common survey formats and writes the maps as image files.',
    'Every step is logged, so a map can be made again from the same surveys.',
    'The package is tested on surveys of three estuaries and a sandy spit.',
    'It is released under an open licence, with documentation and examples.',
    'Users may add readers for new formats through a small plugin interface.',
    'The maps it draws have been used to plan the dredging of a harbour mouth.',
    'Its results agree with those of the surveyors who made the soundings.',
    'This paper describes what the package does and whom it is written for.',
  ];
  const page: PdfTextLine[] = [
    textLine(TITLE, 760, 17, { x: BODY }),
    textLine('Jane Q. Roe and Tom Baker', 730, 12, { x: BODY }),
    textLine('Department of Coasts, University of Northvale', 712, 9, { x: BODY }),
    ...sidebar,
    textLine('Summary', 660, 14, { x: BODY, bold: true }),
    ...summary.map((t, i) => textLine(t, 640 - i * 12, 10, { x: BODY })),
    textLine('Statement of need', 480, 14, { x: BODY, bold: true }),
    ...prose(460, 30, BODY, 'shoal'),
  ];

  it('reads the summary’s lines without the sidebar’s fields run into them', async () => {
    const result = await parseManuscript(makeTextPdf([page]), 'joss-sidebar.pdf', limits);
    // The summary's lines beside the sidebar and those under it may come as two paragraphs.
    expect(result.abstract?.replace(/\s+/g, ' ')).toBe(summary.join(' '));
  });
});

describe('a journal’s inserts before the title page (highlights, then a code-metadata table)', () => {
  const highlights = [
    textLine('Highlights', 780, 12, { bold: true }),
    ...[
      '• Shoalkit maps tidal shoals from echo soundings in a single command.',
      '• The same command makes every table and figure of this paper again.',
      '• Surveys made years apart are joined and their shoals compared.',
    ].map((t, i) => textLine(t, 750 - i * 16, 12)),
  ];
  const metadata = [
    textLine('Table 1: Code metadata (reproducibility requirement)', 780, 12),
    ...[
      ['Current code version', 'Shoalkit v2.0.0'],
      ['Permanent link to code', 'https://example.org/shoalkit/tree/v2.0.0'],
      ['Legal Code License', 'MIT License'],
      ['Computing platforms', 'Linux, macOS and Windows; Python 3.11 or later'],
      ['Support contact', 'jane.roe@northvale.example.org'],
    ].flatMap(([k, v], i) => [textLine(k!, 750 - i * 20, 12), textLine(v!, 750 - i * 20, 12, { x: 260 })]),
  ];
  const titlePage = [
    textLine(TITLE, 760, 17),
    textLine('Jane Q. Roe', 730, 12),
    textLine('a,*', 734, 8, { x: 72 + textWidth('Jane Q. Roe', 12) }),
    textLine('a Department of Coasts, University of Northvale, Northvale', 712, 9),
    textLine('Abstract', 680, 12, { bold: true }),
    ...prose(662, 8, 72),
    textLine('* Corresponding author: jane.roe@northvale.example.org', 90, 8),
    textLine('Preprint submitted to a journal', 60, 8),
  ];
  const file = makeTextPdf([highlights, metadata, titlePage]);

  it('reads the title, the author and the address from the page after the inserts', async () => {
    const result = await parseManuscript(file, 'softwarex.pdf', limits);
    expect(result.title).toBe(TITLE);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Jane Q. Roe', ['jane.roe@northvale.example.org']],
    ]);
  });
});

describe('bullets under a numbered section are no sidebar', () => {
  // The left column of a Spanish two-column article's last page but one (pdfTeX, 12 points): the
  // body's last lines, the numbered heading "6 Annexes", a line, three bulleted items, beside the
  // reference list's column. Left of the items' indent stand only the heading's number, a line's
  // first letter and the bullets: few pieces against the items' lines, as a sidebar's fields are,
  // but in the column's own type. Taken for a sidebar they cut the column in two, and the page's
  // reading order with it: the list read 5 of its 20 entries. Positions, widths and sizes are the
  // file's; every letter is replaced by "a".
  const items: Item[] = (
    JSON.parse(
      readFileSync(new URL('./layouts/bullets-under-a-numbered-section.json', import.meta.url), 'utf8'),
    ) as [string, number, number, number, number][]
  ).map(([str, x, y, w, size]) => ({ str, x, y, w, size, font: 'F1' }));

  it('finds no column edge inside the column', () => {
    const gutters = findGutters(items, 0, 295.25, 1);
    expect(gutters.filter((g) => g.x < 100)).toEqual([]);
  });
});
