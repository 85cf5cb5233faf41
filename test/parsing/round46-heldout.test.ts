// Layouts met in the forty-third held-out set (abnTeX2's Brazilian ABNT documents, a Turkish PhD
// thesis in LaTeX, a Spanish TFG, a Russian PhD synopsis and dissertation), fixed in the forty-sixth
// round. Names, titles and identifiers are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { mendAccents, type Item } from '../../src/parsing/pdf/geometry.ts';
import { isNameLike } from '../../src/parsing/names.ts';
import { withoutHonorifics } from '../../src/corpus/authors/name-titles.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeDocx, makeTextPdf, paragraph, textLine } from './make-files.ts';
import { INSTITUTION_WORD } from '../../src/parsing/institutions.ts';

const limits = testConfig().parsing;

const item = (str: string, x: number, w: number, y = 700, size = 12): Item => ({
  str,
  x,
  y,
  w,
  size,
  font: 'F1',
});

describe('PDF: Times in T1 builds Ğ and Ş from an accent and the letter (pdfTeX virtual fonts)', () => {
  it('reads a word in capitals whole where pdf.js read the breve’s shift over a wide letter as a space', () => {
    // "DO ˘" ends at 392; "GAN" starts 6.6 points back (over half an em): the breve centred on G.
    const name = mendAccents([item('Ayşe Nur DO ˘', 200, 192), item('GAN', 385.4, 26)]);
    expect(name.map((i) => i.str)).toEqual(['Ayşe Nur DOĞAN']);
  });

  it('keeps the word space before İ, whose dot over a narrow I shifts it too little to read as one', () => {
    // "...LARININ ˙" ends at 420; "INCELEME" starts 4.3 points back (a third of an em).
    const title = mendAccents([item('SONUÇLARININ ˙', 260, 160), item('INCELEME', 415.7, 80)]);
    expect(title.map((i) => i.str)).toEqual(['SONUÇLARININ İNCELEME']);
  });
});

describe('names and titles before them', () => {
  it('cuts Turkish degrees written before a name with their stops', () => {
    expect(withoutHonorifics('Bil. Yük. Müh. Ayşe Nur KAYA')).toBe('Ayşe Nur KAYA');
    expect(withoutHonorifics('Doç. Dr. Mehmet Ali Yıldız')).toBe('Mehmet Ali Yıldız');
  });

  it('reads a title-case statement closed by a stop as no name', () => {
    expect(isNameLike('Ünvanı Verilmesi İçin Kabul Edilen Tezdir.')).toBe(false);
    expect(isNameLike('Karl Roe Jr.')).toBe(true);
    expect(isNameLike('Jane A. Roe')).toBe(true);
  });
});

describe('a thesis cover set all in the body’s size and bold: the institution’s lines over the title', () => {
  // KTU's cover: university and institute on one line, the department on the next, both in
  // capitals, then the title, the kind of work and the author, all at the body's size.
  const file = () =>
    makeTextPdf([
      [
        { text: 'NORTHVALE TECHNICAL UNIVERSITY GRADUATE SCHOOL', size: 10, x: 150, y: 740, bold: true },
        { text: 'DEPARTMENT OF LANTERN ENGINEERING', size: 10, x: 170, y: 720, bold: true },
        textLine('READING LANTERNS IN THE DARK SECTOR WITH DEEP NETWORKS', 600, 10, { x: 120, bold: true }),
        { text: 'DOCTORAL THESIS', size: 10, x: 230, y: 400, bold: true },
        { text: 'Ayse Nur KAYA', size: 10, x: 240, y: 300, bold: true },
      ],
      [{ text: 'Introduction', size: 10, x: 72, y: 740, bold: true }, ...bodyProse(720, 30)],
    ]);

  it('takes the title under both of the institution’s lines', async () => {
    const result = await parseManuscript(file(), 'cover-banner.pdf', limits);
    expect(result.title).toBe('READING LANTERNS IN THE DARK SECTOR WITH DEEP NETWORKS');
  });
});

