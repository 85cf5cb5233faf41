// Schema helpers shared by every route module.
import { Type, type TSchema } from 'typebox';
import { ErrorBody } from '../infra/errors.ts';

/** Response schemas for the error statuses a route can answer: all share the one error shape. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorBody> {
  const out: Record<number, typeof ErrorBody> = {};
  for (const status of statuses) out[status] = ErrorBody;
  return out;
}

/** The statuses every authenticated /api/external route can answer besides its own. */
export const EXTERNAL_ERRORS = [400, 401, 403, 404, 413, 415, 429, 500] as const;

export const Ok = Type.Object({ ok: Type.Boolean() }, { description: 'Success marker' });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The largest value of a PostgreSQL `integer` (every table's serial id). */
export const MAX_INTEGER = 2_147_483_647;

/**
 * A row's id in a path: a larger number is refused as the request's fault (400), where the database
 * would refuse it as out of range for its integer column.
 */
export const RowId = (options: { description?: string } = {}) =>
  Type.Integer({ minimum: 1, maximum: MAX_INTEGER, ...options });

/**
 * A row's id written as text (an address's option, a form's field): digits alone, leading zeros
 * allowed as the schemas' coercion allows them ("007" is 7), from 1 to MAX_INTEGER; null for anything
 * else. Past MAX_INTEGER the database refuses the value as out of range for its column, and a page
 * that passed one on answered "A value has the wrong form for its field", naming none.
 */
export function rowIdOf(text: string): number | null {
  if (!/^\d+$/.test(text)) return null;
  const id = Number(text);
  return id >= 1 && id <= MAX_INTEGER ? id : null;
}

export { NOT_BLANK } from '../infra/errors.ts';
