// A page weighs the forms it draws (round 6, docs/benchmarks/hostile-files.md): the pre-check
// counts each form as many times as the page draws it, nested forms included, and never expands a
// fan-out. Before, a page drawing a form of 14 MiB of text objects, a 4 KB form drawn 5,000 times,
// or ten levels of forms each drawing the next ten times held a parser worker until the parse time
// limit; now each is answered from the pre-check. Outcomes only, never times.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrawnNames } from '../../src/parsing/pdf/form-weights.ts';
import { FORMS_PAGE_FACTOR, GLYPH_CONTENT_FACTOR, precheckPdf } from '../../src/parsing/pdf/pre-check.ts';
import { createTestApp, createTestOrg, testConfig, type TestApp, type TestOrg } from '../helpers/app.ts';
import { baseFields, upload } from '../manuscripts/upload-helpers.ts';
import {
  makeFormTextPdf,
  makeNestedFormsPdf,
  makeRepeatedFormPdf,
  makeSharedFontProgramPdf,
  makeType3FormsPdf,
  makeType3SharedGlyphPdf,
} from './hostile-pdfs.ts';
import { assemblePdf } from './make-files.ts';

const MiB = 1024 * 1024;
const limits = testConfig().parsing;
const unbounded = { ...limits, maxPageContentBytes: 1024 * MiB, maxDocumentContentBytes: 4 * 1024 * MiB };

/** The one page's weight with the forms it draws. */
async function pageWeight(pdf: Uint8Array): Promise<number> {
  return (await precheckPdf(pdf, unbounded)).largestPageContent;
}

