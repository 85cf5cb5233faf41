// Reading values out of a parsed form body: every field arrives as text (or a list of texts when a
// name is posted several times); these turn them into what the stores take.
import { Type } from 'typebox';
import { MAX_INTEGER, rowIdOf } from '../http/schemas.ts';
import { errors } from '../infra/errors.ts';
import { formatCount, quotedBack } from './html.ts';

export type FormBody = Record<string, string | string[] | undefined>;

/** A form's one-time value (form-seal.ts) as posted in its `once` field: what `newFormValue` makes. */
export const FormValue = Type.String({ minLength: 16, maxLength: 64 });

export function text(body: FormBody, name: string): string {
  const value = body[name];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

export function list(body: FormBody, name: string): string[] {
  const value = body[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** A checkbox: present when ticked. */
export function checked(body: FormBody, name: string): boolean {
  return body[name] !== undefined;
}

/** A textarea with one item a line: blank lines dropped, each line trimmed. */
export function lines(body: FormBody, name: string): string[] {
  return text(body, name)
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

// A sign either way and a decimal without its leading zero (+3, .5) as editors type them; Number()
// reads them all.
const POINT_NUMBER = /^[-+]?(\d+(\.\d+)?|\.\d+)([eE][-+]?\d+)?$/;
/**
 * A decimal comma, as many editors type it (3,5): digits, one comma, then digits, but not exactly
 * three of them, since 1,500 is fifteen hundred to some and one and a half to others.
 */
const COMMA_NUMBER = /^[-+]?\d+,(\d{1,2}|\d{4,})$/;

/**
 * Typed text as a number: written with a point (3.5, 1e3), or with a decimal comma where that
 * cannot be misread (3,5 is 3.5); null for other text. Text with a comma that could be misread
 * (1,500, 1.234,5) is refused, saying how to type it, rather than guessed. `name` names the input in
 * the message (null where the message is put under a name already: an import's "Row R, column C: ",
 * which said the field's name twice); `input` is its posted name, for the page to show the message
 * beside it.
 */
export function typedNumber(raw: string, name: string | null, input?: string): number | null {
  if (POINT_NUMBER.test(raw)) return Number(raw);
  if (COMMA_NUMBER.test(raw)) return Number(raw.replace(',', '.'));
  if (raw.includes(',')) {
    const message = `${name === null ? quotedBack(raw) : `${name}: "${raw}"`} could be read more than one way. Type the number with a point for decimals and no thousands separator, such as 1500 or 1.5 (a single decimal comma, as in 3,5, is read as 3.5).`;
    throw errors.validation(message, input ? [{ path: `body.${input}`, message }] : undefined);
  }
  return null;
}

/**
 * A row's id posted by a form (a group's checkbox, a journal's Link button): every id the API takes
 * (`RowId`, 1 to 2,147,483,647: the tables' integer ids), refused otherwise, naming `what` the id is
 * of, beside the form's field `input` (null for a button's hidden field: said at the page's top). The forms allowed nine digits, so a group whose id had ten
 * (past a billion, as the API allows) could not be chosen: "Not a group id".
 */
export function postedRowId(raw: string, what: string, input: string | null): number {
  const id = rowIdOf(raw.trim());
  if (id !== null) return id;
  const message = `${quotedBack(raw)} is not the id of ${what}: an id is a whole number from 1 to ${formatCount(MAX_INTEGER)}. Open the page again and choose from it.`;
  throw errors.validation(message, input === null ? undefined : [{ path: `body.${input}`, message }]);
}
