// Layouts met in the eighth held-out set, fixed in the ninth round: degrees and qualifications
// printed after each name in a clinical byline ("Ann Carter, MD¹ʼ²", "Bob Dunn MSc³", "Cleo Evans
// MD, PhD⁴"); a hand-written Word draft whose first line is "Title: ..." over one author per
// paragraph with no marks; a byline set between two dash rules under the title (a Word template
// exported to PDF); reference lists: a SICI DOI without "(SICI)", numbers glued to the first
// author ("1.Carter"), an entry at a page's top in a list set apart by space, a "Figure captions:"
// label after the list. Names, titles and addresses are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { splitByline } from '../../src/parsing/names.ts';
import { withoutDegrees } from '../../src/corpus/authors/name-titles.ts';
import { parseReference, parseReferenceList } from '../../src/parsing/references.ts';
import type { BlockLine } from '../../src/parsing/types.ts';
import { testConfig } from '../helpers/app.ts';
import {
  bodyProse,
  makeDocx,
  makeTextPdf,
  textWidth,
  docxRun as run,
  docxParagraph as para,
  spacedTwoLineEntries,
  paragraphStyles,
} from './make-files.ts';

const limits = testConfig().parsing;

const bold = (text: string) => `<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r>`;
const styles = paragraphStyles([
  ['Title', 'Title'],
  ['Author', 'Author'],
  ['Heading1', 'heading 1'],
]);
const prose =
  'Things were measured again, and more carefully than the last time they were measured, over many long afternoons.';

describe('degrees printed after each name in a byline', () => {
  const docx = (byline: string, authorStyle?: string) =>
    makeDocx(
      [
        para(run('Patterns of Recovery after Falls in Steep Terrain'), 'Title'),
        para(byline, authorStyle),
        para(
          `${run('1', true)}${run(' Department of Things, Somewhere University, Town, Country')}${run(' ')}${run('2', true)}${run(' School of Stuff, Elsewhere Institute, City, Country')}${run(' ')}${run('3', true)}${run(' Clinic of Care, General Hospital, City, Country')}`,
        ),
        para(`${run('✉', true)}${run(' Correspondence: Cleo Evans, MD &lt;cleo.evans@example.org&gt;')}`),
        para(run('Abstract'), 'Heading1'),
        para(run(prose)),
      ],
      [styles],
    );

  it('cuts "MD", "PhD" set after a comma and keeps the marks after them (a styled byline)', async () => {
    const byline = [
      run('Ann Carter, MD'),
      run('1,2', true),
      run(', Bob Dunn, PhD'),
      run('3', true),
      run(', and Cleo Evans, MD'),
      run('1,✉', true),
    ].join('');
    const result = await parseManuscript(docx(byline, 'Author'), 'built.docx', limits);
    expect(result.authors.map((a) => [a.name, a.emails, a.affiliations.length])).toEqual([
      ['Ann Carter', [], 2],
      ['Bob Dunn', [], 1],
      ['Cleo Evans', ['cleo.evans@example.org'], 1],
    ]);
  });

  it('cuts degrees set after a space, and a pair of them ("MD, PhD"), in an unstyled byline', async () => {
    const byline = [
      run('Ann Carter PhD'),
      run('1,2', true),
      run(', Bob Dunn BScN'),
      run('2', true),
      run(', Dora Fell MSc'),
      run('3', true),
      run(', and Cleo Evans MD, PhD'),
      run('1,✉', true),
    ].join('');
    const result = await parseManuscript(docx(byline), 'built.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Ann Carter', 'Bob Dunn', 'Dora Fell', 'Cleo Evans']);
    expect(result.authors[3]!.emails).toEqual(['cleo.evans@example.org']);
  });

  it('does not eat initials after a surname, a surname that reads like a degree, nor "Jr."', () => {
    // Written surname first, "MD" and "JA" are initials; "MA" and "DO" are surnames as well.
    expect(withoutDegrees('Carter MD')).toBe('Carter MD');
    expect(withoutDegrees('Wei Jun MA')).toBe('Wei Jun MA');
    expect(withoutDegrees('ANN CARTER MD')).toBe('ANN CARTER MD');
    expect(withoutDegrees('Ann Carter, MA')).toBe('Ann Carter');
    expect(withoutDegrees('Ann Carter, M.D., Ph.D.')).toBe('Ann Carter');
    const names = splitByline([
      { text: 'Bob Dunn, Jr.', sup: false },
      { text: '1', sup: true },
      { text: ', Carter MD, Evans JA', sup: false },
    ]);
    expect(names.map((n) => [n.name, n.marks])).toEqual([
      ['Bob Dunn, Jr.', ['1']],
      ['Carter MD', []],
      ['Evans JA', []],
    ]);
  });
});

