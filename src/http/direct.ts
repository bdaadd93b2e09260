/**
 * The direct path: the app's steps run on a request without HatTip's composition and without a `Response`, so a
 * host can write the answer's bytes and header fields itself (the Node host does for GET and HEAD of the route
 * table's non-static routes, see `src/server/direct-path.ts`). The steps are the very ones `createApp` composes, in
 * the same order, and `respond` leaves their answer as plain data ({@link PlainAnswer}); the tests compare both
 * paths' answers field by field.
 */
import type { RequestContext, RequestHandler } from '@hattip/compose';
import { matchRoute, type RouteSpec } from '../contract/routes.js';
import type { AppLogger } from './access-log.js';
import { internalError } from './error-boundary.js';
import type { ErrorAnswers } from './html-errors.js';
import { enabledObservers, notifyObservers, requestRecord, type ObserverGate, type RequestObserver, type RequestRecord } from './observe.js';
import { isPromise } from './maybe-async.js';
import { completeResponse, PLAIN_ANSWER_PLACEHOLDER, type PlainAnswer } from './respond.js';

/** The app's steps as the direct path runs them. */
export interface DirectApp {
  /**
   * The route a GET or HEAD of `path` is answered by on the direct path, or `undefined` when the general path
   * answers it (no route matches, or a static document that may be streamed).
   * @param path a URL path that URL parsing leaves unchanged (the host checks).
   */
  routeOf(path: string): RouteSpec | undefined;
  /**
   * Runs every step on `ctx` (a context whose `locals` are empty) and resolves to the answer. Never rejects: an
   * exception becomes the 500 answer, as behind the error boundary.
   */
  answer(ctx: RequestContext): PlainAnswer | Promise<PlainAnswer>;
  /** The observers to tell, `undefined` when none is enabled (then neither timing nor record is needed). */
  observers(): ReadonlyArray<RequestObserver & ObserverGate> | undefined;
  /** The record of an answered request (`start`: `performance.now()` when its steps began). */
  record(ctx: RequestContext, status: number, start: number): RequestRecord;
  /** Tells `observers` about `record` (call it after the answer is written). */
  notify(observers: ReadonlyArray<RequestObserver & ObserverGate>, record: RequestRecord): void;
}

/** What {@link directApp} runs. */
export interface DirectAppParts {
  /** The request-id step. */
  requestId: RequestHandler;
  /** Every observer (the access log first). */
  observers: ReadonlyArray<RequestObserver & ObserverGate>;
  /** The steps behind the error boundary, in order (the router among them). */
  steps: readonly RequestHandler[];
  logger: AppLogger;
  errors: ErrorAnswers;
}

type StepResult = Response | undefined | Promise<Response | undefined>;

/** Runs `steps` from `i` as HatTip's compose would: the first one that returns a response answers. */
function runSteps(ctx: RequestContext, steps: readonly RequestHandler[], i: number): StepResult {
  for (; i < steps.length; i++) {
    const result = steps[i]!(ctx) as unknown;
    if (isPromise<unknown>(result)) {
      const next = i + 1;
      return result.then((value) => (value ? (value as Response) : runSteps(ctx, steps, next)));
    }
    // As compose: any value answers (a host's global `Response` may be another class than the one that built it).
    if (result) return result as Response;
  }
  return undefined;
}

/** The answer as plain data: the one `respond` left, or a response built elsewhere, completed and read. */
function plainAnswerOf(ctx: RequestContext, res: Response): PlainAnswer | Promise<PlainAnswer> {
  if (res === PLAIN_ANSWER_PLACEHOLDER) return ctx.locals.plainAnswer!;
  const done = completeResponse(ctx, res);
  const headers: Record<string, string> = {};
  done.headers.forEach((value, name) => (headers[name] = value));
  if (done.body === null) return { status: done.status, headers, body: null };
  return done.arrayBuffer().then((buffer) => ({ status: done.status, headers, body: new Uint8Array(buffer) }));
}

/** Builds the direct path from the same parts `createApp` composes. */
export function directApp(parts: DirectAppParts): DirectApp {
  const { requestId, observers, steps, logger, errors } = parts;
  const fail = (ctx: RequestContext, error: unknown): PlainAnswer | Promise<PlainAnswer> =>
    plainAnswerOf(ctx, internalError(ctx, logger, errors, error));
  const finish = (ctx: RequestContext, res: Response | undefined): PlainAnswer | Promise<PlainAnswer> =>
    plainAnswerOf(ctx, res ?? errors.notFound(ctx));
  return {
    routeOf(path) {
      const match = matchRoute(path);
      return match === undefined || match.route.source === 'static' ? undefined : match.route;
    },
    answer(ctx) {
      ctx.locals.plainAnswer = null;
      void requestId(ctx);
      try {
        const res = runSteps(ctx, steps, 0);
        if (!isPromise<Response | undefined>(res)) return finish(ctx, res);
        return res.then(
          (value) => finish(ctx, value),
          (error: unknown) => fail(ctx, error),
        );
      } catch (error) {
        return fail(ctx, error);
      }
    },
    observers: () => enabledObservers(observers),
    record: requestRecord,
    notify: notifyObservers,
  };
}
