// Layouts met in the thirty-fourth held-out set (a KOMA preprint, a Tufte handout, an NSF proposal,
// a Springer contributed chapter, a student grant proposal and lecture notes in Word, a Chinese
// teaching paper), fixed in the thirty-sixth round. Names, titles and identifiers are made up;
// only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { composeAccents } from '../../src/parsing/text-utils.ts';
import { testConfig } from '../helpers/app.ts';
import {
  bodyProse,
  docxLargeParagraph,
  makeDocx,
  makeTextPdf,
  paragraph,
  wordBodyParagraphs,
} from './make-files.ts';

const limits = testConfig().parsing;

/** A paragraph of one run in `halfPoints` type and no style. */
const sized = (text: string, halfPoints: number) =>
  `<w:p><w:r><w:rPr><w:sz w:val="${halfPoints}"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

const PROSE =
  'We look at how new stadiums change the neighbourhoods they are built in. We compare rents, ' +
  'incomes and the number of residents before and after each opening, in eight cities. The ' +
  'results will be shown on a public map that anyone can browse and comment on.';

describe('a student grant proposal in Word: the date over the names, "Work Cited"', () => {
  const file = () =>
    makeDocx([
      docxLargeParagraph('DO NEW STADIUMS HELP THE CITIES THAT BUILD THEM?'),
      paragraph('Monday, March 2nd, 2020'),
      paragraph('Dana Miller'),
      paragraph('Ravi Okafor'),
      paragraph('Harbour University'),
      paragraph('Abstract'),
      paragraph(PROSE),
      ...wordBodyParagraphs(6),
      paragraph('Work Cited'),
      paragraph(
        'Lane, Ann, and Bo Ruiz. "Stadiums and Rents." Urban Studies 53, no. 8 (2016): 1674-90. doi:10.1177/0042098015570001.',
      ),
      paragraph(
        'Park, C. A. (2007). The impact of stadium announcements. Contemporary Economic Policy, 25(4), 627-638.',
      ),
    ]);

  it('reads the names under the date line as the byline', async () => {
    const result = await parseManuscript(file(), 'grant.docx', limits);
    expect(result.title).toBe('DO NEW STADIUMS HELP THE CITIES THAT BUILD THEM?');
    expect(result.authors.map((a) => a.name)).toEqual(['Dana Miller', 'Ravi Okafor']);
  });

  it('reads the list under "Work Cited"', async () => {
    const result = await parseManuscript(file(), 'grant.docx', limits);
    expect(result.references).toHaveLength(2);
    expect(result.references[0]!.doi).toBe('10.1177/0042098015570001');
  });
});

describe('a Chinese paper in Word: a dash subtitle, two names on one line, "摘要：" under them', () => {
  const file = () =>
    makeDocx([
      sized('新时代通识教育的课程改革探索', 40),
      sized('——以《理解城市规划》课程为例', 26),
      sized('王小明 李华', 22),
      sized(
        '摘要：本文以某大学《理解城市规划》通识课程为例，探讨教育理念、课程设计和教学方式等方面的改革方向，并总结有效的课程设计方案。',
        20,
      ),
      sized('关键词：通识教育；课程改革；城市规划', 20),
      ...wordBodyParagraphs(6),
    ]);

  it('joins the subtitle to the title with no space and reads the two names', async () => {
    const result = await parseManuscript(file(), 'lunwen.docx', limits);
    expect(result.title).toBe('新时代通识教育的课程改革探索——以《理解城市规划》课程为例');
    expect(result.authors.map((a) => a.name)).toEqual(['王小明', '李华']);
  });

  it('takes the run-in abstract, which names a university, for no affiliation', async () => {
    const result = await parseManuscript(file(), 'lunwen.docx', limits);
    expect(result.authors.map((a) => a.affiliations)).toEqual([[], []]);
  });

  it('keeps a Japanese name whole: under a title with kana a space parts no two people', async () => {
    const japanese = makeDocx([
      sized('都市計画の授業における通識教育の試み', 40),
      sized('山田 太郎', 22),
      ...wordBodyParagraphs(6),
    ]);
    const result = await parseManuscript(japanese, 'ronbun.docx', limits);
    expect(result.authors.map((a) => a.name)).not.toEqual(['山田', '太郎']);
  });
});

describe('a Chinese reference list in Word with an entry broken over two paragraphs', () => {
  it('joins the tail of the journal name, volume and pages to the entry above', async () => {
    const file = makeDocx([
      docxLargeParagraph('A Paper With a Chinese Reference List'),
      ...wordBodyParagraphs(6),
      paragraph('参考文献'),
      paragraph('王伟, 李娜. 通识课程的设计与评价[J].中国大学教学, 2012(12): 66–68.'),
      paragraph('赵强. 城市规划课程的教学改革路径[J].中国大学教'),
      paragraph('学, 2023(Z1): 25–32.'),
      paragraph('许明. 教育强国建设中的价值实现[J].教育研究, 2023(6): 10–13.'),
    ]);
    const result = await parseManuscript(file, 'lunwen.docx', limits);
    expect(result.references.map((r) => r.raw)).toEqual([
      '王伟, 李娜. 通识课程的设计与评价[J].中国大学教学, 2012(12): 66–68.',
      '赵强. 城市规划课程的教学改革路径[J].中国大学教学, 2023(Z1): 25–32.',
      '许明. 教育强国建设中的价值实现[J].教育研究, 2023(6): 10–13.',
    ]);
  });
});

/** Helvetica's advance widths (thousandths of the size) of the letters the tests below set in pieces. */
const HELVETICA: Record<string, number> = {
  ' ': 278,
  '.': 278,
  A: 667,
  F: 611,
  H: 722,
  I: 278,
  M: 833,
  P: 667,
  S: 667,
  a: 556,
  c: 500,
  d: 556,
  e: 556,
  f: 278,
  g: 556,
  i: 222,
  k: 500,
  l: 222,
  n: 556,
  o: 556,
  r: 333,
  s: 500,
  t: 278,
  u: 556,
  v: 500,
  y: 500,
};
/** Where a piece set after `text` in Helvetica at `size` starts, touching it. */
const advance = (text: string, size: number) =>
  [...text].reduce((w, c) => w + HELVETICA[c]!, 0) * (size / 1000);

describe("TeX's cedilla drawn after its letter", () => {
  it('goes onto the letter before it when the letter after takes none', () => {
    expect(composeAccents('Franc\u00b8ois')).toBe('François');
    expect(composeAccents('Fran\u00b8cois')).toBe('François');
  });

  it('is mended in the byline read from the line, set in pieces', async () => {
    // The cedilla is its own glyph (StandardEncoding 0xCB), drawn after the "c" and moved back
    // under it: the piece that opens with it starts over the end of the piece before.
    const before = 'Ingrid M. Alvik and Franc';
    const file = makeTextPdf([
      [
        { text: 'Media Timing on the Open Web', size: 18, x: 72, y: 760, bold: true },
        { text: before, size: 10, x: 72, y: 730 },
        { text: '\xcbois Dumont', size: 10, x: 72 + advance(before, 10) - 4, y: 730 },
        ...bodyProse(690, 40),
      ],
    ]);
    const result = await parseManuscript(file, 'chapter.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Ingrid M. Alvik', 'François Dumont']);
  });
});

/** A handout's first page: title, author, date, a short abstract set small and indented, prose. */
function handout(extra: Parameters<typeof makeTextPdf>[0][number] = []) {
  return makeTextPdf([
    [
      { text: 'A Study of Margins in Printed Handouts', size: 15, x: 72, y: 770 },
      { text: 'Mara Lind', size: 12, x: 72, y: 745, bold: true },
      { text: 'June 21, 2015', size: 12, x: 72, y: 728 },
      { text: 'This note describes a handout style with wide margins. It also', size: 9, x: 84, y: 700 },
      { text: 'gives examples of its use. Only a short overview is given here;', size: 9, x: 84, y: 689 },
      { text: 'for a full account, see the sample book.', size: 9, x: 84, y: 678 },
      ...bodyProse(655, 6),
      { text: 'Page Layout', size: 12, x: 72, y: 560, bold: true },
      { text: 'Headings', size: 11, x: 72, y: 540, bold: true },
      { text: 'This style provides two levels of headings, shown above.', size: 10, x: 72, y: 525 },
      { text: 'A third level is an error.', size: 10, x: 72, y: 512 },
      ...bodyProse(490, 20),
      ...extra,
    ],
  ]);
}

describe('a Tufte handout: a short abstract with no label, set small and indented', () => {
  it('reads the small paragraph under the date as the abstract', async () => {
    const result = await parseManuscript(handout(), 'handout.pdf', limits);
    expect(result.abstract).toBe(
      'This note describes a handout style with wide margins. It also gives examples of its use. Only a short overview is given here; for a full account, see the sample book.',
    );
  });

  it('reads no heading after the first paragraph of prose as an author', async () => {
    const result = await parseManuscript(handout(), 'handout.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Mara Lind']);
  });
});

describe("a Tufte handout: the title's note set in the margin on the title's line", () => {
  it('ends the title at its mark', async () => {
    const title = 'A Study of Margins in Printed Handouts';
    const file = makeTextPdf([
      [
        { text: title, size: 14, x: 72, y: 770 },
        // The title's mark, then the note's own mark and its text in the right margin.
        { text: '1', size: 5, x: 72 + advance(title, 14), y: 778 },
        { text: '1', size: 4, x: 470, y: 777 },
        { text: 'Inspired by an old book.', size: 8, x: 474, y: 772 },
        { text: 'Ann Roe', size: 12, x: 72, y: 745 },
        ...bodyProse(700, 30),
      ],
    ]);
    const result = await parseManuscript(file, 'handout.pdf', limits);
    expect(result.title).toBe(title);
  });
});

describe('an NSF proposal: the Project Summary, then the Project Description', () => {
  it('prints no title and no byline: its headings are neither', async () => {
    const sentence = (y: number, text: string) => ({ text, size: 10, x: 72, y });
    const file = makeTextPdf([
      [
        { text: 'Project Summary', size: 12, x: 250, y: 780, bold: true },
        { text: 'Overview', size: 10, x: 280, y: 765, bold: true },
        sentence(750, 'Our college has doubled its funded research since 2015 and plans to double it again.'),
        { text: 'Intellectual Merit', size: 10, x: 260, y: 730, bold: true },
        sentence(715, 'The new cluster will enable research projects in four areas of national priority.'),
        { text: 'Broader Impacts', size: 10, x: 262, y: 695, bold: true },
        sentence(680, 'The college has a long history of using computing in workforce development.'),
      ],
      [
        { text: 'Project Description', size: 12, x: 245, y: 780, bold: true },
        { text: 'Research Activities to be Enabled', size: 10, x: 72, y: 760, bold: true },
        ...bodyProse(745, 40),
      ],
    ]);
    const result = await parseManuscript(file, 'proposal.pdf', limits);
    expect(result.title).toBeNull();
    expect(result.authors).toEqual([]);
  });
});
