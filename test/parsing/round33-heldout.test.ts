// Layouts met in the thirty-first held-out set (author-formatted submissions), fixed in the
// thirty-third round. Names, titles and identifiers are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { makeDocx, paragraph, wordBodyParagraphs } from './make-files.ts';

const limits = testConfig().parsing;

describe("a student's Word paper in the body's type: the title, then the abstract's label right under it", () => {
  const file = () =>
    makeDocx([
      paragraph('산간 마을의 소규모 수력 발전 제도 고찰'),
      paragraph('Abstract'),
      paragraph(
        '산간 마을에서 소규모 수력 발전을 보급하는 제도를 살펴보고 그 효율과 공정을 함께 비교하였다.',
      ),
      paragraph('Introduction', 'Heading1'),
      ...wordBodyParagraphs(12),
    ]);

  it('reads the first paragraph as the title', async () => {
    const result = await parseManuscript(file(), 'ko-student.docx', limits);
    expect(result.title).toBe('산간 마을의 소규모 수력 발전 제도 고찰');
  });
});
