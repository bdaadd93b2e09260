/**
 * The target URI a signature is checked against, and its `@authority` (RFC 9421 §2.2.2, §2.2.3).
 * Portable: no Node-only modules.
 */

/**
 * Where the request was really addressed. Behind trusted proxies the socket's Host may be an internal
 * name, so the app passes what the client used.
 */
export interface EffectiveTarget {
  /** The effective request URL as the client sent it (absolute, `http:` or `https:`). Defaults to `request.url`. */
  url?: string;
  /** The authority the client addressed (`host[:port]`), replacing the URL's host and port. */
  authority?: string;
}

/** Thrown by {@link effectiveTargetUrl} when the URL or authority cannot be a request target. */
export class TargetUriError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetUriError';
  }
}

/**
 * The target URI (RFC 9421 §2.2.2) of a request, as a new URL (its `href` is the `@target-uri` value):
 * `target.url` (else `requestUrl`) with its authority replaced
 * by `target.authority` when given, normalised by the WHATWG URL parser: scheme and host lowercased, the
 * port dropped when it is the scheme's default (so `@authority` follows §2.2.3), no fragment.
 * @throws TargetUriError when the URL is not absolute `http`/`https`, or the authority is not a bare `host[:port]`.
 */
export function effectiveTargetUrl(requestUrl: string, target: EffectiveTarget = {}): URL {
  let url: URL;
  try {
    url = new URL(target.url ?? requestUrl);
  } catch {
    throw new TargetUriError('the request URL is not absolute');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TargetUriError('the request URL is not http or https');
  if (target.authority !== undefined) {
    // Reject anything that would smuggle a path, userinfo or a second host into the parse.
    if (!/^[A-Za-z0-9.\-_~!$&'()*+,;=:[\]%]+$/.test(target.authority) || target.authority.includes('@')) {
      throw new TargetUriError('the authority is not a host[:port]');
    }
    let replaced: URL;
    try {
      replaced = new URL(`${url.protocol}//${target.authority}`);
    } catch {
      throw new TargetUriError('the authority is not a host[:port]');
    }
    url.host = replaced.host;
  }
  if (url.hash !== '') url.hash = '';
  return url;
}

/**
 * `@authority` of a target URI (RFC 9421 §2.2.3): host lowercased, port present only when it is not the
 * scheme's default.
 * @throws TargetUriError as {@link effectiveTargetUrl}.
 */
export function authorityOf(targetUri: string): string {
  return effectiveTargetUrl(targetUri).host;
}
