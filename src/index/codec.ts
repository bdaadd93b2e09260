/**
 * What the index needs from its runtime: hashing and compression. Injected (Node's `crypto` and `zlib` in
 * `src/server/node-codec.ts`), so the index stays runtime-neutral like the HatTip handler that serves it.
 */

/** Hashing and compression of representation bodies. */
export interface IndexCodec {
  /** SHA-256 of the bytes, base64url without padding: the basis of strong entity tags. */
  digest: (body: Uint8Array) => string;
  /**
   * Both compressed forms of a body, `gzip` (RFC 1952) and `br` (RFC 7932), chosen for its size and type. May run
   * on a thread pool.
   */
  compress(body: Uint8Array, contentType: string): Promise<{ gzip: Uint8Array; br: Uint8Array }>;
  /**
   * How many `compress` calls a build has in flight at once: enough to keep the runtime's compression threads busy.
   * More only wait, each holding its compressors' memory.
   */
  readonly compressionsAtOnce: number;
  /** Resolves after pending I/O callbacks have run: a long build calls it so requests keep being answered. */
  yieldToEventLoop(): Promise<void>;
}
