import { describe, expect, it } from 'vitest';
import { effectiveTarget, forwardedTargetUrl } from './forwarded-target.js';
import type { StepContext } from './step.js';

const internal = new URL('http://app.internal:8080/v1/catalog?x=1');
const headers = (init: Record<string, string>) => new Headers(init);

describe('forwardedTargetUrl', () => {
  it.each([
    [{ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'catalog.example' }, 'https://catalog.example/v1/catalog?x=1'],
    [{ 'x-forwarded-proto': 'https, http', 'x-forwarded-host': 'catalog.example, app.internal' }, 'https://catalog.example/v1/catalog?x=1'],
    [{ 'x-forwarded-proto': 'HTTPS', 'x-forwarded-host': 'catalog.example:443' }, 'https://catalog.example/v1/catalog?x=1'],
    [{ 'x-forwarded-host': 'catalog.example:8443' }, 'http://catalog.example:8443/v1/catalog?x=1'],
    [{ 'x-forwarded-proto': 'https' }, 'https://app.internal/v1/catalog?x=1'],
    [{ 'x-forwarded-host': '[2001:db8::1]:8443', 'x-forwarded-proto': 'https' }, 'https://[2001:db8::1]:8443/v1/catalog?x=1'],
  ])('X-Forwarded-* %j → %s', (fields, expected) => {
    expect(forwardedTargetUrl(internal, headers(fields), 'x-forwarded-for')).toBe(expected);
  });

  it.each([
    [{}],
    [{ 'x-forwarded-proto': 'ftp' }],
    [{ 'x-forwarded-host': 'evil.example/path' }],
    [{ 'x-forwarded-host': 'user@evil.example' }],
    [{ 'x-forwarded-host': 'a b' }],
    [{ 'x-forwarded-host': 'catalog.example:99999999' }],
  ])('ignores absent or malformed fields %j', (fields) => {
    expect(forwardedTargetUrl(internal, headers(fields), 'x-forwarded-for')).toBeUndefined();
  });

  it('reads proto= and host= of the first Forwarded element when the proxies write Forwarded', () => {
    const h = headers({ forwarded: 'for=192.0.2.60;proto=https;host="catalog.example", for=10.0.0.1;proto=http;host=app' });
    expect(forwardedTargetUrl(internal, h, 'forwarded')).toBe('https://catalog.example/v1/catalog?x=1');
    // A quoted comma or semicolon does not split an element or a pair.
    const quoted = headers({ forwarded: 'for="[2001:db8::1]:4711";proto=https;host="catalog.example", for=10.0.0.1' });
    expect(forwardedTargetUrl(internal, quoted, 'forwarded')).toBe('https://catalog.example/v1/catalog?x=1');
    expect(forwardedTargetUrl(internal, headers({ forwarded: 'for="a,b";proto=https;host="x.example"' }), 'forwarded')).toBe(
      'https://x.example/v1/catalog?x=1',
    );
    // The other family is never read.
    expect(forwardedTargetUrl(internal, headers({ 'x-forwarded-proto': 'https' }), 'forwarded')).toBeUndefined();
    expect(forwardedTargetUrl(internal, h, 'x-forwarded-for')).toBeUndefined();
  });
});

describe('effectiveTarget', () => {
  const ctx = (ip: string, fields: Record<string, string>): StepContext => ({
    ip,
    method: 'GET',
    url: internal,
    request: new Request(internal, { headers: fields }),
    locals: { requestId: 'req-1' },
  });
  const fields = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'catalog.example' };

  it('uses the forwarded target only when the socket peer is a trusted proxy', () => {
    const target = effectiveTarget({ kind: 'list', entries: ['10.0.0.0/8'] }, 'x-forwarded-for');
    expect(target(ctx('10.1.2.3', fields))).toEqual({ url: 'https://catalog.example/v1/catalog?x=1' });
    expect(target(ctx('203.0.113.9', fields))).toEqual({});
  });

  it('never reads the fields without TRUST_PROXY', () => {
    expect(effectiveTarget({ kind: 'none' }, 'x-forwarded-for')(ctx('127.0.0.1', fields))).toEqual({});
  });
});
