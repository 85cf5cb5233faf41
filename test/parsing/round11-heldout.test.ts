// Layouts met in the tenth held-out set, fixed in the eleventh round: an author-year reference
// list (APA from Quarto) where a line set mostly in the journal's italic face, ending in a word
// broken by a hyphen ("Meta-Analysis. Organizational Research Meth-"), stands as a short emphasised
// block of its own and read as a heading that closed the list (as does such a line whose sentence
// goes on in lower case on the next); DOIs that biblatex lets break and
// stretch inside a justified line, read back with spaces in them ("10.1007/s12237- 011-" over
// "9423-5.", "doi: 10 . 1080 / 01431161.2018.1445880."); a Word byline whose first name carries a
// nickname in brackets ("Chun-Kai (Karl) Huang"); a Word title that is a software's name alone over
// a paragraph in the Subtitle style (bookdown's word_document2). Names, titles and DOIs are made up; only
// the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { isNameLike } from '../../src/parsing/names.ts';
import { findDoi } from '../../src/parsing/references.ts';
import { testConfig } from '../helpers/app.ts';
import {
  bodyProse,
  makeDocx,
  makeTextPdf,
  docxRun as run,
  docxParagraph as para,
  docxLargeParagraph as big,
  paragraphStyles,
} from './make-files.ts';

const limits = testConfig().parsing;

type PdfLine = Parameters<typeof makeTextPdf>[0][number][number];

describe('an author-year list with a line in the journal face broken by a hyphen', () => {
  const listPdf = (journalLine: string, after: string) => {
    // Hanging indents: each entry's first line at 72, the others at 84, 12 points apart.
    const entries: { text: string; bold?: boolean }[][] = [
      [
        { text: 'Abbot, A., & Berry, B. (2011). A first study of things and of' },
        { text: 'their measurement. Journal of Things, 37(1), 5–38.' },
      ],
      [{ text: 'Carver, C. (2009). Introduction to the study of things. Big' }, { text: 'Press.' }],
      [
        { text: 'Dunmore, D. (2003). Apples and pears: the search for the things in' },
        { text: journalLine, bold: true },
        { text: after },
      ],
      [
        { text: 'Elwood, E., & Frame, F. (2011). Features of studies of things in' },
        { text: 'a database. Journal of Stuff, 11(1), 160. https://doi.org/10.1000/things.4' },
      ],
      [
        { text: 'Garnet, G. (2002). Arguments for many views of things. Journal' },
        { text: 'of Measures, 62(5), 783–801. https://doi.org/10.1000/things.5' },
      ],
      [
        { text: 'Hollis, H. (2005). A study of things that vary. Methods of Things,' },
        { text: '10(4), 444–467. https://doi.org/10.1000/things.6' },
      ],
    ];
    const lines: PdfLine[] = [];
    let y = 420;
    for (const e of entries)
      e.forEach((l, k) => {
        lines.push({ text: l.text, size: 10, x: k === 0 ? 72 : 84, y, ...(l.bold ? { bold: true } : {}) });
        y -= 12;
      });
    return makeTextPdf([
      [
        { text: 'A Study of Things That Were Measured', size: 16, x: 72, y: 760, bold: true },
        ...bodyProse(720, 20),
        { text: 'References', size: 12, x: 72, y: 440, bold: true },
        ...lines,
      ],
    ]);
  };
  const expectWhole = async (pdf: Uint8Array) => {
    const result = await parseManuscript(pdf, 'built.pdf', limits);
    expect(result.references).toHaveLength(6);
    expect(result.references.map((r) => r.doi)).toEqual([
      null,
      null,
      '10.1000/things.3',
      '10.1000/things.4',
      '10.1000/things.5',
      '10.1000/things.6',
    ]);
  };

  it('reads on past the line, which is no heading', async () => {
    await expectWhole(
      listPdf(
        'Meta-Analysis. Organizational Research Meth-',
        'ods, 6(4), 415–439. https://doi.org/10.1000/things.3',
      ),
    );
  });

  it('reads on past such a line whose sentence goes on in lower case on the next', async () => {
    await expectWhole(
      listPdf(
        'Meta-Analysis. Organizational Research Methods',
        'and Stuff, 6(4), 415–439. https://doi.org/10.1000/things.3',
      ),
    );
  });
});

