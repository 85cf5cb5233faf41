// One error catalogue and one handler. Every error leaves the service as
// `{ "error": { "code", "message", "details"? } }` with its real HTTP status; a 5xx never shows internals.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { isDatabaseUnavailable } from './db/unavailable.ts';
import { discardUnreadBody, lingerWhenClosed } from './unread-body.ts';
import { AppError, errors, MAX_ERROR_DETAILS, type ErrorDetail } from './app-error.ts';

export { AppError, errors, MAX_ERROR_DETAILS, type ErrorDetail } from './app-error.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, by path (one entry a path, however its parameters are named), with its methods. */
    routeTable: ReadonlyArray<{ readonly url: string; readonly methods: readonly string[] }>;
  }
}

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
    }),
  },
  { $id: 'ErrorBody', description: 'Every error the service answers has this shape.' },
);
export type ErrorBody = Static<typeof ErrorBody>;

/** The SQLSTATE of an error the database raised (both drivers give `code` and `severity`), else null. */
export function sqlstateOf(error: unknown): string | null {
  const e = error as { code?: unknown; severity?: unknown } | null;
  return typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && typeof e.severity === 'string'
    ? e.code
    : null;
}

/**
 * Postgres errors that are the caller's fault (by SQLSTATE), or a database out of reach (503); else a
 * 500. Class 22 ("data exception") is a value the database refused: its text, form or size. Input is
 * checked before it reaches SQL, so one of these means a check is missing; the caller still gets a
 * 400 and the error is logged (at warn) with its SQLSTATE for us to find it.
 */
function fromPostgres(error: unknown): AppError | null {
  const code = sqlstateOf(error);
  if (code === null)
    return isDatabaseUnavailable(error) ? errors.unavailable('The database is not available') : null;
  switch (code) {
    case '23505':
      return errors.conflict('The resource already exists');
    case '22021':
    case '22P05':
      return errors.validation('A value contains characters that cannot be stored (NUL or invalid Unicode)');
    case '22001':
    case '54000':
      return errors.validation('A value is longer than its field can store');
    default:
      break;
  }
  if (code.startsWith('22')) return errors.validation('A value has the wrong form for its field');
  return isDatabaseUnavailable(error) ? errors.unavailable('The database is not available') : null;
}

interface AjvError {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: {
    missingProperty?: string;
    additionalProperty?: string;
    pattern?: string;
    allowedValue?: unknown;
    allowedValues?: unknown[];
  };
}

/**
 * ajv's words for a value outside a fixed set say neither the value allowed nor the set ("must be
 * equal to constant", one per branch of a union of literals): they name them instead, which a
 * union's details then join as one list ("must be one of \"score\", \"name\"").
 */
function allowedMessage(v: AjvError): string | undefined {
  if (v.keyword === 'const') return `must be ${JSON.stringify(v.params?.allowedValue)}`;
  if (v.keyword === 'enum' && v.params?.allowedValues) {
    return `must be one of ${v.params.allowedValues.map((a) => JSON.stringify(a)).join(', ')}`;
  }
  return undefined;
}

/**
 * A string schema's pattern for "holds a character that is not a space". Its error, which ajv words
 * 'must match pattern "\S"', is reported as 'must not be blank'.
 */
export const NOT_BLANK = '\\S';

function validationDetails(error: FastifyError): ErrorDetail[] {
  const context = (error as { validationContext?: string }).validationContext ?? 'body';
  const list = (error.validation ?? []) as AjvError[];
  const raw = list.map((v) => {
    let pointer = v.instancePath ?? '';
    if (v.params?.missingProperty) pointer = `${pointer}/${v.params.missingProperty}`;
    if (v.params?.additionalProperty) pointer = `${pointer}/${v.params.additionalProperty}`;
    const dotted = pointer.split('/').filter(Boolean).map(decodePointerPart).join('.');
    const message =
      v.keyword === 'pattern' && v.params?.pattern === NOT_BLANK
        ? 'must not be blank'
        : (allowedMessage(v) ?? v.message);
    return { path: dotted ? `${context}.${dotted}` : context, message: message ?? 'is invalid' };
  });
  return collapseAlternatives(raw);
}

/**
 * A nullable or union schema (anyOf) reports one error per branch plus "must match a schema in
 * anyOf". Collapse them to one detail per path ("must be array or must be null"), and drop a path's
 * own detail when a deeper path under it says more precisely what is wrong.
 */
function collapseAlternatives(details: ErrorDetail[]): ErrorDetail[] {
  const byPath = new Map<string, string[]>();
  for (const d of details) {
    if (d.message === 'must match a schema in anyOf') {
      if (!byPath.has(d.path)) byPath.set(d.path, []);
      continue;
    }
    const messages = byPath.get(d.path) ?? [];
    if (!messages.includes(d.message)) messages.push(d.message);
    byPath.set(d.path, messages);
  }
  // Every path that has a deeper one under it, in one pass over the paths (comparing each path with
  // every other was quadratic: 20,000 wrong items of one array held the server for 11 s).
  const withDeeper = new Set<string>();
  for (const path of byPath.keys()) {
    for (let dot = path.indexOf('.'); dot >= 0; dot = path.indexOf('.', dot + 1)) {
      withDeeper.add(path.slice(0, dot));
    }
  }
  const out: ErrorDetail[] = [];
  for (const [path, messages] of byPath) {
    if (withDeeper.has(path)) continue;
    out.push({ path, message: alternativesMessage(messages) });
  }
  return out;
}

