/** Whose request a signature may be for: the policy the server gives the Web Bot Auth verifier. */
import { describe, expect, it } from 'vitest';
import { signatureTargetPolicy } from './app.js';
import { loadConfig } from './config.js';

const policy = (env: Record<string, string>) => signatureTargetPolicy(loadConfig(env, '/srv'));

describe('signatureTargetPolicy', () => {
  it("accepts https to PUBLIC_BASE_URL's host and the SIGNATURE_AUTHORITIES, nothing else", () => {
    const check = policy({ PUBLIC_BASE_URL: 'https://catalog.example.com', SIGNATURE_AUTHORITIES: 'api.example.org, mirror.example.net:8443' });
    expect(check(new URL('https://catalog.example.com/v1/catalog'))).toBeUndefined();
    expect(check(new URL('https://API.example.org/v1/catalog'))).toBeUndefined();
    expect(check(new URL('https://mirror.example.net:8443/v1/catalog'))).toBeUndefined();
    expect(check(new URL('https://mirror.example.net/v1/catalog'))).toMatch(/not for this service/);
    expect(check(new URL('https://other-site.example/v1/catalog'))).toBe(
      'the signature is for other-site.example, not for this service (PUBLIC_BASE_URL, SIGNATURE_AUTHORITIES)',
    );
  });

  it('refuses plain http, and loopback authorities, unless the development switch is on', () => {
    const production = policy({ PUBLIC_BASE_URL: 'https://catalog.example.com' });
    expect(production(new URL('http://catalog.example.com/v1/catalog'))).toBe('signatures are accepted over https only');
    expect(production(new URL('https://127.0.0.1:8080/v1/catalog'))).toMatch(/not for this service/);
    const development = policy({ KEY_DIRECTORY_ALLOW_INSECURE: '1' });
    expect(development(new URL('http://127.0.0.1:8080/v1/catalog'))).toBeUndefined();
    expect(development(new URL('http://[::1]:8080/v1/catalog'))).toBeUndefined();
    expect(development(new URL('http://catalog.example.com/v1/catalog'))).toMatch(/not for this service/);
  });

  it('SIGNATURE_AUTHORITIES must be host[:port] values', () => {
    expect(() => loadConfig({ SIGNATURE_AUTHORITIES: 'https://x.example/path' }, '/srv')).toThrow(/SIGNATURE_AUTHORITIES.*not a host\[:port\]/s);
  });
});
