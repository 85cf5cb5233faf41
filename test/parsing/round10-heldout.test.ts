// Layouts met in the ninth held-out set, fixed in the tenth round: a Word title page that sets
// each part of the front matter under its own heading ("Authors", "Affiliation", "Corresponding
// author") with the byline of many marked names on one line; a contact block set one paragraph
// to a line (a name alone, its address, "Email: ...", "ORCID: ..."); a byline written as a
// sentence with the affiliation run on after it (pandoc's plain author paragraph); a draft's
// byline "Jane Roe, et al." (AASTeX); an APA author note that closes the text and holds the
// correspondence addresses; reference lists (Chicago author-date from bookdown): an entry at a
// page's top with full given names after one that closed with its DOI, and a DOI cut before its
// last digit, which stands alone on the entry's last line; a bare-numbered (Vancouver) entry whose
// first author's surname opens with a particle in lower case ("19 van ..."); a Word title broken
// by hand into two paragraphs set in the same large type. Names, titles and addresses
// are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { splitByline } from '../../src/parsing/names.ts';
import { joinDoiBreaks, parseReferenceList } from '../../src/parsing/references.ts';
import type { BlockLine } from '../../src/parsing/types.ts';
import { testConfig } from '../helpers/app.ts';
import {
  bodyProse,
  makeDocx,
  makeTextPdf,
  docxRun as run,
  docxParagraph as para,
  docxLargeParagraph as big,
  spacedTwoLineEntries,
  paragraphStyles,
} from './make-files.ts';

const limits = testConfig().parsing;

const styles = paragraphStyles([
  ['Heading1', 'heading 1'],
  ['Heading2', 'heading 2'],
]);
const prose =
  'Things were measured again, and more carefully than the last time they were measured, over many long afternoons in the field and in the laboratory, with instruments that were checked twice a day.';

describe('a title page with a heading over each part of the front matter', () => {
  const names = [
    'Alma Brook Carver',
    'Dario Esteban Fulton',
    'Greta Hale',
    'Ines Jovanka Kettle',
    'Lorenzo Mata',
    'Nadia Olen Prewitt',
    'Quentin Rask',
    'Sabine Tull',
  ];
  const byline = names
    .map((n, k) => `${run(`${k ? ', ' : ''}${n}`)}${run('1', true)}${k === 1 ? run('*', true) : ''}`)
    .join('');
  const doc = makeDocx(
    [
      para(
        run('Rest versus early walking after ankle sprain: a systematic review and meta-analysis.'),
        'Heading1',
      ),
      para(run('Authors'), 'Heading1'),
      para(byline),
      para(run('Affiliation'), 'Heading1'),
      para(
        `${run('1', true)}${run('Department of Things, Faculty of Medicine, Somewhere University, Town, Country')}`,
      ),
      para(run('Corresponding author'), 'Heading2'),
      para(`${run('*', true)}${run('Dario Esteban Fulton')}`),
      para(run('Address: Department of Things, Somewhere University, Long Street, Town 12345, Country')),
      para(run('Email: dfulton@example.edu')),
      para(run('ORCID: 0000-0002-1825-0097')),
      para(run('Word count: 2950')),
      para(run('Abstract'), 'Heading1'),
      para(run(prose)),
    ],
    [styles],
  );

  it('reads the byline under an "Authors" heading, and the contact lines under the name', async () => {
    const result = await parseManuscript(doc, 'built.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(names);
    const fulton = result.authors[1]!;
    expect(fulton.emails).toEqual(['dfulton@example.edu']);
    expect(fulton.orcid).toBe('0000-0002-1825-0097');
    expect(result.authors.filter((a) => a.orcid || a.emails.length)).toHaveLength(1);
  });
});

describe('contact blocks set one paragraph to a line', () => {
  // Two blocks, each a name alone over unlabelled address lines and a labelled "e-mail:" line;
  // the first author's address has no name of its own in it.
  const doc = makeDocx(
    [
      big('Survival after Winter Storms in Small Island Towns'),
      para(run('Petra Quill, Ronan Stavely, Una Vessel, Walt Yarrow')),
      para(run('Registry Committee, Island Society of Medicine, Harbourtown, Country')),
      para(run('Petra Quill')),
      para(run('Department of Internal Medicine, Harbour University Hospital,')),
      para(run('College of Medicine, Harbour University')),
      para(run('12, Seaview-ro, Harbourtown, Country')),
      para(run('e-mail: hb4411@harbour.example')),
      para(run('Tel: 12-34-567-8901, Fax: 12-34-567-8902')),
      para(run('Corresponding author')),
      para(run('Walt Yarrow')),
      para(run('Department of Internal Medicine, Inland Hospital, ')),
      para(run('Hill Road, Inland City, Country')),
      para(run('e-mail: wy@inland.example')),
      para(run('Tel: 12-3-4567-8901')),
      para(run('Abstract'), 'Heading1'),
      para(run(prose)),
    ],
    [styles],
  );

  it("gives each block's email to the author it names", async () => {
    const result = await parseManuscript(doc, 'built.docx', limits);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Petra Quill', ['hb4411@harbour.example']],
      ['Ronan Stavely', []],
      ['Una Vessel', []],
      ['Walt Yarrow', ['wy@inland.example']],
    ]);
  });
});

