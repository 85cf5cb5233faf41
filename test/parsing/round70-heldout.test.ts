// Layouts met in the sixty-fifth held-out set (manuscripts printed from web pages: Quarto's and
// Manubot's HTML through a browser's "print to PDF", its date, title, address and page count in
// the margins), fixed in the seventieth round. Names, titles and text are made up; only the shapes
// follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, textLine, textWidth, type PdfLink, type PdfTextLine } from './make-files.ts';

const limits = testConfig().parsing;

const TITLE = 'Tidal sorting of pebbles on shingle spits';

/**
 * A web page's title block (Quarto's): small labels in capitals over each field, in three columns
 * (the names one to a line under "AUTHORS", their institutions beside them under "AFFILIATION",
 * the page's other formats, each a link to its file, under "OTHER FORMATS"), then the date, the
 * abstract and the keywords, each under its label. Each name's line links its address; `icon`
 * follows the name (the envelope the link is drawn on), as an icon font prints it.
 */
function webTitleBlock(names: string[], icon = ''): { lines: PdfTextLine[]; links: PdfLink[] } {
  const lines: PdfTextLine[] = [
    textLine(TITLE, 770, 18, { bold: true }),
    textLine('AUTHORS', 735, 8),
    textLine('AFFILIATION', 735, 8, { x: 250 }),
    textLine('OTHER FORMATS', 735, 8, { x: 430 }),
    textLine('PDF (elsevier)', 720, 9, { x: 430 }),
    textLine('Typst (article)', 706, 9, { x: 430 }),
  ];
  const links: PdfLink[] = [
    { rect: [428, 718, 500, 729], url: 'index.pdf', file: true },
    { rect: [428, 704, 500, 715], url: 'index-typst.pdf', file: true },
  ];
  names.forEach((name, k) => {
    const y = 720 - k * 14;
    lines.push(textLine(icon ? `${name} ${icon}` : name, y, 9));
    // The last author gives no affiliation.
    if (k < names.length - 1) lines.push(textLine('University of Northvale', y, 9, { x: 250 }));
    // The link covers the icon; drawn over the line, as a browser's link boxes may be.
    const address = `${name.split(' ').pop()!.toLowerCase()}@northvale.example.org`;
    links.push({ rect: [70, y - 2, 72 + textWidth(`${name} ${icon}`, 9), y + 9], url: `mailto:${address}` });
  });
  const below = 720 - names.length * 14 - 20;
  lines.push(
    textLine('PUBLISHED', below, 8),
    textLine('March 4, 2024', below - 14, 9),
    textLine('ABSTRACT', below - 40, 8),
    textLine(
      'Pebbles on a spit are sorted by the tide into bands of one size, which we measure here.',
      below - 54,
      9,
    ),
    textLine('KEYWORDS', below - 76, 8),
    textLine('shingle, tides, sorting', below - 90, 9),
    textLine('1 Introduction', below - 125, 18, { bold: true }),
    ...bodyProse(below - 150, 20),
  );
  return { lines, links };
}

describe('a web page’s title block printed from a browser (Quarto’s HTML)', () => {
  it('reads the names under the "AUTHORS" label, not the labels', async () => {
    const { lines, links } = webTitleBlock(['Jane Q. Roe', 'Tomas Ferreira', 'Mei Lin Okafor']);
    const result = await parseManuscript(makeTextPdf([lines], '', [links]), 'web.pdf', limits);
    expect(result.title).toBe(TITLE);
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Q. Roe', 'Tomas Ferreira', 'Mei Lin Okafor']);
  });

  it('reads the names without the envelope icons linked after them, each with its address', async () => {
    const { lines, links } = webTitleBlock(['Jane Q. Roe', 'Tomas Ferreira'], '#');
    const result = await parseManuscript(makeTextPdf([lines], '', [links]), 'web-icons.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Jane Q. Roe', ['roe@northvale.example.org']],
      ['Tomas Ferreira', ['ferreira@northvale.example.org']],
    ]);
  });
});

