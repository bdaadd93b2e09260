/**
 * The frontmatter validators as standalone code (ajv's `ajv/dist/standalone`), generated at build time from
 * `schemas/` with the options and formats of the run-time path (`createFrontmatterAjv` of
 * src/content/frontmatter-validators.ts), and the esbuild plugin that puts that code in the bundle in place of
 * src/content/frontmatter-validators.ts. The generated code is never written to the repository.
 */
import { _ } from 'ajv/dist/2020.js';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import type { Plugin } from 'esbuild';
import { replaceSourceModule } from './replacement-guard.js';
import { createFrontmatterAjv, schemaIds } from '../src/content/frontmatter-validators.js';

type StandaloneCode = (typeof import('ajv/dist/standalone/index.js'))['default'];
// ajv's standalone module is CommonJS: under NodeNext its default export arrives as the module object.
const standaloneCode: StandaloneCode =
  (standaloneCodeModule as unknown as { default?: StandaloneCode }).default ?? (standaloneCodeModule as unknown as StandaloneCode);

/**
 * An ES module exporting `frontmatterValidators()`, as src/content/frontmatter-validators.ts does, returning
 * precompiled validators. Like ajv's standalone code it `require`s ajv's run-time helpers and ajv-formats' format
 * definitions by package name: a bundler resolves them (run through esbuild from `resolveDir` = the repository).
 */
export function standaloneValidatorsSource(): string {
  // ajv-formats names its formats by default as `require("ajv-formats/dist/formats").fullFormats` (CommonJS); stated
  // here so that the generated code does not depend on that default. `fullFormats`: addFormats' default mode.
  const ajv = createFrontmatterAjv({ source: true, esm: true, formats: _`require("ajv-formats/dist/formats").fullFormats` });
  const exportNames = Object.entries(schemaIds()).map(([kind, id]) => [kind, `validate_${kind.replace(/\W/g, '_')}`, id] as const);
  const code = standaloneCode(ajv, Object.fromEntries(exportNames.map(([, name, id]) => [name, id])));
  const entries = exportNames.map(([kind, name]) => `${JSON.stringify(kind)}: ${name}`).join(', ');
  return `${code}\nexport function frontmatterValidators() {\n  return { ${entries} };\n}\n`;
}

/**
 * esbuild plugin: src/content/frontmatter-validators.ts becomes {@link standaloneValidatorsSource}. The build fails
 * when no import resolved to that module (it was moved or renamed), rather than shipping the run-time compilation.
 */
export function precompiledValidatorsPlugin(): Plugin {
  return replaceSourceModule({
    name: 'precompiled-frontmatter-validators',
    module: 'src/content/frontmatter-validators.ts',
    contents: standaloneValidatorsSource,
    failure: 'the bundle would compile the frontmatter schemas at start',
  });
}
