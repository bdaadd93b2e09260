/**
 * The build's module replacement (scripts/gray-matter-engine.ts) and its
 * guard: a replacement that did not happen fails the build, rather than
 * shipping what it was meant to leave out.
 */
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin, PluginBuild } from 'esbuild';

const repo = fileURLToPath(new URL('..', import.meta.url));

/**
 * Fails an otherwise successful build with `text` when `replaced()` is false at its end. The error is returned from
 * the on-end callback: esbuild fails a build for the errors such a callback returns, not for those it pushes onto
 * `result.errors` (esbuild 0.28).
 */
export function failUnlessReplaced(build: PluginBuild, replaced: () => boolean, text: string): void {
  build.onEnd((result) => (result.errors.length === 0 && !replaced() ? { errors: [{ text }] } : undefined));
}

/** A source module of the repository that the bundle gets as code generated at build time. */
export interface SourceReplacement {
  /** The plugin's name, also the namespace of the generated module. */
  name: string;
  /** The replaced module, relative to the repository (`src/…/x.ts`; imported as `…/x.js`). */
  module: string;
  /** The generated module, JavaScript: it must export what the replaced one does. Its imports resolve from the repository. */
  contents: () => string;
  /** Why the module is replaced: the build's error when nothing imported it. */
  failure: string;
}

/**
 * esbuild plugin: every import of `replacement.module` gets `replacement.contents()` instead; the build fails when
 * none did (the module was moved or renamed), rather than shipping the module it replaces.
 */
export function replaceSourceModule(replacement: SourceReplacement): Plugin {
  const replacedPath = join(repo, replacement.module);
  const imported = basename(replacement.module).replace(/\.ts$/, '.js');
  return {
    name: replacement.name,
    setup(build) {
      let replaced = false;
      build.onResolve({ filter: new RegExp(`[\\\\/]${imported.replace(/\./g, '\\.')}$`) }, (args) => {
        if (join(args.resolveDir, args.path.replace(/\.js$/, '.ts')) !== replacedPath) return undefined;
        replaced = true;
        return { path: replacedPath, namespace: replacement.name };
      });
      build.onLoad({ filter: /.*/, namespace: replacement.name }, () => ({
        contents: replacement.contents(),
        loader: 'js',
        resolveDir: repo,
      }));
      failUnlessReplaced(build, () => replaced, `no import of ${replacedPath}: ${replacement.failure}`);
    },
  };
}
