// The parser's cost is bounded by its input's size, not its shape (issue 15): XML read in one
// linear pass, inflated bytes counted and cut while they inflate, page trees too large to walk
// refused before pdf.js opens them, and each worker's memory capped and given back.
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_OPEN_PARAGRAPHS, MAX_STYLES, readDocx } from '../../src/parsing/docx/read-docx.ts';
import { XmlScanner } from '../../src/parsing/docx/xml-scan.ts';
import { openDocxParts, ZipLimitError } from '../../src/parsing/docx/zip.ts';
import { MAX_REFERENCES, parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { ParserPool } from '../../src/parsing/parser-pool.ts';
import { GraphicsNesting, MAX_GRAPHICS_NESTING, precheckPdf } from '../../src/parsing/pdf/pre-check.ts';
import { testConfig } from '../helpers/app.ts';
import {
  makeArticlePdf,
  makeDocx,
  makeInflatingDocx,
  BOMB_ENCODINGS,
  makeDigitsPdf,
  makeInflatingPdf,
  makeLzwPdf,
  makeSpacesBombPdf,
  makeManyPagesPdf,
  makeNestedStatesPdf,
  makeTextPdf,
  assemblePdf,
  makeUnclosedStylesDocx,
  makeChainedStylesDocx,
  paragraph,
} from './make-files.ts';

const MiB = 1024 * 1024;
const limits = {
  ...testConfig().parsing,
  maxDocxPartBytes: MiB,
  maxInflatedBytes: 2 * MiB,
};

describe('XML is read in one linear pass', () => {
  it('reads the styles of a styles part with 60,000 unclosed <w:style> elements, each ending where the next starts', async () => {
    const docx = makeUnclosedStylesDocx(60_000);
    const r = await parseManuscript(docx, 'styles.docx', testConfig().parsing);
    expect(r.error).toBeNull();
    // The paragraph in Word's Title style is the title: the style was read.
    expect(r.title).toBe('A Study Of Styles Left Open');
  });

  it('reads the first MAX_STYLES styles of a styles part that defines more, and says how many it defined', async () => {
    const count = MAX_STYLES + 100;
    // Paragraph i is in style S(i mod count): S5 is read, S(MAX_STYLES + 50) is past the bound.
    const docx = makeChainedStylesDocx(count, MAX_STYLES + 51);
    const model = await readDocx(docx, testConfig().parsing);
    const levelOf = (text: string) => model.blocks.find((b) => b.text === text)?.styleLevel;
    expect(levelOf('Paragraph 5')).toBe(1);
    expect(levelOf(`Paragraph ${MAX_STYLES - 1}`)).toBe(1);
    expect(levelOf(`Paragraph ${MAX_STYLES + 50}`)).toBeNull();
    expect(model.warnings.join(' ')).toMatch(
      new RegExp(`defines ${count} styles; the first ${MAX_STYLES} were read`),
    );
  });

  it('gives the same events whatever the chunk boundaries, and never reads an unclosed tag as text', () => {
    const xml =
      '<?xml version="1.0"?><a x="1>2" y=\'q\'><!-- <b> --><b/>t&amp;u&#x41;<![CDATA[<c>]]></a><d attr="never closed';
    const run = (chunk: number) => {
      const events: string[] = [];
      let inText = false;
      const tag = (event: string) => {
        events.push(event);
        inText = false;
      };
      const scanner = new XmlScanner({
        open: (name, attrs, self) => tag(`<${name}${attrs}${self ? '/' : ''}>`),
        close: (name) => tag(`</${name}>`),
        // Text may arrive in pieces: neighbouring pieces are one text.
        text: (text) => {
          if (inText) events.push(`${events.pop()!}${text}`);
          else events.push(text);
          inText = true;
        },
      });
      for (let i = 0; i < xml.length; i += chunk) scanner.feed(xml.slice(i, i + chunk));
      scanner.end();
      return events;
    };
    const whole = run(xml.length);
    expect(whole).toEqual([`<a x="1>2" y='q'>`, '<b/>', 't&uA<c>', '</a>']);
    for (const chunk of [1, 2, 3, 7]) expect(run(chunk)).toEqual(whole);
  });
});

describe('what a part holds open is bounded', () => {
  it('keeps at most MAX_OPEN_PARAGRAPHS paragraphs open, however many <w:p> are never closed', async () => {
    const opened = '<w:p><w:r><w:t>Words in a paragraph left open.</w:t></w:r>'.repeat(5000);
    const model = await readDocx(makeDocx([opened + '</w:p>'.repeat(200)]), testConfig().parsing);
    expect(model.blocks.length).toBeGreaterThan(0);
    expect(model.blocks.length).toBeLessThanOrEqual(MAX_OPEN_PARAGRAPHS);
  });
});

describe('inflated bytes are counted and cut while they inflate', () => {
  it('refuses a DOCX whose document.xml declares more than the per-part limit, inflating nothing', async () => {
    const docx = makeInflatingDocx(8 * MiB, false);
    expect(docx.length).toBeLessThan(100 * 1024);
    const zip = await openDocxParts(docx, {
      maxDeclaredBytes: 200 * MiB,
      maxPartBytes: MiB,
      maxInflatedBytes: 200 * MiB,
    });
    await expect(zip.stream('word/document.xml', () => true)).rejects.toThrow(ZipLimitError);
    expect(zip.inflatedBytes).toBe(0);
    zip.close();

    const r = await parseManuscript(docx, 'bomb.docx', limits);
    expect(r.error?.code).toBe('zip_bomb');
    expect(r.error?.message).toMatch(
      /word\/document\.xml declares \d+ bytes .* over the 1048576 byte limit of a part/,
    );
  });

  it('counts the bytes inflated from all parts and stops inflating the part that passes the per-file limit', async () => {
    const half = Buffer.from('<a>' + 'x'.repeat(600 * 1024) + '</a>');
    const docx = makeDocx(
      [],
      [
        { name: 'word/styles.xml', data: half },
        { name: 'word/document.xml', data: half },
      ],
    );
    const zip = await openDocxParts(docx, {
      maxDeclaredBytes: 200 * MiB,
      maxPartBytes: MiB,
      maxInflatedBytes: MiB,
    });
    await zip.stream('word/styles.xml', () => true);
    expect(zip.inflatedBytes).toBe(half.length);
    let seen = 0;
    const second = zip.stream('word/document.xml', (text) => {
      seen += text.length;
      return true;
    });
    await expect(second).rejects.toThrow(/byte limit of a file/);
    zip.close();
    expect(zip.inflatedBytes).toBeGreaterThan(MiB);
    expect(zip.inflatedBytes).toBeLessThan(MiB + 128 * 1024);
    expect(seen).toBeLessThan(half.length);
  });

  it('refuses a DOCX whose parts, each under the per-part limit, inflate past the per-file limit', async () => {
    const body = Array.from({ length: 9000 }, () => paragraph('Some words of the body.')).join('');
    const styles = `<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">${'<w:style w:styleId="X"><w:name w:val="x"/></w:style>'.repeat(20_000)}</w:styles>`;
    const docx = makeDocx([body], [{ name: 'word/styles.xml', data: Buffer.from(styles) }]);
    const r = await parseManuscript(docx, 'two.docx', { ...limits, maxInflatedBytes: 1.2 * MiB });
    expect(r.error?.code).toBe('zip_bomb');
    expect(r.error?.message).toMatch(/byte limit of a file/);
  });

  it('keeps the first MAX_REFERENCES references of a list that runs on past them, and says how many there were', async () => {
    const count = MAX_REFERENCES + 500;
    const entries = Array.from({ length: count }, (_, i) =>
      paragraph(
        `Writer${i % 50}, A., Author${i % 7}, B. (${1990 + (i % 30)}). A title of paper ${i}. Journal of Things, 12(3), 45-67.`,
      ),
    );
    const docx = makeDocx([
      paragraph('A Study of Many Things', 'Title'),
      paragraph('Jane Roe, John Public'),
      paragraph('Some body text that runs on for a while before the list. '.repeat(5)),
      paragraph('References', 'Heading1'),
      ...entries,
    ]);
    const r = await parseManuscript(docx, 'refs.docx', testConfig().parsing);
    expect(r.error).toBeNull();
    expect(r.references).toHaveLength(MAX_REFERENCES);
    expect(r.counts.parsed_references).toBe(MAX_REFERENCES);
    expect(r.references[0]!.raw).toMatch(/paper 0\./);
    expect(r.references[MAX_REFERENCES - 1]!.raw).toMatch(new RegExp(`paper ${MAX_REFERENCES - 1}\\.`));
    expect(r.warnings.join(' ')).toMatch(
      new RegExp(`has ${count} entries; the first ${MAX_REFERENCES} were kept`),
    );
  });

  it('stops inflating the body once the text limit is reached, and says so', async () => {
    const docx = makeInflatingDocx(8 * MiB, true);
    const model = await readDocx(docx, { ...limits, maxDocxPartBytes: 16 * MiB, maxChars: 10_000 });
    expect(model.warnings.join(' ')).toMatch(/passed 10000 characters/);
    expect(model.blocks.reduce((n, b) => n + b.text.length, 0)).toBeLessThanOrEqual(10_000);
  });

  it('refuses a PDF whose content stream inflates past the per-file limit, and counts what a normal one inflates to', async () => {
    const bomb = makeInflatingPdf(16 * MiB);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const r = await parseManuscript(bomb, 'bomb.pdf', limits);
    expect(r.error?.code).toBe('zip_bomb');
    expect(r.error?.message).toMatch(/inflate past the 2097152 byte limit/);
    const counted = await precheckPdf(makeInflatingPdf(MiB), limits);
    expect(counted.inflatedBytes).toBeGreaterThanOrEqual(MiB);
    expect(counted.inflatedBytes).toBeLessThan(MiB + 1024);
  });

  it.each(BOMB_ENCODINGS.filter((e) => e !== 'plain'))(
    'refuses a PDF whose inflating content is written another way (%s), and counts a normal one',
    async (encoding) => {
      const r = await parseManuscript(makeInflatingPdf(16 * MiB, false, encoding), 'bomb.pdf', limits);
      expect(r.error?.code).toBe('zip_bomb');
      const counted = await precheckPdf(makeInflatingPdf(MiB, false, encoding), limits);
      expect(counted.inflatedBytes).toBeGreaterThanOrEqual(MiB);
      // (twice deflated: the inner deflate's own bytes are counted too)
      expect(counted.inflatedBytes).toBeLessThan(MiB + 64 * 1024);
    },
  );

  it('finds the objects a reference names in one pass over the file, however long its runs of digits', async () => {
    // 1 MB of digits: a regular expression over the whole file was quadratic here (3.4 s at 100 KB,
    // 14 s at 200 KB); the test would run into its timeout.
    const counted = await precheckPdf(makeDigitsPdf(1_000_000), limits);
    expect(counted.inflatedBytes).toBe(0);
  });

  it('bounds a stream whose filter it does not count (LZW) by its worst ratio', async () => {
    // 1,300 bytes out for each byte in at worst: 2 KB fits a 2 MiB limit (2.6 MB does not).
    const counted = (await precheckPdf(makeLzwPdf(1000), limits)).inflatedBytes;
    expect(counted).toBeGreaterThanOrEqual(1_300_000);
    expect(counted).toBeLessThan(1_300_000 + 1300 * 4); // the line end before endstream
    const r = await parseManuscript(makeLzwPdf(2000), 'lzw.pdf', limits);
    expect(r.error?.code).toBe('zip_bomb');
  });

  it('counts a page content stream that calls itself an image', async () => {
    const r = await parseManuscript(makeInflatingPdf(16 * MiB, true), 'disguised.pdf', limits);
    expect(r.error?.code).toBe('zip_bomb');
  });
});

describe('graphics states saved inside each other are bounded', () => {
  it('counts q and Q operators only, whatever the chunk boundaries', () => {
    const text = 'q q 1 0 0 1 0 0 cm q (quote q) Tj Q Q qQ q\nQ Q Q Q q';
    for (const size of [1, 2, 3, 7, text.length]) {
      const nesting = new GraphicsNesting();
      for (let at = 0; at < text.length; at += size) nesting.feed(Buffer.from(text.slice(at, at + size)));
      nesting.end();
      // "quote" and "qQ" are no operators; the "q" in the string is counted (a stray one moves the
      // depth by one). Depth 1, 2, 3, 4 (the string), then restores; restores below 0 are ignored.
      expect([size, nesting.deepest, nesting.depth]).toEqual([size, 4, 1]);
    }
  });

  it('counts no q or Q right after a "(" (a string\'s first letter, never an operator)', () => {
    const text = '[(q)-333(=)-278(Q)]TJ q (q) Tj (Q) Tj ((q)) Tj';
    for (const size of [1, 2, 5, text.length]) {
      const nesting = new GraphicsNesting();
      for (let at = 0; at < text.length; at += size) nesting.feed(Buffer.from(text.slice(at, at + size)));
      nesting.end();
      // Only the one operator counts: the "(q)"s and "(Q)"s are letters in strings.
      expect([size, nesting.deepest, nesting.depth]).toEqual([size, 1, 1]);
    }
  });

  it('reads a paper that sets its variable q alone in a string on every line (pdfTeX draws "(q)")', async () => {
    // A real pdfTeX file drew 576 of them on three pages and was refused as nested 1,076 deep.
    const lines = Array.from(
      { length: 1500 },
      (_, i) => `BT /F1 10 Tf 72 ${760 - (i % 70) * 10} Td [(Let)-333(q)-278(=)-278(${i})]TJ ET`,
    );
    const content = `q 1 0 0 1 0 0 cm ${lines.join('\n')} Q`;
    const pdf = assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ]);
    expect((await precheckPdf(pdf, limits)).graphicsNesting).toBe(1);
    const r = await parseManuscript(pdf, 'variable-q.pdf', limits);
    expect(r.error).toBeNull();
  });

  it('refuses a 20,000-deep nesting, plain, deflated or deflated twice, before pdf.js reads it', async () => {
    // Before: 20,000 nested saves (a 716-byte file) took pdf.js 9.5 s; 2 million the whole parse limit.
    for (const encoding of ['none', 'deflate', 'deflate-twice'] as const) {
      const pdf = makeNestedStatesPdf(20_000, encoding);
      await expect(precheckPdf(pdf, limits), encoding).rejects.toMatchObject({ code: 'too_complex' });
      const r = await parseManuscript(pdf, 'nested.pdf', limits);
      expect(r.error?.code, encoding).toBe('too_complex');
    }
  });

  it('reads a file nested to the limit, and reports how deep real files go', async () => {
    const r = await parseManuscript(makeNestedStatesPdf(MAX_GRAPHICS_NESTING, 'deflate'), 'deep.pdf', limits);
    expect(r.error).toBeNull();
    const article = await precheckPdf(makeArticlePdf(), limits);
    expect(article.graphicsNesting).toBeLessThan(28);
  });
});

