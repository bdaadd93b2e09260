import { describe, expect, it } from 'vitest';
import {
  apiUrl,
  cacheDir,
  defaultBinDir,
  defaultInstallRoot,
  inCi,
  parseServiceUrl,
  resolveBaseUrl,
  resolveReleaseUrl,
  updatesDisabled,
} from './config.js';
import { UsageError } from './errors.js';

describe('base URL', () => {
  it('takes --base-url, then SYLLABUS_BASE_URL, then http://localhost:8080', () => {
    expect(resolveBaseUrl('http://a.test:1', { SYLLABUS_BASE_URL: 'http://b.test' }).href).toBe('http://a.test:1/');
    expect(resolveBaseUrl(undefined, { SYLLABUS_BASE_URL: 'https://b.test/prefix' }).href).toBe('https://b.test/prefix/');
    expect(resolveBaseUrl(undefined, { SYLLABUS_BASE_URL: '' }).href).toBe('http://localhost:8080/');
    expect(resolveBaseUrl(undefined, {}).href).toBe('http://localhost:8080/');
  });

  it.each(['ftp://x.test', 'http://user:pw@x.test', 'http://x.test/?q=1', 'http://x.test/#f', 'x.test', ''])(
    'refuses %j as a usage error',
    (value) => {
      expect(() => parseServiceUrl(value, '--base-url')).toThrow(UsageError);
    },
  );

  it.each([
    ['localhost:18080', 'http://localhost:18080'],
    ['example.org', 'http://example.org'],
    ['localhost:18080/v1', 'http://localhost:18080'],
  ])('suggests http:// for %j, which has no scheme', (value, suggestion) => {
    expect(() => resolveBaseUrl(value, {})).toThrow(
      new UsageError(`--base-url must start with http:// or https://, got ${JSON.stringify(value)}; did you mean ${suggestion}?`),
    );
  });

  it.each([
    ['http://localhost:18080/v1', '/v1', 'http://localhost:18080/'],
    ['http://localhost:18080/v1/', '/v1', 'http://localhost:18080/'],
    ['https://x.test/syllabus/v1/catalog', '/v1/catalog', 'https://x.test/syllabus/'],
  ])('refuses the API path in %j, suggesting the service root', (value, apiPath, root) => {
    expect(() => resolveBaseUrl(undefined, { SYLLABUS_BASE_URL: value })).toThrow(
      new UsageError(`SYLLABUS_BASE_URL is the service's root URL, without the API's ${apiPath} (the client adds /v1/… itself): use ${root}`),
    );
  });

  it('keeps a path prefix when joining API paths', () => {
    const base = parseServiceUrl('https://x.test/syllabus', 'test');
    expect(apiUrl(base, '/v1/catalog').href).toBe('https://x.test/syllabus/v1/catalog');
    expect(apiUrl(parseServiceUrl('http://x.test', 'test'), '/health').href).toBe('http://x.test/health');
  });

  it('puts releases under <base-url>/releases/ unless SYLLABUS_RELEASE_URL says otherwise', () => {
    const base = parseServiceUrl('https://x.test/p/', 'test');
    expect(resolveReleaseUrl({}, base).href).toBe('https://x.test/p/releases/');
    expect(resolveReleaseUrl({ SYLLABUS_RELEASE_URL: 'https://cdn.test/r' }, base).href).toBe('https://cdn.test/r/');
  });
});

describe('switches and folders', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['0', false],
    ['false', false],
    ['1', true],
    ['yes', true],
    ['TRUE', true],
  ])('SYLLABUS_NO_UPDATE=%j → %s, CI alike', (value, expected) => {
    expect(updatesDisabled({ SYLLABUS_NO_UPDATE: value })).toBe(expected);
    expect(inCi({ CI: value })).toBe(expected);
  });

  it('derives install and bin folders from HOME unless overridden', () => {
    expect(defaultInstallRoot({ HOME: '/h' })).toBe('/h/.local/share/syllabus');
    expect(defaultBinDir({ HOME: '/h' })).toBe('/h/.local/bin');
    expect(defaultInstallRoot({ HOME: '/h', SYLLABUS_INSTALL_DIR: '/opt/s' })).toBe('/opt/s');
    expect(defaultBinDir({ HOME: '/h', SYLLABUS_BIN_DIR: '/opt/bin' })).toBe('/opt/bin');
    expect(cacheDir({ SYLLABUS_CACHE_DIR: '/c' })).toBe('/c');
    expect(cacheDir({})).toMatch(/syllabus$/);
  });
});
