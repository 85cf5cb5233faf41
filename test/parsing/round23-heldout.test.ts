// Layouts met in the twenty-first held-out set, fixed in the twenty-third round.
// Names, titles and DOIs are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeDocx, makeTextPdf, paragraph, paragraphStyles } from './make-files.ts';

const limits = testConfig().parsing;

/** A styles part with Word's Title and its first, second and fifth heading levels. */
const headingStyles = paragraphStyles([
  ['Title', 'Title'],
  ['Heading1', 'heading 1'],
  ['Heading2', 'heading 2'],
  ['Heading5', 'heading 5'],
]);

/** Helvetica's advance widths (thousandths of the size), for pieces set edge to edge on a line. */
const ADVANCE: Record<string, number> = {
  ' ': 278,
  ',': 278,
  '.': 278,
  '-': 333,
  f: 278,
  i: 222,
  j: 222,
  l: 222,
  r: 333,
  t: 278,
  m: 833,
  w: 722,
  c: 500,
  k: 500,
  s: 500,
  v: 500,
  x: 500,
  y: 500,
  z: 500,
  I: 278,
  J: 500,
  M: 833,
  W: 944,
};
const advance = (text: string, size: number) =>
  ([...text].reduce((w, c) => w + (ADVANCE[c] ?? (/\p{Lu}/u.test(c) ? 700 : 556)), 0) * size) / 1000;

/** A line of pieces, each raised and smaller where `sup` (a byline's marks), set edge to edge. */
function setLine(pieces: { text: string; sup?: boolean }[], y: number, size: number) {
  let x = 72;
  return pieces.map((p) => {
    const s = p.sup ? size * 0.7 : size;
    const line = { text: p.text, size: s, x, y: p.sup ? y + size * 0.35 : y };
    x += advance(p.text, s);
    return line;
  });
}

