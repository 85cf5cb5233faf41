// Reader-level failures found on templates the parser had not seen: a Word title in a template's
// own style, TeX accents drawn as glyphs of their own, and `{a, b}@host` lists broken over lines.
// Every file here is made up; only the shapes follow the templates.
import { describe, expect, it } from 'vitest';
import { readDocx, sizeInPoints } from '../../src/parsing/docx/read-docx.ts';
import { isTitleStyle } from '../../src/parsing/style-names.ts';
import { mendAccents, type Item } from '../../src/parsing/pdf/geometry.ts';
import { readPdf } from '../../src/parsing/pdf/read-pdf.ts';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import {
  composeAccents,
  continuesEmailGroup,
  findEmails,
  opensEmailGroup,
} from '../../src/parsing/text-utils.ts';
import { testConfig } from '../helpers/app.ts';
import { makeDocx, makeTextPdf } from './make-files.ts';

const limits = testConfig().parsing;
const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

function styles(defs: string): { name: string; data: Buffer } {
  return {
    name: 'word/styles.xml',
    data: Buffer.from(`<?xml version="1.0"?><w:styles ${W}>${defs}</w:styles>`),
  };
}

/** A paragraph of runs, each `[text, halfPoints?]`, with `<br/>` in a text for a line break. */
function para(style: string | null, runs: [string, number?][]): string {
  const pPr = style ? `<w:pPr><w:pStyle w:val="${style}"/><w:rPr><w:sz w:val="8"/></w:rPr></w:pPr>` : '';
  const body = runs
    .map(([text, sz]) => {
      const rPr = sz ? `<w:rPr><w:sz w:val="${sz}"/></w:rPr>` : '';
      return text
        .split('<br/>')
        .map((t) => `<w:r>${rPr}<w:t xml:space="preserve">${t}</w:t></w:r>`)
        .join(`<w:r>${rPr}<w:br/></w:r>`);
    })
    .join('');
  return `<w:p>${pPr}${body}</w:p>`;
}

const BODY = 'The body of the paper goes on here at length, in the size most of the text is set in. ';

describe('DOCX: a template title style and real sizes', () => {
  it('knows a title style by its name or id, and not a subtitle, table or running title', () => {
    for (const name of ['Title', 'paper title', 'Article Title', 'Document Title', 'title', 'Main_Title'])
      expect(isTitleStyle(name), name).toBe(true);
    expect(isTitleStyle('Custom1', 'PaperTitle')).toBe(true);
    for (const name of [
      'Subtitle',
      'Running title',
      'Table Title',
      'Figure title',
      'Section Title',
      'Title Char',
      'Title page',
      'Book Title Char',
    ])
      expect(isTitleStyle(name), name).toBe(false);
  });

  it('reads w:sz in half-points, and in points in strict OOXML', () => {
    expect(sizeInPoints('48')).toBe(24);
    expect(sizeInPoints('24pt')).toBe(24);
    expect(sizeInPoints('0')).toBeNull();
    expect(sizeInPoints('big')).toBeNull();
    expect(sizeInPoints(null)).toBeNull();
  });

  it('reads a custom "paper title" style (no basedOn, no outline level) as the title', async () => {
    const docx = makeDocx(
      [
        para('papertitle', [['A Made-Up Study of Crowd Steering in a Shared Game']]),
        para('Author', [
          ['Ola Nordmann<br/>Department of Things<br/>Some University<br/>ola.nordmann@uni.example'],
        ]),
        para('Heading1', [['Background of the Shared Games We Study']]),
        para(null, [[BODY.repeat(4)]]),
        para('Heading1', [['Methods and Other Sections']]),
        para(null, [[BODY.repeat(4)]]),
      ],
      [
        styles(
          '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>' +
            '<w:style w:type="paragraph" w:customStyle="1" w:styleId="papertitle"><w:name w:val="paper title"/><w:rPr><w:sz w:val="48"/></w:rPr></w:style>' +
            '<w:style w:type="paragraph" w:customStyle="1" w:styleId="Author"><w:name w:val="Author"/><w:rPr><w:sz w:val="22"/></w:rPr></w:style>' +
            '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>' +
            '<w:style w:type="character" w:styleId="TitleChar"><w:name w:val="Title Char"/></w:style>',
        ),
      ],
    );
    const model = await readDocx(docx, limits);
    expect(model.blocks[0]).toMatchObject({ styleLevel: 0, styleName: 'paper title' });
    expect(model.blocks[0]!.relSize).toBeGreaterThan(2);
    // The byline paragraph keeps its style name and its line breaks as lines.
    expect(model.blocks[1]!.styleName).toBe('Author');
    expect(model.blocks[1]!.lines.map((l) => l.text)).toEqual([
      'Ola Nordmann',
      'Department of Things',
      'Some University',
      'ola.nordmann@uni.example',
    ]);
    // The paragraph mark's size (8 half-points in every pPr here) is not the text's.
    expect(model.blocks[3]!.relSize).toBe(1);
    const result = await parseManuscript(docx, 'paper.docx', limits);
    expect(result.title).toBe('A Made-Up Study of Crowd Steering in a Shared Game');
  });

  it('a subtitle based on the title style is not a title', async () => {
    const docx = makeDocx(
      [para('Sub', [['A Subtitle Line Set First']]), para('Ttl', [['The Real Title of the Paper']])],
      [
        styles(
          '<w:style w:type="paragraph" w:styleId="Ttl"><w:name w:val="Title"/></w:style>' +
            '<w:style w:type="paragraph" w:styleId="Sub"><w:name w:val="Subtitle"/><w:basedOn w:val="Ttl"/></w:style>',
        ),
      ],
    );
    const model = await readDocx(docx, limits);
    expect(model.blocks.map((b) => b.styleLevel)).toEqual([null, 0]);
  });

  it('without a title style, the paragraph typed in the largest size reads largest', async () => {
    const docx = makeDocx([
      para(null, [['Preprint, not peer reviewed']]),
      para(null, [['Directly Formatted Titles in Word Manuscripts', 36]]),
      para(null, [['Kari Nordmann and Per Hansen']]),
      para(null, [[BODY.repeat(6)]]),
      para('Heading1', [['Introduction to the Topic at Hand']]),
      para(null, [[BODY.repeat(6)]]),
    ]);
    const model = await readDocx(docx, limits);
    expect(model.blocks[1]!.relSize).toBeCloseTo(1.8, 2);
    expect(model.blocks[0]!.relSize).toBe(1);
    const result = await parseManuscript(docx, 'paper.docx', limits);
    expect(result.title).toBe('Directly Formatted Titles in Word Manuscripts');
  });
});

