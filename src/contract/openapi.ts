/**
 * The OpenAPI 3.1 document of the public API, assembled from the API's JSON Schemas (passed in as
 * component schemas) and the route table (`routes.ts`: paths, methods, parameters, bodies, errors, budgets).
 * Pure: no file access, so it runs on any runtime; `src/server/openapi-document.ts` reads the schemas from
 * `schemas/` and calls it.
 *
 * Nothing here restates a body shape of `schemas/api/`: 200 bodies are `$ref`s to the components. Only the
 * small error envelopes without a schema of their own (`{"detail": string}`) and `/health` are written here.
 */
import { COMPONENT_SCHEMA_NAMES, type ComponentSchemaName, type JsonSchemaObject as JsonSchema } from './components.js';
import { DETAIL, movedDetail } from './errors.js';
import { RATE_LIMITS_DOC_URL, TOO_MANY_REQUESTS_SCHEMA, tooManyRequestsBody, type ClientKind } from './rate-limits.js';
import type { PathParamSpec } from './params.js';
import { API_BASE, JSON_TYPE, ROUTES, routePath, type RouteSpec } from './routes.js';

/** The RateLimit response fields (draft-ietf-httpapi-ratelimit-headers-06) declared on every response. */
export const RATE_LIMIT_HEADER_NAMES = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy'] as const;

/** A JSON object of the document (loosely typed: the document is data, checked by the linters and tests). */
export type OpenApiObject = Record<string, unknown>;

/** The OpenAPI 3.1 document, as served at `/openapi.json`. */
export interface OpenApiDocument extends OpenApiObject {
  openapi: '3.1.0';
  info: OpenApiObject & { title: string; version: string };
  servers: Array<{ url: string; description?: string }>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, OpenApiObject>;
  components: {
    schemas: Record<ComponentSchemaName, JsonSchema>;
    headers: Record<string, OpenApiObject>;
    parameters: Record<string, OpenApiObject>;
    responses: Record<string, OpenApiObject>;
  };
}

/** Input of {@link assembleOpenApiDocument}. */
export interface OpenApiInput {
  /**
   * The component schemas, with every reference to another API schema already written as
   * `{"$ref": "#/components/schemas/<Name>"}` and shared definitions inlined (see `inlineSchema`).
   */
  components: Readonly<Record<ComponentSchemaName, JsonSchema>>;
  /** Absolute base URL the API is published at (e.g. `https://api.example.org`); default: the relative `/`. */
  publicBaseUrl?: string;
  /** `info.version`: the version of this document (the service's release). */
  version: string;
  /** The read budgets of each client kind (`RATE_LIMIT_*`), and their window: for the description and the 429's example. */
  readBudgets: { limits: Readonly<Record<ClientKind, number>>; windowSeconds: number };
}

/** `#/components/schemas/<name>` reference. */
export function schemaRef(name: ComponentSchemaName): { $ref: string } {
  return { $ref: `#/components/schemas/${name}` };
}

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** `{"detail": "<message>"}`: the envelope of every error other than a 422. */
function detailSchema(description: string): JsonSchema {
  return {
    type: 'object',
    description,
    required: ['detail'],
    properties: { detail: { type: 'string', description: 'What went wrong, in English.' } },
  };
}

/**
 * The `308` of a route whose ids may be renamed (`aliases` in the table): an old id (the renamed resource's
 * frontmatter `aliases`) redirects to the current one, with the route's caching. Its example is derived from the
 * parameter's.
 */
function movedResponse(route: RouteSpec, method: 'get' | 'head', headers: OpenApiObject): OpenApiObject | undefined {
  const kind = route.aliases;
  const param = route.params[0];
  if (kind === undefined || param === undefined) return undefined;
  const [old, current] = [`old-${param.example}`, param.example];
  return {
    description:
      'Permanent Redirect (RFC 9110 §15.4.9): the id was renamed, and the resource is at `Location`. Ids never break: repeat the request there (a client that follows redirects does), and use the new id from now on.',
    headers: {
      ...headers,
      Location: {
        description:
          "The current resource: its path, after the service's published base URL when it has one (as `servers`), with the request's query string kept.",
        required: true,
        schema: { type: 'string', format: 'uri-reference' },
        example: routePath(route, current),
      },
      'Cache-Control': headerRef('Cache-Control'),
    },
    ...(method === 'get' && {
      content: {
        [JSON_TYPE]: {
          schema: {
            type: 'object',
            description: 'Which id was asked for and which id the resource has now.',
            required: ['detail'],
            properties: { detail: { type: 'string', description: 'The old id and the current one, in English.' } },
          },
          example: { detail: movedDetail(kind, old, current) },
        },
      },
    }),
  };
}

