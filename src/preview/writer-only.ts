/**
 * A preview only its writer can read. The preview serves an unpublished working tree, so no other site's page may
 * read it: every answer goes out without the app's `Access-Control-*` fields (the public API allows any origin), and
 * a request another site's page may have made is refused with `403`:
 *
 * - one whose `Origin` is not the origin it was sent to (`Origin: null` included: sandboxed and `file:` pages);
 * - one that Fetch Metadata (`Sec-Fetch-Site`) marks as made by another origin, unless it is the top-level
 *   navigation of a link (`GET`, mode `navigate`, destination `document`): that shows the page to the writer and
 *   lets the other site read nothing (the resource isolation policy of https://web.dev/articles/fetch-metadata).
 *
 * Browsers of every engine send `Origin` on cross-origin reads (`fetch`, `XMLHttpRequest`); `curl` and other
 * programs the writer runs send neither field and are served. The same rule guards the dev host and the server it
 * forwards to, whose `Host` must besides name that server exactly (`127.0.0.1:<port>`, never a rebound name).
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { PreviewResponse } from './error-page.js';

/** `Sec-Fetch-Site` values of requests made by the preview's own pages or by the writer (a typed URL, a bookmark). */
const OWN_SITES = new Set(['same-origin', 'none']);

/** Request fields about the browser context a request came from: the dev host's decision, not the inner server's. */
const CONTEXT_FIELDS = ['origin', 'referer', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest', 'sec-fetch-user'];

/**
 * The `403` for a request another site's page may have made (see the module comment), or `undefined` to serve it.
 * @param req the request; its `Host` names the origin it was sent to (`http://<Host>`).
 */
export function crossOriginRefusal(req: Pick<IncomingMessage, 'method' | 'headers'>): PreviewResponse | undefined {
  const { headers } = req;
  const origin = one(headers.origin);
  if (origin !== undefined && origin !== `http://${headers.host ?? ''}`)
    return refused(`The preview answers its own pages only: a request from ${origin} is refused.`);
  const site = one(headers['sec-fetch-site']);
  if (site === undefined || OWN_SITES.has(site)) return undefined;
  const navigation =
    (req.method === 'GET' || req.method === 'HEAD') && one(headers['sec-fetch-mode']) === 'navigate' && one(headers['sec-fetch-dest']) === 'document';
  return navigation ? undefined : refused(`The preview answers its own pages only: a ${site} request is refused.`);
}

/** The `403` for a request to the inner server whose `Host` is not `authority` exactly, or any {@link crossOriginRefusal}. */
export function innerRefusal(req: Pick<IncomingMessage, 'method' | 'headers'>, authority: string): PreviewResponse | undefined {
  if (req.headers.host !== authority) return refused('This server answers the preview only: open the URL the preview printed.');
  return crossOriginRefusal(req);
}

/**
 * The fields of a request the dev host has accepted, as it forwards them to the inner server at `authority`: that
 * server's own `Host`, and without the fields about the page it came from (the dev host has judged them).
 */
export function forwardedRequestHeaders(headers: IncomingHttpHeaders, authority: string): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = { ...headers, host: authority };
  for (const name of CONTEXT_FIELDS) delete out[name];
  return out;
}

/** `headers` without any `Access-Control-*` field: no other origin may read what the preview answers. */
export function withoutCors<T extends Record<string, unknown>>(headers: T): T {
  const out = { ...headers };
  for (const name of Object.keys(out)) if (/^access-control-/i.test(name)) delete out[name];
  return out;
}

function refused(text: string): PreviewResponse {
  return { status: 403, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }, body: `${text}\n` };
}

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
