/**
 * Renders the frontmatter validators as ajv standalone code (`ajv/dist/standalone`): the ES module
 * `frontmatter-validators.generated.js` and its declarations `frontmatter-validators.generated.d.ts`, which tests,
 * tsx and every bundle import. Run `npm run generate:validators` after changing a schema; a test fails when the
 * committed files are stale. Nothing at run time compiles a schema.
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

/** ajv's `require("<helper>").default` of a run-time helper. */
const REQUIRE_DEFAULT = /require\("([^"]+)"\)\.default/g;

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
  // One line per statement (`lines`) keeps the committed code's diffs readable. The formats are ajv-formats'
  // `fullFormats` (addFormats' default mode), imported by the module under that name.
  const code = { source: true, esm: true, lines: true, formats: _`fullFormats` };
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
 * The generated module (an ES module whose default export holds one validator per kind of file) and its TypeScript
 * declarations.
 * @throws Error when a schema in `schemas/` is itself broken.
 */
export function renderFrontmatterValidators(): { code: string; declarations: string } {
  const kinds = Object.entries(schemaIds()).map(([kind, id]) => ({ kind, name: `validate_${kind.replace(/\W/g, '_')}`, id }));
  const standalone = standaloneCode(createFrontmatterAjv(true), Object.fromEntries(kinds.map(({ name, id }) => [name, id])));
  // Even as an ES module, ajv's standalone code `require`s its run-time helpers (`require("…").default`): imported
  // instead, so that the module runs wherever ES modules do (tsx, vitest, a bundle with or without its packages).
  // The helpers are CommonJS with an `exports.default`: Node and esbuild give `module.exports` as the default import,
  // vitest gives `exports.default`; `.default ?? ` reads the helper either way.
  const helpers = [...new Set(Array.from(standalone.matchAll(REQUIRE_DEFAULT), (m) => m[1]!))];
  // An ES module is strict already.
  const body = standalone.replace(/^"use strict";\n?/, '').replace(REQUIRE_DEFAULT, (_m, path: string) => `helper${helpers.indexOf(path)}`);
  if (body.includes('require(')) throw new Error('ajv standalone code requires a module other than a run-time helper');
  const imports = [
    ...helpers.map(
      (path, i) =>
        `import helper${i}Module from ${JSON.stringify(`${path}.js`)};\nconst helper${i} = helper${i}Module.default ?? helper${i}Module;\n`,
    ),
    'import { fullFormats } from "ajv-formats/dist/formats.js";\n',
  ].join('');
  const entries = kinds.map(({ kind, name }) => `  ${JSON.stringify(kind)}: ${name},\n`).join('');
  const code = `${HEADER}${imports}${body}\n\n/** The validator of each kind of content file. */\nexport default {\n${entries}};\n`;
  const members = kinds.map(({ kind }) => `  readonly ${JSON.stringify(kind)}: ValidateFunction;\n`).join('');
  const declarations = `${HEADER}import type { ValidateFunction } from 'ajv/dist/2020.js';\n\n/** The validator of each kind of content file. */\ndeclare const validators: {\n${members}};\nexport default validators;\n`;
  return { code, declarations };
}
