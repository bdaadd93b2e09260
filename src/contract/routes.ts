/**
 * The route table: every path this service answers, stated once. The router, path-parameter validation (422),
 * the budget a request spends, the 404/405 bodies, the JSON-or-HTML choice of error representations, the
 * index's precomputed entries and the OpenAPI document all derive from it. Data and pure functions only.
 *
 * Adding a read-only JSON route backed by the index: one entry here, its body schema in `schemas/api/`, and the
 * function that computes its body in `src/index/bodies.ts` (the compiler asks for it).
 */
import { COURSE_ID, LESSON_ID, REFERRAL_CODE, type PathParamSpec } from './params.js';
import type { ComponentSchemaName, JsonSchemaObject } from './components.js';

/** The versioned JSON API lives under this path; any error below it is the contract's JSON. */
export const API_BASE = '/v1';

/** A method this read-only service answers. */
export type ReadMethod = 'GET' | 'HEAD';

/**
 * Where a route's 200 body comes from. `index`: a precomputed representation of the content (a strong ETag,
 * 304s). `computed`: built per request by a handler of the app (`/health`, referral checks). `page`: rendered by
 * `src/pages` at index build time (HTML, the feed, the site's assets, `robots.txt`, the sitemap). `static`:
 * content-independent bytes (the OpenAPI document, `/docs`), built once per process on first need, beside the
 * index (`src/index/static-representations.ts`).
 */
export type RouteSource = 'index' | 'computed' | 'page' | 'static';

/**
 * How a request spends the fair-use budgets. `exempt`: never refused, reports the read budget without spending
 * it. `read`: spends the read budget. `referral`: spends the read budget and the referral budget.
 */
export type Budget = 'exempt' | 'read' | 'referral';

/**
 * Error representations: the contract's JSON; an HTML page for people (a 404 or 429 on a page); or whichever the
 * client's `Accept` prefers (`negotiated`, also the choice for paths no route knows).
 */
export type ErrorFormat = 'json' | 'html' | 'negotiated';

/**
 * A kind of id that may be renamed: a resource keeps the ids it was published under in its frontmatter's
 * `aliases` (the content model's `AliasTable` has one map of old id → current id per kind).
 */
export type AliasKind = 'courses' | 'lessons';

/** What the OpenAPI document says of a route; routes without it are not part of the documented API. */
export interface OperationDoc {
  /**
   * `operationId` of the GET operation. The HEAD one, when the route allows HEAD, is derived: `head` + the rest
   * (`getCatalog` → `headCatalog`), summary + `, headers only`.
   */
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  /** The 200 body: a component of `schemas/api/` by name, or a schema written here (`/health`). */
  readonly body: ComponentSchemaName | JsonSchemaObject;
  /** Description of the 200 response. */
  readonly bodyDescription: string;
  readonly example?: unknown;
}

/** One route of the table. */
export interface RouteSpec {
  /** Stable name: the key of the route's body function (index) or handler (computed). */
  readonly name: string;
  /** Path template; `{name}` is one non-empty path segment. */
  readonly path: string;
  /**
   * Methods answered besides `OPTIONS` (which every path answers: a CORS preflight); any other gets a 405. `Allow`
   * and `Access-Control-Allow-Methods` derive from it ({@link allowOf}).
   */
  readonly methods: readonly ReadMethod[];
  /**
   * Specs of the template's parameters, validated (422) before the lookup. A template parameter without a spec
   * (a page's `{course_id}`) matches any segment, and an unknown value is simply a 404.
   */
  readonly params: readonly PathParamSpec[];
  readonly source: RouteSource;
  readonly budget: Budget;
  readonly errors: ErrorFormat;
  /** `detail` of the 404 when the path names nothing (default `Not Found`; pages render their own). */
  readonly notFound?: string;
  /**
   * `detail` of the `503` a computed route answers when this instance cannot compute its answer as configured (a
   * referral check without a referral source): no verdict on the request, and `Cache-Control: no-store`.
   */
  readonly unavailable?: string;
  /**
   * The kind of id the route's (one) parameter names, when ids of that kind may be renamed: a request for an old
   * id (an alias) is answered `308 Permanent Redirect` to the path of the current id, the query kept.
   */
  readonly aliases?: AliasKind;
  /** `Cache-Control` of the 200 (index and static routes). */
  readonly cacheControl: string;
  /** Whether a changelog entry may deprecate it (`deprecates[].path`): every route of the versioned API. */
  readonly deprecatable: boolean;
  /** The name of its URL in the API's root (`GET /v1`): `<link>_url`. Routes without one are not listed there. */
  readonly link?: string;
  readonly operation?: OperationDoc;
}

