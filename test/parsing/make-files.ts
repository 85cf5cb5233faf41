// Builds small PDFs and DOCX files byte by byte inside the tests, so that every hostile case
// (truncated, encrypted, images only, zip bombs, missing parts) is made by the test that uses it.
import { createDeflate, deflateRawSync, deflateSync } from 'node:zlib';

export interface PdfTextLine {
  text: string;
  size: number;
  x: number;
  y: number;
  /** Set in Helvetica-Bold instead of Helvetica. */
  bold?: boolean;
}

function pdfString(s: string): string {
  return `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** Assembles a PDF from object bodies, with a correct cross-reference table. */
export function assemblePdf(objects: string[], trailerExtra = ''): Uint8Array {
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

function stream(content: string, dict = ''): string {
  return `<< /Length ${Buffer.byteLength(content, 'latin1')} ${dict}>>\nstream\n${content}\nendstream`;
}

/** A link annotation: the rectangle [x1, y1, x2, y2] it covers and where it points. */
export interface PdfLink {
  rect: [number, number, number, number];
  url: string;
  /** A link to another PDF file (a GoToR action, `url` its file name), not a web address. */
  file?: boolean;
}

/** Lines of running body text, 13 points apart from `y` down: what tells a title page's lines apart from prose. */
export function bodyProse(y: number, count = 12): PdfTextLine[] {
  return Array.from({ length: count }, (_, i) => ({
    text: `Line ${i + 1} of the body text, long enough to read as the running prose of a section.`,
    size: 10,
    x: 72,
    y: y - i * 13,
  }));
}

/** Helvetica's mean advance is about half the size; a little more keeps pieces apart. */
export function textWidth(text: string, size: number): number {
  return text.length * size * 0.56;
}

/**
 * One line of a page: at the body's size and left margin unless told otherwise (what most lines of
 * a made-up title page or list are; a line too long to sit on one source line reads as one call).
 */
export function textLine(
  text: string,
  y: number,
  size = 10,
  { x = 72, bold }: { x?: number; bold?: boolean } = {},
): PdfTextLine {
  return bold === undefined ? { text, size, x, y } : { text, size, x, y, bold };
}

/**
 * Pieces set one after the other on a line from `x`; a piece with `sup` is raised and smaller (the
 * affiliation marks of a byline).
 */
export function piecesOnOneLine(
  pieces: { text: string; sup?: boolean }[],
  y: number,
  size: number,
  { x = 72, bold = false }: { x?: number; bold?: boolean } = {},
): PdfTextLine[] {
  const out: PdfTextLine[] = [];
  let left = x;
  for (const p of pieces) {
    const s = p.sup ? size * 0.7 : size;
    out.push({ text: p.text, size: s, x: left, y: p.sup ? y + size * 0.35 : y, bold });
    left += textWidth(p.text, s);
  }
  return out;
}

/**
 * Reference entries of two lines each at the body's size, 12 points apart within an entry and 30
 * from one entry to the next (a list set apart by space), from `top` down.
 */
export function spacedTwoLineEntries(texts: [string, string][], top: number): PdfTextLine[] {
  const out: PdfTextLine[] = [];
  let y = top;
  for (const [a, b] of texts) {
    out.push({ text: a, size: 10, x: 72, y }, { text: b, size: 10, x: 72, y: y - 12 });
    y -= 30;
  }
  return out;
}

/**
 * A text PDF: one entry per page, each a list of lines in Helvetica at the given sizes. With
 * `winAnsi` the fonts use WinAnsiEncoding, so Latin-1 characters beyond ASCII (superscript digits
 * "¹²³", "§", accented letters) read back as themselves; without it they follow StandardEncoding.
 */
export function makeTextPdf(
  pages: PdfTextLine[][],
  trailerExtra = '',
  links: PdfLink[][] = [],
  { winAnsi = false }: { winAnsi?: boolean } = {},
): Uint8Array {
  const encoding = winAnsi ? ' /Encoding /WinAnsiEncoding' : '';
  // 1 catalog, 2 pages, 3 and 4 fonts, then per page: page object and its content stream.
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '',
    `<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica${encoding} >>`,
    `<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold${encoding} >>`,
  ];
  const kids: string[] = [];
  pages.forEach((lines, p) => {
    const pageId = objects.length + 1;
    kids.push(`${pageId} 0 R`);
    const content = lines
      .map((l) => `BT /${l.bold ? 'F2' : 'F1'} ${l.size} Tf ${l.x} ${l.y} Td ${pdfString(l.text)} Tj ET`)
      .join('\n');
    const annots = (links[p] ?? [])
      .map(
        (l) =>
          `<< /Type /Annot /Subtype /Link /Rect [${l.rect.join(' ')}] /Border [0 0 0] /A ${l.file ? `<< /S /GoToR /F ${pdfString(l.url)} /D [0 /Fit] >>` : `<< /S /URI /URI ${pdfString(l.url)} >>`} >>`,
      )
      .join(' ');
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageId + 1} 0 R ${annots ? `/Annots [${annots}] ` : ''}>>`,
    );
    objects.push(stream(content));
  });
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages.length} >>`;
  return assemblePdf(objects, trailerExtra);
}

/** Many pages that all draw one shared content stream: a large document in a small file. */
export function makeManyPagesPdf(pageCount: number, linesPerPage = 60): Uint8Array {
  const line = 'A line of text that the parser must read, place, and join with its neighbours.';
  const content = Array.from(
    { length: linesPerPage },
    (_, i) => `BT /F1 9 Tf 50 ${800 - i * 12} Td ${pdfString(line)} Tj ET`,
  ).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    stream(content),
  ];
  const kids: string[] = [];
  for (let i = 0; i < pageCount; i++) {
    kids.push(`${objects.length + 1} 0 R`);
    objects.push(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>',
    );
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pageCount} >>`;
  return assemblePdf(objects);
}

