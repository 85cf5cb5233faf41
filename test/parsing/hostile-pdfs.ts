// The hostile PDFs of round 4 (docs/benchmarks/hostile-files.md): small files whose page content
// holds far more operators than any manuscript page, each of which held a parser worker for most of
// PARSE_TIMEOUT_MS. Shared by the tests and by bench/hostile-files.ts.
import { deflateSync } from 'node:zlib';
import { assemblePdf } from './make-files.ts';

/** One text object: a line of text shown once (50 bytes). */
const TEXT_LINE = 'BT /F1 9 Tf 50 700 Td (Hostile text repeated) Tj ET\n';

/** A PDF of the given page contents (each deflated or not), all in one font. */
function pagesPdf(contents: Buffer[], deflate: boolean): Uint8Array {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const kids: string[] = [];
  for (const content of contents) {
    const data = deflate ? deflateSync(content, { level: 9 }) : content;
    kids.push(`${objects.length + 1} 0 R`);
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${objects.length + 2} 0 R >>`,
    );
    objects.push(
      `<< /Length ${data.length}${deflate ? ' /Filter /FlateDecode' : ''} >>\nstream\n${data.toString('latin1')}\nendstream`,
    );
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${contents.length} >>`;
  return assemblePdf(objects);
}

/** `pages` pages each of `bytesPerPage` bytes of text objects, deflated or written as they are. */
export function makeTextOperatorsPdf(pages: number, bytesPerPage: number, deflate: boolean): Uint8Array {
  const content = Buffer.from(TEXT_LINE.repeat(Math.ceil(bytesPerPage / TEXT_LINE.length)), 'latin1');
  return pagesPdf(
    Array.from({ length: pages }, () => content),
    deflate,
  );
}

/** One page showing one text array (`TJ`) of `items` strings, each followed by a kerning, deflated. */
export function makeTextArrayPdf(items: number): Uint8Array {
  const content = Buffer.from(`BT /F1 12 Tf 72 700 Td [${'(a)1 '.repeat(items)}] TJ ET`, 'latin1');
  return pagesPdf([content], true);
}

/** A line segment stroked: what a vector figure is made of (32 bytes). */
const PATH_SEGMENT = '100.5 200.25 m 300.1 400.2 l S\n';

/**
 * One page per entry, each a line of words ("Words of page N ...") followed by that many bytes of a
 * drawing (0 for none), deflated: pages of vector figures beside pages of text.
 */
export function makeFigurePagesPdf(drawingBytes: number[]): Uint8Array {
  return pagesPdf(
    drawingBytes.map((bytes, i) =>
      Buffer.from(
        // At a place of its own on each page: one line at one place on every page is a running head.
        `BT /F1 10 Tf 72 ${700 - 40 * i} Td (Words of page ${i + 1}, set as a line of running text.) Tj ET\n` +
          PATH_SEGMENT.repeat(Math.ceil(bytes / PATH_SEGMENT.length)),
        'latin1',
      ),
    ),
    true,
  );
}

/**
 * `pages` pages that all draw one stream of `bytes` bytes of text objects, each naming it in its
 * /Contents directly or through an array object (`/Contents 5 0 R`, `5 0 obj [4 0 R]`).
 */
export function makeSharedContentPdf(pages: number, bytes: number, viaArray: boolean): Uint8Array {
  const content = TEXT_LINE.repeat(Math.ceil(bytes / TEXT_LINE.length));
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '[4 0 R]',
  ];
  const kids: string[] = [];
  for (let i = 0; i < pages; i++) {
    kids.push(`${objects.length + 1} 0 R`);
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${viaArray ? 5 : 4} 0 R >>`,
    );
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages} >>`;
  return assemblePdf(objects);
}

/**
 * One page that writes a line of text and draws a form (an XObject) of `bytes` bytes of text
 * objects, deflated: the form's pieces are the page's.
 */
export function makeFormTextPdf(bytes: number): Uint8Array {
  const form = deflateSync(Buffer.from(TEXT_LINE.repeat(Math.ceil(bytes / TEXT_LINE.length)), 'latin1'), {
    level: 9,
  });
  const page = 'BT /F1 10 Tf 72 720 Td (A line of the page) Tj ET\n/Fm1 Do\n';
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> /XObject << /Fm1 6 0 R >> >> /Contents 5 0 R >>',
    `<< /Length ${page.length} >>\nstream\n${page}\nendstream`,
    `<< /Type /XObject /Subtype /Form /BBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Length ${form.length} /Filter /FlateDecode >>\nstream\n${form.toString('latin1')}\nendstream`,
  ]);
}

