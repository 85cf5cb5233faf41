// Answers to requests that never reach a route because they are not valid HTTP, in the one error
// shape: Node's HTTP parser rejects them (Fastify's `clientErrorHandler`, which writes to the raw
// socket), Node answers them itself (an `Expect` other than 100-continue, a missing Host), or they
// are valid but longer than we accept (a URL over MAX_URL_BYTES).
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { errors, renderError, type AppError } from './errors.ts';
import { closeLingering } from './unread-body.ts';

/** Longest request target (path and query) accepted; longer ones answer 414. */
export const MAX_URL_BYTES = 8 * 1024;

/**
 * Node's options: we answer a missing Host ourselves (Node would send a 400 with no body). The
 * request timeout is given here, when the server is made: set afterwards (Fastify's own option),
 * Node 20 never enforced it on a body still arriving. Requests are checked against it four times a
 * timeout (Node's default, every 30 s, let a short timeout run on for half a minute).
 */
export function httpServerOptions(requestTimeoutMs: number): http.ServerOptions {
  return {
    requireHostHeader: false,
    requestTimeout: requestTimeoutMs,
    connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(requestTimeoutMs / 4))),
  };
}

interface ParserError extends Error {
  code?: string;
  reason?: string;
  /** The bytes the parser was reading when it failed (typed loosely by Fastify). */
  rawPacket?: unknown;
}

/**
 * Node's header limit (16 KiB for the request line and headers together) fails a request before
 * Fastify sees it, so a URL longer than that arrives here as a header overflow. The bytes the parser
 * was reading tell which it was: the start of a request whose first line is already over the URL
 * limit is a long URL (414); anything else is too many or too large headers (431).
 */
function overflowError(rawPacket: unknown): AppError {
  const start = Buffer.isBuffer(rawPacket)
    ? rawPacket.subarray(0, MAX_URL_BYTES + 32).toString('latin1')
    : '';
  const requestLine = /^[A-Z]+ [^\r\n]*/.exec(start)?.[0];
  if (requestLine !== undefined && requestLine.length > MAX_URL_BYTES) {
    return errors.uriTooLong(`The URL is longer than ${MAX_URL_BYTES} bytes`);
  }
  return errors.headersTooLarge();
}

/**
 * What was wrong with the Content-Length, in words: llhttp gives one code to a value that is not a
 * number and to one sent beside Transfer-Encoding (a request smuggling's shape), told apart by its reason.
 */
function contentLengthFault(error: ParserError): string {
  if (/transfer-encoding/i.test(error.reason ?? '')) {
    return 'The Content-Length header is sent together with Transfer-Encoding: send one of the two';
  }
  if (error.code === 'HPE_UNEXPECTED_CONTENT_LENGTH')
    return 'The Content-Length header is sent more than once';
  return 'The Content-Length header is not a number, or is larger than any body';
}

function clientErrorOf(error: ParserError): AppError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return errors.requestTimeout();
    case 'HPE_HEADER_OVERFLOW':
      return overflowError(error.rawPacket);
    case 'HPE_INVALID_METHOD':
      return errors.methodNotImplemented();
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return errors.malformedRequest(contentLengthFault(error));
    default:
      return errors.malformedRequest(`The request is not valid HTTP/1.1 (${error.reason ?? 'parse error'})`);
  }
}

function rawResponse(error: AppError): string {
  const body = JSON.stringify(renderError(error));
  return (
    `HTTP/1.1 ${error.status} ${http.STATUS_CODES[error.status]}\r\n` +
    `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `Connection: close\r\n\r\n${body}`
  );
}

/** Fastify's `clientErrorHandler` option; `this` is the Fastify instance. */
export function clientErrorHandler(this: FastifyInstance, error: ParserError, socket: Socket): void {
  // A reset connection has no one to answer; a socket already answered (the parser may report more
  // of the same bad request) gets nothing more.
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const appError = clientErrorOf(error);
  this.log.info(
    { code: appError.code, status: appError.status, parserCode: error.code },
    'malformed request',
  );
  // Closed lingering, bounded: a client sending on (half-open) held the socket as long as it sent,
  // every byte read by a parser that had failed; closed at once, a reset could lose the answer.
  socket.write(rawResponse(appError));
  closeLingering(socket);
}

/** The most characters a multipart boundary may have (RFC 2046 5.1.1: 1 to 70). */
export const MAX_BOUNDARY_CHARS = 70;

/**
 * Why a multipart Content-Type cannot delimit a body, or null. Every multipart route's parser
 * (busboy) needs a boundary: none failed the upload with the parser's own words, and one of more than
 * 256 characters made it throw "The needle cannot have a length bigger than 256", which the
 * dashboard's import answered as a 500. Checked here, before any route's parser, for all of them.
 */
export function multipartBoundaryProblem(contentType: string): string | null {
  const [type = '', ...parameters] = contentType.split(';');
  if (!type.trim().toLowerCase().startsWith('multipart/')) return null;
  const boundaries = parameters
    .map((p) => /^\s*boundary\s*=\s*(?:"([^"]*)"|([^\s"]*))\s*$/i.exec(p))
    .filter((m) => m !== null)
    .map((m) => m[1] ?? m[2] ?? '');
  const say = `A multipart body needs one boundary of 1 to ${MAX_BOUNDARY_CHARS} characters in its Content-Type (multipart/form-data; boundary=...)`;
  if (boundaries.length !== 1)
    return `${say}: ${boundaries.length === 0 ? 'none was given' : 'several were'}`;
  const { length } = boundaries[0]!;
  if (length === 0) return `${say}: it is empty`;
  if (length > MAX_BOUNDARY_CHARS) return `${say}: it has ${length}`;
  return null;
}

/** Registers the answers Node would otherwise give without a body, and the URL length limit. */
export function registerMalformedRequestHandling(app: FastifyInstance): void {
  // With a listener, Node leaves `Expect` values other than 100-continue to us instead of an empty 417.
  app.server.on('checkExpectation', (_request: http.IncomingMessage, response: http.ServerResponse) => {
    const body = JSON.stringify(renderError(errors.expectationFailed()));
    response.writeHead(417, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    response.end(body);
  });
  app.addHook('onRequest', async (request) => {
    if (Buffer.byteLength(request.url) > MAX_URL_BYTES) {
      throw errors.uriTooLong(`The URL is longer than ${MAX_URL_BYTES} bytes`);
    }
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      throw errors.malformedRequest('An HTTP/1.1 request must carry a Host header');
    }
    // No body is decoded (gzip and the like): read as it came, a compressed body was "not valid
    // JSON", and one that merely said so was read as plain text. Refused as HTTP says (415).
    const coding = request.headers['content-encoding']?.trim().toLowerCase();
    if (coding && coding !== 'identity') {
      throw errors.unsupportedMediaType(
        `Content-Encoding ${coding} is not supported: send the body uncompressed`,
      );
    }
    const contentType = request.headers['content-type'];
    const boundaryProblem = contentType === undefined ? null : multipartBoundaryProblem(contentType);
    if (boundaryProblem !== null) throw errors.malformedRequest(boundaryProblem);
  });
}
