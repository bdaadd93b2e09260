/**
 * One representation, prepared once: identity bytes, gzip and brotli forms and a strong ETag for each. Every body the
 * service serves from memory (API JSON, pages, `/openapi.json`, `/docs` assets) goes through here, so all get
 * the same conditional-request and content-coding treatment.
 */
import { CATALOG_CACHE_CONTROL } from '../contract/routes.js';
import type { IndexCodec } from './codec.js';
import type { Representation } from './types.js';

/** What a producer hands in: a body and how to label it. Compatible with `StaticRepresentation` of the docs assets. */
export interface RepresentationSource {
  /** `Content-Type` header value. */
  contentType: string;
  /** The identity body; a string is encoded as UTF-8. */
  body: string | Uint8Array;
  /** `Cache-Control` header value; default {@link DEFAULT_CACHE_CONTROL}. */
  cacheControl?: string;
  /** Extra response headers, already formatted (e.g. `Content-Security-Policy`). */
  headers?: Readonly<Record<string, string>>;
}

/** `Cache-Control` of catalog data: any cache may reuse it for a minute. */
export const DEFAULT_CACHE_CONTROL = CATALOG_CACHE_CONTROL;

/**
 * Bodies smaller than this are not compressed: a few hundred bytes shrink by less than the response's own
 * headers weigh, and compressing the thousands of lesson bodies would dominate the build (CDNs use similar
 * minimums, e.g. 860 bytes).
 */
export const MIN_COMPRESSIBLE_BYTES = 1024;

const encoder = new TextEncoder();

/**
 * The strong entity tag of a body: `"<sha256 of the bytes, base64url>"` (RFC 9110 §8.8.3). Equal bytes give
 * equal tags across processes and restarts, so several instances agree.
 */
export function strongEtag(codec: IndexCodec, body: Uint8Array): string {
  return `"${codec.digest(body)}"`;
}

/**
 * The strong tag of a coded form: the identity tag with the coding's suffix inside the quotes (`"abc"` →
 * `"abc.gz"`). Tags are base64url, which has no `.`, so the three never collide.
 */
export function codedEtag(identityEtag: string, coding: 'gzip' | 'br'): string {
  return `${identityEtag.slice(0, -1)}.${coding === 'gzip' ? 'gz' : 'br'}"`;
}

/**
 * A representation with its identity body and ETag only: servable at once (identity is always acceptable,
 * RFC 9110 §12.5.3), its compressed forms added later by {@link compressRepresentation}.
 */
export function prepareRepresentation(codec: IndexCodec, source: RepresentationSource): Representation {
  const body = bytesOf(source);
  return tagged(source, body, strongEtag(codec, body));
}

/**
 * A representation whose body is made on first need: `source.render` runs, and the body is encoded and tagged, the
 * first time its body or an entity tag is read (a request for it), then never again. Its labels are known at once.
 * Its compressed forms follow in the background once the body is made (after a yield, so never while the request
 * that made it waits), as a build's do: until then, and for good if compression fails, identity is served (always an
 * acceptable coding, RFC 9110 §12.5.3). Lets an index be served before its pages are rendered, and a page never
 * requested cost nothing but its labels, as the static documents are (`static-representations.ts`).
 */
export function deferredRepresentation(
  codec: IndexCodec,
  source: Omit<RepresentationSource, 'body'> & { readonly render: () => string | Uint8Array },
): Representation {
  let made: Representation | undefined;
  let unrendered: typeof source | undefined = source; // let go once made: its renderer holds a whole model
  const make = (): Representation => {
    if (made === undefined) {
      const { render, ...labels } = unrendered!;
      unrendered = undefined;
      const identity = prepareRepresentation(codec, { ...labels, body: render() });
      made = identity;
      unmade.delete(rep);
      if (needsCompression(identity)) {
        compressAfterYield(codec, identity).then(
          (compressed) => void (made = compressed),
          () => undefined, // identity stays served
        );
      }
    }
    return made;
  };
  // Own, enumerable accessors: a spread ({ ...rep }) reads them, so a copy holds the made values. The compressed
  // forms are read without making the body: `null` until it is made and compressed.
  const rep: Representation = {
    contentType: source.contentType,
    get body() {
      return make().body;
    },
    get gzip() {
      return made?.gzip ?? null;
    },
    get br() {
      return made?.br ?? null;
    },
    get etag() {
      return make().etag;
    },
    get gzipEtag() {
      return make().gzipEtag;
    },
    get brEtag() {
      return make().brEtag;
    },
    cacheControl: source.cacheControl ?? DEFAULT_CACHE_CONTROL,
    headers: source.headers ?? {},
  };
  unmade.add(rep);
  deferred.add(rep);
  return rep;
}