/**
 * One page that writes a line of text and draws, `draws` times, a form of `formBytes` bytes of text
 * objects (deflated): a small file whose page makes pdf.js interpret `draws * formBytes` bytes.
 */
export function makeRepeatedFormPdf(formBytes: number, draws: number): Uint8Array {
  return makeNestedFormsPdf(formBytes, [draws]);
}

/**
 * One page that writes a line of text and draws form 1 `fanouts[0]` times; form k draws form k + 1
 * `fanouts[k]` times, and the last form holds `formBytes` bytes of text objects (or of stroked lines:
 * a vector figure), every form deflated:
 * a "billion laughs" of forms, `formBytes` times the product of the fan-outs interpreted.
 */
export function makeNestedFormsPdf(
  formBytes: number,
  fanouts: number[],
  operators: 'text' | 'paths' = 'text',
): Uint8Array {
  const formDict = (stream: Buffer, resources: string) =>
    `<< /Type /XObject /Subtype /Form /BBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >>${resources} >> /Length ${stream.length} /Filter /FlateDecode >>\nstream\n${stream.toString('latin1')}\nendstream`;
  const draw = (times: number) => Buffer.from('/Fm1 Do\n'.repeat(times), 'latin1');
  const page = `BT /F1 10 Tf 72 720 Td (A line of the page) Tj ET\n${draw(fanouts[0] ?? 1).toString('latin1')}`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> /XObject << /Fm1 6 0 R >> >> /Contents 5 0 R >>',
    `<< /Length ${page.length} >>\nstream\n${page}\nendstream`,
  ];
  // Forms 6, 7, ...: each draws the next, the last holds the text.
  for (let k = 1; k < fanouts.length; k++) {
    objects.push(formDict(deflateSync(draw(fanouts[k]!)), ` /XObject << /Fm1 ${objects.length + 2} 0 R >>`));
  }
  const unit = operators === 'text' ? TEXT_LINE : PATH_SEGMENT;
  const text = Buffer.from(unit.repeat(Math.ceil(formBytes / unit.length)), 'latin1');
  objects.push(formDict(deflateSync(text, { level: 9 }), ''));
  return assemblePdf(objects);
}

/**
 * One page that writes a line of text and one glyph of a Type 3 font, whose procedure draws form 1
 * ten times; each form draws the next ten times, `levels` levels in all, the last a drawing of 900
 * bytes of lines. pdf.js interprets the glyph's procedure when it loads the font: 10^levels draws.
 * `glyphDict`: more of the procedure's dictionary (what it says of itself, which pdf.js ignores).
 */
export function makeType3FormsPdf(levels: number, glyphDict = ''): Uint8Array {
  const stream = (body: string, dict = '') => `<< /Length ${body.length} ${dict}>>\nstream\n${body}endstream`;
  const form = (body: string, resources: string) =>
    stream(body, `/Type /XObject /Subtype /Form /BBox [0 0 1000 1000] ${resources}`);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R /T3 6 0 R >> >> /Contents 5 0 R >>',
    stream('BT /F1 10 Tf 72 720 Td (A line of the page) Tj ET\nBT /T3 12 Tf 72 700 Td (a) Tj ET\n'),
    '<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /a 7 0 R >> /Encoding << /Type /Encoding /Differences [97 /a] >> /FirstChar 97 /LastChar 97 /Widths [1000] /Resources << /XObject << /Fm1 8 0 R >> >> >>',
    stream(`1000 0 0 0 1000 1000 d1\n${'/Fm1 Do\n'.repeat(10)}`, glyphDict),
  ];
  for (let k = 1; k < levels; k++)
    objects.push(
      form('/Fm1 Do\n'.repeat(10), `/Resources << /XObject << /Fm1 ${objects.length + 2} 0 R >> >> `),
    );
  objects.push(form(PATH_SEGMENT.repeat(29), ''));
  return assemblePdf(objects);
}

