/**
 * What is served: every response body of one content revision, serialised and compressed once at build
 * time (RFC 9110 "selected representation"). Serving is a map lookup; a reload builds a new index.
 */
import type { ContentModel } from '../content/index.js';

/** One precomputed representation of a resource. */
export interface Representation {
  /** `Content-Type` header value, e.g. `application/json` or `text/html; charset=utf-8`. */
  contentType: string;
  /** The identity-encoded body. */
  body: Uint8Array;
  /**
   * The body with `Content-Encoding: gzip`, or `null` for a body too small to gain from compression
   * (under 1 KiB, see `MIN_COMPRESSIBLE_BYTES` in `representation.ts`): identity is then always sent.
   */
  gzip: Uint8Array | null;
  /** The body with `Content-Encoding: br`, or `null` like {@link Representation.gzip}. */
  br: Uint8Array | null;
  /** Strong entity tag of the identity body, quoted (`"…"`), per RFC 9110 §8.8.3. */
  etag: string;
  /**
   * Strong tags of the gzip and br forms (`"….gz"`, `"….br"`): each coding is a representation of its own, and a
   * strong tag names exactly one (RFC 9110 §8.8.3). See {@link codedEtag}.
   */
  gzipEtag: string;
  brEtag: string;
  /** `Cache-Control` header value. */
  cacheControl: string;
  /** Extra headers for this resource (e.g. Deprecation, Sunset, Link), already formatted. */
  headers: Readonly<Record<string, string>>;
}

/**
 * The precomputed `308 Permanent Redirect` (RFC 9110 §15.4.9) answering an old id of a renamed resource (its
 * frontmatter's `aliases`), at the path the old id makes in a route that allows renaming (`RouteSpec.aliases`).
 */
export interface Redirect {
  /**
   * `Location` before the request's query is appended: the current resource's path (`/v1/lessons/py-text`),
   * after `PUBLIC_BASE_URL` when that is set (`locationBase` of `buildIndex`).
   */
  location: string;
  /**
   * `{"detail": "Lesson \"py-strings\" is now \"py-text\""}` on a JSON route; empty on a page (a browser follows at
   * once; `Content-Length: 0`).
   */
  body: Uint8Array;
  /** `Content-Type` of a non-empty body, `null` for an empty one. */
  contentType: string | null;
  /** The route's `Cache-Control` (a 308 is cacheable by default, RFC 9110 §15.4.9). */
  cacheControl: string;
}

/** An immutable, fully derived index of one content revision. */
export interface CatalogIndex {
  /** The content revision this index was built from. */
  readonly revision: string;
  /** When it was built, as an ISO 8601 timestamp. */
  readonly builtAt: string;
  /** The model it was built from (read-only; used by pages and tests). */
  readonly model: ContentModel;
  /** Precomputed representations keyed by request path (`/v1/catalog`, `/v1/courses/python-basics`, `/`, …). */
  readonly representations: ReadonlyMap<string, Representation>;
  /**
   * The redirects of old ids keyed by request path like {@link CatalogIndex.representations}
   * (`/v1/lessons/py-strings`, `/courses/python-intro`); looked up only when a path has no representation.
   */
  readonly redirects: ReadonlyMap<string, Redirect>;
  /**
   * Deprecation, Sunset and Link fields (RFC 9745, RFC 8594) keyed by a deprecated route template
   * (`/v1/courses/{course_id}`) or concrete path, so error responses on a deprecated route carry them too.
   * 200 representations already hold them in `headers`.
   */
  readonly deprecations: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /**
   * What an absolute URL of this service starts with (`PUBLIC_BASE_URL` when it is set, no trailing slash), or `''`:
   * redirects and links are then paths on the request's own origin.
   */
  readonly locationBase: string;
}
