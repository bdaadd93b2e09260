import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { importKeyVerifier } from './algorithms.js';
import { importNodeKeyVerifier } from './node-key-verifier.js';

/** A fresh Ed25519 key: its public JWK and a signer. */
function ed25519() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const { x } = publicKey.export({ format: 'jwk' });
  return { jwk: { kty: 'OKP', crv: 'Ed25519', x } as JsonWebKey, sign: (data: Uint8Array) => new Uint8Array(sign(null, data, privateKey)) };
}

describe('importNodeKeyVerifier', () => {
  it('answers as WebCrypto for good, altered, foreign and malformed Ed25519 signatures', async () => {
    const key = ed25519();
    const other = ed25519();
    const node = await importNodeKeyVerifier(key.jwk, 'ed25519');
    const web = await importKeyVerifier(key.jwk, 'ed25519');
    const data = new TextEncoder().encode('"@authority": catalog.example\n"@signature-params": ("@authority");created=1');
    const good = key.sign(data);
    const altered = good.slice();
    altered[0]! ^= 1;
    const cases: Array<[Uint8Array, Uint8Array]> = [
      [data, good],
      [data, altered],
      [data, other.sign(data)],
      [data, good.slice(0, 63)],
      [data, new Uint8Array(0)],
      [data.slice(1), good],
    ];
    const answers = await Promise.all(cases.map(async ([d, s]) => [await node.verify(d, s), await web.verify(d, s)]));
    expect(answers).toEqual([
      [true, true],
      [false, false],
      [false, false],
      [false, false],
      [false, false],
      [false, false],
    ]);
  });

  it('refuses the key material WebCrypto refuses', async () => {
    const short = { kty: 'OKP', crv: 'Ed25519', x: 'AAAA' };
    await expect(importKeyVerifier(short, 'ed25519')).rejects.toThrow();
    await expect(importNodeKeyVerifier(short, 'ed25519')).rejects.toThrow();
  });
});
