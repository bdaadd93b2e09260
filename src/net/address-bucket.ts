/**
 * The unit a client address is counted in, for the fair-use budgets and for key-directory fetches alike.
 */
import ipaddr from 'ipaddr.js';

/**
 * The IPv4 address an IPv6 address carries and names its one IPv4 host by, or `undefined`:
 * - IPv4-mapped (`::ffff:a.b.c.d`, RFC 4291 §2.5.5.2): the last 32 bits;
 * - 6to4 (`2002::/16`, RFC 3056 §2): the site's IPv4 address is bits 16–47, so a site holds 2^16 /64s (and more)
 *   under one IPv4 address;
 * - Teredo (`2001:0::/32`, RFC 4380 §4): the client's public (NAT) IPv4 address is the last 32 bits, each bit
 *   inverted. Bits 32–63 are the Teredo server's IPv4 address, shared by all of its clients: the /64 would put
 *   strangers in one bucket.
 */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = v6.parts;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  if (p[0] === 0x2002) return ipv4Of(p[1]!, p[2]!);
  if (p[0] === 0x2001 && p[1] === 0) return ipv4Of(p[6]! ^ 0xffff, p[7]! ^ 0xffff);
  return undefined;
}

/** The IPv4 address of two 16-bit groups, high first. */
function ipv4Of(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * The bucket an address is counted in: an IPv4 address itself, also when an IPv6 address carries it (IPv4-mapped,
 * 6to4 and Teredo: see {@link embeddedIPv4}), so that one IPv4 host gets one budget however it writes its address;
 * any other IPv6 address's /64 prefix (one host or household usually holds a whole /64, so counting per address
 * would let it rotate through 2^64 budgets); anything else (a label such as `unknown`) unchanged.
 * @returns e.g. `203.0.113.7` or `2001:db8:1:2::/64` (RFC 5952 text).
 */
export function addressBucket(address: string): string {
  // Per request: IPv4 (no colon) costs nothing; only IPv6 is parsed.
  if (!address.includes(':') || !ipaddr.IPv6.isValid(address)) return address;
  const v6 = ipaddr.IPv6.parse(address);
  const v4 = embeddedIPv4(v6);
  if (v4 !== undefined) return v4.toString();
  const parts = v6.parts.slice(0, 4).concat([0, 0, 0, 0]);
  return `${new ipaddr.IPv6(parts).toString()}/64`;
}
