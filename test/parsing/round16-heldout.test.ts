// Layouts met in the fourteenth held-out set, fixed in the sixteenth round: a German paper whose list
// is headed "Literaturverzeichnis" (with a section of that name earlier in its body); reference DOIs
// broken right after the prefix's slash or its "10.", printed after a digital library's handle URL
// that holds a "10." of its own; an IUCr byline whose corresponding mark "*" follows the
// superscript letter as plain text ("Lopes,ᵃ* Jane Roe,ᵃ") and whose unlabelled abstract has the
// journal's copyright notice from the margin read into its last line; an IMS byline over an
// unlabelled abstract set smaller than the body; an Elsevier CAS front page whose label is set
// letter-spaced ("A B S T R A C T"); a thesis proposal's title page ("By:", one name a line, the
// adviser over "Adviser"); a Portuguese article with "Sumário:" run in before its abstract.
// Names and texts are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import {
  assemblePdf,
  bodyProse,
  makeDocx,
  makeTextPdf,
  paragraph,
  piecesOnOneLine,
  textLine,
} from './make-files.ts';

const limits = testConfig().parsing;

type Line = { text: string; size: number; x: number; y: number; bold?: boolean };

/** A one-page text PDF whose fonts use WinAnsiEncoding, so that "©" (0xA9) reads as itself. */
function winAnsiPdf(lines: Line[]): Uint8Array {
  const escape = (t: string) => `(${t.replace(/[\\()]/g, (c) => `\\${c}`)})`;
  const content = lines
    .map((l) => `BT /${l.bold ? 'F2' : 'F1'} ${l.size} Tf ${l.x} ${l.y} Td ${escape(l.text)} Tj ET`)
    .join('\n');
  const font = (name: string) =>
    `<< /Type /Font /Subtype /Type1 /BaseFont /${name} /Encoding /WinAnsiEncoding >>`;
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [5 0 R] /Count 1 >>',
    font('Helvetica'),
    font('Helvetica-Bold'),
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents 6 0 R >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
  ]);
}

/** Sentences of an abstract, broken into lines of about 80 characters. */
const ABSTRACT_LINES = [
  'We count the gardens of cold valleys over ten seasons and ask how the first frost of',
  'autumn moves the dates on which their plants flower. The counts were made by hand in',
  'notebooks kept at the valley archive, with the altitude of each garden noted beside it.',
  'The first frost came later each decade, most of all in the northern valleys, and early',
  'flowering plants gained the most from it. Simple rules of thumb that gardeners hold',
  'about frost and flowering are shown to fail in the highest of the valleys we counted.',
];

describe('a German reference list headed "Literaturverzeichnis"', () => {
  it('is the reference list, not the body section of that name before it', async () => {
    const docx = makeDocx([
      paragraph('Frostdaten und die Blüte in Talgärten', 'Title'),
      paragraph('Alma Quist, Bruno Tell', 'Author'),
      paragraph('Einleitung', 'Heading1'),
      paragraph('Gärten in kalten Tälern wurden über zehn Jahre gezählt [AB00].', 'BodyText'),
      paragraph('3.1 Literaturverzeichnis', 'Heading2'),
      paragraph(
        'Der Abschnitt zeigt ein Literaturverzeichnis für Bücher mit einem Autor [Qu10].',
        'BodyText',
      ),
      paragraph('Literaturverzeichnis', 'Heading1'),
      paragraph('[AB00] Abel, K.; Bibel, U.: Frost in Tälern. Format-Verlag, Bonn, 2000.', 'BodyText'),
      paragraph('[Qu10] Quist, A.: Gärten und ihr Frost. Noah & Sons, 2010.', 'BodyText'),
      paragraph('[Te14] Tell, B. et al.: Essenzen der Botanik. Verlag Formvoll, 2014.', 'BodyText'),
    ]);
    const result = await parseManuscript(docx, 'frost.docx', limits);
    expect(result.references).toHaveLength(3);
    expect(result.references[0]!.raw).toMatch(/^\[AB00\] Abel/);
  });
});

