/**
 * The request URL of a request read off the wire (RFC 9112 §3.2): its target (`/path?query`) and `Host` field
 * make `http(s)://host/path?query`, parsed by the WHATWG URL parser as every Fetch runtime parses a request URL
 * (dot segments resolved, characters it encodes encoded). These rules are the project's own, stated here once and
 * used by every adapter that reads requests itself (the Node host).
 *
 * Refused (the adapter answers `400`): a target not in origin form (absolute form, `*`), a missing `Host`, and a
 * `Host` that is not an authority (`host[:port]`: a reg-name, IPv4 or bracketed IPv6; nothing that would change
 * where the URL's host ends, such as `/`, `@`, `?`, `#`).
 */

/** `host[:port]` as RFC 3986 §3.2 allows it in `Host`, without userinfo. */
const AUTHORITY = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::\d{0,5})?$/;

/**
 * The URL of a request, or `undefined` when it is refused (see the module comment).
 * @param scheme `https` when the connection is TLS, else `http`.
 * @param host the `Host` field (`undefined` when absent).
 * @param target the request target as received (`req.url` on Node).
 */
export function requestUrl(scheme: 'http' | 'https', host: string | undefined, target: string): URL | undefined {
  if (host === undefined || target.charCodeAt(0) !== 0x2f /* / */ || !AUTHORITY.test(host)) return undefined;
  try {
    return new URL(`${scheme}://${host}${target}`);
  } catch {
    return undefined;
  }
}