describe('DOIs a justified line stretched (biblatex)', () => {
  it('reads on after a hyphen the URL broke at, where a space came in', () => {
    expect(findDoi('Estuaries 35.1 (2012), pp. 237–261. doi: 10.1000/e1234- 011- 5678-5.')).toBe(
      '10.1000/e1234-011-5678-5',
    );
    // A DOI that ends before a word without a digit stays as it is.
    expect(findDoi('doi: 10.1000/abc- and more')).toBe('10.1000/abc-');
  });

  it('reads a DOI printed with spaces around its separators after its label', () => {
    expect(
      findDoi('Remote Sensing 39.11 (2018). issn: 0143-1161. doi: 10 . 1000 / 01431161.2018.1445.'),
    ).toBe('10.1000/01431161.2018.1445');
    expect(findDoi('doi: 10 . 1000 / 0143 . 2018 . 1445 . Accessed 2020.')).toBe('10.1000/0143.2018.1445');
    // Without the label, spaced numbers are no DOI.
    expect(findDoi('p. 10 . 1000 / 2')).toBeNull();
  });
});

const prose =
  'Things were measured again, and more carefully than the last time they were measured, over many long afternoons in the field and in the laboratory, with instruments that were checked twice a day.';

describe('a byline name with a nickname in brackets', () => {
  it('is a name, kept as printed', () => {
    expect(isNameLike('Mei-Lin (Molly) Tarrant')).toBe(true);
    expect(isNameLike('Robert “Bob” Quarry')).toBe(true);
    // An acronym in brackets, or a bracket at an end, is no nickname.
    expect(isNameLike('Centre (UCL) Office')).toBe(false);
    expect(isNameLike('(Molly) Tarrant')).toBe(false);
  });

  it('reads it first in a Word byline of marked names', async () => {
    const names = ['Mei-Lin (Molly) Tarrant', 'Osric Penhale', 'Rosa Quint', 'Tobias Ulm'];
    const doc = makeDocx([
      big('Evaluating how open the outputs of institutions are: methods and checks'),
      para(run('August 12, 2020')),
      para(names.map((n, k) => `${run(`${k ? ', ' : ''}${n}`)}${run(String((k % 2) + 1), true)}`).join('')),
      para(
        `${run('1', true)}${run('Centre for Things, Somewhere University, Long Street, Town 6102, Country')}`,
      ),
      para(`${run('2', true)}${run('Institute for Stuff, Long Street, Town 6102, Country')}`),
      para(run('Abstract')),
      para(run(prose)),
    ]);
    const result = await parseManuscript(doc, 'built.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(names);
  });
});

describe('a Word title that is a name alone, over a paragraph in the Subtitle style', () => {
  const styles = paragraphStyles([
    ['Title', 'Title'],
    ['Subtitle', 'Subtitle'],
    ['Author', 'Author'],
    ['Heading1', 'heading 1'],
  ]);
  const doc = (title: string, subtitle: string) =>
    makeDocx(
      [
        para(run(title), 'Title'),
        para(run(subtitle), 'Subtitle'),
        para(`${run('Vera Wold')}${run('1', true)}${run(', and Xavier Yates')}${run('2', true)}`, 'Author'),
        para(`${run('1', true)}${run('Department of Things, Somewhere University, Town, Country')}`),
        para(`${run('2', true)}${run('Institute of Stuff, Elsewhere, Country')}`),
        para(run('Abstract')),
        para(run(prose)),
        para(run('Introduction'), 'Heading1'),
        para(run(prose)),
      ],
      [styles],
    );

  it('joins the subtitle to the name', async () => {
    const result = await parseManuscript(
      doc('qFLUX3', 'Resampling of Labels for Threshold Analysis of Taxa'),
      'built.docx',
      limits,
    );
    expect(result.title).toBe('qFLUX3: Resampling of Labels for Threshold Analysis of Taxa');
    expect(result.authors.map((a) => a.name)).toEqual(['Vera Wold', 'Xavier Yates']);
  });

  it('leaves the subtitle of a longer title out, and a one-word label', async () => {
    const long = await parseManuscript(
      doc('How well a small sensor reads the temperature of things', 'A systematic review and meta-analysis'),
      'built.docx',
      limits,
    );
    expect(long.title).toBe('How well a small sensor reads the temperature of things');
    const label = await parseManuscript(doc('qFLUX3', 'Manuscript'), 'built.docx', limits);
    expect(label.title).toBe('qFLUX3');
  });
});
