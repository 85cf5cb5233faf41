// Layouts met in the twentieth held-out set, fixed in the twenty-second round: a knitr draft in
// jss.cls whose figures (an R chunk at the console's prompt, then the chart it draws, then the
// caption) float into the reference list, with jss.bst's entries ("Roe AB, Poe C (????).", a year
// the entry lacks printed as "????").
// Names, titles and DOIs are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeDocx, makeTextPdf, paragraph, paragraphStyles } from './make-files.ts';

const limits = testConfig().parsing;

describe('a knitr draft whose figures float into the reference list', () => {
  const line = (text: string, x: number, y: number, size = 10, bold = false) => ({ text, size, x, y, bold });
  const entry = (k: number, year: string) => [
    `Roe A${'BCDEFGH'[k]}, Poe C, Tell D (${year}). “Frost Dates in Valley Gardens, Part ${k}.” ${k}(2), 1–10.`,
    `doi:10.5555/frost.${1000 + k}.`,
  ];
  const entries = (from: number, to: number, top: number, year = '2019') =>
    Array.from({ length: to - from }, (_, i) => entry(from + i, year)).flatMap(([a, b], i) => [
      line(a!, 72, top - i * 30),
      line(b!, 84, top - i * 30 - 12),
    ]);
  // The chunk at the entries' size, the chart's labels small, the caption under them.
  const figure = (top: number, n: number) => [
    line(`> frost_plot(gardens, facet = ~valley, panel = ${n})`, 72, top),
    line('North South 100 100', 90, top - 20, 4),
    line('50 50 0 0 0 25 50 75 100', 90, top - 30, 4),
    line('Frost range', 120, top - 40, 4),
    line(`> frost_table(gardens, panel = ${n})`, 72, top - 56),
    line('North South 1.00 1.00', 90, top - 76, 4),
    line('0.50 0.50 0.00 0.25 0.50', 90, top - 86, 4),
    line(`Figure ${n}: frost dates by valley`, 72, top - 110),
  ];
  // A page's last line: one that closes every page alike would read as a running foot.
  const closing = (k: number, top: number) =>
    line(
      [
        'Quist A (2018). “Winter Notes on the Valleys.” 3(1), 5–9.',
        'Tell B, Quist A (2017). “Snow Cover and Bloom.” Garden Letters, 12, 40–52.',
        'Vane C (2016). Orchards of the North. Valley Press, Oxford.',
      ][k - 1]!,
      72,
      top,
    );
  const pages = (year?: string) => [
    [
      line('Frost and the Flowering Dates of Valley Gardens', 72, 780, 16, true),
      line('Alma Quist', 72, 760, 11),
      line('Abstract', 72, 730, 12, true),
      ...bodyProse(712, 6),
      line('1. Introduction', 72, 620, 12, true),
      ...bodyProse(602, 10),
      line('References', 72, 440, 12, true),
      ...entries(0, 3, 420),
      closing(1, 320),
    ],
    [...figure(780, 1), ...entries(3, 5, 640, year), closing(2, 570)],
    [...figure(780, 2), ...entries(5, 7, 640, year), closing(3, 570)],
  ];

  it('reads every entry around the figures, and none of the chunks', async () => {
    const result = await parseManuscript(makeTextPdf(pages()), 'knitr.pdf', limits);
    const doi = (k: number) => `10.5555/frost.${1000 + k}`;
    expect(result.references.map((r) => r.doi)).toEqual([
      doi(0),
      doi(1),
      doi(2),
      null,
      doi(3),
      doi(4),
      null,
      doi(5),
      doi(6),
      null,
    ]);
  });

  it('resumes the list after a figure at an entry whose year is printed "????"', async () => {
    const result = await parseManuscript(makeTextPdf(pages('????')), 'knitr.pdf', limits);
    expect(result.references).toHaveLength(10);
  });
});

