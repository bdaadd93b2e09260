/**
 * The service's read API as a Fastify 5 developer would write it, serving the bytes captured from the service
 * (`spec.ts`): one route per path with `:id` params validated by a JSON schema (the contract's constraints),
 * `@fastify/rate-limit` with its in-memory store keyed by client address and its draft-spec `ratelimit-*`
 * fields, a UUID request id sent back as X-Request-Id, and Fastify's pino logger at `LOG_LEVEL` (default
 * info, as the service's; at info Fastify logs every request).
 *
 *   PORT=8082 node bench/out/js/bench/rivals/fastify-app.js spec.json
 *
 * Prints `listening on <url>` once ready; exits on SIGTERM.
 */
import { randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { COURSE_ID, LESSON_ID, type PathParamSpec } from '../../src/contract/params.js';
import { checkPathParam, validationErrorBody } from '../../src/contract/path-params.js';
import { choose, readRivalContent, type Answer, type Representation } from './spec.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's `:id` parameter as the contract names and constrains it (for the 422 body). */
    idParam?: PathParamSpec;
  }
}

const content = readRivalContent(process.argv[2]!);

const app = Fastify({ logger: { level: process.env.LOG_LEVEL ?? 'info' }, genReqId: () => randomUUID() });
await app.register(rateLimit, { max: content.limit, timeWindow: content.windowMs, enableDraftSpec: true });
app.addHook('onRequest', (request, reply, done) => {
  reply.header('X-Request-Id', request.id);
  done();
});

const send = (reply: FastifyReply, answer: Answer): FastifyReply =>
  reply
    .code(answer.status)
    .headers(answer.headers)
    .send(answer.status === 304 ? undefined : answer.body);
const negotiated = (request: FastifyRequest, r: Representation): Answer =>
  choose(r, request.headers['if-none-match'], request.headers['accept-encoding']);

/** The params schema of `/…/:id`: the contract's length and pattern constraints. */
const idSchema = (p: PathParamSpec) => ({
  params: {
    type: 'object',
    properties: { id: { type: 'string', minLength: p.minLength, maxLength: p.maxLength, pattern: p.pattern } },
    required: ['id'],
  },
});

// A params validation failure answers the contract's 422 (FastAPI's body), not Fastify's 400.
app.setErrorHandler((error: { validation?: unknown }, request, reply) => {
  const param = request.routeOptions.config.idParam;
  const problem = error.validation !== undefined && param !== undefined ? checkPathParam(param, (request.params as { id: string }).id) : undefined;
  if (problem === undefined) return reply.send(error);
  return reply
    .code(422)
    .headers(content.invalidHeaders)
    .send(Buffer.from(validationErrorBody([problem])));
});

app.get('/v1/catalog', (request, reply) => send(reply, negotiated(request, content.catalog)));
app.get('/health', (request, reply) => send(reply, negotiated(request, content.health)));
app.get<{ Params: { id: string } }>('/v1/courses/:id', { schema: idSchema(COURSE_ID), config: { idParam: COURSE_ID } }, (request, reply) => {
  const course = content.courses.get(request.params.id);
  return send(reply, course ? negotiated(request, course) : content.courseNotFound);
});
app.get<{ Params: { id: string } }>('/v1/lessons/:id', { schema: idSchema(LESSON_ID), config: { idParam: LESSON_ID } }, (request, reply) => {
  const lesson = content.lessons.get(request.params.id);
  return send(reply, lesson ? negotiated(request, lesson) : content.lessonNotFound);
});

const host = process.env.HOST ?? '127.0.0.1';
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host });
process.stdout.write(`listening on ${address}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
