// Layouts met in the fifty-first held-out set (Chinese, Japanese and Korean manuscripts: a
// Japanese society's template, Chinese, Japanese and Korean theses), fixed in the fifty-fourth
// round. The blocks are written as the PDF reader gives them; names, titles and entries are made
// up, only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { extractHeader } from '../../src/parsing/header.ts';
import { REFERENCES_HEADING, findReferences } from '../../src/parsing/sections.ts';
import type { Block, Run } from '../../src/parsing/types.ts';
import { block, pdf, type BlockShape } from './blocks.ts';

/** A byline whose names each carry a raised mark: `[name, mark]` pairs joined by `sep`. */
function markedByline(names: [string, string][], sep: string, shape: BlockShape = {}): Block {
  const runs: Run[] = names.flatMap(([name, mark], k) => [
    { text: (k ? sep : '') + name, sup: false },
    { text: mark, sup: true },
  ]);
  return block(runs.map((r) => r.text).join(''), { ...shape, runs });
}

const JAPANESE_BODY =
  'この原稿は灯台の記録を読む方法について述べる．記録の書式は灯台ごとに異なり，読み手は書式を知らなければならない．本稿では三つの灯台の日誌を比べ，共通する項目を整理する．';
const ENGLISH_ABSTRACT =
  'This paper describes how the logs of three lighthouses were read and compared. The entries differ in form from one station to another, and a reader must know each form before the records can be joined. We list the fields the logs share and show how the weather notes can be aligned across the stations.';

describe('a Japanese society paper: its title with a bracketed subtitle, its byline in kanji and kana, then romanized', () => {
  const doc = pdf([
    block('灯台の記録について', { size: 1.38, bold: true }),
    block('（灯台守の日誌を読む試み）', { size: 1.15, bold: true }),
    markedByline(
      [
        ['山田 太郎', '∗1'],
        ['佐藤 はな', '∗2'],
        ['鈴木 一郎', '∗3'],
      ],
      '，',
      { size: 1.15 },
    ),
    block('On the records of lighthouses (An attempt to read the keepers’ logs)', { size: 1.2, bold: true }),
    markedByline(
      [
        ['Taro YAMADA', '∗1'],
        ['Hana SATO', '∗2'],
        ['Ichiro SUZUKI', '∗3'],
      ],
      ', ',
      { size: 1.2, bold: true },
    ),
    block(
      '∗1 Lighthouse Institute, 1 Harbour Road, Minato, Japan ∗2,∗3 Department of Lights, Kaigan University',
      {
        size: 0.8,
        bold: true,
      },
    ),
    block('Abstract', { bold: true }),
    block(ENGLISH_ABSTRACT, { bold: true }),
    block('Keywords : Lighthouse, Log, Keeper', { bold: true }),
    block('1. 緒 言', { bold: true }),
    block(JAPANESE_BODY),
    block('E-mail of corresponding author: taro@lighthouse.example.jp', { size: 0.85, bold: true }),
  ]);

  it('reads the names in kanji and kana, parted by the full-width comma, and not the romanized ones again', () => {
    const header = extractHeader(doc);
    expect(header.authors.map((a) => a.name)).toEqual(['山田 太郎', '佐藤 はな', '鈴木 一郎']);
  });

  it('gives the address to the author whose romanized name it spells', () => {
    const header = extractHeader(doc);
    expect(header.authors[0]!.emails).toEqual(['taro@lighthouse.example.jp']);
  });

  it('goes on with the subtitle set wholly in brackets under the title', () => {
    expect(extractHeader(doc).title).toBe('灯台の記録について（灯台守の日誌を読む試み）');
  });
});

describe('a byline in kanji and kana with the romanized one right under it', () => {
  const doc = pdf([
    block('灯台の記録について', { size: 1.38, bold: true }),
    markedByline(
      [
        ['山田 太郎', '∗1'],
        ['佐藤 はな', '∗2'],
      ],
      '，',
      { size: 1.15 },
    ),
    markedByline(
      [
        ['Taro YAMADA', '∗1'],
        ['Hana SATO', '∗2'],
      ],
      ', ',
      { size: 1.15 },
    ),
    block('∗1 Lighthouse Institute, 1 Harbour Road, Minato, Japan', { size: 0.8 }),
    block('1. 緒 言', { bold: true }),
    block(JAPANESE_BODY),
  ]);

  it('reads each person once, as written first', () => {
    expect(extractHeader(doc).authors.map((a) => a.name)).toEqual(['山田 太郎', '佐藤 はな']);
  });
});

