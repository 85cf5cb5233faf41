// Layout rules of the PDF reader on synthetic pages: positions and sizes only, as pdf.js reports them.
import { describe, expect, it } from 'vitest';
import { dropLineNumbers, type Item } from '../../src/parsing/pdf/geometry.ts';

const item = (str: string, x: number, y: number, size = 10, w = str.length * size * 0.5): Item => ({
  str,
  x,
  y,
  w,
  size,
  font: 'F1',
});

/** A page of body lines, each with a margin number left of the text (lineno, papaja). */
function numberedPage(first: number, lines: number, pitch: number, numberSize = 6): Item[] {
  const items: Item[] = [];
  for (let i = 0; i < lines; i++) {
    const y = 700 - i * pitch;
    const n = String(first + i);
    items.push(item(n, 60 - n.length * 3, y, numberSize, n.length * 3));
    items.push(item(`Body text of line ${first + i} that runs across the column`, 72, y, 12, 400));
  }
  return items;
}

describe('margin line numbers', () => {
  it('drops a column of numbers rising one per line, also on double-spaced pages', () => {
    const pages = [{ items: numberedPage(1, 20, 24) }, { items: numberedPage(21, 20, 14, 8) }];
    expect(dropLineNumbers(pages)).toBe(40);
    expect(pages.every((p) => p.items.every((it) => !/^\d+$/.test(it.str)))).toBe(true);
  });

  it('drops the few numbers of a title page at the edge numbered on the other pages', () => {
    const title = [
      item('1', 57, 600, 6, 3),
      item('A Title in Large Type', 90, 600, 16, 300),
      item('2', 57, 570, 6, 3),
    ];
    const pages = [{ items: title }, { items: numberedPage(3, 20, 24) }];
    dropLineNumbers(pages);
    expect(pages[0]!.items.map((it) => it.str)).toEqual(['A Title in Large Type']);
  });

  it('keeps the numbers of a numbered reference list, whose entries take varying numbers of lines', () => {
    const items: Item[] = [];
    let y = 700;
    for (let n = 1; n <= 8; n++) {
      items.push(item(String(n), 60, y, 10, 5));
      const lines = 1 + (n % 3);
      for (let l = 0; l < lines; l++)
        items.push(item('Author A, Author B. A title of a work. Journal.', 72, y - l * 12, 10, 400));
      y -= lines * 12 + 4;
    }
    const pages = [{ items }];
    expect(dropLineNumbers(pages)).toBe(0);
  });
});