/** A small article: a large title, a byline with superscript marks, an affiliation, a body, references. */
export function makeArticlePdf(title = 'A Study of Things That Parse Well'): Uint8Array {
  const body = Array.from({ length: 20 }, (_, i) => ({
    text: `This is line ${i + 1} of the body text, long enough to read as running prose in a column.`,
    size: 10,
    x: 72,
    y: 560 - i * 13,
  }));
  return makeTextPdf([
    [
      { text: title, size: 20, x: 72, y: 760 },
      { text: 'Jane Roe', size: 11, x: 72, y: 730 },
      { text: '1', size: 7, x: 118, y: 734 },
      { text: ', John Q. Public', size: 11, x: 122, y: 730 },
      { text: '2', size: 7, x: 200, y: 734 },
      { text: '1', size: 7, x: 72, y: 708 },
      { text: 'Department of Physics, University of Somewhere, Sometown, Country', size: 9, x: 76, y: 705 },
      { text: '2', size: 7, x: 72, y: 694 },
      { text: 'Institute of Chemistry, Another University, Othertown, Country', size: 9, x: 76, y: 691 },
      { text: 'Correspondence: jane.roe@example.org', size: 9, x: 72, y: 677 },
      { text: 'Introduction', size: 12, x: 72, y: 590 },
      ...body,
    ],
    [
      { text: 'References', size: 12, x: 72, y: 760 },
      {
        text: '1. Roe J, Public JQ. A first result. Journal of Tests. 2020;1: 1-2. doi:10.1000/test.1',
        size: 9,
        x: 72,
        y: 740,
      },
      {
        text: '2. Doe A. A second result. Journal of Tests. 2021;2: 3-4. doi:10.1000/test.2',
        size: 9,
        x: 72,
        y: 726,
      },
      { text: '3. Poe E. A third result. Other Journal. 2022;3: 5-6.', size: 9, x: 72, y: 712 },
    ],
  ]);
}

/** A page that only paints an image: what a scanner produces. */
export function makeImageOnlyPdf(): Uint8Array {
  const pixels = Buffer.alloc(16 * 16, 0x80).toString('latin1');
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>',
    stream(
      pixels,
      '/Type /XObject /Subtype /Image /Width 16 /Height 16 /ColorSpace /DeviceGray /BitsPerComponent 8 ',
    ),
    stream('q 400 0 0 400 100 300 cm /Im1 Do Q'),
  ]);
}

