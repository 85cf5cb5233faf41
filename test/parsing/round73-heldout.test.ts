// Layouts met in the sixty-eighth held-out set (front matter given in two languages: a Portuguese or
// Spanish title and abstract, then the same in English), fixed in the seventy-third round. Names,
// titles and text are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, piecesOnOneLine, textLine, type PdfTextLine } from './make-files.ts';

const limits = testConfig().parsing;

const TITLE_PT = 'Plataforma de Controle e Manejo de Rebanhos Leiteiros';
const TITLE_EN = 'Control and Management Platform for Dairy Herds';
const RESUMO =
  'O manejo eficiente de rebanhos leiteiros depende de registros que ainda se fazem a mao em muitas propriedades, e propomos uma plataforma para eles.';
const ABSTRACT =
  'Efficient management of dairy herds depends on records still kept by hand on many farms, and we propose a platform for them.';

/** The abstract in the paper's language under its label, then the English one under its own. */
function abstracts(top: number): PdfTextLine[] {
  return [
    textLine('RESUMO', top, 10, { bold: true }),
    textLine(RESUMO, top - 16, 9),
    textLine('ABSTRACT', top - 44, 10, { bold: true }),
    textLine(ABSTRACT, top - 60, 9),
    textLine('INTRODUCAO', top - 96, 11, { bold: true }),
    ...bodyProse(top - 116, 30),
  ];
}

describe('a title in Portuguese over the same title in English, in its size', () => {
  // The translation is set in the title's size in another face (the template's italics).
  const file = makeTextPdf([
    [
      textLine(TITLE_PT, 760, 16, { bold: true }),
      textLine(TITLE_EN, 740, 16),
      textLine('Jane Q. Roe', 712, 11),
      textLine('University of Northvale', 698, 10),
      ...abstracts(660),
    ],
  ]);

  it('reads the title in the language written first, the translation no part of it', async () => {
    const result = await parseManuscript(file, 'bilingual-title.pdf', limits);
    expect(result.title).toBe(TITLE_PT);
  });
});

describe('names each beside its address in braces, over "RESUMO" and "ABSTRACT"', () => {
  const file = makeTextPdf([
    [
      textLine(TITLE_PT, 760, 16, { bold: true }),
      textLine('Jane Roe   { jane.roe@northvale.example.org }', 728, 11),
      textLine('John Doe   { john.doe@northvale.example.org }', 714, 11),
      textLine('Ann Lee   { ann.lee@northvale.example.org }', 700, 11),
      ...abstracts(660),
    ],
  ]);

  it('reads each name with the address beside it', async () => {
    const result = await parseManuscript(file, 'braced-emails.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Jane Roe', ['jane.roe@northvale.example.org']],
      ['John Doe', ['john.doe@northvale.example.org']],
      ['Ann Lee', ['ann.lee@northvale.example.org']],
    ]);
  });

  it('ends the front matter at "RESUMO": the abstract is no author’s affiliation', async () => {
    const result = await parseManuscript(file, 'braced-emails.pdf', limits);
    expect(result.authors.flatMap((a) => a.affiliations)).toEqual([]);
  });
});

describe('a byline written surname first, the names set apart by semicolons, over its affiliation', () => {
  const file = makeTextPdf([
    [
      textLine('Medicion del Tamano de Microburbujas con un Telefono Movil', 760, 16, { bold: true }),
      textLine('Ordonez, Carlos; Guerrero, Mari; Florez, Juan; Espana, Elena', 730, 12),
      textLine('Universidad del Cauca, Popayan, Colombia.', 716, 12),
      textLine(
        'Resumen. La eficiencia de los sistemas de flotacion depende del tamano de las burbujas.',
        680,
        10,
      ),
      textLine('1 Introduccion', 640, 12, { bold: true }),
      ...bodyProse(620, 30),
    ],
  ]);

  it('reads each name given name first', async () => {
    const result = await parseManuscript(file, 'semicolons.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual([
      'Carlos Ordonez',
      'Mari Guerrero',
      'Juan Florez',
      'Elena Espana',
    ]);
  });
});

describe('a byline with a role’s word where the advisor’s name goes ("Orientador")', () => {
  const file = makeTextPdf([
    [
      textLine('Desenvolvimento de firmware robusto e multiplataforma', 760, 16, { bold: true }),
      ...piecesOnOneLine(
        [
          { text: 'Jane Q. Roe' },
          { text: '1', sup: true },
          { text: ' and Orientador' },
          { text: '2', sup: true },
        ],
        734,
        11,
      ),
      textLine(
        '1 Graduanda em Engenharia, Universidade de Northvale, jane.roe@northvale.example.org',
        716,
        8,
      ),
      textLine('2 Professor da Universidade de Northvale, orientador@northvale.example.org', 706, 8),
      ...abstracts(670),
    ],
  ]);

  it('reads the student as the one author, the placeholder as no one', async () => {
    const result = await parseManuscript(file, 'placeholder-advisor.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Q. Roe']);
  });
});
