// The forms a page draws, weighed for the pre-check (pre-check.ts). A form XObject (`/Subtype
// /Form`) is a content stream of its own that a page, or another form, draws with `/Name Do`, and
// pdf.js interprets it again each time it is drawn: one page drawing a form of 14 MiB of text
// objects, a small form drawn thousands of times, or forms each drawing the next ten times (ten
// levels: 10^10 draws from a file of a few KB) held a worker for the whole parse time limit while
// the page's own content weighed a few bytes. Here the `Do` operators of every content stream are
// counted as the pre-check inflates it, each name is looked up in the resources of the page (or of
// the form) that draws it, and a page weighs its own streams plus every form it draws, as many times
// as it draws it, nested forms included. The weight stops growing at a cap (past every budget), so a
// fan-out is refused after a walk of each form once, never expanded.
//
// A stream no page draws (a Type 3 glyph's procedure, interpreted when pdf.js loads the font: a
// 2 KB file whose glyph drew 5 levels of 10 forms took 84 s) weighs for the document with what it
// draws, each name as the heaviest form of that name in the file; a glyph's procedure (named by a
// /CharProcs dictionary) weighs GLYPH_CONTENT_FACTOR times, once for every glyph naming it. A
// stream not decoded here (LZW, run-length) draws the heaviest form its resources name at every 6
// bytes it may hold (pre-check.ts).

/** PDF white space and delimiters: what may stand either side of an operator. */
export const SEPARATOR = new Uint8Array(256);
for (const c of '\0\t\n\f\r ()<>[]{}/%') SEPARATOR[c.charCodeAt(0)] = 1;
const SPACE = new Uint8Array(256);
for (const c of '\0\t\n\f\r ') SPACE[c.charCodeAt(0)] = 1;
const DO = Buffer.from('Do', 'latin1');

/** Bytes kept across chunks: a name (127 bytes at most) and the white space before `Do`. */
const TAIL_BYTES = 256;

/** Distinct names counted per stream; `Do` of other names past it count as the heaviest drawn. */
export const MAX_DRAWN_NAMES = 10_000;

/** A name as pdf.js reads it: `#xx` escapes decoded. */
function decodeName(raw: string): string {
  return raw.includes('#')
    ? raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : raw;
}

/**
 * The `/Name Do` operators of one stream, given chunk by chunk: how many times each name is drawn.
 * A `Do` inside a string counts too (a figure's label): it weighs only if its name is a form's.
 */
export class DrawnNames {
  readonly counts = new Map<string, number>();
  /**
   * `Do` operators whose name is not known: past MAX_DRAWN_NAMES, or at the stream's start (its name
   * may end the stream before: pdf.js reads a page's /Contents array as one stream). Each counts as
   * the heaviest form the resources name.
   */
  overflow = 0;
  private tail: Buffer = Buffer.alloc(0);
  /** Bytes of the stream fed so far. */
  private fed = 0;
  /** Whether the bytes being read start at the stream's start. */
  private fromStart = true;

  feed(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.fromStart = this.fed === this.tail.length;
    this.fed += chunk.length;
    const bytes =
      this.tail.length > 0
        ? Buffer.concat([this.tail, chunk])
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // An operator ending the bytes is decided by the next byte: left in the tail for the next chunk.
    const from = Math.max(0, this.tail.length - 2);
    for (let at = bytes.indexOf(DO, from); at >= 0 && at + 2 < bytes.length; at = bytes.indexOf(DO, at + 2)) {
      if (SEPARATOR[bytes[at + 2]!]) this.count(bytes, at);
    }
    this.tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - TAIL_BYTES)));
  }

  /** The stream ends: an operator at its very end counts. */
  end(): void {
    const n = this.tail.length;
    this.fromStart = this.fed === n;
    if (n >= 2 && this.tail[n - 2] === 0x44 && this.tail[n - 1] === 0x6f) this.count(this.tail, n - 2);
    this.tail = Buffer.alloc(0);
    this.fed = 0;
    this.fromStart = true;
  }

  /** Counts the name before the `Do` at `at`, if a name stands there. */
  private count(bytes: Buffer, at: number): void {
    let i = at - 1;
    if (i >= 0 && !SPACE[bytes[i]!]) return;
    while (i >= 0 && SPACE[bytes[i]!]) i--;
    const end = i + 1;
    while (i >= 0 && !SEPARATOR[bytes[i]!] && end - i <= 128) i--;
    if (i < 0 && this.fromStart) {
      this.overflow++;
      return;
    }
    if (i < 0 || bytes[i] !== 0x2f /* / */ || end === i + 1) return;
    const name = decodeName(bytes.toString('latin1', i + 1, end));
    const known = this.counts.get(name);
    if (known !== undefined) this.counts.set(name, Math.min(known + 1, 2 ** 40));
    else if (this.counts.size < MAX_DRAWN_NAMES) this.counts.set(name, 1);
    else this.overflow++;
  }
}

