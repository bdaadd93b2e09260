/**
 * Renders the frontmatter validators as ajv standalone code (`ajv/dist/standalone`): the CommonJS module
 * `frontmatter-validators.generated.cjs` and its declarations `frontmatter-validators.generated.d.cts`, which tests,
 * tsx and the production bundle all import. Run `npm run generate:validators` after changing a schema; a test fails
 * when the committed files are stale. Nothing at run time compiles a schema.
 */
import { _, Ajv2020, type Options } from 'ajv/dist/2020.js';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { loadSchemas, schema } from '../schemas/registry.js';
import { SCHEMA_FILES } from './frontmatter-schemas.js';
import type { FileKind } from './layout.js';

// ajv-formats and ajv's standalone module are CommonJS: under NodeNext their default export arrives as the module object.
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);
type StandaloneCode = (typeof import('ajv/dist/standalone/index.js'))['default'];
const standaloneCode: StandaloneCode =
  (standaloneCodeModule as unknown as { default?: StandaloneCode }).default ?? (standaloneCodeModule as unknown as StandaloneCode);

const HEADER = '/* Generated from schemas/ by `npm run generate:validators`. Do not edit by hand. */\n';

/**
 * allErrors: report every problem of a file at once; verbose: keep the offending value and its schema for messages
 * (src/content/schema-messages.ts reads them).
 */
const AJV_OPTIONS = { allErrors: true, verbose: true, strict: true, strictRequired: false } as const satisfies Options;

/**
 * An ajv instance with the frontmatter options, the ajv-formats formats and every schema of `schemas/` added.
 * @param standalone whether it generates code for {@link renderFrontmatterValidators} (else it compiles validators).
 */
export function createFrontmatterAjv(standalone = false): Ajv2020 {
  // One line per statement (`lines`) keeps the committed code's diffs readable. The formats are required by name:
  // ajv-formats' `fullFormats`, addFormats' default mode.
  const code = { source: true, lines: true, formats: _`require("ajv-formats/dist/formats").fullFormats` };
  const ajv = new Ajv2020(standalone ? { ...AJV_OPTIONS, code } : AJV_OPTIONS);
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
 * The generated module (CommonJS, exporting one validator per kind of file) and its TypeScript declarations.
 * @throws Error when a schema in `schemas/` is itself broken.
 */
export function renderFrontmatterValidators(): { code: string; declarations: string } {
  const ids = schemaIds();
  const code = standaloneCode(createFrontmatterAjv(true), ids);
  const members = Object.keys(ids)
    .map((kind) => `  readonly ${JSON.stringify(kind)}: ValidateFunction;\n`)
    .join('');
  const declarations = `${HEADER}import type { ValidateFunction } from 'ajv/dist/2020.js';\n\n/** The validator of each kind of content file. */\ndeclare const validators: {\n${members}};\nexport = validators;\n`;
  return { code: `${HEADER}${code}\n`, declarations };
}
