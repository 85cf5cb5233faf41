// Layouts met in the sixty-seventh held-out set (theses and templates in Greek, Ukrainian,
// Bulgarian, Polish, Czech, Slovak and Hungarian), fixed in the seventy-second round. Names,
// titles and entries are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeDocx, makeToUnicodePdf, textLine, wordBodyParagraphs } from './make-files.ts';

const limits = testConfig().parsing;

/** A paragraph of one run in `halfPoints` type (Word's unit), in bold when asked: a cover's line. */
const sized = (text: string, halfPoints: number, bold = false) =>
  `<w:p><w:r><w:rPr>${bold ? '<w:b/>' : ''}<w:sz w:val="${halfPoints}"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

const names = (result: { authors: { name: string }[] }) => result.authors.map((a) => a.name);

/**
 * A PDF whose last page sets the list under its heading: numbered entries, each on one line, in a
 * mapped font (the letters outside Latin-1), the body's prose in Helvetica on the page before.
 */
const withList = (heading: string, entries: string[]) =>
  makeToUnicodePdf([
    {
      mapped: [textLine('Měření srážek na horských stanicích', 760, 18)],
      latin: bodyProse(720, 40),
    },
    {
      mapped: [textLine(heading, 760, 14), ...entries.map((e, k) => textLine(e, 730 - 16 * k, 10))],
    },
  ]);

describe('reference lists headed by their sources (Czech) or by the literature used (Bulgarian)', () => {
  it('reads the list under "Literatura a další zdroje"', async () => {
    const result = await parseManuscript(
      withList('Literatura a další zdroje', [
        '[1] NOVÁK, Jan. Srážky na horách. Praha: Academia, 2018.',
        '[2] DVOŘÁK, Petr. Měření deště. 2. vyd. Brno: Host, 2020.',
        '[3] KRÁL, Eva. Horské stanice a jejich přístroje. Ostrava: Sfinx, 2016.',
      ]),
      'absolventska-prace.pdf',
      limits,
    );
    expect(result.references).toHaveLength(3);
  });

  it('reads the list under "Използвана литература"', async () => {
    const result = await parseManuscript(
      withList('Използвана литература', [
        '[1] И. Петров, „Валежи в планината“, Списание за климат, т. 4, с. 1–9, 2019.',
        '[2] G. Rossi, “Rain gauges”, Hydrology Letters, vol. 2, pp. 4–8, 2021.',
        '[3] М. Иванова, Измерване на дъжда. София: Наука, 2017.',
      ]),
      'diplomna-rabota.pdf',
      limits,
    );
    expect(result.references).toHaveLength(3);
  });
});

describe('a Greek thesis cover: the title, the student, the kind of work in capitals without accents', () => {
  const file = () =>
    makeDocx([
      sized('Μέτρηση της βροχής σε τρεις ορεινούς σταθμούς', 40),
      sized('Μαρία Παπαδήμα', 32),
      sized('ΔΙΠΛΩΜΑΤΙΚΗ ΕΡΓΑΣΙΑ', 32),
      sized('Τμήμα Μηχανικών Η/Υ και Πληροφορικής', 32),
      sized('Πολυτεχνική Σχολή', 32),
      sized('Φεβρουάριος 2024', 32),
      ...wordBodyParagraphs(8),
    ]);

  it('reads the student and not the kind of work as a name', async () => {
    const result = await parseManuscript(file(), 'diplomatiki.docx', limits);
    expect(result.title).toBe('Μέτρηση της βροχής σε τρεις ορεινούς σταθμούς');
    expect(names(result)).toEqual(['Μαρία Παπαδήμα']);
  });
});

describe('a Bulgarian diploma cover: the kind of work over "Тема:" and the title, the roles labelled', () => {
  const file = () =>
    makeDocx([
      sized('ТЕХНОЛОГИЧНО УЧИЛИЩЕ ПЛАНИНСКИ СИСТЕМИ', 28, true),
      sized('ДИПЛОМНА РАБОТА', 48, true),
      sized('по професия код 123456 „Системен програмист“', 24, true),
      sized('Тема: Измерване на валежите в планината', 34),
      sized('Дипломант:', 28),
      sized('Иван Петров Иванов', 28),
      sized('Дипломен ръководител:', 28),
      sized('инж. Мария Георгиева', 28),
      sized('СОФИЯ', 34),
      ...wordBodyParagraphs(8),
    ]);

  it('reads the topic as the title', async () => {
    const result = await parseManuscript(file(), 'diplomna.docx', limits);
    expect(result.title).toBe('Измерване на валежите в планината');
  });

  it('reads the student under the label, not the school or the supervisor', async () => {
    const result = await parseManuscript(file(), 'diplomna.docx', limits);
    expect(names(result)).toEqual(['Иван Петров Иванов']);
  });
});

describe('a Hungarian thesis title page: the student over the kind of work over the title, the supervisors’ labels side by side', () => {
  const file = () =>
    makeDocx([
      sized('BUDAPESTI HEGYVIDÉKI EGYETEM', 22, true),
      sized('GÉPÉSZMÉRNÖKI KAR', 22),
      sized('Kovács Anna', 44),
      sized('SZAKDOLGOZAT', 44),
      sized('Csapadékmérők kalibrálása hegyi állomásokon', 36),
      sized('Konzulens:\tTémavezető:', 22),
      sized('dr. Szabó Péter\tdr. Tóth Gábor', 22),
      sized('mestertanár\tadjunktus', 22),
      sized('Nagy Eszter', 22),
      sized('okl. gépészmérnök', 22),
      sized('Budapest, 2023.', 36),
      ...wordBodyParagraphs(8),
    ]);

  it('reads the student over the kind of work, and no supervisor', async () => {
    const result = await parseManuscript(file(), 'szakdolgozat.docx', limits);
    expect(result.title).toBe('Csapadékmérők kalibrálása hegyi állomásokon');
    expect(names(result)).toEqual(['Kovács Anna']);
  });
});

describe('a Ukrainian essay cover: the title in guillemets typed as "<<" and ">>", the contents on the next page', () => {
  const file = () =>
    makeToUnicodePdf([
      {
        mapped: [
          textLine('Міністерство освіти і науки України', 780, 12),
          textLine('Гірський технічний університет', 760, 12),
          textLine('РЕФЕРАТ', 700, 14),
          textLine('на тему:', 680, 12),
          textLine('<<Вимірювання опадів у горах>>', 650, 16),
          textLine('Науковий керівник: проф. Коваль О.П.', 560, 12, { x: 300 }),
          textLine('Одеса 2025', 100, 12, { x: 250 }),
        ],
      },
      {
        mapped: [
          textLine('ЗМІСТ', 780, 16, { x: 260 }),
          textLine('ВСТУП', 750, 12),
          textLine('ВИСНОВКИ', 735, 12),
        ],
        latin: bodyProse(700, 30),
      },
    ]);

  it('reads the title without the marks, and the contents’ heading and entries as no name', async () => {
    const result = await parseManuscript(file(), 'referat.pdf', limits);
    expect(result.title).toBe('Вимірювання опадів у горах');
    expect(names(result)).toEqual([]);
  });
});
