/**
 * The content-independent representations (`/openapi.json`, `/docs` and its assets: the `static` routes of the
 * table), kept beside the index rather than in it. They are built once per process, on first need: the first
 * request for one of them (the service builds them for nothing else), or {@link StaticRepresentations.warm}.
 * However many requests arrive meanwhile, the producer runs once and every one of them waits for that one run,
 * so nothing an anonymous client sends makes the service read or hash the files twice. Their compressed forms
 * follow in the background, as the index's do; identity is served until then (RFC 9110 §12.5.3).
 */
import { matchRoute } from '../contract/routes.js';
import type { IndexEntry } from './build.js';
import type { IndexCodec } from './codec.js';
import { compressAfterYield, needsCompression, prepareRepresentation } from './representation.js';
import type { Representation } from './types.js';

/** The static representations of one process; see the module comment. */
export class StaticRepresentations {
  readonly #codec: IndexCodec;
  readonly #produce: () => Iterable<IndexEntry>;
  /** Set once built; replaced once by the same representations with their compressed forms. */
  #ready: ReadonlyMap<string, Representation> | undefined;
  /** The one build, with its compression: started once, never again (a failure stays a failure). */
  #work: { built: Promise<ReadonlyMap<string, Representation>>; compressed: Promise<void> } | undefined;

  /**
   * @param produce the entries, called once (it may read files): each path must be one of a `static` route of the
   *   table, and each entry without `cacheControl` gets its route's.
   */
  constructor(codec: IndexCodec, produce: () => Iterable<IndexEntry>) {
    this.#codec = codec;
    this.#produce = produce;
  }

  /**
   * The representation at `path`, `undefined` when there is none: at once when built, else once the one build is
   * done (which this starts if nothing has). Rejects when the build failed.
   */
  get(path: string): Representation | undefined | Promise<Representation | undefined> {
    const ready = this.#ready;
    if (ready !== undefined) return ready.get(path);
    return this.#start().built.then(() => this.#ready?.get(path));
  }

  /** Builds them now unless done or under way; resolves when they have their compressed forms too. */
  warm(): Promise<void> {
    return this.#start().compressed;
  }

  #start(): { built: Promise<ReadonlyMap<string, Representation>>; compressed: Promise<void> } {
    if (this.#work === undefined) {
      const built = Promise.resolve().then(() => this.#build());
      this.#work = { built, compressed: built.then((reps) => this.#compress(reps)) };
      // Whoever asks sees the failure; an unobserved one is not an unhandled rejection.
      this.#work.compressed.catch(() => undefined);
    }
    return this.#work;
  }

  #build(): ReadonlyMap<string, Representation> {
    const reps = new Map<string, Representation>();
    for (const [path, source] of this.#produce()) {
      const route = matchRoute(path)?.route;
      if (route?.source !== 'static') throw new Error(`static entry ${JSON.stringify(path)} is not a path of a static route`);
      if (reps.has(path)) throw new Error(`two static entries for ${path}`);
      reps.set(path, prepareRepresentation(this.#codec, { ...source, cacheControl: source.cacheControl ?? route.cacheControl }));
    }
    this.#ready = reps;
    return reps;
  }

  async #compress(reps: ReadonlyMap<string, Representation>): Promise<void> {
    const compressed = new Map(reps);
    for (const [path, rep] of reps) {
      if (!needsCompression(rep)) continue;
      compressed.set(path, await compressAfterYield(this.#codec, rep));
    }
    this.#ready = compressed;
  }
}
