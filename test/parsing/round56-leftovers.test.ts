// Leftovers of the forty-eighth to fifty-first held-out sets that would recur on unseen files,
// fixed in the fifty-sixth round. The blocks are written as the PDF reader gives them; titles,
// names and text are made up, only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { extractHeader } from '../../src/parsing/header.ts';
import { documentGutters, orderPage, type Item } from '../../src/parsing/pdf/geometry.ts';
import { parseReferenceList } from '../../src/parsing/references.ts';
import { endsReferenceList, opensWithKeywordsLabel } from '../../src/parsing/sections.ts';
import { block, pdf } from './blocks.ts';

describe('a paragraph of the abstract opened by "Keywords are ..." (a thesis template’s advice)', () => {
  const lines = [
    'A summary of a thesis tells what was studied and why, how the work was done, and what was',
    'found, so that a reader can judge the work without reading the whole of it.',
    'Keywords are words taken from the thesis for its indexing, naming what it is about; a thesis',
    'may give five of them at most, parted by semicolons.',
  ];
  const doc = pdf([
    block('Records of Three Lighthouses Compared', { size: 1.6, bold: true }),
    block('Abstract', { size: 1.33, bold: true, page: 2 }),
    block(lines.join(' '), { page: 2, lines }),
    block('Keywords: lighthouse; logbook; weather', { page: 2 }),
    block('Contents', { size: 1.33, bold: true, page: 3 }),
  ]);

  it('reads the paragraph into the abstract: the word opens a sentence, not a label', () => {
    const abstract = extractHeader(doc).abstract ?? '';
    expect(abstract).toContain('parted by semicolons.');
    expect(abstract).not.toContain('lighthouse; logbook');
  });

  it('still takes the label with a separator, on its own, or before terms', () => {
    expect(opensWithKeywordsLabel('Keywords: lighthouse; logbook')).toBe(true);
    expect(opensWithKeywordsLabel('Keywords')).toBe(true);
    expect(opensWithKeywordsLabel('Keywords lighthouse · logbook · weather')).toBe(true);
    expect(opensWithKeywordsLabel('Keywords Lighthouse records and the weather of a coast')).toBe(true);
    expect(opensWithKeywordsLabel('Keywords are words taken from the thesis')).toBe(false);
  });
});

describe('a DOI that ends its entry, the PubMed number after it', () => {
  const list = (entries: string[][]) =>
    parseReferenceList(
      entries.flatMap((e) => e.map((text, k) => ({ text, indent: k ? 12 : 0, gapAbove: k ? 1 : 4 }))),
      null,
    ).map((r) => r.doi);

  it('ends the DOI at its stop when the number opens the next line', () => {
    expect(
      list([
        [
          'Keeper A, Warden B (2021). “Reading the Logs of Lighthouses.” Journal of Coastal Records, 17(2),',
          'e1004321. doi:10.5555/journal.jcr.1004321.',
          '31234567.',
        ],
        ['Warden B (2019). “Weather at Sea.” Marine Notes, 4, 11–19. doi:10.5555/mn.2019.', '03.002.'],
      ]),
    ).toEqual(['10.5555/journal.jcr.1004321', '10.5555/mn.2019.03.002']);
  });

  it('ends it before a PubMed label glued to its stop', () => {
    expect(
      list([
        [
          'Keeper A (2020). Lighthouse logs. Coastal Records 12:1–9. doi: 10.5555/j.cr.2020.01.001.PMID:32123456',
        ],
      ]),
    ).toEqual(['10.5555/j.cr.2020.01.001']);
  });

  it('still joins a DOI broken after a stop before its own last piece', () => {
    expect(
      list([
        ['Keeper A (2020). Lighthouse logs. Frontiers in Records 11. doi:10.5555/frec.2020.', '01234.'],
        ['Warden B (2021). Logs read again. Records Computing 17. doi:10.5555/journal.prc.', '1004321.'],
      ]),
    ).toEqual(['10.5555/frec.2020.01234', '10.5555/journal.prc.1004321']);
  });
});

const item = (str: string, x: number, y: number, w = 250): Item => ({ str, x, y, w, size: 10, font: 'F1' });

/** Lines of a two-column page of the list: left column at x 50, right column at x 320, 12 pt apart. */
function listPage(from: number): Item[] {
  const items: Item[] = [];
  for (let i = 0; i < 40; i++) items.push(item(`[${from + i}] left entry line`, 50, 740 - i * 12));
  for (let i = 0; i < 40; i++) items.push(item(`[${from + 40 + i}] right entry line`, 320, 740 - i * 12));
  return items;
}

describe('an IEEE journal’s last page: the list’s two columns above the biographies, right of their photos', () => {
  // The left column runs the page's height; the right one holds the list's last 8 lines, then six
  // biographies of 7 lines each whose text starts right of the photos (x 400, the photos drawn, not text).
  const last: Item[] = [];
  for (let i = 0; i < 56; i++) last.push(item(`left list line ${i + 1}`, 50, 740 - i * 12));
  for (let i = 0; i < 8; i++) last.push(item(`right list line ${i + 1}`, 320, 740 - i * 12));
  for (let i = 0; i < 42; i++) last.push(item(`biography line ${i + 1}`, 400, 740 - (i + 10) * 12, 170));
  const pages = [listPage(1), listPage(81), listPage(161), { items: last, width: 612 }].map((p) =>
    Array.isArray(p) ? { items: p, width: 612 } : p,
  );

  it('reads the left column down to its foot, then the right column’s entries, then the biographies', () => {
    const gutters = documentGutters(pages);
    const order = orderPage(last, 4, gutters[3]!).map((l) => l.text);
    expect(order.slice(0, 56)).toEqual(Array.from({ length: 56 }, (_, i) => `left list line ${i + 1}`));
    expect(order.slice(56, 64)).toEqual(Array.from({ length: 8 }, (_, i) => `right list line ${i + 1}`));
    expect(order[64]).toBe('biography line 1');
  });
});

describe('a biography after a numbered list', () => {
  const bio = [
    'Ada Keeper (M’16) received the B.S. degree in ocean',
    'records from the University of Tides in 2010 and',
    'the Ph.D. degree in coastal studies in 2016. She is',
    'currently an associate professor with the School of',
    'Harbors. Her research interests include lighthouse logs.',
  ];
  const listed = [
    '[45] S. Harbor and F. Warden, “On winds and lamps,” Proc. Conf. Harbors, vol.',
    '53, no. 12, pp. 526–543, 1997. [46] T. Buoy and J. Cove, “On maps of the coast,”',
    'Proc. Conf. Harbors, vol. 7, no. 7, pp. 856–863, 2005.',
  ];

  it('ends the list', () => {
    expect(endsReferenceList(block(bio.join(' '), { lines: bio }), listed, 1)).toBe(true);
  });

  it('does not end it at an entry’s lines broken over a column, nor after an entry left open', () => {
    const rest = ['Ada Keeper and Ben Warden, “On maps of the coast,”', 'Proc. Conf. Harbors, vol. 7, 2005.'];
    expect(endsReferenceList(block(rest.join(' '), { lines: rest }), listed, 1)).toBe(false);
    expect(
      endsReferenceList(
        block(bio.join(' '), { lines: bio }),
        [...listed, '[47] B. Warden, “On lamps,” Proc. Conf. Harbors, vol. 8,'],
        1,
      ),
    ).toBe(false);
  });
});
