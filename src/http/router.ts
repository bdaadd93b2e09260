/**
 * Routing: `/health`, the `/v1` API routes (`src/routes.ts`) with their contract errors, then any other
 * representation of the index (pages, `/openapi.json`, `/docs`). Unknown paths fall through to later steps
 * (e.g. `/releases/`) and finally to {@link notFoundStep}.
 *
 * Methods: `/health` allows GET and HEAD; every `/v1` route allows GET only, as the FastAPI service this
 * contract comes from did (a HEAD there is a 405); other representations allow GET and HEAD.
 */
import type { RequestContext, RequestHandler } from '@hattip/compose';
import type { CatalogIndex } from '../index/types.js';
import type { ApiRoute } from '../routes.js';
import type { HealthReport } from './health.js';
import { COURSE_ID, LESSON_ID, REFERRAL_CODE, type PathParamSpec } from './params.js';
import { checkPathParam, decodePathSegment, validationErrorBody } from './path-params.js';
import type { ReferralAnswers, ReferralLookup } from './referrals.js';
import { ERROR_BODIES, respond, respondJson, JSON_TYPE, type HeaderRecord } from './respond.js';
import { serveRepresentation } from './serve-representation.js';
import { notFoundPage, wantsHtmlError } from './html-errors.js';

/** What the router reads. */
export interface RouterOptions {
  /** The index to serve from (read once per request). */
  getIndex: () => CatalogIndex;
  /** The `/health` body. */
  health: HealthReport;
  /** Referral code lookups. */
  referrals: ReferralLookup;
  /** The two referral answers. */
  referralAnswers: ReferralAnswers;
}

/** A `/v1` route with one path parameter. */
interface ParamRoute {
  prefix: string;
  template: ApiRoute;
  spec: PathParamSpec;
  /** The 404 body when the id names nothing; `undefined` for referral codes (always a 200). */
  notFound?: Uint8Array;
}

const PARAM_ROUTES: readonly ParamRoute[] = [
  { prefix: '/v1/courses/', template: '/v1/courses/{course_id}', spec: COURSE_ID, notFound: ERROR_BODIES.courseNotFound },
  { prefix: '/v1/lessons/', template: '/v1/lessons/{lesson_id}', spec: LESSON_ID, notFound: ERROR_BODIES.lessonNotFound },
  { prefix: '/v1/referrals/', template: '/v1/referrals/{code}', spec: REFERRAL_CODE },
];

/** `/v1` routes without parameters, all served straight from the index. */
const FIXED_API_ROUTES: ReadonlySet<string> = new Set(['/v1/health', '/v1/catalog', '/v1/changelog', '/v1/roadmap']);

const ALLOW_API = 'GET';
const ALLOW_READ = 'GET, HEAD';

/** Deprecation fields of a request on a deprecated route (concrete path first, then its template). */
function deprecationOf(index: CatalogIndex, path: string, template: string): Readonly<Record<string, string>> | undefined {
  if (index.deprecations.size === 0) return undefined;
  return index.deprecations.get(path) ?? index.deprecations.get(template);
}

/** A JSON error answer, with the route's deprecation fields if any. */
function jsonError(
  ctx: RequestContext,
  status: number,
  body: Uint8Array,
  deprecation?: Readonly<Record<string, string>>,
  extra?: HeaderRecord,
): Response {
  const headers: HeaderRecord = { ...extra, ...deprecation };
  return respondJson(ctx, status, body, headers);
}

function methodNotAllowed(ctx: RequestContext, allow: string, deprecation?: Readonly<Record<string, string>>): Response {
  return jsonError(ctx, 405, ERROR_BODIES.methodNotAllowed, deprecation, { Allow: allow });
}

/** The routing step; see the module comment. */
export function routerStep(options: RouterOptions): RequestHandler {
  const { getIndex, health, referrals, referralAnswers } = options;

  const serveHealth = (ctx: RequestContext): Response => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return methodNotAllowed(ctx, ALLOW_READ);
    const body = health.body;
    const headers: HeaderRecord = { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store' };
    if (ctx.method === 'HEAD') {
      headers['Content-Length'] = String(body.byteLength);
      return respond(ctx, 200, null, headers);
    }
    return respond(ctx, 200, body, headers);
  };

  const serveReferral = async (ctx: RequestContext, code: string, deprecation: Readonly<Record<string, string>> | undefined): Promise<Response> => {
    const valid = await referrals.isValid(code);
    return serveRepresentation(ctx, valid ? referralAnswers.valid : referralAnswers.invalid, deprecation);
  };

  const serveParamRoute = (ctx: RequestContext, index: CatalogIndex, path: string, route: ParamRoute, raw: string): Response | Promise<Response> => {
    const deprecation = deprecationOf(index, path, route.template);
    if (ctx.method !== 'GET') return methodNotAllowed(ctx, ALLOW_API, deprecation);
    const value = decodePathSegment(raw);
    const error = checkPathParam(route.spec, value);
    if (error !== undefined) return jsonError(ctx, 422, validationErrorBody([error]), deprecation);
    if (route.notFound === undefined) return serveReferral(ctx, value, deprecation);
    // A valid id is plain ASCII, so the decoded value is the index key's last segment.
    const rep = index.representations.get(route.prefix + value);
    if (rep === undefined) return jsonError(ctx, 404, route.notFound, deprecation);
    return serveRepresentation(ctx, rep);
  };

  const serveApi = (ctx: RequestContext, index: CatalogIndex, path: string): Response | Promise<Response> => {
    if (FIXED_API_ROUTES.has(path)) {
      if (ctx.method !== 'GET') return methodNotAllowed(ctx, ALLOW_API, deprecationOf(index, path, path));
      const rep = index.representations.get(path);
      if (rep === undefined) throw new Error(`index has no representation of ${path}`);
      return serveRepresentation(ctx, rep);
    }
    for (const route of PARAM_ROUTES) {
      if (path.startsWith(route.prefix)) {
        const raw = path.slice(route.prefix.length);
        if (raw === '' || raw.includes('/')) break;
        return serveParamRoute(ctx, index, path, route, raw);
      }
    }
    return jsonError(ctx, 404, ERROR_BODIES.notFound);
  };

  return (ctx) => {
    const path = ctx.url.pathname;
    if (path === '/health') return serveHealth(ctx);
    const index = getIndex();
    if (path.startsWith('/v1/')) return serveApi(ctx, index, path);
    const rep = index.representations.get(path);
    if (rep === undefined) return;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return methodNotAllowed(ctx, ALLOW_READ);
    return serveRepresentation(ctx, rep);
  };
}

/**
 * The last step: `404 {"detail":"Not Found"}` for any path nothing else answered, or the HTML 404 page for a
 * page request (an unknown course under `/courses/`, or a client preferring `text/html`; see `html-errors.ts`).
 */
export function notFoundStep(): RequestHandler {
  return (ctx) => (wantsHtmlError(ctx) ? notFoundPage(ctx) : respondJson(ctx, 404, ERROR_BODIES.notFound, {}));
}
