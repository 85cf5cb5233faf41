// The one analyzer the index and every query share, so that a word is stemmed the same way on both
// sides (the JS Porter stemmer and Postgres's English stemmer disagree: never mix them).
// Terms are stemmed unigrams plus bigrams of two adjacent content words ("neural network"): stemming
// and bigrams helped ranking only together (RANKING.md). A bigram never spans a stop word or a
// punctuation mark, so it stays inside one phrase.
import { createHash } from 'node:crypto';
import { stemmer } from 'stemmer';
import { STOP_WORDS } from './stop-words.ts';
import { foldAccents } from '../infra/text-fold.ts';
import { runToEnd } from '../infra/event-loop.ts';

/** Separates the two stems of a bigram term; unigram terms never contain it. */
export const BIGRAM_SEPARATOR = ' ';

const MAX_TOKEN_LENGTH = 40;
const STEM_CACHE_LIMIT = 200_000;
const stemCache = new Map<string, string>();

export function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = stemmer(word);
    if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
    stemCache.set(word, s);
  }
  return s;
}

const LETTER_OR_DIGIT_RE = /[\p{L}\p{N}]/u;

// Character classes of the hand-written scanner (a regular expression over every token cost ten
// times more, which matters when a million works are indexed at start).
const WORD = 1;
const JOINER = 2; // inner hyphen or apostrophe: part of a word only between two word characters
const BREAK = 3; // punctuation that ends a phrase
const OTHER = 0;

function charClass(code: number): number {
  if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) return WORD;
  if (code < 128) {
    if (code === 45 || code === 39) return JOINER;
    // . , ; : ! ? ( ) [ ] { } "
    if (
      code === 46 ||
      code === 44 ||
      code === 59 ||
      code === 58 ||
      code === 33 ||
      code === 63 ||
      code === 40 ||
      code === 41 ||
      code === 91 ||
      code === 93 ||
      code === 123 ||
      code === 125 ||
      code === 34
    )
      return BREAK;
    return OTHER;
  }
  if (code === 0x2019 || code === 0x2010 || code === 0x2011) return JOINER;
  if (code === 0x201c || code === 0x201d) return BREAK;
  // Surrogate halves: treat as word characters so letters outside the BMP stay in one token.
  if (code >= 0xd800 && code <= 0xdfff) return WORD;
  return LETTER_OR_DIGIT_RE.test(String.fromCharCode(code)) ? WORD : OTHER;
}

/**
 * The scanner under every analysis: calls `onWord(word, extra)` for each folded word in order and
 * `onBreak()` at punctuation that ends a phrase. Stop words are passed on (the caller decides, so
 * it can cache that decision with the stem). A hyphenated compound yields its parts, then the
 * joined form with `extra` set (a unigram outside the bigram chain), so "pre-trained",
 * "pre trained" and "pretrained" meet.
 */
export function forEachWord(
  text: string,
  onWord: (word: string, extra: boolean) => void,
  onBreak: () => void,
): void {
  const folded = foldAccents(text);
  scanWords(folded, 0, folded.length, onWord, onBreak);
}

/**
 * forEachWord's scan of already folded text, from `from` to the first word that starts at or after
 * `to` (a word that straddles `to` is read whole); returns where the next scan starts. Scans that
 * go on from one another make the same calls as one scan of the whole.
 */
function scanWords(
  folded: string,
  from: number,
  to: number,
  onWord: (word: string, extra: boolean) => void,
  onBreak: () => void,
): number {
  const n = folded.length;
  let i = from;
  while (i < n && i < to) {
    const cls = charClass(folded.charCodeAt(i));
    if (cls === BREAK) onBreak();
    if (cls !== WORD) {
      i++;
      continue;
    }
    const start = i;
    let joined = false;
    i++;
    while (i < n) {
      const c = charClass(folded.charCodeAt(i));
      if (c === WORD) i++;
      else if (c === JOINER && i + 1 < n && charClass(folded.charCodeAt(i + 1)) === WORD) {
        joined = true;
        i += 2;
      } else break;
    }
    const raw = folded.slice(start, i);
    if (!joined) {
      onWord(raw, false);
      continue;
    }
    // Possessive "'s" goes, other apostrophes close up ("don't" -> "dont").
    const word = raw.replace(/['\u2019]s$/, '').replace(/['\u2019]/g, '');
    if (!/[-\u2010\u2011]/.test(word)) {
      onWord(word, false);
      continue;
    }
    const parts = word.split(/[-\u2010\u2011]/);
    for (const part of parts) onWord(part, false);
    onWord(parts.join(''), true);
  }
  return i;
}

/** Whether a folded word is indexed (long enough, not absurdly long, not a stop word). */
export function isContentWord(word: string): boolean {
  return word.length >= 2 && word.length <= MAX_TOKEN_LENGTH && !STOP_WORDS.has(word);
}

/**
 * Calls `emit(term, surface)` for every term of `text` in order, and returns the number of content
 * words (the text's length for BM25). Bigrams join two adjacent content words; a stop word, a
 * phrase-ending mark or a dropped token breaks the chain.
 */
export function forEachTerm(
  text: string,
  emit: (term: string, surface: string) => void,
  keepSurfaces = false,
): number {
  const chain = termChain(emit, keepSurfaces);
  forEachWord(text, chain.onWord, chain.onBreak);
  return chain.length();
}

/**
 * Characters of a text analysed between two chances to pause (`forEachTermInPieces`,
 * `forEachPhraseInPieces`): a millisecond or two of analysis.
 */
export const ANALYSIS_PIECE_CHARS = 4_096;

/**
 * forEachTerm in pieces of about `pieceChars` characters, pausing (yielding) between them: the same
 * terms in the same order, and the same length returned. A query of 100,000 characters is analysed
 * so without holding the event loop for all of it (search.ts, prepareQuerySliced).
 */
