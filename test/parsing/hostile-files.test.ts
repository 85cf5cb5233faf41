// Bad and hostile files never throw and never crash: each gives a result that says what went
// wrong. Every file here is made by the test itself.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_ZIP_ENTRIES } from '../../src/parsing/docx/zip.ts';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { FIXTURES } from './ground-truth.ts';
import {
  makeArticlePdf,
  makeDocx,
  makeEncryptedPdf,
  makeImageOnlyPdf,
  makeTextPdf,
  makeZip,
  paragraph,
} from './make-files.ts';

const limits = { ...testConfig().parsing, maxDocxUncompressedBytes: 1024 * 1024 };

describe('parseManuscript on bad and hostile files', () => {
  it('reads a well-formed PDF made here: title, byline with marks, affiliations, email, references', async () => {
    const r = await parseManuscript(makeArticlePdf(), 'article.pdf', limits);
    expect(r.error).toBeNull();
    expect(r.title).toBe('A Study of Things That Parse Well');
    expect(r.authors).toEqual([
      expect.objectContaining({
        name: 'Jane Roe',
        emails: ['jane.roe@example.org'],
        affiliations: ['Department of Physics, University of Somewhere, Sometown, Country'],
      }),
      expect.objectContaining({
        name: 'John Q. Public',
        emails: [],
        affiliations: ['Institute of Chemistry, Another University, Othertown, Country'],
      }),
    ]);
    expect(r.references.map((x) => x.doi)).toEqual(['10.1000/test.1', '10.1000/test.2', null]);
  });

  it('a truncated PDF gives corrupt_file', async () => {
    const pdf = makeArticlePdf();
    const r = await parseManuscript(pdf.slice(0, Math.floor(pdf.length / 2)), 'cut.pdf', limits);
    expect(r.error?.code).toBe('corrupt_file');
    expect(r.format).toBe('pdf');
    expect(r.warnings.length).toBeGreaterThan(0);
  });

  it('a truncated real manuscript gives a result, not an exception', async () => {
    const real = readFileSync(path.join(FIXTURES, 'manuscripts/deep-rules/manuscript.pdf'));
    const r = await parseManuscript(new Uint8Array(real.subarray(0, 200_000)), 'cut.pdf', limits);
    expect(r.format).toBe('pdf');
    expect(r.error === null || r.error.code === 'corrupt_file').toBe(true);
  });

  it('a PDF of scanned images without a text layer gives no_text', async () => {
    const r = await parseManuscript(makeImageOnlyPdf(), 'scan.pdf', limits);
    expect(r.error?.code).toBe('no_text');
    expect(r.pages).toBe(1);
  });

  it('a PDF encrypted with a user password gives encrypted', async () => {
    const r = await parseManuscript(makeEncryptedPdf(), 'locked.pdf', limits);
    expect(r.error?.code).toBe('encrypted');
  });

  it('an empty file gives empty_file', async () => {
    const r = await parseManuscript(new Uint8Array(0), 'empty.pdf', limits);
    expect(r.error?.code).toBe('empty_file');
  });

  it('random bytes and plain text give unsupported_format, whatever the name says', async () => {
    for (const bytes of [new Uint8Array(randomBytes(4096)), new TextEncoder().encode('Just some text.\n')]) {
      const r = await parseManuscript(bytes, 'paper.pdf', limits);
      expect(r.error?.code).toBe('unsupported_format');
      expect(r.format).toBeNull();
    }
  });

  it('a legacy .doc (OLE) file gives unsupported_format', async () => {
    const ole = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...randomBytes(512)]);
    const r = await parseManuscript(ole, 'paper.doc', limits);
    expect(r.error?.code).toBe('unsupported_format');
  });

  it('decides the format by the bytes: a PDF named .docx is read as a PDF, with a warning', async () => {
    const r = await parseManuscript(makeArticlePdf(), 'paper.docx', limits);
    expect(r.format).toBe('pdf');
    expect(r.error).toBeNull();
    expect(r.warnings.join(' ')).toMatch(/named \.docx/);
  });

  it('refuses a zip bomb from its central directory, before inflating it', async () => {
    const bomb = makeZip([{ name: 'word/document.xml', data: Buffer.alloc(2 * 1024 * 1024, 0x41) }]);
    expect(bomb.length).toBeLessThan(20 * 1024);
    const r = await parseManuscript(bomb, 'bomb.docx', limits);
    expect(r.error?.code).toBe('zip_bomb');
    expect(r.error?.message).toMatch(/declares 2097152 bytes/);
  });

  it('refuses a DOCX listing more entries than any document has, before listing them', async () => {
    const empties = Array.from({ length: MAX_ZIP_ENTRIES + 1 }, (_, i) => ({
      name: `word/media/e${i}.bin`,
      data: Buffer.alloc(0),
    }));
    const crowded = makeDocx([paragraph('A title')], empties);
    const r = await parseManuscript(crowded, 'crowded.docx', limits);
    expect(r.error?.code).toBe('zip_bomb');
    expect(r.error?.message).toMatch(/lists 10004 entries, over the 10000 limit/);
    // As many as a document with many images has: read.
    const fine = makeDocx([paragraph('A Title That Stands Alone', 'Title')], empties.slice(0, 300));
    expect((await parseManuscript(fine, 'fine.docx', limits)).error).toBeNull();
  });

  it('a zip that lies about its sizes is stopped while inflating', async () => {
    const liar = makeZip([
      { name: 'word/document.xml', data: Buffer.alloc(2 * 1024 * 1024, 0x41), declaredSize: 1000 },
    ]);
    const r = await parseManuscript(liar, 'liar.docx', limits);
    expect(r.error?.code).toBe('corrupt_file');
  });

  it('a DOCX without word/document.xml gives missing_part', async () => {
    const r = await parseManuscript(makeDocx([paragraph('x')], [], ['word/document.xml']), 'x.docx', limits);
    expect(r.error?.code).toBe('missing_part');
  });

  it('a DOCX without its styles part is still read, with a warning', async () => {
    const docx = makeDocx(
      [paragraph('A Title That Stands Alone', 'Title'), paragraph('Body text.')],
      [],
      ['word/styles.xml'],
    );
    const r = await parseManuscript(docx, 'x.docx', limits);
    expect(r.error).toBeNull();
    expect(r.warnings.join(' ')).toMatch(/no styles part/);
  });

  it('reads Word Title and heading styles and footnotes from a DOCX made here', async () => {
    const footnotes = {
      name: 'word/footnotes.xml',
      data: Buffer.from(
        '<w:footnotes xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:footnote w:id="1"><w:p><w:r><w:t>Corresponding author: Jane Roe, jane@example.org</w:t></w:r></w:p></w:footnote></w:footnotes>',
      ),
    };
    const docx = makeDocx(
      [
        paragraph('A Title Of The Paper', 'Title'),
        paragraph('Jane Roe, John Public'),
        paragraph('Introduction', 'Heading1'),
        paragraph('Body text that runs on. '.repeat(20)),
      ],
      [footnotes],
    );
    const r = await parseManuscript(docx, 'x.docx', limits);
    expect(r.title).toBe('A Title Of The Paper');
    expect(r.authors.map((a) => a.name)).toEqual(['Jane Roe', 'John Public']);
    expect(r.authors[0]!.emails).toEqual(['jane@example.org']);
    expect(r.sections.map((s) => s.heading)).toContain('Introduction');
  });

  it('over the file size limit gives file_too_large', async () => {
    const r = await parseManuscript(makeArticlePdf(), 'a.pdf', limits, { maxFileBytes: 1000 });
    expect(r.error?.code).toBe('file_too_large');
  });

  it('reads only the first pages of a PDF over the page limit, and says so', async () => {
    const pages = Array.from({ length: 5 }, (_, i) => [
      { text: `Page ${i + 1} text here`, size: 10, x: 72, y: 700 },
    ]);
    const r = await parseManuscript(makeTextPdf(pages), 'long.pdf', { ...limits, maxPages: 2 });
    expect(r.pages).toBe(5);
    expect(r.text).toContain('Page 2 text');
    expect(r.text).not.toContain('Page 3 text');
    expect(r.warnings.join(' ')).toMatch(/only the first 2 were read/);
  });

  it('cuts the text at the character limit, and says so', async () => {
    const r = await parseManuscript(makeArticlePdf(), 'a.pdf', { ...limits, maxChars: 1000 });
    expect(r.text.length).toBeLessThanOrEqual(1000);
    expect(r.warnings.join(' ')).toMatch(/1000 characters/);
  });

  it('leaves the caller’s buffer intact (pdf.js empties the one it is given)', async () => {
    const pdf = makeArticlePdf();
    const before = pdf.length;
    await parseManuscript(pdf, 'a.pdf', limits);
    expect(pdf.length).toBe(before);
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
  });
});