/** Content-Type of every JSON body of the contract (the API's bodies, its errors, a 308's). */
export const JSON_TYPE = 'application/json';

/** Catalog data may be reused for a minute by any cache. */
export const CATALOG_CACHE_CONTROL = 'public, max-age=60';
/** Answers about this moment (health, referral checks): no cache may reuse them. */
export const NO_STORE = 'no-store';
/** Content-independent documents (the OpenAPI document, the `/docs` page). */
const DOCUMENT_CACHE_CONTROL = 'public, max-age=300';
/**
 * Files under content-hashed names (`/assets/site.<hash>.css`, `/docs/assets/swagger-ui-bundle.<hash>.js`): the
 * bytes at a name never change, so any cache may keep them for a year without revalidating (RFC 8246 `immutable`).
 */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/**
 * `/favicon.ico`: a fixed name whose bytes may change with a release, so not `immutable`; a week, then a
 * revalidation by ETag (a 304).
 */
const FAVICON_CACHE_CONTROL = 'public, max-age=604800';

/** The liveness body of `/health` (not a component: every value is a string, facts vary by deployment). */
const SERVICE_HEALTH_SCHEMA: JsonSchemaObject = {
  type: 'object',
  description:
    'Liveness of this instance. Every value is a string: at least `status`, plus facts such as the content revision served and the last reload error.',
  required: ['status'],
  properties: {
    status: { type: 'string', description: '`ok` while the instance serves.' },
    revision: { type: 'string', description: 'The content revision served (a Git commit id when the content comes from Git).' },
    last_reload_error: {
      type: 'string',
      description:
        'Empty, or the last content update refused: its commit and its count of problems (never file names or values; operators see those in the log).',
    },
    content_watch: {
      type: 'string',
      description:
        '`ok`, or the category of why the content source cannot be checked right now (e.g. `branch-missing`, `network`, `folder-missing`); the instance keeps serving.',
    },
    content_in_sync: { type: 'string', enum: ['true', 'false'], description: 'Whether the newest revision of the content source is the one served.' },
  },
  additionalProperties: { type: 'string' },
};

const GET_HEAD: readonly ReadMethod[] = ['GET', 'HEAD'];

/**
 * A route of the versioned JSON API: GET and HEAD. The FastAPI service this contract comes from answered HEAD with
 * 405; a server that answers GET should answer HEAD (RFC 9110 §9.3.2), so `curl -I` works.
 */
function api<const N extends string, const S extends RouteSource>(
  spec: Omit<RouteSpec, 'name' | 'source' | 'methods' | 'errors' | 'deprecatable' | 'cacheControl' | 'params'> & {
    name: N;
    source: S;
    params?: readonly PathParamSpec[];
    cacheControl?: string;
  },
): RouteSpec & { name: N; source: S } {
  return {
    ...spec,
    path: API_BASE + spec.path,
    methods: GET_HEAD,
    params: spec.params ?? [],
    errors: 'json',
    deprecatable: true,
    cacheControl: spec.cacheControl ?? CATALOG_CACHE_CONTROL,
  };
}

/** A content-independent document (the OpenAPI document, the reference page and its assets). */
function document<const N extends string>(
  name: N,
  path: string,
  cacheControl: string,
  budget: Budget,
  link?: string,
): RouteSpec & { name: N; source: 'static' } {
  return {
    name,
    path,
    methods: GET_HEAD,
    params: [],
    source: 'static',
    budget,
    errors: 'json',
    cacheControl,
    deprecatable: false,
    ...(link !== undefined && { link }),
  };
}

/** A web page or feed, rendered from the content at index build time (`aliases`: see {@link RouteSpec.aliases}). */
function page<const N extends string>(name: N, path: string, aliases?: AliasKind): RouteSpec & { name: N; source: 'page' } {
  return {
    name,
    path,
    ...(aliases && { aliases }),
    methods: GET_HEAD,
    params: [],
    source: 'page',
    budget: 'read',
    errors: 'html',
    cacheControl: CATALOG_CACHE_CONTROL,
    deprecatable: false,
  };
}

