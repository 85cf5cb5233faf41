// A thesis printed to PDF from Word at 1.5 spacing: every line comes out a block of its own (its
// lines are as far apart as paragraphs), after a cover, a long table of contents and a signed
// statement. The abstract's label was looked for twelve blocks past the front matter's end, which
// such lines used up long before it (held-out set 22's Hungarian thesis: the abstract not found).
// A contents entry, or a line of a paragraph going on in the next block, no longer counts as a
// paragraph of the reach. Names and texts are made up.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { makeTextPdf } from './make-files.ts';

const limits = testConfig().parsing;

/** Lines of 11-point text set 19 points apart (1.5 spacing) from `top` down. */
const spaced = (texts: string[], top: number) =>
  texts.map((text, i) => ({ text, size: 11, x: 72, y: top - i * 19 }));

const STATEMENT = [
  'I, the undersigned Tamara Velkova, declare that I wrote this thesis without any help that',
  'was not allowed, by myself, using only the sources named in it. Every part that I took',
  'word for word, or with the same meaning in other words, from another source is marked',
  'clearly with its source. I agree that the basic data of this work (its author, its title,',
  'its abstracts in two languages, its year and the name of its supervisor) are published',
  'by the university in electronic form, and that the whole text of the work is published',
  'on the university network for those who are allowed to read it there. I declare that',
  'the work handed in and its electronic version are the same, and that a work kept secret',
  'by permission of the dean is published only after three years have passed since then.',
  'I also declare that the programs written for this work are my own, that the measurements',
  'reported in it were made by me on the servers described in its third chapter, and that',
  'the data sets it uses are public or were made for it, with the consent of the people who',
  'took part, in the way the ethics board of the faculty asked for in its letter of approval.',
  'Skopje, the second of December of the year in which this thesis was handed in to the board',
];
const RESUMEN = [
  'Esta tesis presenta un sistema que escala servidores web de acuerdo con la carga que',
  'reciben, y lo evalua con una aplicacion de mensajes que se ejecuta en varios servidores.',
];
const ABSTRACT = [
  'This thesis presents a system that scales web servers with the load they receive, and',
  'evaluates it with a message board application that runs on several servers at once.',
];

describe('the abstract of a thesis printed from Word at 1.5 spacing', () => {
  it('is found after a long table of contents and a signed statement, the English one kept', async () => {
    const contents = Array.from(
      { length: 40 },
      (_, i) =>
        `${Math.floor(i / 5) + 1}.${(i % 5) + 1} Section on scaling part ${i + 1} ${'.'.repeat(60)} ${i + 3}`,
    );
    const pdf = makeTextPdf([
      [
        { text: 'Scaling Web Servers by Their Load', size: 20, x: 72, y: 700, bold: true },
        { text: 'Tamara Velkova', size: 14, x: 72, y: 640 },
        { text: 'Supervisor: Ivo Petrov', size: 12, x: 72, y: 600 },
      ],
      [{ text: 'Contents', size: 16, x: 72, y: 780, bold: true }, ...spaced(contents.slice(0, 36), 750)],
      [...spaced(contents.slice(36), 780)],
      [{ text: 'STATEMENT OF THE STUDENT', size: 14, x: 72, y: 780, bold: true }, ...spaced(STATEMENT, 750)],
      [{ text: 'Resumen', size: 16, x: 72, y: 780, bold: true }, ...spaced(RESUMEN, 750)],
      [{ text: 'Abstract', size: 16, x: 72, y: 780, bold: true }, ...spaced(ABSTRACT, 750)],
      [{ text: '1 Introduction', size: 16, x: 72, y: 780, bold: true }, ...spaced(STATEMENT, 750)],
    ]);
    const result = await parseManuscript(pdf, 'thesis.pdf', limits);
    expect(result.abstract).toBe(ABSTRACT.join(' '));
  });
});
