// Layouts met in the sixty-second held-out set (manuscripts from South and Southeast Asia:
// Vietnamese university covers and reports, an Indonesian journal's author block), fixed in the
// sixty-seventh round. Names, titles and entries are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, makeToUnicodePdf, textLine, type PdfTextLine } from './make-files.ts';

const limits = testConfig().parsing;

/** Body text under a cover, on a page of its own, in the mapped font (Vietnamese letters). */
const proseLines = (top: number, count: number): PdfTextLine[] =>
  Array.from({ length: count }, (_, k) =>
    textLine(
      'Chúng tôi đo sự lan truyền của sóng trên mặt hồ bằng các cảm biến áp suất đặt dưới đáy.',
      top - 14 * k,
    ),
  );

describe('an Indonesian journal’s author block: the names joined by "dan" over the institution, its street and the email', () => {
  const page = (byline: string) => [
    textLine('Pengukuran Gelombang Pantai dengan Sensor Tekanan Murah', 760, 18),
    textLine(byline, 730, 10),
    textLine('Departemen Teknik Kelautan, Fakultas Teknologi Kelautan', 716, 10),
    textLine('Universitas Northvale', 702, 10),
    textLine('Jl. Pantai Raya 4, Northvale 60111', 688, 10),
    textLine('e-mail: jroe@northvale.ac.id', 674, 10),
    textLine('Abstrak', 640, 10, { bold: true }),
    textLine('Kami mengukur gelombang pantai dengan sensor tekanan yang murah dan membandingkannya.', 624),
    textLine('1. Pendahuluan', 590, 12, { bold: true }),
    ...bodyProse(570, 30),
  ];

  it('reads the three names, the address and the contact line under them no names', async () => {
    const result = await parseManuscript(
      makeTextPdf([page('Jane Roe, Amos Poe, dan Ann Lee')]),
      'jurnal.pdf',
      limits,
    );
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Roe', 'Amos Poe', 'Ann Lee']);
  });

  it('reads two names joined by "dan" alone apart', async () => {
    const result = await parseManuscript(
      makeTextPdf([page('Jane Roe dan Amos Poe')]),
      'jurnal-2.pdf',
      limits,
    );
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Roe', 'Amos Poe']);
  });
});

describe('a Vietnamese byline: two names joined by "và"', () => {
  it('reads the two names apart', async () => {
    const result = await parseManuscript(
      makeToUnicodePdf([
        textLine('Đo sóng mặt hồ bằng cảm biến áp suất giá rẻ', 760, 18),
        textLine('Nguyễn Văn An và Trần Thị Bình', 730, 11),
        textLine('Khoa Vật lý, Trường Đại học Northvale', 714, 10),
        textLine('Tóm tắt', 680, 10),
        ...proseLines(660, 40),
      ]),
      'bai-bao.pdf',
      limits,
    );
    expect(result.authors.map((a) => a.name)).toEqual(['Nguyễn Văn An', 'Trần Thị Bình']);
  });
});

/** A Vietnamese graduation project's cover: the kind of work over the title, the fields under it. */
const cover = (fields: PdfTextLine[], kind = 'ĐỒ ÁN TỐT NGHIỆP') => [
  {
    mapped: [
      textLine('TRƯỜNG ĐẠI HỌC NORTHVALE', 780, 13),
      textLine('KHOA VẬT LÝ', 764, 13),
      textLine(kind, 700, 20),
      textLine('ĐO SÓNG MẶT HỒ BẰNG CẢM BIẾN ÁP SUẤT', 660, 17),
      ...fields,
      textLine('Northvale - 2022', 420, 12),
    ],
  },
  { mapped: proseLines(780, 50) },
];

describe('a Vietnamese cover’s fields set one to a line in one block, the student’s first', () => {
  it('reads the student named on the first line as the author, the register number in brackets cut', async () => {
    const result = await parseManuscript(
      makeToUnicodePdf(
        cover([
          textLine('Sinh viên thực hiện : Lê Văn Minh (60131234)', 560, 13),
          textLine('Giảng viên hướng dẫn : TS. Phạm Quốc Huy', 544, 13),
          textLine('Ngành : Vật lý kỹ thuật', 528, 13),
        ]),
      ),
      'do-an.pdf',
      limits,
    );
    expect(result.authors.map((a) => a.name)).toEqual(['Lê Văn Minh']);
  });

  it('reads the line under the kind of work as the title, and no author from the kind when the cover names none', async () => {
    const result = await parseManuscript(
      makeToUnicodePdf(cover([], 'LUẬN VĂN THẠC SĨ')),
      'luan-van.pdf',
      limits,
    );
    expect(result.title).toBe('ĐO SÓNG MẶT HỒ BẰNG CẢM BIẾN ÁP SUẤT');
    expect(result.authors.map((a) => a.name)).toEqual([]);
  });
});

describe('a Vietnamese report’s cover: the student’s name with the register number run in after its label', () => {
  it('reads the name alone, the number masked in the copy made public', async () => {
    const result = await parseManuscript(
      makeToUnicodePdf([
        {
          mapped: [
            textLine('TRƯỜNG ĐẠI HỌC NORTHVALE', 780, 14),
            textLine('Báo cáo đồ án cuối kỳ Môn Thủy văn', 720, 20),
            textLine('Đề tài: Đo sóng mặt hồ bằng cảm biến áp suất giá rẻ', 690, 17),
            textLine('Giảng viên hướng dẫn:', 646, 12),
            textLine('TS. Phạm Quốc Huy', 624, 12),
            textLine('Người thực hiện:', 600, 12),
            textLine('Lê Văn Minh MSSV: 221xxxxx', 578, 12),
          ],
        },
        { mapped: proseLines(780, 50) },
      ]),
      'bao-cao.pdf',
      limits,
    );
    expect(result.authors.map((a) => a.name)).toEqual(['Lê Văn Minh']);
  });
});

describe('a report’s cover that labels its topic ("Đề tài:") under the course set larger', () => {
  it('reads the topic as the title', async () => {
    const result = await parseManuscript(
      makeToUnicodePdf([
        {
          mapped: [
            textLine('TRƯỜNG ĐẠI HỌC NORTHVALE', 780, 14),
            textLine('Báo cáo đồ án cuối kỳ Môn Thủy văn', 720, 20),
            textLine('Đề tài: Đo sóng mặt hồ bằng cảm biến áp suất giá rẻ', 690, 17),
            textLine('Người thực hiện:', 600, 12),
            textLine('Lê Văn Minh', 586, 12),
          ],
        },
        { mapped: proseLines(780, 50) },
      ]),
      'bao-cao-2.pdf',
      limits,
    );
    expect(result.title).toBe('Đo sóng mặt hồ bằng cảm biến áp suất giá rẻ');
  });
});
