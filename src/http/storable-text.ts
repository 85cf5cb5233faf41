// The rule for text that cannot be stored (src/infra/storable-text.ts: a NUL, a lone surrogate, too
// many combining marks in a row), applied to every input at the edge. JSON bodies, path parameters
// and query strings are checked by a hook (`registerStorableTextCheck`), the upload form's fields and
// file name by the form reader, all through `unstorableText`.
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors, type ErrorDetail } from '../infra/errors.ts';
import { hasLongMarkRun, MARKS_PROBLEM, textProblem } from '../infra/storable-text.ts';

/** A property name as it can be shown in a path: what cannot be stored is written as `\uXXXX`. */
function printable(key: string): string {
  return key.replace(/[\0\uD800-\uDFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A value still to be walked: its parent's step and its own key, its path written only if needed. */
interface Step {
  item: unknown;
  parent: Step | null;
  key: string;
  /** An object's property name, written with `printable` in a path. */
  named: boolean;
}

function pathOf(step: Step): string {
  const keys: string[] = [];
  for (let s: Step | null = step; s; s = s.parent) keys.push(s.named ? printable(s.key) : s.key);
  return keys.reverse().join('.');
}

/**
 * Every string in `value` (object keys included) that cannot be stored, by its dotted path under
 * `root` (`body.emails.0`), in the form of validation details. Walks with its own stack: a deeply
 * nested JSON body must not overflow the call stack. A path is written only for what is found:
 * writing one for every value cost 170 ms for a body of 90,000 keys.
 */
export function unstorableText(value: unknown, root: string): ErrorDetail[] {
  const found: ErrorDetail[] = [];
  const pending: Step[] = [{ item: value, parent: null, key: root, named: false }];
  while (pending.length > 0) {
    const step = pending.pop()!;
    const { item } = step;
    if (typeof item === 'string') {
      const message = textProblem(item);
      if (message) found.push({ path: pathOf(step), message });
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--)
        pending.push({ item: item[i], parent: step, key: `${i}`, named: false });
    } else if (typeof item === 'object' && item !== null) {
      const entries = Object.entries(item);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        const keyProblem = textProblem(key);
        const childStep = { item: child, parent: step, key, named: true };
        if (keyProblem) found.push({ path: pathOf(childStep), message: `its name ${keyProblem}` });
        pending.push(childStep);
      }
    }
  }
  return found;
}

export function unstorableTextError(details: ErrorDetail[]) {
  // Marks can be stored: said as what they are when they are all there is to say.
  const marksOnly = details.every((d) => d.message === MARKS_PROBLEM);
  return errors.validation(
    marksOnly
      ? 'The request contains text with more combining marks in a row than text may have'
      : 'The request contains text that cannot be stored',
    details,
  );
}

/**
 * Checks path parameters, the query string and a parsed (JSON) body before any schema validation or
 * handler sees them, for every route. A multipart body is not parsed yet at this point: the upload's
 * form reader applies the same rule to each part.
 */
export function registerStorableTextCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const details = [
      ...unstorableText(request.params, 'params'),
      ...unstorableText(request.query, 'querystring'),
      ...(storableBodies.has(request) ? [] : unstorableText(request.body, 'body')),
    ];
    if (details.length > 0) throw unstorableTextError(details);
  });
}

/**
 * Requests whose JSON body cannot hold text that cannot be stored, known from its bytes: valid UTF-8
 * encodes no surrogate, and JSON writes a NUL or a lone surrogate only as a `\u` escape (or a raw
 * NUL, which it refuses); a run of combining marks unescaped is in the body's text as in a value.
 * Their bodies are not walked again, string by string: a body of 90,000
 * keys cost 150-290 ms of the event loop there.
 */
const storableBodies = new WeakSet<object>();
const UNICODE_ESCAPE = Buffer.from('\\u');

export interface JsonBodyOptions {
  /** Counts the body's bytes against the rate limits; rejects (429) to refuse it unread. */
  countBody: (request: FastifyRequest, bytes: number) => Promise<void>;
  /** Most keys one object of a body may have: `MAX_JSON_MEMBERS` and an organization's custom fields. */
  maxObjectMembers: number;
}

/** What a content type parser calls back with (fastify does not export its type). */
type ParserDone = (error: Error | null, body?: unknown) => void;

