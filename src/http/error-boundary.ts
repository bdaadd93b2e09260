/**
 * The error boundary's answer: an exception in any step becomes `500 {"detail":"Internal Server Error"}` (or the
 * HTML 500 page for a page request), never a stack trace on the wire, and is logged with the request id.
 */
import type { AppLogger } from './access-log.js';
import type { ErrorAnswers } from './html-errors.js';
import type { Answer, StepContext } from './step.js';

/** The `500` answer, after logging `error` with the request id. */
export function internalError(ctx: StepContext, logger: AppLogger, errors: ErrorAnswers, error: unknown): Answer {
  logger.error(
    { err: error instanceof Error ? error : new Error(String(error)), request_id: ctx.locals.requestId, method: ctx.method, path: ctx.url.pathname },
    'unhandled error while answering a request',
  );
  return errors.serverError(ctx);
}
