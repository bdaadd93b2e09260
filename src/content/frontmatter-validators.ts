/**
 * The frontmatter validators, compiled by ajv at run time: what runs from source (tsx, vitest).
 *
 * The production bundle never runs this module's compilation. `npm run build` (scripts/build.ts) replaces this
 * module, and only this one, by the standalone code that scripts/standalone-validators.ts generates at build time
 * from the same schemas with the same {@link createFrontmatterAjv}: a module exporting the same
 * {@link frontmatterValidators}, whose validators are precompiled functions. That swap is the one place where the
 * choice between compiling at start and precompiled code is made; nothing at run time tests for it.
 */
import { Ajv2020, type CodeOptions, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import { loadSchemas, schema } from '../schemas/registry.js';
import { SCHEMA_FILES } from './frontmatter-schemas.js';
import type { FileKind } from './layout.js';

// ajv-formats is CommonJS: under NodeNext its default export arrives as the module object.
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);

/**
 * The ajv options of the frontmatter validators, for the run-time compilation and the build-time code generation
 * alike. allErrors: report every problem of a file at once; verbose: keep the offending value and its schema for
 * messages (src/content/schema-messages.ts reads them).
 */
export const AJV_OPTIONS = { allErrors: true, verbose: true, strict: true, strictRequired: false } as const satisfies Options;

/**
 * An ajv instance with {@link AJV_OPTIONS}, the ajv-formats formats and every schema of `schemas/` added.
 * @param code ajv's code options: given by the standalone code generation (`source`, `esm`, `formats`).
 */
export function createFrontmatterAjv(code?: CodeOptions): Ajv2020 {
  const ajv = new Ajv2020(code ? { ...AJV_OPTIONS, code } : AJV_OPTIONS);
  addFormats(ajv);
  for (const s of loadSchemas().values()) if (s.$id && !ajv.getSchema(s.$id)) ajv.addSchema(s);
  return ajv;
}

/** The `$id` of the schema of each kind of file. @throws Error when a schema has none. */
export function schemaIds(): Record<FileKind, string> {
  const ids = {} as Record<FileKind, string>;
  for (const [kind, file] of Object.entries(SCHEMA_FILES) as [FileKind, string][]) {
    const id = schema(file).$id;
    if (id === undefined) throw new Error(`schemas/${file} has no $id`);
    ids[kind] = id;
  }
  return ids;
}

/**
 * The validator of each kind of file, compiled now.
 * @throws Error when a schema in `schemas/` is itself broken (a repository bug, not a content problem).
 */
export function frontmatterValidators(): Record<FileKind, ValidateFunction> {
  const ajv = createFrontmatterAjv();
  const out = {} as Record<FileKind, ValidateFunction>;
  for (const [kind, id] of Object.entries(schemaIds()) as [FileKind, string][]) {
    const validate = ajv.getSchema(id);
    if (!validate) throw new Error(`schemas/${SCHEMA_FILES[kind]} did not compile`);
    out[kind] = validate;
  }
  return out;
}