describe('a jss.cls first page and its address at the end', () => {
  const line = (text: string, x: number, y: number, size = 10, bold = false) => ({ text, size, x, y, bold });
  const pages = () => [
    [
      line('JCG', 72, 800, 10, true),
      line('Journal of Cold Gardens', 150, 796, 26, true),
      line('MMMMMM YYYY, Volume VV, Issue II.', 150, 770, 9),
      line('Frost and the Flowering Dates', 72, 730, 16, true),
      line('of Valley Gardens', 72, 710, 16, true),
      line('Alma Q. Quist', 72, 680, 11),
      line('Valley Institute of Horticulture', 72, 666, 10),
      line('Bruno Tell', 300, 680, 11),
      line('Northvale University', 300, 666, 10),
      line('Abstract', 72, 640, 9, true),
      ...bodyProse(626, 5).map((l) => ({ ...l, size: 9 })),
      line('1. Introduction', 72, 540, 12, true),
      ...bodyProse(522, 10),
      line('References', 72, 380, 12, true),
      line('Roe A, Poe C (2019). “Frost Dates in Valley Gardens.” 3(2), 1–10.', 72, 362),
      line('Tell B (2018). “Snow Cover and Bloom.” Garden Letters, 12, 40–52.', 72, 348),
    ],
    [
      line('Affiliation:', 72, 780, 11, true),
      line('Alma Quist', 72, 764),
      line('Valley Institute of Horticulture', 72, 750),
      line('1 Orchard Road, Northvale', 72, 736),
      line('E-mail: alma.quist@valley.example.org', 72, 722),
    ],
  ];

  it('takes the title under the journal’s name, not the name over its issue line', async () => {
    const result = await parseManuscript(makeTextPdf(pages()), 'jss.pdf', limits);
    expect(result.title).toBe('Frost and the Flowering Dates of Valley Gardens');
  });

  it('gives the email in the address to the author named there without the middle initial', async () => {
    const result = await parseManuscript(makeTextPdf(pages()), 'jss.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Alma Q. Quist', ['alma.quist@valley.example.org']],
      ['Bruno Tell', []],
    ]);
  });
});