const item = (str: string, x: number, w: number, y = 700, size = 10): Item => ({
  str,
  x,
  y,
  w,
  size,
  font: 'F1',
});

describe('PDF: TeX accents drawn as glyphs of their own', () => {
  it('puts an accent that ends an item onto the letter drawn back under it', () => {
    // "Dvoˇ" ends at 124; the next item starts 4 points back, under the caron.
    const caron = mendAccents([item('Ana Dvoˇ', 90, 34), item('rakova', 120, 30)]);
    expect(caron.map((i) => i.str)).toEqual(['Ana Dvořakova']);
    // pdf.js reads the accent's shift as a space: inside a word it is not one.
    const grave = mendAccents([item('Mich `', 90, 30), item('ele Roux', 115, 40)]);
    expect(grave.map((i) => i.str)).toEqual(['Michèle Roux']);
    // Before a capital the space stays (a word-initial accent).
    const capital = mendAccents([item('Jean ´', 90, 26), item('Emile', 112, 26)]);
    expect(capital.map((i) => i.str)).toEqual(['Jean Émile']);
  });

  it('puts an accent drawn back over the letter before it onto that letter', () => {
    expect(
      mendAccents([item('Kova', 90, 20), item('ˇ', 107, 4), item('c', 112, 5)]).map((i) => i.str),
    ).toEqual(['Kovǎ', 'c']);
  });

  it('leaves quote marks, carets and degree signs that are not drawn over a letter', () => {
    // A grave as an opening quote: the word after it starts to the right, not back under it.
    expect(mendAccents([item('said `', 90, 24), item('yes', 116, 14)]).map((i) => i.str)).toEqual([
      'said `',
      'yes',
    ]);
    // A caret in a formula, and a degree sign before a unit.
    expect(mendAccents([item('x ^', 90, 12), item('a', 104, 5)]).map((i) => i.str)).toEqual(['x ^', 'a']);
    expect(mendAccents([item('25°', 90, 14), item('C', 105, 7)]).map((i) => i.str)).toEqual(['25°', 'C']);
    // On another line an overlapping x means nothing.
    expect(mendAccents([item('Dvoˇ', 90, 20), item('rak', 100, 14, 680)]).map((i) => i.str)).toEqual([
      'Dvoˇ',
      'rak',
    ]);
  });

  it('composes accents inside one string, and leaves ambiguous marks', () => {
    expect(composeAccents('Fran¸coise Zeleˇzn´y and Rich`ard')).toBe('Françoise Zeležný and Richàrd');
    expect(composeAccents("`quoted' text, x^2, and http://host.example/˜user")).toBe(
      "`quoted' text, x^2, and http://host.example/˜user",
    );
  });

  it('reads a name whose caron and grave are separate glyphs whole, in the text and the runs', async () => {
    // Helvetica with the standard encoding: \xcf is the caron, \xc1 the grave. Each piece is its
    // own text object, so pdf.js reports separate items, as it does for pdfTeX's kerned accent.
    const pdf = makeTextPdf([
      [
        { text: 'A Made-Up Title for Testing Accents', size: 18, x: 72, y: 760 },
        { text: 'Pavla Dvo\xcf', size: 10, x: 72, y: 730 },
        // "Pavla Dvo" is 45.6 points wide, the caron 3.3: the "r" goes 2 points back.
        { text: 'rak and Mich\xc1', size: 10, x: 118.9, y: 730 },
        { text: 'ele Roux', size: 10, x: 118.9 + 59.4 - 4, y: 730 },
      ],
    ]);
    const model = await readPdf(pdf, limits);
    const byline = model.blocks.find((b) => b.text.includes('Roux'))!;
    expect(byline.text).toBe('Pavla Dvořak and Michèle Roux');
    expect(byline.runs.map((r) => r.text).join('')).toBe('Pavla Dvořak and Michèle Roux');
  });
});

