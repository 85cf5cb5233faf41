// Layouts met in the thirty-fifth held-out set (Word theses and papers in Greek, Vietnamese,
// Ukrainian, Polish and Korean), fixed in the thirty-seventh round. Names, titles and identifiers
// are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { docxParagraph, docxRun, makeDocx, paragraph, wordBodyParagraphs } from './make-files.ts';

const limits = testConfig().parsing;

/** A paragraph of one run in `halfPoints` type (Word's unit), in bold when asked: a cover's line. */
const sized = (text: string, halfPoints: number, bold = false) =>
  `<w:p><w:r><w:rPr>${bold ? '<w:b/>' : ''}<w:sz w:val="${halfPoints}"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

const names = (result: { authors: { name: string }[] }) => result.authors.map((a) => a.name.toLowerCase());

describe("a cover's institution banner broken into lines in capitals, set larger than the title", () => {
  const file = () =>
    makeDocx([
      sized('UNIWERSYTET', 40),
      sized('ROLNICZO–TECHNICZNY', 40),
      sized('W GÓRNEJ WSI', 40),
      sized('WYDZIAŁ NAUK O ZIEMI', 36),
      sized('Kierunek GEOGRAFIA', 32),
      sized('Jan Kowal', 32),
      sized('MAPY OPADÓW W DOLINIE RZEKI NA PODSTAWIE POMIARÓW Z TRZECH STACJI', 36),
      sized('Praca inżynierska napisana w Instytucie Geografii', 28),
      sized('Górna Wieś, 2023', 36),
      ...wordBodyParagraphs(8),
    ]);

  it("takes the title under the banner, not the banner's last lines", async () => {
    const result = await parseManuscript(file(), 'praca.docx', limits);
    expect(result.title).toBe('MAPY OPADÓW W DOLINIE RZEKI NA PODSTAWIE POMIARÓW Z TRZECH STACJI');
  });
});

describe('a Greek cover: the university, school and department in capitals over the title', () => {
  const file = () =>
    makeDocx([
      sized('ΠΑΝΕΠΙΣΤΗΜΙΟ ΟΡΕΙΝΗΣ ΧΩΡΑΣ', 56, true),
      sized('ΣΧΟΛΗ ΘΕΤΙΚΩΝ ΕΠΙΣΤΗΜΩΝ', 36, true),
      sized('ΤΜΗΜΑ ΧΗΜΕΙΑΣ', 32, true),
      sized('ΕΡΓΑΣΤΗΡΙΟ ΑΝΑΛΥΤΙΚΗΣ ΧΗΜΕΙΑΣ', 32, true),
      sized('«Μέτρηση του νερού της βροχής σε τρεις σταθμούς του βουνού»', 40, true),
      sized('ΜΑΡΙΑ ΠΑΠΑΔΗΜΑ', 32, true),
      ...wordBodyParagraphs(8),
    ]);

  it('reads the title under them and takes none of them for a name', async () => {
    const result = await parseManuscript(file(), 'ptyxiaki.docx', limits);
    expect(result.title).toBe('Μέτρηση του νερού της βροχής σε τρεις σταθμούς του βουνού');
    expect(names(result)).toEqual(['μαρια παπαδημα']);
  });
});

describe("a cover's supervisor under the label over them, after the student's name", () => {
  const file = () =>
    makeDocx([
      sized('Μέτρηση του νερού της βροχής σε τρεις σταθμούς', 40, true),
      sized('Διπλωματική Εργασία της Φοιτήτριας', 28, true),
      sized('ΜΑΡΙΑ ΠΑΠΑΔΗΜΑ', 32, true),
      sized('Επιβλέπων', 24, true),
      sized('Νίκος Αντωνίου', 24, true),
      sized('Καθηγητής', 24, true),
      ...wordBodyParagraphs(8),
    ]);

  it('takes the student and not the supervisor', async () => {
    const result = await parseManuscript(file(), 'diplomatiki.docx', limits);
    expect(names(result)).toEqual(['μαρια παπαδημα']);
  });
});

describe('students named after their label and a colon on one line of a cover', () => {
  it('reads each name of a Greek "Φοιτητές:" line, surname first, and no cover line', async () => {
    const file = makeDocx([
      sized('Αυτόματη ρύθμιση δικτύων με εργαλεία ανοιχτού κώδικα', 36, true),
      sized('Πτυχιακή Εργασία', 32, true),
      sized('Φοιτητές: Ιωάννου Γιώργος, Νικολάου Ελένη-Μαρία', 32, true),
      sized('ΑΜ: 1201, 1202', 28, true),
      sized('Επιβλέπων Καθηγητής', 24),
      sized('Αντωνίου Νίκος', 24, true),
      sized('Εργαστηριακή Συνεργάτης', 24, true),
      ...wordBodyParagraphs(8),
    ]);
    const result = await parseManuscript(file, 'ptyxiaki.docx', limits);
    expect(names(result)).toEqual(['ιωάννου γιώργος', 'νικολάου ελένη-μαρία']);
  });

  it('reads a Vietnamese cover\'s "Người thực hiện:" and the next student under it, numbers cut', async () => {
    const file = makeDocx([
      sized('TRƯỜNG ĐẠI HỌC MIỀN NÚI', 26),
      sized('KHOA KỸ THUẬT', 26, true),
      sized('ĐỒ ÁN TỐT NGHIỆP', 30, true),
      sized('XÂY DỰNG ỨNG DỤNG ĐO MƯA CHO BA TRẠM QUAN TRẮC', 44, true),
      sized('Người hướng dẫn: Thầy LÊ VĂN BA', 26),
      sized('Người thực hiện: PHẠM THỊ HOA – MSSV: 51400001', 26),
      sized('ĐỖ MINH QUÂN – MSSV: 51400002', 26, true),
      sized('Khoá : 18', 26),
      ...wordBodyParagraphs(8),
    ]);
    const result = await parseManuscript(file, 'doan.docx', limits);
    expect(result.title).toBe('XÂY DỰNG ỨNG DỤNG ĐO MƯA CHO BA TRẠM QUAN TRẮC');
    expect(names(result)).toEqual(['phạm thị hoa', 'đỗ minh quân']);
  });
});

describe('a Ukrainian cover naming its student in the genitive under the kind of work', () => {
  const file = () =>
    makeDocx([
      paragraph('Гірський національний університет'),
      paragraph('Кафедра гідрології'),
      docxParagraph(docxRun('Вимірювання опадів у трьох гірських долинах')),
      paragraph('Кваліфікаційна робота бакалавра'),
      paragraph('студента 4 року навчання'),
      paragraph('географічного факультету'),
      paragraph('Івана ПЕТРЕНКА'),
      paragraph('Науковий керівник'),
      paragraph('доц. Олег СИДОРЕНКО'),
      ...wordBodyParagraphs(8),
    ]);

  it("takes the name under the student's line, not the supervisor's", async () => {
    const result = await parseManuscript(file(), 'dyplom.docx', limits);
    expect(names(result)).toEqual(['івана петренка']);
  });
});

describe('a Vietnamese abstract under "TÓM TẮT"', () => {
  const file = () =>
    makeDocx([
      sized('XÂY DỰNG ỨNG DỤNG ĐO MƯA CHO BA TRẠM QUAN TRẮC', 44, true),
      paragraph('Người thực hiện: PHẠM THỊ HOA – MSSV: 51400001'),
      paragraph('TÓM TẮT', 'Heading1'),
      paragraph(
        'Đồ án này trình bày một ứng dụng đo lượng mưa cho ba trạm quan trắc trên núi và so sánh kết quả với số liệu của các trạm lân cận.',
      ),
      paragraph('MỤC LỤC', 'Heading1'),
      ...wordBodyParagraphs(8),
    ]);

  it('reads the paragraph under the label as the abstract', async () => {
    const result = await parseManuscript(file(), 'doan-tomtat.docx', limits);
    expect(result.abstract).toBe(
      'Đồ án này trình bày một ứng dụng đo lượng mưa cho ba trạm quan trắc trên núi và so sánh kết quả với số liệu của các trạm lân cận.',
    );
  });
});

describe('a numbered list of links, one number typed right against its link', () => {
  const file = () =>
    makeDocx([
      sized('Measuring Rain in Three Mountain Valleys', 36, true),
      paragraph('Ivan Petrenko'),
      ...wordBodyParagraphs(8),
      paragraph('REFERENCES', 'Heading1'),
      paragraph('1. Doe, Jane. "Rain in the Hills." (2017)'),
      paragraph('2. https://example.org/articles/rain-gauges/'),
      paragraph('3.https://example.org/index.php/gauges/item/401-what-a-gauge-is'),
      paragraph('4. https://example.net/wiki/gauges/tipping-bucket/'),
      paragraph('5. https://example.com/blog/rain_26'),
    ]);

  it('counts the glued entry as an entry of its own', async () => {
    const result = await parseManuscript(file(), 'links.docx', limits);
    expect(result.references).toHaveLength(5);
  });
});

describe('a Korean byline in Hangul with superscript marks, the romanized byline under it', () => {
  const file = () =>
    makeDocx([
      sized('산악 지역 강수량 측정 모델 설계', 28, true),
      docxParagraph(`${docxRun('박서연')}${docxRun('1', true)}${docxRun(', 이도윤')}${docxRun('2', true)}`),
      sized('1산악고등학교, 2해안고등학교', 20, true),
      sized('Designing a model to measure rain in mountain areas', 28, true),
      docxParagraph(
        `${docxRun('Seoyeon Park')}${docxRun('1', true)}${docxRun(', Doyun Lee')}${docxRun('2', true)}`,
      ),
      sized('1Mountain High School, 2Coast High School, Korea', 20, true),
      ...wordBodyParagraphs(8),
    ]);

  it('reads the Hangul names of the first byline', async () => {
    const result = await parseManuscript(file(), 'nonmun.docx', limits);
    expect(result.title).toBe('산악 지역 강수량 측정 모델 설계');
    expect(names(result)).toEqual(['박서연', '이도윤']);
  });
});

describe('an abstract under a heading that misspells "Abstract" by one letter', () => {
  const file = () =>
    makeDocx([
      sized('Measuring Rain in Three Mountain Valleys', 36, true),
      paragraph('Ivan Petrenko'),
      paragraph('Apstract', 'Heading1'),
      paragraph('This report describes a small network of rain gauges set up in three valleys of one range.'),
      paragraph(
        'It compares the totals of each gauge with those of the nearest weather station over a year.',
      ),
      paragraph('The gauges read within five per cent of the stations, and the valleys differ by a third.'),
      paragraph('Contents', 'Heading1'),
      ...wordBodyParagraphs(8),
    ]);

  it('reads the paragraphs under it as the abstract', async () => {
    const result = await parseManuscript(file(), 'apstract.docx', limits);
    expect(result.abstract).toBe(
      'This report describes a small network of rain gauges set up in three valleys of one range.\n\nIt compares the totals of each gauge with those of the nearest weather station over a year.\n\nThe gauges read within five per cent of the stations, and the valleys differ by a third.',
    );
  });

  it('leaves the label\'s spelling in another language to that language ("Abstrakt")', async () => {
    const result = await parseManuscript(
      makeDocx([
        sized('Měření srážek ve třech horských údolích', 36, true),
        paragraph('Ivan Petrenko'),
        paragraph('Abstrakt', 'Heading1'),
        paragraph(
          'Tato práce popisuje malou síť srážkoměrů ve třech údolích jednoho pohoří a jejich měření.',
        ),
        paragraph('Abstract', 'Heading1'),
        paragraph('This thesis describes a small network of rain gauges in three valleys of one range.'),
        paragraph('Obsah', 'Heading1'),
        ...wordBodyParagraphs(8),
      ]),
      'abstrakt.docx',
      limits,
    );
    expect(result.abstract).toBe(
      'This thesis describes a small network of rain gauges in three valleys of one range.',
    );
  });
});

describe('a cover set in one type: the institution in capitals, then a title in capitals', () => {
  it('keeps the title of four words under the institution', async () => {
    const file = makeDocx([
      sized('UNIVERSITY OF THE HILLS', 36, true),
      sized('RAIN IN THREE VALLEYS', 36, true),
      sized('Ivan Petrenko', 28),
      ...wordBodyParagraphs(8),
    ]);
    const result = await parseManuscript(file, 'thesis.docx', limits);
    expect(result.title).toBe('RAIN IN THREE VALLEYS');
  });
});
