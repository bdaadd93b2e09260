/**
 * The index's codec on Node: SHA-256 from `node:crypto`, gzip and brotli from `node:zlib` (small bodies
 * synchronously, large ones on the thread pool), `setImmediate` to yield.
 */
import { hash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlibConstants, gzip, gzipSync, type BrotliOptions, type ZlibOptions } from 'node:zlib';
import type { IndexCodec } from '../index/codec.js';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * Bodies up to this size are compressed synchronously: for small inputs the thread-pool round trip of the
 * asynchronous API costs far more than the compression itself. Larger ones go to the thread pool so a reload
 * does not stall requests being served meanwhile.
 */
const SYNC_COMPRESSION_MAX_BYTES = 4 * 1024;

/**
 * The brotli window (RFC 7932 §9.1: `WBITS`, a window of 2^WBITS − 16 bytes) for a body of `size` bytes: the
 * smallest that holds the whole body, at most zlib's default (22, 4 MiB). The encoder allocates and clears its
 * buffers for the window it is given, whatever the input, so a small body with the default window costs many
 * times what it costs with a fitted one, for the same output. The `brotli` command-line tool sizes the window the
 * same way for a file of known length.
 */
function brotliWindowBits(size: number): number {
  let bits = zlibConstants.BROTLI_MIN_WINDOW_BITS;
  while (bits < zlibConstants.BROTLI_DEFAULT_WINDOW && 2 ** bits - 16 < size) bits++;
  return bits;
}

/**
 * Brotli quality (0–11) for a body of `size` bytes. Quality 11 costs many times quality 9 for slightly smaller
 * output, too much for a build of thousands of bodies. Quality 9 while the window is at most 2^16 (bodies up to
 * 65,520 bytes), where the encoder uses its small forgetful-chain hash table; 6 for larger bodies. Above a 2^16
 * window quality 9 takes a table of 2^15 buckets × 2^(quality − 1) entries instead (brotli's `ChooseHasher`,
 * c/enc/quality.h), which raised the peak RSS of a large start's compression; quality 6's table is far smaller, for
 * slightly larger output in less time (bench/analysis.md).
 */
export function brotliQuality(size: number): number {
  return brotliWindowBits(size) <= 16 ? 9 : 6;
}

/** The brotli encoder's parameters for a body of `size` bytes of type `contentType`. */
function brotliOptions(size: number, contentType: string): BrotliOptions {
  const text = contentType.startsWith('text/') || contentType.includes('json') || contentType.includes('xml') || contentType.includes('javascript');
  return {
    params: {
      [zlibConstants.BROTLI_PARAM_QUALITY]: brotliQuality(size),
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: size,
      [zlibConstants.BROTLI_PARAM_LGWIN]: brotliWindowBits(size),
      [zlibConstants.BROTLI_PARAM_MODE]: text ? zlibConstants.BROTLI_MODE_TEXT : zlibConstants.BROTLI_MODE_GENERIC,
    },
  };
}

/** gzip level: the best (9) up to 1 MiB, zlib's default (6) above, so a reload that recompresses the whole catalog stays fast. */
function gzipOptions(size: number): ZlibOptions {
  return { level: size <= 1024 * 1024 ? 9 : 6 };
}

/**
 * The size of libuv's thread pool, which runs zlib's asynchronous calls, as libuv reads `UV_THREADPOOL_SIZE` when
 * the pool starts: 4 when unset, at least 1, at most 1024.
 */
export function threadPoolSize(env: NodeJS.ProcessEnv = process.env): number {
  if (env.UV_THREADPOOL_SIZE === undefined) return 4;
  const size = Number.parseInt(env.UV_THREADPOOL_SIZE, 10);
  return Number.isNaN(size) || size < 1 ? 1 : Math.min(size, 1024);
}

/**
 * The bytes of a zlib result in memory of their own size. zlib returns a slice of the compressor's 16 KiB output
 * buffer when the output fits in one (synchronous and asynchronous calls alike), so every small compressed form
 * kept in the index would hold the whole 16 KiB buffer.
 */
const ownCopy = (b: Buffer): Uint8Array =>
  b.byteLength === b.buffer.byteLength ? new Uint8Array(b.buffer, b.byteOffset, b.byteLength) : new Uint8Array(b);

/** The Node codec (stateless: one for the whole process). */
export const nodeCodec: IndexCodec = {
  digest: (body) => hash('sha256', body, 'base64url'),
  async compress(body, contentType) {
    const size = body.byteLength;
    if (size <= SYNC_COMPRESSION_MAX_BYTES) {
      return { gzip: ownCopy(gzipSync(body, gzipOptions(size))), br: ownCopy(brotliCompressSync(body, brotliOptions(size, contentType))) };
    }
    const [gz, br] = await Promise.all([gzipAsync(body, gzipOptions(size)), brotliAsync(body, brotliOptions(size, contentType))]);
    return { gzip: ownCopy(gz), br: ownCopy(br) };
  },
  // Each call is two jobs on the pool (gzip and br, for bodies compressed asynchronously). More calls than the pool
  // runs only hold compressors' memory while they wait, and the index is served compressed no sooner.
  compressionsAtOnce: Math.max(1, Math.floor(threadPoolSize() / 2)),
  yieldToEventLoop: () => new Promise<void>((resolve) => setImmediate(resolve)),
};