describe('pages beyond the limit are never visited', () => {
  it('refuses a PDF whose page tree lists more kids than ten per page read, before pdf.js walks it', async () => {
    const r = await parseManuscript(makeManyPagesPdf(5000, 1), 'long.pdf', { ...limits, maxPages: 300 });
    expect(r.error?.code).toBe('too_many_pages');
    expect(r.error?.message).toMatch(/lists 5000 kids/);
  });

  it('still reads the first pages of a PDF within that bound', async () => {
    const pages = Array.from({ length: 40 }, (_, i) => [
      { text: `Page ${i + 1} text here`, size: 10, x: 72, y: 700 },
    ]);
    const r = await parseManuscript(makeTextPdf(pages), 'ok.pdf', { ...limits, maxPages: 4 });
    expect(r.error).toBeNull();
    expect(r.pages).toBe(40);
    expect(r.warnings.join(' ')).toMatch(/only the first 4 were read/);
  });
});

// Each test starts a worker and parses a file built to fill memory: seconds of CPU on a quiet
// machine, over a minute on a loaded one. What they assert is counted (memory stops, recycles),
// so they get room, not a deadline.
describe('each parse has a memory budget, and memory is given back', { timeout: 240_000 }, () => {
  let pool: ParserPool | null = null;
  afterEach(async () => {
    await pool?.close();
    pool = null;
  });

  it("a file whose decoding grows the process's memory past the limit fails, and the next file is served", async () => {
    // The pre-check let through (its limits set past the file): what it cannot foresee, such as a
    // file pdf.js decrypts before it inflates, meets the memory watch instead.
    pool = new ParserPool({
      ...testConfig().parsing,
      workers: 1,
      maxInflatedBytes: 4 * 1024 * MiB,
      maxPageContentBytes: 4 * 1024 * MiB,
      maxDocumentContentBytes: 4 * 1024 * MiB,
      maxRssGrowthMb: 128,
      timeoutMs: 180_000, // the memory watch is under test, not the time limit
    });
    const bomb = await pool.parse(await makeSpacesBombPdf(1024), 'spaces.pdf');
    expect(bomb.error?.code).toBe('parser_failed');
    expect(bomb.error?.message).toMatch(/memory grow past 128 MB/);
    expect(pool.stats().memoryStops).toBe(1);
    const next = await pool.parse(makeArticlePdf(), 'next.pdf');
    expect(next.error).toBeNull();
    expect(next.title).toBe('A Study of Things That Parse Well');
  });

  it('a file that needs more heap than the budget fails alone, and the next file is served', async () => {
    pool = new ParserPool({
      ...testConfig().parsing,
      workers: 1,
      workerHeapMb: 64,
      maxChars: 1_000_000_000,
      maxDocxPartBytes: 64 * MiB,
      maxInflatedBytes: 64 * MiB,
    });
    // One paragraph of 12.5 MB of text, kept whole: its copies alone pass 64 MB of heap.
    const heavy = await pool.parse(makeDocx([paragraph('word '.repeat(2_500_000))]), 'heavy.docx');
    expect(heavy.error?.code).toBe('parser_failed');
    expect(heavy.error?.message).toMatch(/memory budget \(64 MB\)/);
    const next = await pool.parse(makeArticlePdf(), 'next.pdf');
    expect(next.error).toBeNull();
    expect(next.title).toBe('A Study of Things That Parse Well');
  });

  it('replaces a worker that holds more than the recycle threshold after a file, and keeps serving', async () => {
    pool = new ParserPool({ ...testConfig().parsing, workers: 1, workerRecycleMb: 16 });
    const first = await pool.parse(makeArticlePdf(), 'a.pdf');
    expect(first.error).toBeNull();
    expect(pool.stats().recycled).toBe(1);
    const second = await pool.parse(makeArticlePdf(), 'b.pdf');
    expect(second.error).toBeNull();
    expect(pool.stats().recycled).toBe(2);
  });

  it('keeps a worker that gave its memory back, and serves the next file after a refused one', async () => {
    pool = new ParserPool({ ...limits, workers: 1 });
    const bomb = await pool.parse(makeInflatingDocx(8 * MiB, false), 'bomb.docx');
    expect(bomb.error?.code).toBe('zip_bomb');
    const next = await pool.parse(makeArticlePdf(), 'next.pdf');
    expect(next.error).toBeNull();
    expect(pool.stats().recycled).toBe(0);
  });
});
