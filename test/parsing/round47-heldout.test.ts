// Layouts met in the forty-seventh held-out set (computer-science proceedings and workshop classes:
// LIPIcs, Springer LNCS, CEUR-WS, EPTCS, IEEE conference, USENIX), fixed in round 47. Names,
// titles and identifiers are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { findDoi } from '../../src/parsing/references.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, piecesOnOneLine, textWidth, type PdfLink } from './make-files.ts';

const limits = testConfig().parsing;

const abstractAndBody = (y: number) => [
  { text: 'Abstract', size: 11, x: 72, y, bold: true },
  ...bodyProse(y - 18, 14),
];

describe('LIPIcs built without fontawesome5: "@" and "ORCID" printed after each name as its links', () => {
  // The class's fallback icons: "Jane Roe @ ORCID", the "@" a mailto link, "ORCID" the ORCID's.
  const author = (name: string, y: number, email: string, orcid: string) => {
    const at = 72 + textWidth(`${name} `, 12);
    const mark = at + textWidth('@ ', 12);
    const line = { text: `${name} @ ORCID`, size: 12, x: 72, y, bold: true };
    const links: PdfLink[] = [
      { rect: [at, y - 2, at + textWidth('@', 12), y + 10], url: `mailto:${email}` },
      { rect: [mark, y - 2, mark + textWidth('ORCID', 12), y + 10], url: `https://orcid.org/${orcid}` },
    ];
    return { line, links };
  };
  const file = () => {
    const roe = author('Jane Roe', 680, 'jroe@northvale.edu', '0000-0002-4711-1133');
    const doe = author('John Doe', 640, 'jdoe@lanterns.org', '0000-0001-9876-5439');
    return makeTextPdf(
      [
        [
          { text: 'Lanterns in the Dark Sector', size: 17, x: 72, y: 740, bold: true },
          roe.line,
          {
            text: 'Department of Botany, University of Northvale, Country',
            size: 9,
            x: 72,
            y: 668,
            bold: true,
          },
          doe.line,
          { text: 'Institute of Lanterns, Southvale, Country', size: 9, x: 72, y: 628, bold: true },
          ...abstractAndBody(590),
        ],
      ],
      '',
      [[...roe.links, ...doe.links]],
    );
  };

  it('reads each name without its icons, with the email and the ORCID they link', async () => {
    const result = await parseManuscript(file(), 'lipics-fallback-icons.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.emails, a.orcid])).toEqual([
      ['Jane Roe', ['jroe@northvale.edu'], '0000-0002-4711-1133'],
      ['John Doe', ['jdoe@lanterns.org'], '0000-0001-9876-5439'],
    ]);
  });
});

describe('LIPIcs built with fontawesome5: an envelope read as "#", the ORCID a picture linked above the line', () => {
  // Each name over its affiliation; the affiliation's last word a country. A byline reader across
  // the blocks found as many names and took "Switzerland" for a wrapped part of the next one.
  const author = (name: string, y: number, email: string, orcid: string) => {
    const at = 72 + textWidth(`${name} `, 12);
    const line = { text: `${name} #`, size: 12, x: 72, y, bold: true };
    const links: PdfLink[] = [
      { rect: [at, y - 2, at + textWidth('#', 12), y + 10], url: `mailto:${email}` },
      { rect: [at + 14, y + 4, at + 24, y + 13], url: `https://orcid.org/${orcid}` },
    ];
    return { line, links };
  };
  const file = () => {
    const roe = author('Jane Roe', 680, 'jroe@northvale.edu', '0000-0002-4711-1133');
    const doe = author('John Doe', 640, 'jdoe@lanterns.org', '0000-0001-9876-5439');
    return makeTextPdf(
      [
        [
          { text: 'Lanterns in the Dark Sector', size: 17, x: 72, y: 740, bold: true },
          roe.line,
          { text: 'Department of Botany, ETH Northvale, Switzerland', size: 9, x: 72, y: 668, bold: true },
          doe.line,
          {
            text: 'Department of Informatics, University of Southvale, Germany',
            size: 9,
            x: 72,
            y: 628,
            bold: true,
          },
          ...abstractAndBody(590),
        ],
      ],
      '',
      [[...roe.links, ...doe.links]],
    );
  };

  it('reads the author blocks, each name with its own email and ORCID', async () => {
    const result = await parseManuscript(file(), 'lipics-icons.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.emails, a.orcid])).toEqual([
      ['Jane Roe', ['jroe@northvale.edu'], '0000-0002-4711-1133'],
      ['John Doe', ['jdoe@lanterns.org'], '0000-0001-9876-5439'],
    ]);
  });
});

