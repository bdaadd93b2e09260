/**
 * What the layers above use of the content layer: a folder of Markdown with YAML frontmatter in (`ContentLoader`),
 * a valid {@link ContentModel} or problems out, each formatted `path:line:column: message` ({@link formatProblem}).
 * The folder watcher is in `src/source/`; the writers' CLI is `src/content-cli/`.
 *
 * ```ts
 * const loaded = await new ContentLoader('content').load();
 * if (!loaded.ok) console.error(loaded.problems.map(formatProblem).join('\n'));
 * ```
 */
export { ContentLoader } from './loader.js';
export { formatProblem, type ContentModel } from './model.js';
