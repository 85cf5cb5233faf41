// A request answered before its body was read through (a form posted after its session ended, a
// refused token, a record gone) is answered on a connection the server then closes (errors.ts). A
// browser still sending the body when the socket closes with bytes unread gets a reset, and shows
// its own error page instead of the answer (Chromium: "This site can't be reached"). A route a
// browser posts a file to says how much of such a body it reads to the end, discarding it, before
// answering; past that bound (or with no declared length) it is not read, as any other route's.
//
// Closed at once with the client's bytes unread, a connection is reset by the kernel, and the reset
// can reach a client still writing before it has read the answer, which it then never sees (nginx's
// `lingering_close`): 10 of 10 answers lost to a client writing 4 MiB before it reads (round 22,
// docs/benchmarks/hostile-uploads.md). Such a connection is closed lingering: the answer is sent and
// the server's side ended (FIN), then what the client still sends is read and dropped until it ends
// its side, for at most LINGER_BYTES and LINGER_MS, however it trickles; then the socket is closed.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
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

/** The most of a body still arriving that a connection answered before reading it reads (dropping it) before it closes. */
export const LINGER_BYTES = 4 * 1024 * 1024;
/** The longest such a connection stays open after its answer, however slowly the rest arrives. */
export const LINGER_MS = 3_000;

/**
 * Has the connection, when Node closes it once the answer is written (`destroySoon`, for an answer
 * that says `connection: close`), close lingering instead (closeLingering).
 */
export function lingerWhenClosed(socket: Socket): void {
  socket.destroySoon = () => closeLingering(socket);
}

/**
 * Ends the server's side of the connection after what was written to it, then reads and drops what
 * the client still sends until the client ends its side, LINGER_BYTES more were read or LINGER_MS
 * passed, and closes it (above).
 */
export function closeLingering(socket: Socket): void {
  if (socket.destroyed) return;
  if (socket.readableEnded) {
    // Nothing more can come: closed as Node does, once the answer is written.
    socket.end(() => socket.destroy());
    return;
  }
  socket.end();
  const from = socket.bytesRead;
  const close = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(close, LINGER_MS);
  // The HTTP parser's listener goes: nothing more on this connection is a request. Ours, once added,
  // takes the socket's reads from the parser (Node's http server), so that they are counted here.
  socket.removeAllListeners('data');
  socket.on('data', () => {
    if (socket.bytesRead - from > LINGER_BYTES) close();
  });
  socket.once('end', close);
  socket.once('close', () => clearTimeout(timer));
  // Reading again. The http server reads a socket from its handle (its parser consumes it, and
  // stops it while a request's body is not taken); our listener took the reads back to the stream,
  // whose own state still says it is reading. Started as the server starts it (onSocketResume).
  const handle = (socket as Socket & { _handle?: { reading?: boolean; readStart?: () => number } })._handle;
  if (handle?.readStart && !handle.reading) {
    handle.reading = true;
    handle.readStart();
  }
  socket.resume();
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
