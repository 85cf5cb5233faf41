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

export function loggerOptions(
  level: LogLevel,
  stream?: NodeJS.WritableStream,
): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...(stream ? { stream } : {}),
  };
}
