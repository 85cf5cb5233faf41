// Layouts met in the nineteenth held-out set, fixed in the twenty-first round: a draft typed by hand
// whose title follows a Russian label in guillemets and whose list heading ("4. Ссылки.") is first
// a line of the plan at the top; a French abstract under "Résumé" with a note on its length; Chinese
// and Japanese thesis covers (every line in one size: the kind of thesis, the title with no space
// in it, the university, the student's name letter-spaced, the student number), a list whose
// entries' URLs are paragraphs of their own, a Chinese abstract under "摘 要" over "关键词：";
// a cover built of text boxes (each written twice, for new and old readers), the author's name
// over the title and a table of contents after it; a byline joined by the French "et"; a table on
// a page of its own, with row labels in bold, between the two halves of a reference list.
// Names, titles and DOIs are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import {
  bodyProse,
  docxLargeParagraph,
  makeDocx,
  makeTextPdf,
  paragraph,
  paragraphStyles,
} from './make-files.ts';

const limits = testConfig().parsing;

const styles = paragraphStyles([
  ['Title', 'Title'],
  ['Heading1', 'heading 1'],
  ['TOCHeading', 'TOC Heading'],
  ['TOC1', 'toc 1'],
  ['TOC3', 'toc 3'],
  ['Author', 'Author'],
]);

