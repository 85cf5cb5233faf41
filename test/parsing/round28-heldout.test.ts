// Layouts met in the twenty-sixth held-out set, fixed in the twenty-eighth round: an Indonesian
// thesis's covers set all in one type (the kind of work, the title, the student, the faculty; the
// same again in English; signed sheets before the abstracts), a Japanese letter under its kind of
// paper with its abstract under "あらまし" and its list under "文献", an IEICE byline with its grades,
// a French report's double surname joined by an en dash, a student's standing after the name, a
// Spanish title over its English translation, a draft's elided sections before its list, a DOI
// glued to the next field's label, and a Word list whose entries were broken into paragraphs.
// Names, titles and DOIs are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import {
  type PdfTextLine,
  bodyProse,
  makeCidFontPdf,
  makeDocx,
  makeTextPdf,
  paragraph,
  TITLE_STYLE,
  wordBodyParagraphs,
  textLine,
} from './make-files.ts';

const limits = testConfig().parsing;

/** A paragraph of one run in a size of its own (half-points, as Word writes it). */
const sized = (text: string, halfPoints: number) =>
  `<w:p><w:r><w:rPr><w:sz w:val="${halfPoints}"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

const japaneseProse = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    paragraph(
      `本研究では，庭園の霜の時期と開花の関係を第${i + 1}の観点から調べ，北部の谷における観測の記録を整理して，その変化の傾向を明らかにした．`,
    ),
  );

/** Lines of a page set one under the other, each far enough from the next to be a block of its own. */
const spacedLines = (texts: string[], top: number, size = 12, bold = true) =>
  texts.map((text, k) => ({ text, size, x: 72, y: top - k * 40, bold }));

describe("a thesis's covers set in one type, the abstracts past its signed sheets", () => {
  const file = () =>
    makeTextPdf([
      spacedLines(
        [
          'SKRIPSI',
          'PEMETAAN KEBUN SAYUR DI LERENG',
          'GUNUNG BERAPI',
          'Sari Dewi Lestari',
          'NPM: 2019730011',
          'PROGRAM STUDI BIOLOGI FAKULTAS SAINS UNIVERSITAS NUSANTARA',
        ],
        760,
        16,
      ),
      spacedLines(
        [
          'UNDERGRADUATE THESIS',
          'MAPPING VEGETABLE GARDENS ON VOLCANIC SLOPES',
          'Sari Dewi Lestari',
          'NPM: 2019730011',
          'DEPARTMENT OF BIOLOGY FACULTY OF SCIENCE NUSANTARA UNIVERSITY',
        ],
        760,
        16,
      ),
      spacedLines(
        [
          'LEMBAR PENGESAHAN',
          'PEMETAAN KEBUN SAYUR DI LERENG GUNUNG BERAPI',
          'Bandung, 1 Juni 2023',
          'Menyetujui,',
          'Pembimbing',
          'Budi Hartono',
          'Ketua Tim Penguji',
          'Citra Wulandari',
          'Mengetahui,',
          'Ketua Program Studi',
          'Dewi Anggraini',
        ],
        760,
      ),
      spacedLines(['PERNYATAAN', 'Dinyatakan di Bandung,', 'Tanggal 1 Juni 2023', 'Meterai'], 760),
      [
        { text: 'ABSTRAK', size: 12, x: 72, y: 760, bold: true },
        textLine(
          'Kebun sayur di lereng gunung berapi dipetakan dari citra udara dan kunjungan lapangan.',
          730,
        ),
      ],
      [
        { text: 'ABSTRACT', size: 12, x: 72, y: 760, bold: true },
        textLine(
          'Vegetable gardens on volcanic slopes were mapped from aerial images and field visits.',
          730,
        ),
        { text: 'Keywords: gardens, volcanic slopes, mapping', size: 10, x: 72, y: 700 },
      ],
      bodyProse(760, 30),
    ]);

  it('reads the title under the kind of work, the student alone as its author, and the English abstract', async () => {
    const result = await parseManuscript(file(), 'skripsi.pdf', limits);
    expect(result.title).toBe('PEMETAAN KEBUN SAYUR DI LERENG GUNUNG BERAPI');
    expect(result.authors.map((a) => a.name)).toEqual(['Sari Dewi Lestari']);
    expect(result.abstract).toBe(
      'Vegetable gardens on volcanic slopes were mapped from aerial images and field visits.',
    );
  });
});

describe("a Japanese letter: its kind of paper over the title, its abstract's and its list's labels", () => {
  const entries = [
    '[1] 山田太郎，庭園の霜と開花，園芸学会誌，vol.12, no.3, pp.45-52, 2015.',
    '[2] 佐藤花子，北部の谷の気象観測，気象研究ノート，vol.8, pp.10-19, 2018.',
  ];
  const file = () =>
    makeDocx([
      // The title as large as the abstract, the kind of paper larger over it.
      sized('研究速報', 40),
      sized('庭園における霜の時期と開花の関係の調査', 28),
      sized('山田 太郎　佐藤 花子', 22),
      sized('あらまし', 28),
      sized(
        '北部の谷の庭園で霜の時期と開花の時期を十年にわたり記録し，その関係を調べた．霜が早い年ほど開花が遅れる傾向が見られた．',
        28,
      ),
      sized('キーワード　霜，開花，庭園', 28),
      ...Array.from({ length: 6 }, (_, i) =>
        sized(
          `本研究では，庭園の霜の時期と開花の関係を第${i + 1}の観点から調べ，北部の谷における観測の記録を整理して，その変化の傾向を明らかにした．`,
          24,
        ),
      ),
      sized('文献', 24),
      ...entries.map((e) => sized(e, 24)),
    ]);

  it('reads the title, the abstract under "あらまし" and the list under "文献"', async () => {
    const result = await parseManuscript(file(), 'letter.docx', limits);
    expect(result.title).toBe('庭園における霜の時期と開花の関係の調査');
    expect(result.abstract).toBe(
      '北部の谷の庭園で霜の時期と開花の時期を十年にわたり記録し，その関係を調べた．霜が早い年ほど開花が遅れる傾向が見られた．',
    );
    expect(result.references.map((r) => r.raw)).toEqual(entries.map((e) => e.replace(/^\[\d\] /, '')));
  });
});

describe('a Japanese title over two lines, Latin letters set apart in it (pLaTeX)', () => {
  const file = () =>
    makeCidFontPdf(
      [
        { text: '霜の記録を共有できる', size: 18, x: 72, y: 760 },
        { text: '汎用性の高い', size: 18, x: 72, y: 738 },
        { text: '配信システム', size: 18, x: 72 + 6 * 18 + 40, y: 738 },
      ],
      [
        // The gap pLaTeX sets around Latin letters in Japanese text.
        { text: 'P2P', size: 18, x: 72 + 6 * 18 + 4, y: 738 },
        { text: 'Taro Yamada, Hanako Sato', size: 11, x: 72, y: 710 },
        ...bodyProse(660, 20),
      ],
    );

  it('is read with no space at the break nor beside the Latin letters', async () => {
    const result = await parseManuscript(file(), 'title.pdf', limits);
    expect(result.title).toBe('霜の記録を共有できる汎用性の高いP2P配信システム');
  });
});

describe('an abstract run in after "概要：" with no English label, Latin letters set apart in it', () => {
  const file = () =>
    makeDocx([
      sized('庭園における霜の時期と開花の関係', 36),
      paragraph('山田 太郎（北部大学）'),
      // Spaces typed beside the Latin letters, as a PDF gives the typeset gaps.
      paragraph(
        '概要：北部の谷の庭園で霜の時期と開花の時期を IoT 機器により十年にわたり記録し，その関係を調べた．',
      ),
      paragraph('キーワード：霜，開花，庭園'),
      ...japaneseProse(6),
    ]);

  it('reads it', async () => {
    const result = await parseManuscript(file(), 'gaiyou.docx', limits);
    expect(result.abstract).toBe(
      '北部の谷の庭園で霜の時期と開花の時期をIoT機器により十年にわたり記録し，その関係を調べた．',
    );
  });
});

/** A title page: the title, the byline, body prose, then any lines given (a list under its heading). */
const titlePage = (byline: string, after: PdfTextLine[] = []) =>
  makeTextPdf([
    [
      { text: 'Frost Dates and Flowering in Northern Valley Gardens', size: 18, x: 72, y: 760, bold: true },
      { text: byline, size: 11, x: 72, y: 730 },
      ...bodyProse(680, 20),
      ...after,
    ],
  ]);

describe('bylines with a double surname, grades alone, a standing', () => {
  it('reads a surname joined by an en dash (LaTeX\'s "--")', async () => {
    const file = makeDocx([
      sized('Frost Dates and Flowering in Northern Valley Gardens', 36),
      sized('Jeanne Morel–Castaing and Paul Girard', 24),
      ...wordBodyParagraphs(4),
    ]);
    const result = await parseManuscript(file, 'dash.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Jeanne Morel–Castaing', 'Paul Girard']);
  });

  it('drops grades set alone after the names (IEICE)', async () => {
    const result = await parseManuscript(
      titlePage('Taro YAMADA, Student Member, Hanako SATO, and Jiro KATO, Members'),
      'grades.pdf',
      limits,
    );
    expect(result.authors.map((a) => a.name)).toEqual(['Taro YAMADA', 'Hanako SATO', 'Jiro KATO']);
  });

  it("drops a student's standing after the name", async () => {
    const result = await parseManuscript(
      titlePage('Lucia Ferrer Soto, Estudiante de Biologia, Mateo Ruiz Vega, Estudiante de Quimica'),
      'standing.pdf',
      limits,
    );
    expect(result.authors.map((a) => a.name)).toEqual(['Lucia Ferrer Soto', 'Mateo Ruiz Vega']);
  });
});

describe('a title closed by its stop over its translation in another face', () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'Heladas y floracion tardia en los jardines del valle norte.', size: 16, x: 72, y: 760 },
        { text: 'Frost and late flowering in northern valley gardens.', size: 16, x: 72, y: 738, bold: true },
        { text: 'Lucia Ferrer Soto, Mateo Ruiz Vega', size: 11, x: 72, y: 710 },
        ...bodyProse(660, 20),
      ],
    ]);

  it('reads the first as the title, the translation as neither title nor byline', async () => {
    const result = await parseManuscript(file(), 'translated.pdf', limits);
    expect(result.title).toBe('Heladas y floracion tardia en los jardines del valle norte.');
    expect(result.authors.map((a) => a.name)).toEqual(['Lucia Ferrer Soto', 'Mateo Ruiz Vega']);
  });
});

describe("a draft's empty sections stacked over the list's heading", () => {
  const file = () =>
    titlePage('Lucia Ferrer Soto', [
      { text: '7 Material suplementario', size: 10, x: 72, y: 380, bold: true },
      { text: '8 Bibliografia', size: 10, x: 72, y: 367, bold: true },
      { text: '. . .', size: 10, x: 80, y: 354 },
      textLine('Alvarez, M. (2015). Heladas del valle norte. Revista de Jardines, 12, 45-52.', 341),
      textLine('Benitez, R. (2018). Floracion tardia en huertos. Revista de Jardines, 15, 10-19.', 328),
      textLine('Castro, L. (2020). Registros de heladas. Revista de Jardines, 17, 1-9.', 315),
    ]);

  it('finds the list under the heading past the line of dots', async () => {
    const result = await parseManuscript(file(), 'elided.pdf', limits);
    expect(result.references.length).toBe(3);
  });
});

describe('Word lists: a DOI glued to the next label, entries broken into paragraphs', () => {
  const file = () =>
    makeDocx(
      [
        paragraph('Frost Dates and Flowering in Northern Valley Gardens', 'Title'),
        paragraph('Lucía Ferrer Soto'),
        ...wordBodyParagraphs(4),
        paragraph('References', 'Heading1'),
        paragraph(
          'Alvarez, M. (2015). "Frost in the northern valley." Journal of Gardens 12(3): 45-52. DOI: 10.5555/jg.2015.0012.URL: https://example.org/jg/12',
        ),
        paragraph('Benitez, R. (2018). "Late flowering in orchards." International Journal of'),
        paragraph('Orchard Studies (IJOS) 2(7): 20-43'),
        paragraph('Castro, L. (2020). "Records of frost." International Journal of Orchard Studies (IJOS)'),
        paragraph('2(6): 1-26.'),
      ],
      [TITLE_STYLE],
    );

  it('cuts the label off the DOI and joins the broken entries', async () => {
    const result = await parseManuscript(file(), 'list.docx', limits);
    expect(result.references.length).toBe(3);
    expect(result.references[0]!.doi).toBe('10.5555/jg.2015.0012');
  });
});

describe('a numbered list with a short line read as bold inside an entry', () => {
  const file = () =>
    titlePage('Lucia Ferrer Soto, Mateo Ruiz Vega', [
      { text: 'References', size: 12, x: 72, y: 400, bold: true },
      textLine(
        '[1] Alvarez, M.: Frost in the northern valley, Journal of Gardens, Vol. 12, pp. 45-52 (2015).',
        380,
      ),
      textLine(
        '[2] Benitez, R. and Castro, L.: Late Flowering and the Orchard-Valley-Frost Triangle, Studies in',
        368,
      ),
      { text: 'Gardens and Orchards: A Distributional', size: 10, x: 72, y: 356, bold: true },
      { text: 'Approach (Ruiz, M., ed.), Valley Press, pp. 3-31 (2023).', size: 10, x: 72, y: 344 },
      textLine('[3] Castro, L.: Records of frost, Journal of Gardens, Vol. 17, pp. 1-9 (2020).', 332),
    ]);

  it('reads the line as part of its entry, not as a heading that ends the list', async () => {
    const result = await parseManuscript(file(), 'bold-line.pdf', limits);
    expect(result.references.length).toBe(3);
  });
});

describe('a byline of names each followed by the institution in brackets', () => {
  const file = () =>
    titlePage(
      'Jane Roe (School of Horticulture, Harbour University) John Doe (Valley Institute of Technology)',
    );

  it('reads each name with its institution', async () => {
    const result = await parseManuscript(file(), 'brackets.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.affiliations])).toEqual([
      ['Jane Roe', ['School of Horticulture, Harbour University']],
      ['John Doe', ['Valley Institute of Technology']],
    ]);
  });
});

describe('a run-in abstract with its keywords line in its own block, the body all in bold', () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'Frost Dates and Flowering in Northern Valley Gardens', size: 18, x: 72, y: 760, bold: true },
        { text: 'Lucia Ferrer Soto, Mateo Ruiz Vega', size: 11, x: 72, y: 730 },
        textLine('Abstract: Frost dates and flowering were recorded in northern valley gardens', 700, 9, {
          bold: true,
        }),
        textLine('over ten years, and later frosts were found to delay the flowering of orchards.', 689, 9, {
          bold: true,
        }),
        { text: 'Keywords: frost, flowering, orchards, valley gardens', size: 9, x: 72, y: 678, bold: true },
        { text: '1. Introduction', size: 12, x: 72, y: 650, bold: true },
        ...bodyProse(630, 20).map((l) => ({ ...l, bold: true })),
      ],
    ]);

  it('ends the abstract at the keywords line', async () => {
    const result = await parseManuscript(file(), 'runin.pdf', limits);
    expect(result.abstract).toBe(
      'Frost dates and flowering were recorded in northern valley gardens over ten years, and later frosts were found to delay the flowering of orchards.',
    );
  });
});

describe('an author-year list that indents each first line, its entries closing on a link', () => {
  const entries: [string, string][] = [
    [
      'Alvarez, M., & Benitez, R. (2019). Frostview: Interactive maps of frost',
      'dates. Retrieved from https://example.org/package=frostview',
    ],
    [
      'Benitez, R., Castro, L., & Diaz, P. (2014). Orchard mapping in a valley',
      'with aerial images. Journal of Gardens, 10. https://doi.org/10.5555/jg.10',
    ],
    [
      'Castro, L., & Diaz, P. (2012). Bloomer: Flowering measures for orchard',
      'data. Retrieved from https://example.org/package=bloomer',
    ],
    [
      'Diaz, P. (1998). Frost plots: Methods and results from the northern',
      'valley and a comparison with other plots. Valley Press.',
    ],
    [
      'Estevez, R. (2017). Gardenverse: Install and load the gardens. Retrieved',
      'from https://example.org/package=gardenverse',
    ],
  ];
  const file = () =>
    titlePage('Lucia Ferrer Soto, Mateo Ruiz Vega', [
      { text: 'References', size: 12, x: 72, y: 400, bold: true },
      ...entries.flatMap(([a, b], k) => [
        { text: a, size: 10, x: 84, y: 380 - k * 26 },
        { text: b, size: 10, x: 72, y: 367 - k * 26 },
      ]),
    ]);

  it('opens an entry at each indented line', async () => {
    const result = await parseManuscript(file(), 'first-line.pdf', limits);
    expect(result.references.map((r) => r.raw)).toEqual(entries.map(([a, b]) => `${a} ${b}`));
  });
});

describe("a numbered list with a chart's tick glued to an entry's last line, then an appendix", () => {
  const file = () =>
    titlePage('Lucia Ferrer Soto, Mateo Ruiz Vega', [
      { text: 'References', size: 12, x: 72, y: 400, bold: true },
      textLine('[1] M. Alvarez, Frost in the northern valley, J. Gardens, vol.12, pp.45-52, 2015.', 380),
      textLine('[2] R. Benitez, Late flowering in orchards, J. Gardens, vol.15, pp.10-19,', 366),
      // The chart's tick "800", larger than the entries, on the line of the entry's year.
      { text: '800 2018.', size: 13, x: 72, y: 352 },
      textLine('[3] L. Castro, Records of frost, J. Gardens, vol.17, pp.1-9, 2020.', 338),
    ]);

  it('reads on past the tick to the next numbered entry', async () => {
    const result = await parseManuscript(file(), 'tick.pdf', limits);
    expect(result.references.length).toBe(3);
  });

  it('ends the list at a Japanese appendix heading', async () => {
    const entries = [
      '[1] 山田太郎，庭園の霜と開花，園芸学会誌，vol.12, pp.45-52, 2015.',
      '[2] 佐藤花子，北部の谷の気象観測，気象研究，vol.8, pp.10-19, 2018.',
    ];
    const docx = makeDocx(
      [
        paragraph('Frost Dates and Flowering in Northern Valley Gardens', 'Title'),
        paragraph('Lucia Ferrer Soto, Mateo Ruiz Vega'),
        ...japaneseProse(4),
        paragraph('文献'),
        ...entries.map((e) => paragraph(e)),
        paragraph('付 録'),
        paragraph('1. 観測地点の一覧'),
      ],
      [TITLE_STYLE],
    );
    const result = await parseManuscript(docx, 'appendix.docx', limits);
    expect(result.references.map((r) => r.raw)).toEqual(entries.map((e) => e.replace(/^\[\d\] /, '')));
  });
});