/**
 * A file of the site rendered with the pages at index build time (an asset, the icon, `robots.txt`, the sitemap),
 * with its own budget and caching. Errors follow the client's `Accept`: there is no page to show.
 */
function siteFile<const N extends string>(name: N, path: string, budget: Budget, cacheControl: string): RouteSpec & { name: N; source: 'page' } {
  return { name, path, methods: GET_HEAD, params: [], source: 'page', budget, errors: 'negotiated', cacheControl, deprecatable: false };
}

/**
 * The table, in matching order (a fixed path before a template that could match it). The order of the
 * documented routes is also the order of the OpenAPI document's `paths`.
 */
export const ROUTES = [
  {
    name: 'serviceHealth',
    path: '/health',
    methods: GET_HEAD,
    params: [],
    source: 'computed',
    budget: 'exempt',
    errors: 'json',
    cacheControl: NO_STORE,
    deprecatable: false,
    operation: {
      operationId: 'getServiceHealth',
      tag: 'Service',
      summary: 'Instance health',
      description:
        "Liveness of this instance for load balancers and monitors. Touches nothing but memory, is never refused with a 429 and reports the caller's read budget without spending it.",
      body: SERVICE_HEALTH_SCHEMA,
      bodyDescription: 'The instance is serving.',
      example: { status: 'ok' },
    },
  },
  api({
    name: 'apiRoot',
    path: '',
    source: 'index',
    budget: 'read',
    operation: {
      operationId: 'getApiRoot',
      tag: 'Service',
      summary: "The API's URLs",
      description:
        'Every URL of the API by name, as `<name>_url` (GitHub-style): a route with parameters as its template (RFC 6570, e.g. `/v1/lessons/{lesson_id}`), the OpenAPI document and the reference. URLs are absolute after `PUBLIC_BASE_URL` when the service has one, else paths on this origin. Generated from the route table.\n\n' +
        'Paths near a route: a path with a trailing slash whose path without it is a route answers `308 Permanent Redirect` to it (`Location` without the slash, the query kept; no body). Any other path below `/v1/` that names no route answers `404` with `{"detail": "Not Found", "nearest_route": "<template>"}`: the route whose template is nearest to the path asked for (`/v1/courses` → `/v1/courses/{course_id}`), or `/v1` itself.',
      // The table itself says which URLs the root lists: the schema is derived from it when asked.
      get body() {
        return apiLinksSchema();
      },
      bodyDescription: "The API's URLs.",
    },
  }),
  api({
    name: 'apiHealth',
    path: '/health',
    source: 'index',
    budget: 'read',
    link: 'health',
    cacheControl: NO_STORE,
    operation: {
      operationId: 'getHealth',
      tag: 'Service',
      summary: 'API health',
      description: 'Whether version 1 of the API is served.',
      body: 'Health',
      bodyDescription: 'Version 1 is served.',
    },
  }),
  api({
    name: 'catalog',
    path: '/catalog',
    source: 'index',
    budget: 'read',
    link: 'catalog',
    operation: {
      operationId: 'getCatalog',
      tag: 'Catalog',
      summary: 'The whole catalog',
      description: 'Every course, live and soon, in display order, with its classes, their lessons and the counts.',
      body: 'Catalog',
      bodyDescription: 'The catalog.',
    },
  }),
  api({
    name: 'course',
    path: '/courses/{course_id}',
    params: [COURSE_ID],
    source: 'index',
    budget: 'read',
    link: 'course',
    notFound: 'Course not found',
    aliases: 'courses',
    operation: {
      operationId: 'getCourse',
      tag: 'Catalog',
      summary: 'One course',
      description: 'A course with its classes and their lessons.',
      body: 'Course',
      bodyDescription: 'The course.',
    },
  }),
  api({
    name: 'lesson',
    path: '/lessons/{lesson_id}',
    params: [LESSON_ID],
    source: 'index',
    budget: 'read',
    link: 'lesson',
    notFound: 'Lesson not found',
    aliases: 'lessons',
    operation: {
      operationId: 'getLesson',
      tag: 'Catalog',
      summary: 'One lesson',
      description: "A lesson's metadata. Its step content is never served: `steps` is a count.",
      body: 'Lesson',
      bodyDescription: 'The lesson.',
    },
  }),
  api({
    name: 'changelog',
    path: '/changelog',
    source: 'index',
    budget: 'read',
    link: 'changelog',
    operation: {
      operationId: 'getChangelog',
      tag: 'Changelog',
      summary: 'The changelog',
      description: 'What changed, newest first; on the same date, by id.',
      body: 'Changelog',
      bodyDescription: 'The changelog.',
    },
  }),
  api({
    name: 'roadmap',
    path: '/roadmap',
    source: 'index',
    budget: 'read',
    link: 'roadmap',
    operation: {
      operationId: 'getRoadmap',
      tag: 'Roadmap',
      summary: 'The roadmap',
      description: 'What is planned, by stage (shipped, building, next, exploring); a stage with no items is omitted.',
      body: 'Roadmap',
      bodyDescription: 'The roadmap.',
    },
  }),
  api({
    name: 'referral',
    path: '/referrals/{code}',
    params: [REFERRAL_CODE],
    source: 'computed',
    budget: 'referral',
    link: 'referral',
    cacheControl: NO_STORE,
    unavailable: 'Referral codes cannot be checked: this service has no referral source configured',
    operation: {
      operationId: 'checkReferral',
      tag: 'Referrals',
      summary: 'Check a referral code',
      description:
        'Whether a referral code is valid. The answer never identifies the owner. An instance without a source of referral codes answers `503`: the code was not checked, so it is neither valid nor invalid. Besides the read budget, each address has an hourly referral budget (60 checks by default), spent by every check whatever the answer; the RateLimit headers report whichever budget is closer to running out, and a 429 the one that ran out.',
      body: 'ReferralCheck',
      bodyDescription: 'Whether the code is valid.',
    },
  }),
  document('openApiDocument', '/openapi.json', DOCUMENT_CACHE_CONTROL, 'exempt', 'openapi'),
  document('docs', '/docs', DOCUMENT_CACHE_CONTROL, 'exempt', 'docs'),
  // The page's scripts, stylesheet and icons under content-hashed names (an unknown or superseded name is a 404).
  // A read: the Swagger UI bundle is 1.7 MB, and a browser keeps each name for a year.
  document('docsAsset', '/docs/assets/{file}', IMMUTABLE_CACHE_CONTROL, 'read'),
  page('home', '/'),
  page('coursePage', '/courses/{course_id}', 'courses'),
  page('changelogPage', '/changelog'),
  page('changelogFeed', '/changelog.atom'),
  page('roadmapPage', '/roadmap'),
  // Stylesheets and the icon, named by a digest of their bytes (an unknown or superseded name is a 404). Exempt:
  // a browser refused a page still gets the 429 page's stylesheet.
  siteFile('pageAsset', '/assets/{file}', 'exempt', IMMUTABLE_CACHE_CONTROL),
  // The icon at the name browsers and crawlers ask for without a page naming one: the SVG bytes themselves.
  siteFile('favicon', '/favicon.ico', 'exempt', FAVICON_CACHE_CONTROL),
  // Exempt: Google's crawlers take a 429 on robots.txt like a 5xx, as "disallow the whole site" until it answers
  // (RFC 9309 §2.3.1.4 allows that); a crawler must always get the rules. A few hundred precomputed bytes.
  siteFile('robots', '/robots.txt', 'exempt', CATALOG_CACHE_CONTROL),
  siteFile('sitemap', '/sitemap.xml', 'read', CATALOG_CACHE_CONTROL),
] as const satisfies readonly RouteSpec[];

