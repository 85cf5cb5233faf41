// Layouts met in the forty-eighth held-out set (mathematics and statistics: AMS amsart, SIAM,
// IMS imsart, the Journal of Statistical Software, elsarticle), fixed in the fifty-first round.
// Names, titles and entries are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, type PdfLink, type PdfTextLine } from './make-files.ts';

const limits = testConfig().parsing;

describe('an amsart paper whose addresses close it, after the references, with no names', () => {
  // amsart prints each author's \address and \email at the end, in the authors' order, the
  // address in the author's words (here initials) and "Email address:" before each email.
  const file = () =>
    makeTextPdf([
      [
        { text: 'LANTERNS ALONG THE NORTHERN SHORE', size: 12, x: 150, y: 740, bold: true },
        { text: 'JANE ROE, BO POE, AND ANN LEE', size: 10, x: 190, y: 712 },
        {
          text: 'Abstract. We count the lanterns lit at dusk along the shore and show that their number',
          size: 9,
          x: 90,
          y: 680,
        },
        { text: 'is bounded by the length of the shore and the number of keepers.', size: 9, x: 90, y: 669 },
        { text: '1. Introduction', size: 10, x: 250, y: 640 },
        ...bodyProse(620, 40),
      ],
      [
        ...bodyProse(760, 30),
        { text: 'References', size: 10, x: 270, y: 350 },
        { text: '[Fox01] Tom Fox. Lanterns at dusk. Lantern J. 3 (2001).', size: 9, x: 72, y: 330 },
        { text: '[Kay09] Eve Kay. A history of lanterns. Northvale Press, 2009.', size: 9, x: 72, y: 318 },
        { text: 'J.R., Department of Lanterns, Northvale University', size: 9, x: 90, y: 280 },
        { text: 'Email address: jroe@northvale.edu', size: 9, x: 90, y: 269 },
        { text: 'B.P., Harbour Institute, Southvale', size: 9, x: 90, y: 250 },
        { text: 'Email address: bpoe@harbour.org', size: 9, x: 90, y: 239 },
        { text: 'A.L., Westvale College', size: 9, x: 90, y: 220 },
        { text: 'Email address: alee@westvale.edu', size: 9, x: 90, y: 209 },
      ],
    ]);

  it('gives each author, in order, the email of the address in that place', async () => {
    const result = await parseManuscript(file(), 'amsart-addresses.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Jane Roe', ['jroe@northvale.edu']],
      ['Bo Poe', ['bpoe@harbour.org']],
      ['Ann Lee', ['alee@westvale.edu']],
    ]);
  });
});

describe('a reference list whose heading comes back as the running head of its later pages', () => {
  // biblatex marks "REFERENCES" in amsart's page heads: the pages the list runs on to open with
  // the heading too. Each entry's title links to its DOI's address; no DOI is printed.
  // Two lines an entry, the second hanging under the label, entries set apart by space.
  const entry = (k: number, y: number): { lines: PdfTextLine[]; link: PdfLink } => ({
    lines: [
      { text: `[Roe0${k}] Jane Roe. “Lanterns of the shore, part ${k}”. Lantern J.`, size: 9, x: 72, y },
      { text: `${k} (2001), ${k}1–${k}9.`, size: 9, x: 110, y: y - 11 },
    ],
    link: { rect: [140, y - 3, 330, y + 9], url: `https://doi.org/10.55555/lantern.${k}` },
  });
  const first = [1, 2, 3, 4].map((k) => entry(k, 300 - k * 28));
  const later = [5, 6, 7, 8].map((k) => entry(k, 740 - (k - 4) * 28));
  const file = () =>
    makeTextPdf(
      [
        [
          { text: 'Lanterns along the Northern Shore', size: 16, x: 72, y: 760, bold: true },
          ...bodyProse(720, 50),
        ],
        bodyProse(760, 55),
        [
          ...bodyProse(760, 30),
          { text: 'References', size: 10, x: 270, y: 320 },
          ...first.flatMap((e) => e.lines),
        ],
        [
          { text: 'REFERENCES', size: 8, x: 270, y: 770 },
          { text: '4', size: 8, x: 530, y: 770 },
          ...later.flatMap((e) => e.lines),
        ],
      ],
      '',
      [[], [], first.map((e) => e.link), later.map((e) => e.link)],
    );

  it('reads the links of every page of the list, from the page that holds the heading', async () => {
    const result = await parseManuscript(file(), 'running-head-list.pdf', limits);
    expect(result.references.map((r) => r.doi)).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8].map((k) => `10.55555/lantern.${k}`),
    );
  });
});

describe('an IMS abstract followed by "MSC2020 subject classifications"', () => {
  it('ends the abstract where the subject classes begin', async () => {
    const file = makeTextPdf([
      [
        { text: 'Lanterns along the northern shore', size: 16, x: 150, y: 740, bold: true },
        { text: 'Jane Roe and Bo Poe', size: 11, x: 220, y: 712 },
        { text: 'Department of Lanterns, Northvale University, jroe@northvale.edu', size: 9, x: 130, y: 696 },
        {
          text: 'Abstract. We count the lanterns lit at dusk along the shore and show that their',
          size: 9,
          x: 90,
          y: 670,
        },
        {
          text: 'number is bounded by the length of the shore and the number of its keepers.',
          size: 9,
          x: 90,
          y: 659,
        },
        { text: 'MSC2020 subject classifications: Primary 00X00; secondary 00X01.', size: 9, x: 90, y: 640 },
        { text: 'Keywords and phrases: lanterns, shores, keepers.', size: 9, x: 90, y: 628 },
        { text: '1. Introduction', size: 11, x: 72, y: 600, bold: true },
        ...bodyProse(580, 40),
      ],
    ]);
    const result = await parseManuscript(file, 'imsart-msc.pdf', limits);
    expect(result.abstract).toBe(
      'We count the lanterns lit at dusk along the shore and show that their number is bounded by the ' +
        'length of the shore and the number of its keepers.',
    );
  });
});

describe('a journal’s citation line over a title set in capitals at the body’s size', () => {
  it('reads the title, not the line of volume, number, year and pages', async () => {
    // An AMS-style journal's template prints "Journal, V.xx, N.xx, 20xx, pp.xx-xx" at the top of
    // the first page, in small bold type, over the title.
    const file = makeTextPdf([
      [
        { text: 'Lantern Math. Notes, V.xx, N.xx, 20xx, pp.xx-xx', size: 7, x: 72, y: 770, bold: true },
        { text: 'COUNTING THE LANTERNS OF THE NORTHERN SHORE', size: 10, x: 150, y: 730, bold: true },
        { text: 'JANE ROE1 BO POE2', size: 9, x: 250, y: 712 },
        {
          text: 'Abstract. We count the lanterns lit at dusk along the shore and show that their number',
          size: 9,
          x: 90,
          y: 680,
        },
        { text: 'is bounded by the length of the shore and the number of keepers.', size: 9, x: 90, y: 669 },
        { text: '1. Introduction', size: 10, x: 250, y: 640, bold: true },
        ...bodyProse(620, 40),
      ],
    ]);
    const result = await parseManuscript(file, 'citation-line.pdf', limits);
    expect(result.title).toBe('COUNTING THE LANTERNS OF THE NORTHERN SHORE');
  });
});
