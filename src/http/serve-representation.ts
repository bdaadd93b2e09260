/**
 * Sends a precomputed representation: `If-None-Match` → 304, otherwise the body in the negotiated coding.
 * Nothing here serialises, compresses or hashes: it picks bytes and sets headers.
 */
import type { Answer, HeaderRecord, StepContext } from './step.js';
import type { Representation } from '../index/types.js';
import { ifNoneMatchMatches } from './conditional.js';
import { chooseCoding, encodingPreference } from './negotiate.js';
import { respond } from './respond.js';

/**
 * Answers a GET or HEAD with a representation.
 * @param extra header fields added to the representation's own (e.g. deprecation fields of a route).
 * @param validated whether the answer carries its `ETag` and honours `If-None-Match` (default true). False for an
 *   answer computed per request that no cache may store (a referral check): it needs no validator.
 */
export function serveRepresentation(ctx: StepContext, rep: Representation, extra?: Readonly<Record<string, string>>, validated = true): Answer {
  const requestHeaders = ctx.request.headers;
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
  const etag = coding === 'br' ? rep.brEtag : coding === 'gzip' ? rep.gzipEtag : rep.etag;
  const headers: HeaderRecord = validated
    ? { ETag: etag, 'Cache-Control': rep.cacheControl, Vary: 'Accept-Encoding' }
    : { 'Cache-Control': rep.cacheControl, Vary: 'Accept-Encoding' };
  for (const name in rep.headers) headers[name] = rep.headers[name]!;
  if (extra !== undefined) for (const name in extra) headers[name] = extra[name]!;

  // A tag of any coding names the same content: a client holding the gzip form is not sent the br one again.
  const condition = validated ? requestHeaders.get('if-none-match') : null;
  if (
    condition !== null &&
    (ifNoneMatchMatches(condition, etag) ||
      (br !== null &&
        (ifNoneMatchMatches(condition, rep.etag) || ifNoneMatchMatches(condition, rep.gzipEtag) || ifNoneMatchMatches(condition, rep.brEtag))))
  ) {
    return respond(ctx, 304, null, headers);
  }

  const body = coding === 'br' ? br! : coding === 'gzip' ? gz! : rep.body;
  headers['Content-Type'] = rep.contentType;
  if (coding !== 'identity') headers['Content-Encoding'] = coding;
  if (ctx.method === 'HEAD') {
    headers['Content-Length'] = String(body.byteLength);
    return respond(ctx, 200, null, headers);
  }
  return respond(ctx, 200, body, headers);
}
