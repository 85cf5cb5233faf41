// JSON.parse turns OpenAlex's abstract_inverted_index (hundreds of distinct word keys per work) into an
// object that gets a new hidden class per key: measured on the ACL works, that member was ~90% of the
// parse time of a line. The reader scans that one member itself, straight into the abstract it gives
// (or, when a key repeats or two words claim one position, into a flat list of entries in the order
// Object.entries would have given, which decides who wins), and lets JSON.parse do the rest of the
// line. Anything outside the plain shape {"word":[0,12],...} falls back to JSON.parse of the whole
// line, so results and errors stay those of JSON.parse. The reader first tries the same scan over the
// line's bytes (parseBytesWithInvertedIndex), which handles the common case with no string per word.

import { randomBytes } from 'node:crypto';

/** The entries of an abstract_inverted_index, in Object.entries order. */
export class InvertedIndexEntries {
  constructor(readonly entries: readonly (readonly [string, number[]])[]) {}
}

/**
 * The abstract an abstract_inverted_index gives, rebuilt while scanning it: the words by position,
 * holes skipped, joined by spaces (abstractFromInvertedIndex then cleans it as any text).
 */
export class RebuiltAbstract {
  constructor(readonly text: string) {}
}

// Positions at or past this are ignored (abstractFromInvertedIndex's bound on a bogus index).
const MAX_POSITION = 100_000;

/**
 * The longest abstract a work keeps, in UTF-16 units (an uploaded manuscript's abstract has the same
 * bound, UPLOAD_FIELD_MAX_CHARS.abstract): longer ones are cut at a word (cutAbstract). An index
 * names a word once for all its positions, so a line of 0.6 MB (one word of 10,000 characters at
 * 100,000 positions) would rebuild to 1 GB: every rebuild stops once past this bound.
 */
export const MAX_ABSTRACT_CHARS = 100_000;

/** A text cut to MAX_ABSTRACT_CHARS, at the last space within it when there is one. */
export function cutAbstract(text: string): string {
  if (text.length <= MAX_ABSTRACT_CHARS) return text;
  const space = text.lastIndexOf(' ', MAX_ABSTRACT_CHARS);
  let end = space > 0 ? space : MAX_ABSTRACT_CHARS;
  // Never half a surrogate pair.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end);
}

const NAME = '"abstract_inverted_index"';

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** A JSON string starting at the quote at i: its value and the index after it, or null. */
function scanString(text: string, i: number): [string, number] | null {
  let escaped = false;
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c < 0x20) return null;
    if (c === 0x5c) {
      escaped = true;
      j++;
      continue;
    }
    if (c !== 0x22) continue;
    if (!escaped) return [text.slice(i + 1, j), j + 1];
    try {
      return [JSON.parse(text.slice(i, j + 1)) as string, j + 1];
    } catch {
      return null;
    }
  }
  return null;
}

/** An array of small non-negative integers starting at the bracket at i, or null for anything else. */
function scanPositions(text: string, i: number): [number[], number] | null {
  const out: number[] = [];
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === 0x5d) return [out, i + 1];
  for (;;) {
    const from = i;
    let n = 0;
    while (i < text.length) {
      const d = text.charCodeAt(i) - 0x30;
      if (d < 0 || d > 9) break;
      n = n * 10 + d;
      i++;
    }
    const digits = i - from;
    if (digits === 0 || digits > 15 || (digits > 1 && text.charCodeAt(from) === 0x30)) return null;
    out.push(n);
    i = skipSpace(text, i);
    const c = text.charCodeAt(i);
    if (c === 0x5d) return [out, i + 1];
    if (c !== 0x2c) return null;
    i = skipSpace(text, i + 1);
  }
}

const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;

function isArrayIndex(key: string): boolean {
  return key.length <= 10 && ARRAY_INDEX.test(key) && Number(key) <= 4294967294;
}

// Reused across lines (the parse is single-threaded), so that nothing is allocated per word but the
// word itself: the word at each position and the line that set it; and a small open-addressing
// table of the line's keys, to notice a repeated key (a Set cost more than the whole rebuild).
// wordAt and keyAt stay packed arrays of strings: holes would make them slow dictionaries.
const wordAt: string[] = new Array<string>(1024).fill('');
let setBy = new Int32Array(1024);
const KEY_SLOTS = 4096;
const keyAt: string[] = new Array<string>(KEY_SLOTS).fill('');
const keyLine = new Int32Array(KEY_SLOTS);
// The line being scanned, as the stamp in setBy and keyLine. The stamps are Int32: past 2^31 - 1
// the next stamp would never equal what was stored, and a repeated key or position would go unnoticed
// (a long-lived process scans every line it ingests), so the stamps start over from 1, cleared.
const MAX_STAMP = 0x7fffffff;
let lineNumber = 0;

