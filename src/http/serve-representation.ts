/**
 * Sends a precomputed representation: `If-None-Match` → 304, otherwise the body in the negotiated coding.
 * Nothing here serialises, compresses or hashes: it picks bytes and sets headers.
 */
import type { RequestContext } from '@hattip/compose';
import type { Representation } from '../index/types.js';
import { ifNoneMatchMatches } from './conditional.js';
import { chooseCoding, encodingPreference } from './negotiate.js';
import { respond, type HeaderRecord } from './respond.js';

/**
 * Answers a GET or HEAD with a representation.
 * @param extra header fields added to the representation's own (e.g. deprecation fields of a route).
 */
export function serveRepresentation(ctx: RequestContext, rep: Representation, extra?: Readonly<Record<string, string>>): Response {
  const headers: HeaderRecord = { ETag: rep.etag, 'Cache-Control': rep.cacheControl, Vary: 'Accept-Encoding' };
  for (const name in rep.headers) headers[name] = rep.headers[name]!;
  if (extra !== undefined) for (const name in extra) headers[name] = extra[name]!;

  const requestHeaders = ctx.request.headers;
  if (ifNoneMatchMatches(requestHeaders.get('if-none-match'), rep.etag)) {
    return respond(ctx, 304, null, headers);
  }

  // A body too small to compress has no compressed forms: identity, with no negotiation at all.
  const br = rep.br;
  const gz = rep.gzip;
  const coding =
    br === null || gz === null
      ? 'identity'
      : chooseCoding(encodingPreference(requestHeaders.get('accept-encoding')), {
          identity: rep.body.byteLength,
          br: br.byteLength,
          gzip: gz.byteLength,
        });
  const body = coding === 'br' ? br! : coding === 'gzip' ? gz! : rep.body;
  headers['Content-Type'] = rep.contentType;
  if (coding !== 'identity') headers['Content-Encoding'] = coding;
  if (ctx.method === 'HEAD') {
    headers['Content-Length'] = String(body.byteLength);
    return respond(ctx, 200, null, headers);
  }
  return respond(ctx, 200, body, headers);
}
