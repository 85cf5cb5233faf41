// Layouts met in the thirty-second held-out set (preprints, working papers, theses, a math note),
// fixed in the thirty-fourth round. Names, titles and identifiers are made up; only the shapes follow
// the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, textLine } from './make-files.ts';

const limits = testConfig().parsing;

describe("an amsart note: a two-word title in bold capitals at the body's size, the author in smaller capitals", () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'TORIC PARTITIONS', size: 10, x: 240, y: 760, bold: true },
        { text: 'MARTA QUILLEN ROSS', size: 8.5, x: 245, y: 735 },
        { text: '1. Question', size: 10, x: 72, y: 700, bold: true },
        ...bodyProse(685, 6),
        { text: 'Example 1.1. We have', size: 10, x: 72, y: 600, bold: true },
        ...bodyProse(585, 20),
      ],
    ]);

  it('reads the capitals as the title and the name under them as the author', async () => {
    const result = await parseManuscript(file(), 'amsart.pdf', limits);
    expect(result.title?.toLowerCase()).toBe('toric partitions');
    expect(result.authors.map((a) => a.name)).toEqual(['Marta Quillen Ross']);
  });
});

describe("a thesis's cover typed in one size: the title in capitals on two lines, the author, advisors further down", () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'SMALL HARBOURS AND THE PRICE', size: 10, x: 180, y: 720 },
        { text: 'OF FISH IN A COLD WINTER', size: 10, x: 190, y: 690 },
        { text: 'Nora Vance', size: 10, x: 260, y: 630 },
        { text: 'AN HONORS THESIS', size: 10, x: 230, y: 570 },
        { text: 'in', size: 10, x: 290, y: 545 },
        { text: 'Economics', size: 10, x: 270, y: 520 },
        textLine('Presented to the Faculties of the University of the Coast in Partial Fulfillment', 480),
        { text: '2016', size: 10, x: 290, y: 440 },
        { text: 'Peter Gale, Primary Advisor', size: 10, x: 72, y: 380 },
        { text: 'Rosa Lind, Secondary Advisor', size: 10, x: 72, y: 366 },
      ],
      [{ text: '1 Introduction', size: 10, x: 72, y: 780 }, ...bodyProse(760, 40)],
    ]);

  it('reads both lines of capitals as the title and the one name under them as the author', async () => {
    const result = await parseManuscript(file(), 'cover.pdf', limits);
    expect(result.title?.toLowerCase()).toBe('small harbours and the price of fish in a cold winter');
    expect(result.authors.map((a) => a.name)).toEqual(['Nora Vance']);
  });
});

describe("an amsart note's empty bibliography: the heading, then the author's address and its labelled email", () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'TORIC PARTITIONS', size: 10, x: 240, y: 760, bold: true },
        { text: 'MARTA QUILLEN ROSS', size: 8.5, x: 245, y: 735 },
        { text: '1. Question', size: 10, x: 72, y: 700, bold: true },
        ...bodyProse(685, 30),
        { text: 'References', size: 10, x: 260, y: 280, bold: true },
        { text: 'Institute of Small Sums, 04103 Leipzig, Germany', size: 8.5, x: 72, y: 250 },
        { text: 'Email address: ross@sums.example.org', size: 8.5, x: 72, y: 238 },
      ],
    ]);

  it('reads no entry', async () => {
    const result = await parseManuscript(file(), 'amsart-empty-list.pdf', limits);
    expect(result.references).toEqual([]);
  });
});

describe("a dissertation's cover in one bold type: the university's name in capitals over a title that reads as two names", () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'UNIVERSITY OF THE NORTH COAST', size: 10.8, x: 200, y: 760, bold: true },
        { text: 'Harbour Tides and Coastal Winds', size: 10.8, x: 210, y: 720, bold: true },
        textLine(
          'A Dissertation submitted in partial satisfaction of the requirements for the degree of',
          680,
          10.8,
          { bold: true },
        ),
        { text: 'Doctor of Philosophy', size: 10.8, x: 250, y: 660, bold: true },
        { text: 'by', size: 10.8, x: 290, y: 620, bold: true },
        { text: 'Tomas R. Ellery', size: 10.8, x: 250, y: 600, bold: true },
        { text: 'June 2021', size: 10.8, x: 270, y: 560, bold: true },
      ],
      [{ text: '1 Introduction', size: 10, x: 72, y: 780, bold: true }, ...bodyProse(760, 40)],
    ]);

  it('reads the line under the banner as the title', async () => {
    const result = await parseManuscript(file(), 'dissertation.pdf', limits);
    expect(result.title).toBe('Harbour Tides and Coastal Winds');
  });
});

describe('an Econometrica-style working paper: an unlabelled abstract in small type under the byline, its keywords line under it', () => {
  const abstract =
    'This paper studies how the cost of opening a shop changes the prices that shops set in a small town. ' +
    'A model of firms that enter, grow and leave is fitted to the records of many towns over many years. ' +
    'Lower costs of entry can raise prices when shops move between being alone in a market and sharing it with a rival, ' +
    'and when those who enter can foresee what the market will become in the years that follow their entry.';
  const file = () =>
    makeTextPdf([
      [
        { text: 'SHOPS AND PRICES IN SMALL TOWNS', size: 10, x: 200, y: 760 },
        { text: 'ANA PELLEGRINI', size: 10, x: 250, y: 735 },
        ...abstract
          .match(/.{1,95}(?:\s|$)/g)!
          .map((line, k) => ({ text: line.trim(), size: 8, x: 90, y: 705 - k * 10 })),
        { text: 'KEYWORDS: Entry costs, Prices, Market structure.', size: 8, x: 90, y: 640 },
        { text: '1. INTRODUCTION', size: 10, x: 250, y: 610 },
        ...bodyProse(595, 30),
      ],
    ]);

  it('reads the small paragraph as the abstract', async () => {
    const result = await parseManuscript(file(), 'working-paper.pdf', limits);
    expect(result.abstract).toBe(abstract);
  });
});