/** A numbered list's entries: the title in bold after its number, then a line of its authors and source. */
function numberedEntries(titles: string[], top: number): PdfTextLine[] {
  return titles.flatMap((t, k) => [
    textLine(`${k + 1}. ${t}`, top - k * 34, 10, { bold: true }),
    textLine(
      `Jane Roe, Tomas Ferreira (2020-0${(k % 9) + 1}) https://github.com/northvale/tool${k + 1}`,
      top - k * 34 - 13,
      10,
    ),
  ]);
}

describe('a numbered reference list whose entries name software by its repository (Manubot’s HTML)', () => {
  it('reads on past an entry whose number is followed by a name in lower case', async () => {
    const page: PdfTextLine[] = [
      textLine(TITLE, 780, 18, { bold: true }),
      textLine('Jane Q. Roe', 755, 11),
      ...bodyProse(730, 20),
      textLine('References', 450, 14, { bold: true }),
      ...numberedEntries(
        [
          'Shingle transport under storm waves',
          'northvale/pebblecount',
          'Northvale/SpitSurvey',
          'Sorting by size on gravel beaches',
          'Tidal bands on spits',
        ],
        425,
      ),
    ];
    const result = await parseManuscript(makeTextPdf([page]), 'numbered.pdf', limits);
    expect(result.references).toHaveLength(5);
  });
});

describe('a reference list broken over pages, each page opening on the last line of an entry (a browser’s print)', () => {
  it('keeps the DOI line at the top of each page, where the digits masked would read as a running line', async () => {
    const dois = ['10.5555/ja01315a105', '10.5555/ja00315a051', '10.5555/ja00029a005', '10.5555/ja00412a118'];
    const pages: PdfTextLine[][] = [];
    // The browser's own margins: the date and the page's title at the top, its address and count below.
    const margins = (n: number): PdfTextLine[] => [
      textLine('3/12/26, 7:27 PM', 828, 8, { x: 30 }),
      textLine(TITLE, 828, 8, { x: 250 }),
      textLine('file:///home/roe/paper/manuscript.html', 14, 8, { x: 30 }),
      textLine(`${n}/12`, 14, 8, { x: 540 }),
    ];
    pages.push([
      ...margins(1),
      textLine(TITLE, 780, 18, { bold: true }),
      textLine('Jane Q. Roe', 755, 11),
      ...bodyProse(730, 40),
    ]);
    // Pages of the body before the list: a line on three pages of twelve is too few to recur.
    for (let p = 0; p < 7; p++) pages.push([...margins(p + 2), ...bodyProse(800, 55)]);
    let entry = 1;
    for (let p = 0; p < 4; p++) {
      const lines: PdfTextLine[] = [...margins(p + 9)];
      let y = 800;
      if (p > 0) {
        // The last two lines of the entry the page before left open: its journal, then its DOI.
        lines.push(textLine('Journal of Coastal Stones (1984-02) https://doi.org/dcvw', y, 10));
        lines.push(textLine(`DOI: ${dois[p - 1]}`, y - 13, 10));
        y -= 40;
      } else {
        lines.push(textLine('References', y, 14, { bold: true }));
        y -= 30;
      }
      for (let k = 0; k < (p === 3 ? 3 : 8); k++) {
        const last = k === 7;
        lines.push(
          textLine(`${entry}. Sorting of shingle by the tide, part ${entry}`, y, 10, { bold: true }),
        );
        lines.push(textLine('Jane Roe, Tomas Ferreira', y - 13, 10));
        if (!last) {
          lines.push(
            textLine(
              `Journal of Coastal Stones (1990-0${(k % 9) + 1}) https://doi.org/abc${entry}`,
              y - 26,
              10,
            ),
          );
          lines.push(textLine(`DOI: 10.5555/jcs.${1000 + entry}`, y - 39, 10));
        }
        entry++;
        y -= 60;
      }
      pages.push(lines);
    }
    const result = await parseManuscript(makeTextPdf(pages), 'printed.pdf', limits);
    const found = result.references.map((r) => r.doi);
    for (const d of dois.slice(0, 3)) expect(found).toContain(d);
  });
});
