// Layouts met in the sixteenth held-out set, fixed in the eighteenth round: a reference list under
// its heading in a script other than the Latin (Chinese "参考文献", Korean "참고문헌", Persian
// "منابع", Arabic "المراجع", Russian "Список литературы"), its entries Word list-numbered paragraphs
// that carry no number in their text.
// Names and texts are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { docxRun, makeDocx, paragraph } from './make-files.ts';

const limits = testConfig().parsing;

/** A paragraph numbered by Word's list numbering: its number is not in its text. */
function listParagraph(text: string): string {
  return `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="2"/></w:numPr></w:pPr>${docxRun(text)}</w:p>`;
}

const CJK_ENTRIES = [
  '林山,木水.寒谷园圃的霜期研究[J].园艺学报,2019,(03):12-20.',
  '石川,白云,青草,等.山谷花期与初霜[J].植物杂志,2020,41(02):33-41.',
  '田野.山谷档案笔记[M].北京:园林出版社,2018.',
  '高原,林山.海拔与初霜日期[J].园艺学报,2021,(05):50-58.',
];

const LATIN_ENTRIES = [
  'Quist A, Tell B (2015) Frost dates in valley gardens. J Cold Gard 12:1–10',
  'Moss C, Lind D (2016) Flowering under late frost. Valley Bot 4:22–31',
  'Roe E (2017) Notebooks of a valley archive. Archive Stud 9:100–112',
];

describe('a reference list under a heading in another script', () => {
  it.each([['参考文献'], ['参 考 文 献'], ['参考文献：']])(
    'counts the list-numbered entries under "%s"',
    async (heading) => {
      const docx = makeDocx([
        paragraph('寒谷园圃的霜期与花期', 'Title'),
        paragraph('引言', 'Heading1'),
        paragraph('本文统计了寒冷山谷中的园圃十年间的花期。'),
        paragraph(heading, 'Heading1'),
        ...CJK_ENTRIES.map(listParagraph),
        paragraph('附录', 'Heading1'),
        paragraph('附表一列出了各园圃的海拔。'),
      ]);
      const result = await parseManuscript(docx, 'frost.docx', limits);
      expect(result.references.map((r) => r.raw)).toEqual(CJK_ENTRIES);
    },
  );

  it.each([['참고문헌'], ['منابع'], ['مراجع'], ['المراجع'], ['Список литературы'], ['Литература']])(
    'counts the entries under "%s"',
    async (heading) => {
      const docx = makeDocx([
        paragraph('Frost and the Flowering Dates of Valley Gardens', 'Title'),
        paragraph('Introduction', 'Heading1'),
        paragraph('Gardens in cold valleys were counted for ten years (Quist and Tell 2015).'),
        paragraph(heading, 'Heading1'),
        ...LATIN_ENTRIES.map(listParagraph),
      ]);
      const result = await parseManuscript(docx, 'frost.docx', limits);
      expect(result.references.map((r) => r.raw)).toEqual(LATIN_ENTRIES);
    },
  );
});
