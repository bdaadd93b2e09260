/**
 * `buildIndex`: a valid content model → every response body of that revision, serialised and compressed once,
 * keyed by request path. Producers outside the API (pages, the Atom feed, `/openapi.json`, `/docs`) plug in
 * as renderers or static resources and get the same ETag and compression treatment.
 */
import type { ContentModel } from '../content/model.js';
import { matchRoute, ROUTES, routePath, type IndexRouteName, type RouteSpec } from '../contract/routes.js';
import pLimit from 'p-limit';
import { ROUTE_BODIES } from './bodies.js';
import type { IndexCodec } from './codec.js';
import { routeDeprecations, type RouteDeprecations } from './deprecation.js';
import { buildOrReuse, compressRepresentation, needsCompression, type RepresentationSource } from './representation.js';
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
  /** SHA-256 of some bytes, base64url (e.g. to version an asset's URL by its bytes). */
  readonly digest: (body: Uint8Array) => string;
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
  /** Hashing and compression (`nodeCodec` on Node). */
  codec: IndexCodec;
  /** Public base URL (`PUBLIC_BASE_URL`), no trailing slash: deprecation `Link` targets and renderers use it. */
  publicBaseUrl: string;
  /** Model-derived producers (pages, feed). */
  renderers?: readonly Renderer[];
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

/** How many compressions run at once: enough to keep the thread pool busy, few enough to bound memory. */
const COMPRESSION_CONCURRENCY = 8;

/** The route table's index-backed routes. */
const INDEX_ROUTES = (ROUTES as readonly RouteSpec[]).filter((r) => r.source === 'index');

/**
 * The API's own entries: the 200 body of every index-backed route of the contract (`ROUTE_BODIES`), with the
 * route's `Cache-Control` and the deprecation fields of the route or path, if any.
 */
export function apiEntries(model: ContentModel, deprecations: RouteDeprecations = new Map()): IndexEntry[] {
  const out: IndexEntry[] = [];
  for (const route of INDEX_ROUTES) {
    const bodies = ROUTE_BODIES[route.name as IndexRouteName];
    const values: Iterable<readonly [string | undefined, unknown]> = 'one' in bodies ? [[undefined, bodies.one(model)]] : bodies.each(model);
    for (const [value, body] of values) {
      const path = value === undefined ? route.path : routePath(route, value);
      const extra = deprecations.get(path) ?? deprecations.get(route.path);
      out.push([
        path,
        { contentType: 'application/json', body: JSON.stringify(body), cacheControl: route.cacheControl, ...(extra && { headers: extra }) },
      ]);
    }
  }
  return out;
}

/** Runs `fn` over `items` with at most `limit` in flight, keeping the order of results. */
function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const run = pLimit(limit);
  return Promise.all(items.map((item) => run(() => fn(item))));
}

/**
 * Builds the immutable index of one content revision.
 * @throws Error when two entries claim the same path or a path is not one of a route the index serves (a bug in
 *   a producer, or duplicate ids the content validator should have rejected), or when a deprecation names no route.
 */
export async function buildIndex(model: ContentModel, opts: BuildIndexOptions): Promise<CatalogIndex> {
  const builtAt = (opts.now?.() ?? new Date()).toISOString();
  const deprecations = routeDeprecations(model, opts.publicBaseUrl);
  const ctx: RenderContext = { publicBaseUrl: opts.publicBaseUrl, revision: model.revision, builtAt, deprecations, digest: opts.codec.digest };

  const entries: IndexEntry[] = apiEntries(model, deprecations);
  for (const render of opts.renderers ?? []) entries.push(...(await render(model, ctx)));

  const seen = new Set<string>();
  entries.forEach(([path, source], i) => {
    const route = matchRoute(path)?.route;
    // `static` routes are answered from StaticRepresentations, `computed` ones per request.
    if (route === undefined || route.source === 'computed' || route.source === 'static')
      throw new Error(`index entry ${JSON.stringify(path)} is not a path of a route the index serves`);
    if (seen.has(path)) throw new Error(`two index entries for ${path}`);
    seen.add(path);
    // The route table states each route's Cache-Control; producers need not repeat it.
    if (source.cacheControl === undefined) entries[i] = [path, { ...source, cacheControl: route.cacheControl }];
  });

  const previous = opts.previous?.representations;
  const defer = opts.deferCompression ?? false;
  const reps = await mapLimited(entries, COMPRESSION_CONCURRENCY, ([path, source]) => buildOrReuse(opts.codec, source, previous?.get(path), defer));
  const representations = new Map<string, Representation>();
  entries.forEach(([path], i) => representations.set(path, reps[i]!));

  return Object.freeze({ revision: model.revision, builtAt, model, representations, deprecations });
}

/**
 * The same index with every body that is big enough compressed (gzip and br): same revision, build time, bodies
 * and ETags, so a client cannot tell the two apart but by `Content-Encoding`. Returns `index` itself when nothing
 * was left to compress. Compression runs on the thread pool, a few bodies at a time.
 */
export async function completeCompression(codec: IndexCodec, index: CatalogIndex): Promise<CatalogIndex> {
  const pending = [...index.representations].filter(([, rep]) => needsCompression(rep));
  if (pending.length === 0) return index;
  const compressed = await mapLimited(pending, COMPRESSION_CONCURRENCY, async ([, rep]) => {
    // Small bodies compress synchronously; yield to the event loop before each so requests keep being answered
    // while a whole index is compressed in the background.
    await codec.yieldToEventLoop();
    return compressRepresentation(codec, rep);
  });
  const representations = new Map(index.representations);
  pending.forEach(([path], i) => representations.set(path, compressed[i]!));
  return Object.freeze({ ...index, representations });
}
