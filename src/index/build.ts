/**
 * `buildIndex`: a valid content model → every response body of that revision, serialised and compressed once,
 * keyed by request path. Producers outside the API (pages, the Atom feed, `/openapi.json`, `/docs`) plug in
 * as renderers or static resources and get the same ETag and compression treatment.
 */
import type { ContentModel } from '../content/model.js';
import { matchRoute } from '../routes.js';
import { routeDeprecations, type RouteDeprecations } from './deprecation.js';
import { buildOrReuse, compressRepresentation, DEFAULT_CACHE_CONTROL, needsCompression, type RepresentationSource } from './representation.js';
import type { CatalogIndex, Representation } from './types.js';

/** What a renderer may know besides the model. */
export interface RenderContext {
  /** Public base URL of the service, no trailing slash (for absolute links, feed ids). */
  readonly publicBaseUrl: string;
  /** Content revision being built. */
  readonly revision: string;
  /** ISO 8601 time of this build. */
  readonly builtAt: string;
  /** Deprecated API routes and their headers. */
  readonly deprecations: RouteDeprecations;
}

/** An entry of the index before compression: request path and what to serve there. */
export type IndexEntry = readonly [path: string, source: RepresentationSource];

/**
 * Derives extra representations from the model (e.g. the HTML pages: `['/', {contentType: 'text/html; …', body}]`).
 * Called once per build; may be async. Paths must be absolute (`/…`) and must not collide with another entry.
 */
export type Renderer = (model: ContentModel, ctx: RenderContext) => Iterable<IndexEntry> | Promise<Iterable<IndexEntry>>;

/** Options of {@link buildIndex}. */
export interface BuildIndexOptions {
  /** Public base URL (`PUBLIC_BASE_URL`), no trailing slash: deprecation `Link` targets and renderers use it. */
  publicBaseUrl: string;
  /** Model-derived producers (pages, feed). */
  renderers?: readonly Renderer[];
  /** Content-independent entries (`/openapi.json`, `/docs` and its assets), built once and passed to every build. */
  staticEntries?: Iterable<IndexEntry>;
  /** The index being replaced: unchanged bodies are reused instead of recompressed. */
  previous?: CatalogIndex;
  /**
   * Leave new bodies uncompressed, so the index can be served at once; {@link completeCompression} then gives
   * the same index with every compressed form. Default false: everything compressed before returning.
   */
  deferCompression?: boolean;
  /** Clock, for tests. */
  now?: () => Date;
}

/** The JSON body of `/v1/health` (schema Health). */
const V1_HEALTH = { status: 'ok', version: 'v1' } as const;

/** How many compressions run at once: enough to keep the thread pool busy, few enough to bound memory. */
const COMPRESSION_CONCURRENCY = 8;

const json = (value: unknown, cacheControl = DEFAULT_CACHE_CONTROL): RepresentationSource => ({
  contentType: 'application/json',
  body: JSON.stringify(value),
  cacheControl,
});

/** Health answers are about this moment: no cache may reuse them (catalog data may be reused for a minute). */
const HEALTH_CACHE_CONTROL = 'no-store';

/** The API's own entries: every 200 body of the JSON API except the dynamic `/health` and referral answers. */
export function apiEntries(model: ContentModel): IndexEntry[] {
  const out: IndexEntry[] = [
    ['/v1/health', json(V1_HEALTH, HEALTH_CACHE_CONTROL)],
    ['/v1/catalog', json(model.catalog)],
    ['/v1/changelog', json(model.changelog)],
    ['/v1/roadmap', json(model.roadmap)],
  ];
  for (const course of model.catalog.courses) {
    out.push([`/v1/courses/${course.id}`, json(course)]);
    for (const klass of course.classes) {
      for (const lesson of klass.lessons) out.push([`/v1/lessons/${lesson.id}`, json(lesson)]);
    }
  }
  return out;
}

/** Runs `fn` over `items` with at most `limit` in flight, keeping the order of results. */
async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Builds the immutable index of one content revision.
 * @throws Error when two entries claim the same path or a path does not start with `/` (a bug in a producer,
 *   or duplicate ids the content validator should have rejected), or when a deprecation names no route.
 */
export async function buildIndex(model: ContentModel, opts: BuildIndexOptions): Promise<CatalogIndex> {
  const builtAt = (opts.now?.() ?? new Date()).toISOString();
  const deprecations = routeDeprecations(model, opts.publicBaseUrl);
  const ctx: RenderContext = { publicBaseUrl: opts.publicBaseUrl, revision: model.revision, builtAt, deprecations };

  const entries: IndexEntry[] = apiEntries(model).map(([path, source]) => {
    if (deprecations.size === 0) return [path, source];
    const extra = deprecations.get(path) ?? deprecations.get(matchRoute(path) ?? '');
    return extra ? [path, { ...source, headers: { ...source.headers, ...extra } }] : [path, source];
  });
  for (const render of opts.renderers ?? []) entries.push(...(await render(model, ctx)));
  if (opts.staticEntries) entries.push(...opts.staticEntries);

  const seen = new Set<string>();
  for (const [path] of entries) {
    if (!path.startsWith('/')) throw new Error(`index entry path must start with "/": ${JSON.stringify(path)}`);
    if (seen.has(path)) throw new Error(`two index entries for ${path}`);
    seen.add(path);
  }

  const previous = opts.previous?.representations;
  const defer = opts.deferCompression ?? false;
  const reps = await mapLimited(entries, COMPRESSION_CONCURRENCY, ([path, source]) => buildOrReuse(source, previous?.get(path), defer));
  const representations = new Map<string, Representation>();
  entries.forEach(([path], i) => representations.set(path, reps[i]!));

  return Object.freeze({ revision: model.revision, builtAt, model, representations, deprecations });
}

/**
 * The same index with every body that is big enough compressed (gzip and br): same revision, build time, bodies
 * and ETags, so a client cannot tell the two apart but by `Content-Encoding`. Returns `index` itself when nothing
 * was left to compress. Compression runs on the thread pool, a few bodies at a time.
 */
export async function completeCompression(index: CatalogIndex): Promise<CatalogIndex> {
  const pending = [...index.representations].filter(([, rep]) => needsCompression(rep));
  if (pending.length === 0) return index;
  const compressed = await mapLimited(pending, COMPRESSION_CONCURRENCY, async ([, rep]) => {
    // Small bodies compress synchronously; yield to the event loop before each so requests keep being answered
    // while a whole index is compressed in the background.
    await new Promise<void>((resolve) => setImmediate(resolve));
    return compressRepresentation(rep);
  });
  const representations = new Map(index.representations);
  pending.forEach(([path], i) => representations.set(path, compressed[i]!));
  return Object.freeze({ ...index, representations });
}
