// Layouts met in the eighth held-out set, fixed in the ninth round: degrees and qualifications
// printed after each name in a clinical byline ("Ann Carter, MD¹ʼ²", "Bob Dunn MSc³", "Cleo Evans
// MD, PhD⁴"); a hand-written Word draft whose first line is "Title: ..." over one author per
// paragraph with no marks; a byline set between two dash rules under the title (a Word template
// exported to PDF). Names, titles and addresses are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { splitByline, withoutDegrees } from '../../src/parsing/names.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeDocx, makeTextPdf, textWidth } from './make-files.ts';

const limits = testConfig().parsing;

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const run = (text: string, sup = false) =>
  `<w:r>${sup ? '<w:rPr><w:vertAlign w:val="superscript"/></w:rPr>' : ''}<w:t xml:space="preserve">${text}</w:t></w:r>`;
const bold = (text: string) => `<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r>`;
const para = (content: string, style?: string) =>
  `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}${content}</w:p>`;
const styles = {
  name: 'word/styles.xml',
  data: Buffer.from(
    `<?xml version="1.0"?><w:styles ${W}><w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style><w:style w:type="paragraph" w:styleId="Author"><w:name w:val="Author"/></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>`,
  ),
};
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
