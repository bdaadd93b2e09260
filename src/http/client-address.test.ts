import { describe, expect, it } from 'vitest';
import { canonicalAddress, compileTrust, forwardedForNodes, resolveClientAddress } from './client-address.js';

const h = (init: Record<string, string>) => new Headers(init);

describe('canonicalAddress', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['::FFFF:198.51.100.1', '198.51.100.1'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    [' 192.0.2.1 ', '192.0.2.1'],
  ])('%s → %s', (input, expected) => expect(canonicalAddress(input)).toBe(expected));

  it.each(['127.1', '0x7f.0.0.1', '2130706433', 'unknown', '_hidden', '', '1.2.3.4:80', 'evil.example'])('refuses %j', (input) =>
    expect(canonicalAddress(input)).toBeUndefined(),
  );
});

describe('forwardedForNodes (RFC 7239)', () => {
  it('reads for= nodes left to right, dropping quotes, brackets and ports', () => {
    expect(forwardedForNodes('for=192.0.2.60;proto=http;by=203.0.113.43, For="[2001:db8:cafe::17]:4711", for="198.51.100.17:8080"')).toEqual([
      '192.0.2.60',
      '2001:db8:cafe::17',
      '198.51.100.17',
    ]);
  });
  it('keeps obfuscated and unknown nodes as unknown', () => {
    expect(forwardedForNodes('for=unknown, for=_hidden, for="1.2.3.4, 5.6.7.8"')).toEqual(['unknown', 'unknown', 'unknown']);
  });
  it("does not read for= inside another parameter's quoted value", () => {
    expect(forwardedForNodes('proto="x, for=6.6.6.6;for=7.7.7.7", for=192.0.2.1')).toEqual(['192.0.2.1']);
  });
});

describe('resolveClientAddress', () => {
  const list = compileTrust({ kind: 'list', entries: ['10.0.0.0/8', 'loopback'] });
  const oneHop = compileTrust({ kind: 'hops', hops: 1 });

  it('is the peer when no proxy is trusted, whatever the headers say', () => {
    const headers = h({ 'x-forwarded-for': '1.1.1.1', forwarded: 'for=1.1.1.1' });
    expect(compileTrust({ kind: 'none' })).toBeUndefined();
    expect(compileTrust({ kind: 'hops', hops: 0 })).toBeUndefined();
    expect(resolveClientAddress('198.51.100.5', headers, undefined)).toBe('198.51.100.5');
    expect(resolveClientAddress('::ffff:127.0.0.1', headers, undefined)).toBe('127.0.0.1');
  });

  it('skips trusted proxies from the right and stops at the first untrusted address', () => {
    // The client forged "1.1.1.1, 10.0.0.5"; the trusted proxy appended the real peer 203.0.113.9.
    const headers = h({ 'x-forwarded-for': '1.1.1.1, 10.0.0.5, 203.0.113.9' });
    expect(resolveClientAddress('10.0.0.1', headers, list)).toBe('203.0.113.9');
  });

  it('walks through several trusted proxies', () => {
    const headers = h({ 'x-forwarded-for': '203.0.113.9, 10.1.1.1' });
    expect(resolveClientAddress('127.0.0.1', headers, list)).toBe('203.0.113.9');
  });

  it('ignores the header when the peer itself is not trusted', () => {
    const headers = h({ 'x-forwarded-for': '203.0.113.9' });
    expect(resolveClientAddress('198.51.100.5', headers, list)).toBe('198.51.100.5');
  });

  it('counts hops', () => {
    const headers = h({ 'x-forwarded-for': '1.1.1.1, 203.0.113.9' });
    expect(resolveClientAddress('198.51.100.5', headers, oneHop)).toBe('203.0.113.9');
    const twoHops = compileTrust({ kind: 'hops', hops: 2 });
    expect(resolveClientAddress('198.51.100.5', headers, twoHops)).toBe('1.1.1.1');
  });

  it('is the peer when a trusted peer sent no header', () => {
    expect(resolveClientAddress('10.0.0.1', h({}), list)).toBe('10.0.0.1');
  });

  it('uses the reporting proxy when the resolved entry is not an address', () => {
    const headers = h({ 'x-forwarded-for': 'not-an-ip, 10.0.0.7' });
    expect(resolveClientAddress('10.0.0.1', headers, list)).toBe('10.0.0.7');
  });

  it('canonicalises the resolved address', () => {
    const headers = h({ 'x-forwarded-for': '::ffff:203.0.113.9' });
    expect(resolveClientAddress('10.0.0.1', headers, list)).toBe('203.0.113.9');
  });

  it('reads Forwarded instead when told to, and then ignores X-Forwarded-For', () => {
    const headers = h({
      forwarded: 'for=1.1.1.1, for="[2001:db8::5]:1234"',
      'x-forwarded-for': '9.9.9.9',
    });
    expect(resolveClientAddress('10.0.0.1', headers, list, 'forwarded')).toBe('2001:db8::5');
    expect(resolveClientAddress('10.0.0.1', headers, list, 'x-forwarded-for')).toBe('9.9.9.9');
  });
});
