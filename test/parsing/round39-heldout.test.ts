// Layouts met in the thirty-seventh held-out set (a Finnish university's bachelor thesis: a cover
// title over its subtitle in another type, an abstract form; a Flemish college's project report
// written in a word processor: title, student, kind of work, the supervisor named after a label),
// fixed in the thirty-ninth round. Names, titles and texts are made up; only the shapes follow the
// files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import {
  bodyProse,
  docxLargeParagraph,
  makeDocx,
  makeTextPdf,
  paragraph,
  wordBodyParagraphs,
} from './make-files.ts';

const limits = testConfig().parsing;

const PROSE =
  'Exercises checked by a machine tell a student at once whether an answer is right. We read the ' +
  'wrong answers of three courses and sorted them by the error each one shows. Most wrong answers ' +
  'fall into a few kinds, and a checker that knows these kinds can say more than that an answer is ' +
  'wrong. We describe the kinds and how a teacher may write feedback for each of them in turn.';

describe('a thesis cover: the title set large over its subtitle in a smaller bold type', () => {
  const title = 'Right Answers Only!';
  const subtitle = 'Wrong answers and how they are read in exercises checked by machine';
  const file = (declared: string) =>
    makeTextPdf(
      [
        [
          { text: 'Bachelor Programme in Science', size: 12, x: 72, y: 800, bold: true },
          { text: title, size: 34, x: 72, y: 720 },
          { text: subtitle, size: 14, x: 72, y: 680, bold: true },
          { text: 'Maija Virtanen', size: 14, x: 72, y: 620, bold: true },
        ],
        [{ text: 'Introduction', size: 14, x: 72, y: 780, bold: true }, ...bodyProse(760, 40)],
      ],
      `/Info << /Title (${declared}) >> `,
    );

  it('takes the subtitle into the title where the declared title holds both', async () => {
    const result = await parseManuscript(file(`${title} ${subtitle}`), 'cover.pdf', limits);
    expect(result.title).toBe(`${title} ${subtitle}`);
    expect(result.authors.map((a) => a.name)).toEqual(['Maija Virtanen']);
  });

  it('leaves it out where the declared title is the large line alone', async () => {
    const result = await parseManuscript(file(`${title} of Exercises`), 'cover.pdf', limits);
    expect(result.title).toBe(title);
  });
});

describe('a thesis whose abstract form gives the title again in small print', () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'Wrong Answers in Machine-Checked Exercises', size: 20, x: 72, y: 720 },
        { text: 'Maija Virtanen', size: 14, x: 72, y: 660, bold: true },
        { text: 'Bachelor’s thesis, submitted for inspection', size: 10, x: 72, y: 200 },
      ],
      // The form in the thesis's language (Finnish: "Tiivistelmä", "Tekijä", "Työn nimi").
      [
        { text: 'Tiivistelmä', size: 14, x: 400, y: 800, bold: true },
        { text: 'Tekijä', size: 10, x: 72, y: 760, bold: true },
        { text: 'Maija Virtanen', size: 9, x: 72, y: 748 },
        { text: 'Työn nimi', size: 10, x: 72, y: 730, bold: true },
        { text: 'Wrong Answers in Machine-Checked Exercises', size: 9, x: 72, y: 718 },
        { text: 'Pääaine Mediatekniikka Koodi IL3011', size: 9, x: 72, y: 700 },
        { text: 'Vastuuopettaja professori Liisa Lahti', size: 9, x: 72, y: 688 },
      ],
      [{ text: 'Introduction', size: 14, x: 72, y: 780, bold: true }, ...bodyProse(760, 40)],
    ]);

  it('reads the byline under the cover title, not the form’s rows', async () => {
    const result = await parseManuscript(file(), 'form-title.pdf', limits);
    expect(result.title).toBe('Wrong Answers in Machine-Checked Exercises');
    expect(result.authors.map((a) => a.name)).toEqual(['Maija Virtanen']);
  });
});

describe('an abstract form: the label heads the page, the fields, then the label over the text', () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'Wrong Answers in Machine-Checked Exercises', size: 20, x: 72, y: 720 },
        { text: 'Maija Virtanen', size: 14, x: 72, y: 660, bold: true },
      ],
      [
        { text: 'Abstract', size: 14, x: 450, y: 800, bold: true },
        { text: 'North University, P.O. Box 100, 00100 North', size: 9, x: 300, y: 786, bold: true },
        { text: 'Author', size: 10, x: 72, y: 760, bold: true },
        { text: 'Maija Virtanen', size: 9, x: 72, y: 748 },
        { text: 'Title', size: 10, x: 72, y: 730, bold: true },
        { text: 'Wrong Answers in Machine-Checked Exercises', size: 9, x: 72, y: 718 },
        { text: 'Degree programme Bachelor’s Programme in Science', size: 9, x: 72, y: 700 },
        { text: 'Supervisor professor Liisa Lahti', size: 9, x: 72, y: 688 },
        { text: 'Date 1 Dec 2020 Pages 40 Language English', size: 9, x: 72, y: 676 },
        { text: 'Abstract', size: 10, x: 72, y: 650, bold: true },
        ...PROSE.match(/.{1,90}(?:\s|$)/g)!.map((line, k) => ({
          text: line.trim(),
          size: 9,
          x: 72,
          y: 636 - k * 11,
        })),
        { text: 'Keywords exercises, feedback, errors', size: 9, x: 72, y: 560 },
      ],
      [{ text: 'Introduction', size: 14, x: 72, y: 780, bold: true }, ...bodyProse(760, 40)],
    ]);

  it('reads the text under the second label, without the form’s fields', async () => {
    const result = await parseManuscript(file(), 'abstract-form.pdf', limits);
    expect(result.abstract).toBe(PROSE);
  });
});

describe('a college report’s cover: title, student, kind of work, the supervisor after a label', () => {
  const file = () =>
    makeDocx([
      docxLargeParagraph('Online shop for a small wine cellar'),
      paragraph('Pieter Claes'),
      paragraph('Eindproef 2de jaar Webdevelopment'),
      paragraph('Eindproef begeleider: Marie Dubois'),
      paragraph('Gent, juni 2020'),
      paragraph('Opzet van het project', 'Heading1'),
      ...wordBodyParagraphs(8),
    ]);

  it('reads the student over the supervisor’s field, and not the supervisor', async () => {
    const result = await parseManuscript(file(), 'eindproef.docx', limits);
    expect(result.title).toBe('Online shop for a small wine cellar');
    expect(result.authors.map((a) => a.name)).toEqual(['Pieter Claes']);
  });
});
