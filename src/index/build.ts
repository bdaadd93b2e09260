/**
 * `buildIndex`: a valid content model → every response body of that revision, serialised and compressed once,
 * keyed by request path. Producers outside the API (pages, the Atom feed, `/openapi.json`, `/docs`) plug in
 * as renderers or static resources and get the same ETag and compression treatment.
 */
import type { ContentModel } from '../content/index.js';
import { JSON_TYPE, matchRoute, ROUTES, routePath, type IndexRouteName, type RouteSpec } from '../contract/routes.js';
import pLimit from 'p-limit';
import { ROUTE_BODIES } from './bodies.js';
import type { IndexCodec } from './codec.js';
import { routeDeprecations, type RouteDeprecations } from './deprecation.js';
import {
  compressesItself,
  buildOrReuse,
  compressAfterYield,
  deferredRepresentation,
  needsCompression,
  prepareOrReuse,
  sameLabels,
  type DeferredSource,
  type RepresentationSource,
} from './representation.js';
import { jsonBody } from './json-body.js';
import { buildRedirects } from './redirects.js';
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
 * What to serve at a path when the body is derived from parts of the model: the body is made (`render`) only when
 * `inputs` differ from those the previous index's entry at the same path was made from. Inputs are compared by
 * identity (`===`): parts of the model are shared between reloads when unchanged (`DerivationMemo` in
 * `src/content/memo.ts`), strings and numbers by value. `render` must depend on nothing but its inputs.
 */
export interface DerivedSource extends DeferredSource {
  /** What the body is made from, e.g. `[lesson]` or `[course, stylesheetPath]`. */
  readonly inputs: readonly unknown[];
  /**
   * Whether the body may wait for its first request when the build defers rendering
   * ({@link BuildIndexOptions.deferRendering}). The renderers' bodies always may; the API's when their route says so.
   */
  readonly onFirstRequest?: boolean;
}

/** An entry whose body is made only when its inputs changed (see {@link DerivedSource}). */
export type DerivedEntry = readonly [path: string, source: DerivedSource];

/**
 * Derives extra representations from the model (e.g. the HTML pages: `['/', {contentType: 'text/html; …', body}]`).
 * Called once per build; may be async. Paths must be absolute (`/…`) and must not collide with another entry.
 */
export type Renderer = (
  model: ContentModel,
  ctx: RenderContext,
) => Iterable<IndexEntry | DerivedEntry> | Promise<Iterable<IndexEntry | DerivedEntry>>;

/** Options of {@link buildIndex}. */
export interface BuildIndexOptions {
  /** Hashing and compression (`nodeCodec` on Node). */
  codec: IndexCodec;
  /** Public base URL (`PUBLIC_BASE_URL`), no trailing slash: deprecation `Link` targets and renderers use it. */
  publicBaseUrl: string;
  /**
   * Absolute base of the `Location` of redirects and of the links of the API root (`PUBLIC_BASE_URL` when it is
   * set, no trailing slash), so a client of a service published under a path (`https://example.org/catalog`) is
   * sent there. Default: the
   * current path alone (`/v1/lessons/py-text`), resolved against the request's own origin, as the OpenAPI
   * document's `servers` is `/` when `PUBLIC_BASE_URL` is unset.
   */
  locationBase?: string;
  /** Model-derived producers (pages, feed). */
  renderers?: readonly Renderer[];
  /** The index being replaced: unchanged bodies are reused instead of recompressed. */
  previous?: CatalogIndex;
  /**
   * Leave new bodies uncompressed, so the index can be served at once; {@link completeCompression} then gives
   * the same index with every compressed form. Default false: everything compressed before returning.
   */
  deferCompression?: boolean;
  /**
   * Leave new bodies to be made on first need, a request for one, and compressed after it
   * ({@link deferredRepresentation}): the renderers' (pages, feed, site files), and the API's whose route allows it
   * (`onFirstRequest` in `ROUTE_BODIES`: the lessons). The catalog is served sooner, and a body nobody asks for
   * costs no memory. A body the previous index had at the same path is made now, to reuse that one when the bytes
   * are equal. Default false.
   */
  deferRendering?: boolean;
  /** Clock, for tests. */
  now?: () => Date;
}

