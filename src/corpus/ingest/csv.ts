// CSV text for COPY ... FROM STDIN (FORMAT csv): an unquoted empty field is NULL, a quoted one is ''.
export type CsvValue = string | number | boolean | null | readonly string[] | readonly number[];

/** A Postgres array literal: every element double-quoted, so no element needs further thought. */
function pgArray(values: readonly (string | number)[]): string {
  return `{${values.map((v) => `"${escapeElement(String(v))}"`).join(',')}}`;
}

function escapeElement(text: string): string {
  if (text.indexOf('\\') === -1 && text.indexOf('"') === -1) return text;
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

function field(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  const text = typeof value === 'string' ? value : pgArray(value);
  return text.indexOf('"') === -1 ? `"${text}"` : `"${text.replace(/"/g, '""')}"`;
}

/** The CSV as joined strings: the rule the byte writer below follows, and its way for what UTF-8 cannot carry. */
export function csvRowsJoined(rows: readonly (readonly CsvValue[])[]): string {
  const out: string[] = [];
  for (const row of rows) out.push(row.map(field).join(','));
  return out.length > 0 ? `${out.join('\n')}\n` : '';
}

// csvRows writes the rows as UTF-8 into one reused buffer and decodes it once. Joining made a string
// per field and per row that each join copied again: most of the staging's garbage, and ~100 ms of
// the parse thread's CPU on the ACL works.
let out = Buffer.allocUnsafe(1 << 20);
let at = 0;

function reserve(bytes: number): void {
  if (at + bytes <= out.length) return;
  const grown = Buffer.allocUnsafe(Math.max(at + bytes, out.length * 2));
  out.copy(grown, 0, 0, at);
  out = grown;
}

function putAscii(text: string): void {
  reserve(text.length);
  for (let i = 0; i < text.length; i++) out[at++] = text.charCodeAt(i);
}

/**
 * Writes `text` as UTF-8 with a quote doubled (inside an array element, a quote or a backslash is
 * escaped first, as pgArray does); false at a lone surrogate, which UTF-8 cannot carry.
 */
function putText(text: string, element: boolean): boolean {
  // At most three bytes per UTF-16 unit: `"` in an element becomes `\""`, ü two bytes, € three.
  reserve(text.length * 3);
  const bytes = out;
  let o = at;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (c === 0x22) {
        if (element) bytes[o++] = 0x5c;
        bytes[o++] = 0x22;
        bytes[o++] = 0x22;
      } else if (c === 0x5c && element) {
        bytes[o++] = 0x5c;
        bytes[o++] = 0x5c;
      } else bytes[o++] = c;
    } else if (c < 0x800) {
      bytes[o++] = 0xc0 | (c >> 6);
      bytes[o++] = 0x80 | (c & 0x3f);
    } else if (c < 0xd800 || c > 0xdfff) {
      bytes[o++] = 0xe0 | (c >> 12);
      bytes[o++] = 0x80 | ((c >> 6) & 0x3f);
      bytes[o++] = 0x80 | (c & 0x3f);
    } else {
      const low = text.charCodeAt(i + 1);
      if (c > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) return false;
      const point = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
      bytes[o++] = 0xf0 | (point >> 18);
      bytes[o++] = 0x80 | ((point >> 12) & 0x3f);
      bytes[o++] = 0x80 | ((point >> 6) & 0x3f);
      bytes[o++] = 0x80 | (point & 0x3f);
      i++;
    }
  }
  at = o;
  return true;
}

const SURROGATE = /[\ud800-\udfff]/;

/** putText of a field's text; a long one without quotes (an abstract) by Buffer.write, which is faster. */
function putFieldText(text: string): boolean {
  if (text.length < 64 || text.indexOf('"') !== -1) return putText(text, false);
  reserve(text.length * 3);
  const written = out.write(text, at, 'utf8');
  // Buffer.write turns a lone surrogate into U+FFFD: a text with a surrogate takes putText's way.
  if (written !== text.length && SURROGATE.test(text)) return putText(text, false);
  at += written;
  return true;
}

function putField(value: CsvValue): boolean {
  if (value === null) return true;
  if (typeof value === 'number') putAscii(String(value));
  else if (typeof value === 'boolean') putAscii(value ? 't' : 'f');
  else if (typeof value === 'string') {
    putAscii('"');
    if (!putFieldText(value)) return false;
    putAscii('"');
  } else {
    // pgArray's literal, quoted as a field: each element's quotes are doubled.
    putAscii('"{');
    for (let i = 0; i < value.length; i++) {
      const element = value[i]!;
      putAscii(i > 0 ? ',""' : '""');
      if (typeof element === 'number') putAscii(String(element));
      else if (!putText(element, true)) return false;
      putAscii('""');
    }
    putAscii('}"');
  }
  return true;
}

/** Writes the rows into `out`; false at a lone surrogate (the caller then takes csvRowsJoined). */
function writeRows(rows: readonly (readonly CsvValue[])[]): boolean {
  at = 0;
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      if (i > 0) putAscii(',');
      if (!putField(row[i]!)) return false;
    }
    putAscii('\n');
  }
  return true;
}

export function csvRows(rows: readonly (readonly CsvValue[])[]): string {
  return writeRows(rows) ? out.toString('utf8', 0, at) : csvRowsJoined(rows);
}

/**
 * csvRows' text as UTF-8 bytes the caller owns (copyCsv sends them as they are, and a thread can
 * transfer them): no decoding here, no encoding on the writing side, half the bytes of a two-byte
 * string to pass between threads. A lone surrogate is encoded as U+FFFD, as sending the text would.
 */
export function csvBytes(rows: readonly (readonly CsvValue[])[]): Uint8Array {
  return writeRows(rows) ? new Uint8Array(out.subarray(0, at)) : Buffer.from(csvRowsJoined(rows), 'utf8');
}
