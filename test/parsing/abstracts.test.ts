// The abstract's rules (src/parsing/abstract.ts), each on a made-up file shaped like the layouts
// met in the dev and held-out sets: an abstract with no label after the copyright line, a
// structured abstract of run-in parts with no heading, a label in another language with its
// keywords line, an abstract broken over a page with a footnote between its halves, a keywords
// line set in the abstract's last block, a run-in abstract over a numbered heading at the body's
// size, and a significance statement after the abstract. All text is made up.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeDocx, makeTextPdf, paragraph } from './make-files.ts';

const limits = testConfig().parsing;

type PdfLine = Parameters<typeof makeTextPdf>[0][number][number];

/** Lines of `size` points from `y` down, 1.2 sizes apart. */
const lines = (texts: string[], y: number, size = 9): PdfLine[] =>
  texts.map((text, i) => ({ text, size, x: 72, y: y - i * size * 1.2 }));

const ABSTRACT_LINES = [
  'Objectives. We asked how often small gardens feed the birds that visit them in the winter',
  'months. Methods. Volunteers counted the visits of birds to forty gardens over two winters',
  'and noted the food they found there. Results. Gardens with feeders drew three times the',
  'visits of gardens without them, and the visits were longest on the coldest days of each',
  'month. Conclusion. Feeders matter most to the birds when the weather is at its worst.',
];

async function parse(bytes: Uint8Array, name: string) {
  return parseManuscript(bytes, name, limits);
}

describe('an abstract with no label', () => {
  it('is the paragraph after the received and copyright lines, before the first heading', async () => {
    const pdf = makeTextPdf([
      [
        { text: 'Birds in Small Gardens Over Two Winters', size: 18, x: 72, y: 780 },
        { text: 'Alma Berg, Carl Dahl, and Eva Fisk', size: 12, x: 72, y: 750 },
        ...lines(['Department of Zoology, University of Somewhere, Sometown, Country'], 730),
        ...lines(['Received 3 March 2020; Accepted 9 May 2020'], 712),
        ...lines(
          [
            'Copyright © 2020 Alma Berg et al. This is an open access article distributed under the',
            'Creative Commons Attribution License, which permits unrestricted use in any medium.',
          ],
          694,
        ),
        ...lines(ABSTRACT_LINES, 660),
        { text: '1. Introduction', size: 12, x: 72, y: 590, bold: true },
        ...bodyProse(570),
      ],
    ]);
    const result = await parse(pdf, 'unlabelled.pdf');
    expect(result.abstract).toMatch(/^Objectives\. We asked how often/);
    expect(result.abstract).toMatch(/at its worst\.$/);
    expect(result.abstract).not.toMatch(/Copyright|Received|Introduction/);
  });

  it('follows an affiliation line set like a heading, in the byline type', async () => {
    const pdf = makeTextPdf([
      [
        { text: 'Birds in Small Gardens Over Two Winters', size: 18, x: 72, y: 780 },
        { text: 'ALMA BERG and CARL DAHL', size: 12, x: 72, y: 750 },
        { text: 'University of Somewhere', size: 12, x: 72, y: 730, bold: true },
        ...lines(ABSTRACT_LINES, 710),
        ...lines(['CCS Concepts: Applied computing → Life sciences'], 640),
        { text: '1 INTRODUCTION', size: 12, x: 72, y: 610, bold: true },
        ...bodyProse(590),
      ],
    ]);
    const result = await parse(pdf, 'affiliation-heading.pdf');
    expect(result.abstract).toMatch(/^Objectives\. We asked how often/);
    expect(result.abstract).not.toMatch(/CCS Concepts/);
  });

  it('is a sentence set right above the keywords line', async () => {
    const docx = makeDocx([
      paragraph('Birds in Small Gardens', 'Title'),
      paragraph('Alma Berg and Carl Dahl', 'Author'),
      paragraph('This paper counts the birds that visit small gardens in winter.'),
      paragraph('Keywords: birds, gardens, winter'),
      paragraph('Introduction', 'Heading1'),
      paragraph('Gardens are small, and the birds that visit them are many; '.repeat(8)),
    ]);
    const result = await parse(docx, 'above-keywords.docx');
    expect(result.abstract).toBe('This paper counts the birds that visit small gardens in winter.');
  });
});

describe('a structured abstract of run-in parts', () => {
  it('takes every part, with no heading over them, and stops at the keywords', async () => {
    const docx = makeDocx([
      paragraph('Birds in Small Gardens', 'Title'),
      paragraph('Alma Berg and Carl Dahl', 'Author'),
      paragraph('Background: Small gardens feed many birds in winter, but how many is not known.'),
      paragraph('Methods: Volunteers counted the visits of birds to forty gardens over two winters.'),
      paragraph('Results: Gardens with feeders drew three times the visits of gardens without them.'),
      paragraph('Conclusions: Feeders matter most to the birds when the weather is at its worst.'),
      paragraph('Keywords: birds, gardens, winter'),
      paragraph('Introduction', 'Heading1'),
      paragraph('Gardens are small, and the birds that visit them are many; '.repeat(8)),
    ]);
    const result = await parse(docx, 'structured.docx');
    expect(result.abstract).toMatch(/^Background: Small gardens/);
    expect(result.abstract).toMatch(/Conclusions: Feeders matter most/);
    expect(result.abstract).not.toMatch(/Keywords/);
  });
});

