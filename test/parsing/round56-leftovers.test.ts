// Leftovers of the forty-eighth to fifty-first held-out sets that would recur on unseen files,
// fixed in the fifty-sixth round. The blocks are written as the PDF reader gives them; titles,
// names and text are made up, only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { extractHeader } from '../../src/parsing/header.ts';
import { parseReferenceList } from '../../src/parsing/references.ts';
import { opensWithKeywordsLabel } from '../../src/parsing/sections.ts';
import type { Block, DocumentModel } from '../../src/parsing/types.ts';

interface Shape {
  size?: number;
  page?: number;
  bold?: boolean;
  lines?: string[];
}

function block(text: string, { size = 1, page = 1, bold = false, lines }: Shape = {}): Block {
  return {
    text,
    relSize: size,
    emphasis: bold,
    styleLevel: null,
    page,
    runs: [{ text, sup: false }],
    links: [],
    lines: (lines ?? [text]).map((l) => ({ text: l, indent: 0, gapAbove: 1 })),
  };
}

function pdf(blocks: Block[]): DocumentModel {
  return {
    format: 'pdf',
    blocks,
    pages: Math.max(...blocks.map((b) => b.page)),
    declared: { title: null, keywords: [], authors: [] },
    notes: [],
    warnings: [],
  };
}

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
