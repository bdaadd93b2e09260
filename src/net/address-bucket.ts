/**
 * The unit a client address is counted in, for the fair-use budgets and for key-directory fetches alike.
 */
import ipaddr from 'ipaddr.js';

/**
 * The bucket an address is counted in: an IPv4 address itself (also when written IPv4-mapped, `::ffff:…`); an IPv6
 * address's /64 prefix (one host or household usually holds a whole /64, so counting per address would let it
 * rotate through 2^64 budgets); anything else (a label such as `unknown`) unchanged.
 * @returns e.g. `203.0.113.7` or `2001:db8:1:2::/64` (RFC 5952 text).
 */
export function addressBucket(address: string): string {
  // Per request: IPv4 (no colon) costs nothing; only IPv6 is parsed.
  if (!address.includes(':') || !ipaddr.IPv6.isValid(address)) return address;
  const v6 = ipaddr.IPv6.parse(address);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const parts = v6.parts.slice(0, 4).concat([0, 0, 0, 0]);
  return `${new ipaddr.IPv6(parts).toString()}/64`;
}
