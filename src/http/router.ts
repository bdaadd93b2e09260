/**
 * Routing by the contract's route table (`src/contract/routes.ts`): match a route, check the method (405 with
 * `Allow`), validate path parameters (422), then answer from the index or a computed handler (a 308 when the path
 * names a renamed resource by an old id, else 404 with the route's body when the path names nothing). A path with a
 * trailing slash that is a route without it is a 308 there. Paths no route matches fall through to later steps (e.g.
 * `/releases/`) and finally to {@link notFoundStep}. Nothing here names a route: the table does.
 */
import type { Answer, HeaderRecord, Step, StepContext, WholeBody } from './step.js';
import { detailBody, DETAIL } from '../contract/errors.js';
import { checkPathParam, decodePathSegment, validationErrorBody, type PathParamError } from '../contract/path-params.js';
import { allowOf, JSON_TYPE, matchRoute, NO_STORE, routeNamed, routePath, type ComputedRouteName, type RouteSpec } from '../contract/routes.js';
import type { StaticRepresentations } from '../index/static-representations.js';
import { EMPTY_BODY } from '../index/redirects.js';
import type { CatalogIndex, Representation } from '../index/types.js';
import type { HealthReport } from './health.js';
import type { ErrorAnswers } from './html-errors.js';
import type { ReferralAnswers, ReferralLookup } from './referrals.js';
import { answerRedirect } from './redirect.js';
import { respond, respondJson } from './respond.js';
import { serveRepresentation } from './serve-representation.js';

/** What the router reads. */
export interface RouterOptions {
  /** The index to serve from (read once per request). */
  getIndex: () => CatalogIndex;
  /** The `/health` body. */
  health: HealthReport;
  /** Referral code lookups; `undefined`: no referral source, so every check answers the route's `503`. */
  referrals: ReferralLookup | undefined;
  /** The two referral answers. */
  referralAnswers: ReferralAnswers;
  /** The 404 answer of page routes (HTML or JSON by the request). */
  errors: ErrorAnswers;
  /**
   * Where the `static` routes (`/openapi.json`, `/docs`…) are answered from, built on first need; without it they
   * answer 404 (the index never holds them).
   */
  statics?: Pick<StaticRepresentations, 'get'>;
}

/** Deprecation fields, formatted (from the index: changelog entries name them). */
type Deprecation = Readonly<Record<string, string>> | undefined;

/** A computed route's answer, given decoded and validated parameter values. */
type ComputedHandler = (ctx: StepContext, values: readonly string[], deprecation: Deprecation) => Answer | Promise<Answer>;

/** Deprecation fields of a request on a deprecated route (concrete path first, then its template). */
function deprecationOf(index: CatalogIndex, path: string, route: RouteSpec): Deprecation {
  if (!route.deprecatable || index.deprecations.size === 0) return undefined;
  return index.deprecations.get(path) ?? index.deprecations.get(route.path);
}

/** A JSON error answer, with the route's deprecation fields if any. */
function jsonError(ctx: StepContext, status: number, body: WholeBody, deprecation?: Deprecation, extra?: HeaderRecord): Answer {
  return respondJson(ctx, status, body, { ...extra, ...deprecation });
}

/** Validates and decodes a route's parameter values (those with a spec). @returns the values, or the 422 errors. */
function validate(route: RouteSpec, raw: readonly string[]): { values: string[] } | { errors: PathParamError[] } {
  const values = raw.map(decodePathSegment);
  const errors: PathParamError[] = [];
  route.params.forEach((spec, i) => {
    const error = checkPathParam(spec, values[i]!);
    if (error !== undefined) errors.push(error);
  });
  return errors.length > 0 ? { errors } : { values };
}

