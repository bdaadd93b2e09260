/**
 * A module the production build replaces by generated code (scripts/replacement-guard.ts), bundled the way the build
 * bundles it and imported, so a test can hold the generated code to the source it stands for.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';
import { NODE_BUNDLE_OPTIONS } from '../../scripts/build.js';

const ROOT = join(import.meta.dirname, '../..');

/** The bundle of one module, imported. */
export interface BundledModule<T> {
  /** What the bundle exports. */
  exports: T;
  /** The files bundled (repository-relative paths, `node_modules/…` included). */
  inputs: Metafile['inputs'];
  /** Removes the temporary folder the bundle was imported from. */
  remove(): Promise<void>;
}

/**
 * Bundles `entry` (module code resolved from the repository root, e.g. `export { x } from './src/…/x.js';`) with the
 * build's bundle options and `plugin`, and imports it.
 */
export async function importBundled<T>(entry: string, plugin: Plugin): Promise<BundledModule<T>> {
  const result = await build({
    ...NODE_BUNDLE_OPTIONS,
    stdin: { contents: entry, resolveDir: ROOT, loader: 'ts' },
    plugins: [plugin],
    metafile: true,
    write: false,
  });
  const directory = await mkdtemp(join(tmpdir(), 'syllabus-bundled-'));
  const file = join(directory, 'bundle.mjs');
  await writeFile(file, result.outputFiles[0]!.text);
  return {
    exports: (await import(pathToFileURL(file).href)) as T,
    inputs: result.metafile.inputs,
    remove: () => rm(directory, { recursive: true, force: true }),
  };
}

/** The build, with `plugin`, of a module that imports nothing: it rejects when the plugin's replacement is guarded. */
export function buildImportingNothing(plugin: Plugin): Promise<unknown> {
  return build({
    ...NODE_BUNDLE_OPTIONS,
    stdin: { contents: 'export const nothing = 1;', resolveDir: ROOT, loader: 'ts' },
    plugins: [plugin],
    write: false,
    logLevel: 'silent',
  });
}