describe('an A&A byline of forty-four marked names after a collaboration’s name', () => {
  const first = ['Al', 'Bartholomew', 'Cy', 'Dana', 'Edith', 'Fe', 'Greta', 'Hugo', 'Ines', 'Jo', 'Karla'];
  const last = ['Quist', 'Tellerman', 'Vane', 'Roe-Pellegrini'];
  const people = first.flatMap((f, k) => last.map((l, j) => `${f} ${'ABCDEFGHIJKLM'[(k + j) % 13]}. ${l}`));
  // Four names to a line, each with its marks raised after it, a comma after the marks.
  const pieces = [
    { text: 'The Garden Collaboration, ' },
    ...people.flatMap((name, k) => [
      { text: `${k === people.length - 1 ? 'and ' : ''}${name}` },
      { text: String((k % 9) + 1), sup: true },
      ...(k < people.length - 1 ? [{ text: ', ' }] : []),
    ]),
  ];
  const lines: { text: string; sup?: boolean }[][] = [];
  for (let k = 0, at = 0; k < 12; k++) {
    const take = k === 0 ? 7 : 12;
    lines.push(pieces.slice(at, at + take));
    at += take;
  }
  const file = () =>
    makeTextPdf([
      [
        { text: 'Garden Notes manuscript no. frost', size: 8, x: 72, y: 800 },
        { text: 'Frost: A Community Package for Valley Gardens', size: 17, x: 72, y: 760, bold: true },
        ...lines.filter((l) => l.length).flatMap((l, k) => setLine(l, 730 - k * 12, 10)),
        ...Array.from({ length: 9 }, (_, k) => ({
          text: `${k + 1} Institute of Valley Gardens, Orchard Road ${k + 1}, Northvale`,
          size: 8,
          x: 72,
          y: 570 - k * 10,
        })),
        { text: 'ABSTRACT', size: 9, x: 72, y: 470, bold: true },
        ...bodyProse(455, 5).map((l) => ({ ...l, size: 9 })),
        { text: '1. Introduction', size: 11, x: 72, y: 380, bold: true },
        ...bodyProse(365, 10),
      ],
    ]);

  it('reads every name of the long byline, and not the collaboration', async () => {
    const result = await parseManuscript(file(), 'aa.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(people);
  });
});

describe('a French mémoire whose cover breaks the title into two paragraphs in capitals', () => {
  /** A paragraph of one run in a size of its own (half-points, as Word writes it). */
  const sized = (text: string, halfPoints: number, bold = false) =>
    `<w:p><w:r><w:rPr>${bold ? '<w:b/>' : ''}<w:sz w:val="${halfPoints}"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
  const file = () =>
    makeDocx([
      sized('GELÉES ET FLORAISON', 48),
      sized('DANS LES JARDINS DES VALLÉES DU NORD', 48),
      sized('Mémoire de fin d’études d’Alma QUIST, juin 2021', 32, true),
      sized('Diplôme d’ingénieur horticole,', 32),
      sized('École des jardins de Valnord', 32),
      sized('Bruno TELL – Tuteur pédagogique, Valnord', 32),
      paragraph('Remerciements', 'Heading1'),
      paragraph('Je remercie toutes les personnes qui m’ont accompagnée durant mes études.'),
      paragraph('Introduction', 'Heading1'),
      paragraph(
        'Les jardins des vallées du nord fleurissent tard, et leurs gelées varient d’une année à l’autre.',
      ),
    ]);

  it('takes both paragraphs for the title, though the second is the longer', async () => {
    const result = await parseManuscript(file(), 'memoire.docx', limits);
    expect(result.title).toBe('GELÉES ET FLORAISON DANS LES JARDINS DES VALLÉES DU NORD');
  });

  it('takes the name in the line that says what the document is for the author, not the tutor', async () => {
    const result = await parseManuscript(file(), 'memoire.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Alma QUIST']);
  });
});

describe('a Word list whose numbers are paragraphs of their own in a heading style', () => {
  const entries = [
    '« Roe - 2016 - Gelées des vallées.pdf ». Consulté le 17 août 2020. https://example.org/gelees.pdf.',
    'Poe, Bruno. « Frost Dates in Valley Gardens ». Garden Letters 12, no 2 (2019): 40-52. https://doi.org/10.5555/frost.2019.12.',
    'Tell, Cyril, et Alma Quist. « Snow Cover and Bloom ». Journal of Cold Gardens 3 (2020): 1-10. https://doi.org/10.5555/snow.2020.3.',
    '« Floraison ». In Wikipédia, 27 août 2019. https://fr.example.org/wiki/Floraison.',
  ];
  const file = () =>
    makeDocx(
      [
        paragraph('Gelées et floraison dans les jardins des vallées du nord', 'Title'),
        paragraph('Introduction', 'Heading1'),
        paragraph(
          'Les jardins des vallées du nord fleurissent tard, et leurs gelées varient d’une année à l’autre.',
        ),
        paragraph('Bibliographie', 'Heading1'),
        ...entries.flatMap((e, k) => [paragraph(String(k + 1), 'Heading5'), paragraph(e)]),
        paragraph('Annexes', 'Heading1'),
        paragraph('Tableau 1 : dates de gel par vallée.'),
      ],
      [headingStyles],
    );

  it('reads every entry under its number, and the list to its end', async () => {
    const result = await parseManuscript(file(), 'memoire.docx', limits);
    expect(result.references.map((r) => r.raw)).toEqual(entries);
    expect(result.references.map((r) => r.doi)).toEqual([
      null,
      '10.5555/frost.2019.12',
      '10.5555/snow.2020.3',
      null,
    ]);
  });
});

describe('the same list read back from its PDF, each number alone on its line', () => {
  const line = (text: string, y: number, size = 10, bold = false) => ({ text, size, x: 72, y, bold });
  const entries: [string, string][] = [
    ['« Roe - 2016 - Gelees des vallees.pdf ». Consulte le 17 aout 2020.', 'https://example.org/gelees.pdf.'],
    [
      'Poe, Bruno. « Frost Dates in Valley Gardens ». Garden Letters 12, no 2',
      '(2019): 40-52. https://doi.org/10.5555/frost.2019.12.',
    ],
    [
      'Tell, Cyril, et Alma Quist. « Snow Cover and Bloom ». Journal of Cold',
      'Gardens 3 (2020): 1-10. https://doi.org/10.5555/snow.2020.3.',
    ],
    ['« Floraison ». In Wikipedia, 27 aout 2019.', 'https://fr.example.org/wiki/Floraison.'],
  ];
  const file = () =>
    makeTextPdf([
      [
        line('Frost and Flowering in the Gardens of the Northern Valleys', 780, 16, true),
        line('Introduction', 740, 12, true),
        ...bodyProse(722, 8),
        line('Bibliographie', 600, 14, true),
        ...entries.flatMap(([a, b], k) => [
          line(String(k + 1), 580 - k * 52, 11, true),
          line(a, 566 - k * 52),
          line(b, 553 - k * 52),
        ]),
      ],
    ]);

  it('opens an entry at each number, and leaves the number out of it', async () => {
    const result = await parseManuscript(file(), 'memoire.pdf', limits);
    expect(result.references.map((r) => r.raw)).toEqual(entries.map(([a, b]) => `${a} ${b}`));
  });
});

describe('an abstract given in two languages, each under a heading naming it', () => {
  const french =
    'Ce mémoire étudie les dates de gel et de floraison des jardins des vallées du nord. Il montre que les gelées tardives retardent la floraison de plusieurs semaines.';
  const file = () =>
    makeDocx(
      [
        paragraph('Gelées et floraison dans les jardins des vallées du nord', 'Title'),
        paragraph('Abstract', 'Heading1'),
        paragraph('Français', 'Heading2'),
        paragraph(french),
        paragraph('English', 'Heading2'),
        paragraph(
          'This thesis studies the frost and flowering dates of the gardens of the northern valleys.',
        ),
        paragraph('Introduction', 'Heading1'),
        paragraph(
          'Les jardins des vallées du nord fleurissent tard, et leurs gelées varient d’une année à l’autre.',
        ),
      ],
      [headingStyles],
    );

  it('reads the paragraph under the first language’s heading', async () => {
    const result = await parseManuscript(file(), 'memoire.docx', limits);
    expect(result.abstract).toBe(french);
  });
});

/** A paragraph of one run in a size of its own (half-points, as Word writes it), bold or not. */
const sizedRun = (text: string, halfPoints: number, bold = false) =>
  `<w:p><w:r><w:rPr>${bold ? '<w:b/>' : ''}<w:sz w:val="${halfPoints}"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

describe('a Polish diploma cover whose largest line names the kind of work', () => {
  const file = () =>
    makeDocx([
      sizedRun('WYDZIAŁ OGRODNICTWA', 24, true),
      sizedRun('Pracownia Zastosowań Ogrodnictwa', 24),
      sizedRun('Projekt dyplomowy', 48),
      sizedRun('Porównanie dat przymrozków i kwitnienia w ogrodach północnych dolin', 34),
      sizedRun('Comparison of Frost and Flowering Dates in the Gardens of the Northern Valleys', 24),
      sizedRun('Autor: Alma Kwiatek', 24),
      sizedRun('Opiekun pracy: dr Bruno Tell', 24),
      sizedRun('Kraków, 2024', 24),
      paragraph('Wstęp', 'Heading1'),
      paragraph('Ogrody północnych dolin kwitną późno, a daty przymrozków zmieniają się z roku na rok.'),
    ]);

  it('takes the title under that line, not the line itself', async () => {
    const result = await parseManuscript(file(), 'praca.docx', limits);
    expect(result.title).toBe('Porównanie dat przymrozków i kwitnienia w ogrodach północnych dolin');
  });
});

describe('a Vietnamese thesis cover: "ĐỀ TÀI" over the title, the acknowledgements’ heading larger', () => {
  const cover = [
    sizedRun('TRƯỜNG ĐẠI HỌC VƯỜN BẮC', 30, true),
    sizedRun('KHOA NÔNG HỌC VÀ CÔNG NGHỆ SINH HỌC ỨNG DỤNG', 30, true),
    sizedRun('CHUYÊN NGÀNH LÀM VƯỜN', 30, true),
    sizedRun('LUẬN VĂN TỐT NGHIỆP ĐẠI HỌC NGÀNH LÀM VƯỜN', 30, true),
    sizedRun('ĐỀ TÀI', 30, true),
    sizedRun('NGÀY SƯƠNG GIÁ VÀ NGÀY RA HOA CỦA CÁC KHU VƯỜN Ở THUNG LŨNG PHÍA BẮC', 32, true),
    sizedRun('Sinh viên thực hiện: Cán bộ hướng dẫn', 28, true),
    sizedRun('MSSV: B1800000', 28, true),
    sizedRun('Ngành: Làm vườn', 28, true),
    sizedRun('Khóa: 44', 28, true),
    sizedRun('Mã lớp: VB1800A1', 28, true),
    sizedRun('Học kỳ: 1', 28, true),
    sizedRun('Năm học: 2022 – 2023', 28, true),
  ];
  const file = () =>
    makeDocx(
      [
        ...cover,
        ...cover,
        paragraph('LỜI CẢM ƠN', 'Heading1'),
        paragraph('Đầu tiên, em xin cảm ơn các thầy cô đã tạo điều kiện cho em học tập và nghiên cứu.'),
      ],
      [headingStyles],
    );

  it('takes the line after the label for the title', async () => {
    const result = await parseManuscript(file(), 'luanvan.docx', limits);
    expect(result.title).toBe('NGÀY SƯƠNG GIÁ VÀ NGÀY RA HOA CỦA CÁC KHU VƯỜN Ở THUNG LŨNG PHÍA BẮC');
  });

  it('reads no author from the label or from the school’s lines', async () => {
    const result = await parseManuscript(file(), 'luanvan.docx', limits);
    expect(result.authors).toEqual([]);
  });
});

describe('a Korean paper printing its title and byline in Korean, then in English, in one type', () => {
  const run = (text: string, sup = false) =>
    `<w:r><w:rPr>${sup ? '<w:vertAlign w:val="superscript"/>' : ''}<w:b/><w:sz w:val="28"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r>`;
  const byline = (a: string, b: string) =>
    `<w:p>${run(a)}${run('1', true)}${run(`, ${b}`)}${run('2', true)}</w:p>`;
  const file = () =>
    makeDocx([
      sizedRun('북쪽 계곡 정원의 서리와 개화 시기', 40, true),
      byline('Alma Quist', 'Bruno Tell'),
      sizedRun('1, 2 북쪽 정원 연구소', 28, true),
      sizedRun('Frost and Flowering Dates', 40, true),
      sizedRun('in the Gardens of the Northern Valleys', 40, true),
      byline('Alma Quist', 'Bruno Tell'),
      sizedRun('1, 2 Northern Garden Institute, Valley Road, Northvale', 28, true),
      paragraph('1. 서론', 'Heading1'),
      paragraph('북쪽 계곡의 정원은 늦게 꽃이 피며, 서리 날짜는 해마다 다르다.'),
    ]);

  it('takes the first title, in the document’s language', async () => {
    const result = await parseManuscript(file(), 'nonmun.docx', limits);
    expect(result.title).toBe('북쪽 계곡 정원의 서리와 개화 시기');
  });
});

describe('a surname with its elided particle glued before it', () => {
  const file = () =>
    makeDocx([
      paragraph('Frost and Flowering Dates in the Gardens of the Northern Valleys', 'Title'),
      paragraph('Alma Quist and Florence d’Aubert-Vallée'),
      paragraph('Abstract', 'Heading1'),
      paragraph('This paper follows the frost and flowering dates of the gardens of the northern valleys.'),
      paragraph('Introduction', 'Heading1'),
      paragraph(
        'The gardens of the northern valleys flower late, and their frost dates vary from year to year.',
      ),
    ]);

  it('reads "d’Aubert-Vallée" as a surname', async () => {
    const result = await parseManuscript(file(), 'paper.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Alma Quist', 'Florence d’Aubert-Vallée']);
  });
});
