/**
 * The guard of the build's module replacements (scripts/standalone-validators.ts, scripts/gray-matter-engine.ts): a
 * replacement that did not happen fails the build, rather than shipping what it was meant to leave out.
 */
import type { PluginBuild } from 'esbuild';

/**
 * Fails an otherwise successful build with `text` when `replaced()` is false at its end. The error is returned from
 * the on-end callback: esbuild fails a build for the errors such a callback returns, not for those it pushes onto
 * `result.errors` (esbuild 0.28).
 */
export function failUnlessReplaced(build: PluginBuild, replaced: () => boolean, text: string): void {
  build.onEnd((result) => (result.errors.length === 0 && !replaced() ? { errors: [{ text }] } : undefined));
}
