import { describe, expect, it } from 'vitest';
import { authorityOf, effectiveTargetUri, TargetUriError } from './authority.js';

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

describe('effectiveTargetUri', () => {
  it('replaces the authority and drops the fragment', () => {
    expect(effectiveTargetUri('http://10.0.0.5:8080/v1/catalog?x=1#f', { authority: 'Catalog.Example:443' })).toBe(
      'http://catalog.example:443/v1/catalog?x=1',
    );
    expect(effectiveTargetUri('http://10.0.0.5:8080/v1/catalog', { url: 'https://catalog.example:443/v1/catalog' })).toBe(
      'https://catalog.example/v1/catalog',
    );
  });

  it.each(['evil.example/x', 'user@evil.example', 'a b', ''])('refuses the authority %j', (authority) => {
    expect(() => effectiveTargetUri('https://example.com/', { authority })).toThrow(TargetUriError);
  });

  it('refuses relative and non-http URLs', () => {
    expect(() => effectiveTargetUri('/v1/catalog')).toThrow(TargetUriError);
    expect(() => effectiveTargetUri('ftp://example.com/')).toThrow(TargetUriError);
  });
});
