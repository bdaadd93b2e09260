/**
 * Builds the OpenAPI 3.1 document from the JSON Schemas in `schemas/api/` (the only copy of every body
 * shape) and its `/openapi.json` representation source. Node-only: reads `schemas/` through the registry.
 */
import { COMPONENT_SCHEMA_NAMES, type ComponentSchemaName } from '../contract/components.js';
import { assembleOpenApiDocument, schemaRef, type OpenApiDocument } from '../contract/openapi.js';
import { DEFAULT_LIMITS, READ_WINDOW_SECONDS, type BudgetLimits } from '../http/ratelimit/budgets.js';
import { OPENAPI_PATH } from '../pages/docs.js';
import { apiSchemas, inlineSchema, type JsonSchema } from '../schemas/registry.js';
import type { StaticRepresentation } from './docs-assets.js';

/** Options of {@link buildOpenApiDocument}. */
export interface OpenApiOptions {
  /** Absolute URL the API is published at (`PUBLIC_BASE_URL`); default: relative `/`, i.e. the serving origin. */
  publicBaseUrl?: string;
  /** `info.version`: the service's release (package.json `version`). */
  version: string;
  /** The budgets the document states (`RATE_LIMIT_*`); default the contract's defaults. */
  rateLimits?: BudgetLimits;
}

/**
 * The OpenAPI 3.1 document served at `/openapi.json`.
 * @throws Error when `schemas/api/` lacks one of the contract's component schemas.
 */
export function buildOpenApiDocument(opts: OpenApiOptions): OpenApiDocument {
  const found = apiSchemas();
  const components = {} as Record<ComponentSchemaName, JsonSchema>;
  for (const name of COMPONENT_SCHEMA_NAMES) {
    const source = found.get(name);
    if (!source) throw new Error(`OpenAPI: schemas/api/${name}.schema.json is missing`);
    components[name] = inlineSchema(source, (ref) => {
      if (!(COMPONENT_SCHEMA_NAMES as readonly string[]).includes(ref)) throw new Error(`OpenAPI: ${name} refers to ${ref}, not a component`);
      return schemaRef(ref as ComponentSchemaName);
    });
  }
  const { verified, declared, browser, anonymous } = opts.rateLimits ?? DEFAULT_LIMITS;
  return assembleOpenApiDocument({
    components,
    publicBaseUrl: opts.publicBaseUrl,
    version: opts.version,
    readBudgets: { limits: { verified, declared, browser, anonymous }, windowSeconds: READ_WINDOW_SECONDS },
  });
}

/**
 * `/openapi.json` as a representation source: the document serialised once (compact JSON, UTF-8).
 * It does not depend on content, so a caller may build it once per process and reuse it on every reload.
 */
export function openApiRepresentation(opts: OpenApiOptions): [string, StaticRepresentation] {
  return [
    OPENAPI_PATH,
    {
      contentType: 'application/json',
      body: new TextEncoder().encode(JSON.stringify(buildOpenApiDocument(opts))),
      headers: {},
    },
  ];
}