/**
 * A PDF whose trailer declares standard encryption with a user password: the empty password does
 * not open it, so a reader must report it as encrypted.
 */
export function makeEncryptedPdf(): Uint8Array {
  const hex = (n: number, seed: number) =>
    Array.from({ length: n }, (_, i) => ((i * 37 + seed) % 256).toString(16).padStart(2, '0')).join('');
  const base = makeTextPdf([[{ text: 'Secret', size: 12, x: 72, y: 700 }]]);
  const text = Buffer.from(base).toString('latin1');
  // Re-assemble with an /Encrypt dictionary as an extra object.
  const objects = [...text.matchAll(/\d+ 0 obj\n([\s\S]*?)\nendobj/g)].map((m) => m[1]!);
  const encryptId = objects.length + 1;
  objects.push(`<< /Filter /Standard /V 1 /R 2 /O <${hex(32, 7)}> /U <${hex(32, 11)}> /P -44 >>`);
  return assemblePdf(objects, `/Encrypt ${encryptId} 0 R /ID [<${hex(16, 3)}> <${hex(16, 3)}>] `);
}

// ---- ZIP / DOCX --------------------------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export interface ZipEntry {
  name: string;
  data: Buffer;
  /** Lie about the uncompressed size in the headers (a crafted bomb). */
  declaredSize?: number;
}

/** A zip archive with deflated entries, written by hand so tests control every header field. */
export function makeZip(entries: ZipEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const compressed = deflateRawSync(e.data);
    const size = e.declaredSize ?? e.data.length;
    const crc = crc32(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, cd, end]));
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** The Word namespace declaration, for parts a test writes itself (styles). */
export const WORD_NS = W;

/** A paragraph of runs (`docxRun`, raw XML), in a paragraph style when one is named. */
export function docxParagraph(runs: string, style?: string): string {
  const pPr = style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : '';
  return `<w:p>${pPr}${runs}</w:p>`;
}

/** A run of text, raised as a superscript (an affiliation mark) when `sup`. */
export function docxRun(text: string, sup = false): string {
  const rPr = sup ? '<w:rPr><w:vertAlign w:val="superscript"/></w:rPr>' : '';
  return `<w:r>${rPr}<w:t xml:space="preserve">${text}</w:t></w:r>`;
}

/** A paragraph of one run in 18-point type and no style: a title set large by hand. */
export function docxLargeParagraph(text: string): string {
  return `<w:p><w:r><w:rPr><w:sz w:val="36"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
}

/**
 * A paragraph of one run set by hand in `points` type, in bold when asked, in a paragraph style when
 * one is named: a cover's lines, a title or headings typed larger than the body.
 */
export function docxSizedParagraph(
  text: string,
  points: number,
  { bold = false, style }: { bold?: boolean; style?: string } = {},
): string {
  const pPr = style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : '';
  return `<w:p>${pPr}<w:r><w:rPr>${bold ? '<w:b/>' : ''}<w:sz w:val="${points * 2}"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
}

export function paragraph(text: string, style?: string): string {
  return docxParagraph(docxRun(text), style);
}

/**
 * A DOCX's styles part declaring these paragraph styles: each its id, the name Word shows ("heading
 * 1"), and any properties (`<w:pPr>...`).
 */
export function paragraphStyles(styles: [id: string, name: string, properties?: string][]): ZipEntry {
  const declared = styles
    .map(
      ([id, name, properties = '']) =>
        `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/>${properties}</w:style>`,
    )
    .join('');
  return {
    name: 'word/styles.xml',
    data: Buffer.from(`<?xml version="1.0"?><w:styles ${W}>${declared}</w:styles>`),
  };
}

/** A DOCX's styles part declaring only the Title style (a made-up title set in it is the document's). */
export const TITLE_STYLE: ZipEntry = paragraphStyles([['Title', 'Title']]);

/** `count` paragraphs of running prose: the body of a made-up Word manuscript (bodyProse's twin). */
export function wordBodyParagraphs(count: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    paragraph(`Paragraph ${i + 1} of the body, long enough to read as running prose of the section.`),
  );
}