/** A PDF value as far as resources need: dictionaries, arrays, references and names. */
type PdfValue = PdfDict | PdfValue[] | PdfRef | string | number | null;
type PdfDict = Map<string, PdfValue>;
interface PdfRef {
  ref: number;
}

const isRef = (v: PdfValue | undefined): v is PdfRef =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Map);

/** How deep dictionaries and arrays are read inside each other. */
const MAX_VALUE_DEPTH = 32;

/**
 * Reads the PDF value at `text[pos.at]` (a tolerant reader: strings and unknown words are read past
 * as null, a value cut short by the text's end is what was read of it).
 */
function readValue(text: string, pos: { at: number }, depth = 0): PdfValue {
  skipSpace(text, pos);
  const c = text[pos.at];
  if (c === undefined) return null;
  if (c === '<' && text[pos.at + 1] === '<') {
    pos.at += 2;
    const dict: PdfDict = new Map();
    for (;;) {
      skipSpace(text, pos);
      if (pos.at >= text.length) return dict;
      if (text.startsWith('>>', pos.at)) {
        pos.at += 2;
        return dict;
      }
      if (text[pos.at] !== '/') {
        // Not a key: read past it as a value (damaged files).
        const before = pos.at;
        readValue(text, pos, depth + 1);
        if (pos.at === before) pos.at++;
        continue;
      }
      const key = readName(text, pos);
      dict.set(key, depth < MAX_VALUE_DEPTH ? readValue(text, pos, depth + 1) : null);
    }
  }
  if (c === '[') {
    pos.at++;
    const array: PdfValue[] = [];
    for (;;) {
      skipSpace(text, pos);
      if (pos.at >= text.length) return array;
      if (text[pos.at] === ']') {
        pos.at++;
        return array;
      }
      const before = pos.at;
      array.push(depth < MAX_VALUE_DEPTH ? readValue(text, pos, depth + 1) : null);
      if (pos.at === before) pos.at++;
    }
  }
  if (c === '/') return readName(text, pos);
  if (c === '(') {
    let open = 0;
    for (; pos.at < text.length; pos.at++) {
      const d = text[pos.at];
      if (d === '\\') pos.at++;
      else if (d === '(') open++;
      else if (d === ')' && --open === 0) break;
    }
    pos.at++;
    return null;
  }
  if (c === '<') {
    const end = text.indexOf('>', pos.at);
    pos.at = end < 0 ? text.length : end + 1;
    return null;
  }
  const number = /^[+-]?(?:\d+\.?\d*|\.\d+)/.exec(text.slice(pos.at, pos.at + 32))?.[0];
  if (number !== undefined) {
    pos.at += number.length;
    // `12 0 R`: a reference.
    const ref = /^\s+\d+\s+R(?![^\0\t\n\f\r ()<>[\]{}/%])/.exec(text.slice(pos.at, pos.at + 40));
    if (ref && /^\d+$/.test(number)) {
      pos.at += ref[0].length;
      return { ref: Number(number) };
    }
    return Number(number);
  }
  // A word (true, false, null, a stray operator), or one stray delimiter.
  const start = pos.at;
  while (pos.at < text.length && !SEPARATOR[text.charCodeAt(pos.at) & 0xff]) pos.at++;
  if (pos.at === start) pos.at++;
  return null;
}

function skipSpace(text: string, pos: { at: number }): void {
  for (;;) {
    while (pos.at < text.length && SPACE[text.charCodeAt(pos.at) & 0xff]) pos.at++;
    if (text[pos.at] !== '%') return;
    while (pos.at < text.length && text[pos.at] !== '\n' && text[pos.at] !== '\r') pos.at++;
  }
}

function readName(text: string, pos: { at: number }): string {
  const start = ++pos.at;
  while (pos.at < text.length && !SEPARATOR[text.charCodeAt(pos.at) & 0xff]) pos.at++;
  return decodeName(text.slice(start, pos.at));
}

/** How much of an object's text is read: a page's dictionary, a resources dictionary. */
const OBJECT_TEXT_BYTES = 64 * 1024;

/** How many /Parent links are followed up from a page for inherited resources. */
const MAX_PARENTS = 32;

