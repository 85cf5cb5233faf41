// CID fonts without a ToUnicode map (pLaTeX/dvipdfmx Japanese, many Chinese and Korean PDFs): their
// text is read through pdf.js's CMaps, from the pdfjs-dist package pinned at unpdf's pdf.js, inside
// the parser workers; a CMap that cannot be had costs that font's text, never the parse.
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { getResolvedPDFJS } from 'unpdf';
import { afterEach, describe, expect, it } from 'vitest';
import { ParserPool } from '../../src/parsing/parser-pool.ts';
import { findCmapDir } from '../../src/parsing/pdf/pdfjs-data.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeCidFontPdf } from './make-files.ts';

let pool: ParserPool | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
});

const TITLE = '架空の文書における語彙の変化';

describe('CID fonts without a ToUnicode map', () => {
  it('reads their text through the CMaps, in a parser worker', async () => {
    pool = new ParserPool({ ...testConfig().parsing, workers: 1 });
    const pdf = makeCidFontPdf(
      [
        { text: TITLE, size: 18, x: 72, y: 760 },
        { text: '山田 花子（架空大学 理学部）', size: 11, x: 72, y: 730 },
      ],
      bodyProse(680),
    );
    const r = await pool.parse(pdf, 'ja.pdf');
    expect(r.error).toBeNull();
    expect(r.title).toBe(TITLE);
  });

  it('reads an Identity-H font by its CIDs, as dvipdfmx writes them', async () => {
    pool = new ParserPool({ ...testConfig().parsing, workers: 1 });
    // Adobe-Japan1 orders its CIDs by JIS X 0208: the hiragana あいうえお are CIDs 843-851 two
    // apart (small kana between), 亜, the first kanji, is 1125.
    const cids = new Map([...'あいうえお'].map((c, i) => [c, 843 + 2 * i]));
    cids.set('亜', 1125);
    const pdf = makeCidFontPdf([{ text: 'あい亜うえお', size: 18, x: 72, y: 760 }], bodyProse(680), {
      encoding: 'Identity-H',
      code: (c) => cids.get(c)!,
    });
    const r = await pool.parse(pdf, 'identity.pdf');
    expect(r.error).toBeNull();
    expect(r.title).toBe('あい亜うえお');
  });

  it('parses the rest of the file when a font names a CMap that cannot be had', async () => {
    pool = new ParserPool({ ...testConfig().parsing, workers: 1 });
    const pdf = makeCidFontPdf(
      [{ text: TITLE, size: 11, x: 72, y: 700 }],
      [{ text: 'A Title Set in a Latin Font Above', size: 18, x: 72, y: 760 }, ...bodyProse(660)],
      { encoding: 'MadeUp-UCS2-H' },
    );
    const r = await pool.parse(pdf, 'unknown-cmap.pdf');
    expect(r.error).toBeNull();
    expect(r.title).toBe('A Title Set in a Latin Font Above');
  });

  it('takes the CMaps from pdfjs-dist at the version of the pdf.js unpdf bundles', async () => {
    const dir = findCmapDir();
    expect(dir).not.toBeNull();
    expect(dir).toMatch(/\/cmaps\/$/);
    const manifest = createRequire(import.meta.url)('pdfjs-dist/package.json') as { version: string };
    expect(manifest.version).toBe((await getResolvedPDFJS()).version);
  });

  it('finds no CMaps where pdfjs-dist is not installed', () => {
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'no-pdfjs-'));
    expect(findCmapDir(pathToFileURL(path.join(elsewhere, 'x.js')))).toBeNull();
  });
});