/** Pages of a thesis's front matter between its cover and its abstract: signed statements, lists. */
function fillerPages(from: number, count: number): Block[] {
  return Array.from({ length: count }, (_, k) =>
    block(`本人保证遵守上述规定。第 ${k + 1} 项声明的内容写在这里，与摘要无关。`, {
      page: from + Math.floor(k / 4),
    }),
  );
}

describe('a Chinese thesis cover: the kind of work in brackets, its fields one to a line, letter-spaced', () => {
  const doc = pdf([
    block('灯塔日志的阅读方法研究', { size: 2.17, bold: true }),
    block('(申请某某大学工学硕士学位论文)', { size: 1.33, bold: true }),
    block('培 养 单 位 ： 计算机科学与技术系学 科 ： 计算机科学与技术研 究 生 ： 王 小 明', {
      size: 1.33,
      bold: true,
      lines: ['培 养 单 位 ： 计算机科学与技术系', '学 科 ： 计算机科学与技术', '研 究 生 ： 王 小 明'],
    }),
    block('指 导 教 师 ： 李 大 同 教 授', { size: 1.33, bold: true }),
    block('二〇二六年十二月', { size: 1.33, bold: true }),
    ...fillerPages(3, 20),
    block('Abstract', { size: 1.33, bold: true, page: 9 }),
    block(ENGLISH_ABSTRACT, { page: 9 }),
    block('Keywords: lighthouse; log; keeper', { page: 9 }),
    block('目 录', { size: 1.33, bold: true, page: 10 }),
  ]);

  it('reads the student named after the label "研 究 生：" on the block’s third line, joined', () => {
    expect(extractHeader(doc).authors.map((a) => a.name)).toEqual(['王小明']);
  });

  it('takes the bracketed line for the kind of work, so the English abstract is looked for past the front pages', () => {
    const header = extractHeader(doc);
    expect(header.title).toBe('灯塔日志的阅读方法研究');
    expect(header.abstract).toBe(ENGLISH_ABSTRACT);
  });
});

describe('a Japanese master’s thesis cover: the register number’s line, the name under it, and 概要', () => {
  const doc = pdf([
    block('2025 年度 修士論文', { size: 1.43 }),
    block('灯台守の日誌を読むための方法の研究', { size: 1.59 }),
    block('北浜大学大学院理学研究科理学専攻灯台学研究室', { size: 1.11 }),
    block('博士前期課程 2 年', { size: 1.2 }),
    block('学籍番号 123456', { size: 1.2, bold: true }),
    block('山田 太郎', { size: 1.33 }),
    block('2026 年 1 月 10 日', { size: 1.2, bold: true }),
    block('概要', { size: 1.11, bold: true, page: 2 }),
    block(JAPANESE_BODY, { page: 2 }),
    block('日誌の書式は三つに分けられ，それぞれの項目は表にまとめられる．', { page: 2 }),
    block('iii', { page: 3 }),
    block('目次', { size: 2.29, bold: true, page: 3 }),
    block('第 1 章 序論 1', { page: 3 }),
    block('第 2 章 灯台の日誌 3', { page: 3 }),
  ]);

  it('reads the name under the register number, not the number’s label', () => {
    expect(extractHeader(doc).authors.map((a) => a.name)).toEqual(['山田 太郎']);
  });

  it('takes "概要" alone over the thesis’s page for the abstract’s label, and ends it at the contents', () => {
    const abstract = extractHeader(doc).abstract ?? '';
    expect(abstract).toContain('この原稿は灯台の記録を読む方法');
    expect(abstract).toContain('表にまとめられる');
    expect(abstract).not.toContain('目次');
    expect(abstract).not.toContain('序論');
  });

  it('leaves the page’s folio out of the abstract', () => {
    expect(extractHeader(doc).abstract ?? '').not.toMatch(/iii/);
  });
});

