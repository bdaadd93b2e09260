/**
 * Answers an old id of a renamed resource: `308 Permanent Redirect` (RFC 9110 §15.4.9) to the current resource's
 * path, precomputed by the index. A 308 keeps the method, so a client repeats its GET (or HEAD) there.
 */
import type { Answer, HeaderRecord, StepContext } from './step.js';
import type { Redirect } from '../index/types.js';
import { respond } from './respond.js';

/**
 * The 308 of `moved`. `Location` is the current resource (its path, after `PUBLIC_BASE_URL` when that is set)
 * with the request's query appended unchanged, so `?view=full` reaches the resource too. The route's
 * `Cache-Control` lets caches keep the redirect like the resource; `extra` adds the route's deprecation fields, as
 * on its other answers.
 */
export function answerRedirect(ctx: StepContext, moved: Redirect, extra?: Readonly<Record<string, string>>): Answer {
  const headers: HeaderRecord = { Location: moved.location + ctx.url.search, 'Cache-Control': moved.cacheControl };
  if (extra !== undefined) for (const name in extra) headers[name] = extra[name]!;
  if (moved.contentType !== null) headers['Content-Type'] = moved.contentType;
  return respond(ctx, 308, ctx.method === 'HEAD' ? null : moved.body, headers);
}