/** Whether an index route has one body (the catalog, the changelog…) rather than one per value (each lesson…). */
const hasOneBody = (route: RouteSpec): boolean => 'one' in ROUTE_BODIES[route.name as IndexRouteName];

/**
 * The route table's index-backed routes, those with a body per value first: the catalog is put together from its
 * courses' bytes ({@link jsonBody}) only when they are made before it.
 */
const INDEX_ROUTES = (ROUTES as readonly RouteSpec[])
  .filter((r) => r.source === 'index')
  .sort((a, b) => Number(hasOneBody(a)) - Number(hasOneBody(b)));

/**
 * The entry made for each API body value, with the route it was made for (its deprecation fields are its source's
 * `headers`): a value the next build meets again (the model shares unchanged parts between reloads) gets the very
 * same entry object, which the build recognises at a glance. Weak: an entry lives as long as its value.
 */
const apiEntryOf = new WeakMap<object, { route: RouteSpec; entry: DerivedEntry }>();

/**
 * The API's own entries: the 200 body of every index-backed route of the contract (`ROUTE_BODIES`), with the
 * route's `Cache-Control` and the deprecation fields of the route or path, if any. Each body is serialised only
 * when its value is not the very object the previous index serialised at that path, and then from the bytes of the
 * bodies it contains ({@link jsonBody}).
 */
export function apiEntries(model: ContentModel, deprecations: RouteDeprecations = new Map(), linkBase = ''): DerivedEntry[] {
  const out: DerivedEntry[] = [];
  const extraOf = (path: string, route: RouteSpec) =>
    deprecations.size === 0 ? undefined : (deprecations.get(path) ?? deprecations.get(route.path));
  for (const route of INDEX_ROUTES) {
    const bodies = ROUTE_BODIES[route.name as IndexRouteName];
    const values: Iterable<readonly [string | undefined, unknown]> =
      'one' in bodies ? [[undefined, bodies.one(model, linkBase)]] : bodies.each(model);
    for (const [value, body] of values) {
      const known = typeof body === 'object' && body !== null ? apiEntryOf.get(body) : undefined;
      // Deprecation fields name a path or its route's template: the template's apply to every value.
      if (known?.route === route && known.entry[1].headers === extraOf(known.entry[0], route)) {
        out.push(known.entry);
        continue;
      }
      const path = value === undefined ? route.path : routePath(route, value);
      const entry: DerivedEntry = [path, new ApiBodySource(body, route.cacheControl, extraOf(path, route), bodies.onFirstRequest === true)];
      if (typeof body === 'object' && body !== null) apiEntryOf.set(body, { route, entry });
      out.push(entry);
    }
  }
  return out;
}

/**
 * The source of an API body: its value, serialised ({@link jsonBody}) when the body is made. A class, not an object
 * literal with a `render` closure of its own: the build makes one per lesson, and a start waits for them.
 */
class ApiBodySource implements DerivedSource {
  readonly contentType = JSON_TYPE;
  readonly inputs: readonly [unknown];
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * @param headers the route's or path's deprecation fields, if any.
   * @param onFirstRequest whether the body may wait for its first request ({@link DerivedSource.onFirstRequest}).
   */
  constructor(
    body: unknown,
    readonly cacheControl: string,
    headers: Readonly<Record<string, string>> | undefined,
    readonly onFirstRequest: boolean,
  ) {
    this.inputs = [body];
    if (headers !== undefined) this.headers = headers;
  }

  render(): Uint8Array {
    return jsonBody(this.inputs[0]);
  }
}

/** Runs `fn` over `items` with at most `limit` in flight, keeping the order of results. */
function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const run = pLimit(limit);
  return Promise.all(items.map((item) => run(() => fn(item))));
}

/**
 * What an index was built from, place by place: `entries[i]` gave the representation `reps[i]`, served at
 * `entries[i][0]` (the index's `representations` hold the same paths in the same order). Beside the index rather than
 * in it: it is bookkeeping of the builder, not something served.
 */
