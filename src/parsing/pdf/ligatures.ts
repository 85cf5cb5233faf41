// Ligatures a font maps to no Unicode. pdf.js reports such a glyph as U+0000, so "Shafiei" reads
// "Sha\0ei" and "classification" "classi\0cation"; dropping it loses letters of names and
// institutions ("Moffitt" becomes "Mott"), which then match nothing. The glyph is nearly always one
// of the f-ligatures. Which one is read from the document itself: the same word spelled out
// elsewhere (in another font, a link, an address), else the ligature the word's shape calls for.

/** Stands in for an unmapped glyph between the reader and the ligature repair. */
export const UNMAPPED = '\ufffd';

const CANDIDATES = ['fi', 'ff', 'fl', 'ffi', 'ffl'] as const;
const WORD = /[\p{L}\ufffd]+/gu;

/** Every word of the document and of its links that has no unmapped glyph, lower-cased. */
export function vocabulary(texts: Iterable<string>): Set<string> {
  const words = new Set<string>();
  for (const text of texts) {
    for (const m of text.matchAll(/\p{L}{3,}/gu)) words.add(m[0].toLowerCase());
  }
  return words;
}

function fillWord(word: string, words: Set<string>): string {
  const holes = word.split(UNMAPPED).length - 1;
  if (holes !== 1) return word.replaceAll(UNMAPPED, 'fi');
  const lower = word.toLowerCase();
  const known = CANDIDATES.find((c) => words.has(lower.replace(UNMAPPED, c)));
  // A link or handle runs words together ("shafieisabets"): the spelled-out word may sit inside one.
  const inside =
    known ??
    CANDIDATES.find((c) => {
      const w = lower.replace(UNMAPPED, c);
      if (w.length < 5) return false;
      for (const v of words) if (v.length > w.length && v.includes(w)) return true;
      return false;
    });
  if (inside) return word.replace(UNMAPPED, inside);
  // Unknown word: at its end the ligature is "ff" ("staff", "off"); inside a word "fi", by far
  // the most frequent of them in running text.
  return word.replace(UNMAPPED, word.endsWith(UNMAPPED) ? 'ff' : 'fi');
}

/** Replaces every unmapped glyph in `text` with the f-ligature that `words` supports. */
export function repairLigatures(text: string, words: Set<string>): string {
  if (!text.includes(UNMAPPED)) return text;
  return text.replace(WORD, (w) => (w.includes(UNMAPPED) ? fillWord(w, words) : w)).replaceAll(UNMAPPED, '');
}
