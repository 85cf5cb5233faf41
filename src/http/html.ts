// The one way the server writes HTML (the dashboard's pages, the public work and author pages): a
// tagged template that escapes every interpolation unless it is itself Html (built by this same tag).
// A title, a name or a custom field value is user input; it can only reach a page through here, so it
// is always escaped, and shown as text with the direction controls it opens closed.

import type { FastifyReply } from 'fastify';

export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * Text for a template slot: Html as it is, arrays joined, null/undefined/false as nothing, the rest
 * escaped; a value shown as text (`before`: the page written so far) with its direction controls
 * closed (`withDirectionClosed`).
 */
function render(value: unknown, before: string): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map((item) => render(item, before)).join('');
  if (value === null || value === undefined || value === false) return '';
  const text = String(value);
  return escapeHtml(DIRECTION_CONTROLS.test(text) && showsAsText(before) ? withDirectionClosed(text) : text);
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i], out) + strings[i + 1]!;
  return new Html(out);
}

// A stored value may hold direction controls that it leaves open: a right-to-left override (U+202E)
// at a name's end reverses every letter after it up to the end of the line, a right-to-left isolate
// (U+2067) the order of the words after it. Left open in a sentence or beside other values, it
// disguised them: a group named "Group\u202E" made the import page's "holds 3 of its 100,000 records"
// read "sdloh 3 fo sti 000,001 sdrocer". Every value shown as text is closed at its end, whatever
// page writes it: the controls it opened are popped there (U+202C for an embedding or an override,
// U+2069 for an isolate), as the Unicode Bidirectional Algorithm would at the end of its paragraph.
// Its own characters are all kept: a form's value (an attribute, a textarea) is left as it was
// stored, as it is sent back; it is shown in a box of its own.
const DIRECTION_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;
const POP_DIRECTIONAL_FORMATTING = '\u202c';

/** `text` with each embedding, override and isolate it opens and does not close, closed at its end. */
export function withDirectionClosed(text: string): string {
  // What is open, innermost last: true for an isolate, false for an embedding or an override.
  const open: boolean[] = [];
  for (const c of text) {
    if (c >= '\u202a' && c <= '\u202e' && c !== POP_DIRECTIONAL_FORMATTING) open.push(false);
    else if (c === POP_DIRECTIONAL_FORMATTING) {
      // A PDF closes the innermost embedding or override, never past an isolate.
      if (open.length > 0 && !open[open.length - 1]) open.pop();
    } else if (c >= '\u2066' && c <= '\u2068') open.push(true);
    else if (c === POP_DIRECTIONAL_ISOLATE) {
      // A PDI closes the innermost isolate and whatever was opened inside it; unmatched, nothing.
      const at = open.lastIndexOf(true);
      if (at >= 0) open.length = at;
    }
  }
  if (open.length === 0) return text;
  return (
    text +
    open
      .reverse()
      .map((isolate) => (isolate ? POP_DIRECTIONAL_ISOLATE : POP_DIRECTIONAL_FORMATTING))
      .join('')
  );
}

/**
 * Whether a slot after `before` is shown as text among other text: not inside a tag (an attribute's
 * value) nor inside a textarea, whose value goes back with the form.
 */
function showsAsText(before: string): boolean {
  // A fragment written apart (html`${part}` joined into a page later) starts as text.
  return (
    before.lastIndexOf('<') <= before.lastIndexOf('>') &&
    before.lastIndexOf('<textarea') <= before.lastIndexOf('</textarea')
  );
}

// Names are written by users, in any script: inside an English sentence an Arabic or Hebrew name
// joins the sentence's own runs, so a name ending in a full stop or followed by a number reorders
// the words around it ("Authors group «اسم.» has 3 records" drew the stop, or the 3, at the wrong
// end). Isolating the name gives it its own direction from its first letter and leaves the
// sentence's order alone: `<bdi>` in markup, U+2068 FIRST STRONG ISOLATE … U+2069 POP DIRECTIONAL
// ISOLATE in plain text (a page title, a flash message kept in the session).
const FIRST_STRONG_ISOLATE = '\u2068';
const POP_DIRECTIONAL_ISOLATE = '\u2069';
/** The isolate controls (U+2066-U+2069); a value's own would close or open ours early. */
const ISOLATE_CONTROLS = /[\u2066-\u2069]/g;

/** A user-written value inside a larger text, isolated for direction: `<bdi>value</bdi>`, escaped. */
export function isolate(value: string | number): Html {
  return html`<bdi>${String(value).replace(ISOLATE_CONTROLS, '')}</bdi>`;
}

/** The same isolation in plain text (a title, a flash message): the value between U+2068 and U+2069. */
export function isolateText(value: string | number): string {
  return FIRST_STRONG_ISOLATE + String(value).replace(ISOLATE_CONTROLS, '') + POP_DIRECTIONAL_ISOLATE;
}

/** Plain text without its isolate controls: to compare two texts that isolate their values differently. */
export function withoutIsolates(text: string): string {
  return text.replace(ISOLATE_CONTROLS, '');
}

/**
 * Plain text with isolated values (`isolateText`) as markup: each isolated value in `<bdi>`, all
 * escaped. The heading and the flash message show in markup what the title and the session hold as text.
 */
export function isolatedHtml(text: string): Html {
  const parts = text.split(
    new RegExp(`${FIRST_STRONG_ISOLATE}([^${POP_DIRECTIONAL_ISOLATE}]*)${POP_DIRECTIONAL_ISOLATE}`),
  );
  // split with a capture group alternates: text, isolated value, text, …
  return html`${parts.map((part, i) => (i % 2 === 1 ? isolate(part) : part.replace(ISOLATE_CONTROLS, '')))}`;
}

/**
 * The headers every HTML page the server writes is sent with: its content security policy (`csp`: the
 * dashboard's and the public corpus pages' differ in what they allow), nothing sniffed as another
 * type, no frame, the referrer kept to this site.
 */
export function htmlSecurityHeaders(reply: FastifyReply, csp: string): FastifyReply {
  return reply
    .header('content-security-policy', csp)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin');
}
