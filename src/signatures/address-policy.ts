/**
 * Which network addresses a key-directory fetch may connect to. The directory URL is chosen by whoever
 * sends the request, so it must not reach internal services (SSRF: protocol §"Server-Side Request Forgery").
 * Allow-list: only globally routable unicast; everything `ipaddr.js` classifies otherwise (private, loopback,
 * link-local, multicast, unspecified, broadcast, carrier-grade NAT, unique-local, reserved, documentation,
 * 6to4/Teredo/NAT64 embeddings, …) is refused. IPv4-mapped IPv6 is judged as the IPv4 address it carries.
 * Portable: no Node-only modules.
 */
import ipaddr from 'ipaddr.js';
import { addressBucket } from '../net/address-bucket.js';

/** How an address was judged. */
export type AddressVerdict =
  | { allowed: true }
  | {
      allowed: false;
      /** The `ipaddr.js` range name, e.g. `loopback`, `private`, `linkLocal`. */
      range: string;
      reason: string;
    };

/**
 * Judges one literal IP address.
 * @param address an IPv4 or IPv6 literal (no brackets, no zone).
 * @param allowLoopback also allow loopback (127.0.0.0/8, ::1): `KEY_DIRECTORY_ALLOW_INSECURE`, tests only.
 */
export function judgeAddress(address: string, allowLoopback = false): AddressVerdict {
  // Only canonical forms: the URL parser and DNS produce them; `1.2.3`-style shorthands are refused.
  if (!ipaddr.IPv4.isValidFourPartDecimal(address) && !ipaddr.IPv6.isValid(address))
    return { allowed: false, range: 'invalid', reason: `${address} is not an IP address` };
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const range = parsed.range();
  if (range === 'unicast') return { allowed: true };
  if (range === 'loopback' && allowLoopback) return { allowed: true };
  return { allowed: false, range, reason: `${address} is a ${range} address` };
}

/** The unit a client address is charged as for directory fetches: its rate-limit bucket (an IPv6 /64). */
export const clientBucket: (clientAddress: string) => string = addressBucket;
