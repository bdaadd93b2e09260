/**
 * The URL the client really addressed, when a trusted proxy stands between it and us. A TLS-terminating proxy
 * turns `https://catalog.example.com/…` into a plain `http://` request, and may rewrite `Host` to an internal
 * name; it reports the original scheme and authority in `X-Forwarded-Proto` / `X-Forwarded-Host`, or in the
 * `proto=` / `host=` parameters of RFC 7239 `Forwarded`. RFC 9421 `@authority` and `@target-uri` must be computed
 * from that original target, or no signature made for the public URL would verify.
 *
 * Only read when the socket peer is a trusted proxy (which must overwrite these fields, as it overwrites the
 * forwarding header): otherwise a client could replay a signature made for another site by naming that site here.
 * As in Express, the leftmost value is the one the client-facing proxy saw.
 */
import type { RequestHeaders, StepContext } from './step.js';
import { canonicalAddress, compileTrust, splitOutsideQuotes, type ForwardingHeader, type TrustProxySetting } from './client-address.js';

/** The effective target of a request: absent fields mean "as the request URL says". */
export interface ForwardedTarget {
  /** Absolute `http:`/`https:` URL the client addressed. */
  url?: string;
}

/** `host[:port]` as a proxy may write it: a reg-name, IPv4 or bracketed IPv6, no userinfo or path. */
const AUTHORITY = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.\-_~%!$&'()*+,;=]+)(?::\d{1,5})?$/;

/** The first comma-separated member of a field, trimmed (`"https, http"` → `"https"`). */
function leftmost(value: string | null): string | undefined {
  if (value === null) return undefined;
  const comma = value.indexOf(',');
  const first = (comma < 0 ? value : value.slice(0, comma)).trim();
  return first === '' ? undefined : first;
}

/** `proto` and `host` of the first element of an RFC 7239 `Forwarded` field (quoted values unquoted). */
function forwardedParams(field: string | null): { proto?: string; host?: string } {
  if (field === null) return {};
  const first = splitOutsideQuotes(field, ',')[0]!;
  const out: { proto?: string; host?: string } = {};
  for (const pair of splitOutsideQuotes(first, ';')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const name = pair.slice(0, eq).trim().toLowerCase();
    let value = pair.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1).replace(/\\(.)/g, '$1');
    if (name === 'proto') out.proto = value;
    else if (name === 'host') out.host = value;
  }
  return out;
}

/**
 * The target URL rebuilt from the forwarding fields of a trusted proxy.
 * @param requestUrl the URL of the request as it reached us.
 * @param headers the request headers.
 * @param header which family of fields the trusted proxies write (as for the client address).
 * @returns the rebuilt absolute URL, or `undefined` when the fields are absent or malformed (then the request URL
 *   stands, and a signature made for another target simply does not verify).
 */
export function forwardedTargetUrl(requestUrl: URL, headers: RequestHeaders, header: ForwardingHeader): string | undefined {
  const { proto, host } =
    header === 'forwarded'
      ? forwardedParams(headers.get('forwarded'))
      : { proto: leftmost(headers.get('x-forwarded-proto')), host: leftmost(headers.get('x-forwarded-host')) };
  if (proto === undefined && host === undefined) return undefined;
  const scheme = (proto ?? requestUrl.protocol.slice(0, -1)).toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return undefined;
  if (host !== undefined && !AUTHORITY.test(host)) return undefined;
  try {
    // A new scheme without a new host must not carry the internal port (`http://app:8080` → `https://app`).
    const authority = host ?? (proto !== undefined ? requestUrl.hostname : requestUrl.host);
    return new URL(`${requestUrl.pathname}${requestUrl.search}`, `${scheme}://${authority}`).href;
  } catch {
    return undefined;
  }
}

/**
 * A function giving each request's effective target for the client-kind step: the forwarded target when the
 * socket peer is a trusted proxy, otherwise nothing (the request URL stands).
 * @param trustProxy `TRUST_PROXY`; with none configured, the returned function always answers `{}`.
 */
export function effectiveTarget(trustProxy: TrustProxySetting, header: ForwardingHeader): (ctx: StepContext) => ForwardedTarget {
  const trust = compileTrust(trustProxy);
  if (trust === undefined) return () => ({});
  return (ctx) => {
    const peer = canonicalAddress(ctx.ip ?? '');
    if (peer === undefined || !trust(peer, 0)) return {};
    const url = forwardedTargetUrl(ctx.url, ctx.request.headers, header);
    return url === undefined ? {} : { url };
  };
}
