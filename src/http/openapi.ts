/**
 * The OpenAPI 3.1 document of the public API, assembled from the API's JSON Schemas (passed in as
 * component schemas), the route table and the path-parameter specs. Pure: no file access, so it runs on any
 * runtime; `src/index/openapi-document.ts` reads the schemas from `schemas/` and calls it.
 *
 * Nothing here restates a body shape of `schemas/api/`: 200 bodies are `$ref`s to the components. Only the
 * small error envelopes without a schema of their own (`{"detail": string}`) and `/health` are written here.
 */
import type { ApiRoute } from '../routes.js';
import type { JsonSchema } from '../schemas/registry.js';
import { PATH_PARAMS, type PathParamSpec } from './params.js';

/** The component schema names, exactly as the contract names them (one per `schemas/api/*.schema.json`). */
export const COMPONENT_SCHEMA_NAMES = [
  'Health',
  'Catalog',
  'Course',
  'Klass',
  'Lesson',
  'Changelog',
  'ChangelogEntry',
  'Roadmap',
  'RoadmapStage',
  'RoadmapItem',
  'ReferralCheck',
  'HTTPValidationError',
  'ValidationError',
] as const;

/** One of {@link COMPONENT_SCHEMA_NAMES}. */
export type ComponentSchemaName = (typeof COMPONENT_SCHEMA_NAMES)[number];

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
}

/** `#/components/schemas/<name>` reference. */
export function schemaRef(name: ComponentSchemaName): { $ref: string } {
  return { $ref: `#/components/schemas/${name}` };
}

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
const JSON_TYPE = 'application/json';

/** `{"detail": "<message>"}`: the envelope of every error other than a 422. */
function detailSchema(description: string): JsonSchema {
  return {
    type: 'object',
    description,
    required: ['detail'],
    properties: { detail: { type: 'string', description: 'What went wrong, in English.' } },
  };
}

/** What the service states about each operation; everything else is derived. */
interface OperationSpec {
  route: ApiRoute;
  method: 'get' | 'head';
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  /** The 200 body: a component, a schema written here (`/health`), or none (HEAD). */
  ok?: { description: string; schema: JsonSchema; example?: unknown };
  /** `detail` of the 404 answered when the id names nothing. */
  notFound?: string;
  /** Served from the index: a strong ETag, `If-None-Match` and 304. */
  conditional: boolean;
  /** Spends the read budget and may answer 429 (`/health` never does). */
  rateLimited: boolean;
}

const SERVICE_HEALTH: JsonSchema = {
  type: 'object',
  description:
    'Liveness of this instance. Every value is a string: at least `status`, plus facts such as the content revision served and the last reload error.',
  required: ['status'],
  properties: { status: { type: 'string', description: '`ok` while the instance serves.' } },
  additionalProperties: { type: 'string' },
};

