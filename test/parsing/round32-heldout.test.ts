// Layouts met in the thirtieth held-out set, fixed in the thirty-second round.
// Names, titles and identifiers are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import {
  bodyProse,
  makeDocx,
  makeTextPdf,
  paragraph,
  textWidth,
  textLine,
  paragraphStyles,
} from './make-files.ts';

const limits = testConfig().parsing;

describe('a Word report whose first section opens on its first subsection right under the title', () => {
  const styles = paragraphStyles([
    ['Title', 'Title'],
    ['Heading1', 'heading 1'],
    ['Heading2', 'heading 2'],
  ]);
  const prose =
    'Doze participantes foram acompanhados ao longo de quatro meses, com duas sessoes por semana, ' +
    'e cada sessao teve tres tentativas de forca maxima e dez tentativas de controle de forca, ' +
    'registradas a cem amostras por segundo e filtradas antes da extracao das medidas de erro.';
  const file = () =>
    makeDocx(
      [
        paragraph('Controle de Forca em Pacientes: Analise Longitudinal do Erro de Rastreamento', 'Title'),
        paragraph('Analise dos Dados', 'Heading1'),
        paragraph('Participantes e Protocolo', 'Heading2'),
        paragraph(prose),
        paragraph('Processamento dos Sinais', 'Heading2'),
        paragraph(prose),
      ],
      [styles],
    );

  it('reads no author: the section heading is no byline', async () => {
    const result = await parseManuscript(file(), 'pt-report.docx', limits);
    expect(result.title).toBe('Controle de Forca em Pacientes: Analise Longitudinal do Erro de Rastreamento');
    expect(result.authors).toEqual([]);
  });
});

describe("LIPIcs's subject classification line under the abstract", () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'Counting Paths in Sparse Layered Graphs', size: 17, x: 72, y: 760, bold: true },
        { text: 'Ada Quell', size: 11, x: 72, y: 730, bold: true },
        { text: 'Hill University, Computing Laboratory, Country', size: 9, x: 72, y: 716 },
        { text: 'Abstract', size: 11, x: 72, y: 680, bold: true },
        textLine(
          'We count the paths of sparse layered graphs in time linear in their edges and show',
          664,
          9.5,
        ),
        textLine(
          'that no algorithm does better on graphs of bounded width under a standard conjecture.',
          652,
          9.5,
        ),
        textLine('2012 ACM Subject Classification Theory of computation Graph algorithms analysis', 630, 9),
        { text: 'Keywords and phrases layered graphs, path counting', size: 9, x: 72, y: 618 },
        { text: '1 Introduction', size: 13, x: 72, y: 580, bold: true },
        ...bodyProse(560, 30),
      ],
    ]);

  it('ends the abstract before the classification', async () => {
    const result = await parseManuscript(file(), 'lipics.pdf', limits);
    expect(result.abstract).toBe(
      'We count the paths of sparse layered graphs in time linear in their edges and show that no algorithm does better on graphs of bounded width under a standard conjecture.',
    );
  });
});

describe('a raised mass number set before its element in a title ("with ⁹Be Nuclei")', () => {
  const head = 'Deuteron Scattering on';
  const sup = 18 * 0.7;
  // A word space before the raised number; the number touches the element after it.
  const at = 72 + textWidth(head, 18) + 9;
  const file = () =>
    makeTextPdf([
      [
        { text: head, size: 18, x: 72, y: 760 },
        { text: '9', size: sup, x: at, y: 766 },
        { text: 'Be Nuclei at Low Energies', size: 18, x: at + textWidth('9', sup) * 0.96, y: 760 },
        { text: 'Ana Roe and Bo Lind', size: 11, x: 72, y: 730 },
        { text: 'Abstract', size: 11, x: 72, y: 690, bold: true },
        ...bodyProse(670, 30),
      ],
    ]);

  it('keeps the number, and the space before it, in the title', async () => {
    const result = await parseManuscript(file(), 'iop.pdf', limits);
    expect(result.title).toBe('Deuteron Scattering on 9Be Nuclei at Low Energies');
  });
});

describe("a title that the other pages repeat as their running head (ICML's)", () => {
  const title = 'Sparse Codes in Dense Places';
  const later = (n: number) => [
    { text: title, size: 9, x: 230, y: 810 },
    ...bodyProse(760, 40),
    { text: String(n), size: 9, x: 290, y: 40 },
  ];
  const file = () =>
    makeTextPdf([
      [
        { text: title, size: 16, x: 190, y: 790, bold: true },
        { text: 'Ana Roe 1 Bo Lind 2', size: 10, x: 220, y: 760, bold: true },
        { text: 'Abstract', size: 12, x: 72, y: 720, bold: true },
        ...bodyProse(700, 40),
        { text: '1', size: 9, x: 290, y: 40 },
      ],
      later(2),
      later(3),
      later(4),
    ]);

  it('keeps the title on its own page, where it is set larger', async () => {
    const result = await parseManuscript(file(), 'icml.pdf', limits);
    expect(result.title).toBe(title);
  });
});

describe('an address whose underscore LaTeX drew as a rule ("<xuelong li@ieee.org>")', () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'Sparse Codes in Dense Places', size: 16, x: 72, y: 780, bold: true },
        { text: 'Ana Roe and Bo Lind', size: 11, x: 72, y: 750 },
        { text: 'Correspondence to: Ana Roe <ana roe@hill.edu>.', size: 9, x: 72, y: 736 },
        { text: 'Abstract', size: 12, x: 72, y: 700, bold: true },
        ...bodyProse(680, 30),
      ],
    ]);

  it('reads the gap in the brackets as the underscore', async () => {
    const result = await parseManuscript(file(), 'ruled.pdf', limits);
    expect(result.authors.map((a) => a.emails)).toEqual([['ana_roe@hill.edu'], []]);
  });
});

describe('a compound broken at one of its own hyphens at a line end ("coupled-" / "reaction-channel")', () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'Transfer Reactions on Light Nuclei', size: 16, x: 72, y: 780, bold: true },
        { text: 'Ana Roe and Bo Lind', size: 11, x: 72, y: 750 },
        textLine('Abstract. The one-nucleon transfer reactions are analysed within the coupled-', 710),
        { text: 'reaction-channel approach, and the results of the state-of-', size: 10, x: 72, y: 698 },
        { text: 'the-art models are compared with the measured cross sections.', size: 10, x: 72, y: 686 },
        { text: '1. Introduction', size: 12, x: 72, y: 650, bold: true },
        ...bodyProse(630, 30),
      ],
    ]);

  it('keeps the hyphen: TeX breaks such a word at its own hyphen only', async () => {
    const result = await parseManuscript(file(), 'compound.pdf', limits);
    expect(result.abstract).toBe(
      'The one-nucleon transfer reactions are analysed within the coupled-reaction-channel approach, and the results of the state-of-the-art models are compared with the measured cross sections.',
    );
  });
});