describe('a byline written as a sentence, the affiliation run on after it', () => {
  const pdf = (byline: string[]) =>
    makeTextPdf([
      [
        { text: 'Gradient methods for gravity data', size: 14, x: 72, y: 740, bold: true },
        ...byline.map((text, k) => ({ text, size: 10, x: 72, y: 715 - k * 12 })),
        ...bodyProse(670, 20),
      ],
    ]);

  it('takes the names of the first sentence and leaves the place after it', async () => {
    const result = await parseManuscript(
      pdf([
        'Marta Quintal, Otavio R. Silveira Jr, and Lia M. N. Duarte. Southern Geophysical Survey, Porto Claro,',
        'PC, Country.',
      ]),
      'built.pdf',
      limits,
    );
    expect(result.authors.map((a) => a.name)).toEqual([
      'Marta Quintal',
      'Otavio R. Silveira Jr',
      'Lia M. N. Duarte',
    ]);
  });
});

describe('a byline that closes with "et al."', () => {
  it('drops "et al." from the names', () => {
    expect(splitByline([{ text: 'Jane Roe, et al.', sup: false }]).map((n) => n.name)).toEqual(['Jane Roe']);
    expect(splitByline([{ text: 'Jane Roe, Bo Park, et al.', sup: false }]).map((n) => n.name)).toEqual([
      'Jane Roe',
      'Bo Park',
    ]);
  });

  it('reads one name and "et al." under the title as the byline', async () => {
    const pdf = makeTextPdf([
      [
        { text: 'Where the slow rotators went: a look at old stars', size: 12, x: 72, y: 740, bold: true },
        { text: 'Nora Castellan, et al.', size: 10, x: 72, y: 715 },
        { text: 'ABSTRACT', size: 10, x: 72, y: 690, bold: true },
        ...bodyProse(675, 20),
      ],
    ]);
    const result = await parseManuscript(pdf, 'built.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Nora Castellan']);
  });
});

describe('an author note after the discussion', () => {
  const note =
    'OV, Department of Things, Somewhere University, & PW, Institute of Stuff, Elsewhere University. OV was supported by grant 12345. Correspondence concerning this article should be sent to olga.varnes@somewhere.example or pim.wextra@elsewhere.example.';
  const body = (noteParagraphs: string[]) =>
    makeDocx(
      [
        big('How precise are quick measures of attitudes?'),
        para(run('Olga Varnes &amp; Pim Wextra')),
        para(run(prose)),
        para(run('Measures and individuals'), 'Heading2'),
        ...Array.from({ length: 12 }, () => para(run(`${prose} ${prose}`))),
        para(run('Discussion'), 'Heading2'),
        para(run(`${prose} ${prose}`)),
        ...noteParagraphs,
        para(run('References'), 'Heading1'),
        para(run('Carter, A., &amp; Dunn, B. (2019). A study of things. Journal of Things, 12(3), 45–67.')),
        para(run('Evans, C. (2020). More things. Journal of Stuff, 4, 1–9.')),
      ],
      [styles],
    );

  it('reads the emails of an "Author note" heading and its paragraph', async () => {
    const result = await parseManuscript(
      body([para(run('Author note'), 'Heading1'), para(run(note))]),
      'built.docx',
      limits,
    );
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Olga Varnes', ['olga.varnes@somewhere.example']],
      ['Pim Wextra', ['pim.wextra@elsewhere.example']],
    ]);
  });

  it('reads them with the label run in before the note', async () => {
    const result = await parseManuscript(body([para(run(`Author note ${note}`))]), 'built.docx', limits);
    expect(result.authors.map((a) => a.emails)).toEqual([
      ['olga.varnes@somewhere.example'],
      ['pim.wextra@elsewhere.example'],
    ]);
  });
});

