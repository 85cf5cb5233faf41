// A push (SAX-style) scanner for the XML parts of a DOCX, fed chunk by chunk as a part inflates.
// Every character is looked at a bounded number of times whatever the markup's shape: an unclosed
// element, a tag without its '>' or an attribute without its closing quote costs the same as
// well-formed XML of that length, and no part is ever held whole in memory.

export interface XmlHandler {
  /** An opening or self-closing tag; `attrs` is the raw text after the name. */
  open(name: string, attrs: string, selfClosing: boolean): void;
  close(name: string): void;
  /** Character data between tags, entities decoded; one run of text may arrive in several calls. */
  text(text: string): void;
}

/** The markup is not XML we can read (a tag longer than any real one). */
export class XmlScanError extends Error {
  override name = 'XmlScanError';
}

/** Longest tag accepted: Word's longest real tags are a few hundred bytes. */
const MAX_TAG_CHARS = 1024 * 1024;
/** Longest entity reference (`&#x10FFFF;`), so an entity cut by a chunk boundary waits for the rest. */
const MAX_ENTITY_CHARS = 10;

const [LT, GT, DQUOTE, SQUOTE, SLASH, BANG, QUESTION, SPACE] = ['<', '>', '"', "'", '/', '!', '?', ' '].map(
  (c) => c.charCodeAt(0),
) as [number, number, number, number, number, number, number, number];

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|amp|lt|gt|quot|apos);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      // A code point XML cannot carry (NUL, a surrogate, past U+10FFFF) is dropped, not decoded.
      const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
      return valid ? String.fromCodePoint(code) : '';
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/** The value of one attribute in a tag's raw attribute text, found without backtracking. */
export function attrValue(attrs: string, name: string): string | null {
  const key = `${name}=`;
  for (let at = attrs.indexOf(key); at >= 0; at = attrs.indexOf(key, at + 1)) {
    const before = at === 0 ? ' ' : attrs[at - 1]!;
    if (!/\s/.test(before)) continue;
    const quote = attrs[at + key.length];
    if (quote !== '"' && quote !== "'") continue;
    const end = attrs.indexOf(quote, at + key.length + 1);
    if (end < 0) return null;
    return decodeEntities(attrs.slice(at + key.length + 1, end));
  }
  return null;
}

export class XmlScanner {
  private buffer = '';
  /** Where the search for the end of the tag that starts the buffer resumes (0: not in a tag). */
  private tagScan = 0;
  /** The quote character (as a code) of an attribute value left open at the end of the buffer. */
  private quote = 0;

  constructor(private readonly handler: XmlHandler) {}

  feed(chunk: string): void {
    this.buffer += chunk;
    this.drain(false);
  }

  end(): void {
    this.drain(true);
    this.buffer = '';
  }

  private drain(final: boolean): void {
    const s = this.buffer;
    let pos = 0;
    while (pos < s.length) {
      if (s.charCodeAt(pos) !== LT) {
        const lt = s.indexOf('<', pos);
        let stop = lt < 0 ? s.length : lt;
        if (lt < 0 && !final) {
          // Keep a possibly cut entity for the next chunk.
          const amp = s.lastIndexOf('&');
          if (amp >= pos && s.length - amp < MAX_ENTITY_CHARS && !s.includes(';', amp)) stop = amp;
        }
        if (stop > pos) this.handler.text(decodeEntities(s.slice(pos, stop)));
        pos = stop;
        if (lt < 0) break;
        continue;
      }
      const end = this.findTagEnd(s, pos);
      if (end < 0) break;
      this.emitTag(s, pos, end);
      pos = end + 1;
    }
    this.buffer = s.slice(pos);
    if (this.tagScan > 0) this.tagScan -= pos;
  }

  /** Index of the '>' that ends the tag starting at `start`, or -1 until more input arrives. */
  private findTagEnd(s: string, start: number): number {
    const second = s.charCodeAt(start + 1);
    const special =
      second === BANG && s.startsWith('<!--', start)
        ? '-->'
        : second === BANG && s.startsWith('<![CDATA[', start)
          ? ']]>'
          : second === QUESTION
            ? '?>'
            : null;
    let i = this.tagScan > start ? this.tagScan : start + 1;
    if (special) {
      const at = s.indexOf(special, Math.max(start + 2, i - special.length));
      if (at >= 0) {
        this.tagScan = 0;
        return at + special.length - 1;
      }
      i = s.length;
    } else {
      // A '>' inside a quoted attribute value does not end the tag.
      let quote = this.quote;
      for (const n = s.length; i < n; i++) {
        const c = s.charCodeAt(i);
        if (quote !== 0) {
          if (c === quote) quote = 0;
        } else if (c === GT) {
          this.quote = 0;
          this.tagScan = 0;
          return i;
        } else if (c === DQUOTE || c === SQUOTE) quote = c;
      }
      this.quote = quote;
    }
    if (i - start > MAX_TAG_CHARS) throw new XmlScanError(`a tag runs on past ${MAX_TAG_CHARS} characters`);
    this.tagScan = i;
    return -1;
  }

  private emitTag(s: string, start: number, end: number): void {
    const second = s.charCodeAt(start + 1);
    if (second === QUESTION) return;
    if (second === BANG) {
      if (s.startsWith('<![CDATA[', start)) this.handler.text(s.slice(start + 9, end - 2));
      return;
    }
    if (second === SLASH) {
      this.handler.close(s.slice(start + 2, end).trim());
      return;
    }
    const selfClosing = s.charCodeAt(end - 1) === SLASH;
    const stop = selfClosing ? end - 1 : end;
    let nameEnd = start + 1;
    while (nameEnd < stop && s.charCodeAt(nameEnd) > SPACE) nameEnd++;
    this.handler.open(s.slice(start + 1, nameEnd), s.slice(nameEnd, stop), selfClosing);
  }
}
