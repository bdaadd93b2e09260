import { describe, expect, it } from 'vitest';
import { clientBucket, judgeAddress } from './address-policy.js';

describe('judgeAddress', () => {
  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows public unicast %s', (address) => {
    expect(judgeAddress(address)).toEqual({ allowed: true });
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'reserved'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['2002:a00:1::1', '6to4'],
  ])('refuses %s (%s)', (address, range) => {
    expect(judgeAddress(address)).toEqual({ allowed: false, range, reason: `${address} is a ${range} address` });
  });

  it('allows loopback, and only loopback, when insecure directories are allowed', () => {
    expect(judgeAddress('127.0.0.1', true)).toEqual({ allowed: true });
    expect(judgeAddress('::ffff:127.0.0.1', true)).toEqual({ allowed: true });
    expect(judgeAddress('10.0.0.1', true)).toMatchObject({ allowed: false, range: 'private' });
  });

  it('refuses non-canonical or invalid literals', () => {
    for (const address of ['1.2.3', '0x7f.1', '017700000001', 'localhost', '']) {
      expect(judgeAddress(address)).toMatchObject({ allowed: false, range: 'invalid' });
    }
  });
});

describe('clientBucket', () => {
  it('counts an IPv6 client as its /64, and IPv4 (also mapped) as itself', () => {
    expect(clientBucket('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientBucket('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientBucket('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientBucket('198.51.100.7')).toBe('198.51.100.7');
    expect(clientBucket('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(clientBucket('unknown')).toBe('unknown');
  });
});