/** A DOCX of these paragraphs; an `extra` part replaces the default part of the same name. */
export function makeDocx(paragraphs: string[], extra: ZipEntry[] = [], omit: string[] = []): Uint8Array {
  const defaults: ZipEntry[] = [
    {
      name: '[Content_Types].xml',
      data: Buffer.from(
        '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>',
      ),
    },
    {
      name: 'word/document.xml',
      data: Buffer.from(
        `<?xml version="1.0"?><w:document ${W}><w:body>${paragraphs.join('')}</w:body></w:document>`,
      ),
    },
    {
      name: 'word/styles.xml',
      data: Buffer.from(
        `<?xml version="1.0"?><w:styles ${W}><w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>`,
      ),
    },
  ];
  const parts = [...defaults.filter((d) => !extra.some((e) => e.name === d.name)), ...extra];
  return makeZip(parts.filter((p) => !omit.includes(p.name)));
}

// ---- Hostile files of issue 15: small on disk, costly for a naive reader ---------------------------

/**
 * A DOCX whose styles part opens `count` `<w:style>` elements and never closes one. Style S1 is
 * Word's "Title", and the first paragraph has it: a reader that reads the styles finds the title.
 */
export function makeUnclosedStylesDocx(count = 60_000): Uint8Array {
  const open = Array.from(
    { length: count },
    (_, i) =>
      `<w:style w:type="paragraph" w:styleId="S${i}"><w:name w:val="${i === 1 ? 'Title' : `s${i}`}"/>`,
  ).join('');
  return makeDocx(
    [
      paragraph('Jane Roe, John Public'),
      paragraph('A Study Of Styles Left Open', 'S1'),
      paragraph('Body text that runs on. '.repeat(10)),
    ],
    [{ name: 'word/styles.xml', data: Buffer.from(`<?xml version="1.0"?><w:styles ${W}>${open}`) }],
  );
}

/**
 * A DOCX whose styles part defines `count` paragraph styles named "heading 1", each based on the
 * next, with `paragraphs` paragraphs after the title, each in a style of its own (paragraph i in
 * style S(i mod count)).
 */
export function makeChainedStylesDocx(count: number, paragraphs: number): Uint8Array {
  const styles = Array.from(
    { length: count },
    (_, i) =>
      `<w:style w:type="paragraph" w:styleId="S${i}"><w:name w:val="heading 1"/><w:basedOn w:val="S${i + 1}"/></w:style>`,
  ).join('');
  return makeDocx(
    [
      paragraph('A Study Of Many Styles', 'Title'),
      ...Array.from({ length: paragraphs }, (_, i) => paragraph(`Paragraph ${i}`, `S${i % count}`)),
    ],
    [
      {
        name: 'word/styles.xml',
        data: Buffer.from(`<?xml version="1.0"?><w:styles ${W}>${styles}</w:styles>`),
      },
    ],
  );
}

/**
 * A DOCX whose document.xml inflates to `bytes`: paragraph after paragraph of markup. With `text`
 * false the paragraphs carry no text at all, so no character limit ever stops a reader.
 */
export function makeInflatingDocx(bytes: number, text = true): Uint8Array {
  const unit = text
    ? paragraph('Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.')
    : '<w:p><w:pPr><w:pStyle w:val="Normal"/></w:pPr><w:r><w:rPr><w:b/></w:rPr></w:r></w:p>';
  const head = `<?xml version="1.0"?><w:document ${W}><w:body>`;
  const tail = '</w:body></w:document>';
  const body = Buffer.from(unit.repeat(Math.ceil((bytes - head.length - tail.length) / unit.length)));
  return makeZip([
    { name: 'word/document.xml', data: Buffer.concat([Buffer.from(head), body, Buffer.from(tail)]) },
  ]);
}

/**
 * A one-page PDF whose content stream, deflated, inflates to `bytes` of text-drawing operators.
 * `disguised` labels that stream an image, which text extraction would otherwise never decode.
 */