const OPERATIONS: readonly OperationSpec[] = [
  {
    route: '/health',
    method: 'get',
    operationId: 'getServiceHealth',
    tag: 'Service',
    summary: 'Instance health',
    description:
      "Liveness of this instance for load balancers and monitors. Touches nothing but memory, is never refused with a 429 and reports the caller's read budget without spending it.",
    ok: { description: 'The instance is serving.', schema: SERVICE_HEALTH, example: { status: 'ok' } },
    conditional: false,
    rateLimited: false,
  },
  {
    route: '/health',
    method: 'head',
    operationId: 'headServiceHealth',
    tag: 'Service',
    summary: 'Instance health, headers only',
    description: 'As `GET /health`, without a body.',
    conditional: false,
    rateLimited: false,
  },
  {
    route: '/v1/health',
    method: 'get',
    operationId: 'getHealth',
    tag: 'Service',
    summary: 'API health',
    description: 'Whether version 1 of the API is served.',
    ok: { description: 'Version 1 is served.', schema: schemaRef('Health') },
    conditional: true,
    rateLimited: true,
  },
  {
    route: '/v1/catalog',
    method: 'get',
    operationId: 'getCatalog',
    tag: 'Catalog',
    summary: 'The whole catalog',
    description: 'Every course, live and soon, in display order, with its classes, their lessons and the counts.',
    ok: { description: 'The catalog.', schema: schemaRef('Catalog') },
    conditional: true,
    rateLimited: true,
  },
  {
    route: '/v1/courses/{course_id}',
    method: 'get',
    operationId: 'getCourse',
    tag: 'Catalog',
    summary: 'One course',
    description: 'A course with its classes and their lessons.',
    ok: { description: 'The course.', schema: schemaRef('Course') },
    notFound: 'Course not found',
    conditional: true,
    rateLimited: true,
  },
  {
    route: '/v1/lessons/{lesson_id}',
    method: 'get',
    operationId: 'getLesson',
    tag: 'Catalog',
    summary: 'One lesson',
    description: "A lesson's metadata. Its step content is never served: `steps` is a count.",
    ok: { description: 'The lesson.', schema: schemaRef('Lesson') },
    notFound: 'Lesson not found',
    conditional: true,
    rateLimited: true,
  },
  {
    route: '/v1/changelog',
    method: 'get',
    operationId: 'getChangelog',
    tag: 'Changelog',
    summary: 'The changelog',
    description: 'What changed, newest first; on the same date, by id.',
    ok: { description: 'The changelog.', schema: schemaRef('Changelog') },
    conditional: true,
    rateLimited: true,
  },
  {
    route: '/v1/roadmap',
    method: 'get',
    operationId: 'getRoadmap',
    tag: 'Roadmap',
    summary: 'The roadmap',
    description: 'What is planned, by stage (shipped, building, next, exploring); a stage with no items is omitted.',
    ok: { description: 'The roadmap.', schema: schemaRef('Roadmap') },
    conditional: true,
    rateLimited: true,
  },
  {
    route: '/v1/referrals/{code}',
    method: 'get',
    operationId: 'checkReferral',
    tag: 'Referrals',
    summary: 'Check a referral code',
    description:
      'Whether a referral code is valid. The answer never identifies the owner. Besides the read budget, each address has an hourly referral budget (60 checks by default); the RateLimit headers report whichever budget is closer to running out, and a 429 the one that ran out.',
    ok: { description: 'Whether the code is valid.', schema: schemaRef('ReferralCheck') },
    conditional: false,
    rateLimited: true,
  },
];

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
function responses(op: OperationSpec, params: readonly PathParamSpec[]): OpenApiObject {
  const out: OpenApiObject = {};
  // A deprecated route says so on every answer, errors included (RFC 9745 §2).
  const deprecation = op.route.startsWith('/v1/') ? Object.fromEntries(['Deprecation', 'Sunset', 'Link'].map((h) => [h, headerRef(h)])) : {};
  const errorHeaders = { ...rateLimitHeaders(), ...deprecation };
  const okHeaders: OpenApiObject = { ...rateLimitHeaders(), 'Cache-Control': headerRef('Cache-Control'), ...deprecation };
  if (op.conditional) okHeaders.ETag = headerRef('ETag');
  out['200'] = {
    description: op.ok?.description ?? 'The instance is serving.',
    headers: okHeaders,
    ...(op.ok && {
      content: { [JSON_TYPE]: { schema: op.ok.schema, ...(op.ok.example !== undefined && { example: op.ok.example }) } },
    }),
  };
  if (op.conditional) out['304'] = responseRef('NotModified');
  if (op.notFound) {
    out['404'] = {
      description: `${op.notFound}: no such id.`,
      headers: errorHeaders,
      content: { [JSON_TYPE]: { schema: detailSchema('The id names nothing.'), example: { detail: op.notFound } } },
    };
  }
  if (params.length > 0) {
    out['422'] = {
      description: 'A path parameter is invalid: one error per parameter, checked in the order min length, max length, pattern.',
      headers: errorHeaders,
      content: { [JSON_TYPE]: { schema: schemaRef('HTTPValidationError'), example: validationExample(params[0]!) } },
    };
  }
  if (op.rateLimited) out['429'] = responseRef('TooManyRequests');
  return out;
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
  for (const op of OPERATIONS) {
    const params: readonly PathParamSpec[] = (PATH_PARAMS as Partial<Record<string, readonly PathParamSpec[]>>)[op.route] ?? [];
    const item: OpenApiObject = (paths[op.route] ??= params.length > 0 ? { parameters: params.map(pathParameter) } : {});
    item[op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      description: op.description,
      tags: [op.tag],
      ...(op.conditional && { parameters: [{ $ref: '#/components/parameters/IfNoneMatch' }] }),
      responses: responses(op, params),
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
        'Reads are budgeted per IP address by client kind (a signed agent, a named agent, a browser, anything else);',
        'every response reports the budget in the `RateLimit-*` headers, and a `429` carries `Retry-After`.',
        'Name your client in `User-Agent` (`name/version (+contact URL)`) for a larger budget.',
        '',
        'Every `200` of the catalog has a strong `ETag`; send it back in `If-None-Match` to get a `304`.',
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
        TooManyRequests: {
          description: 'Too Many Requests: the budget reported in the RateLimit headers ran out. Retry after `Retry-After` seconds.',
          headers: { ...rateLimitHeaders(), 'Retry-After': headerRef('Retry-After') },
          content: {
            [JSON_TYPE]: {
              schema: detailSchema('The request was refused by a rate limit.'),
              example: { detail: 'Too Many Requests' },
            },
          },
        },
      },
    },
  };
}
