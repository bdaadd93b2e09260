/**
 * What the rival apps (`fastify-app.ts`, `hono-app.ts`) serve: the responses captured from the service by
 * `bench/lib/capture.ts` (the spec the raw baseline replays), sorted into the routes a Fastify or Hono app
 * declares. The fields the service computes per request (X-Request-Id, the RateLimit fields) are left out:
 * each rival produces them the way its framework does (request-id generator, rate-limit plugin).
 */
import { readFileSync } from 'node:fs';
import { parseItem } from 'structured-headers';
import type { BaselineSpec, CapturedResponse } from '../lib/capture.js';

/** A precomputed answer: status, header fields (the per-request ones excluded) and body bytes as sent. */
export interface Answer {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: Buffer<ArrayBuffer>;
}

/** One resource: its identity answer, and its gzip and 304 answers when the service has them. */
export interface Representation {
  etag?: string;
  plain: Answer;
  gzip?: Answer;
  notModified?: Answer;
}

/** Everything a rival serves, and the rate-limit budget it enforces per client address. */
export interface RivalContent {
  catalog: Representation;
  health: Representation;
  /** By decoded id. */
  courses: ReadonlyMap<string, Representation>;
  lessons: ReadonlyMap<string, Representation>;
  courseNotFound: Answer;
  lessonNotFound: Answer;
  /** Header fields of a 422 (its body depends on the input: built per request from the contract). */
  invalidHeaders: Readonly<Record<string, string>>;
  /** Requests per window per client address, from the service's `RateLimit-Policy` (`<limit>;w=<seconds>`). */
  limit: number;
  /** Window, milliseconds. */
  windowMs: number;
}

/** Fields a rival writes per request the way its framework and rate-limit plugin do: X-Request-Id, RateLimit-*. */
export const RIVAL_OWN_FIELD = /^(x-request-id|ratelimit(-[a-z]+)?)$/i;

function answerOf(r: CapturedResponse): Answer {
  return {
    status: r.status,
    // Content-Length too is the framework's to write.
    headers: Object.fromEntries(r.headers.filter(([name]) => !RIVAL_OWN_FIELD.test(name) && name.toLowerCase() !== 'content-length')),
    body: Buffer.from(r.body, 'base64'),
  };
}

function representationOf(route: BaselineSpec['routes'][string]): Representation {
  return {
    etag: route.etag,
    plain: answerOf(route.plain),
    gzip: route.gzip && answerOf(route.gzip),
    notModified: route.notModified && answerOf(route.notModified),
  };
}

/**
 * Sorts a captured spec into routes. It must hold `/v1/catalog`, `/health`, and under `/v1/courses/` and
 * `/v1/lessons/` at least one 404 each and one 422 (any 200 there is served by its id).
 * @throws Error on a path of another route, a missing one, or a missing or malformed `RateLimit-Policy`.
 */
export function loadRivalContent(spec: BaselineSpec): RivalContent {
  const courses = new Map<string, Representation>();
  const lessons = new Map<string, Representation>();
  const notFound = new Map<string, Answer>();
  let invalidHeaders: Record<string, string> | undefined;
  for (const [path, route] of Object.entries(spec.routes)) {
    if (path === '/v1/catalog' || path === '/health') continue;
    const match = /^\/v1\/(courses|lessons)\/([^/]+)$/.exec(path);
    if (match === null) throw new Error(`the rivals serve no route for ${path}`);
    const [, kind, id] = match as unknown as [string, 'courses' | 'lessons', string];
    if (route.plain.status === 200) (kind === 'courses' ? courses : lessons).set(decodeURIComponent(id), representationOf(route));
    else if (route.plain.status === 404) notFound.set(kind, answerOf(route.plain));
    else if (route.plain.status === 422) invalidHeaders = answerOf(route.plain).headers;
  }
  const catalog = spec.routes['/v1/catalog'];
  const health = spec.routes['/health'];
  const courseNotFound = notFound.get('courses');
  const lessonNotFound = notFound.get('lessons');
  if (!catalog || !health || !courseNotFound || !lessonNotFound || !invalidHeaders) {
    throw new Error('the spec lacks /v1/catalog, /health, a course 404, a lesson 404 or a 422');
  }
  const policy = catalog.plain.headers.find(([name]) => name.toLowerCase() === 'ratelimit-policy')?.[1];
  const [limit, params] = parseItem(policy ?? '');
  const window = params.get('w');
  if (typeof limit !== 'number' || typeof window !== 'number') throw new Error(`unexpected RateLimit-Policy: ${policy}`);
  return {
    catalog: representationOf(catalog),
    health: representationOf(health),
    courses,
    lessons,
    courseNotFound,
    lessonNotFound,
    invalidHeaders,
    limit,
    windowMs: window * 1000,
  };
}

/** {@link loadRivalContent} of the spec file `file` (JSON, as `bench/lib/servers.ts` writes it). */
export function readRivalContent(file: string): RivalContent {
  return loadRivalContent(JSON.parse(readFileSync(file, 'utf8')) as BaselineSpec);
}

/**
 * The answer for a request, chosen as the raw baseline chooses it: the 304 when If-None-Match names the
 * ETag, else the gzip bytes when Accept-Encoding names gzip, else the identity bytes.
 */
export function choose(r: Representation, ifNoneMatch: string | undefined, acceptEncoding: string | undefined): Answer {
  if (r.notModified && ifNoneMatch === r.etag) return r.notModified;
  if (r.gzip && acceptEncoding !== undefined && /\bgzip\b/.test(acceptEncoding)) return r.gzip;
  return r.plain;
}
