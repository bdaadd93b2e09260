import { describe, expect, it } from 'vitest';
import { addressBucket } from './address-bucket.js';

describe('addressBucket', () => {
  it('keeps IPv4 addresses', () => expect(addressBucket('203.0.113.7')).toBe('203.0.113.7'));

  it('counts IPv6 per /64', () => {
    expect(addressBucket('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:db8:1:2::1')).toBe(addressBucket('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(addressBucket('2001:db8:1:3::1')).not.toBe(addressBucket('2001:db8:1:2::1'));
    expect(addressBucket('::1')).toBe('::/64');
  });

  it('maps IPv4-mapped IPv6 to IPv4', () => expect(addressBucket('::ffff:192.0.2.9')).toBe('192.0.2.9'));

  it('counts a 6to4 address as the IPv4 address of its site (RFC 3056)', () => {
    // One IPv4 host, two of its 2^16 subnets: one budget, the same as the host's own IPv4 address.
    expect(addressBucket('2002:909:909:1::1')).toBe('9.9.9.9');
    expect(addressBucket('2002:909:909:2::1')).toBe('9.9.9.9');
    expect(addressBucket('2002:c000:22d:ffff:1:2:3:4')).toBe('192.0.2.45');
    expect(addressBucket('2002:909:90a:1::1')).toBe('9.9.9.10');
  });

  it('counts a Teredo address as its client’s public IPv4 address, not its server’s (RFC 4380)', () => {
    // RFC 4380 §4's example: server 65.54.227.120, client 192.0.2.45 (port 40000), both obfuscated as the RFC says.
    expect(addressBucket('2001:0:4136:e378:8000:63bf:3fff:fdd2')).toBe('192.0.2.45');
    // Another client of the same server (same /64): a bucket of its own.
    expect(addressBucket('2001:0:4136:e378:8000:63bf:3fff:fdd1')).toBe('192.0.2.46');
    // Another port, the same client host: the same bucket.
    expect(addressBucket('2001:0:4136:e378:8000:1234:3fff:fdd2')).toBe('192.0.2.45');
  });

  it('leaves other addresses of 2001::/16 per /64', () => {
    expect(addressBucket('2001:1:4136:e378:8000:63bf:3fff:fdd2')).toBe('2001:1:4136:e378::/64');
    expect(addressBucket('2001:db8::3fff:fdd2')).toBe('2001:db8::/64');
  });

  it('keeps labels that are no address', () => expect(addressBucket('unknown')).toBe('unknown'));
});
