// An OCR text layer (Tesseract through OCRmyPDF, its hOCR renderer, or Tesseract's own PDF): the
// page is a scanned image under invisible text, one piece a word (or a line), each stretched
// across its box in the image by its own horizontal scale and sized by its line's height in the
// scan. Read as it comes, the words of one line part at gaps that line up down the page (read as
// gutters), and lines of one paragraph differ in size by their letters' ascenders and descenders.
import type { Item } from './geometry.ts';

/** Share of a page's pieces whose horizontal scale differs from the page's usual one. */
const OCR_STRETCHED_SHARE = 0.4;
const MIN_PIECES = 20;

/**
 * The page's text is an OCR layer: its pieces are stretched each by its own horizontal scale
 * (typeset text keeps the font's: the same for nearly every piece, even in a condensed face),
 * all in one font.
 */
export function isOcrLayer(items: readonly Item[], stretch: readonly number[]): boolean {
  if (items.length < MIN_PIECES) return false;
  if (new Set(items.map((i) => i.font)).size > 1) return false;
  const sorted = [...stretch].sort((a, b) => a - b);
  const usual = sorted[Math.floor(sorted.length / 2)]!;
  const off = stretch.filter((s) => Math.abs(s - usual) > 0.08 * usual).length;
  return off >= OCR_STRETCHED_SHARE * stretch.length;
}

/**
 * An OCR page's words set back into lines, and its lines sized by their letters' width: the
 * words on one baseline and nearer each other than about a word's height are one piece; a line
 * whose letters are about as wide as the page's usual ones is in the page's usual size, so a
 * paragraph's lines read as one paragraph, and a title or heading set larger still reads larger.
 */
export function ocrLines(items: readonly Item[]): Item[] {
  const byLine = [...items].sort((a, b) => b.y - a.y || a.x - b.x);
  const out: Item[] = [];
  for (const it of byLine) {
    const last = out.at(-1);
    const size = Math.min(last?.size ?? it.size, it.size);
    if (
      last &&
      Math.abs(last.y - it.y) <= 0.2 * size &&
      it.x >= last.x + last.w - 0.2 * size &&
      it.x - (last.x + last.w) <= 1.2 * size
    ) {
      last.str = `${last.str} ${it.str}`;
      last.w = it.x + it.w - last.x;
      last.size = Math.max(last.size, it.size);
      continue;
    }
    out.push({ ...it });
  }
  // The size OCR gives is the scanned line's height (a line with descenders or brackets is
  // taller), not its type's; the width of its letters tells the type's size: a line whose letters
  // are as wide as the page's usual ones is in the body's size, one with wider letters larger.
  const width = (i: Item) => i.w / Math.max(1, i.str.length);
  const byChar = (f: (i: Item) => number) => {
    const all = out.flatMap((i) => Array<number>(i.str.length).fill(f(i))).sort((a, b) => a - b);
    return all[Math.floor(all.length / 2)] ?? 0;
  };
  const usual = byChar((i) => i.size);
  const usualWidth = byChar(width);
  if (usual <= 0 || usualWidth <= 0) return out;
  for (const i of out) {
    const ratio = width(i) / usualWidth;
    // A line as high as the body's and with letters as wide is the body's; otherwise its height
    // and its letters' width both speak (a short heading's few letters may be narrow, a logo's
    // spaced capitals wide in any size).
    const body = ratio >= 0.8 && ratio <= 1.2 && Math.abs(i.size - usual) <= 0.35 * usual;
    i.size = body ? usual : Math.sqrt(i.size * usual * ratio);
  }
  return out;
}
