/**
 * The service's read API as a Hono 4 developer would write it on `@hono/node-server`, serving the bytes
 * captured from the service (`spec.ts`): one route per path with `:id` params checked by `hono/validator`
 * (the contract's constraints), `hono-rate-limiter` (in-memory store, keyed by the client address, its default
 * draft-6 `RateLimit-*` fields), `hono/request-id` for X-Request-Id, and `hono/logger` when `LOG_LEVEL` (default
 * info, as the service's) logs requests.
 *
 *   PORT=8083 node bench/out/js/bench/rivals/hono-app.js spec.json
 *
 * Prints `listening on <url>` once ready; exits on SIGTERM.
 */
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context } from 'hono';
import { logger } from 'hono/logger';
import { requestId } from 'hono/request-id';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { validator } from 'hono/validator';
import { rateLimiter } from 'hono-rate-limiter';
import { COURSE_ID, LESSON_ID, type PathParamSpec } from '../../src/contract/params.js';
import { checkPathParam, validationErrorBody } from '../../src/contract/path-params.js';
import { choose, readRivalContent, type Answer, type Representation } from './spec.js';

const content = readRivalContent(process.argv[2]!);

const app = new Hono();
if (['info', 'debug', 'trace'].includes(process.env.LOG_LEVEL ?? 'info')) app.use(logger());
app.use(requestId());
app.use(
  rateLimiter({
    windowMs: content.windowMs,
    limit: content.limit,
    keyGenerator: (c) => getConnInfo(c).remote.address ?? '',
  }),
);

const send = (c: Context, answer: Answer): Response =>
  answer.status === 304 ? c.body(null, 304, answer.headers) : c.body(answer.body, answer.status as ContentfulStatusCode, answer.headers);
const negotiated = (c: Context, r: Representation): Answer => choose(r, c.req.header('if-none-match'), c.req.header('accept-encoding'));

/** Checks `:id` against the contract; a failure answers the contract's 422 (FastAPI's body). */
const validId = (p: PathParamSpec) =>
  validator('param', (value: Record<string, string>, c) => {
    const id = value.id ?? '';
    const problem = checkPathParam(p, id);
    return problem ? c.body(validationErrorBody([problem]), 422, content.invalidHeaders) : { id };
  });

app.get('/v1/catalog', (c) => send(c, negotiated(c, content.catalog)));
app.get('/health', (c) => send(c, negotiated(c, content.health)));
app.get('/v1/courses/:id', validId(COURSE_ID), (c) => {
  const course = content.courses.get(c.req.valid('param').id);
  return send(c, course ? negotiated(c, course) : content.courseNotFound);
});
app.get('/v1/lessons/:id', validId(LESSON_ID), (c) => {
  const lesson = content.lessons.get(c.req.valid('param').id);
  return send(c, lesson ? negotiated(c, lesson) : content.lessonNotFound);
});

const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 0), hostname: process.env.HOST ?? '127.0.0.1' }, (info) =>
  process.stdout.write(`listening on http://${info.address}:${info.port}\n`),
);
process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  if ('closeAllConnections' in server) server.closeAllConnections();
});