describe('a thesis template whose Title style heads every unnumbered section', () => {
  /** A paragraph of one run in a size of its own (half-points, as Word writes it). */
  const sized = (text: string, halfPoints: number) =>
    `<w:p><w:r><w:rPr><w:sz w:val="${halfPoints}"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
  const file = () =>
    makeDocx([
      sized('Northvale College of Horticulture', 36),
      sized('Department of Gardens', 36),
      sized('Frost and the Flowering Dates of Valley Gardens', 36),
      sized('Bachelor thesis', 28),
      sized('Autor: Ondřej Novák', 28),
      sized('Vedoucí práce: Ing. Marek Král', 28),
      sized('Jihlava 2017', 28),
      paragraph('Abstrakt', 'Title'),
      paragraph('Tato práce sleduje data mrazů a kvetení zahrad v severních údolích a jejich souvislost.'),
      paragraph('Klíčová slova', 'Title'),
      paragraph('zahrady, mráz, kvetení'),
      paragraph('Abstract', 'Title'),
      paragraph('This thesis follows the frost and flowering dates of gardens in the northern valleys.'),
      paragraph('Poděkování', 'Title'),
      paragraph('Děkuji vedoucímu práce za konzultace.'),
      paragraph('Introduction', 'Heading1'),
      paragraph(
        'The gardens of the northern valleys flower late, and their frost dates vary from year to year.',
      ),
    ]);

  it('takes the cover’s largest line for the title, not the first heading in the Title style', async () => {
    const result = await parseManuscript(file(), 'thesis.docx', limits);
    expect(result.title).toBe('Frost and the Flowering Dates of Valley Gardens');
  });

  it('takes the name after the cover’s "Autor:" label for the author, not the supervisor', async () => {
    const result = await parseManuscript(file(), 'thesis.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Ondřej Novák']);
  });
});

describe('a Czech thesis whose list is headed "Seznam použité literatury"', () => {
  const entries = [
    'ROE, Alma. Zahrady severních údolí. Brno: Zahradní tisk, 2013. ISBN 978-80-000-0000-1.',
    'POE, Bruno a Cyril TELL. Mrazy a kvetení. Plzeň, 2015.',
    'Frost guide. Garden Notes [online]. [cit. 2017-01-16]. Dostupné z: https://example.org/frost',
  ];
  const file = () =>
    makeDocx([
      paragraph('Mrazy a kvetení zahrad v severních údolích', 'Title'),
      paragraph('Úvod', 'Heading1'),
      paragraph('Zahrady severních údolí kvetou pozdě a data jejich mrazů se rok od roku liší.'),
      paragraph('Seznam použité literatury', 'Heading1'),
      ...entries.map((e) => paragraph(e)),
      paragraph('Seznam obrázků', 'Heading1'),
      paragraph('Obrázek 1: Zahrada v údolí 10'),
    ]);

  it('reads the list under the Czech heading', async () => {
    const result = await parseManuscript(file(), 'prace.docx', limits);
    expect(result.references.map((r) => r.raw)).toEqual(entries);
  });
});

describe('a Dutch article whose list is headed "Referenties"', () => {
  const entries = [
    '[Roe & Poe, 2015] Roe, Alma, and Bruno Poe. “Frost dates in valley gardens.” Garden Letters 12 (2015): 40-52.',
    '[Tell et al., 2020] Tell, Cyril, et al. “Snow cover and bloom.” Journal of Cold Gardens 3 (2020): 1-10.',
  ];
  const file = () =>
    makeDocx([
      paragraph('Mrazen en bloei in de tuinen van de noordelijke dalen', 'Heading1'),
      paragraph('Mini samenvatting', 'Heading1'),
      paragraph('Dit artikel beschrijft de vorstdata en de bloei van de tuinen in de noordelijke dalen.'),
      paragraph('Inleiding', 'Heading1'),
      paragraph(
        'De tuinen van de noordelijke dalen bloeien laat, en hun vorstdata verschillen van jaar tot jaar.',
      ),
      paragraph('Referenties', 'Heading1'),
      ...entries.map((e) => paragraph(e)),
      paragraph('Over de auteur', 'Heading1'),
      paragraph('Alma Roe (1980) werkt aan de universiteit van Noordvale.'),
    ]);

  it('reads the list under the Dutch heading', async () => {
    const result = await parseManuscript(file(), 'artikel.docx', limits);
    expect(result.references.map((r) => r.raw)).toEqual(entries);
  });

  it('reads the abstract under "Mini samenvatting", a label with a word that says it is short', async () => {
    const result = await parseManuscript(file(), 'artikel.docx', limits);
    expect(result.abstract).toBe(
      'Dit artikel beschrijft de vorstdata en de bloei van de tuinen in de noordelijke dalen.',
    );
  });
});

describe('a blinded Word manuscript that opens on its abstract', () => {
  const core = (title: string) => ({
    name: 'docProps/core.xml',
    data: Buffer.from(
      `<?xml version="1.0"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${title}</dc:title></cp:coreProperties>`,
    ),
  });
  const styles = paragraphStyles([
    ['Heading2', 'heading 2'],
    ['Heading3', 'heading 3'],
  ]);
  const file = (title: string) =>
    makeDocx(
      [
        paragraph('Abstract', 'Heading2'),
        paragraph('Frost dates in valley gardens vary from year to year; we audited them over ten seasons.'),
        paragraph('Introduction', 'Heading2'),
        paragraph('The gardens of the northern valleys flower late, and their frost dates vary.'),
        paragraph('Methods', 'Heading2'),
        paragraph('Site selection and counts', 'Heading3'),
        paragraph('We chose twelve gardens and counted frost nights at each over ten seasons.'),
      ],
      [styles, core(title)],
    );

  it('takes the declared title, not a heading of the body', async () => {
    const result = await parseManuscript(
      file('Frost dates of valley gardens over ten seasons'),
      'b.docx',
      limits,
    );
    expect(result.title).toBe('Frost dates of valley gardens over ten seasons');
    expect(result.abstract).toMatch(/^Frost dates in valley gardens vary/);
  });

  it('leaves the title out when the declared one is a template’s stale value', async () => {
    const result = await parseManuscript(file('Bakalářská práce'), 'b.docx', limits);
    expect(result.title).toBeNull();
  });
});
