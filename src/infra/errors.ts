// One error catalogue and one handler. Every error leaves the service as
// `{ "error": { "code", "message", "details"? } }` with its real HTTP status; a 5xx never shows internals.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { isDatabaseUnavailable } from './db/unavailable.ts';

export interface ErrorDetail {
  /** JSON path of the offending value, e.g. `/emails/0` or `body.name`. */
  path: string;
  message: string;
}

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    /** Response headers that belong to the error (Retry-After of a 429). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** The catalogue: each error the service can answer, with its stable code and HTTP status. */
export const errors = {
  validation: (message: string, details?: ErrorDetail[]) =>
    new AppError(400, 'validation_failed', message, details),
  invalidJson: (message = 'The request body is not valid JSON') => new AppError(400, 'invalid_json', message),
  missingApiKey: () =>
    new AppError(
      401,
      'missing_api_key',
      'An API key is required in the X-ApiKey header (the manuscript upload also accepts the api_key form field)',
    ),
  apiKeyFieldTooLate: (windowBytes: number) =>
    new AppError(
      401,
      'missing_api_key',
      'An API key is required in the X-ApiKey header, or as the api_key form field placed before the file ' +
        `and within the first ${windowBytes / 1024} KiB of the form`,
    ),
  invalidApiKey: () => new AppError(401, 'invalid_api_key', 'The API key is unknown or has been revoked'),
  conflictingApiKeys: () =>
    new AppError(
      401,
      'conflicting_api_keys',
      'The X-ApiKey header and the api_key form field name different keys',
    ),
  featureNotInPlan: (feature: string) =>
    new AppError(
      403,
      'feature_not_in_plan',
      `The organization's plan does not include the ${feature} feature`,
    ),
  forbidden: (message: string) => new AppError(403, 'forbidden', message),
  notFound: (what: string) => new AppError(404, 'not_found', `${what} was not found`),
  routeNotFound: (method: string, url: string) =>
    new AppError(404, 'route_not_found', `No route ${method} ${url.split('?')[0]}`),
  methodNotAllowed: (method: string, url: string, allowed: readonly string[]) =>
    new AppError(
      405,
      'method_not_allowed',
      `${url.split('?')[0]} does not answer ${method}; it answers ${allowed.join(', ')}`,
    ),
  conflict: (message: string) => new AppError(409, 'conflict', message),
  badUrl: () => new AppError(400, 'bad_url', 'The URL is not validly percent-encoded'),
  uriTooLong: (message = 'A path parameter is longer than the limit') =>
    new AppError(414, 'uri_too_long', message),
  malformedRequest: (message: string) => new AppError(400, 'malformed_request', message),
  requestTimeout: () =>
    new AppError(408, 'request_timeout', 'The request was not received completely in time'),
  expectationFailed: () =>
    new AppError(417, 'expectation_failed', 'The Expect header asks for something this server does not do'),
  headersTooLarge: () =>
    new AppError(431, 'headers_too_large', 'The request line and headers are larger than the limit'),
  methodNotImplemented: () =>
    new AppError(501, 'method_not_implemented', 'The request method is not one this server knows'),
  payloadTooLarge: (message = 'The request body is larger than the limit') =>
    new AppError(413, 'payload_too_large', message),
  unsupportedMediaType: (message: string) => new AppError(415, 'unsupported_media_type', message),
  rateLimited: (what: string, retryAfterSeconds: number) =>
    new AppError(429, 'rate_limited', `Too many ${what}; retry after ${retryAfterSeconds} s`, undefined, {
      'retry-after': String(retryAfterSeconds),
    }),
  unavailable: (message = 'The service is not ready') => new AppError(503, 'unavailable', message),
  internal: () => new AppError(500, 'internal_error', 'An unexpected error occurred'),
} as const;

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
  message?: string;
  params?: { missingProperty?: string; additionalProperty?: string };
}

function validationDetails(error: FastifyError): ErrorDetail[] {
  const context = (error as { validationContext?: string }).validationContext ?? 'body';
  const list = (error.validation ?? []) as AjvError[];
  const raw = list.map((v) => {
    let pointer = v.instancePath ?? '';
    if (v.params?.missingProperty) pointer = `${pointer}/${v.params.missingProperty}`;
    if (v.params?.additionalProperty) pointer = `${pointer}/${v.params.additionalProperty}`;
    const dotted = pointer.split('/').filter(Boolean).map(decodePointerPart).join('.');
    return { path: dotted ? `${context}.${dotted}` : context, message: v.message ?? 'is invalid' };
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
  const paths = [...byPath.keys()];
  const out: ErrorDetail[] = [];
  for (const [path, messages] of byPath) {
    if (paths.some((other) => other.startsWith(`${path}.`))) continue;
    out.push({ path, message: messages.length > 0 ? messages.join(' or ') : 'is invalid' });
  }
  return out;
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
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details && error.details.length > 0 ? { details: error.details } : {}),
    },
  };
}

/**
 * Errors Fastify raises before a route is found (a malformed percent-encoding, an over-long path
 * parameter): passed as the `frameworkErrors` option so they too leave in the one shape.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const appError = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? errors.uriTooLong() : errors.badUrl();
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
    // A request refused before its body was read (an unknown key, a limit) closes the connection:
    // keeping it alive would mean Node reading and discarding the rest of the body first.
    if (!request.raw.complete) void reply.header('connection', 'close');
    if (appError.headers) void reply.headers(appError.headers);
    void reply.status(appError.status).send(renderError(appError));
  });
  // Every route's path as a pattern, so that a known path asked with another method answers 405 with
  // the methods it has (an API client then knows its method is wrong, not its URL).
  const routes: Array<{ pattern: RegExp; methods: string[] }> = [];
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map(String);
    const pattern = routePattern(route.url);
    const known = routes.find((r) => r.pattern.source === pattern.source);
    if (known) known.methods.push(...methods);
    else routes.push({ pattern, methods });
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
    const appError = errors.routeNotFound(request.method, request.url);
    void reply.status(404).send(renderError(appError));
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
