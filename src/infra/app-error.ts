// The error catalogue: each error the service can answer, with its stable code and HTTP status. Kept
// apart from its handler (errors.ts, which needs the schema library and Fastify's types) so that the
// command declarations, which the CLI loads to answer --help, can throw these cheaply.
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

  /**
   * The user-written values its message names (a group's name, an email), as they stand in it. The
   * API answers the message as it is; a page showing it in a sentence isolates them for direction
   * (the dashboard's `refusalText`), which it cannot tell from the rest of the message otherwise.
   */
  values: readonly string[] = [];

  /** This error, its message naming `values` (`this.values`). */
  naming(...values: string[]): this {
    this.values = values;
    return this;
  }
}

/**
 * The most problems one answer lists (errors.ts renderError): enough for any real form or body, and a
 * body of 100,000 wrong items no longer answers with megabytes of details (its message says how many
 * there were).
 */
export const MAX_ERROR_DETAILS = 100;

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
  /**
   * A create that would take the organization past one of its caps (src/organizations/limits.ts):
   * 409, as the same request succeeds once the organization holds fewer (docs/api.md, Limits).
   */
  limitReached: (limit: string, value: number, message: string) =>
    new AppError(409, 'limit_reached', message, [{ path: `limits.${limit}`, message: String(value) }]),
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
  /** Refused for the work in progress (InFlightGate): 503 with the seconds to wait. */
  busy: (message: string, retryAfterSeconds: number) =>
    new AppError(503, 'unavailable', message, undefined, { 'retry-after': String(retryAfterSeconds) }),
  internal: () => new AppError(500, 'internal_error', 'An unexpected error occurred'),
} as const;
