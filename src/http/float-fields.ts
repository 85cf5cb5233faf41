// Spec 2.3, 2.4 and 2.6 type `score` and `boost_multiplier` as floats. JSON has one number type and
// the serializer writes 1.0 as `1`, which typed readers (Python's json, Jackson's tree model) take
// for an integer: a journal scored 0 or 1 read as an int to a client checking the spec's types.
import type { onSendHookHandler } from 'fastify';

// An unescaped `score"` cannot occur inside a JSON string, so this matches keys only; these
// responses have no client-named keys. `1e+21` and `0.5` are left as they are.
const WHOLE_FLOAT = /"(score|boost_multiplier)":(-?\d+)(?=[,}])/g;

/** Writes the spec's float fields with a fraction always: `"score":1` becomes `"score":1.0`. */
export function writeFloatsWithFraction(json: string): string {
  return json.replace(WHOLE_FLOAT, '"$1":$2.0');
}

/** A route's onSend hook applying writeFloatsWithFraction to its serialized 200 answers. */
export const floatFieldsWithFraction: onSendHookHandler = (_request, reply, payload, done) => {
  done(
    null,
    reply.statusCode === 200 && typeof payload === 'string' ? writeFloatsWithFraction(payload) : payload,
  );
};
