// Layouts met in the fifty-fourth held-out set (PDFs with an OCR text layer: scanned pages under
// Tesseract's invisible text, through OCRmyPDF or Tesseract's own PDF), fixed in the fifty-eighth
// round. Names, titles and entries are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { splitByline } from '../../src/parsing/names.ts';
import { findEmails } from '../../src/parsing/text-utils.ts';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { ENTRIES, ocrArticle } from './ocr-files.ts';

const limits = testConfig().parsing;

describe('an OCR text layer', () => {
  // Each word a piece of its own, stretched to its box, sized by its scanned line's height: read
  // as it comes, the gaps between words line up down the page as gutters, and the lines of one
  // entry differ in size, so the list fell apart into one entry or none.
  it('reads its words back into lines and its lines in one size, so the list is read entry by entry', async () => {
    const result = await parseManuscript(ocrArticle(), 'scan.pdf', limits);
    expect(result.references.length).toBe(ENTRIES.length);
    expect(result.references.map((r) => r.doi)).toEqual(
      ENTRIES.map((_, k) => expect.stringContaining(`.00${k + 1}`)),
    );
  });

  it('reads the title by its letters, larger than the body', async () => {
    const result = await parseManuscript(ocrArticle(), 'scan.pdf', limits);
    expect(result.title).toBe('Tidal sorting of pebbles on a shingle spit');
  });
});

describe('raised marks as an OCR layer reads them', () => {
  // OCR reads a superscript "1" as "!", a "2" as "”", a "*" or "°" beside it, glued to the name.
  it('cuts them from the names, as marks', () => {
    const names = splitByline([
      { text: 'Jane Roe!, Tom Fox”, Ann B. Lee* °, Kim Park®, and Ed Moss?*', sup: false },
    ]);
    expect(names.map((n) => n.name)).toEqual(['Jane Roe', 'Tom Fox', 'Ann B. Lee', 'Kim Park', 'Ed Moss']);
    expect(names.every((n) => n.marks.length > 0)).toBe(true);
  });

  it('keeps a lone marked name under the title as its byline', async () => {
    const result = await parseManuscript(ocrArticle(), 'scan.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Q. Roe']);
  });
});

describe('an address as an OCR layer reads it', () => {
  // The gap the scan shows before a small dot reads as a space: "han@different .edu".
  it('joins the host over the space before its dot', () => {
    expect(findEmails('Email addresses: ann@north.ac.uk (Ann Lee), tom@south .edu (Tom Fox)')).toEqual([
      'ann@north.ac.uk',
      'tom@south.edu',
    ]);
  });
});
