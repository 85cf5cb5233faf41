// Structured logs (pino through Fastify). Request logs carry the request id; no API key is ever
// written: headers are not logged, and the paths where a key could appear are redacted anyway. No
// personal data either: bodies are never logged, errors pass through `errorForLog`, and email
// addresses are cut out of logged URLs.
import type { FastifyServerOptions } from 'fastify';
import type { LogLevel } from './config.ts';
import { sqlstateOf } from './errors.ts';

export const REDACTED_PATHS = [
  'req.headers["x-apikey"]',
  'req.headers.authorization',
  'headers["x-apikey"]',
  'api_key',
  '*.api_key',
  'apiKey',
  '*.apiKey',
];

// Query strings are logged with the URL; a client that put its key there must not see it in logs.
const SECRET_QUERY = /([?&](?:api_?key|x-apikey|key|token)=)[^&#]*/gi;

// An author's email may be a client_id in a path or a value in a query string: a part between
// separators that holds an "@" (or "%40") is cut whole. Part by part, so each character is read once:
// one pattern for "a part around an @" read a 16,000-character part again from each of its
// characters (130 ms of the event loop for one request's log line).
const URL_PART = /[^/?&=#]+/g;
const AT = /@|%40/i;

export function redactUrl(url: string): string {
  return url
    .replace(SECRET_QUERY, '$1[redacted]')
    .replace(URL_PART, (part) => (AT.test(part) ? '[email]' : part));
}

// Values a message quotes: Postgres quotes the input it refused (`invalid input syntax for type
// integer: "Ada Lovelace"`), JSON.parse a slice of the body.
const QUOTED = /"[^"\n]*"/g;
// Read from where a run of its characters starts (the look-behind), so a long run is read once, not
// again from each of its characters.
const EMAIL = /(?<![^\s"'<>@])[^\s"'<>@]+@[^\s"'<>@]+/g;

function withoutValues(text: string): string {
  return text.replace(QUOTED, '"…"').replace(EMAIL, '[email]');
}

// What a database error may say about the schema (never about the row or the statement's parameters).
const DB_ERROR_FIELDS = [
  'severity',
  'routine',
  'schema',
  'table',
  'column',
  'constraint',
  'dataType',
] as const;

/**
 * An error as it is logged: its type, code, message and stack with quoted values and emails cut
 * out, and its cause. Never its other properties: a database error carries the statement's
 * parameters (PGlite's `params`, names and emails of group records among them), the offending row
 * (`detail`, `where`) and the statement itself.
 */
export interface LoggedError {
  type: string;
  message: string;
  stack: string;
  [field: string]: unknown;
}

export function errorForLog(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: '', stack: '' };
  const e = error as Error & Record<string, unknown>;
  const out: LoggedError = {
    type: e.name,
    message: withoutValues(e.message),
    stack: withoutValues(e.stack ?? ''),
  };
  if (typeof e.code === 'string') out.code = e.code;
  if (sqlstateOf(e)) {
    for (const field of DB_ERROR_FIELDS) if (typeof e[field] === 'string') out[field] = e[field];
  }
  if (e.cause !== undefined && depth < 3) out.cause = errorForLog(e.cause, depth + 1);
  return out;
}

interface LoggedRequest {
  method: string;
  url: string;
  ip?: string;
  hostname?: string;
  socket?: { remotePort?: number };
}

export function loggerOptions(
  level: LogLevel,
  stream?: NodeJS.WritableStream,
): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      err: (error: unknown) => errorForLog(error),
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.hostname,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
    ...(stream ? { stream } : {}),
  };
}
