import { describe, expect, it } from 'vitest';
import { authorityOf, effectiveTargetUrl, TargetUriError } from './authority.js';

describe('@authority (RFC 9421 §2.2.3)', () => {
  it.each([
    ['https://Example.COM/foo', 'example.com'],
    ['https://example.com:443/foo', 'example.com'],
    ['http://example.com:80/foo', 'example.com'],
    ['https://example.com:8443/foo', 'example.com:8443'],
    ['http://example.com:443/foo', 'example.com:443'],
    ['http://[::1]:8080/', '[::1]:8080'],
  ])('%s → %s', (url, authority) => {
    expect(authorityOf(url)).toBe(authority);
  });
});

describe('effectiveTargetUrl', () => {
  it('replaces the authority and drops the fragment', () => {
    expect(effectiveTargetUrl('http://10.0.0.5:8080/v1/catalog?x=1#f', { authority: 'Catalog.Example:443' }).href).toBe(
      'http://catalog.example:443/v1/catalog?x=1',
    );
    expect(effectiveTargetUrl('http://10.0.0.5:8080/v1/catalog', { url: 'https://catalog.example:443/v1/catalog' }).href).toBe(
      'https://catalog.example/v1/catalog',
    );
  });

  it.each(['evil.example/x', 'user@evil.example', 'a b', ''])('refuses the authority %j', (authority) => {
    expect(() => effectiveTargetUrl('https://example.com/', { authority })).toThrow(TargetUriError);
  });

  it('refuses relative and non-http URLs', () => {
    expect(() => effectiveTargetUrl('/v1/catalog')).toThrow(TargetUriError);
    expect(() => effectiveTargetUrl('ftp://example.com/')).toThrow(TargetUriError);
  });
});