describe('a label in another language', () => {
  it('is read when there is no English label, and its keywords line ends the abstract', async () => {
    const docx = makeDocx([
      paragraph('Aves en jardines pequeños', 'Title'),
      paragraph('Alma Berg y Carl Dahl', 'Author'),
      paragraph('Resumen:', 'Heading2'),
      paragraph(
        'Objetivo: contar las aves que visitan los jardines pequeños en invierno. Resultados: los jardines con comederos reciben tres veces más visitas.',
      ),
      paragraph('Palabras clave: aves, jardines, invierno.'),
      paragraph('Introducción', 'Heading1'),
      paragraph('Los jardines son pequeños y las aves que los visitan son muchas; '.repeat(8)),
    ]);
    const result = await parse(docx, 'resumen.docx');
    expect(result.abstract).toMatch(/^Objetivo: contar las aves/);
    expect(result.abstract).not.toMatch(/Palabras clave/);
  });
});

describe('where a labelled abstract ends', () => {
  it('goes on over a page break with a footnote between its halves', async () => {
    const pdf = makeTextPdf([
      [
        { text: 'Birds in Small Gardens Over Two Winters', size: 18, x: 72, y: 780 },
        { text: 'Alma Berg and Carl Dahl', size: 12, x: 72, y: 750 },
        { text: 'Abstract', size: 12, x: 72, y: 200, bold: true },
        ...lines(
          [
            'Volunteers counted the visits of birds to forty gardens over two winters and noted',
            'the food they found there. Gardens with feeders drew three times the visits of the',
          ],
          180,
          10,
        ),
        ...lines(['1 Funded by the Example Foundation for Gardens.'], 60, 7),
      ],
      [
        ...lines(
          ['gardens without them, most of all on the coldest days of each of the two winters.'],
          780,
          10,
        ),
        { text: '1. Introduction', size: 12, x: 72, y: 740, bold: true },
        ...bodyProse(720),
      ],
    ]);
    const result = await parse(pdf, 'page-break.pdf');
    expect(result.abstract).toMatch(/^Volunteers counted/);
    expect(result.abstract).toMatch(/coldest days of each of the two winters\.$/);
    expect(result.abstract).not.toMatch(/Funded|Introduction/);
  });

  it('stops at a keywords line set in its last block', async () => {
    const pdf = makeTextPdf([
      [
        { text: 'Birds in Small Gardens Over Two Winters', size: 18, x: 72, y: 780 },
        { text: 'Alma Berg and Carl Dahl', size: 12, x: 72, y: 750 },
        { text: 'Abstract', size: 12, x: 72, y: 700, bold: true },
        ...lines([...ABSTRACT_LINES, 'Keywords: birds, gardens, winter, feeders'], 680, 10),
        { text: '1. Introduction', size: 12, x: 72, y: 580, bold: true },
        ...bodyProse(560),
      ],
    ]);
    const result = await parse(pdf, 'keywords-inside.pdf');
    expect(result.abstract).toMatch(/^Objectives\. We asked/);
    expect(result.abstract).toMatch(/at its worst\.$/);
  });

  it('stops at a numbered heading set at the body size after a run-in abstract', async () => {
    const pdf = makeTextPdf([
      [
        { text: 'Birds in Small Gardens Over Two Winters', size: 18, x: 72, y: 780 },
        { text: 'Alma Berg and Carl Dahl', size: 12, x: 72, y: 750 },
        ...lines([`Abstract— ${ABSTRACT_LINES[0]}`, ...ABSTRACT_LINES.slice(1)], 720, 9),
        ...lines(['I. INTRODUCTION'], 640, 10),
        ...lines(
          [
            'Gardens are small, and the birds that visit them are many, so counting them is a task',
            'for many hands over many days, which volunteers have long been glad to give to it.',
          ],
          620,
          10,
        ),
      ],
    ]);
    const result = await parse(pdf, 'run-in.pdf');
    expect(result.abstract).toMatch(/at its worst\.$/);
    expect(result.abstract).not.toMatch(/INTRODUCTION|volunteers have long/);
  });

  it('stops at a significance statement after it', async () => {
    const docx = makeDocx([
      paragraph('Birds in Small Gardens', 'Title'),
      paragraph('Alma Berg and Carl Dahl', 'Author'),
      paragraph('Abstract. Feeders in small gardens triple the visits of birds in winter.'),
      paragraph('Significance. Gardeners can help birds most on the coldest days.'),
      paragraph('Introduction', 'Heading1'),
      paragraph('Gardens are small, and the birds that visit them are many; '.repeat(8)),
    ]);
    const result = await parse(docx, 'significance.docx');
    expect(result.abstract).toBe('Feeders in small gardens triple the visits of birds in winter.');
  });
});