/** /XObject dictionaries read to look up what a stream no page draws draws, and how much of each. */
const MAX_XOBJECT_DICTS = 20_000;
const XOBJECT_DICT_BYTES = 4096;
/** Dictionaries kept per name: a real file's /Fm0 of every page stays far below. */
const MAX_SAME_NAME = 1_000;
/**
 * /CharProcs dictionaries read to find the glyph procedures (a real file has one per Type 3 font: a
 * few dozen at most), and how much of each is read first (a glyph is named in some 12 bytes: 256
 * glyphs in 3 KB).
 */
const MAX_CHARPROCS_DICTS = 2_000;
/** /Font dictionaries of resources read to find the fonts pdf.js may load (a real file: one a page or form). */
const MAX_FONT_DICTS = 20_000;
/**
 * A /CharProcs or /Font dictionary is read from a first window, then whole up to DICT_BYTES (some
 * 80,000 glyphs or 60,000 fonts), all of those of one key up to DICTS_BYTES.
 */
const DICT_WINDOW_BYTES = 4096;
const DICT_BYTES = 1024 * 1024;
const DICTS_BYTES = 16 * 1024 * 1024;

/**
 * How many times pdf.js builds each glyph procedure (by object number) as it loads the Type 3 fonts,
 * or 'unbounded' when the fonts name more glyphs than are read here.
 */
export type GlyphLoads = Map<number, number> | 'unbounded';

/** Where the objects' texts are: the file (by offset after `obj`) and its object streams' members. */
export interface ObjectTexts {
  buf: Buffer;
  offsets: Map<string, number>;
  members: Map<number, string>;
}

/**
 * Weighs pages with the forms they draw. `contentBytes` are the content-operator bytes of each
 * stream that may be content (by object number), `drawn` its `Do` counts; `cap` is where a weight
 * stops growing (past every budget).
 */
export class FormWeigher {
  /** Forms whose weight was taken for some page: what the pages' weights count. */
  readonly reached = new Set<number>();
  private readonly objects = new Map<number, PdfValue>();
  private readonly memo = new Map<number, Map<PdfDict | null, number>>();

  constructor(
    readonly texts: ObjectTexts,
    private readonly contentBytes: Map<number, number>,
    private readonly drawn: Map<number, DrawnNames>,
    readonly cap: number,
  ) {}

  /** The content bytes of the forms page `page` draws through its streams `streams`, each time drawn. */
  pageForms(page: number, streams: number[]): number {
    const xobjects = this.pageXObjects(page);
    if (xobjects === null) return 0;
    let weight = 0;
    for (const stream of streams) {
      weight = Math.min(this.cap, weight + this.drawnBy(stream, xobjects, new Set()));
      if (weight >= this.cap) break;
    }
    return weight;
  }

  /** What the `Do` operators of stream `stream` draw, looked up in `xobjects`. */
  private drawnBy(stream: number, xobjects: PdfDict, path: Set<number>): number {
    const names = this.drawn.get(stream);
    if (names === undefined) return 0;
    let weight = 0;
    for (const [name, count] of names.counts) {
      const target = xobjects.get(name);
      if (!isRef(target)) continue;
      weight = Math.min(
        this.cap,
        weight + Math.min(this.cap, count * this.formWeight(target.ref, xobjects, path)),
      );
      if (weight >= this.cap) return this.cap;
    }
    if (names.overflow === 0) return weight;
    let heaviest = 0;
    for (const target of xobjects.values())
      if (isRef(target)) heaviest = Math.max(heaviest, this.formWeight(target.ref, xobjects, path));
    return Math.min(this.cap, weight + names.overflow * heaviest);
  }

  /** A form's weight: its own bytes and those of what it draws (0 for an image or a form drawn inside itself). */
  private formWeight(form: number, parent: PdfDict, path: Set<number>): number {
    const own = this.contentBytes.get(form);
    // pdf.js ignores a form drawn inside itself ("circular reference").
    if (own === undefined || path.has(form)) return 0;
    // A form without resources of its own uses those of what draws it (as pdf.js does).
    const xobjects = this.resourcesXObjects(this.dictOf(form)?.get('Resources')) ?? parent;
    const memo = this.memo.get(form) ?? new Map<PdfDict | null, number>();
    this.memo.set(form, memo);
    const known = memo.get(xobjects);
    if (known !== undefined) return known;
    this.reached.add(form);
    path.add(form);
    const weight = Math.min(this.cap, own + this.drawnBy(form, xobjects, path));
    path.delete(form);
    memo.set(xobjects, weight);
    return weight;
  }

