import { describe, expect, it } from 'vitest';
import { requestUrl } from './request-target.js';

describe('requestUrl', () => {
  it.each([
    ['catalog.example', '/v1/catalog', 'http://catalog.example/v1/catalog'],
    ['Catalog.Example:8080', '/v1/catalog?view=full', 'http://catalog.example:8080/v1/catalog?view=full'],
    ['catalog.example', '/v1/lessons/../catalog', 'http://catalog.example/v1/catalog'],
    ['catalog.example', '/v1/%2e%2e/catalog', 'http://catalog.example/catalog'],
    ['catalog.example', '/v1/lessons/a b', 'http://catalog.example/v1/lessons/a%20b'],
    ['catalog.example', '//v1/catalog', 'http://catalog.example//v1/catalog'],
    ['[2001:db8::1]:8443', '/x', 'http://[2001:db8::1]:8443/x'],
    ['192.0.2.1', '/x#frag', 'http://192.0.2.1/x#frag'],
  ])('Host %s and target %s make %s', (host, target, href) => {
    expect(requestUrl('http', host, target)?.href).toBe(href);
  });

  it('takes the scheme of the connection', () => {
    expect(requestUrl('https', 'catalog.example', '/')?.href).toBe('https://catalog.example/');
  });

  it.each([
    ['no Host', undefined, '/v1/catalog'],
    ['an empty Host', '', '/v1/catalog'],
    ['a Host with a path', 'catalog.example/evil', '/v1/catalog'],
    ['a Host with userinfo', 'user@catalog.example', '/v1/catalog'],
    ['a Host with a space', 'catalog example', '/v1/catalog'],
    ['a port out of range', 'catalog.example:99999', '/v1/catalog'],
    ['an absolute-form target', 'catalog.example', 'http://evil.example/v1/catalog'],
    ['the asterisk form', 'catalog.example', '*'],
    ['an empty target', 'catalog.example', ''],
  ])('refuses %s', (_, host, target) => {
    expect(requestUrl('http', host, target)).toBeUndefined();
  });
});
