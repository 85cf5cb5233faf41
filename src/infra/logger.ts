// Structured logs (pino through Fastify). Request logs carry the request id; no API key is ever
// written: headers are not logged, and the paths where a key could appear are redacted anyway.
import type { FastifyServerOptions } from 'fastify';
import type { LogLevel } from './config.ts';

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

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
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