  /**
   * What a content stream no page draws (a Type 3 glyph's procedure, which pdf.js interprets when it
   * loads the font, a pattern, an appearance) draws in turn: each name it draws weighs as the
   * heaviest form any /XObject dictionary of the file gives that name, since the resources it is read
   * with are not traced here.
   */
  unreachedDraws(stream: number): number {
    const names = this.drawn.get(stream);
    if (names === undefined) return 0;
    const named = this.allXObjects();
    const heaviest = (name: string | null): number => {
      let most = 0;
      const targets = name === null ? [...named.values()].flat() : (named.get(name) ?? []);
      for (const { ref, dict } of targets)
        most = Math.max(most, this.formWeight(ref, dict, new Set([stream])));
      return most;
    };
    let weight = 0;
    for (const [name, count] of names.counts) {
      weight = Math.min(this.cap, weight + Math.min(this.cap, count * heaviest(name)));
      if (weight >= this.cap) return this.cap;
    }
    return names.overflow === 0 ? weight : Math.min(this.cap, weight + names.overflow * heaviest(null));
  }

  private glyphs: GlyphLoads | undefined;

  /**
   * The glyph procedures of the file's Type 3 fonts, each with the number of times pdf.js builds it:
   * once for each entry of each /CharProcs dictionary (in the file or in its object streams) naming
   * it, since it loads every glyph of a font (a stream named by 100 glyphs of one font was built 100
   * times: 19 s for one of 1 MB). 'unbounded' past what is read here (dictsAfter).
   */
  glyphProcedures(): GlyphLoads {
    if (this.glyphs) return this.glyphs;
    const loads = new Map<number, number>();
    const read = this.dictsAfter('/CharProcs', MAX_CHARPROCS_DICTS, (dict) => {
      for (const value of dict.values())
        if (isRef(value)) loads.set(value.ref, (loads.get(value.ref) ?? 0) + 1);
    });
    return (this.glyphs = read ? loads : 'unbounded');
  }

  /**
   * The font programs pdf.js parses as it loads the fonts (by object number), each with the number of
   * fonts loading it: pdf.js loads a font once for each font dictionary (a dictionary named by many
   * resources once), reads its program through its descriptor (a Type 0 font's through its
   * descendant's) and parses it again for each (one program of 760 KB loaded by 1,000 fonts took
   * 40 s). The fonts are those the /Font dictionaries of resources name; 'unbounded' past what is read.
   */
  fontPrograms(): GlyphLoads {
    const loads = new Map<number, number>();
    const seen = new Set<number>();
    const load = (font: PdfValue) => {
      if (isRef(font)) {
        if (seen.has(font.ref)) return;
        seen.add(font.ref);
      }
      let dict = this.resolve(font);
      if (!(dict instanceof Map)) return;
      const descendants = this.resolve(dict.get('DescendantFonts'));
      if (Array.isArray(descendants)) dict = this.resolve(descendants[0]);
      if (!(dict instanceof Map)) return;
      const descriptor = this.resolve(dict.get('FontDescriptor'));
      if (!(descriptor instanceof Map)) return;
      for (const key of ['FontFile', 'FontFile2', 'FontFile3']) {
        const program = descriptor.get(key);
        if (isRef(program)) loads.set(program.ref, (loads.get(program.ref) ?? 0) + 1);
      }
    };
    const read = this.dictsAfter('/Font', MAX_FONT_DICTS, (fonts) => {
      for (const font of fonts.values()) load(font);
    });
    return read ? loads : 'unbounded';
  }

  /**
   * Gives `visit` the dictionary after each `key` of the file and of its object streams (direct, or
   * the object a reference names), each read whole: false, read no further, past `maxDicts` of them,
   * one not closed within DICT_BYTES, or DICTS_BYTES read in all.
   */
  private dictsAfter(key: string, maxDicts: number, visit: (dict: PdfDict) => void): boolean {
    const { buf, offsets, members } = this.texts;
    let dicts = 0;
    let bytes = 0;
    /** Reads the dictionary at the start of `read(n)` (its first n characters). */
    const add = (read: (n: number) => string, depth = 0): boolean => {
      if (++dicts > maxDicts) return false;
      for (const window of [DICT_WINDOW_BYTES, DICT_BYTES]) {
        const text = read(window);
        const pos = { at: 0 };
        const value = readValue(text, pos);
        // What the dictionary took (the window when it was cut).
        bytes += Math.min(pos.at, text.length);
        if (bytes > DICTS_BYTES) return false;
        if (isRef(value) && depth === 0) {
          // `/CharProcs 12 0 R`: the dictionary is object 12's.
          const at = offsets.get(`${value.ref} 0 R`);
          const member = members.get(value.ref);
          if (at !== undefined)
            return add((n) => buf.toString('latin1', at, Math.min(buf.length, at + n)), depth + 1);
          if (member !== undefined) return add((n) => member.slice(0, n), depth + 1);
          return true;
        }
        if (!(value instanceof Map)) return true;
        // Cut by the window's end: read again, wider, or give up.
        if (pos.at > text.length || !text.startsWith('>>', pos.at - 2)) continue;
        visit(value);
        return true;
      }
      return false;
    };
    const after = key.length;
    // The key itself, not a longer name (`/Font`, not `/FontFile`).
    const ends = (c: number | undefined) => c === undefined || SEPARATOR[c & 0xff] === 1;
    for (let at = buf.indexOf(key, 0, 'latin1'); at >= 0; at = buf.indexOf(key, at + after, 'latin1')) {
      if (!ends(buf[at + after])) continue;
      const from = at + after;
      if (!add((n) => buf.toString('latin1', from, Math.min(buf.length, from + n)))) return false;
    }
    for (const text of members.values()) {
      for (let at = text.indexOf(key); at >= 0; at = text.indexOf(key, at + after)) {
        if (!ends(text.charCodeAt(at + after))) continue;
        const from = at + after;
        if (!add((n) => text.slice(from, from + n))) return false;
      }
    }
    return true;
  }