describe('a title with a raised sign inside a word ("B⁺-trees")', () => {
  const file = () =>
    makeTextPdf([
      [
        ...piecesOnOneLine(
          [{ text: 'A Verified Store of B' }, { text: '+', sup: true }, { text: '-trees in Practice' }],
          740,
          17,
          { bold: true },
        ),
        { text: 'Jane Roe', size: 12, x: 72, y: 700, bold: true },
        { text: 'University of Northvale, Country', size: 9, x: 72, y: 688 },
        ...abstractAndBody(650),
      ],
    ]);

  it('keeps the sign: no note is marked with a "+"', async () => {
    const result = await parseManuscript(file(), 'raised-sign-title.pdf', limits);
    expect(result.title).toBe('A Verified Store of B+-trees in Practice');
  });
});

describe('a DOI at a line’s end with the next line’s raised sign read onto it', () => {
  it('ends the DOI at its closing stop', () => {
    expect(
      findDoi('Jane Roe. The ubiquitous tree. ACM Comput. Surv., 1979. doi:10.1145/356770.356776.+'),
    ).toBe('10.1145/356770.356776');
  });
});

describe('IEEE conference cells: two names over one address, and authors who share a surname', () => {
  // Three cells side by side: "Ann Lima, Bo Park" over one university and "{alima, bpark}@...";
  // Carl Lee over his institute and "carl.lee@..."; Dana Lee over hers.
  const cell = (x: number, lines: string[]) =>
    lines.map((text, k) => ({ text, size: k === 0 ? 11 : 10, x, y: 690 - k * 12, bold: k === 1 }));
  const file = () =>
    makeTextPdf([
      [
        { text: 'Overcoming Lantern Constraints in Storage', size: 24, x: 72, y: 740 },
        ...cell(60, ['Ann Lima, Bo Park', 'Northvale University', '{alima, bpark}@northvale.edu']),
        ...cell(250, ['Carl Lee', 'Lantern Institute', 'carl.lee@lanterns.org']),
        ...cell(420, ['Dana Lee', 'Southvale University', 'dlee@southvale.edu']),
        ...abstractAndBody(630),
      ],
    ]);

  it('reads both names of the shared cell, each with the address the braces give', async () => {
    const result = await parseManuscript(file(), 'ieee-shared-cell.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Ann Lima', 'Bo Park', 'Carl Lee', 'Dana Lee']);
    expect(result.authors.slice(0, 2).map((a) => a.emails)).toEqual([
      ['alima@northvale.edu'],
      ['bpark@northvale.edu'],
    ]);
  });

  it('gives Carl Lee the address under his name, though it spells the surname Dana Lee shares', async () => {
    const result = await parseManuscript(file(), 'ieee-shared-cell.pdf', limits);
    expect(result.authors.find((a) => a.name === 'Carl Lee')?.emails).toEqual(['carl.lee@lanterns.org']);
    expect(result.authors.find((a) => a.name === 'Dana Lee')?.emails).toEqual(['dlee@southvale.edu']);
  });
});

describe('llncs set small: marked names over lines that open with a raised mark, in one block', () => {
  // "Jane Roe¹,², Tom Fox, Ann Lee³, ..." on two lines, then "¹ Contoso AI" (no institution word)
  // at the same size, no space between; the other affiliations after a gap.
  const file = () =>
    makeTextPdf([
      [
        { text: 'Lantern Distillation for Visually-Rich Documents', size: 14, x: 90, y: 740, bold: true },
        ...piecesOnOneLine(
          [
            { text: 'Jane Roe' },
            { text: '1,2', sup: true },
            { text: ', Tom Fox, Ann Lee' },
            { text: '3', sup: true },
            { text: ', Bo Park' },
            { text: '1', sup: true },
            { text: ', Dana' },
          ],
          700,
          9,
          { x: 100 },
        ),
        ...piecesOnOneLine(
          [{ text: 'Lima' }, { text: '1', sup: true }, { text: ', Carl Wu' }, { text: '3', sup: true }],
          689,
          9,
          {
            x: 140,
          },
        ),
        ...piecesOnOneLine([{ text: '1', sup: true }, { text: ' Contoso AI' }], 678, 9, { x: 180 }),
        ...piecesOnOneLine([{ text: '2', sup: true }, { text: ' Lantern Works jroe@lanterns.org' }], 662, 9, {
          x: 150,
        }),
        ...piecesOnOneLine(
          [{ text: '3', sup: true }, { text: ' Computer Vision Center, University of Northvale' }],
          651,
          9,
          {
            x: 120,
          },
        ),
        ...abstractAndBody(620),
      ],
    ]);

  it('reads the names alone: the raised-mark line under them is an affiliation, not a name', async () => {
    const result = await parseManuscript(file(), 'llncs-small-byline.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual([
      'Jane Roe',
      'Tom Fox',
      'Ann Lee',
      'Bo Park',
      'Dana Lima',
      'Carl Wu',
    ]);
  });
});
