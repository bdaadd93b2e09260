/**
 * The JSON Schemas in `schemas/`: the single source of every shape (frontmatter, API bodies, CLI output).
 *
 * Schemas are read from disk once per process. Each has an absolute `$id`; schemas refer to each other
 * by relative `$ref` (`Lesson.schema.json`, `../defs.schema.json#/$defs/Id`), which ajv resolves by `$id`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A JSON Schema (draft 2020-12) object as read from disk. */
export type JsonSchema = { $id?: string; title?: string; [keyword: string]: unknown };

/** Absolute path of the repository's `schemas/` folder (works from `src/` under tsx and from `dist/src/`). */
export const SCHEMAS_DIR: string = findSchemasDir(dirname(fileURLToPath(import.meta.url)));

function findSchemasDir(from: string): string {
  let dir = from;
  for (;;) {
    const candidate = join(dir, 'schemas');
    try {
      readdirSync(join(candidate, 'api'));
      return candidate;
    } catch {
      const parent = dirname(dir);
      if (parent === dir) throw new Error(`schemas/ folder not found above ${from}`);
      dir = parent;
    }
  }
}

let cache: Map<string, JsonSchema> | undefined;

/**
 * Every schema under `schemas/`, keyed by its path relative to that folder (`api/Course.schema.json`).
 * @throws Error when a file is not valid JSON (a bug in the repository, not in content).
 */
export function loadSchemas(): ReadonlyMap<string, JsonSchema> {
  if (cache) return cache;
  const found = new Map<string, JsonSchema>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.schema.json')) {
        found.set(relative(SCHEMAS_DIR, path).split('\\').join('/'), JSON.parse(readFileSync(path, 'utf8')) as JsonSchema);
      }
    }
  };
  walk(SCHEMAS_DIR);
  cache = found;
  return found;
}

/** One schema by its path relative to `schemas/`, e.g. `frontmatter/lesson.schema.json`. */
export function schema(path: string): JsonSchema {
  const found = loadSchemas().get(path);
  if (!found) throw new Error(`no schema at schemas/${path}`);
  return found;
}

/** The API response schemas (`schemas/api/*.schema.json`) keyed by component name (`Course`, `Klass`, …). */
export function apiSchemas(): ReadonlyMap<string, JsonSchema> {
  const out = new Map<string, JsonSchema>();
  for (const [path, s] of loadSchemas()) {
    const m = /^api\/(\w+)\.schema\.json$/.exec(path);
    if (m) out.set(m[1]!, s);
  }
  return out;
}

/** The shared definitions (`schemas/defs.schema.json#/$defs`). */
export function sharedDefs(): Readonly<Record<string, JsonSchema>> {
  return (schema('defs.schema.json').$defs ?? {}) as Record<string, JsonSchema>;
}

/**
 * A copy of an API schema in which every `$ref` to the shared definitions is inlined and every `$ref` to
 * another API schema is replaced by `mapApiRef(name)`. Used to build OpenAPI components and TypeScript types.
 */
export function inlineSchema(root: JsonSchema, mapApiRef: (name: string) => JsonSchema): JsonSchema {
  const defs = sharedDefs();
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (node === null || typeof node !== 'object') return node;
    const obj = node as Record<string, unknown>;
    const ref = obj.$ref;
    if (typeof ref === 'string') {
      const rest = Object.fromEntries(Object.entries(obj).filter(([k]) => k !== '$ref'));
      // `../defs.schema.json#/$defs/X` from other files, `#/$defs/X` inside defs itself.
      const def = /^(?:(?:\.\.\/)?defs\.schema\.json)?#\/\$defs\/(\w+)$/.exec(ref);
      if (def) return { ...(visit(defs[def[1]!]) as object), ...(visit(rest) as object) };
      // `Course.schema.json` from api/, `../api/Course.schema.json` from cli/.
      const api = /^(?:\.\.\/api\/)?(\w+)\.schema\.json$/.exec(ref);
      if (api) return { ...mapApiRef(api[1]!), ...(visit(rest) as object) };
      throw new Error(`unsupported $ref ${ref}`);
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) if (k !== '$schema' && k !== '$id') out[k] = visit(v);
    return out;
  };
  return visit(root) as JsonSchema;
}
