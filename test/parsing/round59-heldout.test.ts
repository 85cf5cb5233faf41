// Layouts met in the fifty-fifth held-out set (Romance, Dutch and Nordic-language manuscripts: a
// French yathesis PhD thesis, a Stockholm University thesis guide, HOGENT's Dutch bachelor's
// thesis and proposal, a Bari thesis template), fixed in the fifty-ninth round. Names, titles and
// entries are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { joinDoiBreaks } from '../../src/parsing/references.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, textLine, type PdfTextLine } from './make-files.ts';

const limits = testConfig().parsing;

function entry(n: number): string {
  return `[${n}] Jane Roe. Counting stones in river beds, part ${n}. Northvale Press, 20${10 + n}.`;
}

function paperPage(): PdfTextLine[] {
  return [
    textLine('Counting Stones in River Beds', 760, 18, { bold: true }),
    textLine('Jane Roe', 732, 12),
    textLine('Abstract', 700, 12, { bold: true }),
    textLine('We count the stones of three river beds and compare their sizes over ten years.', 682),
    textLine('1 Introduction', 650, 14, { bold: true }),
    ...bodyProse(630, 30),
  ];
}

describe("a back-of-book index after the list, with the list's name as one of its terms", () => {
  // yathesis: "Bibliographie", its entries, the appendices, then an index whose letter "B" holds
  // the term "bibliographie" and its sub-entry "référence, 13".
  it('reads the list under its heading, not the index under the term', async () => {
    const list: PdfTextLine[] = [textLine('Bibliography', 780, 24, { bold: true })];
    for (let n = 1; n <= 6; n++) list.push(textLine(entry(n), 750 - n * 16, 10));
    const index: PdfTextLine[] = [
      textLine('Index', 780, 24, { bold: true }),
      textLine('A', 740, 10, { bold: true }),
      textLine('acronym, 13', 726, 10),
      textLine('B', 704, 10, { bold: true }),
      textLine('bibliography', 690, 10),
      textLine('reference, 13', 676, 10, { x: 84 }),
      textLine('C', 654, 10, { bold: true }),
      textLine('citation, 9', 640, 10),
    ];
    const result = await parseManuscript(
      makeTextPdf([paperPage(), bodyProse(760, 50), list, index]),
      'thesis.pdf',
      limits,
    );
    expect(result.references.length).toBe(6);
    expect(result.references[0]!.raw).toContain('part 1.');
  });
});

describe("a thesis's back cover after the list", () => {
  // The university's name, postal address, telephone and web address alone on the last page, in
  // a smaller type than the entries.
  it('ends the list on the page before', async () => {
    const list: PdfTextLine[] = [textLine('References', 780, 24, { bold: true })];
    for (let n = 1; n <= 4; n++) list.push(textLine(entry(n), 750 - n * 16, 10));
    const cover: PdfTextLine[] = [
      textLine('Northvale University', 140, 7, { bold: true }),
      textLine('123 45 Northvale', 128, 7, { bold: true }),
      textLine('Telephone 012-34 56 78', 116, 7, { bold: true }),
      textLine('https://www.northvale.example/', 104, 7, { bold: true }),
    ];
    const result = await parseManuscript(
      makeTextPdf([paperPage(), bodyProse(760, 50), list, cover]),
      'thesis.pdf',
      limits,
    );
    expect(result.references.length).toBe(4);
    expect(result.references.some((r) => r.raw.includes('Telephone'))).toBe(false);
  });
});

describe('a thesis cover that says who presents the thesis', () => {
  // yathesis: the university, "Thèse présentée par Jane Roe", the date, the title, then the
  // supervisors and the jury, names over names.
  function cover(label: string): PdfTextLine[] {
    return [
      textLine('Northvale University', 780, 14, { bold: true }),
      textLine(`${label} Jane Roe`, 740, 12),
      textLine('Defended on 1 January 2022', 722, 12, { bold: true }),
      textLine('Counting Stones in River Beds', 680, 20, { bold: true }),
      textLine('Thesis supervised by John Smith', 640, 9, { bold: true }),
      textLine('Ann Lee', 628, 9, { bold: true, x: 150 }),
      textLine('Committee', 600, 9, { bold: true }),
      textLine('Referees Paul Brown', 588, 9, { bold: true }),
      textLine('Mary Green', 576, 9, { bold: true, x: 150 }),
      textLine('Guest Tom White', 552, 9, { bold: true }),
      textLine('Professor at Northvale University', 520, 9),
    ];
  }

  for (const label of ['Thesis defended by', 'These presentee par', 'Tesi presentata da']) {
    it(`reads the name after "${label}" as the author`, async () => {
      const result = await parseManuscript(
        makeTextPdf([cover(label), bodyProse(760, 50)]),
        'thesis.pdf',
        limits,
      );
      expect(result.authors.map((a) => a.name)).toEqual(['Jane Roe']);
    });
  }
});

