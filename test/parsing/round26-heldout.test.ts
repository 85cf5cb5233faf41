// Layouts met in the twenty-fourth held-out set, fixed in the twenty-sixth round.
// Names, titles and texts are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeDocx, makeTextPdf, paragraph, piecesOnOneLine, textLine } from './make-files.ts';

const limits = testConfig().parsing;

/** A paragraph of one run at a size in half-points, bold when asked (a cover set by hand). */
const sizedRun = (text: string, halfPoints: number, bold = false) =>
  `<w:p><w:r><w:rPr>${bold ? '<w:b/>' : ''}<w:sz w:val="${halfPoints}"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

const prose = (n: number, word = 'Абзац') =>
  Array.from({ length: n }, (_, i) =>
    paragraph(
      `${word} ${i + 1} подробно описывает метод, данные и результаты этого исследования на нескольких строках текста.`,
    ),
  );

describe('a Ukrainian reference list ("Список літератури")', () => {
  const file = () =>
    makeDocx([
      paragraph('Виявлення птахів за звуком крил', 'Title'),
      ...prose(6),
      paragraph('Список літератури', 'Heading2'),
      paragraph(
        'Коваль, О. (2021), "Звуки крил", Журнал акустики, vol. 3, pp. 1–9, doi: 10.1234/wing.2021.3',
      ),
      paragraph('Марченко, П. (2019), "Птахи і мікрофони", Вісник, vol. 7, pp. 20–31.'),
      paragraph(
        'Rossi, L. (2020), "Bird sounds", Acoustics Letters, vol. 5, pp. 4–8, doi: 10.5678/bs.2020.5',
      ),
    ]);

  it('is read as the reference list', async () => {
    const result = await parseManuscript(file(), 'stattia.docx', limits);
    expect(result.references).toHaveLength(3);
    expect(result.references.map((r) => r.doi).filter(Boolean)).toEqual([
      '10.1234/wing.2021.3',
      '10.5678/bs.2020.5',
    ]);
  });
});

describe('a Russian graduation-work cover: two kinds of work on one line, the roles labelled', () => {
  const cover = (student: string[]) =>
    makeDocx([
      sizedRun('Министерство образования', 24),
      sizedRun('Северный технический университет', 22),
      sizedRun('Работа допущена к защите', 28),
      sizedRun('ВЫПУСКНАЯ КВАЛИФИКАЦИОННАЯ РАБОТА РАБОТА БАКАЛАВРА', 28, true),
      sizedRun('УЛУЧШЕНИЕ СНИМКОВ ЛЕСА С ПОМОЩЬЮ ФИЛЬТРОВ ШУМА', 28, true),
      sizedRun('по направлению подготовки 01.02.03 – «Радиотехника»', 28),
      ...student.map((s) => sizedRun(s, 28)),
      sizedRun('Научный руководитель', 28),
      sizedRun('доцент кафедры, к.т.н. Г.Д. Сорокин', 28),
      sizedRun('Город', 28),
      ...prose(8),
    ]);

  it('takes the subject for the title and the name closing the student’s line for the author', async () => {
    const result = await parseManuscript(
      cover(['Выполнил', 'студент гр. 1234567/89012 А.Б. Смирнов']),
      'vkr.docx',
      limits,
    );
    expect(result.title).toBe('УЛУЧШЕНИЕ СНИМКОВ ЛЕСА С ПОМОЩЬЮ ФИЛЬТРОВ ШУМА');
    expect(result.authors.map((a) => a.name)).toEqual(['А.Б. Смирнов']);
  });

  it('reads the label run in before the group and the name on one line', async () => {
    const result = await parseManuscript(
      cover(['Выполнила студентка гр. 1234567/89012 Е.К. Лебедева']),
      'vkr.docx',
      limits,
    );
    expect(result.authors.map((a) => a.name)).toEqual(['Е.К. Лебедева']);
  });
});

describe('a cover in capitals under the line naming the kind of work (PDF, all in the body’s size)', () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'Ministry of Higher Learning', size: 10, x: 180, y: 760 },
        { text: 'Northern Technical University', size: 10, x: 180, y: 746 },
        { text: 'BACHELOR THESIS', size: 10, x: 230, y: 640, bold: true },
        { text: 'BETTER FOREST PHOTOGRAPHS', size: 10, x: 200, y: 600, bold: true },
        { text: 'THROUGH NOISE FILTERING', size: 10, x: 200, y: 586, bold: true },
        { text: 'WITH DEEP NEURAL NETWORKS', size: 10, x: 200, y: 572, bold: true },
        { text: 'Northern City', size: 10, x: 250, y: 200 },
      ],
      [...bodyProse(740, 40)],
    ]);

  it('takes the capitals for the title, not for names', async () => {
    const result = await parseManuscript(file(), 'thesis.pdf', limits);
    expect(result.title).toBe('BETTER FOREST PHOTOGRAPHS THROUGH NOISE FILTERING WITH DEEP NEURAL NETWORKS');
    expect(result.authors).toEqual([]);
  });
});

describe('a Chinese graduation-design cover: fields labelled, the author over the title', () => {
  const zhProse = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      paragraph(`第${i + 1}段正文详细介绍了本文的方法、数据和实验结果，以及它们的意义和不足之处。`),
    );

  it('reads the title under "题 目:" and the author under "作 者:", the supervisor’s field apart', async () => {
    const result = await parseManuscript(
      makeDocx([
        sizedRun('毕业设计说明书', 72, true),
        sizedRun('作 者:', 32, true),
        sizedRun('王小明', 32),
        sizedRun('学 院:', 32, true),
        sizedRun('信息工程学院', 32),
        sizedRun('题 目:', 32, true),
        sizedRun('基于图模型的城市交通预测', 32),
        sizedRun('指导者： 李四海 教授', 32),
        sizedRun('2020 年 5 月', 36),
        ...zhProse(8),
      ]),
      'biye.docx',
      limits,
    );
    expect(result.title).toBe('基于图模型的城市交通预测');
    expect(result.authors.map((a) => a.name)).toEqual(['王小明']);
  });

  it('reads a cover that sets its labels in one column, their values in the next', async () => {
    const result = await parseManuscript(
      makeDocx([
        sizedRun('毕业设计说明书', 72, true),
        sizedRun('作 者: 王小明 学 号： 912345678', 32, true),
        sizedRun('学 院:', 32, true),
        sizedRun('专业(方向):', 32, true),
        sizedRun('题 目:', 32, true),
        sizedRun('信息工程学院', 32, true),
        sizedRun('智能科学与技术', 32, true),
        sizedRun('基于图模型的城市交通预测', 32, true),
        sizedRun('指导者： 李四海', 32, true),
        ...zhProse(8),
      ]),
      'biye.docx',
      limits,
    );
    expect(result.title).toBe('基于图模型的城市交通预测');
    expect(result.authors.map((a) => a.name)).toEqual(['王小明']);
  });
});

describe('a drop cap opening the first paragraph (AIAA: the letter set over two lines)', () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'Hydrogen Gliders for Quiet Regional Flights', size: 16, x: 120, y: 740, bold: true },
        { text: 'Alma Q. Roe and Ben T. Doe', size: 10, x: 230, y: 716 },
        { text: 'I. Introduction', size: 12, x: 260, y: 690, bold: true },
        // The cap stands on the second line's baseline, left of both lines.
        { text: 'Q', size: 24, x: 72, y: 656 },
        textLine(
          'uiet flight over towns is wanted by all who live under the busy routes of regional planes.',
          668,
          10,
          { x: 92 },
        ),
        textLine(
          'Gliders drawn by hydrogen cells may give it, and this paper weighs what they would cost.',
          656,
          10,
          { x: 92 },
        ),
        ...bodyProse(640, 40),
      ],
    ]);

  it('joins the letter to the first word and takes no paragraph for the title', async () => {
    const result = await parseManuscript(file(), 'aiaa.pdf', limits);
    expect(result.title).toBe('Hydrogen Gliders for Quiet Regional Flights');
    expect(result.text).toContain('Quiet flight over towns');
  });
});

describe('a column of bold names, each with its raised mark and a homepage or email under it (BMVC)', () => {
  const person = (name: string, mark: string, contact: string, y: number) => [
    ...piecesOnOneLine([{ text: name }, { text: mark, sup: true }], y, 10, { bold: true }),
    { text: contact, size: 9, x: 72, y: y - 12, bold: true },
  ];
  const file = () =>
    makeTextPdf([
      [
        { text: 'Counting Sheep in Aerial Photographs', size: 17, x: 120, y: 740, bold: true },
        ...person('Nora Field', '1', 'http://www.example.org/~nf', 700),
        ...person('Omar Lake', '1', 'http://www.example.org/~ol', 672),
        ...person('Pia Stone', '2', 'pia@stone-labs.com', 644),
        { text: '1 Institute of Seeing, Hill Town, UK', size: 10, x: 72, y: 616, bold: true },
        { text: '2 Stone Labs Ltd., Port City, USA', size: 10, x: 72, y: 604, bold: true },
        { text: 'Abstract', size: 9, x: 280, y: 580, bold: true },
        ...bodyProse(565, 6),
        { text: '1 Introduction', size: 14, x: 72, y: 490, bold: true },
        ...bodyProse(470, 30),
      ],
    ]);

  it('reads every name without its mark, and the email to its name', async () => {
    const result = await parseManuscript(file(), 'bmvc.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Nora Field', 'Omar Lake', 'Pia Stone']);
    expect(result.authors[2]!.emails).toEqual(['pia@stone-labs.com']);
  });
});

describe('a Russian thesis abstract: its extent and keywords first, then an English one after it', () => {
  const english = [
    'The subject of this work is photographs of forests taken from the air.',
    'Several small networks were trained to remove the grain from such photographs, and compared with the classical filters.',
  ];
  const file = () =>
    makeDocx([
      sizedRun('ВЫПУСКНАЯ КВАЛИФИКАЦИОННАЯ РАБОТА', 28, true),
      sizedRun('УЛУЧШЕНИЕ СНИМКОВ ЛЕСА С ПОМОЩЬЮ ФИЛЬТРОВ ШУМА', 28, true),
      sizedRun('Выполнил', 28),
      sizedRun('студент гр. 1234567/89012 А.Б. Смирнов', 28),
      ...prose(6, 'Пункт задания'),
      sizedRun('РЕФЕРАТ', 28, true),
      paragraph('На 40 с., 12 рисунков, 5 таблиц, 0 приложений.'),
      paragraph('КЛЮЧЕВЫЕ СЛОВА: СНИМОК ЛЕСА, ШУМ, ФИЛЬТР, НЕЙРОННАЯ СЕТЬ'),
      paragraph('Объект исследования – снимки леса с воздуха.'),
      paragraph('Результатом является обученная модель, которая удаляет шум со снимков.'),
      sizedRun('ABSTRACT', 28, true),
      paragraph('40 pages, 12 pictures, 5 tables, 0 appendixes'),
      paragraph('KEYWORDS: FOREST PHOTOGRAPH, NOISE, FILTER,'),
      paragraph('NEURAL NETWORK, DEEP LEARNING'),
      ...english.map((t) => paragraph(t)),
      sizedRun('СОДЕРЖАНИЕ', 28, true),
      ...prose(10),
    ]);

  it('keeps the English prose, without the extent and keywords lines', async () => {
    const result = await parseManuscript(file(), 'vkr.docx', limits);
    expect(result.abstract).toBe(english.join('\n\n'));
  });
});

describe('an abstract whose block ends in its keywords line, a word broken over two lines (Interspeech)', () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'Hydrogen Gliders for Quiet Regional Flights', size: 16, x: 120, y: 740, bold: true },
        { text: 'Alma Q. Roe, Ben T. Doe', size: 12, x: 230, y: 716, bold: true },
        { text: 'Abstract', size: 12, x: 72, y: 680, bold: true },
        { text: 'Gliders are quiet and cheap to fly over the towns of the re-', size: 10, x: 72, y: 664 },
        { text: 'gion, and this paper weighs the cost of hydrogen for them.', size: 10, x: 72, y: 652 },
        { text: 'Index Terms: gliders, hydrogen, noise', size: 10, x: 72, y: 640 },
        { text: '1. Introduction', size: 12, x: 72, y: 612, bold: true },
        ...bodyProse(596, 40),
      ],
    ]);

  it('joins the broken word and leaves the keywords out', async () => {
    const result = await parseManuscript(file(), 'interspeech.pdf', limits);
    expect(result.abstract).toBe(
      'Gliders are quiet and cheap to fly over the towns of the region, and this paper weighs the cost of hydrogen for them.',
    );
  });
});

describe('a line that opens with a role word but no colon ("Student Flight Club")', () => {
  const file = () =>
    makeDocx([
      paragraph('Quiet Gliders over Northern Towns', 'Title'),
      paragraph('Alma Roe, Ben Doe'),
      paragraph('Northern Institute of Flight, Hill Town'),
      paragraph('Student Flight Club'),
      paragraph('Abstract', 'Heading1'),
      paragraph(
        'Gliders are quiet and cheap to fly over the towns of the region, and this paper weighs them.',
      ),
      paragraph('Introduction', 'Heading1'),
      paragraph('Screens of candidate routes are described here at length, with their data and results.'),
    ]);

  it('is no cover’s student label: the byline is read', async () => {
    const result = await parseManuscript(file(), 'paper.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Alma Roe', 'Ben Doe']);
  });
});
