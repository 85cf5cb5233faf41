// Layouts met in the eleventh held-out set, fixed in the twelfth round: a Typst PDF whose link
// texts map each hyphen to a soft hyphen that pdf.js reads as a space of its own
// ("https://doi.org/10.1038/s41598 025 17943 w"); an AMS bibliography whose DOI field was cut short
// ("doi:10.1002/joc") before a URL that holds the DOI whole, whose underscore is a rule after a
// printed backslash ("7\ 1"), and whose SICI DOI in a URL is set with math angle brackets
// ("〈1032:ABC〉"). Names, titles and DOIs are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { findDoi } from '../../src/parsing/references.ts';
import { testConfig } from '../helpers/app.ts';
import {
  bodyProse,
  makeDocx,
  makeTextPdf,
  piecesOnOneLine,
  textWidth,
  docxParagraph as para,
  docxRun as run,
  docxLinkedRun,
  docxLinkRels,
  type PdfLink,
  textLine,
} from './make-files.ts';

const limits = testConfig().parsing;

type PdfLine = Parameters<typeof makeTextPdf>[0][number][number];

describe('a DOI cut where a glyph reads as a space, whole in its link (Typst)', () => {
  /**
   * A numbered list: entry k prints its DOI "https://doi.org/10.1000/s4159" + k, then the rest of it
   * ("2020", "7") after glyphs read as spaces of their own; the link over the line holds it whole.
   * Entry 2's link holds a hyphen where the text, joined over a line's end, has none.
   */
  const listPdf = () => {
    const lines: PdfLine[] = [];
    const links: PdfLink[] = [];
    let y = 500;
    for (let k = 1; k <= 6; k++) {
      lines.push({
        text: `${k}. Abbot A, Berry B. A study of things number ${k}. J Things. 2020;${k}:1-9.`,
        size: 10,
        x: 72,
        y,
      });
      y -= 12;
      const head = `https://doi.org/10.1000/s4159${k}`;
      if (k === 2) {
        lines.push({ text: 'https://doi.org/10.1000/annalsthings.2020', size: 10, x: 84, y });
        links.push({
          rect: [84, y - 2, 84 + textWidth('https://doi.org/10.1000/annalsthings.2020', 10), y + 10],
          url: 'https://doi.org/10.1000/annals-things.2020',
        });
      } else {
        lines.push(
          ...piecesOnOneLine(
            [{ text: head }, { text: ' ' }, { text: '2020' }, { text: ' ' }, { text: '7' }],
            y,
            10,
            { x: 84 },
          ),
        );
        links.push({
          rect: [84, y - 2, 84 + textWidth(`${head} 2020 7`, 10) + 40, y + 10],
          url: `https://doi.org/10.1000/s4159${k}-2020-7`,
        });
      }
      y -= 18;
    }
    return makeTextPdf(
      [
        [
          { text: 'A Study of Things That Were Measured', size: 16, x: 72, y: 760, bold: true },
          ...bodyProse(720, 12),
          { text: 'Bibliography', size: 12, x: 72, y: 520, bold: true },
          ...lines,
        ],
      ],
      '',
      [links],
    );
  };

  it('takes the link’s DOI, which goes on from the text’s', async () => {
    const result = await parseManuscript(listPdf(), 'built.pdf', limits);
    expect(result.references).toHaveLength(6);
    expect(result.references.map((r) => r.doi)).toEqual([
      '10.1000/s41591-2020-7',
      '10.1000/annals-things.2020',
      '10.1000/s41593-2020-7',
      '10.1000/s41594-2020-7',
      '10.1000/s41595-2020-7',
      '10.1000/s41596-2020-7',
    ]);
  });
});

describe('DOIs an AMS bibliography prints', () => {
  it('takes the URL’s DOI after a DOI field cut short', () => {
    expect(
      findDoi(
        'Climate of the Things, doi:10.1000/joth, URL http://onlinelibrary.example.com/doi/10.1000/joth.1688/full.',
      ),
    ).toBe('10.1000/joth.1688');
    // Two DOIs of which neither goes on from the other: the first.
    expect(findDoi('doi:10.1000/joth.12, URL http://example.com/doi/10.1000/other.5')).toBe(
      '10.1000/joth.12',
    );
  });

  it('reads a backslash and a space before digits as an escaped underscore drawn as a rule', () => {
    expect(findDoi('Kluwer, doi:10.1000/978-94-015-0000-7\\ 1.')).toBe('10.1000/978-94-015-0000-7_1');
  });

  it('reads math angle brackets in a SICI DOI as "<" and ">"', () => {
    expect(
      findDoi('URL http://journals.example.org/doi/abs/10.1000/1520-0442(2003)016〈1032:ABCDEF〉2.0.CO;2.'),
    ).toBe('10.1000/1520-0442(2003)016<1032:ABCDEF>2.0.CO;2');
    expect(findDoi('doi:10.1000/0091-7613(1995)023⟨1044:ECCALT⟩2.3.CO;2')).toBe(
      '10.1000/0091-7613(1995)023<1044:ECCALT>2.3.CO;2',
    );
  });
});

