// Layouts met in the twenty-second held-out set, fixed in the twenty-fourth round.
// Names, titles and texts are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { makeDocx, paragraph } from './make-files.ts';

const limits = testConfig().parsing;

/** A paragraph of one run at a size in half-points, bold when asked (a cover set by hand). */
const sizedRun = (text: string, halfPoints: number, bold = false) =>
  `<w:p><w:r><w:rPr>${bold ? '<w:b/>' : ''}<w:sz w:val="${halfPoints}"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

const prose = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    paragraph(
      `Paragraful ${i + 1} al lucrării descrie pe larg metoda, datele și rezultatele obținute în acest studiu.`,
    ),
  );

describe('a Romanian diploma cover: the kind of work set largest, the roles labelled side by side', () => {
  const file = () =>
    makeDocx([
      sizedRun('UNIVERSITATEA DIN ORAȘUL DE JOS', 26),
      sizedRun('FACULTATEA DE ȘTIINȚE', 26),
      sizedRun('DEPARTAMENTUL DE MATEMATICĂ APLICATĂ', 26),
      sizedRun('PROIECT DE DIPLOMĂ', 56, true),
      sizedRun('Grafuri rare și drumuri scurte în rețele de transport urban', 48, true),
      sizedRun('Coordonator științific:', 26),
      sizedRun('Absolvent:', 26),
      sizedRun('Prof. Ion Marinescu', 26),
      sizedRun('Dobre Ana-Maria', 26),
      sizedRun('Orașul de Jos, 2025', 26),
      ...prose(8),
    ]);

  it('takes the subject for the title, not the line naming the kind of work', async () => {
    const result = await parseManuscript(file(), 'licenta.docx', limits);
    expect(result.title).toBe('Grafuri rare și drumuri scurte în rețele de transport urban');
  });

  it('names the student under "Absolvent:", not the coordinator or the department', async () => {
    const result = await parseManuscript(file(), 'licenta.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Dobre Ana-Maria']);
  });
});

describe('a Serbian master’s cover: "Ментор:" and "Кандидат:" each over its name, an index number after the student', () => {
  const file = () =>
    makeDocx([
      sizedRun('Универзитет у Граду', 26),
      sizedRun('Технички факултет', 26),
      sizedRun('Кратки путеви у ретким графовима градског превоза', 44, true),
      sizedRun('Мастер рад', 30),
      sizedRun('Ментор:', 24),
      sizedRun('др Јован Петровић, ред. проф.', 24),
      sizedRun('Кандидат:', 24),
      sizedRun('Милица Јанковић 1234/2020', 24),
      sizedRun('Град, јун 2024.', 24),
      ...prose(8),
    ]);

  it('names the candidate, without the index number, and not the mentor', async () => {
    const result = await parseManuscript(file(), 'master.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Милица Јанковић']);
  });
});