describe('Turkish words of a cover in capitals, where "i" is written "İ"', () => {
  it('reads the university, the institute and the department as institutions', () => {
    expect(INSTITUTION_WORD.test('NORTHVALE TEKNİK ÜNİVERSİTESİ')).toBe(true);
    expect(INSTITUTION_WORD.test('FEN BİLİMLERİ ENSTİTÜSÜ')).toBe(true);
    expect(INSTITUTION_WORD.test('BİLGİSAYAR MÜHENDİSLİĞİ ANABİLİM DALI')).toBe(true);
  });
});

/** Lines of an ABNT reference list: flush left, a blank line between entries. */
const entryLines = (entries: string[][], top: number, x = 72) => {
  const lines: { text: string; size: number; x: number; y: number }[] = [];
  let y = top;
  for (const entry of entries) {
    for (const line of entry) {
      lines.push({ text: line, size: 10, x, y });
      y -= 12;
    }
    y -= 10;
  }
  return lines;
};

describe('a book class’s reference list over two pages, its running head on the second', () => {
  // Page 1: a chapter's body, the list's heading set large, six entries; page 2: the head "14
  // References" in small type, the last entry's second line, then two more entries.
  const first = Array.from({ length: 6 }, (_, k) => [
    `ROE, J. Lanterns and their light, part ${k + 1}. Northvale: Lantern Press, 201${k}. Available at:`,
    `<http://lanterns.example/part${k + 1}>. Cited on page ${k + 3}.`,
  ]);
  const file = () =>
    makeTextPdf([
      [
        { text: 'References', size: 17, x: 72, y: 720, bold: true },
        ...entryLines(first.slice(0, 5), 690),
        textLine(
          'ROE, J.; POE, A. The lantern handbook for the dark sector. Northvale, 2019. Available',
          350,
        ),
        { text: 'at: <http://mirrors.lanterns.example/macros/lantern/', size: 10, x: 72, y: 338 },
      ],
      [
        { text: '14 References', size: 8, x: 72, y: 760 },
        textLine('contrib/handbook/manual.pdf>. Accessed on: 19 Dec. 2012. Cited on page 5.', 730),
        ...entryLines(
          [
            [
              'SMITH, K. A study of lanterns. Journal of Lanterns, v. 1, n. 1, p. 71-97, 1986. Cited on page 4.',
            ],
            ['WU, L. Lanterns again. Journal of Lanterns, v. 2, n. 1, p. 1-9, 1987. Cited on page 4.'],
          ],
          708,
        ),
      ],
    ]);

  it('reads the list from its heading on the first page, the head no heading and no entry', async () => {
    const result = await parseManuscript(file(), 'running-head-list.pdf', limits);
    expect(result.references.map((r) => r.raw.slice(0, 12))).toEqual([
      'ROE, J. Lant',
      'ROE, J. Lant',
      'ROE, J. Lant',
      'ROE, J. Lant',
      'ROE, J. Lant',
      'ROE, J.; POE',
      'SMITH, K. A ',
      'WU, L. Lante',
    ]);
    expect(result.references[5]!.raw).toContain('manual.pdf');
  });
});

describe('an ABNT document’s appendix after its reference list', () => {
  const file = () =>
    makeDocx([
      paragraph('Referências', 'Heading1'),
      paragraph('ROE, J. Lanternas e sua luz. Northvale: Lantern Press, 2015.'),
      paragraph('POE, A. O manual das lanternas. Northvale: Lantern Press, 2016.'),
      paragraph('APÊNDICE A – Roteiro das entrevistas com os faroleiros'),
      paragraph(
        'As entrevistas foram feitas em duas etapas, com perguntas abertas sobre o uso das lanternas.',
      ),
      paragraph('ANEXO A – Mapa dos faróis da costa'),
      paragraph('O mapa reproduz as posições dos faróis levantadas pela marinha em 1950.'),
    ]);

  it('ends the list at "APÊNDICE A – ..."', async () => {
    const result = await parseManuscript(file(), 'abnt-appendix.docx', limits);
    expect(result.references.map((r) => r.raw.slice(0, 6))).toEqual(['ROE, J', 'POE, A']);
  });
});

