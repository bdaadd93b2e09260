import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { brotliQuality, nodeCodec, threadPoolSize } from './node-codec.js';

/** `WBITS` from the stream header of a brotli stream (RFC 7932 §9.1; bits are read from the least significant). */
function windowBits(stream: Uint8Array): number {
  const bits = stream[0]! | (stream[1]! << 8);
  if ((bits & 1) === 0) return 16;
  const n = (bits >> 1) & 7;
  if (n !== 0) return 17 + n;
  const m = (bits >> 4) & 7;
  return m === 0 ? 17 : 8 + m;
}

/** `size` bytes of JSON-like text that compresses, different at every size. */
function body(size: number): Uint8Array {
  let text = '';
  for (let i = 0; text.length < size; i++) text += `{"id":"lesson-${i}","title":"Lesson ${(i * 7919) % 1000}"},`;
  return new TextEncoder().encode(text.slice(0, size));
}

describe('nodeCodec.compress', () => {
  // Around the synchronous limit (4 KiB) and around window limits (2^w − 16 bytes).
  const sizes = [1, 1008, 1009, 2032, 2033, 4096, 4097, 65520, 65521, 300_000];

  it.each(sizes)('gives gzip and br forms of %i bytes that decompress to the very bytes', async (size) => {
    const bytes = body(size);
    const { gzip, br } = await nodeCodec.compress(bytes, 'application/json');
    expect(Buffer.compare(gunzipSync(gzip), bytes)).toBe(0);
    expect(Buffer.compare(brotliDecompressSync(br), bytes)).toBe(0);
  });

  it.each([
    [1, 10],
    [1008, 10],
    [1009, 11],
    [2032, 11],
    [2033, 12],
    [4097, 13],
    [65520, 16],
    [65521, 17],
    [300_000, 19],
  ])('sizes the brotli window of a %i-byte body to hold it and no more (WBITS %i)', async (size, bits) => {
    const { br } = await nodeCodec.compress(body(size), 'text/html; charset=utf-8');
    expect(windowBits(br)).toBe(bits);
  });

  it.each([1024, 4096, 65521])('keeps a %i-byte body’s compressed forms in memory of their own size', async (size) => {
    const { gzip, br } = await nodeCodec.compress(body(size), 'application/json');
    // Not a slice of the compressor's 16 KiB output buffer, which the index would keep alive with it (a share of
    // Node's 8 KiB buffer pool is fine).
    for (const form of [gzip, br]) expect(form.buffer.byteLength).toBeLessThanOrEqual(Buffer.poolSize);
  });

  it('keeps zlib’s default window (22) for bodies larger than it', async () => {
    const { br } = await nodeCodec.compress(body(5 * 1024 * 1024), 'application/json');
    expect(windowBits(br)).toBe(22);
  });
});

describe('brotliQuality', () => {
  it('is 9 while the window is at most 2^16 (bodies up to 65,520 bytes), 6 above, where 9 would take a 32 MiB table', () => {
    expect([1024, 4096, 65_520].map(brotliQuality)).toEqual([9, 9, 9]);
    expect([65_521, 200_000, 5 * 1024 * 1024].map(brotliQuality)).toEqual([6, 6, 6]);
  });
});

describe('threadPoolSize', () => {
  it('reads UV_THREADPOOL_SIZE as libuv does: 4 when unset, at least 1, at most 1024', () => {
    expect(threadPoolSize({})).toBe(4);
    expect(threadPoolSize({ UV_THREADPOOL_SIZE: '8' })).toBe(8);
    expect(threadPoolSize({ UV_THREADPOOL_SIZE: '0' })).toBe(1);
    expect(threadPoolSize({ UV_THREADPOOL_SIZE: 'many' })).toBe(1);
    expect(threadPoolSize({ UV_THREADPOOL_SIZE: '4096' })).toBe(1024);
  });

  it.each([
    [undefined, 2],
    ['8', 4],
    ['3', 1],
    ['1', 1],
  ])('gives the codec one compression in flight per two threads (UV_THREADPOOL_SIZE=%s: %i)', async (size, expected) => {
    vi.stubEnv('UV_THREADPOOL_SIZE', size);
    vi.resetModules();
    try {
      const { nodeCodec: fresh } = await import('./node-codec.js');
      expect(fresh.compressionsAtOnce).toBe(expected);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