/** The method every path answers before routing: the CORS preflight (`src/http/cors.ts`), never budgeted. */
export const PREFLIGHT_METHOD = 'OPTIONS';

/** `Allow` (RFC 9110 §10.2.1) of a path answering `methods`: them and the preflight's. */
const allowOfMethods = (methods: readonly string[]): string => [...methods, PREFLIGHT_METHOD].join(', ');

/** `Allow` of each route, formatted once. */
const ALLOW = new Map<RouteSpec, string>((ROUTES as readonly RouteSpec[]).map((r) => [r, allowOfMethods(r.methods)]));

/**
 * What a route answers, as `Allow` and `Access-Control-Allow-Methods` write it: its methods and `OPTIONS`
 * (`GET, HEAD, OPTIONS`). The same value on its 405 and on its preflight's 204.
 */
export function allowOf(route: RouteSpec): string {
  return ALLOW.get(route) ?? allowOfMethods(route.methods);
}

/**
 * What a preflight of a path no route matches is told: every method some route answers, and `OPTIONS`. A script
 * may then send its request, and read the 404 (or a redirect) it gets.
 */
export const ANY_PATH_ALLOW = allowOfMethods([...new Set((ROUTES as readonly RouteSpec[]).flatMap((r) => r.methods))]);

/** The routes the API's root lists, in the table's order. */
function linkedRoutes(): ReadonlyArray<RouteSpec & { link: string }> {
  return (ROUTES as readonly RouteSpec[]).filter((r): r is RouteSpec & { link: string } => r.link !== undefined);
}

