// Which IP addresses lead into the user's own machine or network, or nowhere public: what a
// server-given URL (a video result, a redirect) may not reach unless the gateway itself is there.
// Node's own `net.BlockList` does the range matching (it also matches IPv4-mapped IPv6 against
// IPv4 rules); the IPv6 forms that embed an IPv4 address get the IPv4 rules under their prefix.
import { BlockList, isIP } from 'node:net';

/** IPv4 special-use ranges (RFC 6890 and its registry) that are not the public internet. */
const V4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the local machine on Linux and macOS
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking, used by some proxies and VPNs for fake addresses
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255
];

/** IPv6 ranges inside 2000::/3 (the only global unicast space) that are not the public internet. */
const V6: ReadonlyArray<readonly [string, number]> = [
  ['2001::', 23], // IETF protocol assignments, Teredo (2001::/32) among them
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
  ['5f00::', 16], // SRv6 segment identifiers
];

/** IPv6 /96 prefixes whose last 32 bits are an IPv4 address: mapped, compatible, NAT64. */
const EMBEDDING: ReadonlyArray<readonly [string, string]> = [
  ['::ffff:0:0', '::ffff:'],
  ['::', '::'],
  ['64:ff9b::', '64:ff9b::'],
];

function hex16(n: number): string {
  return (n & 0xffff).toString(16);
}

function build(): { special: BlockList; global: BlockList; embedding: BlockList } {
  const special = new BlockList();
  for (const [net, bits] of V4) {
    special.addSubnet(net, bits, 'ipv4');
    const [a = 0, b = 0, c = 0, d = 0] = net.split('.').map(Number);
    const hi = hex16((a << 8) | b);
    const lo = hex16((c << 8) | d);
    // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d).
    for (const [, head] of EMBEDDING) special.addSubnet(`${head}${hi}:${lo}`, 96 + bits, 'ipv6');
    special.addSubnet(`2002:${hi}:${lo}::`, 16 + bits, 'ipv6'); // 6to4
  }
  for (const [net, bits] of V6) special.addSubnet(net, bits, 'ipv6');
  const global = new BlockList();
  global.addSubnet('2000::', 3, 'ipv6');
  const embedding = new BlockList();
  for (const [prefix] of EMBEDDING) embedding.addSubnet(prefix, 96, 'ipv6');
  // RFC 8215's local-use NAT64 prefix is not embedding for this purpose: a local translator.
  return { special, global, embedding };
}

const LISTS = build();

/**
 * True when `ip` (an IPv4 or IPv6 address, brackets and a zone id allowed) is not a public
 * internet address: loopback, private, link-local, CGNAT, multicast, reserved, documentation,
 * benchmarking, unique-local, site- or link-local IPv6, and IPv6 forms that embed such an IPv4
 * address (mapped, compatible, NAT64, 6to4). False for a public address; undefined for a name.
 */
export function isSpecialAddress(ip: string): boolean | undefined {
  const bare = ip.replace(/^\[|\]$/g, '').split('%')[0] ?? '';
  const family = isIP(bare);
  if (family === 4) return LISTS.special.check(bare, 'ipv4');
  if (family !== 6) return undefined;
  if (LISTS.special.check(bare, 'ipv6')) return true;
  // An embedding form whose IPv4 address is public (a DNS64 answer for a public host) is public.
  if (LISTS.embedding.check(bare, 'ipv6')) return false;
  return !LISTS.global.check(bare, 'ipv6');
}

/**
 * True for a host name or address literal that leads into the user's machine or network:
 * `localhost` and `*.localhost` (with or without the final dot), and every address
 * {@link isSpecialAddress} names. Takes a WHATWG `URL.hostname`, which has already turned
 * `0x7f000001`, `2130706433` or `127.0.0.1.` into `127.0.0.1`. Another name is judged by what it
 * resolves to, at connect time (./pinnedLookup).
 */
export function isPrivateHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const name = h.endsWith('.') ? h.slice(0, -1) : h;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return isSpecialAddress(h) === true;
}