describe('reference DOIs after a handle URL, broken after the slash or the "10."', () => {
  it('reads each labelled DOI whole, not the handle', async () => {
    const entry = (y: number, lines: string[]) =>
      lines.map((text, k) => ({ text, size: 9, x: k === 0 ? 72 : 84, y: y - k * 11 }));
    const page = [
      { text: 'Frost and the Flowering Dates of Valley Gardens', size: 16, x: 72, y: 780 },
      { text: 'Alma Quist and Bruno Tell', size: 11, x: 72, y: 755 },
      ...bodyProse(720, 20),
      { text: 'References', size: 11, x: 72, y: 440, bold: true },
      ...entry(420, [
        '[AB98] ABEL K., BIBEL U.: Dithered frost maps. Garden Forum 17, 3 (1998),',
        'C219-C231. https://library.example.org/handle/10.2312/4711. doi:10.1111/',
        '2041-0001.00042. 2',
      ]),
      ...entry(380, [
        '[QT97] QUIST A., TELL B.: Frost in the valleys. Garden Forum 16, 3 (1997),',
        'C347-C355. https://library.example.org/handle/10.2312/4712. doi:10.',
        '1111/2041-0001.12.3issue.7. 2',
      ]),
    ];
    const result = await parseManuscript(makeTextPdf([page]), 'frost.pdf', limits);
    expect(result.references.map((r) => r.doi)).toEqual([
      '10.1111/2041-0001.00042',
      '10.1111/2041-0001.12.3issue.7',
    ]);
  });
});

describe('an IUCr front page', () => {
  const page = (): Line[] => [
    { text: 'Frost and the flowering dates of valley gardens', size: 14, x: 200, y: 780, bold: true },
    ...piecesOnOneLine(
      [
        { text: 'Alma Quist Roe,' },
        { text: 'a', sup: true },
        { text: '* Bruno Tell,' },
        { text: 'a', sup: true },
        { text: ' Carla Moss' },
        { text: 'a', sup: true },
      ],
      755,
      10,
      { x: 200, bold: true },
    ),
    textLine('aNorthfield University, 12 Garden Road, Northfield. Correspondence e-mail:', 740, 7, {
      x: 200,
    }),
    { text: 'alma@northfield.example', size: 7, x: 200, y: 731 },
    ...ABSTRACT_LINES.slice(0, -1).map((text, k) => ({ text, size: 10, x: 200, y: 705 - k * 12 })),
    // The journal's notice in the left margin, on the abstract's last line.
    { text: '© 2024 International Union of Gardeners', size: 7, x: 20, y: 705 - 5 * 12 },
    { text: ABSTRACT_LINES[5]!, size: 10, x: 200, y: 705 - 5 * 12 },
    { text: '1. Introduction', size: 10, x: 72, y: 600, bold: true },
    ...bodyProse(585, 30),
  ];

  it('gives the plain "*" after a name\'s superscript letter to that name, not to the next', async () => {
    const result = await parseManuscript(makeTextPdf([page()]), 'frost.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Alma Quist Roe', 'Bruno Tell', 'Carla Moss']);
  });

  it('reads the unlabelled abstract without the copyright notice from the margin', async () => {
    const result = await parseManuscript(winAnsiPdf(page()), 'frost.pdf', limits);
    expect(result.abstract).toMatch(/^We count the gardens/);
    expect(result.abstract).toMatch(/Simple rules of thumb .* the valleys we counted\.$/s);
    expect(result.abstract).not.toMatch(/©|Union of Gardeners/);
  });
});

describe('an IMS byline over an unlabelled abstract set smaller than the body', () => {
  it('reads the smaller paragraph as the abstract', async () => {
    const page = [
      { text: 'Submitted to the Annals of Valley Gardens', size: 6, x: 72, y: 800 },
      { text: 'FROST AND THE FLOWERING DATES OF VALLEY GARDENS', size: 11, x: 150, y: 770, bold: true },
      { text: 'BY ALMA QUIST1,a AND BRUNO TELL2,b', size: 11, x: 150, y: 745 },
      textLine('1Department of Botany, Northfield University, a alma@northfield.example', 730, 8, { x: 80 }),
      { text: '2School of Plants, Southfield College, b bruno@south.example', size: 8, x: 80, y: 719 },
      ...ABSTRACT_LINES.map((text, k) => ({ text, size: 9, x: 110, y: 690 - k * 11 })),
      textLine(
        '1. Introduction. Counting gardens is an old pursuit of botanists and it goes back a',
        610,
        11,
      ),
      ...bodyProse(596, 30).map((l) => ({ ...l, size: 11 })),
    ];
    const result = await parseManuscript(makeTextPdf([page]), 'frost.pdf', limits);
    expect(result.abstract).toMatch(/^We count the gardens/);
    expect(result.abstract).toMatch(/the valleys we counted\.$/);
  });
});

