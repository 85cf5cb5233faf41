// Where a webhook may be sent. An organization's admin types the URL, and the server, not the admin,
// makes the request: without a check, an admin could aim it at the loopback interface, the private
// network or a cloud metadata address (169.254.169.254) and use refmatch to reach what only the server
// can (server-side request forgery). So by default a delivery goes to public addresses only; a
// deployment whose receivers live on its own network says so with WEBHOOK_ALLOW_PRIVATE=true.
//
// The check is made on the addresses the connection really uses: the host name is resolved once, by
// the lookup the request connects with, so a name that resolves to a public address when saved and
// to a private one when sent (DNS rebinding) is refused too.
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';

// Ranges that are not the public internet (IANA special-purpose registries, RFC 6890 and successors).
const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback, and IPv4-compatible addresses (::7f00:1 is 127.0.0.1)
  ['64:ff9b::', 96], // NAT64's well-known prefix: an IPv4 address behind it, private ones too
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, 'ipv6');
}

/** Whether an IP address (v4 or v6, IPv4-mapped v6 read as its v4) is on the public internet. */
export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]!);
  const family = isIP(address);
  if (family === 0) return false;
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export const NOT_PUBLIC_MESSAGE =
  'The receiver is not on a public address (loopback, private or link-local); ' +
  'a server whose receivers are on its own network allows them with WEBHOOK_ALLOW_PRIVATE=true';

/** The error a refused destination raises, told apart from a receiver that cannot be reached. */
export class DestinationRefused extends Error {
  readonly code = 'EWEBHOOKDESTINATION';
  constructor() {
    super(NOT_PUBLIC_MESSAGE);
  }
}

/**
 * A URL's host when it is an IP literal or `localhost` that is not public, or null. Names are checked
 * when sent (they may resolve differently later); this lets the dashboard refuse the obvious at once.
 */
export function literalNonPublicHost(url: string): string | null {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return host;
  return isIP(host) !== 0 && !isPublicAddress(host) ? host : null;
}

/**
 * A lookup for http(s).request that resolves the name and refuses it when any of its addresses is not
 * public (one private address among public ones could be chosen by the connection).
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 4);
    if (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address))) {
      return callback(new DestinationRefused(), '', 4);
    }
    // The caller asked for one address or for all of them (happy eyeballs): answer in its form.
    if ((options as { all?: boolean }).all) {
      return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    }
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};
