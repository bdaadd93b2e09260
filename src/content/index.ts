/**
 * The content layer's public API: a folder of Markdown with YAML frontmatter in, a valid
 * {@link ContentModel} or every {@link Problem} out, and a watcher that reloads after changes.
 *
 * ```ts
 * const loader = new ContentLoader('content');
 * const first = await loader.load();              // start-up: exit non-zero when !first.ok
 * const watch = await watchContent('content', {
 *   loader,                                       // reuse the parsed files: reloads re-parse only changes
 *   onReload(result, changed) { if (result.ok) index = build(result.model); else log(result.problems); },
 * });
 * ```
 */
export { ContentLoader, loadContent, type ContentLoaderOptions } from './loader.js';
export { watchContent, type ContentWatch, type WatchContentOptions } from './watch.js';
export { formatProblem, type ContentModel, type LoadResult, type Problem } from './model.js';
export { runCli } from './cli.js';