/**
 * JSON bodies read as bytes and refused unless they are UTF-8: decoded as they came, invalid bytes
 * became U+FFFD and were stored as text the client never sent (an origin_id "bad\uFFFD\uFFFDutf").
 * A key that would poison the prototype (`__proto__`, `constructor.prototype`) is refused as a
 * validation problem: the body is valid JSON, so "not valid JSON" misled. Before any of it, the body's
 * size is counted against the rate limits (`countBody`), so that large bodies cannot be sent as
 * often as small ones.
 */
export function registerUtf8JsonParser(app: FastifyInstance, options: JsonBodyOptions): void {
  const { countBody, maxObjectMembers } = options;
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    // A route that takes no body (4.4's DELETE: "No body") reads an empty one as none: a client that
    // sends Content-Type: application/json on every request had its DELETE refused as "not valid JSON".
    if ((body as Buffer).length === 0 && request.routeOptions.schema?.body === undefined) {
      done(null, undefined);
      return;
    }
    // A body said to be in another charset is not read as UTF-8 as if it were.
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i
      .exec(request.headers['content-type'] ?? '')?.[1]
      ?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      done(errors.unsupportedMediaType(`A JSON body must be UTF-8, not ${charset}`), undefined);
      return;
    }
    const bytes = body as Buffer;
    countBody(request, bytes.length).then(
      () => parseUtf8Json(request, bytes, done),
      (refused: unknown) => done(refused as Error, undefined),
    );
  });

  function parseUtf8Json(request: FastifyRequest, bytes: Buffer, done: ParserDone): void {
    if (!isUtf8(bytes)) {
      done(
        errors.validation('The body is not valid UTF-8', [{ path: 'body', message: 'must be UTF-8 text' }]),
        undefined,
      );
      return;
    }
    const shape = jsonShapeOver(bytes, MAX_JSON_DEPTH, maxObjectMembers);
    if (shape === 'depth') {
      done(
        errors.validation(`The body is nested deeper than ${MAX_JSON_DEPTH} levels`, [
          { path: 'body', message: `must not nest arrays or objects deeper than ${MAX_JSON_DEPTH} levels` },
        ]),
        undefined,
      );
      return;
    }
    if (shape === 'members') {
      done(
        errors.validation(`The body has an object of more than ${maxObjectMembers} keys`, [
          { path: 'body', message: `must not have an object of more than ${maxObjectMembers} keys` },
        ]),
        undefined,
      );
      return;
    }
    const text = bytes.toString('utf8');
    // A run of marks is written as itself (an escaped one makes the body walked): one test of the text.
    if (!bytes.includes(0) && !bytes.includes(UNICODE_ESCAPE) && !hasLongMarkRun(text))
      storableBodies.add(request);
    // The default parser is synchronous; its type allows a promise.
    void parseJson(request, text, (error, value) => {
      // The default parser refuses a prototype key as it refuses broken JSON; valid JSON it
      // refused had such a key.
      if (error && (error as { code?: string }).code === 'FST_ERR_CTP_INVALID_JSON_BODY' && isJson(text)) {
        done(
          errors.validation('The body has a key that is refused', [
            { path: 'body', message: 'must not have a key named __proto__, or constructor with prototype' },
          ]),
          undefined,
        );
      } else done(error, value);
    });
  }
}

/**
 * Deepest nesting of arrays and objects a JSON body may have: ours go three deep (a record's custom
 * field holding a list). 500,000 nested brackets, under 1 MB and sent by anyone to any route, held
 * the event loop 3-6 s (parsed, checked for prototype keys, walked for unstorable text).
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Keys one object of a body may have beyond the custom fields an organization may have: a record
 * has six of its own. A body of 80,000 unknown keys (1 MB) cost ~150 ms of the event loop, parsed
 * and then checked key by key, where any other body of that size costs ~25 ms.
 */
export const MAX_JSON_MEMBERS = 10_000;

/**
 * Whether the JSON text nests deeper than `maxDepth`, or has an object of more than `maxMembers`
 * keys: one pass over the bytes, strings skipped, every key's colon counted against its object.
 */
function jsonShapeOver(bytes: Uint8Array, maxDepth: number, maxMembers: number): 'depth' | 'members' | null {
  // Keys so far of the object open at each depth (a colon outside strings belongs to the innermost
  // object); arrays take a slot too and count nothing.
  const members = new Uint32Array(maxDepth + 2);
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (inString) {
      if (byte === 0x5c)
        i++; // a backslash escapes the next byte
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > maxDepth) return 'depth';
      members[depth] = 0;
    } else if (byte === 0x5d || byte === 0x7d) depth--;
    else if (byte === 0x3a && ++members[depth]! > maxMembers) return 'members';
  }
  return null;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