describe('the abstract of a thesis whose cover says who presents it', () => {
  // yathesis: the cover, a colophon, then pages of keywords, the laboratory's address, dedications and
  // epigraphs, short lines each, before the abstracts: a thesis's reach, past those pages.
  const cover: PdfTextLine[] = [
    textLine('Northvale University', 780, 14, { bold: true }),
    textLine('Thesis defended by Jane Roe', 740, 12),
    textLine('Counting Stones in River Beds', 680, 20, { bold: true }),
    textLine('Thesis supervised by John Smith', 640, 9, { bold: true }),
  ];
  const short = (k: number): PdfTextLine[] =>
    Array.from({ length: 6 }, (_, n) =>
      textLine(`To my teacher number ${k * 6 + n + 1}!`, 700 - n * 60, 10, { x: 250 }),
    );
  // A colophon's paragraph first, on the cover's back: the front matter ends there.
  const colophon: PdfTextLine[] = [
    textLine(
      'This thesis, written by Jane Roe and finished on 7 March 2024, was typeset with LaTeX',
      760,
      10,
    ),
    textLine(
      'and the class dedicated to theses, with the fonts and the packages listed in its preamble,',
      747,
      10,
    ),
    textLine('and printed on paper made from the stones of the three river beds that it describes.', 734, 10),
  ];
  const between = [colophon, ...[0, 1, 2, 3, 4].map(short)];
  const text = [
    textLine('We count the stones of three river beds and compare their sizes over ten', 722, 9),
    textLine('years, finding that the larger stones move less than the smaller ones do.', 711, 9),
    textLine('Keywords: stones, rivers', 690, 9),
  ];

  // Its abstract page sets the title and subtitle again, "Abstract" centred right under them
  // (one block), then the text.
  it("reads the text under a label on the last line of the title's block", async () => {
    const abstract: PdfTextLine[] = [
      textLine('Counting Stones in River Beds', 760, 9, { bold: true }),
      textLine('Stones and Beds', 749, 9, { bold: true }),
      textLine('Abstract', 738, 9, { bold: true, x: 280 }),
      ...text,
    ];
    const result = await parseManuscript(
      makeTextPdf([cover, ...between, abstract, bodyProse(760, 50)]),
      'thesis.pdf',
      limits,
    );
    expect(result.abstract).toMatch(/^We count the stones of three river beds/);
    expect(result.abstract).not.toContain('Keywords');
  });
});

describe('a proposal: the name over its labelled email, a co-promotor, fields under the abstract', () => {
  // HOGENT's proposal: title, "Bachelorproef, 2022-2023", the student's name, "E-mail: ..." and
  // "Co-promotor: ... (..., address)" in one block, "Samenvatting" and its paragraph, then
  // "Keuzerichting: ..." and "Sleutelwoorden: ..." in one block, then the contents.
  function page(): PdfTextLine[] {
    return [
      textLine('Onderzoeksvoorstel', 790, 14, { bold: true }),
      textLine('Stenen tellen in rivierbeddingen.', 770, 17, { bold: true }),
      textLine('Bachelorproef, 2022-2023', 750, 12, { bold: true }),
      textLine('Jan Peeters', 728, 14),
      textLine('E-mail: jan.peeters@student.northvale.be', 712, 9),
      textLine('Co-promotor: A. Maes (Stenen bv, an.maes@stenen.example)', 701, 9),
      textLine('Samenvatting', 680, 12, { bold: true }),
      textLine('We tellen de stenen van drie rivierbeddingen en vergelijken hun grootte over tien', 664, 9),
      textLine('jaar, en vinden dat de grotere stenen minder bewegen dan de kleinere.', 653, 9),
      textLine('Keuzerichting: Data engineering', 636, 9),
      textLine('Sleutelwoorden: stenen, rivieren', 625, 9),
      textLine('Inhoudsopgave', 600, 14, { bold: true }),
      textLine('1 Inleiding . . . . . . . . . . . . 1', 584, 10),
      textLine('2 Methode . . . . . . . . . . . . . 2', 572, 10),
      ...bodyProse(540, 30),
    ];
  }

  it('reads the name over "E-mail: ..." as the author, with that address', async () => {
    const result = await parseManuscript(makeTextPdf([page()]), 'voorstel.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Jan Peeters']);
    expect(result.authors[0]!.emails).toContain('jan.peeters@student.northvale.be');
  });

  it("gives the co-promotor's address to no author", async () => {
    const result = await parseManuscript(makeTextPdf([page()]), 'voorstel.pdf', limits);
    expect(result.authors.flatMap((a) => a.emails)).not.toContain('an.maes@stenen.example');
  });

  it('ends the abstract at the fields that hold the keywords', async () => {
    const result = await parseManuscript(makeTextPdf([page()]), 'voorstel.pdf', limits);
    expect(result.abstract).toMatch(/kleinere\.$/);
  });
});

describe('the keywords label in Dutch, Italian, Portuguese and the Nordic languages', () => {
  for (const label of [
    'Trefwoorden',
    'Parole chiave',
    'Palavras-chave',
    'Nyckelord',
    'Nokkelord',
    'Avainsanat',
  ]) {
    it(`reads the terms after "${label}:"`, async () => {
      const page = [
        textLine('Counting Stones in River Beds', 760, 18, { bold: true }),
        textLine('Jane Roe', 732, 12),
        textLine('Abstract', 700, 12, { bold: true }),
        textLine('We count the stones of three river beds and compare their sizes over ten years.', 682),
        textLine(`${label}: stones, rivers`, 664),
        textLine('1 Introduction', 640, 14, { bold: true }),
        ...bodyProse(620, 30),
      ];
      const result = await parseManuscript(makeTextPdf([page]), 'paper.pdf', limits);
      expect(result.keywords).toEqual(['stones', 'rivers']);
      expect(result.abstract).not.toContain(label);
    });
  }
});

describe('a DOI cut after "10." where French typography spaces the colon ("doi : 10.")', () => {
  it('joins the prefix to the suffix on the next line', () => {
    const lines = joinDoiBreaks([
      'Jane Roe. Stones. In : Journal of Stones 19.4 (1998), p. 377-395. doi : 10.',
      '1002/(SICI)1096-987X(199803)19:4<377::AID-JCC1>3.0.CO;2-P.',
    ]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('doi : 10.1002/(SICI)');
  });
});
