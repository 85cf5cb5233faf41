// Layouts met in the fifty-third held-out set (European-language manuscripts: a German GI LNI
// paper, a Polish master's thesis of Warsaw University of Technology's MiNI class), fixed in the
// fifty-seventh round. Names, titles and entries are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, textLine, type PdfTextLine } from './make-files.ts';

const limits = testConfig().parsing;

const TITLE = 'Sterowanie stacjami roboczymi w sieci lokalnej';

function firstPage(): PdfTextLine[] {
  return [
    textLine(TITLE, 760, 17, { bold: true }),
    textLine('Jan Kowalski', 732, 11),
    textLine('Streszczenie', 700, 14, { bold: true }),
    textLine('Praca opisuje sposób zarządzania grupą komputerów z jednego miejsca w sieci.', 680),
    textLine('1 Wstęp', 640, 14, { bold: true }),
    ...bodyProse(620, 30),
  ];
}

function entry(n: number): string {
  return `[${n}] Nowak, A. Managing workstations, part ${n}. Northvale Press, 20${10 + n}.`;
}

describe('a bibliography parted under headings of its own (biblatex sub-bibliographies)', () => {
  // The list's heading, then "Books", "RFC documents", "Web pages", each over its entries, the
  // labels numbered through all the parts in another order than they print.
  it('reads every part, each entry once', async () => {
    const parts: [string, number[]][] = [
      ['Książki i publikacje', [3, 6]],
      ['Dokumenty RFC', [2, 5, 7]],
      ['Strony internetowe', [1, 4]],
    ];
    const lines: PdfTextLine[] = [textLine('Bibliografia', 780, 24, { bold: true })];
    let y = 740;
    for (const [head, numbers] of parts) {
      lines.push(textLine(head, y, 14, { bold: true }));
      y -= 22;
      for (const n of numbers) {
        lines.push(textLine(entry(n), y, 10));
        y -= 16;
      }
      y -= 12;
    }
    const result = await parseManuscript(
      makeTextPdf([firstPage(), bodyProse(760, 50), lines]),
      'thesis.pdf',
      limits,
    );
    expect(result.references.length).toBe(7);
    for (const n of [1, 2, 3, 4, 5, 6, 7])
      expect(result.references.some((r) => r.raw.includes(`part ${n}.`))).toBe(true);
  });

  it('keeps a second list numbered anew apart (its own "[1]")', async () => {
    const lines: PdfTextLine[] = [
      textLine('Bibliografia', 780, 24, { bold: true }),
      textLine(entry(1), 740, 10),
      textLine(entry(2), 724, 10),
      textLine(entry(3), 708, 10),
      textLine('Materiały dodatkowe', 680, 14, { bold: true }),
      textLine(entry(1), 658, 10),
      textLine(entry(2), 642, 10),
    ];
    const result = await parseManuscript(
      makeTextPdf([firstPage(), bodyProse(760, 50), lines]),
      'thesis.pdf',
      limits,
    );
    expect(result.references.length).toBe(3);
  });
});

describe("a book class's running head in capitals over a long list", () => {
  // "Bibliography" over the list's first page, "BIBLIOGRAPHY" (\MakeUppercase) at the top of the
  // even pages after it, a part's name on the odd one (twoside heads), for four pages: the list
  // opens under the heading, not under the last head, three pages after it.
  it('reads the list from its heading', async () => {
    // A thesis's length: a head on two pages of twelve is too rare to be dropped as a recurring one.
    const pages: PdfTextLine[][] = [firstPage(), ...Array.from({ length: 7 }, () => bodyProse(760, 50))];
    let n = 1;
    for (let p = 0; p < 4; p++) {
      const lines: PdfTextLine[] =
        p === 0
          ? [textLine('Bibliography', 780, 24, { bold: true })]
          : p === 2
            ? [textLine('Web pages', 800, 9, { x: 450 })]
            : [textLine('BIBLIOGRAPHY', 800, 9)];
      for (let k = 0; k < 8; k++) lines.push(textLine(entry(n++), 750 - 18 * k, 10));
      lines.push(textLine(String(90 + p), 60, 10, { x: 300 }));
      pages.push(lines);
    }
    const result = await parseManuscript(makeTextPdf(pages), 'thesis.pdf', limits);
    expect(result.references.length).toBe(32);
    expect(result.references[0]!.raw).toContain('part 1.');
  });
});
