import { describe, expect, it } from 'vitest';
import { describeNetworkError, parseNonNegativeInt, parseRetryAfter, readRateBudget } from './http.js';

describe('header parsing', () => {
  it.each([
    ['0', 0],
    ['42', 42],
    [' 7 ', 7],
    ['-1', undefined],
    ['1.5', undefined],
    ['', undefined],
    ['12345678901', undefined],
    ['1e3', undefined],
  ])('parseNonNegativeInt(%j) → %s', (value, expected) => {
    expect(parseNonNegativeInt(value)).toBe(expected);
  });

  it('reads Retry-After as delay-seconds or an HTTP-date, and nothing else', () => {
    const now = Date.parse('Sun, 06 Nov 1994 08:49:37 GMT');
    expect(parseRetryAfter('3', now)).toBe(3);
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:40 GMT', now)).toBe(3);
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:30 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('tomorrow 12:00', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('reads the RateLimit fields only when Remaining and Reset are both valid', () => {
    expect(readRateBudget(new Headers({ 'ratelimit-limit': '120', 'ratelimit-remaining': '3', 'ratelimit-reset': '40' }))).toEqual({
      limit: 120,
      remaining: 3,
      reset: 40,
    });
    expect(readRateBudget(new Headers({ 'ratelimit-remaining': '3', 'ratelimit-reset': '40' }))).toEqual({
      limit: undefined,
      remaining: 3,
      reset: 40,
    });
    expect(readRateBudget(new Headers({ 'ratelimit-remaining': '3' }))).toBeUndefined();
    expect(readRateBudget(new Headers({ 'ratelimit-remaining': 'lots', 'ratelimit-reset': '1' }))).toBeUndefined();
  });
});

describe('network errors', () => {
  it.each([
    [{ cause: { code: 'ECONNREFUSED' } }, 'the connection was refused (nothing is listening there)'],
    [{ cause: { code: 'ENOTFOUND' } }, 'the host name could not be resolved'],
    [{ name: 'TimeoutError' }, 'no answer within 10 s'],
    [{ cause: { code: 'CERT_HAS_EXPIRED' } }, 'its TLS certificate was not accepted (CERT_HAS_EXPIRED)'],
  ])('words %j as %j', (error, words) => {
    expect(describeNetworkError(error, 10_000)).toBe(words);
  });

  it('says a server that does not speak TLS is not a certificate problem, and names the http:// URL', () => {
    const error = { cause: { code: 'ERR_SSL_WRONG_VERSION_NUMBER' } };
    expect(describeNetworkError(error, 10_000, new URL('https://127.0.0.1:18080/v1/catalog'))).toBe(
      'the server on port 18080 does not speak TLS (ERR_SSL_WRONG_VERSION_NUMBER), so the certificate is not the problem: it probably serves plain http, at http://127.0.0.1:18080/',
    );
    expect(describeNetworkError(error, 10_000, new URL('https://[::1]/'))).toContain('at http://[::1]:443/');
  });
});