/**
 * One page that writes a line of text and sets `fonts` Type 3 fonts, each naming one glyph procedure
 * of `bytes` bytes of lines (deflated) as `glyphs` glyphs: pdf.js builds the procedure once for each
 * glyph of each font as it loads them, `fonts * glyphs` times. `glyphDict`: more of the procedure's
 * dictionary (what it says of itself, which pdf.js ignores).
 */
export function makeType3SharedGlyphPdf(
  glyphs: number,
  bytes: number,
  fonts = 1,
  glyphDict = '',
): Uint8Array {
  const glyph = deflateSync(
    `1000 0 0 0 1000 1000 d1\n${PATH_SEGMENT.repeat(Math.ceil(bytes / PATH_SEGMENT.length))}`,
    {
      level: 9,
    },
  );
  const charProcs = Array.from({ length: glyphs }, (_, i) => `/g${i} 6 0 R`).join(' ');
  const names = Array.from({ length: fonts }, (_, i) => `/T${i} ${7 + i} 0 R`).join(' ');
  const page = `BT /F1 10 Tf 72 720 Td (A line of the page) Tj ET\n${Array.from(
    { length: fonts },
    (_, i) => `BT /T${i} 12 Tf 72 700 Td (a) Tj ET\n`,
  ).join('')}`;
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R ${names} >> >> /Contents 5 0 R >>`,
    `<< /Length ${page.length} >>\nstream\n${page}endstream`,
    `<< /Length ${glyph.length} /Filter /FlateDecode ${glyphDict}>>\nstream\n${glyph.toString('latin1')}\nendstream`,
    ...Array.from(
      { length: fonts },
      () =>
        `<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << ${charProcs} >> /Encoding << /Type /Encoding /Differences [97 /g0] >> /FirstChar 97 /LastChar 97 /Widths [1000] >>`,
    ),
  ]);
}

/**
 * One page that writes a line of text in each of `fonts` fonts whose descriptors all name one font
 * program (`program`, written as it is: the pre-check weighs its bytes, pdf.js parses it as a
 * TrueType font), each font simple or a Type 0 font with a descendant of its own: pdf.js parses the
 * program once for each font. `pages` more pages name the same fonts in their resources.
 */
export function makeSharedFontProgramPdf(
  fonts: number,
  program: Buffer,
  type0 = false,
  pages = 1,
): Uint8Array {
  const names = Array.from({ length: fonts }, (_, i) => `/T${i} ${7 + 3 * i} 0 R`).join(' ');
  const content = Array.from(
    { length: fonts },
    (_, i) => `BT /T${i} 12 Tf 72 ${700 - (i % 600)} Td (abc) Tj ET\n`,
  ).join('');
  const kids = Array.from({ length: pages }, (_, i) => `${7 + 3 * fonts + i} 0 R`);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [4 0 R ${kids.join(' ')}] /Count ${pages + 1} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R ${names} >> >> /Contents 5 0 R >>`,
    `<< /Length ${content.length} >>\nstream\n${content}endstream`,
    `<< /Length ${program.length} /Length1 ${program.length} >>\nstream\n${program.toString('latin1')}\nendstream`,
  ];
  for (let i = 0; i < fonts; i++) {
    const n = 7 + 3 * i;
    const descriptor = `<< /Type /FontDescriptor /FontName /Shared${i} /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 6 0 R >>`;
    if (type0) {
      objects.push(
        `<< /Type /Font /Subtype /Type0 /BaseFont /Shared${i} /Encoding /Identity-H /DescendantFonts [${n + 1} 0 R] >>`,
        `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Shared${i} /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor ${n + 2} 0 R >>`,
        descriptor,
      );
    } else {
      objects.push(
        `<< /Type /Font /Subtype /TrueType /BaseFont /Shared${i} /FirstChar 32 /LastChar 126 /Widths [${Array(95).fill(600).join(' ')}] /FontDescriptor ${n + 1} 0 R >>`,
        descriptor,
        '<< >>',
      );
    }
  }
  for (let i = 0; i < pages; i++)
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << ${names} >> >> /Contents 5 0 R >>`,
    );
  return assemblePdf(objects);
}