function nextLineStamp(): number {
  if (lineNumber >= MAX_STAMP) restartLineStampsAt(0);
  return ++lineNumber;
}

/** Clears every stamp and numbers the following lines from `last` + 1 (tests reach the bound with it). */
export function restartLineStampsAt(last: number): void {
  setBy.fill(0);
  keyLine.fill(0);
  lineNumber = last;
}

/** A JSON string key starting at the quote at i: its value, its hash and the index after it, or null. */
function scanKey(text: string, i: number): [string, number, number] | null {
  let hash = 0;
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x22) return [text.slice(i + 1, j), hash, j + 1];
    if (c === 0x5c) {
      // An escape: JSON.parse decodes the key, hashed afterwards (rare).
      const decoded = scanString(text, i);
      if (!decoded) return null;
      let h = 0;
      for (let k = 0; k < decoded[0].length; k++) h = (Math.imul(h, 31) + decoded[0].charCodeAt(k)) | 0;
      return [decoded[0], h, decoded[1]];
    }
    if (c < 0x20) return null;
    hash = (Math.imul(hash, 31) + c) | 0;
  }
  return null;
}

/** Records a key of this line; false when the line had it already (or has too many to track). */
function firstTimeKey(key: string, hash: number, keys: number): boolean {
  if (keys >= KEY_SLOTS / 2) return false;
  let slot = hash & (KEY_SLOTS - 1);
  while (keyLine[slot] === lineNumber) {
    if (keyAt[slot] === key) return false;
    slot = (slot + 1) & (KEY_SLOTS - 1);
  }
  keyLine[slot] = lineNumber;
  keyAt[slot] = key;
  return true;
}

/**
 * The object starting at the brace at i, rebuilt straight into its abstract; null for anything
 * else, and 'exact' when a key repeats or two words claim one position: then which word wins
 * depends on Object.entries order, which scanIndex reproduces.
 */
function scanIndexToAbstract(text: string, i: number): [RebuiltAbstract, number] | null | 'exact' {
  nextLineStamp();
  let keys = 0;
  let length = 0;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) !== 0x7d) {
    for (;;) {
      if (text.charCodeAt(i) !== 0x22) return null;
      const key = scanKey(text, i);
      if (!key) return null;
      const word = key[0];
      if (!firstTimeKey(word, key[1], keys++)) return 'exact';
      i = skipSpace(text, key[2]);
      if (text.charCodeAt(i) !== 0x3a) return null;
      i = skipSpace(text, i + 1);
      if (text.charCodeAt(i) !== 0x5b) return null;
      const positions = scanPositions(text, i);
      if (!positions) return null;
      for (const n of positions[0]) {
        if (n >= MAX_POSITION) continue;
        if (n >= setBy.length) growPositions(n);
        if (setBy[n] === lineNumber) return 'exact';
        setBy[n] = lineNumber;
        wordAt[n] = word;
        if (n >= length) length = n + 1;
      }
      i = skipSpace(text, positions[1]);
      const c = text.charCodeAt(i);
      if (c === 0x7d) break;
      if (c !== 0x2c) return null;
      i = skipSpace(text, i + 1);
    }
  }
  const words: string[] = [];
  let chars = 0;
  for (let p = 0; p < length && chars <= MAX_ABSTRACT_CHARS; p++)
    if (setBy[p] === lineNumber && wordAt[p] !== '') {
      words.push(wordAt[p]!);
      chars += wordAt[p]!.length + 1;
    }
  return [new RebuiltAbstract(words.join(' ')), i + 1];
}

/** The object starting at the brace at i, as entries in Object.entries order, or null. */
function scanIndex(text: string, i: number): [InvertedIndexEntries, number] | null {
  // A Map keeps a key's first place and its last value, as an object does for duplicate keys.
  const map = new Map<string, number[]>();
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) !== 0x7d) {
    for (;;) {
      if (text.charCodeAt(i) !== 0x22) return null;
      const key = scanString(text, i);
      if (!key) return null;
      i = skipSpace(text, key[1]);
      if (text.charCodeAt(i) !== 0x3a) return null;
      i = skipSpace(text, i + 1);
      if (text.charCodeAt(i) !== 0x5b) return null;
      const positions = scanPositions(text, i);
      if (!positions) return null;
      map.set(key[0], positions[0]);
      i = skipSpace(text, positions[1]);
      const c = text.charCodeAt(i);
      if (c === 0x7d) break;
      if (c !== 0x2c) return null;
      i = skipSpace(text, i + 1);
    }
  }
  // Object.entries lists integer-like keys first, ascending, then the others in insertion order.
  const numeric: [string, number[]][] = [];
  const named: [string, number[]][] = [];
  for (const entry of map) (isArrayIndex(entry[0]) ? numeric : named).push(entry);
  numeric.sort((a, b) => Number(a[0]) - Number(b[0]));
  return [new InvertedIndexEntries(numeric.length > 0 ? [...numeric, ...named] : named), i + 1];
}

