/**
 * The HatTip adapter: the app as a HatTip handler (`@hattip/compose`), the portable entry point that runs on
 * `@hattip/adapter-node` and on any Fetch runtime. It only translates: HatTip's context into the app's request,
 * the app's answer into a Fetch `Response`.
 */
import { compose } from '@hattip/compose';
import type { HattipHandler } from '@hattip/core';
import type { App } from './app.js';
import type { Answer } from './step.js';

/** `answer` as a Fetch `Response`. */
function toResponse(answer: Answer): Response {
  // Bytes, text and a `ReadableStream` are all bodies a `Response` takes; the DOM typings name them otherwise.
  return new Response(answer.body as BodyInit | null, { status: answer.status, headers: answer.headers });
}

/** The HatTip handler of `app`. */
export function hattipHandler(app: App): HattipHandler {
  return compose((ctx) => {
    const answer = app({ method: ctx.method, url: ctx.url, request: ctx.request, ip: ctx.ip });
    return answer instanceof Promise ? answer.then(toResponse) : toResponse(answer);
  });
}