/**
 * One message for a path's alternatives. A choice among fixed values (an anyOf of consts, which
 * TypeBox makes of a union of literals) reads as the one list of those values ('must be one of "a",
 * "b"'), where joining each branch's message repeated 'must be' once per value.
 */
function alternativesMessage(messages: string[]): string {
  if (messages.length === 0) return 'is invalid';
  const values = messages.map((m) => /^must be (".*")$/.exec(m)?.[1]);
  if (messages.length > 1 && values.every((v) => v !== undefined))
    return `must be one of ${values.join(', ')}`;
  return messages.join(' or ');
}

function decodePointerPart(part: string): string {
  return part.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Converts anything thrown into the AppError that will be sent. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const fe = error as FastifyError & { code?: string };
  if (fe && Array.isArray(fe.validation)) {
    return errors.validation('The request is not valid', validationDetails(fe));
  }
  const pg = fromPostgres(fe);
  if (pg) return pg;
  switch (fe?.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return errors.invalidJson();
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return errors.payloadTooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return errors.unsupportedMediaType('The request content type is not supported by this route');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return errors.validation('The Content-Length header does not match the body');
    default:
      break;
  }
  // SyntaxError from a JSON body that passed content-type checks.
  if (fe instanceof SyntaxError) return errors.invalidJson();
  const status = typeof fe?.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    return new AppError(status, 'bad_request', fe.message || 'The request could not be processed');
  }
  return errors.internal();
}

export function renderError(error: AppError): ErrorBody {
  const details = error.details ?? [];
  // Past MAX_ERROR_DETAILS the answer lists the first and says how many there were.
  const shown = details.length > MAX_ERROR_DETAILS ? details.slice(0, MAX_ERROR_DETAILS) : details;
  const message =
    shown.length < details.length
      ? `${error.message} (the first ${MAX_ERROR_DETAILS} of ${details.length} problems)`
      : error.message;
  return { error: { code: error.code, message, ...(shown.length > 0 ? { details: shown } : {}) } };
}

/**
 * Errors Fastify raises before a route is found (a malformed percent-encoding, an over-long path
 * parameter), as the catalogue's: the `frameworkErrors` option (app.ts) sends them in the one shape,
 * or as a page under /dashboard/.
 */
export function frameworkError(error: FastifyError): AppError {
  return error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? errors.uriTooLong() : errors.badUrl();
}

/** An error in the one JSON shape, with its status and headers, from outside the error handler. */
export function sendError(reply: FastifyReply, appError: AppError): void {
  if (appError.headers) void reply.headers(appError.headers);
  void reply.status(appError.status).send(renderError(appError));
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const appError = toAppError(error);
    // The log line names the error's code and the route (the request id is bound to request.log);
    // `err` goes through the logger's serializer, which keeps no parameters or values (logger.ts).
    const line = { code: appError.code, status: appError.status, route: request.routeOptions.url };
    if (appError.status >= 500) request.log.error({ ...line, err: error }, 'request failed');
    else if (sqlstateOf(error)) request.log.warn({ ...line, err: error }, 'request refused by the database');
    else request.log.info(line, 'request rejected');
    sendError(reply, appError);
  });
  // A request answered before its body was read (an unknown key, a limit, an unknown route) closes
  // the connection: kept alive, Node would read and discard the rest of the body first, however long
  // (a 404 to a 1 GB POST read 48 MB in 15 s and went on, until the request timeout). A route a
  // browser posts files to reads such a body to its end first, within its bound; any other closes
  // lingering, reading what is still sent for a bounded while, so that the answer is not lost to a
  // reset (unread-body.ts).
  app.addHook('onSend', async (request, reply) => {
    if (await discardUnreadBody(request)) return;
    void reply.header('connection', 'close');
    lingerWhenClosed(request.raw.socket);
  });
  // Every route's path as a pattern, so that a known path asked with another method answers 405 with
  // the methods it has (an API client then knows its method is wrong, not its URL). The same list is
  // the app's route table (`app.routeTable`): what the tenant-isolation test walks, so that a route
  // added later is classified before it ships.
  const routes: Array<{ url: string; pattern: RegExp; methods: string[] }> = [];
  app.decorate('routeTable', routes);
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map(String);
    const pattern = routePattern(route.url);
    const known = routes.find((r) => r.pattern.source === pattern.source);
    if (known) known.methods.push(...methods);
    else routes.push({ url: route.url, pattern, methods });
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = new Set(routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods));
    allowed.delete('HEAD');
    if (allowed.size > 0 && !allowed.has(request.method)) {
      const list = [...allowed].sort();
      const appError = errors.methodNotAllowed(request.method, path, list);
      void reply.status(405).header('allow', list.join(', ')).send(renderError(appError));
      return;
    }
    sendError(reply, errors.routeNotFound(request.method, request.url));
  });
}

/** `/a/:id/b/*` as a RegExp over a request path, with the router's tolerance of a trailing slash. */
function routePattern(url: string): RegExp {
  const body = url
    .replace(/\/+$/, '')
    .split('/')
    .map((part) => {
      if (part === '*') return '.*';
      if (part.startsWith(':')) return '[^/]+';
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${body}/*$`);
}
