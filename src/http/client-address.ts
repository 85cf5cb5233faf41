// The client as the limits by address count it (requests, failed keys, sign-in attempts). An IPv6
// client is its /64: one host is handed a whole /64 (a home line, any cloud server), so counted by
// its full address it had 2^64 of them, a fresh one per request, and no limit by address held.
import { isIPv6 } from 'node:net';
import type { FastifyRequest } from 'fastify';

/** IPv6 addresses are counted by this many leading bits (their network part). */
export const IPV6_PREFIX_BITS = 64;

/** `address` as the limits count it: an IPv4 address as it is, an IPv6 one as its /64. */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  // An IPv4 tail (…:a.b.c.d) is two groups; a zone (%eth0) none.
  const written = address
    .split('%')[0]!
    .replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a: string, b: string, c: string, d: string) =>
      [Number(a) * 256 + Number(b), Number(c) * 256 + Number(d)].map((n) => n.toString(16)).join(':'),
    );
  const [head = '', tail = ''] = written.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = written.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  const network = groups
    .slice(0, IPV6_PREFIX_BITS / 16)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':');
  return `${network}::/${IPV6_PREFIX_BITS}`;
}

/** The request's client, as the limits by address count it. */
export function clientAddress(request: FastifyRequest): string {
  return addressKey(request.ip);
}