describe('an email group broken over two lines', () => {
  it('tells a group left open and its continuation', () => {
    expect(opensEmailGroup('{ana.lima.2, bo.chen.gr, cy.diaz')).toBe(true);
    expect(opensEmailGroup('Sets {1, 2} and {3, 4}')).toBe(false);
    expect(continuesEmailGroup('dee.evans, eli.fox}@uni.example.edu')).toBe(true);
    expect(continuesEmailGroup('dee.evans, eli.fox,')).toBe(true);
    // Plain words are local-part shaped too: the callers join only up to a line that closes.
    expect(continuesEmailGroup('Department of Things (North)')).toBe(false);
    expect(continuesEmailGroup('Department, Some University}@')).toBe(false);
    expect(continuesEmailGroup('dee.evans}')).toBe(false);
  });

  it('keeps a group split over two PDF lines in one block', async () => {
    const pdf = makeTextPdf([
      [
        { text: 'A Made-Up Title About Address Lists', size: 18, x: 72, y: 760 },
        { text: 'Ana Lima, Bo Chen, Cy Diaz, Dee Evans', size: 11, x: 100, y: 730 },
        { text: 'Some University', size: 11, x: 150, y: 715 },
        { text: '{ana.lima.2, bo.chen.gr, cy.diaz', size: 11, x: 110, y: 690, bold: true },
        { text: 'dee.evans}@uni.example.edu', size: 11, x: 130, y: 668, bold: true },
        { text: 'We define the set {x in X such that', size: 10, x: 72, y: 600 },
        { text: 'y holds} for all of them.', size: 10, x: 90, y: 580 },
      ],
    ]);
    const model = await readPdf(pdf, limits);
    const group = model.blocks.find((b) => b.text.includes('{'))!;
    expect(findEmails(group.text)).toHaveLength(4);
    // A set in prose is no group: its lines stay as the layout makes them.
    expect(model.blocks.find((b) => b.text.includes('{x'))!.text).toBe('We define the set {x in X such that');
  });

  it('stays linear on long hostile input', () => {
    // No wall-clock bound: at these lengths a rule quadratic in its input would run far past the
    // test's timeout, while a linear one takes milliseconds.
    const long = '{' + 'a.b, '.repeat(200_000);
    // None of them is an address group: too long to be one.
    expect(opensEmailGroup(long)).toBe(false);
    expect(continuesEmailGroup('a'.repeat(400_000) + '}')).toBe(false);
    expect(continuesEmailGroup('a, '.repeat(200_000))).toBe(false);
    const accents = 'a`'.repeat(200_000) + '¨'.repeat(200_000) + '/˜'.repeat(100_000);
    expect(composeAccents(accents).length).toBeLessThanOrEqual(accents.length);
    const items = Array.from({ length: 50_000 }, (_, i) => item(i % 2 ? 'eˇ' : ' `', 90 + i, 4));
    expect(mendAccents(items).length).toBeLessThanOrEqual(items.length);
  });
});