/**
 * The body of the API's root (`GET /v1`): `{"<link>_url": "<base><path template>", …}` for every route with a
 * `link`, in the table's order.
 * @param base put before each path (`PUBLIC_BASE_URL` without a trailing slash), or `''` for paths alone.
 */
export function apiLinks(base: string): Record<string, string> {
  return Object.fromEntries(linkedRoutes().map((r) => [`${r.link}_url`, base + r.path]));
}

/** The JSON Schema of {@link apiLinks}' body, for the OpenAPI document. */
function apiLinksSchema(): JsonSchemaObject {
  const routes = linkedRoutes();
  return {
    type: 'object',
    description: "The API's URLs by name; a route with parameters as its URI template (RFC 6570).",
    required: routes.map((r) => `${r.link}_url`),
    properties: Object.fromEntries(
      routes.map((r) => [`${r.link}_url`, { type: 'string', description: `\`${r.path}\`, after the base URL if any.`, example: r.path }]),
    ),
    additionalProperties: false,
  };
}

/** A route's name. */
export type RouteName = (typeof ROUTES)[number]['name'];
/** The names of the routes whose 200 bodies the index precomputes from the content. */
export type IndexRouteName = Extract<(typeof ROUTES)[number], { source: 'index' }>['name'];
/** The names of the routes the app computes per request. */
export type ComputedRouteName = Extract<(typeof ROUTES)[number], { source: 'computed' }>['name'];

/** A route found for a path, with its raw (still percent-encoded) parameter values in template order. */
export interface RouteMatch {
  readonly route: RouteSpec;
  readonly values: readonly string[];
}

/** A template split into segments; a parameter segment is `undefined`. */
interface CompiledRoute {
  readonly route: RouteSpec;
  readonly segments: readonly (string | undefined)[];
}

/** `route` with its template split into segments. */
function compileRoute(route: RouteSpec): CompiledRoute {
  return { route, segments: route.path.split('/').map((s) => (s.startsWith('{') ? undefined : s)) };
}

const COMPILED: readonly CompiledRoute[] = ROUTES.map(compileRoute);

const NO_VALUES: readonly string[] = Object.freeze([]);

/** The match of each fixed path (a template without parameters), for a lookup without a scan. */
const FIXED = new Map<string, RouteMatch>(
  COMPILED.filter((c) => !c.segments.includes(undefined)).map((c) => [c.route.path, Object.freeze({ route: c.route, values: NO_VALUES })]),
);
const PARAMETERISED = COMPILED.filter((c) => c.segments.includes(undefined));

/**
 * The route a request path belongs to.
 * @param path the URL path, not decoded; a parameter is one non-empty segment.
 * @returns the route and its raw parameter values (a fixed path's match is frozen and shared), or `undefined` when
 *   no route matches.
 */
export function matchRoute(path: string): RouteMatch | undefined {
  const fixed = FIXED.get(path);
  if (fixed !== undefined) return fixed;
  const values: string[] = [];
  for (const compiled of PARAMETERISED) {
    if (matchesTemplate(path, compiled.segments, values)) return { route: compiled.route, values };
    values.length = 0;
  }
  return undefined;
}

/** The route of the table `path` matches, as {@link matchRoute} finds it, without collecting its values. */
function routeMatched(path: string): RouteSpec | undefined {
  const fixed = FIXED.get(path);
  if (fixed !== undefined) return fixed.route;
  for (const compiled of PARAMETERISED) if (matchesTemplate(path, compiled.segments)) return compiled.route;
  return undefined;
}

/**
 * Whether `path`'s segments are the template's, a parameter matching any non-empty segment (pushed to `values`
 * when given). Read by index: every request is matched, and splitting the path made an array per request.
 */