/** A paragraph of one run in a size of its own (half-points, as Word writes it). */
const sized = (text: string, halfPoints: number) =>
  `<w:p><w:r><w:rPr><w:sz w:val="${halfPoints}"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

const prose = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    paragraph(
      `Paragraph ${i + 1} of the body, long enough to read as running prose of the section about the gardens and their frost dates in the northern valleys.`,
    ),
  );

describe('a Russian draft: a labelled title in guillemets, the list heading first in the plan', () => {
  const entries = [
    // Entries of web pages and handbooks, most with no author's initials: no list by their shape alone.
    '1. Сады северных долин [Электронный ресурс] // Садовый журнал. 2015. URL: https://example.org/sady',
    '2. Заморозки и цветение: справочник. Москва: Наука, 2019. 210 с.',
    '3. Петров А. В. Архив наблюдений. Москва: Наука, 2016. 120 с.',
  ];
  const file = () =>
    makeDocx([
      paragraph('Название: «Сроки заморозков и цветения садов в северных долинах.»'),
      paragraph('План:'),
      paragraph('1. Введение.'),
      paragraph('2. Текст статьи.'),
      paragraph('3. Заключение.'),
      paragraph('4. Ссылки.'),
      paragraph('1. Введение.'),
      ...prose(4),
      paragraph('3. Заключение.'),
      ...prose(2),
      paragraph('4. Ссылки.'),
      ...entries.map((e) => paragraph(e)),
    ]);

  it('reads the title without its label and quotation marks', async () => {
    const result = await parseManuscript(file(), 'draft.docx', limits);
    expect(result.title).toBe('Сроки заморозков и цветения садов в северных долинах.');
  });

  it('opens the list under the last "Ссылки." heading', async () => {
    const result = await parseManuscript(file(), 'draft.docx', limits);
    expect(result.references.map((r) => r.raw)).toEqual(entries.map((e) => e.replace(/^\d\. /, '')));
  });
});

describe('a French abstract under "Résumé" with a note on its length', () => {
  it('reads the paragraph under the heading', async () => {
    const abstract =
      'Les jardins des vallées du nord fleurissent plus tard que ceux des plaines. Nous comparons les dates de gel et de floraison sur vingt ans.';
    const result = await parseManuscript(
      makeDocx(
        [
          paragraph('Les dates de gel dans les jardins des vallées', 'Title'),
          paragraph('Anne Roux et Paul Marchand', 'Author'),
          // The contents' heading with no entries under it (the field never updated), then a
          // journal's instructions, long enough to put the abstract past the front matter's window.
          paragraph('Table des matières', 'TOCHeading'),
          paragraph('Consignes :', 'Heading1'),
          ...Array.from({ length: 12 }, (_, k) => paragraph(`Consigne ${k + 1} de la revue`)),
          paragraph('Résumé (500 à 600 signes)', 'Heading1'),
          paragraph(abstract),
          paragraph('1 Introduction', 'Heading1'),
          ...prose(3),
        ],
        [styles],
      ),
      'resume.docx',
      limits,
    );
    expect(result.abstract).toBe(abstract);
    expect(result.authors.map((a) => a.name)).toEqual(['Anne Roux', 'Paul Marchand']);
  });
});

describe('a Japanese thesis cover, every line in one size', () => {
  // The angle brackets are escaped as the document's XML holds them.
  const refs = [
    '山田太郎, 庭園と霜の記録, 2018',
    'Garden Frost Toolkit documentation',
    '   &lt;https://frost.example.org/docs/&gt;',
    '佐藤花子, 北の谷の花暦, 2016',
    'Valley Archive: open records of frost',
    '&lt;https://archive.example.org/&gt;',
  ];
  const file = () =>
    makeDocx(
      [
        docxLargeParagraph('2023年度春学期　卒業論文'),
        docxLargeParagraph('北の谷の庭園における霜と開花の記録システム'),
        docxLargeParagraph('北谷大学　情報理工学部　情報システム学科'),
        docxLargeParagraph('Y A M A D A   T A R O'),
        docxLargeParagraph('学籍番号：1234567890-1'),
        docxLargeParagraph('指導教員：佐藤一郎教授'),
        paragraph('目次'),
        paragraph('1. はじめに 2', 'TOC1'),
        paragraph('2. 参考文献 9', 'TOC1'),
        paragraph('1. はじめに', 'Heading1'),
        ...prose(3),
        paragraph('参考文献', 'Heading1'),
        ...refs.map((r) => paragraph(r)),
      ],
      [styles],
    );

  it('takes the title, not the kind of thesis or the university, and the letter-spaced name', async () => {
    const result = await parseManuscript(file(), 'thesis.docx', limits);
    expect(result.title).toBe('北の谷の庭園における霜と開花の記録システム');
    expect(result.authors.map((a) => a.name.toLowerCase())).toEqual(['yamada taro']);
  });

  it("joins an entry's URL typed in a paragraph of its own to the entry", async () => {
    const result = await parseManuscript(file(), 'thesis.docx', limits);
    expect(result.references).toHaveLength(4);
    expect(result.references[1]!.raw).toContain('https://frost.example.org/docs/');
  });
});

describe('a Chinese thesis: the title over two lines, the abstract under "摘 要"', () => {
  it('joins the title without a space and reads the abstract up to the keywords', async () => {
    const abstract = '北方山谷的花园比平原的花园开花更晚。本文比较了二十年来的霜冻日期和开花日期。';
    const result = await parseManuscript(
      makeDocx(
        [
          // The kind of thesis in the cover's largest type, over the title.
          sized('硕士学位论文', 72),
          docxLargeParagraph('基于霜冻日期的山谷花园'),
          docxLargeParagraph('开花预测方法研究'),
          paragraph('研究生姓名 ***'),
          // The contents come before the abstract.
          paragraph('目 录', 'TOCHeading'),
          ...Array.from({ length: 14 }, (_, k) => paragraph(`第${k + 1}节 花园 ${k + 1}`, 'TOC1')),
          paragraph('摘 要'),
          paragraph(abstract),
          paragraph('关键词：霜冻，开花，山谷'),
          paragraph('第一章 绪论', 'Heading1'),
          ...prose(3),
        ],
        [styles],
      ),
      'thesis.docx',
      limits,
    );
    expect(result.title).toBe('基于霜冻日期的山谷花园开花预测方法研究');
    expect(result.abstract).toBe(abstract);
  });
});

describe('a cover built of text boxes, the name over the title, a table of contents after it', () => {
  const box = (paragraphs: string) =>
    `<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wps:txbx><w:txbxContent>${paragraphs}</w:txbxContent></wps:txbx></w:drawing></mc:Choice><mc:Fallback><w:pict><v:textbox><w:txbxContent>${paragraphs}</w:txbxContent></v:textbox></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>`;
  const file = () =>
    makeDocx(
      [
        box(sized('Jonas Weber', 28)),
        box(
          sized('Frostdaten und Blütezeiten in Talgärten', 64) +
            sized('Seminar Gartenkunde – Sommer 2021', 22),
        ),
        paragraph('Inhalt', 'TOCHeading'),
        paragraph('Unit Tests 5', 'TOC3'),
        paragraph('Integration Tests, Component Tests 5', 'TOC3'),
        paragraph('1. Einleitung', 'Heading1'),
        ...prose(3),
      ],
      [styles],
    );

  it('reads each box once', async () => {
    const result = await parseManuscript(file(), 'seminar.docx', limits);
    expect(result.title).toBe('Frostdaten und Blütezeiten in Talgärten');
    expect(result.text.match(/Jonas Weber/g)).toHaveLength(1);
  });

  it('takes the name over the title as the author, and no line of the contents', async () => {
    const result = await parseManuscript(file(), 'seminar.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Jonas Weber']);
  });
});

describe('a table on a page of its own between the halves of the list', () => {
  const line = (text: string, x: number, y: number, size = 10, bold = false) => ({ text, size, x, y, bold });
  const entry = (k: number) => [
    `Roe, A., & Quist, B. (20${10 + k}). Frost dates in valley gardens, part ${k}. Journal of`,
    `Cold Gardens, ${k}(2), 1-10.`,
  ];
  const entries = (from: number, to: number, top: number) =>
    Array.from({ length: to - from }, (_, i) => entry(from + i)).flatMap(([a, b], i) => [
      line(a!, 72, top - i * 26),
      line(b!, 84, top - i * 26 - 12),
    ]);
  const pages = () => [
    [
      line('Frost and the Flowering Dates of Valley Gardens', 72, 780, 16, true),
      line('Alma Quist and Bruno Tell', 72, 760, 11),
      line('Abstract', 72, 730, 12, true),
      ...bodyProse(712, 6),
      line('1 Introduction', 72, 620, 12, true),
      ...bodyProse(602, 10),
      line('References', 72, 460, 12, true),
      ...entries(1, 4, 442),
    ],
    [
      line('Table A1: Conditions of the frost counts for each garden', 72, 780),
      line('Valley', 72, 760, 10, true),
      line('Site Sensor Height', 72, 744, 8),
      line('North 1 2.5 South 2 1.5 East 3 4.5', 72, 732, 8),
      line('Plain', 72, 712, 10, true),
      line('Site Sensor Height', 72, 696, 8),
      line('West 4 0.5 Delta 5 3.5', 72, 684, 8),
    ],
    [...entries(4, 8, 780)],
  ];

  it('reads the entries on both sides of the table', async () => {
    const result = await parseManuscript(makeTextPdf(pages()), 'table.pdf', limits);
    expect(result.references).toHaveLength(7);
  });

  it('still ends the list at a section of prose after a table', async () => {
    const [first, table, last] = pages();
    const prosePage = [...table!, line('Appendix Notes', 72, 660, 10, true), ...bodyProse(640, 8)];
    const result = await parseManuscript(makeTextPdf([first!, prosePage, last!]), 'table.pdf', limits);
    expect(result.references).toHaveLength(3);
  });
});
