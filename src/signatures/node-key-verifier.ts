/**
 * Public-key checks for Node: Ed25519 through `node:crypto`'s synchronous `verify` with a `KeyObject` made once per
 * directory key. WebCrypto's `crypto.subtle.verify` hands every check to the thread pool and back, which for an
 * Ed25519 signature costs several times the check itself. Every other algorithm stays with WebCrypto
 * (algorithms.ts); a key is accepted only if WebCrypto accepts it too, so both answer alike.
 */
import { createPublicKey, verify } from 'node:crypto';
import { importKeyVerifier, type KeyVerifier, type SignatureAlgorithm } from './algorithms.js';

/**
 * {@link importKeyVerifier} for Node (same contract): Ed25519 keys verify synchronously.
 * @throws when WebCrypto or node:crypto refuses the key material.
 */
export async function importNodeKeyVerifier(jwk: JsonWebKey, algorithm: SignatureAlgorithm): Promise<KeyVerifier> {
  const portable = await importKeyVerifier(jwk, algorithm);
  if (algorithm !== 'ed25519') return portable;
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x ?? '' }, format: 'jwk' });
  return Object.freeze({
    algorithm,
    verify(data: Uint8Array, signature: Uint8Array): Promise<boolean> {
      try {
        return Promise.resolve(verify(null, data, key, signature));
      } catch {
        return Promise.resolve(false);
      }
    },
  });
}
