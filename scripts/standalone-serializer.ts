/**
 * The access-log line's serializer as standalone code (fast-json-stringify's `mode: 'standalone'`), generated at
 * build time from the schema the run-time path compiles (`ACCESS_LOG_SCHEMA` of src/http/access-log.ts), and the
 * esbuild plugin that puts that code in the bundle in place of src/server/access-log-serializer.ts. The bundle then
 * carries fast-json-stringify's run-time helpers only, not its compiler and ajv. The generated code is never written
 * to the repository.
 */
import fastJson from 'fast-json-stringify';
import type { Plugin } from 'esbuild';
import { ACCESS_LOG_SCHEMA } from '../src/http/access-log.js';
import { replaceSourceModule } from './replacement-guard.js';

/**
 * A CommonJS module exporting `accessLogSerializer()`, as src/server/access-log-serializer.ts does, returning the
 * precompiled serializer. Like fast-json-stringify's standalone code it `require`s the library's serializer helpers
 * by package name: a bundler resolves them.
 */
export function standaloneSerializerSource(): string {
  // Typed as any schema: fast-json-stringify's typings give an object schema the run-time overload whatever the mode.
  const code = fastJson(ACCESS_LOG_SCHEMA as fastJson.AnySchema, { mode: 'standalone' });
  // The standalone code assigns the serializer to `module.exports`.
  return `${code}\nconst serialize = module.exports;\nmodule.exports = { accessLogSerializer: () => serialize };\n`;
}

/** esbuild plugin: src/server/access-log-serializer.ts becomes {@link standaloneSerializerSource}. */
export function precompiledSerializerPlugin(): Plugin {
  return replaceSourceModule({
    name: 'precompiled-access-log-serializer',
    module: 'src/server/access-log-serializer.ts',
    contents: standaloneSerializerSource,
    failure: 'the bundle would load fast-json-stringify and ajv to compile the access-log serializer at start',
  });
}
