// Reading values out of a parsed form body: every field arrives as text (or a list of texts when a
// name is posted several times); these turn them into what the stores take.

export type FormBody = Record<string, string | string[] | undefined>;

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