  private named: Map<string, { ref: number; dict: PdfDict }[]> | undefined;

  /** Every name an /XObject dictionary of the file gives an object, with the dictionaries giving it. */
  private allXObjects(): Map<string, { ref: number; dict: PdfDict }[]> {
    if (this.named) return this.named;
    const named = new Map<string, { ref: number; dict: PdfDict }[]>();
    const { buf, members } = this.texts;
    let read = 0;
    const add = (text: string) => {
      const dict = this.resolve(readValue(text, { at: 0 }));
      if (!(dict instanceof Map)) return;
      for (const [name, value] of dict) {
        if (!isRef(value)) continue;
        const list = named.get(name) ?? [];
        if (list.length < MAX_SAME_NAME) list.push({ ref: value.ref, dict });
        named.set(name, list);
      }
    };
    for (
      let at = buf.indexOf('/XObject', 0, 'latin1');
      at >= 0 && read < MAX_XOBJECT_DICTS;
      at = buf.indexOf('/XObject', at + 8, 'latin1'), read++
    )
      add(buf.toString('latin1', at + 8, Math.min(buf.length, at + 8 + XOBJECT_DICT_BYTES)));
    for (const text of members.values()) {
      for (
        let at = text.indexOf('/XObject');
        at >= 0 && read < MAX_XOBJECT_DICTS;
        at = text.indexOf('/XObject', at + 8), read++
      )
        add(text.slice(at + 8, at + 8 + XOBJECT_DICT_BYTES));
    }
    return (this.named = named);
  }

  /** The /XObject dictionary of a page's resources, its own or inherited through /Parent. */
  private pageXObjects(page: number): PdfDict | null {
    let node = this.dictOf(page);
    const seen = new Set<number>([page]);
    for (let i = 0; node !== null && i < MAX_PARENTS; i++) {
      const resources = node.get('Resources');
      if (resources !== undefined) return this.resourcesXObjects(resources) ?? null;
      const parent = node.get('Parent');
      if (!isRef(parent) || seen.has(parent.ref)) return null;
      seen.add(parent.ref);
      node = this.dictOf(parent.ref);
    }
    return null;
  }

  private resourcesXObjects(resources: PdfValue | undefined): PdfDict | null {
    const dict = this.resolve(resources);
    if (!(dict instanceof Map)) return null;
    const xobjects = this.resolve(dict.get('XObject'));
    return xobjects instanceof Map ? xobjects : null;
  }

  private dictOf(number: number): PdfDict | null {
    const value = this.object(number);
    return value instanceof Map ? value : null;
  }

  private resolve(value: PdfValue | undefined): PdfValue {
    if (value === undefined) return null;
    for (let i = 0; i < 8 && isRef(value); i++) value = this.object(value.ref);
    return isRef(value) ? null : value;
  }

  /** The value of object `number` (a stream's: its dictionary), read once. */
  private object(number: number): PdfValue {
    const known = this.objects.get(number);
    if (known !== undefined) return known;
    const { buf, offsets, members } = this.texts;
    const at = offsets.get(`${number} 0 R`);
    const text =
      at !== undefined
        ? buf.toString('latin1', at, Math.min(buf.length, at + OBJECT_TEXT_BYTES))
        : members.get(number)?.slice(0, OBJECT_TEXT_BYTES);
    const value = text === undefined ? null : readValue(text, { at: 0 });
    this.objects.set(number, value);
    return value;
  }
}