describe('reference lists set apart by space (Chicago author-date)', () => {
  it("joins a DOI cut before its last characters, left alone on the entry's last line", () => {
    expect(
      joinDoiBreaks([
        'Roe, Jane, and Al Poe. 2005. "Things Spread Unevenly." Nature 438 (7066): 355–59. https://doi.org/10.1038/thing0415',
        '3.',
      ]),
    ).toEqual([
      'Roe, Jane, and Al Poe. 2005. "Things Spread Unevenly." Nature 438 (7066): 355–59. https://doi.org/10.1038/thing04153.',
    ]);
    // A year on a line of its own after a DOI is no piece of it.
    expect(joinDoiBreaks(['Title. doi:10.1000/abc', '2014.'])).toHaveLength(2);
    // Nor is a chapter's number after a book DOI that ends in a whole ISBN (its underscore lost):
    // the DOI reader adds it with the underscore.
    expect(joinDoiBreaks(['Springer. doi: 10.1007/978-94-009-8456-1', '48'])).toHaveLength(2);
  });

  it("opens an entry at a page's top after one that closed with its DOI, whatever its names", async () => {
    const entry = (k: number): [string, string] => [
      `Carter${'abcdefghij'[k]}, Anna, Bruno Dunn, and Celia Evans. 20${10 + k}. "A Study of Things Number ${k + 1}."`,
      `Journal of Things ${k + 10} (2): ${k * 10 + 1}–${k * 10 + 9}. https://doi.org/10.1000/things.${k + 100}.`,
    ];
    const pdf = makeTextPdf([
      [
        { text: 'A Study of Things That Were Measured', size: 16, x: 72, y: 760, bold: true },
        ...bodyProse(720, 20),
        { text: 'References', size: 14, x: 72, y: 430, bold: true },
        ...spacedTwoLineEntries([0, 1, 2, 3, 4, 5].map(entry), 405),
      ],
      [...spacedTwoLineEntries([6, 7, 8].map(entry), 760)],
    ]);
    const result = await parseManuscript(pdf, 'built.pdf', limits);
    expect(result.references.map((r) => r.year)).toEqual([
      2010, 2011, 2012, 2013, 2014, 2015, 2016, 2017, 2018,
    ]);
  });
});

describe('a numbered list whose entry opens with a surname particle in lower case', () => {
  it('opens an entry at "3 van ..." after a bare number, as at a capital', () => {
    const line = (text: string): BlockLine => ({ text, indent: 0, gapAbove: 0 });
    const refs = parseReferenceList(
      [
        line(
          '1 Carter AB, Dunn C. A first study of things. Journal of Things 2005;193:1591–8. doi:10.1000/a.1',
        ),
        line(
          '2 Evans D, Fox E. A second study of things. Journal of Things 1994;171:1154–8. doi:10.1000/a.2',
        ),
        line(
          '3 van Gray Hill PJ, Ives A, Jones B, et al. A third study. Journal of Stuff 2006;128:187–93. doi:10.1000/a.3',
        ),
        line('4 de Kova L, Lund M. A fourth study. Journal of Stuff 1998;61:141–8. doi:10.1000/a.4'),
        line('5 North O. A fifth study. Journal of Stuff 1999;62:1–8. doi:10.1000/a.5'),
      ],
      null,
    );
    expect(refs.map((r) => r.doi)).toEqual([
      '10.1000/a.1',
      '10.1000/a.2',
      '10.1000/a.3',
      '10.1000/a.4',
      '10.1000/a.5',
    ]);
    expect(refs[2]!.raw).toMatch(/^van Gray Hill PJ/);
  });
});

describe('a Word title broken into two paragraphs in the same large type', () => {
  it('reads both paragraphs as the title, and not the byline under them', async () => {
    const doc = makeDocx(
      [
        big('Survival after Winter Storms in Small Island Towns'),
        big('A National Registry Study'),
        para(run('Petra Quill, Ronan Stavely, Una Vessel')),
        para(run('Registry Committee, Island Society of Medicine, Harbourtown, Country')),
        para(run('Abstract'), 'Heading1'),
        para(run(`${prose} ${prose}`)),
      ],
      [styles],
    );
    const result = await parseManuscript(doc, 'built.docx', limits);
    expect(result.title).toBe('Survival after Winter Storms in Small Island Towns A National Registry Study');
    expect(result.authors.map((a) => a.name)).toEqual(['Petra Quill', 'Ronan Stavely', 'Una Vessel']);
  });

  it('keeps two headings in a heading style apart (a heading over the byline is no title)', async () => {
    const doc = makeDocx(
      [
        para(run('Rest versus early walking after ankle sprain'), 'Heading1'),
        para(run('Authors'), 'Heading1'),
        para(run('Petra Quill, Ronan Stavely, Una Vessel')),
        para(run('Abstract'), 'Heading1'),
        para(run(`${prose} ${prose}`)),
      ],
      [styles],
    );
    const result = await parseManuscript(doc, 'built.docx', limits);
    expect(result.title).toBe('Rest versus early walking after ankle sprain');
  });
});