describe('a hand-written Word draft: "Title:" over one author per paragraph', () => {
  const docx = (authors: string[]) =>
    makeDocx(
      [
        para(bold('Title: Listening to the Forest at Night with Cheap Recorders')),
        ...authors.map((a) => para(run(a))),
        para(bold('Abstract')),
        para(bold('Introduction')),
        para(run(prose)),
        para(run(prose)),
      ],
      [styles],
    );

  const names = ['Ann Carter-Lowe', 'Bob McDunn', 'Cleo Evans'];
  it('drops the label from the title', async () => {
    const result = await parseManuscript(docx(names), 'built.docx', limits);
    expect(result.title).toBe('Listening to the Forest at Night with Cheap Recorders');
  });

  it('reads each lone name in the column under the title as an author', async () => {
    const result = await parseManuscript(docx(names), 'built.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(names);
  });

  it('still reads no author from one lone line under the title', async () => {
    const result = await parseManuscript(docx(['Second Revised Edition']), 'built.docx', limits);
    expect(result.authors).toEqual([]);
  });
});

describe('a byline between dash rules under the title (Word exported to PDF)', () => {
  type Line = Parameters<typeof makeTextPdf>[0][number][number];
  const onOneLine = (pieces: { text: string; sup?: boolean }[], y: number, size = 11): Line[] => {
    const out: Line[] = [];
    let x = 72;
    for (const p of pieces) {
      const s = p.sup ? size * 0.7 : size;
      out.push({ text: p.text, size: s, x, y: p.sup ? y + size * 0.35 : y });
      x += textWidth(p.text, s);
    }
    return out;
  };
  // The test PDF's fonts read a byte by the standard encoding, where 0xD0 is the em dash.
  const rule = (y: number): Line => ({ text: '\u00d0', size: 11, x: 72, y, bold: true });
  it('reads the names after the rule, not the rule as part of the first name', async () => {
    const pdf = makeTextPdf([
      [
        { text: 'Reconstructing Old Warm Climates from Sparse', size: 16, x: 72, y: 740, bold: true },
        { text: 'Proxy Records', size: 16, x: 72, y: 720, bold: true },
        rule(690),
        ...onOneLine(
          [
            { text: 'Ann Carter' },
            { text: '1', sup: true },
            { text: ' and Bob B. Dunn' },
            { text: '2', sup: true },
          ],
          672,
        ),
        rule(654),
        ...onOneLine(
          [{ text: '1', sup: true }, { text: 'Department of Earth Things, Somewhere University, Town' }],
          636,
        ),
        ...onOneLine(
          [{ text: '2', sup: true }, { text: 'Institute of Old Climates, Elsewhere, Country' }],
          622,
        ),
        rule(604),
        { text: 'Corresponding author: ann.carter@example.org', size: 11, x: 72, y: 586 },
        { text: 'Abstract', size: 16, x: 72, y: 560, bold: true },
        ...bodyProse(540),
      ],
    ]);
    const result = await parseManuscript(pdf, 'built.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Ann Carter', ['ann.carter@example.org']],
      ['Bob B. Dunn', []],
    ]);
  });
});

describe('reference lists', () => {
  it('reads a SICI DOI to its end where no "(SICI)" names the form (GSA, AMS)', () => {
    const entry =
      'Roe, A.: Warm old climates, Geology, 23, 1044, https://doi.org/10.1130/0091-7613(1995)023<1044:WOC>2.3.CO;2, 1995.';
    expect(parseReference(entry).doi).toBe('10.1130/0091-7613(1995)023<1044:WOC>2.3.CO;2');
    // Brackets after a DOI that have no SICI code after them are the text's, not the DOI's.
    expect(parseReference('Roe, A.: Title, https://doi.org/10.1000/xyz.123<br>, 2001.').doi).toBe(
      '10.1000/xyz.123',
    );
  });

  it('reads a numbered list whose numbers lost the space after them ("1.Carter, A.")', () => {
    const line = (text: string): BlockLine => ({ text, indent: 0, gapAbove: 0 });
    const refs = parseReferenceList(
      [
        line('1.Carter, A. & Dunn, B. A first study of things that are measured. Journal of Things 20,'),
        line('558–578 (2004).'),
        line('2.Evans, C. A second study. Journal of Things 21, 1–9 (2005).'),
        line('3.Fox, D., Gray, E. & Hill, F. A third study of things, with more authors. Journal of'),
        line('Stuff 4, 10–19 (2006).'),
      ],
      null,
    );
    expect(refs.map((r) => r.year)).toEqual([2004, 2005, 2006]);
    expect(refs[1]!.raw).toMatch(/^Evans, C\./);
  });

  it('opens an entry at the top of a page in a list set apart by space (no space shows there)', async () => {
    const entry = (k: number): [string, string] => [
      `Carter${'abcdefghij'[k]}, A. and Dunn, B.: A study of things number ${k + 1} that were measured,`,
      `Journal of Things, ${k + 10}, ${k * 10 + 1}–${k * 10 + 9}, 20${10 + k}.`,
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

  it('ends the list at a label over the captions set after it ("Figure captions:")', async () => {
    const refs = [
      'Carter, A. (2001). A study of things. Journal of Things 1:1–9.',
      'Dunn, B., and C. Evans (2002). Another study of things. Journal of Things 2:10–19.',
      'Fox, D. (2003). A third study of things. Journal of Stuff 3:20–29.',
    ];
    const docx = makeDocx(
      [
        para(run('A Study of Things That Were Measured'), 'Title'),
        para(run(prose)),
        para(run('Literature Cited'), 'Heading1'),
        ...refs.map((r) => para(run(r))),
        para(run('Figure captions:')),
        para(run('Figure 1. Things measured at each site, by year, with the sites drawn as circles.')),
      ],
      [styles],
    );
    const result = await parseManuscript(docx, 'built.docx', limits);
    expect(result.references.map((r) => r.year)).toEqual([2001, 2002, 2003]);
  });
});
