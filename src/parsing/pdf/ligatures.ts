// Ligatures a font maps to no Unicode. pdf.js reports such a glyph as U+0000, so "Shafiei" reads
// "Sha\0ei" and "classification" "classi\0cation"; dropping it loses letters of names and
// institutions ("Moffitt" becomes "Mott"), which then match nothing. The glyph is nearly always one
// of the f-ligatures. Which one is read from the document itself: the same word spelled out
// elsewhere (in another font, a link, an address), else the ligature the word's shape calls for.

/** Stands in for an unmapped glyph between the reader and the ligature repair. */
export const UNMAPPED = '\ufffd';

const CANDIDATES = ['fi', 'ff', 'fl', 'ffi', 'ffl'] as const;
const WORD = /[\p{L}\ufffd]+/gu;

/** The words a ligature repair looks its candidates up in. */
export interface Vocabulary {
  words: Set<string>;
  /** The same words joined by newlines: one substring search instead of one per word. */
  joined: string;
  /** Each damaged word's repair, worked out once however often the word recurs. */
  filled: Map<string, string>;
}

/** Every word of the document and of its links that has no unmapped glyph, lower-cased. */
export function vocabulary(texts: Iterable<string>): Vocabulary {
  const words = new Set<string>();
  for (const text of texts) {
    for (const m of text.matchAll(/\p{L}{3,}/gu)) words.add(m[0].toLowerCase());
  }
  return { words, joined: [...words].join('\n'), filled: new Map() };
}

function fillWord(word: string, { words, joined }: Vocabulary): string {
  const holes = word.split(UNMAPPED).length - 1;
  if (holes !== 1) return word.replaceAll(UNMAPPED, 'fi');
  const lower = word.toLowerCase();
  const known = CANDIDATES.find((c) => words.has(lower.replace(UNMAPPED, c)));
  // A link or handle runs words together ("shafieisabets"): the spelled-out word may sit inside one.
  // No candidate is itself a word here (`known` would have found it), so any word that holds it
  // is a longer one.
  const inside = known ?? foundInside(lower, joined);
  if (inside) return word.replace(UNMAPPED, inside);
  // Unknown word: at its end the ligature is "ff" ("staff", "off"); inside a word "fi", by far
  // the most frequent of them in running text.
  return word.replace(UNMAPPED, word.endsWith(UNMAPPED) ? 'ff' : 'fi');
}

/**
 * The first candidate whose spelled-out word (five letters or more) occurs inside a word of
 * `joined`. Every candidate starts with the letters before the hole and an "f": one pass over the
 * places where those stand, instead of one pass over every word for each candidate.
 */
function foundInside(lower: string, joined: string): string | undefined {
  const [before = '', after = ''] = lower.split(UNMAPPED);
  const spelled = CANDIDATES.map((c) => before + c + after);
  const found = new Set<number>();
  const anchor = `${before}f`;
  for (let at = joined.indexOf(anchor); at >= 0; at = joined.indexOf(anchor, at + 1)) {
    spelled.forEach((w, i) => {
      if (w.length >= 5 && joined.startsWith(w, at)) found.add(i);
    });
  }
  return CANDIDATES.find((_, i) => found.has(i));
}

/** Replaces every unmapped glyph in `text` with the f-ligature that `words` supports. */
export function repairLigatures(text: string, words: Vocabulary): string {
  if (!text.includes(UNMAPPED)) return text;
  return text
    .replace(WORD, (w) => {
      if (!w.includes(UNMAPPED)) return w;
      let filled = words.filled.get(w);
      if (filled === undefined) {
        filled = fillWord(w, words);
        words.filled.set(w, filled);
      }
      return filled;
    })
    .replaceAll(UNMAPPED, '');
}