/** Ways of writing a page's deflated content that a scan of the declared filters once missed. */
export const BOMB_ENCODINGS = [
  'plain',
  'filter-reference',
  'hex-then-deflate',
  'filter-reference-in-array',
  'f-abbreviation',
  'nested-filter',
  'space-after-stream-keyword',
  'endstream-inside-data',
  'deflate-twice',
  'ascii85-then-deflate-unterminated',
] as const;
export type BombEncoding = (typeof BOMB_ENCODINGS)[number];

/**
 * A PDF whose one page's content inflates to `bytes`, its deflate written as `encoding` says (each a
 * form pdf.js reads and decodes whole).
 */
export function makeInflatingPdf(
  bytes: number,
  disguised = false,
  encoding: BombEncoding = 'plain',
): Uint8Array {
  const op = 'BT /F1 9 Tf 50 700 Td (Hostile text repeated) Tj ET\n';
  const content = Buffer.from(op.repeat(Math.ceil(bytes / op.length)), 'latin1');
  let deflated = deflateSync(content, { level: 9 });
  if (encoding === 'deflate-twice') deflated = deflateSync(deflated, { level: 9 });
  if (encoding === 'endstream-inside-data') {
    // A stored (uncompressed) deflate block holding "endstream" first, then the compressed rest:
    // the data runs to its /Length, past the first "endstream".
    const literal = Buffer.from('%endstream\n', 'latin1');
    const stored = Buffer.concat([
      Buffer.from([0x00, literal.length, 0x00, ~literal.length & 0xff, 0xff]),
      literal,
    ]);
    const rest = deflateRawSync(content, { level: 9 });
    const adler = adler32(Buffer.concat([literal, content]));
    deflated = Buffer.concat([Buffer.from([0x78, 0x9c]), stored, rest, adler]);
  }
  const data =
    encoding === 'hex-then-deflate'
      ? `${deflated.toString('hex')}>`
      : encoding === 'ascii85-then-deflate-unterminated'
        ? encodeAscii85(deflated)
        : deflated.toString('latin1');
  const filterEntry: Record<BombEncoding, string> = {
    plain: '/Filter /FlateDecode',
    'filter-reference': '/Filter 6 0 R',
    'hex-then-deflate': '/Filter [/ASCIIHexDecode /FlateDecode]',
    'filter-reference-in-array': '/Filter [7 0 R]',
    'f-abbreviation': '/F /FlateDecode',
    'nested-filter': '/Filter /FlateDecode /X << /Filter /AHx >>',
    'space-after-stream-keyword': '/Filter /FlateDecode',
    'endstream-inside-data': '/Filter /FlateDecode',
    'deflate-twice': '/Filter [/FlateDecode /FlateDecode]',
    // No "~>" at its end: pdf.js decodes it to the stream's end all the same.
    'ascii85-then-deflate-unterminated': '/Filter [/ASCII85Decode /FlateDecode]',
  };
  const keyword = encoding === 'space-after-stream-keyword' ? 'stream \n' : 'stream\n';
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${data.length} ${filterEntry[encoding]} ${disguised ? '/Subtype /Image ' : ''}>>\n${keyword}${data}\nendstream`,
    '[/FlateDecode]',
    '/FlateDecode',
  ]);
}

/** ASCII-85 without its closing "~>" (groups of four bytes as five characters, "z" for zeros). */
function encodeAscii85(data: Buffer): string {
  let out = '';
  for (let i = 0; i < data.length; i += 4) {
    const group = Buffer.alloc(4);
    data.copy(group, 0, i, Math.min(i + 4, data.length));
    const n = Math.min(4, data.length - i);
    let value = group.readUInt32BE(0);
    if (value === 0 && n === 4) {
      out += 'z';
      continue;
    }
    const chars: string[] = [];
    for (let k = 0; k < 5; k++) {
      chars.unshift(String.fromCharCode((value % 85) + 0x21));
      value = Math.floor(value / 85);
    }
    out += chars.slice(0, n + 1).join('');
  }
  return out;
}

function adler32(data: Buffer): Buffer {
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  const out = Buffer.alloc(4);
  out.writeUInt32BE(((b << 16) | a) >>> 0);
  return out;
}

/**
 * A PDF whose page content is `mib` MiB of spaces, deflated (deflated chunk by chunk: the spaces are
 * never held whole here). pdf.js decodes it into one buffer, outside the V8 heap.
 */
export async function makeSpacesBombPdf(mib: number): Promise<Uint8Array> {
  const deflater = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflater.on('data', (chunk: Buffer) => parts.push(chunk));
  const done = new Promise((resolve) => deflater.on('end', resolve));
  const spaces = Buffer.alloc(1024 * 1024, 0x20);
  for (let i = 0; i < mib; i++) deflater.write(spaces);
  deflater.end();
  await done;
  const data = Buffer.concat(parts).toString('latin1');
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>',
    `<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n${data}\nendstream`,
  ]);
}

/** A PDF with a long run of digits in a comment and a /Filter behind a reference (the object index's input). */
export function makeDigitsPdf(digits: number): Uint8Array {
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>',
    `<< /Length 5 /Filter 5 0 R >>\nstream\nxxxxx\nendstream\n%${'7'.repeat(digits)}`,
    '/FlateDecode',
  ]);
}

/**
 * A one-page PDF whose content saves the graphics state `depth` times inside itself before its text
 * (and restores it after), plain, deflated, or deflated twice: tiny files that cost pdf.js time in
 * the square of the depth.
 */
export function makeNestedStatesPdf(
  depth: number,
  encoding: 'none' | 'deflate' | 'deflate-twice',
): Uint8Array {
  const content = Buffer.from(
    `${'q '.repeat(depth)}BT /F1 12 Tf 72 700 Td (Saved) Tj ET ${'Q '.repeat(depth)}`,
    'latin1',
  );
  const data =
    encoding === 'none'
      ? content
      : encoding === 'deflate'
        ? deflateSync(content)
        : deflateSync(deflateSync(content));
  const filter =
    encoding === 'none'
      ? ''
      : encoding === 'deflate'
        ? '/Filter /FlateDecode'
        : '/Filter [/FlateDecode /FlateDecode]';
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${data.length} ${filter} >>\nstream\n${data.toString('latin1')}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}

/** A PDF whose page content is `length` bytes said to be LZW-encoded (never counted: bounded). */
export function makeLzwPdf(length: number): Uint8Array {
  const data = 'x'.repeat(length);
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>',
    `<< /Length ${length} /Filter /LZWDecode >>\nstream\n${data}\nendstream`,
  ]);
}

/** A run inside a hyperlink whose relationship `id` names its target (see `docxLinkRels`). */
export function docxLinkedRun(text: string, id: string): string {
  return `<w:hyperlink r:id="${id}">${docxRun(text)}</w:hyperlink>`;
}

/** The document's relationships part: each hyperlink id and the external target it points to. */
export function docxLinkRels(targets: Record<string, string>): ZipEntry {
  const rels = Object.entries(targets)
    .map(
      ([id, url]) =>
        `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="${url}" TargetMode="External"/>`,
    )
    .join('');
  return {
    name: 'word/_rels/document.xml.rels',
    data: Buffer.from(
      `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`,
    ),
  };
}

/**
 * A page whose `cid` lines are set in a non-embedded Japanese CID font (Adobe-Japan1) with no
 * ToUnicode map, encoded by the predefined CMap `encoding`, as pLaTeX/dvipdfmx and many East Asian
 * PDFs set theirs: its text is readable only through pdf.js's CMaps. Each character is written as
 * the two-byte `code` given for it: its UCS-2 value by default (UniJIS-UCS2-H), its CID for
 * Identity-H. The `latin` lines are in Helvetica.
 */
export function makeCidFontPdf(
  cid: PdfTextLine[],
  latin: PdfTextLine[],
  { encoding = 'UniJIS-UCS2-H', code = (c: string) => c.charCodeAt(0) } = {},
): Uint8Array {
  const hex = (s: string) => `<${[...s].map((c) => code(c).toString(16).padStart(4, '0')).join('')}>`;
  const content = [
    ...cid.map((l) => `BT /F1 ${l.size} Tf ${l.x} ${l.y} Td ${hex(l.text)} Tj ET`),
    ...latin.map((l) => `BT /F2 ${l.size} Tf ${l.x} ${l.y} Td ${pdfString(l.text)} Tj ET`),
  ].join('\n');
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R /F2 8 0 R >> >> /Contents 4 0 R >>',
    stream(content),
    `<< /Type /Font /Subtype /Type0 /BaseFont /MadeUpMincho-Light /Encoding /${encoding} /DescendantFonts [6 0 R] >>`,
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /MadeUpMincho-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> /FontDescriptor 7 0 R /DW 1000 >>',
    '<< /Type /FontDescriptor /FontName /MadeUpMincho-Light /Flags 6 /FontBBox [-82 -120 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 733 /StemV 80 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}

/** A page of `makeToUnicodePdf`: lines in the mapped font, and lines in Helvetica. */
export interface MappedPage {
  mapped: PdfTextLine[];
  latin?: PdfTextLine[];
}

/**
 * Pages whose `mapped` lines are set in a two-byte font (Identity-H, not embedded) with a ToUnicode
 * map giving each glyph code the character it stands for, whatever it is: a font's cmap may map its
 * glyphs to Arabic presentation forms or any other code points, and the text layer is what that map
 * says. The `latin` lines are in Helvetica. One page may be given as its two lists.
 */
export function makeToUnicodePdf(
  mapped: PdfTextLine[] | MappedPage[],
  latin: PdfTextLine[] = [],
): Uint8Array {
  const pages: MappedPage[] =
    mapped.length > 0 && 'mapped' in mapped[0]!
      ? (mapped as MappedPage[])
      : [{ mapped: mapped as PdfTextLine[], latin }];
  const codes = new Map<string, number>();
  for (const page of pages)
    for (const l of page.mapped) for (const c of l.text) if (!codes.has(c)) codes.set(c, codes.size + 1);
  const hex4 = (n: number) => n.toString(16).padStart(4, '0');
  const utf16 = (c: string) =>
    [...Buffer.from(c, 'utf16le').swap16()].map((b) => b.toString(16).padStart(2, '0')).join('');
  const hex = (s: string) => `<${[...s].map((c) => hex4(codes.get(c)!)).join('')}>`;
  const cmap = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CMapName /MadeUp-UCS def /CMapType 2 def',
    '1 begincodespacerange <0000> <FFFF> endcodespacerange',
    `${codes.size} beginbfchar`,
    ...[...codes].map(([c, n]) => `<${hex4(n)}> <${utf16(c)}>`),
    'endbfchar endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
  // 1 catalog, 2 pages, 3 the mapped font, 4 its CID font, 5 its descriptor, 6 its map, 7 Helvetica,
  // then per page its page object and its content stream.
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '',
    '<< /Type /Font /Subtype /Type0 /BaseFont /MadeUpNaskh /Encoding /Identity-H /DescendantFonts [4 0 R] /ToUnicode 6 0 R >>',
    '<< /Type /Font /Subtype /CIDFontType2 /BaseFont /MadeUpNaskh /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 5 0 R /DW 500 /CIDToGIDMap /Identity >>',
    '<< /Type /FontDescriptor /FontName /MadeUpNaskh /Flags 6 /FontBBox [-100 -300 1000 900] /ItalicAngle 0 /Ascent 900 /Descent -300 /CapHeight 700 /StemV 80 >>',
    stream(cmap),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const kids: string[] = [];
  for (const page of pages) {
    const pageId = objects.length + 1;
    kids.push(`${pageId} 0 R`);
    const content = [
      ...page.mapped.map((l) => `BT /F1 ${l.size} Tf ${l.x} ${l.y} Td ${hex(l.text)} Tj ET`),
      ...(page.latin ?? []).map((l) => `BT /F2 ${l.size} Tf ${l.x} ${l.y} Td ${pdfString(l.text)} Tj ET`),
    ].join('\n');
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R /F2 7 0 R >> >> /Contents ${pageId + 1} 0 R >>`,
    );
    objects.push(stream(content));
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages.length} >>`;
  return assemblePdf(objects);
}