describe('an Elsevier CAS front page with its labels set letter-spaced', () => {
  it('reads the abstract under "A B S T R A C T"', async () => {
    const page = [
      { text: 'Frost and the flowering dates of valley gardens', size: 17, x: 72, y: 780 },
      { text: 'Alma Quista,*, Bruno Tellb', size: 12, x: 72, y: 750 },
      { text: 'aNorthfield University, Northfield bSouthfield College, Southfield', size: 8, x: 72, y: 735 },
      { text: 'A R T I C L E I N F O', size: 10, x: 72, y: 700 },
      { text: 'Keywords:', size: 8, x: 72, y: 685, bold: true },
      { text: 'frost', size: 8, x: 72, y: 675 },
      { text: 'A B S T R A C T', size: 10, x: 72, y: 650 },
      ...ABSTRACT_LINES.map((text, k) => ({ text, size: 8, x: 72, y: 635 - k * 10 })),
      { text: '1. Introduction', size: 12, x: 72, y: 560, bold: true },
      ...bodyProse(540, 30),
    ];
    const result = await parseManuscript(makeTextPdf([page]), 'frost.pdf', limits);
    expect(result.abstract).toMatch(/^We count the gardens/);
    expect(result.abstract).toMatch(/the valleys we counted\.$/);
  });
});

describe('a thesis proposal title page ("By:", one name a line, the adviser)', () => {
  it('reads the names after "By:" as the authors, not the adviser or the proposal\'s kind', async () => {
    const heading = (text: string) => paragraph(text, 'Heading2');
    const docx = makeDocx([
      paragraph('FROSTWATCH: A MOBILE APPLICATION FOR VALLEY GARDENERS', 'Heading1'),
      heading('A Capstone Research Proposal'),
      heading('Presented to the Faculty of the'),
      heading('College of Plant Studies, Northfield University'),
      heading('In Partial Fulfillment of the Requirements'),
      heading('For the Degree of Bachelor of Science in Botany'),
      heading('By:'),
      heading('Alma Rose Quist'),
      heading('Bruno Tell'),
      heading('Carla Dela Moss'),
      heading('Engr. Dario Vance'),
      heading('Adviser'),
      paragraph('May 2024'),
      paragraph('ABSTRACT'),
      paragraph(ABSTRACT_LINES.join(' ')),
    ]);
    const result = await parseManuscript(docx, 'frostwatch.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Alma Rose Quist', 'Bruno Tell', 'Carla Dela Moss']);
  });
});

describe('a proposal\'s title page with no "By:" line', () => {
  it('takes no "A Capstone Research Proposal" line for a name', async () => {
    const heading = (text: string) => paragraph(text, 'Heading2');
    const docx = makeDocx([
      paragraph('FROSTWATCH: A MOBILE APPLICATION FOR VALLEY GARDENERS', 'Heading1'),
      heading('A Capstone Research Proposal'),
      heading('Presented to the Faculty of the'),
      heading('College of Plant Studies, Northfield University'),
      paragraph('ABSTRACT'),
      paragraph(ABSTRACT_LINES.join(' ')),
    ]);
    const result = await parseManuscript(docx, 'frostwatch.docx', limits);
    expect(result.authors).toEqual([]);
  });
});

describe('a Portuguese article with its abstract run in after "Sumário:"', () => {
  const front = [
    paragraph('Geadas e a floração dos jardins dos vales', 'Title'),
    paragraph('Alma Quist', 'Author'),
  ];
  const sumario = paragraph(
    'Sumário: O presente artigo conta os jardins dos vales frios ao longo de dez anos e analisa como a primeira geada do outono altera a floração.',
    'FirstParagraph',
  );
  const body = [
    paragraph('I. Introdução', 'Heading1'),
    paragraph('Contar jardins é uma velha tarefa dos botânicos, com um século de história.', 'BodyText'),
  ];

  it('reads it as the abstract when no English one is printed', async () => {
    const result = await parseManuscript(makeDocx([...front, sumario, ...body]), 'geada.docx', limits);
    expect(result.abstract).toMatch(/^O presente artigo conta os jardins/);
  });

  it('keeps the English "Summary:" printed after it', async () => {
    const summary = paragraph(
      'Summary: This article counts the gardens of cold valleys over ten years and asks how the first frost moves flowering.',
      'BodyText',
    );
    const result = await parseManuscript(
      makeDocx([...front, sumario, summary, ...body]),
      'geada.docx',
      limits,
    );
    expect(result.abstract).toMatch(/^This article counts the gardens/);
  });
});