describe('a Word byline of names with degrees under a short title in bold', () => {
  const names = [
    ['Oriel Pennant', 'PhD', '1,2,†'],
    ['Tamsin Vell', 'MSc', '1,2'],
    ['Idris Mallow', 'BMBCh, MRCP', '1,3'],
    ['Wenna Trice', 'MSc', '4'],
    ['Corin A Dale', 'PhD, FRCR', '1,2,3,†'],
    ['Perran JR Holt', 'PhD', '1'],
    ['Elowen Sark', 'MPhil', '4'],
    ['Jory Kestle', 'BSc', '1,2'],
    ['Morwenna Pryce', 'PhD', '1,2'],
    ['Tristan Fowey', 'PhD, MRCP', '1,2,5,*'],
  ] as const;
  // Names, degrees and marks run together with commas and no spaces, as R Markdown wrote them.
  const byline = names.map(([n, d, m], k) => run(`${k ? ',' : ''}${n}, ${d}`) + run(m, true)).join('');
  const bold = (text: string) => `<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r>`;

  it('reads the byline after the short title, and drops the degrees', async () => {
    const doc = makeDocx([
      para(
        run('Thingfinder – showing the power of specific computational support for finding things'),
        'Title',
      ),
      para(bold('Thingfinder – a support tool for finding things')),
      para(byline),
      para(
        run('1', true) +
          run('Institute of Things, London') +
          run(' 2', true) +
          run('Centre for Stuff, Leeds'),
      ),
      para(run('Abstract'), 'Heading1'),
      para(run('Things were found. '.repeat(20))),
    ]);
    const result = await parseManuscript(doc, 'built.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(names.map(([n]) => n));
  });
});

describe('a draft whose title and byline are typed after labels, in the body’s type', () => {
  it('reads the first labelled title and the names after "Autores:"', async () => {
    const doc = makeDocx([
      para(run('Título: Efecto de las cosas sobre la calidad de las mediciones en latitud sur.')),
      para(run('Title: Effect of things on the quality of measurements in southern latitude.')),
      para(
        run('Autores: Ana Robles-Vidal,') +
          run('1,2', true) +
          run(' Tomás Quiroga-Lenz,') +
          run('2', true) +
          run(' Inés Varela-Soto.') +
          run('1,2*', true),
      ),
      para(run('1', true) + run(' Escuela de Cosas, Universidad del Sur, Punta Alta, Chile.')),
      para(run('2', true) + run(' Departamento de Medidas, Universidad del Sur, Punta Alta, Chile.')),
      para(run('Resumen:'), 'Heading1'),
      para(run('Las cosas fueron medidas. '.repeat(20))),
    ]);
    const result = await parseManuscript(doc, 'built.docx', limits);
    expect(result.title).toBe('Efecto de las cosas sobre la calidad de las mediciones en latitud sur.');
    expect(result.authors.map((a) => a.name)).toEqual([
      'Ana Robles-Vidal',
      'Tomás Quiroga-Lenz',
      'Inés Varela-Soto',
    ]);
  });

  it('keeps the period of an initial or a suffix that closes a name', async () => {
    const { splitByline } = await import('../../src/parsing/names.ts');
    expect(splitByline([{ text: 'Jane Roe Jr., Al Fox J.', sup: false }]).map((n) => n.name)).toEqual([
      'Jane Roe Jr.',
      'Al Fox J.',
    ]);
  });
});

describe('a Quarto Word file whose authors carry marks typed after a caret', () => {
  const doc = (note: string) =>
    makeDocx([
      para(run('A Fuzzy Framework for the Classification of Measured Things'), 'Title'),
      para(run('Dr Oriel Pennant^1*'), 'Author'),
      para(run('Tamsin Vell^2'), 'Author'),
      para(run('Abstract'), 'Heading1'),
      para(run('Things were measured and classified. '.repeat(12))),
      para(run('Methods'), 'Heading1'),
      para(run('The things were measured twice a day. '.repeat(12))),
      para(run('Figure 1. Things, measured.')),
      para(run(note)),
    ]);

  it('reads the names, and the email of the correspondence note at the document’s end', async () => {
    const result = await parseManuscript(
      doc('Corresponding author: Dr Tamsin Vell, Hospital of Things, Tabuk. Email: tv@example.org'),
      'built.docx',
      limits,
    );
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Oriel Pennant', []],
      ['Tamsin Vell', ['tv@example.org']],
    ]);
  });

  it('leaves a note at the end that names no author', async () => {
    const result = await parseManuscript(
      doc('Correspondence about the data: Hospital of Things, Tabuk. Email: data@example.org'),
      'built.docx',
      limits,
    );
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Oriel Pennant', []],
      ['Tamsin Vell', []],
    ]);
  });
});