// What stands in the scanned index's place when JSON.parse reads the rest of the line: a string no
// input can hold (a random nonce of this process). The parsed record's member is that string only if
// the member replaced is the record's own and the last of its name: JSON.parse keeps the last of a
// repeated name, also of one spelled with escapes ("abstract\u005finverted_index"), which the search
// for NAME does not see; and a scanned index nested in another member leaves the record's own.
const PLACEHOLDER = `"refmatch:${randomBytes(12).toString('hex')}"`;
const PLACEHOLDER_VALUE = JSON.parse(PLACEHOLDER) as string;

/**
 * JSON.parse of one line, with a top-level abstract_inverted_index object scanned into
 * InvertedIndexEntries; undefined when the line does not fit, for the caller to JSON.parse it whole.
 */
export function parseWithInvertedIndex(line: string): unknown {
  // The name cannot occur inside a JSON string (its quotes would be escaped there). Whether the
  // member found is the record's own, and the last of its name, PLACEHOLDER tells after the parse.
  const at = line.indexOf(NAME);
  if (at < 0) return undefined;
  let start = skipSpace(line, at + NAME.length);
  if (line.charCodeAt(start) !== 0x3a) return undefined;
  start = skipSpace(line, start + 1);
  if (line.charCodeAt(start) !== 0x7b) return undefined;
  const direct = scanIndexToAbstract(line, start);
  const scanned = direct === 'exact' ? scanIndex(line, start) : direct;
  if (!scanned) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(`${line.slice(0, start)}${PLACEHOLDER}${line.slice(scanned[1])}`);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (record.abstract_inverted_index !== PLACEHOLDER_VALUE) return undefined;
  record.abstract_inverted_index = scanned[0];
  return record;
}

// The same scan over a line's UTF-8 bytes, for the common case only: plain keys (no escape), each
// once, one word per position. The words' bytes are joined into the abstract, decoded once, and the
// rest of the line is decoded and parsed with PLACEHOLDER in the index's place: no string is made per word.
// (The abstract put into the line as a JSON string instead, for a single decode, measured slower:
// JSON.parse then scans it again.) Anything else answers undefined, and the caller decodes the line
// and takes the path above.
const NAME_BYTES = Buffer.from(NAME);
let wordStart = new Int32Array(1024);
let wordEnd = new Int32Array(1024);
const keyStart = new Int32Array(KEY_SLOTS);
const keyEnd = new Int32Array(KEY_SLOTS);
let scratch = Buffer.allocUnsafe(64 * 1024);
let abstractBytes = Buffer.allocUnsafe(16 * 1024);

function skipSpaceBytes(bytes: Uint8Array, i: number): number {
  while (i < bytes.length && isSpace(bytes[i]!)) i++;
  return i;
}

/** Records a key (bytes [from, to)) of this line; false when the line had it already, or too many. */
function firstTimeKeyBytes(bytes: Uint8Array, from: number, to: number, hash: number, keys: number): boolean {
  if (keys >= KEY_SLOTS / 2) return false;
  let slot = hash & (KEY_SLOTS - 1);
  while (keyLine[slot] === lineNumber) {
    const start = keyStart[slot]!;
    if (keyEnd[slot]! - start === to - from) {
      let k = 0;
      while (k < to - from && bytes[start + k] === bytes[from + k]) k++;
      if (k === to - from) return false;
    }
    slot = (slot + 1) & (KEY_SLOTS - 1);
  }
  keyLine[slot] = lineNumber;
  keyStart[slot] = from;
  keyEnd[slot] = to;
  return true;
}

/**
 * The index object starting at the brace at i, scanned into wordStart/wordEnd by position: the
 * index after its closing brace and the number of positions, or null when it is not the plain case.
 */
