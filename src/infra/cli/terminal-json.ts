// What the CLI prints is JSON for scripts, read in an operator's terminal too, and it quotes text
// outsiders stored (a group's or a record's name, a manuscript's title, a parsed file's text).
// JSON.stringify escapes the C0 controls (ESC among them: no raw escape sequence) but writes as they
// are DEL, the C1 controls (U+009B is a CSI to a terminal that reads 8-bit controls, U+009D an OSC:
// a title or a link set), the bidirectional controls (a U+202E reverses the rest of the line as
// shown: `"name": "evil"` read backwards) and U+2028/U+2029 (line breaks to some terminals). Those
// are written as `\uXXXX` escapes: the same JSON value for a script, nothing a terminal acts on.
//
// The CLI's plain lines (progress on stderr, commander's argument errors) quote text too: a file's
// path as the file system gives it (a name may hold ESC or a line break), an argument as typed or
// globbed. `terminalText` writes the same characters, and the C0 controls JSON would have escaped,
// as `\uXXXX`: one line, shown in the order it is stored, nothing run.

const ACTIVE = '\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069\\u2028\\u2029';
const TERMINAL_ACTIVE = new RegExp(`[${ACTIVE}]`, 'g');
const TEXT_ACTIVE = new RegExp(`[\\u0000-\\u001f${ACTIVE}]`, 'g');

function escaped(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** `value` as JSON (indented by `indent`), with nothing in it that a terminal acts on or reorders. */
export function terminalJson(value: unknown, indent?: number): string {
  // undefined (a command that returns nothing) is written as JSON.stringify wrote it before.
  const json = String(JSON.stringify(value, null, indent));
  return json.replace(TERMINAL_ACTIVE, escaped);
}

/**
 * `text` for a plain line of the CLI's output: every control character (line breaks and tabs
 * among them), DEL, C1, bidirectional control and line separator as `\uXXXX`, the rest as it is.
 */
export function terminalText(text: string): string {
  return text.replace(TEXT_ACTIVE, escaped);
}