describe('a report’s cover with no kind of work: the register number’s line, the name under it', () => {
  const doc = pdf([
    block('灯台守の日誌を読むための方法', { size: 1.59 }),
    block('北浜大学理学部灯台学科', { size: 1.11 }),
    block('学籍番号 123456', { size: 1.2, bold: true }),
    block('山田 太郎', { size: 1.33 }),
    block('2026 年 1 月 10 日', { size: 1.2, bold: true }),
    block('1 はじめに', { size: 1.4, bold: true, page: 2 }),
    block(JAPANESE_BODY, { page: 2 }),
  ]);

  it('reads the name, not the number’s label', () => {
    expect(extractHeader(doc).authors.map((a) => a.name)).toEqual(['山田 太郎']);
  });
});

describe('a Korean thesis: the student alone on the cover’s last line, 요약 first, the English abstract at the end', () => {
  const KOREAN =
    '오늘날 등대의 기록은 여러 형식으로 남아 있다. 우리는 세 등대의 일지를 비교하여 공통된 항목을 정리한다.';
  const doc = pdf([
    block('M.S. Thesis', { size: 1.79, bold: true }),
    block('등대 일지를 읽는 방법에 관한 연구', { size: 2.39 }),
    block('A Study of Reading the Logs of', { size: 1.79, bold: true }),
    block('Northern Lighthouses', { size: 1.79, bold: true }),
    block('2026 년 2 월', { size: 1.79, bold: true }),
    block('북해대학교 대학원', { size: 1.62 }),
    block('해양공학부', { size: 1.62 }),
    block('김민준', { size: 1.62 }),
    block('요약', { size: 1.2, bold: true, page: 4 }),
    block(KOREAN, { page: 4 }),
    block('1 서론', { size: 1.5, bold: true, page: 5 }),
    ...Array.from({ length: 20 }, (_, k) => block(`${KOREAN} (${k + 1})`, { page: 5 + Math.floor(k / 2) })),
    block('참고문헌', { size: 1.5, bold: true, page: 15 }),
    block('[1] J. Roe. “Lantern logs”. In: Journal of Lights 3.2 (2001), pp. 1–9.', { page: 15 }),
    block('Abstract', { size: 1.2, bold: true, page: 16 }),
    block(ENGLISH_ABSTRACT, { page: 16 }),
  ]);

  it('reads the student’s name in Hangul alone on the cover’s last line, not the English title’s wrapped line', () => {
    expect(extractHeader(doc).authors.map((a) => a.name)).toEqual(['김민준']);
  });

  it('keeps the English abstract printed after the references, as beside any other', () => {
    expect(extractHeader(doc).abstract).toBe(ENGLISH_ABSTRACT);
  });
});

describe('a thesis’s reference list', () => {
  const entry = (n: string, page: number) =>
    block(`[${n}] 张三, 李四. 灯塔日志的整理方法[J]. 灯塔学报, 2001, 3(2): 1-9.`, { size: 0.88, page });
  const blocks = [
    block('第 4 章 结论', { size: 1.33, bold: true, page: 4 }),
    block('本文整理了三座灯塔的日志。', { page: 4 }),
    block('参考文献', { size: 0.88, bold: true, page: 5 }),
    block('参考文献', { size: 1.33, bold: true, page: 5 }),
    entry('1', 5),
    entry('2', 5),
    entry('3', 5),
    block('参考文献', { size: 0.88, bold: true, page: 6 }),
    entry('4', 6),
    entry('5', 6),
    block('附录 A 补充内容', { size: 1.33, bold: true, page: 7 }),
    block('附录中的参考文献另行编号。', { page: 7 }),
    block('参考文献', { size: 1.17, bold: true, page: 7 }),
    entry('A.1', 7),
    entry('A.2', 7),
  ];

  it('opens under its heading: not under the name repeated at the next page’s top, nor an appendix’s own list', () => {
    const range = findReferences(blocks);
    expect(range?.headingIndex).toBe(3);
  });

  it('is headed "引用文献" (cited literature) in a Japanese thesis', () => {
    expect(REFERENCES_HEADING.test('引用文献')).toBe(true);
  });
});
