// Layouts met in the thirty-eighth held-out set (reference lists that are hard to split: a
// double-spaced draft's author-date list run over a page break, a German report whose contents
// list sets its page numbers in a column of their own), fixed in the fortieth round. Names,
// titles and identifiers are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf } from './make-files.ts';

const limits = testConfig().parsing;
type PdfTextLine = ReturnType<typeof bodyProse>[number];

/**
 * Entries of an author-date list set double spaced (22 points from line to line at 12 points, 34
 * from one entry to the next), from `top` down, each line flush with the margin.
 */
function doubleSpacedEntries(entries: string[][], top: number): PdfTextLine[] {
  const out: PdfTextLine[] = [];
  let y = top;
  entries.forEach((lines, k) => {
    if (k > 0) y -= 12;
    for (const text of lines) {
      out.push({ text, size: 12, x: 92, y });
      y -= 22;
    }
  });
  return out;
}

describe('a double-spaced author-date list whose entry runs on from one page to the next', () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'Simulating Harbor Tides With an Open Toolkit', size: 17, x: 92, y: 780, bold: true },
        { text: 'Introduction', size: 14, x: 92, y: 740, bold: true },
        ...bodyProse(720, 20),
        { text: 'References', size: 17, x: 92, y: 440, bold: true },
        ...doubleSpacedEntries(
          [
            [
              'Abbott, H. R., Brandt, M. N., and Carver, L. 2012. Tide gauges built from cheap parts',
              'for the small harbors of the northern coast. Coastal Engineering, 27: 233–249.',
            ],
            [
              'Dalton, R. W., and Fenwick, O. 1992. Harbor Tides: Choice, Dynamics, and Uncertainty.',
              'Lakeside Press, London.',
            ],
            [
              'Edgar, S. 2009. An introduction to tide simulation tools. Marine Living Resources, 22:',
              '225–232.',
            ],
            ['Fairley, P., and Grant, J. 2012. A review of surge models for the harbors and the bays of the'],
          ],
          400,
        ),
      ],
      [
        { text: 'northern coast. Ocean Research, 142: 61–74.', size: 12, x: 92, y: 760 },
        ...doubleSpacedEntries(
          [
            [
              'Grant, J., and Hale, N. 2011. Adjusting for bias in the tide records of small harbors.',
              'Canadian Journal of Coastal Science, 68: 1744–1760.',
            ],
            ['Hale, N. 2013. Small Harbors, Large Tides. Fjord Press, Oslo.'],
          ],
          726,
        ),
      ],
    ]);

  it('keeps the entry whole across the page and splits the list where the space is wider', async () => {
    const result = await parseManuscript(file(), 'double-spaced.pdf', limits);
    expect(result.references.map((r) => r.raw.slice(0, 12))).toEqual([
      'Abbott, H. R',
      'Dalton, R. W',
      'Edgar, S. 20',
      'Fairley, P.,',
      'Grant, J., a',
      'Hale, N. 201',
    ]);
    expect(result.references[3]!.raw).toContain('northern coast. Ocean Research');
  });
});

describe('a contents list whose page numbers stand in a column of their own, then a numbered "Abstract"', () => {
  // Chapters in bold with their page numbers set apart at the right; sections under them with
  // dotted leaders set close under them, whose numbers join their lines.
  const contents: { text: string; page: number; section?: boolean }[] = [
    { text: '1 Abstract', page: 2 },
    { text: '2 Einleitung', page: 2 },
    { text: '2.1 Fragestellung', page: 2, section: true },
    { text: '2.2 Motivation', page: 2, section: true },
    { text: '2.3 Literatur', page: 2, section: true },
    { text: '3 Experimenteller Teil', page: 3 },
    { text: '3.1 Informationsquellen', page: 3, section: true },
    { text: '3.2 Prinzipskizze', page: 3, section: true },
    { text: '3.3 Hardware', page: 3, section: true },
    { text: '3.4 Software', page: 3, section: true },
    { text: '4 Resultate', page: 6 },
    { text: '5 Diskussion', page: 6 },
    { text: '6 Zusammenfassung', page: 6 },
    { text: '7 Danksagung', page: 6 },
    { text: '8 Interessenskonflikte', page: 6 },
    { text: '9 Quellenverzeichnis', page: 7 },
    { text: '10 Anhang', page: 8 },
    { text: '11 Glossar', page: 9 },
  ];
  let y = 700;
  const contentsLines = contents.flatMap(({ text, page, section }): PdfTextLine[] => {
    y -= section ? 15 : 24;
    return section
      ? [{ text: `${text} ${'. '.repeat(Math.floor((80 - text.length) / 2))} ${page}`, size: 12, x: 90, y }]
      : [
          { text, size: 12, x: 74, y, bold: true },
          { text: String(page), size: 12, x: 515, y, bold: true },
        ];
  });
  // Written without umlauts: the test PDF's font is set in WinAnsi only as far as ASCII.
  const abstract =
    'In der vorliegenden Arbeit wurde untersucht, wie ein kleiner Mikrokontroller ueber eine ' +
    'Netzwerkverbindung gesteuert werden kann, waehrend er im Sekundentakt Meldungen versendet. ' +
    'Das Ergebnis zeigt, dass eine solche Steuerung ohne Weiteres moeglich ist und dass ein ' +
    'schlankes Format die Verarbeitung der Nachrichten auf dem Geraet deutlich vereinfacht.';
  const words = abstract.split(' ');
  const abstractLines: string[] = [];
  for (let k = 0; k < words.length; k += 9) abstractLines.push(words.slice(k, k + 9).join(' '));
  const file = () =>
    makeTextPdf([
      [
        { text: 'Steuerung eines Mikrokontrollers ueber das Netz', size: 17, x: 74, y: 780, bold: true },
        { text: 'Anna Keller', size: 12, x: 74, y: 750 },
        { text: '12. Mai 2020', size: 12, x: 74, y: 734 },
        { text: 'Inhaltsverzeichnis', size: 14, x: 74, y: 700, bold: true },
        ...contentsLines,
      ],
      [
        { text: '1 Abstract', size: 17, x: 74, y: 760, bold: true },
        ...abstractLines.map((text, k) => ({ text, size: 12, x: 74, y: 726 - k * 15 })),
        { text: '2 Einleitung', size: 17, x: 74, y: 600, bold: true },
        ...bodyProse(570, 30),
      ],
    ]);

  it('reads past the page numbers to the abstract on the next page', async () => {
    const result = await parseManuscript(file(), 'contents.pdf', limits);
    expect(result.abstract).toBe(abstract);
  });
});