export function* forEachTermInPieces(
  text: string,
  emit: (term: string, surface: string) => void,
  keepSurfaces: boolean,
  pieceChars: number,
): Generator<void, number> {
  const chain = termChain(emit, keepSurfaces);
  yield* forEachWordInPieces(text, chain.onWord, chain.onBreak, pieceChars);
  return chain.length();
}

/**
 * forEachWord in pieces of about `pieceChars` characters, yielding between them: the same calls,
 * as scans that go on from one another make them.
 */
function* forEachWordInPieces(
  text: string,
  onWord: (word: string, extra: boolean) => void,
  onBreak: () => void,
  pieceChars: number,
): Generator<void, void> {
  const folded = foldAccents(text);
  let at = 0;
  while (at < folded.length) {
    at = scanWords(folded, at, at + pieceChars, onWord, onBreak);
    if (at < folded.length) yield;
  }
}

/** The terms of a run of words: stemmed content words, and a bigram of each two adjacent ones. */
function termChain(emit: (term: string, surface: string) => void, keepSurfaces: boolean) {
  let length = 0;
  let prev: string | null = null;
  let prevWord = '';
  return {
    onWord(word: string, extra: boolean): void {
      if (!isContentWord(word)) {
        if (!extra) prev = null;
        return;
      }
      const s = stem(word);
      emit(s, word);
      if (extra) return;
      length++;
      if (prev !== null) emit(prev + BIGRAM_SEPARATOR + s, keepSurfaces ? prevWord + ' ' + word : '');
      prev = s;
      prevWord = word;
    },
    onBreak(): void {
      prev = null;
    },
    length: () => length,
  };
}

/**
 * Calls `emit(bigrams, surface)` for each run of two or more adjacent-word bigrams of `text` (as
 * forEachTerm makes them) that are all `isPart`: "neural machine" and "machine translation"
 * adjacent in "neural machine translation" give one run of three words, surface as the text folds
 * its words. A run breaks where forEachTerm's bigrams break, and at a bigram not `isPart`. Every
 * run is emitted whole, however long: which part of it is a phrase is the caller's to say
 * (concepts.ts trims a run's ends, then bounds its length).
 */
export function forEachPhrase(
  text: string,
  isPart: (bigram: string) => boolean,
  emit: (bigrams: string[], surface: string) => void,
): void {
  runToEnd(forEachPhraseInPieces(text, isPart, emit, Infinity));
}

/** forEachPhrase in pieces of about `pieceChars` characters, yielding between them: the same calls. */
export function* forEachPhraseInPieces(
  text: string,
  isPart: (bigram: string) => boolean,
  emit: (bigrams: string[], surface: string) => void,
  pieceChars: number,
): Generator<void, void> {
  let prev: string | null = null;
  let words: string[] = [];
  let bigrams: string[] = [];
  const close = () => {
    if (bigrams.length >= 2) emit(bigrams, words.join(' '));
    bigrams = [];
    words = [];
  };
  const onWord = (word: string, extra: boolean) => {
    if (!isContentWord(word)) {
      if (!extra) {
        prev = null;
        close();
      }
      return;
    }
    if (extra) return;
    const s = stem(word);
    const bigram = prev === null ? null : prev + BIGRAM_SEPARATOR + s;
    if (bigram !== null && isPart(bigram)) {
      bigrams.push(bigram);
      words.push(word);
    } else {
      close();
      words = [word];
    }
    prev = s;
  };
  const onBreak = () => {
    prev = null;
    close();
  };
  yield* forEachWordInPieces(text, onWord, onBreak, pieceChars);
  close();
}

/** Term counts of a text, each occurrence counted `weight` times, added into `counts`. */
export function analyzeInto(text: string, weight: number, counts: Map<string, number>): number {
  return (
    forEachTerm(text, (term) => {
      counts.set(term, (counts.get(term) ?? 0) + weight);
    }) * weight
  );
}

export interface AnalyzedText {
  /** Terms in order of appearance, repeated as they occur. */
  terms: string[];
  /** Term -> its first surface form in the text (folded words, e.g. "neural networks"). */
  surfaces: Map<string, string>;
}

export function analyze(text: string, keepSurfaces = false): AnalyzedText {
  const terms: string[] = [];
  const surfaces = new Map<string, string>();
  forEachTerm(
    text,
    (term, surface) => {
      terms.push(term);
      if (keepSurfaces && !surfaces.has(term)) surfaces.set(term, surface);
    },
    keepSurfaces,
  );
  return { terms, surfaces };
}

export function isBigram(term: string): boolean {
  return term.includes(BIGRAM_SEPARATOR);
}

/**
 * Raised by hand when the analysis changes in a way the probe below may not show. An index built
 * by another analysis would answer queries analysed by this one wrongly, so a snapshot records the
 * fingerprint and is refused when it differs (index-snapshot.ts).
 */
const ANALYZER_REVISION = 1;
// Folding, joiners, breaks, stop words, stemming and bigrams, each at least once.
const PROBE =
  "Ünïcode ﬁle-systems aren't neural networks: the Transformer's attention (over 2,048 tokens) " +
  'generalizes; Łódź, straße and Œuvre in self-supervised pre-training of large language models.';

let fingerprint: string | null = null;

/** Identifies this analysis: its revision, its stop words and what it makes of a probe text. */
export function analyzerFingerprint(): string {
  fingerprint ??= createHash('sha256')
    .update(JSON.stringify([ANALYZER_REVISION, [...STOP_WORDS].sort(), analyze(PROBE).terms]))
    .digest('hex')
    .slice(0, 16);
  return fingerprint;
}
