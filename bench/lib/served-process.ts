// What the benches that start a real `refmatch serve` process share: a free port, and the
// environment of a server that measures the service alone (loopback, warnings only, no demo corpus,
// no rate limits).
import net from 'node:net';

/** A TCP port free on loopback now (the kernel's choice). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The environment of a bench's server on `port`; the caller adds its database and settings. */
export function benchServerEnv(port: number): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    REFMATCH_DEMO: 'false',
    RATE_LIMIT_PER_KEY: '0',
    RATE_LIMIT_PER_ADDRESS: '0',
  };
}