/** The deferred representations whose body is not made yet. */
const unmade = new WeakSet<Representation>();
/** Every deferred representation, made or not. */
const deferred = new WeakSet<Representation>();

/**
 * Whether `rep` is a {@link deferredRepresentation}: it compresses itself once made, so a pass that compresses an
 * index must leave it alone (it would compress the same body a second time, or render a page nobody asked for).
 */
export function compressesItself(rep: Representation): boolean {
  return deferred.has(rep);
}

/** Whether `rep` is a {@link deferredRepresentation} whose body is not made yet: reading its body would render it. */
export function awaitsRendering(rep: Representation): boolean {
  return unmade.has(rep);
}

/** The identity bytes of `source.body` (UTF-8 when it is text). */
function bytesOf(source: RepresentationSource): Uint8Array {
  return typeof source.body === 'string' ? encoder.encode(source.body) : source.body;
}

/** The representation of `body` (the encoded `source.body`) whose strong tag is `etag`, not yet compressed. */
function tagged(source: RepresentationSource, body: Uint8Array, etag: string): Representation {
  return {
    contentType: source.contentType,
    body,
    gzip: null,
    br: null,
    etag,
    gzipEtag: codedEtag(etag, 'gzip'),
    brEtag: codedEtag(etag, 'br'),
    cacheControl: source.cacheControl ?? DEFAULT_CACHE_CONTROL,
    headers: source.headers ?? {},
  };
}

/** Whether a representation still lacks the compressed forms its size calls for. */
export function needsCompression(rep: Representation): boolean {
  return rep.body.byteLength >= MIN_COMPRESSIBLE_BYTES && (rep.gzip === null || rep.br === null);
}

/** The same representation with its compressed forms (itself when it has them or is too small to gain). */
export async function compressRepresentation(codec: IndexCodec, rep: Representation): Promise<Representation> {
  if (!needsCompression(rep)) return rep;
  return { ...rep, ...(await codec.compress(rep.body, rep.contentType)) };
}

/**
 * {@link compressRepresentation} after a yield to the event loop: how every background compression runs (the start's,
 * a reload's, a page's after its first rendering, the static documents'), so requests keep being answered meanwhile
 * (small bodies compress synchronously) and never wait for the compression of what they made.
 */
export async function compressAfterYield(codec: IndexCodec, rep: Representation): Promise<Representation> {
  await codec.yieldToEventLoop();
  return compressRepresentation(codec, rep);
}

/** Compresses a body both ways (when big enough to gain) and tags it. */
export async function buildRepresentation(codec: IndexCodec, source: RepresentationSource): Promise<Representation> {
  return compressRepresentation(codec, prepareRepresentation(codec, source));
}

/** True when two header records have the same names and values. */
function sameHeaders(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ak = Object.keys(a);
  if (ak.length !== Object.keys(b).length) return false;
  return ak.every((k) => a[k] === b[k]);
}

/** True when `rep` carries the labels `source` asks for: its type, `Cache-Control` and extra headers. */
export function sameLabels(rep: Representation, source: Omit<RepresentationSource, 'body'>): boolean {
  return (
    rep.contentType === source.contentType &&
    rep.cacheControl === (source.cacheControl ?? DEFAULT_CACHE_CONTROL) &&
    sameHeaders(rep.headers, source.headers ?? {})
  );
}

/**
 * `previous` when it has the same body and labels as `source`, else `source` prepared without compression
 * ({@link prepareRepresentation}): a reload that changed one lesson hashes every body it serialised but prepares
 * one lesson (and the aggregates containing it), not the whole catalog.
 */
export function prepareOrReuse(codec: IndexCodec, source: RepresentationSource, previous: Representation | undefined): Representation {
  const body = bytesOf(source);
  const etag = strongEtag(codec, body); // hashed once: a 2 MB catalog costs a millisecond and a half per hash
  // Equal strong tags: equal bytes (SHA-256), found at native speed.
  if (previous && sameLabels(previous, source) && previous.etag === etag) return previous;
  return tagged(source, body, etag);
}

/**
 * {@link prepareOrReuse}, then compressed when it is not `previous`: a reload that changed one lesson recompresses
 * one lesson (and the aggregates containing it), not the whole catalog.
 */
export async function buildOrReuse(codec: IndexCodec, source: RepresentationSource, previous: Representation | undefined): Promise<Representation> {
  const rep = prepareOrReuse(codec, source, previous);
  return rep === previous ? rep : compressRepresentation(codec, rep);
}