function matchesTemplate(path: string, template: readonly (string | undefined)[], values?: string[]): boolean {
  let start = 0;
  for (let i = 0; i < template.length; i++) {
    if (start > path.length) return false;
    let end = path.indexOf('/', start);
    if (end === -1) end = path.length;
    const want = template[i];
    if (want === undefined) {
      if (end === start) return false;
      values?.push(path.slice(start, end));
    } else if (end - start !== want.length || !path.startsWith(want, start)) return false;
    start = end + 1;
  }
  return start === path.length + 1;
}

/** The route with this name. @throws Error when there is none (a bug: names are checked by the compiler). */
export function routeNamed(name: RouteName): RouteSpec {
  const route = ROUTES.find((r) => r.name === name);
  if (route === undefined) throw new Error(`no route named ${name}`);
  return route;
}

/** Each route of the table with its template's segments, for {@link routePath}. */
const COMPILED_BY_ROUTE = new Map<RouteSpec, CompiledRoute>(COMPILED.map((c) => [c.route, c]));

/** The segments of `route`'s template, a parameter as `undefined` (`/v1/lessons/{lesson_id}` → `['', 'v1', 'lessons', undefined]`). */
export function templateSegments(route: RouteSpec): readonly (string | undefined)[] {
  return (COMPILED_BY_ROUTE.get(route) ?? compileRoute(route)).segments;
}

/** The concrete path of a route for parameter values (already valid ids: no encoding needed). */
export function routePath(route: RouteSpec, ...values: string[]): string {
  // Concatenated from the template's segments: a start makes a path per lesson before it serves.
  const segments = templateSegments(route);
  let path = '';
  let next = 0;
  for (let i = 0; i < segments.length; i++) path += `${i === 0 ? '' : '/'}${segments[i] ?? values[next++] ?? ''}`;
  return path;
}

/**
 * Whether a changelog entry may name this path in `deprecates[].path`: a deprecatable route's template
 * (`/v1/courses/{course_id}`) or one of its concrete paths (`/v1/courses/python-basics`).
 */
export function isDeprecatablePath(path: string): boolean {
  const template = ROUTES.find((r) => r.path === path);
  if (template !== undefined) return template.deprecatable;
  return matchRoute(path)?.route.deprecatable ?? false;
}

/** The static prefixes of routes whose last segment is a parameter (`/v1/referrals/`), with their route. */
const PREFIXED: ReadonlyArray<readonly [string, RouteSpec]> = PARAMETERISED.filter((c) => c.segments.at(-1) === undefined).map((c) => [
  c.route.path.slice(0, c.route.path.lastIndexOf('/') + 1),
  c.route,
]);

/**
 * The route a path belongs to: the route it matches, or else the route ending in a parameter below whose static
 * prefix it lies (`/v1/referrals/a/b` → the referral route, `/courses/` → the course page).
 * @param path the URL path, not decoded.
 */
export function routeFor(path: string): RouteSpec | undefined {
  const matched = routeMatched(path);
  if (matched !== undefined) return matched;
  for (const [prefix, route] of PREFIXED) if (path.startsWith(prefix)) return route;
  return undefined;
}

/**
 * The budget a path spends: its route's ({@link routeFor}: so no spelling of a referral code, valid or not,
 * escapes the referral budget); any other path is a read.
 * @param path the URL path, not decoded.
 */
export function budgetOf(path: string): Budget {
  return routeFor(path)?.budget ?? 'read';
}

/** First path segments (`/v1`, `/health`, `/docs`, …) under which every error is the contract's JSON. */
const JSON_NAMESPACES: ReadonlySet<string> = new Set(ROUTES.filter((r) => r.errors === 'json').map((r) => firstSegment(r.path)));

function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end === -1 ? path : path.slice(0, end);
}

/**
 * The error representation a path calls for: `json` under a JSON route's namespace (`/v1/…`, `/health`,
 * `/openapi.json`, `/docs/…`); a route's own choice on its path or below the static prefix of a template ending
 * in a parameter (`/courses/…` → `html`); `negotiated` elsewhere.
 */
export function errorFormatOf(path: string): ErrorFormat {
  if (JSON_NAMESPACES.has(firstSegment(path))) return 'json';
  return routeFor(path)?.errors ?? 'negotiated';
}
