import { describe, expect, it } from 'vitest';
import { directoryPolicy, freshnessSeconds, retryAfterSeconds } from './directory-freshness.js';

const URL_ = 'https://agent.example/.well-known/http-message-signatures-directory';
const CLAMPS = { minTtl: 60, maxTtl: 86_400, defaultTtl: 3_600 };
const ttl = (headers: Record<string, string>) => freshnessSeconds(directoryPolicy(URL_, 200, headers), headers, CLAMPS);

describe('freshnessSeconds', () => {
  it('reads max-age and Expires, clamps them, and defaults only when the response says nothing', () => {
    expect(ttl({ 'cache-control': 'max-age=600' })).toBe(600);
    expect(ttl({ 'cache-control': 'max-age=5' })).toBe(60);
    expect(ttl({ 'cache-control': 'max-age=0' })).toBe(60);
    expect(ttl({ 'cache-control': 'no-cache' })).toBe(60);
    expect(ttl({ 'cache-control': 'max-age=99999999' })).toBe(86_400);
    const date = new Date(Date.now()).toUTCString();
    expect(ttl({ date, expires: new Date(Date.now() + 7_200_000).toUTCString() })).toBeCloseTo(7_200, -1);
    expect(ttl({ date, expires: 'yesterday' })).toBe(60); // an invalid Expires means already expired (RFC 9111 §5.3)
    expect(ttl({})).toBe(3_600);
  });

  it('says not to store a no-store answer', () => {
    expect(ttl({ 'cache-control': 'no-store, max-age=600' })).toBeUndefined();
  });
});

describe('retryAfterSeconds', () => {
  it('reads delay-seconds and HTTP-dates (against the response Date), and ignores anything else', () => {
    const now = Date.parse('2026-10-01T00:00:00Z');
    expect(retryAfterSeconds({ 'retry-after': '120' }, now)).toBe(120);
    expect(retryAfterSeconds({ 'retry-after': 'Thu, 01 Oct 2026 00:02:00 GMT' }, now)).toBe(120);
    expect(retryAfterSeconds({ 'retry-after': 'Thu, 01 Oct 2026 00:02:00 GMT', date: 'Thu, 01 Oct 2026 00:01:00 GMT' }, now)).toBe(60);
    expect(retryAfterSeconds({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(retryAfterSeconds({ 'retry-after': '-5' }, now)).toBeUndefined();
    expect(retryAfterSeconds({}, now)).toBeUndefined();
    expect(retryAfterSeconds(undefined, now)).toBeUndefined();
  });
});