describe('a title set large over the same title in another language, in its size and face after a space', () => {
  // abnTeX2's article: the Portuguese title, a line's space, the English title (\tituloestrangeiro).
  const file = () =>
    makeTextPdf([
      [
        { text: 'Modelo de leitura das lanternas no setor escuro', size: 17, x: 110, y: 740, bold: true },
        { text: 'com redes profundas', size: 17, x: 200, y: 720, bold: true },
        { text: 'A model for reading lanterns in the dark sector', size: 17, x: 110, y: 660, bold: true },
        { text: 'with deep networks', size: 17, x: 200, y: 640, bold: true },
        { text: 'Ana Souza', size: 12, x: 250, y: 612 },
        { text: 'Resumo', size: 13, x: 270, y: 590, bold: true },
        ...bodyProse(570, 4),
        { text: '1 Introduction', size: 13, x: 72, y: 520, bold: true },
        ...bodyProse(500, 20),
      ],
    ]);

  it('reads the first title alone', async () => {
    const result = await parseManuscript(file(), 'translated-title.pdf', limits);
    expect(result.title).toBe('Modelo de leitura das lanternas no setor escuro com redes profundas');
  });
});

/** A thesis cover in one type at the body's size: institution, title, kind of work, author. */
const thesisCoverLines = (y: number) => [
  { text: 'NORTHVALE TECHNICAL UNIVERSITY GRADUATE SCHOOL', size: 10, x: 150, y, bold: true },
  textLine('READING LANTERNS IN THE DARK SECTOR WITH DEEP NETWORKS', y - 120, 10, { x: 120, bold: true }),
];

