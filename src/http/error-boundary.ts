/**
 * The error boundary: an exception anywhere below becomes `500 {"detail":"Internal Server Error"}` (never a
 * stack trace on the wire), logged with the request id. It also completes responses that later steps built
 * without `respond` (so every response carries the request id, CORS and RateLimit fields).
 */
import type { RequestContext, RequestHandler } from '@hattip/compose';
import type { AppLogger } from './access-log.js';
import type { ErrorAnswers } from './html-errors.js';
import { completeResponse } from './respond.js';

/** The `500` answer, after logging the error with the request id. */
export function internalError(ctx: RequestContext, logger: AppLogger, errors: ErrorAnswers, error: unknown): Response {
  logger.error(
    { err: error instanceof Error ? error : new Error(String(error)), request_id: ctx.locals.requestId, method: ctx.method, path: ctx.url.pathname },
    'unhandled error while answering a request',
  );
  return errors.serverError(ctx);
}

/** Installs the boundary; runs after the request-id step. */
export function errorBoundaryStep(logger: AppLogger, errors: ErrorAnswers): RequestHandler {
  // One function for every request: compose calls it as `ctx.handleError(error)`, so `this` is the context.
  function handleError(this: RequestContext, error: unknown): Response {
    return internalError(this, logger, errors, error);
  }
  return async (ctx) => {
    ctx.handleError = handleError;
    try {
      return completeResponse(ctx, await ctx.next());
    } catch (error) {
      return internalError(ctx, logger, errors, error);
    }
  };
}