interface BuiltFrom {
  readonly entries: readonly (IndexEntry | DerivedEntry)[];
  readonly reps: readonly Representation[];
}

/** The entries and representations of each index the builder made (and of its compressed form). */
const builtFrom = new WeakMap<CatalogIndex, BuiltFrom>();

/**
 * Where each path of an earlier build was, made only when an entry is not where its path was before (a file
 * added or removed moves every entry after it).
 */
class EarlierPlaces {
  #places: Map<string, number> | undefined;
  constructor(readonly earlier: BuiltFrom) {}
  of(path: string, guess: number): number | undefined {
    if (this.earlier.entries[guess]?.[0] === path) return guess;
    this.#places ??= new Map(this.earlier.entries.map(([p], i) => [p, i]));
    return this.#places.get(path);
  }
}

/** Whether `source` may take `previous` (made from `before`) as it is: the same inputs and labels. */
function unchanged(source: DerivedSource, previous: Representation, before: IndexEntry[1] | DerivedSource): boolean {
  return 'render' in before && sameItems(before.inputs, source.inputs) && sameLabels(previous, source);
}

/** Whether two lists hold the same objects (`===`) in the same order (as the content's memo judges its inputs). */
function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * `source` as the index serves it at `path`, with the route's `Cache-Control` when the producer gave none.
 * @throws Error when `path` is not a path of a route the index serves.
 */
function checked<S extends RepresentationSource | DerivedSource>(path: string, source: S): S {
  const route = matchRoute(path)?.route;
  // `static` routes are answered from StaticRepresentations, `computed` ones per request.
  if (route === undefined || route.source === 'computed' || route.source === 'static')
    throw new Error(`index entry ${JSON.stringify(path)} is not a path of a route the index serves`);
  // The route table states each route's Cache-Control; producers need not repeat it.
  return source.cacheControl === undefined ? { ...source, cacheControl: route.cacheControl } : source;
}

/**
 * Builds the immutable index of one content revision. With `previous`, an entry made from the same inputs as
 * the previous index's entry at its path (a {@link DerivedSource}) takes that representation as it is, its
 * compressed forms included, without being rendered, serialised or hashed again; other entries are built, and
 * reuse the previous representation when their bytes turn out equal. The very entry object the previous build
 * had at the same place (an unchanged body's, from {@link apiEntries}) is recognised without any lookup, and when
 * every path is where it was, the previous map of representations is copied and only the changed paths are set:
 * a one-lesson reload of 10,000 lessons touches a handful of paths, not ten thousand. The redirects of the content's
 * old ids (`redirects.ts`) are made afresh: a few small objects, so an alias added or removed by a reload counts at
 * once.
 * @throws Error when two entries claim the same path or a path is not one of a route the index serves (a bug in
 *   a producer, or duplicate ids the content validator should have rejected), when an old id's path is also
 *   served, or when a deprecation names no route.
 */
