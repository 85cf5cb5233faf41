// Layouts met in the twelfth held-out set, fixed in the fourteenth round: an abstract run in after an
// upper-case label and set in a face of its own ("ABSTRACT Measurement ...", Biophysical Journal's
// Quarto format), ending where the body's face comes back. Names and texts are made up; only the
// shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf } from './make-files.ts';

const limits = testConfig().parsing;

type PdfLine = Parameters<typeof makeTextPdf>[0][number][number];

const ABSTRACT_LINES = [
  'ABSTRACT Gardens in cold valleys were counted over ten seasons to learn how frost moves the',
  'dates of flowering. We found that the first frost of autumn came later each decade, and that',
  'early flowering plants gained the most from the change. The effect was larger in the north of',
  'the valleys than in the south, and it held when the altitude of each garden was allowed for.',
];

describe('an abstract run in after an upper-case label, in a face of its own (Biophysical Journal)', () => {
  const pdf = () => {
    const lines: PdfLine[] = [
      { text: 'Frost and the Flowering Dates of Valley Gardens', size: 16, x: 72, y: 780, bold: true },
      { text: 'Alma Quist1, Bruno Tell1', size: 10, x: 72, y: 755 },
      { text: '1Department of Botany, Northfield University, Northfield', size: 10, x: 72, y: 741 },
      ...ABSTRACT_LINES.map((text, k) => ({ text, size: 10, x: 72, y: 715 - k * 13, bold: true })),
      { text: 'All data are available in a public archive of the valley surveys.', size: 10, x: 72, y: 655 },
      ...bodyProse(625, 24),
    ];
    return makeTextPdf([lines]);
  };

  it('reads the abstract after the label and stops where the body face comes back', async () => {
    const result = await parseManuscript(pdf(), 'frost.pdf', limits);
    expect(result.abstract).toMatch(/^Gardens in cold valleys/);
    expect(result.abstract).toMatch(/allowed for\.$/);
    expect(result.abstract).not.toMatch(/public archive|Line 1 of the body/);
  });
});
