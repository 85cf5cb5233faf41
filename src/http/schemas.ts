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

export { NOT_BLANK } from '../infra/errors.ts';