/** One operation of the document, derived from a documented route of the table. */
interface OperationSpec {
  route: RouteSpec & { operation: NonNullable<RouteSpec['operation']> };
  method: 'get' | 'head';
}

/** Served from the index: a strong ETag, `If-None-Match` and 304. */
const isConditional = (route: RouteSpec): boolean => route.source === 'index';

/** Every documented route's operations, GET then HEAD, in the table's order. */
function operations(): OperationSpec[] {
  const out: OperationSpec[] = [];
  for (const route of ROUTES as readonly RouteSpec[]) {
    if (route.operation === undefined) continue;
    const documented = { ...route, operation: route.operation };
    for (const method of route.methods) out.push({ route: documented, method: method === 'GET' ? 'get' : 'head' });
  }
  return out;
}

const TAGS = [
  { name: 'Service', description: 'Health of the instance and of the API.' },
  { name: 'Catalog', description: 'Courses, their classes and lessons.' },
  { name: 'Changelog', description: 'What changed, newest first.' },
  { name: 'Roadmap', description: 'What is planned, by stage.' },
  { name: 'Referrals', description: 'Referral code checks.' },
];

/** The reusable response headers (RFC 9110, RFC 9745, RFC 8594, RFC 8288, RateLimit draft-06). */
function headers(): Record<string, OpenApiObject> {
  const integer = (description: string, example: number) => ({
    description,
    required: true,
    schema: { type: 'integer', minimum: 0 },
    example,
  });
  return {
    'RateLimit-Limit': integer('Requests allowed per window in the budget reported (draft-ietf-httpapi-ratelimit-headers-06).', 120),
    'RateLimit-Remaining': integer('Requests left in the current window of that budget; never negative.', 119),
    'RateLimit-Reset': integer('Whole seconds until that window resets, rounded up; never negative.', 60),
    'RateLimit-Policy': {
      description: 'The budget reported: `<limit>;w=<window seconds>`, e.g. `120;w=60`, or `60;w=3600` on referral checks.',
      required: true,
      schema: { type: 'string', pattern: '^[0-9]+;w=[0-9]+$' },
      example: '120;w=60',
    },
    'Retry-After': {
      description: 'Seconds to wait before the next request is accepted (RFC 9110 §10.2.3); equal to `RateLimit-Reset`.',
      required: true,
      schema: { type: 'integer', minimum: 0 },
      example: 42,
    },
    ETag: {
      description: 'Strong entity tag of the representation (RFC 9110 §8.8.3), for `If-None-Match`.',
      schema: { type: 'string' },
      example: '"3q2-7w"',
    },
    'Cache-Control': {
      description: 'How long shared and private caches may reuse the response (RFC 9111 §5.2).',
      schema: { type: 'string' },
      example: 'public, max-age=60',
    },
    Deprecation: {
      description: 'Present when the route is deprecated: `@<unix seconds>` of the announcing changelog entry (RFC 9745).',
      schema: { type: 'string', pattern: '^@-?[0-9]+$' },
      example: '@1735689600',
    },
    Sunset: {
      description: 'Present when the route is deprecated: the HTTP-date it stops being served (RFC 8594).',
      schema: { type: 'string' },
      example: 'Wed, 02 Apr 2025 00:00:00 GMT',
    },
    Link: {
      description: 'Present when the route is deprecated: the changelog entry that announced it, `rel="deprecation"` (RFC 9745 §3, RFC 8288).',
      schema: { type: 'string' },
      example: '</v1/changelog#retire-old-route>; rel="deprecation"',
    },
  };
}

const rateLimitHeaders = () => Object.fromEntries(RATE_LIMIT_HEADER_NAMES.map((n) => [n, headerRef(n)]));

/** A 422 body in the FastAPI / Pydantic v2 shape, generated from the spec the request validation uses. */
function validationExample(p: PathParamSpec): unknown {
  const input = p.name === 'code' ? 'not a code!' : 'Not An Id!';
  return {
    detail: [
      {
        type: 'string_pattern_mismatch',
        loc: ['path', p.name],
        msg: `String should match pattern '${p.pattern}'`,
        input,
        ctx: { pattern: p.pattern },
      },
    ],
  };
}

