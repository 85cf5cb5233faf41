// JSON.parse turns OpenAlex's abstract_inverted_index (hundreds of distinct word keys per work) into an
// object that gets a new hidden class per key: measured on the ACL works, that member was ~90% of the
// parse time of a line. The reader scans that one member itself into a flat list of entries, in the
// order Object.entries would have given, and lets JSON.parse do the rest of the line. Anything outside
// the plain shape {"word":[0,12],...} falls back to JSON.parse of the whole line, so results and
// errors stay those of JSON.parse.

/** The entries of an abstract_inverted_index, in Object.entries order. */
export class InvertedIndexEntries {
  constructor(readonly entries: readonly (readonly [string, number[]])[]) {}
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

/**
 * JSON.parse of one line, with a top-level abstract_inverted_index object scanned into
 * InvertedIndexEntries; undefined when the line does not fit, for the caller to JSON.parse it whole.
 */
export function parseWithInvertedIndex(line: string): unknown {
  const at = line.indexOf(NAME);
  // The name cannot occur inside a JSON string (its quotes would be escaped there): one occurrence
  // means no duplicate member and no nested one.
  if (at < 0 || line.indexOf(NAME, at + 1) >= 0) return undefined;
  let start = skipSpace(line, at + NAME.length);
  if (line.charCodeAt(start) !== 0x3a) return undefined;
  start = skipSpace(line, start + 1);
  if (line.charCodeAt(start) !== 0x7b) return undefined;
  const scanned = scanIndex(line, start);
  if (!scanned) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(`${line.slice(0, start)}null${line.slice(scanned[1])}`);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  // Null only if the member replaced was the top-level one.
  if (record.abstract_inverted_index !== null) return undefined;
  record.abstract_inverted_index = scanned[0];
  return record;
}
