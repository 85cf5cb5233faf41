// Layout rules of the PDF reader on synthetic pages: positions and sizes only, as pdf.js reports them.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import {
  documentGutters,
  dropLineNumbers,
  dropRunningHeads,
  orderPage,
  type Item,
} from '../../src/parsing/pdf/geometry.ts';
import { REFERENCES_HEADING, endsReferenceList } from '../../src/parsing/sections.ts';
import type { Block } from '../../src/parsing/types.ts';
import { testConfig } from '../helpers/app.ts';
import { makeTextPdf } from './make-files.ts';

const limits = testConfig().parsing;
const prose = (page: number) =>
  Array.from({ length: 25 }, (_, i) => ({
    text: `Line ${i + 1} of page ${page} of the body text, long enough to read as running prose here.`,
    size: 10,
    x: 72,
    y: 740 - i * 13,
  }));

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

  it('drops numbers in the text’s own size beside every line when the lines’ heights make the steps uneven (Typst)', () => {
    // A heading, a double-spaced paragraph and single-spaced lines: steps of 15, 22 and 30 points.
    const items: Item[] = [];
    const baselines = [
      744, 716, 701, 686, 664, 633, 617, 602, 587, 572, 557, 536, 521, 490, 474, 444, 414, 384,
    ];
    baselines.forEach((y, i) => {
      const n = String(i + 1);
      items.push(item(n, 20 - n.length * 6, y, 11, n.length * 6));
      items.push(
        item(
          i === 0 ? 'A Title in Large Type' : 'Text of a line that runs across the page',
          36,
          y,
          i === 0 ? 17 : 11,
          500,
        ),
      );
    });
    const pages = [{ items }];
    expect(dropLineNumbers(pages)).toBe(baselines.length);
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

describe('links', () => {
  it('reads a DOI given only as a link in a reference list on a late page', async () => {
    const pdf = makeTextPdf(
      [
        [{ text: 'A Study of Linked References in Late Pages', size: 20, x: 72, y: 780 }, ...prose(1)],
        prose(2),
        prose(3),
        [
          { text: 'References', size: 12, x: 72, y: 760 },
          {
            text: '1. Roe J, Public JQ. A first result. Journal of Tests. 2020;1: 1-2.',
            size: 9,
            x: 72,
            y: 740,
          },
          {
            text: '2. Doe A. A second result. Journal of Tests. 2021;2: 3-4. [link]',
            size: 9,
            x: 72,
            y: 726,
          },
          { text: '3. Poe E. A third result. Other Journal. 2022;3: 5-6.', size: 9, x: 72, y: 712 },
        ],
      ],
      '',
      [[], [], [], [{ rect: [292, 724, 316, 734], url: 'https://doi.org/10.1000/linked.2' }]],
    );
    const result = await parseManuscript(pdf, 'linked.pdf', limits);
    expect(result.references.map((r) => r.doi)).toEqual([null, '10.1000/linked.2', null]);
  });

  it('ties ORCID links to names whose affiliation marks touch them ("Roe1,2")', async () => {
    const pdf = makeTextPdf(
      [
        [
          { text: 'A Study of Identifiers Beside Names', size: 20, x: 72, y: 780 },
          // Marks are raised small type right after each name, as LaTeX classes set them.
          { text: 'Jane Roe', size: 11, x: 72, y: 750 },
          { text: '1,2,', size: 7, x: 118, y: 754 },
          { text: 'and John Q. Public', size: 11, x: 134, y: 750 },
          { text: '2', size: 7, x: 232, y: 754 },
          {
            text: '1 Department of Physics, University of Somewhere, Sometown, Country',
            size: 9,
            x: 72,
            y: 730,
          },
          {
            text: '2 Institute of Chemistry, Another University, Othertown, Country',
            size: 9,
            x: 72,
            y: 718,
          },
          ...prose(1).map((l) => ({ ...l, y: l.y - 60 })),
        ],
      ],
      '',
      [
        [
          { rect: [72, 748, 117, 760], url: 'https://orcid.org/0000-0002-1825-0097' },
          { rect: [155, 748, 230, 760], url: 'https://orcid.org/0000-0001-5109-3700' },
        ],
      ],
    );
    const result = await parseManuscript(pdf, 'orcid.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.orcid])).toEqual([
      ['Jane Roe', '0000-0002-1825-0097'],
      ['John Q. Public', '0000-0001-5109-3700'],
    ]);
  });
});

describe('titles set as large as the section headings', () => {
  it('takes the largest block before the abstract, not a longer heading after it (PLOS)', async () => {
    const body = (y: number) =>
      Array.from({ length: 6 }, (_, i) => ({
        text: `Running text line ${i + 1}, long enough to read as the prose of a section here.`,
        size: 10,
        x: 72,
        y: y - i * 13,
      }));
    const pdf = makeTextPdf([
      [
        { text: 'Short Title', size: 14, x: 72, y: 780, bold: true },
        { text: 'Jane Roe and John Q. Public', size: 10, x: 72, y: 756 },
        { text: 'Abstract', size: 14, x: 72, y: 720, bold: true },
        ...body(700),
        { text: 'A Much Longer Section Heading Set in the Same Type', size: 14, x: 72, y: 600, bold: true },
        ...body(580),
      ],
    ]);
    const result = await parseManuscript(pdf, 'plos-like.pdf', limits);
    expect(result.title).toBe('Short Title');
  });
});

describe('title pages set at body size', () => {
  it('ends the title where the face changes: an APA title page in bold, then the byline', async () => {
    const pdf = makeTextPdf([
      [
        { text: 'Running head: SHORT TITLE', size: 12, x: 72, y: 800 },
        { text: 'A Comparison of Complexity Indices', size: 12, x: 150, y: 640, bold: true },
        { text: 'in Physiological Signals', size: 12, x: 200, y: 616, bold: true },
        { text: 'Jane Roe and John Q. Public', size: 12, x: 180, y: 570 },
        { text: 'Department of Psychology, University of Somewhere', size: 12, x: 150, y: 546 },
      ],
      Array.from({ length: 25 }, (_, i) => ({
        text: `Line ${i + 1} of the body text, long enough to read as running prose here.`,
        size: 12,
        x: 72,
        y: 740 - i * 24,
      })),
    ]);
    const result = await parseManuscript(pdf, 'apa.pdf', limits);
    expect(result.title).toBe('A Comparison of Complexity Indices in Physiological Signals');
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Roe', 'John Q. Public']);
  });
});

describe('author-year reference lists with hanging indents', () => {
  const entries = [
    [
      'Abbott, R. J., Brennan, A. C., and Chen, L. (2014). Hybrid speciation in plants',
      'revisited with genomic data. Mol. Ecol. 23, 1234-1250. doi: 10.1111/mec.12345',
    ],
    ['Baker, T. (2019). Soil microbes and drought. Front. Plant Sci. 10:88.'],
    [
      'Chen, Y., Diaz, M., and Evans, P. Q. (2020). A long title about pollinator decline',
      'across three continents and its consequences for the yield of crops that depend',
      'on them. Nat. Ecol. Evol. 4, 77-89. doi: 10.1038/s41559-020-1111-1',
    ],
    ['Dupont, F. (2018). Leaf traits. Oikos 127, 1-9.'],
  ];

  it('splits the list at each flush line when the heading is set in the entries’ face with no space under it', async () => {
    const lines = [{ text: 'REFERENCES', size: 9, x: 72, y: 755 }];
    let y = 744;
    for (const e of entries) {
      e.forEach((text, i) => {
        lines.push({ text, size: 9, x: i ? 81 : 72, y });
        y -= 11;
      });
    }
    const pdf = makeTextPdf([
      [{ text: 'A Study of Hanging Indents in Lists', size: 20, x: 72, y: 780 }, ...prose(1)],
      lines,
    ]);
    const result = await parseManuscript(pdf, 'hanging.pdf', limits);
    expect(result.references.map((r) => r.authors[0])).toEqual([
      'Abbott, R. J.',
      'Baker, T.',
      'Chen, Y.',
      'Dupont, F.',
    ]);
    expect(result.references.map((r) => r.doi)).toEqual([
      '10.1111/mec.12345',
      null,
      '10.1038/s41559-020-1111-1',
      null,
    ]);
  });
});

describe('TeX accents set as their own glyph', () => {
  it('puts a spacing accent before a letter onto the letter', async () => {
    const { composeAccents } = await import('../../src/parsing/text-utils.ts');
    expect(composeAccents('Lars Thørv\u00a8ald and Jos\u00b4e Mu\u02dcnoz')).toBe(
      'Lars Thørväld and José Muñoz',
    );
    expect(composeAccents('a diaeresis ¨ alone')).toBe('a diaeresis ¨ alone');
  });
});

/** Lines of a two-column page: left column at x 50, right column at x 320, 12 pt apart. */
function twoColumns(leftLines: number, rightLines: number, top = 740): Item[] {
  const items: Item[] = [];
  for (let i = 0; i < leftLines; i++)
    items.push(item(`left column line ${i + 1} of running text`, 50, top - i * 12, 10, 250));
  for (let i = 0; i < rightLines; i++)
    items.push(item(`right column line ${i + 1} of running text`, 320, top - i * 12, 10, 250));
  return items;
}
const readingOrder = (items: Item[], gutters: ReturnType<typeof documentGutters>[number]) =>
  orderPage(items, 2, gutters).map((l) => l.text);

describe('columns', () => {
  it('reads a page whose right column holds only a few lines with the gutter the other pages share', () => {
    const pages = [twoColumns(40, 40), twoColumns(40, 40), twoColumns(30, 2)].map((items) => ({
      items,
      width: 612,
    }));
    const gutters = documentGutters(pages);
    const order = readingOrder(pages[2]!.items, gutters[2]!);
    // Left column first, top to bottom, then the right column's two lines.
    expect(order.slice(0, 2)).toEqual([
      'left column line 1 of running text',
      'left column line 2 of running text',
    ]);
    expect(order.slice(-2)).toEqual([
      'right column line 1 of running text',
      'right column line 2 of running text',
    ]);
  });

  it('finds the gutter of a column set in several faces per line (labels, formulas), counting lines, not items', () => {
    const items: Item[] = [];
    for (let i = 0; i < 30; i++) {
      const y = 740 - i * 12;
      // Left column: running text broken into many items that follow each other (the symbols
      // of a formula), several of them lined up from line to line.
      for (let k = 0; k < 8; k++) items.push(item(k % 2 ? 'x' : 'term', 50 + k * 30, y, 10, 29));
      // Right column: a label, then the entry, as a numbered reference list sets them.
      items.push(item(`[${i + 1}]`, 320, y, 10, 12));
      items.push(item(`A. Author, Journal ${i + 1}, ${100 + i} (2001).`, 336, y, 10, 200));
    }
    const [gutters] = documentGutters([{ items, width: 612 }]);
    expect(gutters).toHaveLength(1);
    const order = readingOrder(items, gutters!);
    expect(order[0]).toBe('termxtermxtermxtermx');
    expect(order.findIndex((t) => t.startsWith('[1]'))).toBe(30);
  });

  it('reads on down the left column after the right column has ended, before the right column', () => {
    const items = twoColumns(40, 20);
    const [gutters] = documentGutters([{ items, width: 612 }]);
    const order = readingOrder(items, gutters!);
    expect(order[39]).toBe('left column line 40 of running text');
    expect(order[40]).toBe('right column line 1 of running text');
  });

  it('cuts left of the flush first lines of a hanging indent in the right column', () => {
    const items = twoColumns(40, 0);
    for (let i = 0; i < 40; i++) {
      const first = i % 5 === 0;
      items.push(
        item(
          first ? `Author ${i}. 2001. A title.` : `continued entry text ${i}`,
          first ? 318 : 327,
          740 - i * 12,
          10,
          230,
        ),
      );
    }
    const [gutters] = documentGutters([{ items, width: 612 }]);
    const order = readingOrder(items, gutters!);
    expect(order.slice(0, 40).every((t) => t.startsWith('left column'))).toBe(true);
    expect(order[40]).toBe('Author 0. 2001. A title.');
  });
});

describe('running heads and feet', () => {
  it('drops a foot set at 9.5% of the page height that recurs on every page', () => {
    const pages = [1, 2, 3].map((n) => ({
      height: 792,
      items: [
        ...prose(n).map((l) => item(l.text, l.x, l.y, l.size, 400)),
        item('Journal of Tests, Vol. 9, No. 4, Article 39. Publication date: March 2010.', 314, 75, 7, 246),
      ],
    }));
    dropRunningHeads(pages);
    expect(pages.every((p) => p.items.every((it) => !it.str.startsWith('Journal of Tests')))).toBe(true);
  });
});

describe('page numbers', () => {
  it('drops a number that is the last row of its page, set higher than the running-foot band', () => {
    const pages = [
      {
        height: 792,
        items: [
          ...prose(3).map((l) => item(l.text, l.x, l.y, l.size, 400)),
          item('Annals of Physics 24, 118-173. doi:10.1016/0003-4916(63)90068-X.', 72, 400, 10, 300),
          item('3', 295, 93, 10, 5),
        ],
      },
    ];
    dropRunningHeads(pages);
    expect(pages[0]!.items.map((it) => it.str)).not.toContain('3');
    expect(pages[0]!.items).toHaveLength(26);
  });
});

describe('the end of a reference list', () => {
  const block = (text: string): Block => ({
    text,
    relSize: 1,
    emphasis: true,
    styleLevel: null,
    page: 4,
    runs: [{ text, sup: false }],
    links: [],
    lines: [{ text, indent: 0, gapAbove: 1 }],
  });

  it('is a numbered section heading ("4. Appendix")', () => {
    expect(endsReferenceList(block('4. Appendix'), ['[17] A. Author, Journal 73, 307 (2001).'])).toBe(true);
  });

  it('is a figure or table caption set after the list (a draft with its figures at the end)', () => {
    const caption = {
      ...block('Figure 1: The relationship between richness and entropy of the networks.'),
      emphasis: false,
    };
    expect(endsReferenceList(caption)).toBe(true);
    expect(endsReferenceList({ ...block('Table 2. Counts of networks by type.'), emphasis: false })).toBe(
      true,
    );
    expect(
      endsReferenceList({
        ...block('Figueroa, A. 2001. A study of tables. Journal 3: 1-9.'),
        emphasis: false,
      }),
    ).toBe(false);
  });

  it('is not an entry in bold whose number goes on from the list’s ("5. Foundations of JSON Schema")', () => {
    const listed = ['4. PMLB: a large benchmark suite', 'Randal S. Olson, William La Cava'];
    expect(endsReferenceList(block('5. Foundations of JSON Schema'), listed)).toBe(false);
  });
});

describe('the reference list’s heading', () => {
  it('is also "Cited References" (a Typst manuscript template)', () => {
    expect(REFERENCES_HEADING.test('Cited References')).toBe(true);
    expect(REFERENCES_HEADING.test('Cited references of the study were checked')).toBe(false);
  });
});