describe('a thesis that prints its title page three times (cover, title page with ORCIDs, approval page)', () => {
  const file = () =>
    makeTextPdf([
      [
        ...thesisCoverLines(740),
        { text: 'DOCTORAL THESIS', size: 10, x: 230, y: 400, bold: true },
        { text: 'Ayse Nur KAYA', size: 10, x: 240, y: 300, bold: true },
      ],
      [
        ...thesisCoverLines(740),
        { text: 'Ayse Nur KAYA', size: 10, x: 240, y: 560, bold: true },
        { text: 'ORCID : 0000-0002-1825-0097', size: 10, x: 220, y: 545, bold: true },
        textLine('Accepted by the Graduate School as a Doctoral Thesis.', 480, 10, { x: 150, bold: true }),
        textLine('Supervisor : Prof. Dr. Karl ROE ORCID : 0000-0001-5109-3700', 400, 10, {
          x: 120,
          bold: true,
        }),
      ],
      [
        ...thesisCoverLines(740),
        { text: 'Prepared By Ayse Nur KAYA', size: 10, x: 200, y: 680, bold: true },
        { text: 'Jury Members Poe Anna Lind', size: 10, x: 200, y: 500, bold: true },
      ],
      [{ text: 'Introduction', size: 10, x: 72, y: 740, bold: true }, ...bodyProse(720, 30)],
    ]);

  it('reads the author under the title printed again, with the ORCID under the name, and no line of the third print', async () => {
    const result = await parseManuscript(file(), 'thesis-three-title-pages.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.orcid])).toEqual([['Ayse Nur KAYA', '0000-0002-1825-0097']]);
  });
});

describe('a thesis abstract page that repeats the thesis’s fields between its label and its prose', () => {
  const summary =
    'Lanterns are read in two phases, finding and decoding. The first finds the lantern in an image by its patterns, the second corrects the errors of the channel with a learned decoder that is trained on many thousands of lanterns.';
  const file = () =>
    makeTextPdf([
      [...thesisCoverLines(740), { text: 'DOCTORAL THESIS', size: 10, x: 230, y: 400, bold: true }],
      [{ text: 'PREFACE', size: 10, x: 250, y: 740, bold: true }, ...bodyProse(720, 20)],
      // A contents list set in columns: each short row a block of its own, none a contents line,
      // more than the abstract label's usual reach.
      ...[0, 1, 2].map((p) =>
        Array.from({ length: 20 }, (_, k) => ({
          text: `${p + 1}.${k + 1}.`,
          size: 10,
          x: 72,
          y: 740 - k * 34,
        })),
      ),
      [
        { text: 'SUMMARY', size: 10, x: 260, y: 740 },
        { text: 'READING LANTERNS IN THE DARK SECTOR WITH DEEP NETWORKS', size: 10, x: 120, y: 710 },
        { text: 'Ayse Nur KAYA', size: 10, x: 250, y: 690 },
        { text: 'Northvale Technical University', size: 10, x: 220, y: 660 },
        { text: 'Department of Lantern Engineering', size: 10, x: 210, y: 648 },
        { text: 'Supervisor: Prof. Dr. Karl ROE', size: 10, x: 215, y: 636 },
        { text: '2021, 138 Pages', size: 10, x: 250, y: 624 },
        { text: summary.slice(0, summary.indexOf(' the second')), size: 10, x: 72, y: 590 },
        { text: summary.slice(summary.indexOf(' the second') + 1), size: 10, x: 72, y: 578 },
        { text: 'Key Words: Lanterns, Decoding', size: 10, x: 72, y: 550 },
      ],
      [{ text: '1. INTRODUCTION', size: 10, x: 72, y: 740, bold: true }, ...bodyProse(720, 30)],
    ]);

  it('reads the prose under the fields as the abstract', async () => {
    const result = await parseManuscript(file(), 'thesis-summary-page.pdf', limits);
    expect(result.abstract).toBe(summary);
  });
});

describe('a reference list set smaller than the body, its next page opening on entries that end on a year', () => {
  // GENETICS' author-year list in small type: the next page's first block is an entry's end and
  // the next entry's names, ending "..., 2022" before a space and the title. Read as a running
  // head ("14 References": smaller than the body, ending on a number), that block left the list.
  const entry = (k: number) => [
    `Roe, J. ${k}., A. Poe, and K. Smith, 201${k} Lanterns and their light, part ${k + 1}. Journal of`,
    `Lanterns ${k + 1}: 1${k}1–1${k}9.`,
  ];
  const small = (text: string, y: number) => ({ text, size: 8, x: 72, y });
  const file = () =>
    makeTextPdf([
      [{ text: 'Introduction', size: 12, x: 72, y: 740, bold: true }, ...bodyProse(720, 50)],
      [
        ...bodyProse(740, 20),
        { text: 'References', size: 12, x: 72, y: 460, bold: true },
        ...entryLines(
          Array.from({ length: 8 }, (_, k) => entry(k)),
          440,
        ).map((l) => ({ ...l, size: 8 })),
        small('Doe, K., A. Poe, and B.', 90),
      ],
      [
        small('Quinn, 2019 Lanterns of the past. Journal of Lanterns 8: 762–775.', 740),
        small('Wu, L., and B. Quinn, 2022', 730),
        small('Lanterns again. Journal of Lanterns 9: 1–9.', 708),
        small('Zed, M., 2023 Lanterns at last. Journal of Lanterns 10: 2–8.', 698),
      ],
    ]);

  it('keeps the block in the list', async () => {
    const result = await parseManuscript(file(), 'small-list.pdf', limits);
    const raws = result.references.map((r) => r.raw).join(' | ');
    expect(raws).toContain('Lanterns of the past');
    expect(raws).toContain('Wu, L., and B. Quinn, 2022');
  });
});
