// Validation of custom field values against the field's data_kind (spec 2.5). `null` clears a value.
import { formatCount } from '../infra/counts.ts';
import type { ErrorDetail } from '../infra/errors.ts';
import type { Owner } from './kinds.ts';
import type { FieldRule } from './store.ts';

export type CustomValue = number | string | string[];

/** The longest text a `str` field's value may hold, in characters. */
export const MAX_STR_CHARS = 10_000;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date in the form YYYY-MM-DD (no 2023-02-29, no 2023-13-01). */
export function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Checks one value; returns the value to store (option ids lower-cased) or the problems found, each
 * with its path under `path`.
 */
export function checkCustomValue(
  rule: FieldRule,
  value: unknown,
  path: string,
): { value: CustomValue } | { problems: ErrorDetail[] } {
  const problem = (message: string, at = path) => ({ problems: [{ path: at, message }] });
  switch (rule.dataKind) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
        ? { value }
        : problem('must be a finite number');
    case 'str':
      if (typeof value !== 'string') return problem('must be a string');
      return value.length > MAX_STR_CHARS
        ? problem(`must have at most ${formatCount(MAX_STR_CHARS)} characters`)
        : { value };
    case 'date':
      return typeof value === 'string' && isCalendarDate(value)
        ? { value }
        : problem('must be a calendar date YYYY-MM-DD');
    case 'single_option': {
      if (typeof value !== 'string') return problem('must be the api_id of one option of this field');
      const id = value.toLowerCase();
      return rule.options.has(id) ? { value: id } : problem('is not an option of this field');
    }
    case 'multi_option': {
      if (!Array.isArray(value)) return problem('must be an array of option api_ids of this field');
      const problems: ErrorDetail[] = [];
      const seen = new Set<string>();
      value.forEach((item: unknown, i) => {
        const at = `${path}.${i}`;
        if (typeof item !== 'string') problems.push({ path: at, message: 'must be a string' });
        else if (!rule.options.has(item.toLowerCase()))
          problems.push({ path: at, message: 'is not an option of this field' });
        else if (seen.has(item.toLowerCase())) problems.push({ path: at, message: 'repeats an option' });
        else seen.add(item.toLowerCase());
      });
      return problems.length > 0 ? { problems } : { value: [...seen] };
    }
  }
}

export interface CustomValuesInput {
  /** Values to set, by field api_id. */
  set: Record<string, CustomValue>;
  /** Field api_ids whose value is cleared (sent as null). */
  cleared: string[];
  problems: ErrorDetail[];
}

/** What a key that names no field of the owner is said to be not a field of. */
const OWNER_NOUNS: Readonly<Record<Owner, string>> = {
  author_from_group: 'an author from group',
  folder: 'a folder',
  proposal: 'a manuscript',
};

/**
 * Validates custom values by field api_id: every key must be a custom field of the organization's
 * `owner` (`rules`, from loadFieldRules). `path` prefixes each reported location (e.g. "body").
 */
export function checkCustomValues(
  entries: ReadonlyArray<[string, unknown]>,
  rules: ReadonlyMap<string, FieldRule>,
  path: string,
  owner: Owner = 'author_from_group',
): CustomValuesInput {
  const out: CustomValuesInput = { set: {}, cleared: [], problems: [] };
  for (const [key, value] of entries) {
    const at = `${path}.${key}`;
    const id = key.toLowerCase();
    const rule = rules.get(id);
    if (!rule) {
      out.problems.push({ path: at, message: `is not a field of ${OWNER_NOUNS[owner]}` });
      continue;
    }
    if (value === null) {
      out.cleared.push(id);
      continue;
    }
    const checked = checkCustomValue(rule, value, at);
    // A loop, not push(...): a spread of 400,000 problems overflows the call stack.
    if ('problems' in checked) for (const problem of checked.problems) out.problems.push(problem);
    else out.set[id] = checked.value;
  }
  return out;
}
