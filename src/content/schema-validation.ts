/**
 * Validates frontmatter against the JSON Schemas in `schemas/frontmatter/` (draft 2020-12, ajv).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import { loadSchemas, schema } from '../schemas/registry.js';
import type { FileKind } from './layout.js';
import { schemaProblems, type SchemaProblem } from './schema-messages.js';

// ajv-formats is CommonJS: under NodeNext its default export arrives as the module object.
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);

const SCHEMA_FILES: Record<FileKind, string> = {
  catalog: 'frontmatter/catalog.schema.json',
  course: 'frontmatter/course.schema.json',
  class: 'frontmatter/class.schema.json',
  lesson: 'frontmatter/lesson.schema.json',
  changelog: 'frontmatter/changelog-entry.schema.json',
  roadmap: 'frontmatter/roadmap.schema.json',
  'roadmap-item': 'frontmatter/roadmap-item.schema.json',
};

let validators: Map<FileKind, ValidateFunction> | undefined;

function compile(): Map<FileKind, ValidateFunction> {
  // allErrors: report every problem of a file at once; verbose: keep the offending value and its schema for messages.
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictRequired: false });
  addFormats(ajv);
  for (const s of loadSchemas().values()) if (s.$id && !ajv.getSchema(s.$id)) ajv.addSchema(s);
  const out = new Map<FileKind, ValidateFunction>();
  for (const [kind, file] of Object.entries(SCHEMA_FILES) as [FileKind, string][]) {
    const id = schema(file).$id;
    const validate = id === undefined ? undefined : ajv.getSchema(id);
    if (!validate) throw new Error(`schemas/${file} has no $id or did not compile`);
    out.set(kind, validate);
  }
  return out;
}

/**
 * Checks the frontmatter of a file of `kind` against its schema.
 * @returns the problems, one per offending key, with the key's path; empty when valid.
 * @throws Error when a schema in `schemas/` is itself broken (a repository bug, not a content problem).
 */
export function validateFrontmatter(kind: FileKind, data: unknown): SchemaProblem[] {
  validators ??= compile();
  const validate = validators.get(kind)!;
  return validate(data) ? [] : schemaProblems(validate.errors ?? []);
}