/** The path parameter object of one spec. */
function pathParameter(p: PathParamSpec): OpenApiObject {
  return {
    name: p.name,
    in: 'path',
    required: true,
    description: p.description,
    schema: { type: 'string', minLength: p.minLength, maxLength: p.maxLength, pattern: p.pattern },
    example: p.example,
  };
}

/** The responses of one operation, each with the RateLimit headers. */
function responses({ route, method }: OperationSpec): OpenApiObject {
  const out: OpenApiObject = {};
  const doc = route.operation;
  // A deprecated route says so on every answer, errors included (RFC 9745 §2).
  const deprecation = route.deprecatable ? Object.fromEntries(['Deprecation', 'Sunset', 'Link'].map((h) => [h, headerRef(h)])) : {};
  const errorHeaders = { ...rateLimitHeaders(), ...deprecation };
  const okHeaders: OpenApiObject = { ...rateLimitHeaders(), 'Cache-Control': headerRef('Cache-Control'), ...deprecation };
  if (isConditional(route)) okHeaders.ETag = headerRef('ETag');
  const schema = typeof doc.body === 'string' ? schemaRef(doc.body) : doc.body;
  out['200'] = {
    description: doc.bodyDescription,
    headers: okHeaders,
    ...(method === 'get' && {
      content: { [JSON_TYPE]: { schema, ...(doc.example !== undefined && { example: doc.example }) } },
    }),
  };
  if (isConditional(route)) out['304'] = responseRef('NotModified');
  const moved = movedResponse(route, method, errorHeaders);
  if (moved !== undefined) out['308'] = moved;
  if (route.notFound !== undefined) {
    out['404'] = {
      description: `${route.notFound}: no such id.`,
      headers: errorHeaders,
      ...(method === 'get' && {
        content: { [JSON_TYPE]: { schema: detailSchema('The id names nothing.'), example: { detail: route.notFound } } },
      }),
    };
  }
  if (route.params.length > 0) {
    out['422'] = {
      description: 'A path parameter is invalid: one error per parameter, checked in the order min length, max length, pattern.',
      headers: errorHeaders,
      ...(method === 'get' && {
        content: { [JSON_TYPE]: { schema: schemaRef('HTTPValidationError'), example: validationExample(route.params[0]!) } },
      }),
    };
  }
  if (route.budget !== 'exempt') out['429'] = responseRef(method === 'get' ? 'TooManyRequests' : 'TooManyRequestsHead');
  if (route.unavailable !== undefined) {
    out['503'] = {
      description:
        'Service Unavailable (RFC 9110 §15.6.4): this instance cannot compute the answer as configured, and `detail` says why. Nothing was checked, so this is no answer about the request. No `Retry-After`: asking again does not help until the service is configured otherwise. It spends the budgets like any request.',
      headers: { ...errorHeaders, 'Cache-Control': headerRef('Cache-Control') },
      ...(method === 'get' && {
        content: { [JSON_TYPE]: { schema: detailSchema('Why the answer cannot be computed.'), example: { detail: route.unavailable } } },
      }),
    };
  }
  return out;
}

/** The HEAD operation's id of a GET operation's: `getCatalog` → `headCatalog`, `checkReferral` → `headCheckReferral`. */
function headOperationId(get: string): string {
  const rest = get.replace(/^get/, '');
  return `head${rest.charAt(0).toUpperCase()}${rest.slice(1)}`;
}

/** `480 for a verified agent (a signed one), 120 for a declared one …`: the budgets by kind. */
function budgetList(limits: OpenApiInput['readBudgets']['limits']): string {
  return `${limits.verified} for a verified (signed) agent, ${limits.declared} for a declared one (named in \`User-Agent\`), ${limits.browser} for a browser, ${limits.anonymous} for any other client`;
}

/** The 429 of an anonymous client that spent its read budget 18 seconds ago. */
function tooManyRequestsExample({ limits, windowSeconds }: OpenApiInput['readBudgets']): unknown {
  return tooManyRequestsBody({
    detail: DETAIL.tooManyRequests,
    kind: 'anonymous',
    budget: 'read',
    limit: limits.anonymous,
    windowSeconds,
    resetSeconds: windowSeconds - 18,
    limitOf: (kind) => limits[kind],
  });
}

