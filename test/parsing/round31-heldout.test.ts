// Layouts met in the twenty-ninth held-out set, fixed in the thirty-first round.
// Names, titles and identifiers are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, textLine } from './make-files.ts';

const limits = testConfig().parsing;

describe('a Spanish thesis cover: department and division over the title, the student under "presenta"', () => {
  const file = () =>
    makeTextPdf([
      [
        // The seal's ring text runs into the department's line.
        { text: 'Universidad del Valle Alto', size: 11, x: 220, y: 790, bold: true },
        { text: 'Departamento de Fisica Universidad del Valle', size: 14, x: 160, y: 760, bold: true },
        { text: 'Division de Ciencias Naturales', size: 10, x: 200, y: 740 },
        { text: 'Nubes bajas sobre los valles del norte', size: 21, x: 110, y: 640, bold: true },
        { text: 'Tesis que para obtener el titulo de', size: 12, x: 180, y: 560 },
        { text: 'Licenciada en Fisica', size: 17, x: 200, y: 530, bold: true },
        { text: 'presenta', size: 12, x: 260, y: 480 },
        { text: 'Marta Ruiz Calderon', size: 21, x: 180, y: 440, bold: true },
        textLine('Director de tesis: Pedro Gil Soto. Valle Alto, 3 de mayo de 2016.', 380, 10, { x: 150 }),
      ],
      [{ text: 'Introduccion', size: 16, x: 72, y: 760, bold: true }, ...bodyProse(720, 30)],
    ]);

  it('reads the student as the author, not the department', async () => {
    const result = await parseManuscript(file(), 'es-cover.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Marta Ruiz Calderon']);
  });
});

describe("a byline with the author's department in Spanish, in the name's bold, under her name", () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'Nubes bajas sobre los valles del norte', size: 20, x: 110, y: 760, bold: true },
        { text: 'Ana Torres Vidal', size: 12, x: 220, y: 720, bold: true },
        { text: 'Departamento de Quimica Organica', size: 12, x: 200, y: 700, bold: true },
        { text: 'Universidad del Valle Alto, Valle Alto', size: 10, x: 200, y: 686 },
        { text: 'Abstract', size: 12, x: 72, y: 640, bold: true },
        textLine(
          'We watched low clouds over the northern valleys for ten winters and counted their days.',
          624,
        ),
        ...bodyProse(600, 30),
      ],
    ]);

  it('reads the department as her affiliation, not as a second author', async () => {
    const result = await parseManuscript(file(), 'es-department.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Ana Torres Vidal']);
  });
});
