// The one rule for the names an organization gives its own things (a group, a custom field and each
// of its options, an API key's label, the organization itself): one line of text. Typed into a
// single-line input, such a name never holds a control character; sent by a crafted request it did
// ("Bad\r\nX-Injected: 1" was stored as a group's name), and every channel it goes out through
// (a page, a file name, a CLI's line, a log) then had to defend itself. The spec (2.4, 2.5) gives
// these names as plain strings, and nothing of a name is lost by refusing a line break in it: the
// request is refused (400 `validation_failed`) rather than the name silently changed. Leading and
// trailing spaces and line breaks are trimmed before, as they always were.
//
// What people and manuscripts are called in text a client sends (a record's name in 4.2, the
// upload's titles and authors) is kept as sent: the spec gives it as a string an editorial system
// fills, and refusing a stray line break there would fail a whole write. Those are escaped where
// they go out instead.
import { errors } from './app-error.ts';

/**
 * C0 controls (tab, CR, LF, ESC...), DEL, C1 controls (U+009B is a CSI to a terminal that reads
 * 8-bit controls), and the Unicode line and paragraph separators.
 */
// eslint-disable-next-line no-control-regex
const LINE_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

const CALLED: Readonly<Record<string, string>> = {
  '\t': 'a tab',
  '\n': 'a line feed',
  '\r': 'a carriage return',
  '\u001b': 'an escape character',
  '\u2028': 'a line separator',
  '\u2029': 'a paragraph separator',
};

/** What is wrong with `text` as a one-line name, or null: it says which character, by its code point. */
export function oneLineProblem(text: string): string | null {
  const found = LINE_CONTROL.exec(text)?.[0];
  if (found === undefined) return null;
  const code = `U+${found.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  return `must be one line of text, without line breaks, tabs or other control characters (it holds ${CALLED[found] ?? 'a control character'}, ${code})`;
}

/** Refuses (400) a name that is not one line; `what` begins the message ("A group name"). */
export function checkOneLine(text: string, what: string): void {
  const problem = oneLineProblem(text);
  if (problem) throw errors.validation(`${what} ${problem}`);
}