/** Trailing slashes removed; `/` when no base URL is configured (Swagger UI then calls the same origin). */
function serverUrl(publicBaseUrl: string | undefined): string {
  const trimmed = publicBaseUrl?.replace(/\/+$/, '');
  return trimmed ? trimmed : '/';
}

/**
 * Assembles the document. Deterministic: the same input gives the same document (so its ETag is stable).
 * @throws Error when a component schema is missing (a bug in `schemas/api/`, caught by the tests).
 */
export function assembleOpenApiDocument(input: OpenApiInput): OpenApiDocument {
  for (const name of COMPONENT_SCHEMA_NAMES) {
    if (!input.components[name]) throw new Error(`OpenAPI: no component schema ${name} (schemas/api/${name}.schema.json)`);
  }
  const paths: Record<string, OpenApiObject> = {};
  for (const op of operations()) {
    const { route } = op;
    const doc = route.operation;
    const item: OpenApiObject = (paths[route.path] ??= route.params.length > 0 ? { parameters: route.params.map(pathParameter) } : {});
    const head = op.method === 'head';
    item[op.method] = {
      operationId: head ? headOperationId(doc.operationId) : doc.operationId,
      summary: head ? `${doc.summary}, headers only` : doc.summary,
      description: head ? `As \`GET ${route.path}\`, without a body.` : doc.description,
      tags: [doc.tag],
      ...(isConditional(route) && { parameters: [{ $ref: '#/components/parameters/IfNoneMatch' }] }),
      responses: responses(op),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Syllabus catalog API',
      version: input.version,
      summary: 'The public, read-only catalog of Syllabus: courses, classes, lessons, changelog and roadmap.',
      description: [
        'Read-only JSON API of the Syllabus catalog. No credentials are needed.',
        '',
        `Start at \`GET ${API_BASE}\`: it lists the API's URLs. A path with a trailing slash redirects (\`308\`) to the route without it;`,
        `an unknown path below \`${API_BASE}/\` answers \`404\` with \`nearest_route\`, the template of the nearest route.`,
        '',
        `Reads are budgeted per IP address by client kind, per ${input.readBudgets.windowSeconds} seconds: ${budgetList(input.readBudgets.limits)}.`,
        'Every response reports the budget in the `RateLimit-*` headers; a `429` carries `Retry-After` and a body that says',
        'which budget ran out, how to get a larger one and when to retry.',
        `Name your client in \`User-Agent\` (\`name/version (+contact URL)\`) for a larger budget: ${RATE_LIMITS_DOC_URL}`,
        '',
        'Every `200` of the catalog has a strong `ETag`; send it back in `If-None-Match` to get a `304`.',
        '',
        'Ids never break: a course or lesson id that was renamed answers `308 Permanent Redirect` to the current one.',
      ].join('\n'),
      contact: { name: 'Syllabus catalog maintainers' },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl(input.publicBaseUrl), description: 'This service' }],
    security: [],
    tags: TAGS,
    paths,
    components: {
      schemas: Object.fromEntries(COMPONENT_SCHEMA_NAMES.map((n) => [n, input.components[n]])) as Record<ComponentSchemaName, JsonSchema>,
      headers: headers(),
      parameters: {
        IfNoneMatch: {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description: 'Entity tags of representations you hold (RFC 9110 §13.1.2); a match answers `304` without a body.',
          schema: { type: 'string' },
        },
      },
      responses: {
        NotModified: {
          description: 'Not Modified: the representation matches `If-None-Match`; no body (RFC 9110 §15.4.5).',
          headers: { ...rateLimitHeaders(), ETag: headerRef('ETag'), 'Cache-Control': headerRef('Cache-Control') },
        },
        TooManyRequestsHead: {
          description: 'Too Many Requests: as the GET answer, without a body.',
          headers: { ...rateLimitHeaders(), 'Retry-After': headerRef('Retry-After') },
        },
        TooManyRequests: {
          description:
            'Too Many Requests: the budget reported in the RateLimit headers ran out. The body says which (as `RateLimit-Policy`), the larger budgets a client could reach and how, when to retry (as `Retry-After`) and where the limits are documented.',
          headers: { ...rateLimitHeaders(), 'Retry-After': headerRef('Retry-After') },
          content: {
            [JSON_TYPE]: {
              schema: TOO_MANY_REQUESTS_SCHEMA,
              example: tooManyRequestsExample(input.readBudgets),
            },
          },
        },
      },
    },
  };
}
