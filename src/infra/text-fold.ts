// Text folded for comparison: what a name or a word typed on a keyboard without its accents is
// matched by. One definition for the search index, the author names (corpus keys, conflicts,
// people), the manuscript's own author merge and the dashboard's filters: when two of them folded
// differently, "Yildiz" written in a manuscript missed the corpus's "Yıldız" as a co-author.

// eslint-disable-next-line no-control-regex
const ASCII_RE = /^[\x00-\x7f]*$/;
const MARKS_RE = /\p{M}+/gu;

/**
 * Lower-case letters that NFKD does not decompose into a base letter plus a mark, and what they fold
 * to. The SQL twin (migration 0104, `fold_text`) carries the same table; a test holds them equal.
 */
export const LETTER_FOLDS: Readonly<Record<string, string>> = {
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  ı: 'i',
};
const LETTER_FOLDS_RE = new RegExp(`[${Object.keys(LETTER_FOLDS).join('')}]`, 'g');

/**
 * Lower-cased, compatibility forms decomposed ("ﬁ" -> "fi"), combining marks dropped and the letters
 * above folded: "Ünïcode ﬁle Ærø Straße Yıldız" -> "unicode file aero strasse yildiz". Punctuation and
 * spacing are kept; callers that compare words split them their own way.
 *
 * The marks written as such are dropped before the decomposition as well as after: normalising puts
 * a run of marks in canonical order by insertion, which costs the square of the run when its classes
 * come in reverse (100,000 characters of U+0301 then U+0316: 21 s of the event loop, 10,000: 0.17 s).
 * Dropped first, the run never reaches it; what the fold gives is the same, every character of a
 * class other than 0 being a mark (test/infra/text-fold.test.ts checks every code point).
 */
export function foldAccents(text: string): string {
  // Most scholarly text is plain ASCII: skip Unicode normalisation when nothing needs it.
  if (ASCII_RE.test(text)) return text.toLowerCase();
  return text
    .replace(MARKS_RE, '')
    .normalize('NFKD')
    .replace(MARKS_RE, '')
    .toLowerCase()
    .replace(LETTER_FOLDS_RE, (c) => LETTER_FOLDS[c] ?? c);
}

/** foldAccents, with every run of characters other than letters and digits one space, trimmed. */
export function foldWords(text: string): string {
  // Most names and titles are ASCII words and single spaces (ingest folds millions of them).
  if (/^[A-Za-z0-9 ]*$/.test(text)) return text.toLowerCase().replace(/ +/g, ' ').trim();
  return foldAccents(text)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