describe('a Word title broken into paragraphs that each keep the Title style', () => {
  it('reads them as one title, up to four', async () => {
    const doc = makeDocx([
      para(run('Measuring Things by Hand: Comparing'), 'Title'),
      para(run('Large Counting Machines to People for'), 'Title'),
      para(run('Counting 6939 Things in One Country'), 'Title'),
      para(run('from 2019-2022'), 'Title'),
      para(run('Oriel Pennant') + run('1', true) + run(', Tamsin Vell') + run('2', true)),
      para(run('Abstract'), 'Heading1'),
      para(run('Things were counted. '.repeat(20))),
    ]);
    const result = await parseManuscript(doc, 'built.docx', limits);
    expect(result.title).toBe(
      'Measuring Things by Hand: Comparing Large Counting Machines to People for Counting 6939 Things in One Country from 2019-2022',
    );
    expect(result.authors.map((a) => a.name)).toEqual(['Oriel Pennant', 'Tamsin Vell']);
  });
});

describe('a Word reference list whose DOI is only a linked title’s target (R Markdown)', () => {
  it('reads the DOI from the entry’s hyperlink', async () => {
    const entries = [
      para(run('Abbot, A. 2021. A first study of things. Journal of Things 3:1–9.'), 'Bibliography'),
      para(
        run('Berry, B. 2023. ') + docxLinkedRun('thingr: Tools for counting things.', 'rId21'),
        'Bibliography',
      ),
      para(
        run('Carver, C. 2018. ') + docxLinkedRun('Counting for R. The R Things 10:4–9.', 'rId22'),
        'Bibliography',
      ),
      para(run('Dunmore, D. 2019. ') + docxLinkedRun('thingr on the web.', 'rId23'), 'Bibliography'),
    ];
    const doc = makeDocx(
      [
        para(run('A Study of Things That Were Counted'), 'Title'),
        para(run('Things were counted. '.repeat(20))),
        para(run('Bibliography'), 'Heading1'),
        ...entries,
      ],
      [
        docxLinkRels({
          rId21: 'https://doi.org/10.1000/zenodo.657',
          rId22: 'https://doi.org/10.1000/RJ-2018-009',
          rId23: 'https://example.org/thingr/',
        }),
      ],
    );
    const result = await parseManuscript(doc, 'built.docx', limits);
    expect(result.references.map((r) => r.doi)).toEqual([
      null,
      '10.1000/zenodo.657',
      '10.1000/RJ-2018-009',
      null,
    ]);
  });
});

describe('an AMS byline: author groups, each over its affiliation in another face', () => {
  const page = () =>
    makeTextPdf([
      [
        { text: 'Surface Things in Complex Terrain: Daily Predictions', size: 14, x: 72, y: 760, bold: true },
        { text: 'Oriel A. Pennant*, Tamsin B. Vell, and Idris C. Mallow', size: 11, x: 72, y: 730 },
        textLine('Department of Things, University of the West, Reno, Nevada, United States', 716, 11, {
          bold: true,
        }),
        { text: 'Wenna D. Trice', size: 11, x: 72, y: 700 },
        textLine('Department of Stuff and Science, University of the West, Reno, Nevada', 686, 11, {
          bold: true,
        }),
        ...bodyProse(650, 20),
      ],
    ]);

  it('reads the group after the first affiliation', async () => {
    const result = await parseManuscript(page(), 'built.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual([
      'Oriel A. Pennant',
      'Tamsin B. Vell',
      'Idris C. Mallow',
      'Wenna D. Trice',
    ]);
  });
});

