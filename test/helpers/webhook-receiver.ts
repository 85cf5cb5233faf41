// A real webhook receiver on loopback (node:http): records each request, answers as the test says
// (a status, a delay), and can go down and come back on the same port. Down, it keeps its port and
// drops every connection at once: a closed port could be taken meanwhile as the local port of some
// other connection (the suite's many database connections on server PostgreSQL), and listening
// on it again then failed, which hung a test until its timeout.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: {
    id: number;
    event: string;
    order: number;
    organization_id: number;
    occurred_at: string;
    data: Record<string, unknown>;
  };
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Requests answered so far (whatever the status). */
  attempts: number;
  /**
   * What the next requests get: a status (default 200) and a delay before answering; with
   * `stallBody`, the status line and headers at once and then a body that never ends; with
   * `floodBody`, the status line and headers and a body written without end as fast as the socket
   * takes it (what was written is counted in `flooded`).
   */
  respond: { status: number; delayMs: number; stallBody?: boolean; floodBody?: boolean };
  /** The bytes of flooded answers written so far, and the flooded answers whose connection closed. */
  flooded: { bytes: number; closed: number };
  close(): Promise<void>;
  /** Drops every connection, open and new, until comeBack(): a receiver that cannot be reached. */
  goDown(): void;
  comeBack(): void;
  /** Resolves once `predicate` holds for what was received; polls, no fixed sleep. */
  waitFor(predicate: (received: Received[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  let server: Server;
  let down = false;
  const r: Receiver = {
    url: '',
    port,
    received: [],
    attempts: 0,
    respond: { status: 200, delayMs: 0 },
    flooded: { bytes: 0, closed: 0 },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    goDown() {
      down = true;
      server.closeAllConnections();
    },
    comeBack() {
      down = false;
    },
    async waitFor(predicate, what, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(r.received)) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
  const listen = async (on: number) => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        r.attempts += 1;
        const { status, delayMs, stallBody, floodBody } = r.respond;
        if (floodBody) {
          res.writeHead(status, { 'content-type': 'text/plain' });
          const chunk = Buffer.alloc(64 * 1024, 'x');
          const pump = () => {
            while (!res.destroyed) {
              r.flooded.bytes += chunk.length;
              if (!res.write(chunk)) return;
            }
          };
          res.on('drain', pump);
          res.on('close', () => (r.flooded.closed += 1));
          pump();
          return;
        }
        if (stallBody) {
          res.writeHead(status, { 'content-type': 'text/plain' }).write('the first bytes of an answer');
          return;
        }
        setTimeout(() => {
          // An answer the client gave up waiting for is not a delivery.
          if (status >= 200 && status < 300 && !res.destroyed) {
            const body = Buffer.concat(chunks).toString('utf8');
            r.received.push({ headers: req.headers, body, json: JSON.parse(body) as Received['json'] });
          }
          if (!res.destroyed) res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
        }, delayMs).unref();
      });
    });
    server.on('connection', (socket) => {
      if (down) socket.destroy();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(on, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    r.port = (server.address() as AddressInfo).port;
    r.url = `http://127.0.0.1:${r.port}/hook`;
  };
  await listen(port);
  return r;
}
