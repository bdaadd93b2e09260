import { describe, expect, it } from 'vitest';
import { chooseCoding, encodingPreference, parseAcceptEncoding } from './negotiate.js';

const BIG = { identity: 1000, br: 200, gzip: 300 };

describe('Accept-Encoding negotiation (RFC 9110 §12.5.3)', () => {
  it.each([
    [null, 'identity'],
    ['', 'identity'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['x-gzip', 'gzip'],
    ['GZIP;Q=1', 'gzip'],
    ['identity;q=1, gzip;q=0.5', 'identity'],
    ['gzip;q=0.8, br;q=0.9', 'br'],
    // negotiator reads q as a number: an unreadable one drops its member, one above 1 ranks first.
    ['gzip;q=abc, br', 'br'],
    ['br;q=2, gzip;q=0.9', 'br'],
    ['identity;q=0.5, gzip;q=0.4', 'identity'],
    ['deflate, compress', 'identity'],
  ])('%s → %s', (field, expected) => {
    expect(chooseCoding(encodingPreference(field), BIG)).toBe(expected);
  });

  it('sends identity when compression would not make the body smaller', () => {
    expect(chooseCoding(encodingPreference('br, gzip'), { identity: 14, br: 18, gzip: 34 })).toBe('identity');
  });

  it('sends a compressed body anyway when identity is refused', () => {
    expect(parseAcceptEncoding('gzip, identity;q=0').identityAcceptable).toBe(false);
    expect(chooseCoding(encodingPreference('gzip, identity;q=0'), { identity: 14, br: 18, gzip: 34 })).toBe('gzip');
    expect(chooseCoding(encodingPreference('*;q=0'), BIG)).toBe('identity');
  });

  it('reads malformed fields without throwing, as if the unreadable parts were absent', () => {
    for (const field of ['"', ';', '=', '\u0000', 'gzip;q="0', 'br;q=', 'gzip,,br;;q=0.1', 'ü']) {
      expect(() => chooseCoding(encodingPreference(field), BIG), field).not.toThrow();
    }
    expect(parseAcceptEncoding(';')).toEqual({ compressed: [], identityAcceptable: true });
  });
});
