// The page layout (src/parsing/pdf/geometry.ts) and the join of a block's lines cost about linear
// time in a page's pieces of text, whatever their arrangement (docs/benchmarks/hostile-files.md,
// "layout"). The work is counted, not timed: every piece is a Proxy that counts the reads of its
// fields, and the reads per piece stay under a bound that the quadratic layout passed several times
// over at these sizes (58,874 reads a piece for one row of 4,000 pieces, 127,953 on a wide page).
import { describe, expect, it } from 'vitest';
import { dropLineNumbers, findGutters, type Item } from '../../src/parsing/pdf/geometry.ts';
import { joinLines } from '../../src/parsing/text-utils.ts';

const N = 4000;

function countedPieces(): {
  piece: (str: string, x: number, y: number, w: number, size: number) => Item;
  reads: () => number;
} {
  let reads = 0;
  return {
    piece: (str, x, y, w, size) =>
      new Proxy(
        { str, x, y, w, size, font: 'F1' },
        {
          get(target, key, receiver) {
            reads++;
            return Reflect.get(target, key, receiver) as unknown;
          },
        },
      ),
    reads: () => reads,
  };
}

describe('the column search reads each piece a bounded number of times', () => {
  it('on one row of pieces that do not touch: line starts are found in one sweep', () => {
    const { piece, reads } = countedPieces();
    const items = Array.from({ length: N }, (_, i) => piece('w', 40 + (i * 500) / N, 400, 0.0001, 0.01));
    findGutters(items, 0, 595);
    // Before: 58,874 a piece (the row looked along from each of its pieces).
    expect(reads() / N).toBeLessThan(12_000);
  });

  it('on a grid of tiny pieces, each starting a line: one descent is sorted for every edge tried', () => {
    const { piece, reads } = countedPieces();
    const k = Math.ceil(Math.sqrt(N));
    const items = Array.from({ length: N }, (_, i) =>
      piece('w', 40 + (i % k) * (500 / k), 60 + Math.floor(i / k) * (700 / k), 0.0001, 0.01),
    );
    const gutters = findGutters(items, 0, 595);
    expect(gutters.length).toBeGreaterThan(0);
    // Before: 22,052 a piece (the pieces below each run of starts filtered and sorted again).
    expect(reads() / N).toBeLessThan(6_000);
  });

  it('on a page drawn wide, pieces 3 points apart: at most 300 edges are tried', () => {
    const { piece, reads } = countedPieces();
    const items = Array.from({ length: N }, (_, i) => piece('w', 100 + i * 3, 400 + (i % 3), 0.0001, 0.01));
    findGutters(items, 0, N * 3 + 200);
    // Before: 127,953 a piece (an edge tried wherever five lines started, 4,000 of them).
    expect(reads() / N).toBeLessThan(12_000);
  });
});

describe('margin line numbers are told from text in about linear time', () => {
  it('a page of numbered lines: each baseline is found beside its neighbours in height', () => {
    const { piece, reads } = countedPieces();
    const rows = N / 2;
    const items = Array.from({ length: rows }, (_, r) => {
      const y = 800 - (r * 760) / rows;
      return [piece(String(r + 1), 20, y, 1, 0.01), piece('text', 60, y, 400, 0.01)];
    }).flat();
    expect(dropLineNumbers([{ items }])).toBe(rows);
    // Before: 4,020 a piece (each item against every baseline and every number).
    expect(reads() / N).toBeLessThan(200);
  });
});

describe("a block's lines are joined in linear time", () => {
  // Not counted but sized: the quadratic join (each line's test of the text's end copied the whole
  // text so far) took 9.4 s for 16,000 lines and would take some 25 minutes here, far past the
  // test's time limit; the linear one takes well under a second.
  it('joins 200,000 lines of 80 characters, with their hyphens and identifiers', () => {
    const lines = Array.from({ length: 200_000 }, (_, i) =>
      i % 3 === 0
        ? `words of the line number ${i} ending in a hyphen-`
        : `ated text https://example.org/${i}/`,
    );
    const text = joinLines(lines);
    // A hyphen between lower-case letters at a line's end is removed; after a link's "/" the next
    // line goes on without a space (what the join did before, on these six lines).
    const start =
      'words of the line number 0 ending in a hyphenated text https://example.org/1/ated text https://example.org/2/' +
      'words of the line number 3 ending in a hyphenated text https://example.org/4/ated text https://example.org/5/';
    expect(text.slice(0, start.length)).toBe(start);
    expect(text.length).toBeGreaterThan(8_000_000);
  });

  it(
    "reads a last word of many DOI prefixes once for a colon in a DOI's suffix",
    () => {
      // ASCE's break after a colon inside a DOI: joined without a space before a digit.
      expect(joinLines(['doi:10.1061/(ASCE)0733-9445(2001)42:', '7(1130).'])).toBe(
        'doi:10.1061/(ASCE)0733-9445(2001)42:7(1130).',
      );
      expect(joinLines(['see 10.1061/abc:', 'Then'])).toBe('see 10.1061/abc: Then');
      // A word of 400,000 characters of prefixes and colons, ending without a colon, then with one.
      const prefixes = `${'10.1234/x:'.repeat(40_000)}y`;
      expect(joinLines([prefixes, '7 more'])).toBe(`${prefixes} 7 more`);
      expect(joinLines([`${prefixes}:`, '7 more'])).toBe(`${prefixes}:7 more`);
    },
    // Milliseconds read once; the pattern read from each prefix took 0.7 s at 80,000 characters
    // and grew with their square (400,000: over 10 s), so 5 s fails only it.
    5_000,
  );
});