/** The routing step; see the module comment. */
export function routerStep(options: RouterOptions): Step {
  const { getIndex, health, referrals, referralAnswers, errors, statics } = options;
  // The table states it (routes.test.ts checks the referral route has one); encoded once.
  const referralUnavailable = detailBody(routeNamed('referral').unavailable!);

  /** The handler of every route whose answer is computed per request (the compiler checks none is missing). */
  const computed: Record<ComputedRouteName, ComputedHandler> = {
    serviceHealth: (ctx) => {
      const body = health.body;
      const headers: HeaderRecord = { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store' };
      if (ctx.method === 'HEAD') {
        headers['Content-Length'] = String(body.byteLength);
        return respond(ctx, 200, null, headers);
      }
      return respond(ctx, 200, body, headers);
    },
    referral: async (ctx, [code], deprecation) => {
      // Without a source the code is not checked, and the answer says so: `valid: false` would be a verdict.
      if (referrals === undefined) return jsonError(ctx, 503, referralUnavailable, deprecation, { 'Cache-Control': NO_STORE });
      const valid = await referrals.isValid(code!);
      // A no-store answer about this moment: no validator (the OpenAPI document declares none).
      return serveRepresentation(ctx, valid ? referralAnswers.valid : referralAnswers.invalid, deprecation, false);
    },
  };

  return (ctx) => {
    const path = ctx.url.pathname;
    const match = matchRoute(path);
    if (match === undefined) return withoutTrailingSlash(ctx, path, getIndex);
    const { route } = match;
    ctx.locals.route = route;
    // `/health` touches nothing but its own body: not even the index.
    const index = route.source === 'computed' && !route.deprecatable ? undefined : getIndex();
    if (index !== undefined) ctx.locals.revision = index.revision;
    const deprecation = index && deprecationOf(index, path, route);
    if (!(route.methods as readonly string[]).includes(ctx.method)) {
      return jsonError(ctx, 405, detailBody(DETAIL.methodNotAllowed), deprecation, { Allow: allowOf(route) });
    }
    let values: readonly string[] = match.values;
    if (route.params.length > 0) {
      const checked = validate(route, match.values);
      if ('errors' in checked) return jsonError(ctx, 422, validationErrorBody(checked.errors), deprecation);
      values = checked.values;
    }
    if (route.source === 'computed') return computed[route.name as ComputedRouteName](ctx, values, deprecation);
    // Validated values are plain ASCII: the index key is the template filled with the decoded values, the path
    // itself when decoding changed none.
    const key = values.some((value, i) => value !== match.values[i]) ? routePath(route, ...values) : path;
    const answer = (rep: Representation | undefined): Answer => {
      if (rep === undefined) {
        // An old id of a renamed resource: one more map lookup, on the way to a 404 only.
        const moved = route.aliases === undefined ? undefined : index!.redirects.get(key);
        if (moved !== undefined) return answerRedirect(ctx, moved, deprecation);
        if (route.errors === 'json') return jsonError(ctx, 404, detailBody(route.notFound ?? DETAIL.notFound), deprecation);
        return errors.notFound(ctx);
      }
      return serveRepresentation(ctx, rep);
    };
    if (route.source !== 'static') return answer(index!.representations.get(key));
    // Before the first build is done every request for one waits for that build: never a 404 in the meantime.
    const found = statics?.get(key);
    return found instanceof Promise ? found.then(answer) : answer(found);
  };
}

/**
 * `308 Permanent Redirect` (RFC 9110 §15.4.9) of a path with trailing slashes whose path without them is a route
 * (`/v1/catalog/` → `/v1/catalog`): `Location` is that path (after `PUBLIC_BASE_URL` when it is set, as every
 * redirect), the query kept; no body; the route's `Cache-Control`. `undefined` for any other path.
 */
function withoutTrailingSlash(ctx: StepContext, path: string, getIndex: () => CatalogIndex): Answer | undefined {
  // A loop, not a pattern: a path of many slashes costs one pass.
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 0x2f) end--;
  if (end === path.length || end === 1) return undefined;
  const target = path.slice(0, end);
  const route = matchRoute(target)?.route;
  if (route === undefined) return undefined;
  return answerRedirect(ctx, { location: getIndex().locationBase + target, body: EMPTY_BODY, contentType: null, cacheControl: route.cacheControl });
}

/**
 * The last step: `404 {"detail":"Not Found"}` for any path nothing else answered, or the HTML 404 page for a
 * page request (see `html-errors.ts`).
 */
export function notFoundStep(errors: ErrorAnswers): Step {
  return (ctx) => errors.notFound(ctx);
}
