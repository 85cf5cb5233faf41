// Answers lost to a reset (docs/benchmarks/hostile-uploads.md, round 22). A request answered before
// its body is read (404 to an unknown route, 413 past the body limit, 401 to an upload without its
// key) closes its connection. Closed with the client's bytes unread, the kernel resets it, and a
// client still writing its body may never read the answer that was sent. Over a real socket to the
// app listening on 127.0.0.1, each probe is sent N times and the answers the client never read are
// counted, with what the server read of each connection and how long it stayed open.
//
// Clients: "after" writes its whole body (each write waited for) before it reads at all, as a
// client that reads its answer only once it has sent the request; "slow" writes 16 KiB pieces with a
// 2 ms pause and reads as it goes (a browser's upload, the dashboard's unsent-forms test).
//
//   npx tsx bench/early-answer-reset.ts
//   BENCH_ROOT=<another checkout>: its app (a before beside the after)
//   BENCH_N (default 20): sends of each probe; BENCH_SIZES (KiB, default 64,256,1024,4096,16384)
//   BENCH_CLIENTS=after,slow (default both); BENCH_ONLY: only the probes whose label holds it
import net from 'node:net';
import { CHECKOUT, startCheckoutApp } from './lib/checkout.ts';

const N = Number(process.env.BENCH_N ?? 20);
const SIZES = (process.env.BENCH_SIZES ?? '64,256,1024,4096,16384').split(',').map((k) => Number(k) * 1024);
const CLIENTS = (process.env.BENCH_CLIENTS ?? 'after,slow').split(',');
const ONLY = process.env.BENCH_ONLY;

const { app } = await startCheckoutApp();
const serverSockets: net.Socket[] = [];
app.server.on('connection', (socket: net.Socket) => serverSockets.push(socket));
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (typeof address !== 'object' || !address) throw new Error('no port');
const port = address.port;

interface Probe {
  label: string;
  head: (length: number) => string;
  /** The body's bytes (its declared length is its own). */
  body: (length: number) => Buffer;
}

const json = (length: number) => Buffer.from(`{"a":"${'x'.repeat(Math.max(0, length - 8))}"}`);
const PROBES: Probe[] = [
  {
    label: '404 unknown route (JSON)',
    head: (length) =>
      `POST /api/external/no-such-route/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`,
    body: json,
  },
  {
    label: '413 past the body limit (JSON)',
    // Declared past the limit whatever is sent: refused on its Content-Length, before any of it is read.
    head: () =>
      `POST /api/external/proposal/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n`,
    body: json,
  },
  {
    label: '401 upload without its key (multipart)',
    head: (length) =>
      `POST /api/external/proposal/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${length}\r\n\r\n`,
    body: (length) => {
      const start =
        '--b\r\nContent-Disposition: form-data; name="source_file"; filename="a.pdf"\r\n\r\n%PDF-1.4\n';
      const end = '\r\n--b--\r\n';
      return Buffer.concat([
        Buffer.from(start),
        Buffer.alloc(Math.max(0, length - start.length - end.length), 'x'),
        Buffer.from(end),
      ]);
    },
  },
];

interface Outcome {
  answered: boolean;
  status: string;
  written: number;
  serverRead: number;
  /** From the first byte written to the client's socket closed. */
  openMs: number;
  error?: string;
}

function send(probe: Probe, length: number, client: string): Promise<Outcome> {
  const body = probe.body(length);
  const before = serverSockets.length;
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let written = 0;
    let error: string | undefined;
    const onData = (chunk: Buffer) => received.push(chunk);
    if (client === 'slow') socket.on('data', onData);
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on('close', () => {
      const text = Buffer.concat(received).toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? '';
      const server = serverSockets[before];
      const settle = () =>
        resolve({
          answered: status !== '',
          status,
          written,
          serverRead: server?.bytesRead ?? 0,
          openMs: performance.now() - started,
          ...(error ? { error } : {}),
        });
      if (!server || server.destroyed) settle();
      else server.once('close', settle);
    });
    socket.once('connect', async () => {
      socket.write(probe.head(body.length));
      const piece = client === 'slow' ? 16 * 1024 : 64 * 1024;
      for (let at = 0; at < body.length && !error && !socket.destroyed; at += piece) {
        const chunk = body.subarray(at, at + piece);
        const ok = await new Promise<boolean>((done) => socket.write(chunk, (e) => done(!e)));
        if (!ok) break;
        written += chunk.length;
        if (client === 'slow') await new Promise((pause) => setTimeout(pause, 2));
      }
      // Now reads (the "after" client), then ends its side once the answer is in or the socket gone.
      if (client !== 'slow') socket.on('data', onData);
      const until = Date.now() + 30_000;
      while (!socket.destroyed && !received.join('').includes('\r\n\r\n') && Date.now() < until) {
        await new Promise((pause) => setTimeout(pause, 10));
      }
      if (!socket.destroyed) socket.end();
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);

console.log(
  `checkout ${CHECKOUT}; ${N} sends a probe; load ${(await import('node:os')).loadavg()[0]!.toFixed(1)}`,
);
console.log(
  '| client | probe | body KiB | answers lost | statuses | errors | server read MiB (median, max) | open ms (median, max) |',
);
console.log('|---|---|---:|---:|---|---|---:|---:|');
for (const client of CLIENTS) {
  for (const probe of PROBES) {
    if (ONLY && !probe.label.includes(ONLY)) continue;
    for (const size of SIZES) {
      const outcomes: Outcome[] = [];
      for (let i = 0; i < N; i++) outcomes.push(await send(probe, size, client));
      const lost = outcomes.filter((o) => !o.answered).length;
      const statuses = [...new Set(outcomes.map((o) => o.status || '-'))].join(',');
      const errors = [...new Set(outcomes.map((o) => o.error ?? '-'))].join(',');
      const read = outcomes.map((o) => o.serverRead);
      const open = outcomes.map((o) => o.openMs);
      console.log(
        `| ${client} | ${probe.label} | ${size / 1024} | ${lost} of ${N} | ${statuses} | ${errors} | ` +
          `${mib(median(read))}, ${mib(Math.max(...read))} | ${median(open).toFixed(0)}, ${Math.max(...open).toFixed(0)} |`,
      );
    }
  }
}
await app.close();
