/**
 * The OpenAPI document as built (no server): contract names, every operation's responses and headers, path
 * parameter constraints shared with request validation, derivation from `schemas/api/`, valid examples.
 */
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { COMPONENT_SCHEMA_NAMES } from '../src/contract/components.js';
import { RATE_LIMIT_HEADER_NAMES } from '../src/contract/openapi.js';
import { RATE_LIMITS_DOC_URL } from '../src/contract/rate-limits.js';
import type { PathParamSpec } from '../src/contract/params.js';
import { routeNamed, ROUTES, type RouteSpec } from '../src/contract/routes.js';
import { buildOpenApiDocument } from '../src/server/openapi-document.js';
import { apiSchemas, sharedDefs } from '../src/schemas/registry.js';
import { deref, OpenApiResponses } from './helpers/openapi.js';

type Json = Record<string, any>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/** The documented routes of the table, and their validated parameters. */
const API_ROUTES: string[] = (ROUTES as readonly RouteSpec[]).filter((r) => r.operation !== undefined).map((r) => r.path);
const PATH_PARAMS: Record<string, readonly PathParamSpec[]> = Object.fromEntries(
  (ROUTES as readonly RouteSpec[]).filter((r) => r.params.length > 0).map((r) => [r.path, r.params]),
);

const doc = buildOpenApiDocument({ version: '9.9.9' }) as Json;
const operations: Array<{ route: string; method: string; op: Json }> = Object.entries(doc.paths as Json).flatMap(([route, item]) =>
  Object.entries(item as Json)
    .filter(([k]) => ['get', 'head', 'post', 'put', 'patch', 'delete', 'options'].includes(k))
    .map(([method, op]) => ({ route, method, op: op as Json })),
);
const v1 = operations.filter((o) => o.route.startsWith('/v1/'));

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with info, licence, contact and a same-origin server by default', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('9.9.9');
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    expect(doc.info.contact.name).toBeTruthy();
    expect(doc.servers).toEqual([{ url: '/', description: 'This service' }]);
    const published = buildOpenApiDocument({ version: '1', publicBaseUrl: 'https://api.example.org/' });
    expect(published.servers[0]!.url).toBe('https://api.example.org');
  });

  it('has exactly the contract component schemas, one per schemas/api file', () => {
    expect(Object.keys(doc.components.schemas).sort()).toEqual([...COMPONENT_SCHEMA_NAMES].sort());
    expect([...apiSchemas().keys()].sort()).toEqual([...COMPONENT_SCHEMA_NAMES].sort());
  });

  it('derives the component schemas from schemas/api (same properties, required lists and constraints)', () => {
    for (const [name, source] of apiSchemas()) {
      const component = doc.components.schemas[name] as Json;
      expect(component.required, name).toEqual(source.required);
      expect(Object.keys(component.properties ?? {}), name).toEqual(Object.keys((source.properties as Json | undefined) ?? {}));
      expect(component.additionalProperties, name).toEqual(source.additionalProperties);
    }
    // A shared definition arrives inlined with its constraints; API schemas arrive as component refs.
    const id = sharedDefs().Id as Json;
    expect(doc.components.schemas.Course.properties.id).toMatchObject({ pattern: id.pattern, maxLength: id.maxLength, minLength: id.minLength });
    expect(doc.components.schemas.Catalog.properties.courses.items).toEqual({ $ref: '#/components/schemas/Course' });
    expect(JSON.stringify(doc)).not.toMatch(/"\$ref":"(?!#\/components\/)/);
    expect(JSON.stringify(doc.components.schemas)).not.toMatch(/"\$(?:id|schema)"/);
  });

  it('lists every route of the API once, each operation with operationId, summary, description and a declared tag', () => {
    expect(Object.keys(doc.paths).sort()).toEqual([...API_ROUTES].sort());
    const tags = new Set((doc.tags as Json[]).map((t) => t.name));
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { route, method, op } of operations) {
      expect(op.operationId, `${method} ${route}`).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.summary && op.description, `${method} ${route}`).toBeTruthy();
      expect(op.tags.length).toBe(1);
      expect(tags.has(op.tags[0])).toBe(true);
    }
    // Every route answers HEAD as GET (RFC 9110 §9.3.2): both are documented, HEAD without bodies.
    expect(operations.map((o) => `${o.method} ${o.route}`).sort()).toEqual(API_ROUTES.flatMap((r) => [`get ${r}`, `head ${r}`]).sort());
    for (const { route, method, op } of operations.filter((o) => o.method === 'head')) {
      for (const status of Object.keys(op.responses))
        expect(deref(doc, op.responses[status], '#').value.content, `${method} ${route} ${status}`).toBeUndefined();
    }
  });

  it('declares the four RateLimit headers, required, on every response of every operation', () => {
    const r = new OpenApiResponses(doc);
    for (const { route, method, op } of operations) {
      for (const status of Object.keys(op.responses)) {
        const headers = r.headers(route, method, Number(status));
        for (const name of RATE_LIMIT_HEADER_NAMES) expect(headers.get(name), `${method} ${route} ${status} ${name}`).toBe(true);
      }
    }
    expect(doc.components.headers['RateLimit-Policy'].schema.pattern).toBe('^[0-9]+;w=[0-9]+$');
  });

  it('documents 429 with Retry-After and {"detail": …} on every /v1 operation, and never on /health', () => {
    const r = new OpenApiResponses(doc);
    for (const { route, method } of v1) {
      expect(r.headers(route, method, 429).get('Retry-After'), route).toBe(true);
      if (method === 'head') continue;
      const response: Json = deref(doc, doc.paths[route].get.responses['429'], '#').value;
      const example: unknown = response.content['application/json'].example;
      expect(r.check(route, method, 429, example)).toEqual([]);
      expect(r.check(route, method, 429, { detail: 'Too Many Requests' })).not.toEqual([]);
      expect(r.check(route, method, 429, { message: 'Too Many Requests' })).not.toEqual([]);
    }
    for (const { route, op } of operations.filter((o) => o.route === '/health')) {
      expect(Object.keys(op.responses), route).toEqual(['200']);
    }
  });

  it('documents 404 on id lookups, 422 (HTTPValidationError) exactly where there are path parameters', () => {
    for (const { route, op } of v1) {
      const codes = Object.keys(op.responses);
      const hasParams = route.includes('{');
      expect(codes.includes('422'), route).toBe(hasParams);
      expect(codes.includes('404'), route).toBe(route === '/v1/courses/{course_id}' || route === '/v1/lessons/{lesson_id}');
      if (hasParams && op === doc.paths[route].get)
        expect(op.responses['422'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/HTTPValidationError' });
    }
    const r = new OpenApiResponses(doc);
    expect(r.check('/v1/courses/{course_id}', 'get', 404, { detail: 'Course not found' })).toEqual([]);
    expect(doc.paths['/v1/lessons/{lesson_id}'].get.responses['404'].content['application/json'].example).toEqual({ detail: 'Lesson not found' });
  });

  it('documents the 503 of a referral check that cannot be made: {"detail": …}, Cache-Control, no Retry-After', () => {
    for (const { route, method, op } of operations) expect('503' in op.responses, `${method} ${route}`).toBe(route === '/v1/referrals/{code}');
    const r = new OpenApiResponses(doc);
    const detail = routeNamed('referral').unavailable;
    expect(detail).toBeTruthy();
    expect(r.check('/v1/referrals/{code}', 'get', 503, { detail })).toEqual([]);
    expect(r.check('/v1/referrals/{code}', 'get', 503, { valid: false })).not.toEqual([]);
    expect(doc.paths['/v1/referrals/{code}'].get.responses['503'].content['application/json'].example).toEqual({ detail });
    const headers = r.headers('/v1/referrals/{code}', 'get', 503);
    expect(headers.has('Cache-Control')).toBe(true);
    expect(headers.has('Retry-After')).toBe(false);
    for (const name of RATE_LIMIT_HEADER_NAMES) expect(headers.get(name), name).toBe(true);
  });

  it('gives each index-backed operation an ETag on 200, If-None-Match and a 304', () => {
    const r = new OpenApiResponses(doc);
    for (const { route, method, op } of v1.filter((o) => o.route !== '/v1/referrals/{code}')) {
      expect(r.headers(route, method, 200).has('ETag'), route).toBe(true);
      expect(r.headers(route, method, 304).has('ETag'), route).toBe(true);
      expect(op.parameters).toEqual([{ $ref: '#/components/parameters/IfNoneMatch' }]);
    }
  });

  it('constrains path parameters with the specs the request validation uses', () => {
    for (const [route, specs] of Object.entries(PATH_PARAMS)) {
      const params = doc.paths[route].parameters as Json[];
      expect(params.map((p) => p.name)).toEqual(specs.map((s) => s.name));
      for (const [i, s] of specs.entries()) {
        expect(params[i]).toMatchObject({ in: 'path', required: true });
        expect(params[i]!.schema).toEqual({ type: 'string', minLength: s.minLength, maxLength: s.maxLength, pattern: s.pattern });
        expect(new RegExp(s.pattern).test(params[i]!.example)).toBe(true);
      }
    }
    // The id parameters accept exactly the ids the content may hold.
    const id = sharedDefs().Id as Json;
    expect(doc.paths['/v1/courses/{course_id}'].parameters[0].schema).toMatchObject({ pattern: id.pattern, maxLength: id.maxLength });
    expect(doc.paths['/v1/referrals/{code}'].parameters[0].schema).toEqual({
      type: 'string',
      minLength: 4,
      maxLength: 64,
      pattern: '^[A-Za-z0-9_-]+$',
    });
  });

  it('has only examples that validate against their own schemas', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(doc, 'urn:syllabus:doc');
    let checked = 0;
    const visit = (node: unknown, pointer: string): void => {
      if (node === null || typeof node !== 'object') return;
      const obj = node as Json;
      if ('example' in obj && obj.schema && typeof obj.schema === 'object') {
        const schema = deref(doc, obj.schema, `${pointer}/schema`);
        const validate = ajv.getSchema(`urn:syllabus:doc${'$ref' in obj.schema ? schema.pointer : `${pointer}/schema`}`)!;
        expect(validate(obj.example), `${pointer}: ${JSON.stringify(validate.errors)}`).toBe(true);
        checked++;
      }
      for (const [k, v] of Object.entries(obj)) visit(v, `${pointer}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`);
    };
    visit(doc, '#');
    expect(checked).toBeGreaterThanOrEqual(15);
  });

  it('is deterministic (a stable ETag for /openapi.json)', () => {
    expect(JSON.stringify(buildOpenApiDocument({ version: '9.9.9' }))).toBe(JSON.stringify(doc));
  });
});

describe('the 429 of the document', () => {
  it('explains itself with the budgets of the configuration, not restated ones', () => {
    const limits = { verified: 1000, declared: 200, browser: 150, anonymous: 7, referrals: 9 };
    const configured = buildOpenApiDocument({ version: '9.9.9', rateLimits: limits }) as Json;
    const example = configured.components.responses.TooManyRequests.content['application/json'].example;
    expect(example).toMatchObject({
      detail: 'Too Many Requests',
      budget: { name: 'read', client_kind: 'anonymous', policy: '7;w=60', limit: 7, window_seconds: 60 },
      retry_after_seconds: 42,
      larger_budgets: [
        { client_kind: 'declared', policy: '200;w=60' },
        { client_kind: 'verified', policy: '1000;w=60' },
      ],
      documentation_url: RATE_LIMITS_DOC_URL,
    });
    expect(configured.info.description).toContain('1000 for a verified (signed) agent, 200 for a declared one');
  });
});