describe('the pre-check weighs a page with the forms it draws', () => {
  it('counts a form once for every time the page draws it', async () => {
    // One draw more adds the form and the 8 bytes of `/Fm1 Do\n`.
    const once = await pageWeight(makeRepeatedFormPdf(1000, 1));
    const twice = await pageWeight(makeRepeatedFormPdf(1000, 2));
    const form = twice - once - 8;
    expect(form).toBeGreaterThanOrEqual(1000);
    expect(await pageWeight(makeRepeatedFormPdf(1000, 50))).toBe(once + 49 * (form + 8));
  });

  it('counts nested forms by the product of their draws', async () => {
    const once = await pageWeight(makeNestedFormsPdf(1000, [1]));
    const form = (await pageWeight(makeNestedFormsPdf(1000, [2]))) - once - 8;
    // The page draws form 1 three times (16 bytes more than one draw); form 1 (32 bytes) draws the text form 4 times.
    const nested = await pageWeight(makeNestedFormsPdf(1000, [3, 4]));
    expect(nested).toBe(once - form + 16 + 3 * (32 + 4 * form));
  });

  it('leaves unread a page whose forms pass twice the page budget, however its own content weighs', async () => {
    const small = { ...limits, maxPageContentBytes: 64 * 1024 };
    const counted = await precheckPdf(makeFormTextPdf(200 * 1024), small);
    expect([...counted.skippedPages.values()]).toEqual([
      { bytes: counted.largestPageContent, budget: 'forms' },
    ]);
    expect(counted.largestPageContent).toBeGreaterThan(FORMS_PAGE_FACTOR * small.maxPageContentBytes);
    // Under it, the page is read.
    const read = await precheckPdf(makeFormTextPdf(100 * 1024), small);
    expect(read.skippedPages.size).toBe(0);
  });

  it('stops weighing a fan-out of forms at the budgets instead of expanding it (10^10 draws)', async () => {
    const counted = await precheckPdf(makeNestedFormsPdf(1024, Array(10).fill(10)), limits);
    const [skipped] = [...counted.skippedPages.values()];
    expect(skipped?.budget).toBe('forms');
    // Capped just past the larger budget: the page's own bytes and the budget and one.
    expect(skipped!.bytes).toBeGreaterThan(limits.maxDocumentContentBytes);
    expect(skipped!.bytes).toBeLessThan(limits.maxDocumentContentBytes + 1024);
  });

  it('counts a form drawn inside itself once, as pdf.js ignores the circular draw', async () => {
    const text = 'BT /F1 9 Tf 50 700 Td (Inside) Tj ET\n';
    const form = `${text}/Fm1 Do\n`.repeat(10);
    const page = '/Fm1 Do\n';
    const pdf = assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      // Resources inherited from the page tree's root.
      '<< /Type /Pages /Kids [4 0 R] /Count 1 /Resources << /XObject << /Fm1 6 0 R >> >> >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 5 0 R >>',
      `<< /Length ${page.length} >>\nstream\n${page}endstream`,
      `<< /Type /XObject /Subtype /Form /BBox [0 0 595 842] /Length ${form.length} >>\nstream\n${form}endstream`,
    ]);
    expect(await pageWeight(pdf)).toBe(page.length + form.length);
  });

  it.each([
    ['split across the streams of its /Contents array', ['/Fm1', ' Do /Fm1', '\nDo\n'], 2],
    ['written in ASCII hex', [Buffer.from('/Fm1 Do\n'.repeat(50)).toString('hex') + '>'], 50],
  ])('counts the draws of a page whose operators are %s', async (_, streams, draws) => {
    const form = 'BT /F1 9 Tf 50 700 Td (Inside) Tj ET\n'.repeat(100);
    const contents = streams.map((_, i) => `${i + 6} 0 R`).join(' ');
    const pdf = assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Fm1 5 0 R >> >> /Contents [${contents}] >>`,
      `<< /Type /XObject /Subtype /Form /BBox [0 0 595 842] /Length ${form.length} >>\nstream\n${form}endstream`,
      ...streams.map(
        (text) =>
          `<< /Length ${text.length}${text.endsWith('>') ? ' /Filter /ASCIIHexDecode' : ''} >>\nstream\n${text}endstream`,
      ),
    ]);
    const own = streams.reduce((sum, text) => sum + text.length, 0);
    expect(await pageWeight(pdf)).toBe(own + draws * form.length);
  });

  it('refuses a document whose Type 3 glyph draws forms past its budget (pdf.js interprets it as the font loads)', async () => {
    // A glyph procedure drawing form 1 ten times, each form drawing the next ten times, five levels:
    // 10^5 draws of a form of lines, from a 2 KB file (before, 10^4 of them took 84 s in one process).
    const pdf = makeType3FormsPdf(5);
    // The glyph's 10^5 draws of 900 bytes, its forms' draws and own bytes, the page's content.
    expect((await precheckPdf(pdf, unbounded)).documentContent).toBeGreaterThan(90_000_000);
    await expect(precheckPdf(pdf, limits)).rejects.toMatchObject({ code: 'too_complex' });
  });

  it('weighs a Type 3 glyph, with the forms it draws, GLYPH_CONTENT_FACTOR times: 4 levels (9 MB) are refused', async () => {
    // 10^4 draws of 900 bytes of lines: 9 MB, under the 16 MiB budget at face value, but pdf.js builds
    // an operator list of it as the font loads (3.7 s beside a manuscript's 1.2 s, and +130 MB).
    const three = (await precheckPdf(makeType3FormsPdf(3), unbounded)).documentContent;
    const four = (await precheckPdf(makeType3FormsPdf(4), unbounded)).documentContent;
    // One level more: ten times the draws, each weighed GLYPH_CONTENT_FACTOR times (the page's bytes aside).
    expect(four).toBeGreaterThan(GLYPH_CONTENT_FACTOR * 9_000_000);
    expect(four).toBeLessThan(GLYPH_CONTENT_FACTOR * 9_200_000);
    expect(three).toBeLessThan(four / 9);
    await expect(precheckPdf(makeType3FormsPdf(4), limits)).rejects.toMatchObject({
      code: 'too_complex',
      message: expect.stringMatching(/a Type 3 font's glyphs counted 4 times/),
    });
    // Three levels (0.9 MB, 3.6 MB weighed) are read.
    expect((await precheckPdf(makeType3FormsPdf(3), limits)).skippedPages.size).toBe(0);
  });

  it('weighs a glyph procedure that calls itself a form as a glyph, with what it draws', async () => {
    const plain = (await precheckPdf(makeType3FormsPdf(3), unbounded)).documentContent;
    const posing = (await precheckPdf(makeType3FormsPdf(3, '/Subtype /Form '), unbounded)).documentContent;
    // The dictionary's 15 bytes say nothing to pdf.js: the weight is the same.
    expect(posing).toBe(plain);
  });

  it('weighs a glyph procedure once for every glyph, of every font, naming it', async () => {
    const once = (await precheckPdf(makeType3SharedGlyphPdf(1, 100_000), unbounded)).documentContent;
    const glyph = (await precheckPdf(makeType3SharedGlyphPdf(2, 100_000), unbounded)).documentContent - once;
    expect(glyph).toBeGreaterThan(GLYPH_CONTENT_FACTOR * 100_000);
    // Twenty glyphs of one font, or one glyph of each of twenty fonts: built twenty times.
    expect((await precheckPdf(makeType3SharedGlyphPdf(20, 100_000), unbounded)).documentContent).toBe(
      once + 19 * glyph,
    );
    const fonts = (await precheckPdf(makeType3SharedGlyphPdf(1, 100_000, 20), unbounded)).documentContent;
    expect(fonts).toBeGreaterThan(once + 19 * glyph);
    expect(fonts).toBeLessThan(once + 19 * glyph + 2000);
    // 1 MB named by 20 glyphs (built 20 times by pdf.js: ~5 s) is refused.
    await expect(precheckPdf(makeType3SharedGlyphPdf(20, 1_000_000), limits)).rejects.toMatchObject({
      code: 'too_complex',
    });
    await expect(precheckPdf(makeType3SharedGlyphPdf(1, 1_000_000), limits)).resolves.toBeDefined();
  });

  it('weighs a glyph procedure whose dictionary calls it a font program or an image, and refuses fonts naming too many glyphs', async () => {
    const plain = (await precheckPdf(makeType3SharedGlyphPdf(3, 100_000), unbounded)).documentContent;
    const posing = await precheckPdf(makeType3SharedGlyphPdf(3, 100_000, 1, '/Length1 5 '), unbounded);
    expect(posing.documentContent).toBe(plain);
    // An image's dictionary (images are not read otherwise: text extraction decodes none).
    const image = '/Subtype /Image /Width 1 /Height 1 ';
    expect(
      (await precheckPdf(makeType3SharedGlyphPdf(3, 100_000, 1, image), unbounded)).documentContent,
    ).toBe(plain);
    // A /CharProcs dictionary not closed within 1 MiB (100,000 glyphs): not read, refused whatever
    // the budgets (its glyphs, read, would weigh some 20 MB).
    await expect(precheckPdf(makeType3SharedGlyphPdf(100_000, 10), unbounded)).rejects.toMatchObject({
      code: 'too_complex',
    });
  });

  it('counts a font program once for every font loading it (pdf.js parses it again for each)', async () => {
    const program = Buffer.alloc(100_000, 'x');
    const bytes = async (pdf: Uint8Array) => (await precheckPdf(pdf, unbounded)).fontProgramBytes;
    // The program's bytes and the line end before `endstream`.
    const one = await bytes(makeSharedFontProgramPdf(1, program));
    expect(one).toBe(100_001);
    expect(await bytes(makeSharedFontProgramPdf(30, program))).toBe(30 * one);
    // Type 0 fonts, through their descendants; fonts named by the resources of many pages, once.
    expect(await bytes(makeSharedFontProgramPdf(30, program, true))).toBe(30 * one);
    expect(await bytes(makeSharedFontProgramPdf(30, program, false, 20))).toBe(30 * one);
    // 700 fonts loading 100 KB: 70 MB parsed, over the 64 MiB inflated at most.
    await expect(precheckPdf(makeSharedFontProgramPdf(700, program), limits)).rejects.toMatchObject({
      code: 'too_complex',
      message: expect.stringMatching(/^its fonts load 70000700 bytes of font programs/),
    });
    await expect(precheckPdf(makeSharedFontProgramPdf(600, program), limits)).resolves.toBeDefined();
  });

  it('counts a page whose operators are LZW (not decoded here) as drawing its heaviest form at every 6 bytes', async () => {
    const form = 'BT /F1 9 Tf 50 700 Td (Inside) Tj ET\n'.repeat(100);
    const page = 'x'.repeat(10);
    const pdf = assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Fm1 5 0 R >> >> /Contents 6 0 R >>',
      `<< /Type /XObject /Subtype /Form /BBox [0 0 595 842] /Length ${form.length} >>\nstream\n${form}endstream`,
      `<< /Length ${page.length} /Filter /LZWDecode >>\nstream\n${page}endstream`,
    ]);
    // LZW counts 1,300 bytes a byte: 13,000, room for 2,167 draws.
    expect(await pageWeight(pdf)).toBe(13_000 + Math.ceil(13_000 / 6) * form.length);
  });

  it('refuses a document whose pages together draw past its budget, a form counted for each page', async () => {
    // Forty pages, each drawing one 100 KB form: 4 MB interpreted, from a file holding the form once.
    const form = 'BT /F1 9 Tf 50 700 Td (Hostile text repeated) Tj ET\n'.repeat(2000);
    const kids = Array.from({ length: 40 }, (_, i) => `${i + 6} 0 R`);
    const pdf = assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      `<< /Type /Pages /Kids [${kids.join(' ')}] /Count 40 >>`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      `<< /Type /XObject /Subtype /Form /BBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Length ${form.length} >>\nstream\n${form}endstream`,
      '<< /Length 8 >>\nstream\n/Fm1 Do\nendstream',
      ...kids.map(
        () =>
          '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Fm1 4 0 R >> >> /Contents 5 0 R >>',
      ),
    ]);
    expect((await precheckPdf(pdf, unbounded)).documentContent).toBe(40 * (form.length + 8));
    await expect(precheckPdf(pdf, { ...limits, maxDocumentContentBytes: 2 * MiB })).rejects.toMatchObject({
      code: 'too_complex',
      message: expect.stringMatching(/^its pages draw \d+ bytes of content operators, over the 2097152/),
    });
  });

  it('reads the dev set’s heaviest page of figures drawn as forms (2.96 MB), over the page budget alone', async () => {
    const file = path.join(import.meta.dirname, '../../bench/parsing-devset/papaja-mdpi-makowski.pdf');
    const counted = await precheckPdf(new Uint8Array(readFileSync(file)), limits);
    expect(counted.skippedPages.size).toBe(0);
    expect(counted.largestPageContent).toBeGreaterThan(limits.maxPageContentBytes);
    expect(counted.largestPageContent).toBeLessThan(FORMS_PAGE_FACTOR * limits.maxPageContentBytes);
  });
});

describe('DrawnNames', () => {
  it('counts `/Name Do` whatever the chunks, with escapes decoded, and nothing else', () => {
    const content = Buffer.from(
      '/Fm1 Do q /Fm1\nDo Q /F#6d1 Do /Im2 Do (a) Do /Fm1Do /Fm1 Dot /Fm1 Do',
      'latin1',
    );
    for (const size of [1, 2, 3, 5, 7, content.length]) {
      const names = new DrawnNames();
      for (let i = 0; i < content.length; i += size) names.feed(content.subarray(i, i + size));
      names.end();
      expect(Object.fromEntries(names.counts), `chunks of ${size}`).toEqual({ Fm1: 4, Im2: 1 });
      expect(names.overflow).toBe(0);
    }
  });

  it('counts a `Do` at a stream’s start as a draw of a name it cannot see', () => {
    for (const text of ['Do /Fm1 Do', ' \nDo', 'Fm1 Do']) {
      const names = new DrawnNames();
      names.feed(Buffer.from(text, 'latin1'));
      names.end();
      expect(names.overflow, text).toBe(1);
    }
  });
});

describe('hostile forms uploaded over HTTP are answered from the pre-check', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await createTestApp();
    org = await createTestOrg(t);
  });
  afterAll(async () => t.close());

  it.each([
    ['a form of 14 MiB of text objects', 'form14.pdf', () => makeFormTextPdf(14 * MiB)],
    ['a 4 KB form drawn 5,000 times', 'repeated.pdf', () => makeRepeatedFormPdf(4096, 5000)],
    [
      'ten levels of forms each drawing the next ten times',
      'nested.pdf',
      () => makeNestedFormsPdf(1024, Array(10).fill(10)),
    ],
  ])('one page drawing %s: stored from its fields, the page left unread', async (_, name, make) => {
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({ origin_id: name }),
      files: [{ name, bytes: Buffer.from(make()) }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().debug_info).toMatchObject({ source_file: name, parsed_text_len: 0 });
    const { rows } = await t.db.query<{ title: string; parse_error: string | null }>(
      'SELECT title, parse_error FROM manuscripts WHERE organization_id = $1 AND origin_id = $2',
      [org.id, name],
    );
    expect(rows[0]!.title).toBe(baseFields().title);
    expect(rows[0]!.parse_error).toMatch(/on 1 page\(s\) whose content passed the reading budgets/);
  });

  it('refuses a Type 3 glyph drawing 4 levels of forms (9 MB) from the pre-check', async () => {
    const name = 'type3-4.pdf';
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({ origin_id: name }),
      files: [{ name, bytes: Buffer.from(makeType3FormsPdf(4)) }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().debug_info).toMatchObject({ source_file: name, parsed_text_len: 0 });
    const { rows } = await t.db.query<{ parse_error: string | null }>(
      'SELECT parse_error FROM manuscripts WHERE organization_id = $1 AND origin_id = $2',
      [org.id, name],
    );
    expect(rows[0]!.parse_error).toMatch(/^Refused: its pages draw \d+ bytes .* glyphs counted 4 times/);
  });

  it('leaves unread a page of text drawing a 5 MB form of lines, which pdf.js would read in time', async () => {
    // Lines make no pieces of text, so only the forms budget leaves this page unread: before, its
    // line of text was read (after 1-2 s of pdf.js interpreting the drawing).
    const name = 'drawing.pdf';
    const pdf = makeNestedFormsPdf(5 * MiB, [1], 'paths');
    const counted = await precheckPdf(pdf, limits);
    expect([...counted.skippedPages.values()]).toEqual([
      { bytes: counted.largestPageContent, budget: 'forms' },
    ]);
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({ origin_id: name }),
      files: [{ name, bytes: Buffer.from(pdf) }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().debug_info).toMatchObject({ source_file: name, parsed_text_len: 0 });
    const { rows } = await t.db.query<{ parse_error: string | null }>(
      'SELECT parse_error FROM manuscripts WHERE organization_id = $1 AND origin_id = $2',
      [org.id, name],
    );
    expect(rows[0]!.parse_error).toMatch(/on 1 page\(s\) whose content passed the reading budgets/);
  });
});
