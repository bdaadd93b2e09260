/**
 * The client-address step: who is asking, as far as the budgets are concerned.
 *
 * Without trusted proxies the client is the socket peer, whatever the request says. With trusted proxies
 * (`TRUST_PROXY`) the forwarding header is read from the right, skipping trusted proxies only (proxy-addr's
 * algorithm), so a client can prepend any addresses it likes without choosing the one that is used.
 * Runtime-agnostic: proxy-addr and ipaddr.js are plain JavaScript; proxy-addr gets a request-like shim.
 */
import type { RequestHeaders, Step } from './step.js';
import ipaddr from 'ipaddr.js';
import proxyAddr from 'proxy-addr';

/**
 * Which peers are trusted proxies; structurally the same as the server configuration's `TrustProxy`.
 * `hops`: trust the nearest `hops` proxies. `list`: addresses, CIDRs or proxy-addr names
 * (`loopback`, `linklocal`, `uniquelocal`).
 */
export type TrustProxySetting = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'list'; entries: string[] };

/**
 * The header the trusted proxies write. Only one is read: a proxy that appends to `X-Forwarded-For` passes a
 * client's own `Forwarded` header through untouched (and the other way round), so reading both would let the
 * client choose.
 */
export type ForwardingHeader = 'x-forwarded-for' | 'forwarded';

/** Stand-in for an address that is not an IP address (an obfuscated `Forwarded` node, `unknown`, garbage). */
const NOT_AN_ADDRESS = 'unknown';

/** A dotted-quad IPv4 address in canonical form: four decimal octets 0–255 without leading zeros. */
const CANONICAL_IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * Parses an IP address strictly: dotted-quad IPv4 (not `127.1` or `0x7f.1`) or IPv6; an IPv4-mapped IPv6
 * address becomes its IPv4 address.
 * @returns the address in canonical form (RFC 5952 for IPv6), or `undefined` when it is not an IP address.
 */
export function canonicalAddress(text: string): string | undefined {
  // The common case, a peer address already in canonical dotted-quad form, costs one regular expression.
  if (CANONICAL_IPV4.test(text)) return text;
  const value = text.trim();
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  if (ipaddr.IPv4.isValidFourPartDecimal(value)) parsed = ipaddr.IPv4.parse(value);
  else if (ipaddr.IPv6.isValid(value)) {
    const v6 = ipaddr.IPv6.parse(value);
    parsed = v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
  } else return undefined;
  return parsed.toString();
}

/**
 * The `for=` nodes of an RFC 7239 `Forwarded` header, left to right, each reduced to its address: quotes,
 * IPv6 brackets and ports removed. A node that is not an IP address (`unknown`, `_hidden`) is kept as `unknown`.
 */
export function forwardedForNodes(header: string): string[] {
  const nodes: string[] = [];
  for (const element of splitOutsideQuotes(header, ',')) {
    for (const pair of splitOutsideQuotes(element, ';')) {
      const eq = pair.indexOf('=');
      if (eq < 0 || pair.slice(0, eq).trim().toLowerCase() !== 'for') continue;
      let node = pair.slice(eq + 1).trim();
      if (node.startsWith('"') && node.endsWith('"') && node.length >= 2) node = node.slice(1, -1).replace(/\\(.)/g, '$1');
      const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(node);
      if (bracketed) node = bracketed[1]!;
      else if (/^[\d.]+:\d+$/.test(node)) node = node.slice(0, node.lastIndexOf(':'));
      nodes.push(canonicalAddress(node) ?? NOT_AN_ADDRESS);
    }
  }
  return nodes;
}

/** Splits on `separator` except inside double-quoted strings (with backslash escapes), as RFC 7239 §4 requires. */
export function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (!quoted && c === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** A compiled trust function: `(address, hopIndex) → trusted?`, hop 0 being the socket peer. */
type TrustFunction = (address: string, hop: number) => boolean;

/**
 * Compiles a trust setting once, at start-up.
 * @returns the trust function, or `undefined` when no proxy is trusted.
 * @throws TypeError from proxy-addr on a malformed address or CIDR (the configuration validates these first).
 */
export function compileTrust(setting: TrustProxySetting): TrustFunction | undefined {
  if (setting.kind === 'none' || (setting.kind === 'hops' && setting.hops === 0)) return undefined;
  if (setting.kind === 'hops') {
    const hops = setting.hops;
    return (_address, hop) => hop < hops;
  }
  return proxyAddr.compile(setting.entries);
}

/**
 * Resolves the client's address.
 * @param peer the socket peer address (`ctx.ip`).
 * @param headers the request headers.
 * @param trust from {@link compileTrust}; `undefined` means the peer is the client.
 * @param header which forwarding header the trusted proxies write.
 * @returns a canonical IP address. When the resolved entry is not an IP address (`unknown`, an obfuscated
 *   node, garbage a proxy passed along), the address of the nearest proxy that reported it is used instead,
 *   so such clients share that proxy's budget rather than choosing one of their own.
 */
export function resolveClientAddress(
  peer: string,
  headers: RequestHeaders,
  trust: TrustFunction | undefined,
  header: ForwardingHeader = 'x-forwarded-for',
): string {
  const peerAddress = canonicalAddress(peer) ?? peer;
  if (!trust) return peerAddress;
  const forwarded = header === 'forwarded' ? forwardedForNodes(headers.get('forwarded') ?? '').join(', ') : (headers.get('x-forwarded-for') ?? '');
  // proxy-addr reads `headers['x-forwarded-for']` and the socket's remote address.
  const shim = { headers: { 'x-forwarded-for': forwarded }, socket: { remoteAddress: peerAddress } };
  const chain = proxyAddr.all(shim as never, trust);
  for (let i = chain.length - 1; i >= 0; i--) {
    const address = canonicalAddress(chain[i]!);
    if (address !== undefined) return address;
  }
  return peerAddress;
}

/** Options of {@link clientAddressStep}. */
export interface ClientAddressOptions {
  /** Trusted proxies (`TRUST_PROXY`); default none. */
  trustProxy?: TrustProxySetting;
  /** The header the trusted proxies write; default `x-forwarded-for`. */
  header?: ForwardingHeader;
}

/** The middleware step that sets `ctx.locals.clientAddress` from `ctx.ip` and, with trusted proxies, the forwarding header. */
export function clientAddressStep(options: ClientAddressOptions = {}): Step {
  const trust = compileTrust(options.trustProxy ?? { kind: 'none' });
  const header = options.header ?? 'x-forwarded-for';
  return (ctx) => {
    ctx.locals.clientAddress = resolveClientAddress(ctx.ip ?? '', ctx.request.headers, trust, header);
  };
}
