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

/** What a {@link deferredRepresentation} is made from: the labels, and the body's renderer. */
export interface DeferredSource extends Omit<RepresentationSource, 'body'> {
  /** The identity body. Called on its source (`source.render()`), so a class may implement it as a method. */
  readonly render: () => string | Uint8Array;
}

/**
 * A representation whose body is made on first need: `source.render` runs, and the body is encoded and tagged, the
 * first time its body or an entity tag is read (a request for it), then never again. Its labels are known at once.
 * Its compressed forms follow in the background once the body is made (after a yield, so never while the request
 * that made it waits), as a build's do: until then, and for good if compression fails, identity is served (always an
 * acceptable coding, RFC 9110 §12.5.3). Lets an index be served before its pages and lesson bodies are made, and a
 * body never requested cost nothing but its labels, as the static documents are (`static-representations.ts`).
 */
export function deferredRepresentation(codec: IndexCodec, source: DeferredSource): Representation {
  return new DeferredRepresentation(codec, source);
}

/**
 * {@link deferredRepresentation}'s objects. A class, not an object literal with accessors: such a literal carries
 * its own getters and their closures, and an index defers one per lesson. The body, tags and compressed forms are accessors of the prototype, so a spread (`{ ...rep }`) copies
 * the labels only: {@link compressRepresentation} leaves a deferred representation alone, and nothing else copies one.
 */
class DeferredRepresentation implements Representation {
  readonly contentType: string;
  readonly cacheControl: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly #codec: IndexCodec;
  /** Until made; let go then, as its renderer holds a whole model. */
  #source: DeferredSource | undefined;
  #made: Representation | undefined;

  constructor(codec: IndexCodec, source: DeferredSource) {
    this.contentType = source.contentType;
    this.cacheControl = source.cacheControl ?? DEFAULT_CACHE_CONTROL;
    this.headers = source.headers ?? {};
    this.#codec = codec;
    this.#source = source;
  }

  /** Whether the body is made yet. */
  get isMade(): boolean {
    return this.#made !== undefined;
  }

  get body(): Uint8Array {
    return this.#make().body;
  }
  get gzip(): Uint8Array | null {
    return this.#made?.gzip ?? null;
  }
  get br(): Uint8Array | null {
    return this.#made?.br ?? null;
  }
  get etag(): string {
    return this.#make().etag;
  }
  get gzipEtag(): string {
    return this.#make().gzipEtag;
  }
  get brEtag(): string {
    return this.#make().brEtag;
  }

  #make(): Representation {
    if (this.#made !== undefined) return this.#made;
    const source = this.#source!;
    const { contentType, cacheControl, headers } = source;
    const identity = prepareRepresentation(this.#codec, { contentType, cacheControl, headers, body: source.render() });
    // Kept until made: a renderer that throws throws again on the next request, rather than leave nothing to make.
    this.#source = undefined;
    this.#made = identity;
    if (needsCompression(identity)) {
      compressAfterYield(this.#codec, identity).then(
        (compressed) => void (this.#made = compressed),
        () => undefined, // identity stays served
      );
    }
    return identity;
  }
}

/** Whether `rep` is a {@link deferredRepresentation} whose body is not made yet: reading its body would render it. */
export function awaitsRendering(rep: Representation): boolean {
  return rep instanceof DeferredRepresentation && !rep.isMade;
}

/**
 * Whether `rep` is a {@link deferredRepresentation}: it compresses itself once made, so a pass that compresses an
 * index must leave it alone (it would compress the same body a second time, or render a body nobody asked for).
 */
export function compressesItself(rep: Representation): boolean {
  return rep instanceof DeferredRepresentation;
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

/**
 * The same representation with its compressed forms: itself when it has them, is too small to gain, or compresses
 * itself once made ({@link deferredRepresentation}).
 */
export async function compressRepresentation(codec: IndexCodec, rep: Representation): Promise<Representation> {
  if (compressesItself(rep) || !needsCompression(rep)) return rep;
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