function scanIndexBytes(bytes: Uint8Array, i: number): [number, number] | null {
  const line = nextLineStamp();
  // The module's arrays in locals: the loop below then reads them without a context load each time.
  let seen = setBy;
  let starts = wordStart;
  let ends = wordEnd;
  let keys = 0;
  let length = 0;
  i = skipSpaceBytes(bytes, i + 1);
  if (bytes[i] !== 0x7d) {
    for (;;) {
      if (bytes[i] !== 0x22) return null;
      const from = i + 1;
      let hash = 0;
      for (i = from; i < bytes.length; i++) {
        const c = bytes[i]!;
        if (c === 0x22) break;
        if (c === 0x5c || c < 0x20) return null;
        hash = (Math.imul(hash, 31) + c) | 0;
      }
      if (i >= bytes.length) return null;
      const to = i;
      if (!firstTimeKeyBytes(bytes, from, to, hash, keys++)) return null;
      i = skipSpaceBytes(bytes, i + 1);
      if (bytes[i] !== 0x3a) return null;
      i = skipSpaceBytes(bytes, i + 1);
      if (bytes[i] !== 0x5b) return null;
      i = skipSpaceBytes(bytes, i + 1);
      if (bytes[i] === 0x5d) i++;
      else
        for (;;) {
          const first = i;
          let n = 0;
          while (i < bytes.length) {
            const d = bytes[i]! - 0x30;
            if (d < 0 || d > 9) break;
            n = n * 10 + d;
            i++;
          }
          const digits = i - first;
          if (digits === 0 || digits > 15 || (digits > 1 && bytes[first] === 0x30)) return null;
          if (n < MAX_POSITION) {
            if (n >= seen.length) {
              growPositions(n);
              seen = setBy;
              starts = wordStart;
              ends = wordEnd;
            }
            if (seen[n] === line) return null;
            seen[n] = line;
            starts[n] = from;
            ends[n] = to;
            if (n >= length) length = n + 1;
          }
          i = skipSpaceBytes(bytes, i);
          const c = bytes[i];
          if (c === 0x5d) {
            i++;
            break;
          }
          if (c !== 0x2c) return null;
          i = skipSpaceBytes(bytes, i + 1);
        }
      i = skipSpaceBytes(bytes, i);
      const c = bytes[i];
      if (c === 0x7d) break;
      if (c !== 0x2c) return null;
      i = skipSpaceBytes(bytes, i + 1);
    }
  }
  return [i + 1, length];
}

function growPositions(n: number): void {
  const size = Math.min(MAX_POSITION, Math.max(n + 1, setBy.length * 2));
  const grown = new Int32Array(size);
  grown.set(setBy);
  setBy = grown;
  while (wordAt.length < size) wordAt.push('');
  const starts = new Int32Array(size);
  starts.set(wordStart);
  wordStart = starts;
  const ends = new Int32Array(size);
  ends.set(wordEnd);
  wordEnd = ends;
}

/**
 * parseWithInvertedIndex of a line given as its UTF-8 bytes (valid UTF-8: the caller checks), for
 * the plain case; undefined for any other, for the caller to decode the line and take the string path.
 */
export function parseBytesWithInvertedIndex(line: Buffer): unknown {
  const at = line.indexOf(NAME_BYTES);
  if (at < 0) return undefined;
  let start = skipSpaceBytes(line, at + NAME_BYTES.length);
  if (line[start] !== 0x3a) return undefined;
  start = skipSpaceBytes(line, start + 1);
  if (line[start] !== 0x7b) return undefined;
  const scanned = scanIndexBytes(line, start);
  if (!scanned) return undefined;
  const [end, positions] = scanned;
  // The abstract: the words' bytes joined by spaces, holes and empty words skipped, decoded once;
  // the words after the first that takes it past MAX_ABSTRACT_CHARS left out (a character is at most
  // three bytes per UTF-16 unit).
  const seen = setBy;
  const starts = wordStart;
  const ends = wordEnd;
  const stamp = lineNumber;
  let size = 0;
  let length = positions;
  for (let p = 0; p < positions; p++) {
    if (seen[p] !== stamp) continue;
    size += ends[p]! - starts[p]! + 1;
    if (size > 3 * MAX_ABSTRACT_CHARS) {
      length = p + 1;
      break;
    }
  }
  if (size > abstractBytes.length)
    abstractBytes = Buffer.allocUnsafe(Math.max(size, abstractBytes.length * 2));
  const text = abstractBytes;
  let o = 0;
  for (let p = 0; p < length; p++) {
    if (seen[p] !== stamp) continue;
    const to = ends[p]!;
    let k = starts[p]!;
    if (k === to) continue;
    if (o > 0) text[o++] = 0x20;
    while (k < to) text[o++] = line[k++]!;
  }
  const abstract = text.toString('utf8', 0, o);
  // The rest of the line, with PLACEHOLDER in the index's place, for JSON.parse.
  const rest = start + PLACEHOLDER.length + (line.length - end);
  if (rest > scratch.length) scratch = Buffer.allocUnsafe(Math.max(rest, scratch.length * 2));
  line.copy(scratch, 0, 0, start);
  scratch.write(PLACEHOLDER, start, 'latin1');
  line.copy(scratch, start + PLACEHOLDER.length, end);
  let value: unknown;
  try {
    value = JSON.parse(scratch.toString('utf8', 0, rest));
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (record.abstract_inverted_index !== PLACEHOLDER_VALUE) return undefined;
  record.abstract_inverted_index = new RebuiltAbstract(abstract);
  return record;
}