export async function buildIndex(model: ContentModel, opts: BuildIndexOptions): Promise<CatalogIndex> {
  const builtAt = (opts.now?.() ?? new Date()).toISOString();
  const deprecations = routeDeprecations(model, opts.publicBaseUrl);
  const ctx: RenderContext = { publicBaseUrl: opts.publicBaseUrl, revision: model.revision, builtAt, deprecations, digest: opts.codec.digest };

  const entries: (IndexEntry | DerivedEntry)[] = apiEntries(model, deprecations, opts.locationBase);
  const firstRendered = entries.length; // entries from here on are the renderers'
  for (const render of opts.renderers ?? []) entries.push(...(await render(model, ctx)));

  const earlier = opts.previous && builtFrom.get(opts.previous);
  const places = earlier && new EarlierPlaces(earlier);
  const reps = new Array<Representation | undefined>(entries.length);
  // Whether every path is where it was in the previous index: then its map is copied, and only changed paths set.
  let samePaths = earlier !== undefined && earlier.entries.length === entries.length;
  const toBuild: { at: number; previous: Representation | undefined; source: RepresentationSource }[] = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    // The very entry the previous build had here (apiEntries gives an unchanged body's entry again): its path,
    // source and representation are the same, found without a lookup.
    if (earlier?.entries[i] === entry) {
      reps[i] = earlier.reps[i];
      continue;
    }
    const path = entry[0];
    let rep: Representation | undefined;
    let before: IndexEntry[1] | DerivedSource | undefined;
    if (places) {
      const at = places.of(path, i);
      if (at !== i) samePaths = false;
      if (at !== undefined) [rep, before] = [places.earlier.reps[at], places.earlier.entries[at]![1]];
    } else rep = opts.previous?.representations.get(path); // an index made elsewhere: its bytes may still be reused
    // The API's entries are made from the route table; a renderer's path the previous index served was checked then.
    const source = i < firstRendered || (entry[1].cacheControl !== undefined && rep !== undefined) ? entry[1] : checked(path, entry[1]);
    if ('render' in source && rep !== undefined && before !== undefined && unchanged(source, rep, before)) {
      reps[i] = rep;
      continue;
    }
    if (opts.deferRendering && 'render' in source && (i >= firstRendered || source.onFirstRequest === true) && rep === undefined) {
      reps[i] = deferredRepresentation(opts.codec, source);
      continue;
    }
    const body = 'render' in source ? source.render() : source.body;
    toBuild.push({
      at: i,
      previous: rep,
      source: { contentType: source.contentType, body, cacheControl: source.cacheControl, headers: source.headers },
    });
  }
  // Deferred, nothing waits for a compressor: no pool of promises for thousands of synchronous preparations.
  const built = opts.deferCompression
    ? toBuild.map(({ previous, source }) => prepareOrReuse(opts.codec, source, previous))
    : await mapLimited(toBuild, opts.codec.compressionsAtOnce, ({ previous, source }) => buildOrReuse(opts.codec, source, previous));
  toBuild.forEach(({ at }, i) => (reps[at] = built[i]));
  const representations = samePaths ? new Map(opts.previous!.representations) : new Map<string, Representation>();
  entries.forEach(([path], i) => {
    if (!samePaths || reps[i] !== earlier!.reps[i]) representations.set(path, reps[i]!);
  });
  if (representations.size !== entries.length) {
    const seen = new Set<string>();
    for (const [path] of entries) {
      if (seen.has(path)) throw new Error(`two index entries for ${path}`);
      seen.add(path);
    }
  }

  const redirects = buildRedirects(model, representations, opts.locationBase);
  const locationBase = opts.locationBase ?? '';
  const index: CatalogIndex = Object.freeze({ revision: model.revision, builtAt, model, representations, redirects, deprecations, locationBase });
  builtFrom.set(index, { entries, reps: reps as Representation[] });
  return index;
}

/**
 * The same index with every body that is big enough compressed (gzip and br): same revision, build time, bodies and
 * ETags, so a client cannot tell the two apart but by `Content-Encoding`. A deferred page
 * ({@link BuildIndexOptions.deferRendering}) is left as it is, rendered or not: it is rendered by its first request
 * and compresses itself then ({@link deferredRepresentation}). Returns `index` itself when nothing was left to do. Compression
 * runs on the thread pool, a few bodies at a time.
 */
export async function completeCompression(codec: IndexCodec, index: CatalogIndex): Promise<CatalogIndex> {
  const pending = [...index.representations].filter(([, rep]) => !compressesItself(rep) && needsCompression(rep));
  if (pending.length === 0) return index;
  const compressed = await mapLimited(pending, codec.compressionsAtOnce, ([, rep]) => compressAfterYield(codec, rep));
  const representations = new Map(index.representations);
  pending.forEach(([path], i) => representations.set(path, compressed[i]!));
  const done: CatalogIndex = Object.freeze({ ...index, representations });
  const built = builtFrom.get(index);
  // The representations hold the entries' paths in the entries' order.
  if (built) builtFrom.set(done, { entries: built.entries, reps: [...representations.values()] });
  return done;
}