describe('a numbered Word list with an entry that is only a link', () => {
  it('opens the entry at its number, set on a line of its own', async () => {
    const entry = (k: number, text: string) => para(run(`${k}. ${text}`), 'Bibliography');
    const doc = makeDocx(
      [
        para(run('A Study of Things That Were Counted'), 'Title'),
        para(run('Things were counted. '.repeat(20))),
        para(run('References'), 'Heading1'),
        entry(1, 'Abbot A. A first study of things. J Things. 2021;3:1–9.'),
        entry(2, 'Berry B, Carver C. Counting things again. J Things. 2022;4:10–19.'),
        para(
          run('3. ') + docxLinkedRun('https://www.example.org/page/ThingLevels;', 'rId31'),
          'Bibliography',
        ),
        entry(4, 'Dunmore D. Things at their levels. Stuff. 2019;1:2–3.'),
      ],
      [docxLinkRels({ rId31: 'https://www.example.org/page/ThingLevels' })],
    );
    const result = await parseManuscript(doc, 'built.docx', limits);
    expect(result.references.map((r) => r.raw.slice(0, 12))).toEqual([
      'Abbot A. A f',
      'Berry B, Car',
      'https://www.',
      'Dunmore D. T',
    ]);
  });
});

describe('an email whose address holds a short surname as a word of its own', () => {
  it('goes to that author, over one who shares a given name’s syllable', async () => {
    const doc = makeDocx([
      para(run('A Study of Things That Were Counted by Hand'), 'Title'),
      para(
        run('Orla Sze-Hung Bray') +
          run('1*', true) +
          run(', Tomas Kai Sze Ng') +
          run('1', true) +
          run(', Priya Dale') +
          run('2', true),
      ),
      para(run('1', true) + run('Centre for Things, University of the North, Toronto, Canada.')),
      para(run('2', true) + run('School of Stuff, University of the South, Bo, Sierra Leone.')),
      para(run('*Corresponding author(s). E-mail(s): orla.bray@example.org;')),
      para(run('Contributing authors: kaisze.ng@example.org; priya.dale@example.org;')),
      para(run('Abstract'), 'Heading1'),
      para(run('Things were counted. '.repeat(20))),
    ]);
    const result = await parseManuscript(doc, 'built.docx', limits);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Orla Sze-Hung Bray', ['orla.bray@example.org']],
      ['Tomas Kai Sze Ng', ['kaisze.ng@example.org']],
      ['Priya Dale', ['priya.dale@example.org']],
    ]);
  });
});

describe('author blocks in a grid of columns with no gutter (Typst)', () => {
  /**
   * Words spread over a column's width, as justified text: the next column's words start right
   * after. The middle column is set in bold, so that pdf.js keeps its words apart from the others'.
   */
  const justified = (text: string, left: number, y: number, width = 140): PdfLine[] => {
    const words = text.split(' ');
    const total = words.reduce((n, w) => n + textWidth(w, 10), 0);
    const gap = words.length > 1 ? (width - total) / (words.length - 1) : 0;
    let x = left;
    return words.map((w) => {
      const piece = { text: w, size: 10, x, y, bold: left === 234 };
      x += textWidth(w, 10) + gap;
      return piece;
    });
  };
  const centred = (text: string, centre: number, y: number): PdfLine => ({
    text,
    size: 10,
    x: centre - textWidth(text, 10) / 2,
    y,
  });
  const page = (note: PdfLine[] = []) =>
    makeTextPdf([
      [
        { text: 'Measuring Things: A Comparison of Two Frameworks', size: 16, x: 110, y: 700, bold: true },
        centred('Oriel Pennant', 162, 640),
        centred('Tamsin Vell', 306, 640),
        centred('Idris Mallow', 450, 640),
        ...justified('Institute of Things and Stuff,', 90, 625.6),
        ...justified('National Agency for Measures and', 234, 625.6),
        ...justified('National Agency for Measures and', 378, 625.6),
        ...justified('Environmental Matters, Berlin,', 90, 611.2),
        ...justified('Food, Environmental and Safety,', 234, 611.2),
        ...justified('Food, Environmental and Safety,', 378, 611.2),
        centred('Germany', 162, 596.8),
        centred('Alfort, France', 306, 596.8),
        centred('Alfort, France', 450, 596.8),
        centred('oriel.pennant@example.org', 162, 582.4),
        ...note,
        { text: 'Abstract', size: 12, x: 72, y: 540, bold: true },
        ...bodyProse(520, 20),
      ],
    ]);

  it('reads each column under its name as that author’s block', async () => {
    const result = await parseManuscript(page(), 'built.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Oriel Pennant', ['oriel.pennant@example.org']],
      ['Tamsin Vell', []],
      ['Idris Mallow', []],
    ]);
  });

  it('gives a correspondence line under the grid to the author it names, not to the last block', async () => {
    const note = [{ text: 'Correspondence: Tamsin Vell <tv@example.org>', size: 10, x: 90, y: 564 }];
    const result = await parseManuscript(page(note), 'built.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Oriel Pennant', ['oriel.pennant@example.org']],
      ['Tamsin Vell', ['tv@example.org']],
      ['Idris Mallow', []],
    ]);
  });
});
