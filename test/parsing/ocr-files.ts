// A made-up scanned article as an OCR layer draws its text (test/parsing/round58-heldout.test.ts).
import { assemblePdf, textWidth } from './make-files.ts';

interface OcrLine {
  text: string;
  x: number;
  y: number;
  /** The line's height in the scan, which OCR gives as its size. */
  height: number;
  /** The size of its type: its letters' width follows it, not the height (10 unless told). */
  type?: number;
}

/**
 * A page as an OCR layer draws it: every word its own piece of invisible text (render mode 3), in
 * one font, sized by its line's height and stretched across its box by a horizontal scale of its
 * own; the words of a line stand where the scan shows them, with the gaps of justified type.
 */
function makeOcrPdf(pages: OcrLine[][]): Uint8Array {
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '',
    // One width for every glyph, as OCR's glyphless font has: a word's scale fits it to its box.
    `<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /FirstChar 32 /LastChar 255 /Widths [${Array<string>(224).fill('500').join(' ')}] >>`,
  ];
  const kids: string[] = [];
  let n = 0;
  for (const lines of pages) {
    const pageId = objects.length + 1;
    kids.push(`${pageId} 0 R`);
    const ops: string[] = [];
    for (const line of lines) {
      let x = line.x;
      for (const word of line.text.split(' ')) {
        // A stretch of its own for each word, as OCR fits a word's glyphs to its box.
        const jitter = [0.78, 1.21, 0.94, 1.13, 0.86, 1.09][n++ % 6]!;
        const box = textWidth(word, line.type ?? 10) * jitter;
        const scale = (100 * box) / (0.5 * line.height * [...word].length);
        const esc = word.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[”®°]/gu, (c) => WIN_ANSI[c]!);
        ops.push(
          `BT 3 Tr /F1 ${line.height} Tf ${scale.toFixed(1)} Tz ${x.toFixed(1)} ${line.y} Td (${esc}) Tj ET`,
        );
        x += box + 0.8 * (line.type ?? 10);
      }
    }
    const content = ops.join('\n');
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageId + 1} 0 R >>`,
    );
    objects.push(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages.length} >>`;
  return assemblePdf(objects);
}

/** The marks' misreadings in the font's encoding, as octal escapes. */
const WIN_ANSI: Record<string, string> = { '”': '\\224', '®': '\\256', '°': '\\260' };

/** Body lines whose scanned heights differ by their letters (descenders, brackets). */
const HEIGHTS = [10, 12, 9, 11, 10, 13];

function prose(top: number, count: number): OcrLine[] {
  return Array.from({ length: count }, (_, i) => ({
    text: `Line ${i + 1} of the body text runs on long enough to read as the prose of a section here.`,
    x: 72,
    y: top - i * 14,
    height: HEIGHTS[i % HEIGHTS.length]!,
  }));
}

export const ENTRIES: [string, string][] = [
  [
    'Abbot, J., & Birch, K. (2011). Sorting of pebbles on a spit by the tide and the',
    'swash. Coast. Res., 12(3), 91-93. doi:10.1000/cr.2011.001',
  ],
  [
    'Carver, L. (2014). A model of the swash zone for beaches of mixed sand and',
    'gravel. Mar. Geol., 40, 211-218. doi:10.1000/mg.2014.002',
  ],
  [
    'Dunn, P., Ellis, M., & Frost, N. (2016). Bands of one size on shingle beaches',
    'measured by drone. Earth Surf., 7(2), 15-30. doi:10.1000/es.2016.003',
  ],
  [
    'Grant, O. (2018). Where each size of pebble comes to rest on a steep shore',
    'face. J. Sediment., 9(1), 1-12. doi:10.1000/js.2018.004',
  ],
  [
    'Hale, Q., & Irwin, R. (2020). Tides and the sorting of gravel along spits of',
    'the north coast. Geomorph., 33, 44-58. doi:10.1000/gm.2020.005',
  ],
  [
    'Jones, S. (2022). Pebble shape and the reach of the swash on a shingle',
    'ridge. Coast. Eng., 18, 100-117. doi:10.1000/ce.2022.006',
  ],
];

export function ocrArticle(): Uint8Array {
  const page1: OcrLine[] = [
    { text: 'Tidal sorting of pebbles on a shingle spit', x: 72, y: 770, height: 20, type: 18 },
    { text: 'Jane Q. Roe” °', x: 72, y: 740, height: 11 },
    {
      text: 'Department of Geography, University of Northvale, Northvale, Country',
      x: 72,
      y: 726,
      height: 8,
      type: 7,
    },
    { text: 'Abstract', x: 72, y: 700, height: 15, type: 14 },
    ...prose(680, 4),
    { text: 'Introduction', x: 72, y: 610, height: 15, type: 14 },
    ...prose(590, 30),
  ];
  const refs: OcrLine[] = [{ text: 'References', x: 72, y: 770, height: 15, type: 14 }];
  let y = 748;
  ENTRIES.forEach(([a, b], k) => {
    refs.push({ text: a, x: 72, y, height: HEIGHTS[k % HEIGHTS.length]! });
    refs.push({ text: b, x: 86, y: y - 13, height: HEIGHTS[(k + 3) % HEIGHTS.length]! });
    y -= 28;
  });
  return makeOcrPdf([page1, [...prose(400, 1).map((l) => ({ ...l, y: 790 })), ...refs]]);
}
