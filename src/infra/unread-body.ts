// A request answered before its body was read through (a form posted after its session ended, a
// refused token, a record gone) is answered on a connection the server then closes (errors.ts). A
// browser still sending the body when the socket closes with bytes unread gets a reset, and shows
// its own error page instead of the answer (Chromium: "This site can't be reached"). A route a
// browser posts a file to says how much of such a body it reads to the end, discarding it, before
// answering; past that bound (or with no declared length) it is not read, as any other route's.
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Bytes of a body answered before it was read that are read to the end (discarded) first. */
    readsUnreadBodyUpTo?: number;
  }
}

/**
 * Reads what is left of the request's body and discards it, when the route reads such bodies and
 * the body's declared length is within its bound; true when the body has been read to its end.
 */
export async function discardUnreadBody(request: FastifyRequest): Promise<boolean> {
  const raw = request.raw;
  if (raw.complete) return true;
  const bound = request.routeOptions.config?.readsUnreadBodyUpTo;
  const declared = Number(raw.headers['content-length']);
  if (bound === undefined || !Number.isSafeInteger(declared) || declared > bound) return false;
  return readToEnd(raw);
}

/** Resolves when the stream has ended (true) or failed or closed before its end (false). */
function readToEnd(raw: IncomingMessage): Promise<boolean> {
  if (raw.readableEnded) return Promise.resolve(true);
  // A form parser piped from the request (multipart) stops taking it: the rest is only discarded.
  raw.unpipe();
  return new Promise((resolve) => {
    const settle = (ended: boolean) => {
      raw.off('end', onEnd);
      raw.off('error', onFailure);
      raw.off('close', onFailure);
      resolve(ended);
    };
    const onEnd = () => settle(true);
    const onFailure = () => settle(raw.complete);
    raw.on('end', onEnd);
    raw.on('error', onFailure);
    raw.on('close', onFailure);
    // Flowing with no 'data' listener of ours: what arrives is dropped as it is read.
    raw.resume();
  });
}
