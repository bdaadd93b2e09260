/**
 * Validates frontmatter against the JSON Schemas in `schemas/frontmatter/` (draft 2020-12, ajv).
 */
import { loadSchemas, schema, type JsonSchema } from '../schemas/registry.js';
import { SCHEMA_FILES } from './frontmatter-schemas.js';
import validators from './frontmatter-validators.generated.js';
import type { FileKind } from './layout.js';
import { schemaProblems, type SchemaProblem } from './schema-messages.js';

/**
 * Checks the frontmatter of a file of `kind` against its schema.
 * @returns the problems, one per offending key, with the key's path; empty when valid.
 */
export function validateFrontmatter(kind: FileKind, data: unknown): SchemaProblem[] {
  // Precompiled from schemas/ (render-validators.ts): nothing compiles a schema at run time.
  const validate = validators[kind];
  return validate(data) ? [] : schemaProblems(validate.errors ?? []);
}

/** The shared definition of multi-line text: a field whose schema is it may hold tab and line breaks. */
const PARAGRAPH_DEF = 'Paragraph';

/**
 * The fields of one schema as a tree of keys: list indexes are the key `*`; `paragraph` marks a field whose schema
 * is the Paragraph definition. Walked key by key, so a lookup builds no string (it runs for every frontmatter string).
 */
interface FieldTree {
  paragraph: boolean;
  children: Map<string, FieldTree>;
}

let multiLine: Map<FileKind, FieldTree> | undefined;

/**
 * Whether the frontmatter value at `path` of a file of `kind` may span lines (and hold tabs): whether its schema
 * is `defs.schema.json#/$defs/Paragraph`. Every other value, unknown keys included, is one line
 * (src/content/text-characters.ts states what each may hold).
 */
export function allowsLineBreaks(kind: FileKind, path: readonly (string | number)[]): boolean {
  multiLine ??= new Map(Object.entries(SCHEMA_FILES).map(([k, file]) => [k as FileKind, paragraphFields(file)]));
  let node: FieldTree | undefined = multiLine.get(kind);
  for (let i = 0; i < path.length && node !== undefined; i++) {
    const segment = path[i]!;
    node = node.children.get(typeof segment === 'number' ? '*' : segment);
  }
  return node?.paragraph ?? false;
}

/** The fields whose schema in `schemas/<file>` is the Paragraph definition, following `$ref`s, as a tree. */
function paragraphFields(file: string): FieldTree {
  const byId = new Map<string, JsonSchema>();
  for (const s of loadSchemas().values()) if (s.$id) byId.set(s.$id, s);
  const defs = schema('defs.schema.json');
  const paragraph = new URL(`#/$defs/${PARAGRAPH_DEF}`, defs.$id).href;
  const out: FieldTree = { paragraph: false, children: new Map() };
  const mark = (path: readonly string[]): void => {
    let node = out;
    for (const key of path) {
      let child = node.children.get(key);
      if (child === undefined) node.children.set(key, (child = { paragraph: false, children: new Map() }));
      node = child;
    }
    node.paragraph = true;
  };
  const visit = (node: unknown, base: string, path: string[], depth: number): void => {
    if (node === null || typeof node !== 'object' || depth > 32) return;
    const s = node as Record<string, unknown>;
    if (typeof s.$ref === 'string') {
      const target = new URL(s.$ref, base);
      if (target.href === paragraph) mark(path);
      const doc = byId.get(target.href.replace(/#.*$/, ''));
      const pointer = decodeURIComponent(target.hash.replace(/^#/, ''));
      let resolved: unknown = doc;
      for (const segment of pointer.split('/').slice(1))
        resolved = (resolved as Record<string, unknown> | undefined)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
      if (doc) visit(resolved, String(doc.$id), path, depth + 1);
    }
    for (const [key, value] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) visit(value, base, [...path, key], depth + 1);
    if (s.items !== undefined) visit(s.items, base, [...path, '*'], depth + 1);
  };
  const root = schema(file);
  visit(root, String(root.$id), [], 0);
  return out;
}
