import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';

/**
 * Addresses that are not public unicast addresses of the internet (IANA's special-purpose
 * registries): loopback, private, link-local, shared (carrier-grade NAT), multicast, reserved,
 * documentation, and the IPv6 ranges that carry an IPv4 address elsewhere (NAT64, 6to4). An
 * IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is checked as its IPv4 address.
 */
const notPublic = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  notPublic.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  // Unspecified, loopback and the deprecated IPv4-compatible addresses.
  ['::', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  notPublic.addSubnet(network, prefix, 'ipv6');

/** Whether a literal IPv4 or IPv6 address is a public unicast one. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return !notPublic.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Names that never lead outside the network the server is on: localhost (RFC 6761), a single
 * label (a name the resolver completes with its own domains: `metadata`, `router`), and the
 * domains of local networks (mDNS's `.local`, `.internal`, RFC 8375's `.home.arpa`).
 */
function isLocalName(hostname: string): boolean {
  const name = hostname.replace(/\.$/, '');
  return !name.includes('.') || /(^|\.)(localhost|local|internal|home\.arpa)$/.test(name);
}

/**
 * Why the server must not post to `endpoint`, or null when it may: an endpoint is an `https://`
 * URL whose host is a name that may lead outside, or a public address. Names are not resolved
 * here: what a name resolves to can change after any check, so the address is checked where the
 * server connects (`publicAddressesOnly`). With `allowPrivate` (PUSH_ALLOW_PRIVATE_ENDPOINTS=1),
 * `http://` and any host are allowed.
 */
export function endpointRefusal(endpoint: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'Must be a URL';
  }
  if (allowPrivate)
    return url.protocol === 'https:' || url.protocol === 'http:' ? null : 'Must be an https:// or http:// URL';
  if (url.protocol !== 'https:') return 'Must be an https:// URL';
  // The URL parser writes every form of an IPv4 address (`2130706433`, `0x7f.1`) as four numbers, and IPv6 in brackets.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(host) !== 0)
    return isPublicAddress(host) ? null : 'Must not be a loopback, private or link-local address';
  return isLocalName(host) ? 'Must not be a loopback, private or link-local address' : null;
}

/**
 * A DNS lookup for the connections to push services: a name that resolves to any address that is
 * not public fails before anything connects, so that a name pointed at the server's own network,
 * before or after it was subscribed, reaches nothing there.
 */
export const publicAddressesOnly: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const refused = addresses.find(({ address }) => !isPublicAddress(address));
    if (refused) {
      const failure: NodeJS.ErrnoException = new Error(
        `${hostname} resolves to ${refused.address}, which is not a public address`,
      );
      failure.code = 'ENOTPUBLIC';
      return callback(failure, '', 0);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};
