/**
 * Public keys from a key directory: JWK validation, the JWK SHA-256 thumbprint that names them
 * (RFC 7638 §3; RFC 8037 Appendix A.3 for OKP), and WebCrypto import into an RFC 9421 verifier.
 * Portable: only `crypto.subtle`, available on Node 20 and every Fetch runtime.
 */
import { webcrypto as httpSigWebCrypto, type Verifier } from 'http-message-sig';

/** RFC 9421 §3.3 algorithms accepted for Web Bot Auth. HMAC is never accepted (shared secrets, protocol §"Shared Secrets Considered Harmful"). */
export const SUPPORTED_ALGORITHMS = ['ed25519', 'rsa-pss-sha512', 'ecdsa-p256-sha256'] as const;
/** One of {@link SUPPORTED_ALGORITHMS}. */
export type SignatureAlgorithm = (typeof SUPPORTED_ALGORITHMS)[number];

/** A directory key, validated and named by its thumbprint; imported into WebCrypto on first use. */
export interface DirectoryKey {
  /** base64url JWK SHA-256 thumbprint: what a signature's `keyid` must equal. */
  thumbprint: string;
  /** The RFC 9421 algorithm this key verifies. */
  algorithm: SignatureAlgorithm;
  /** The public members the thumbprint was computed from (no private members). */
  jwk: JsonWebKey;
  /** JWK `nbf`: not valid before this time, seconds since the epoch. */
  notBefore?: number;
  /** JWK `exp`: not valid after this time, seconds since the epoch. */
  expiresAt?: number;
}

/** The result of validating one JWK of a directory. */
export type DirectoryKeyResult = { ok: true; key: DirectoryKey } | { ok: false; reason: string };

/** JOSE (RFC 7518, RFC 8037) and RFC 9421 names of each algorithm, as a JWK `alg` may spell them. */
const ALG_NAMES: Record<SignatureAlgorithm, readonly string[]> = {
  ed25519: ['EdDSA', 'Ed25519', 'ed25519'],
  'rsa-pss-sha512': ['PS512', 'rsa-pss-sha512'],
  'ecdsa-p256-sha256': ['ES256', 'ecdsa-p256-sha256'],
};

const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Smallest RSA modulus accepted, in bits. */
const MIN_RSA_BITS = 2048;
/** Largest RSA modulus accepted, in bits: bounds the verification cost an agent can impose. */
const MAX_RSA_BITS = 8192;

/**
 * Validates one JWK from a directory and computes its thumbprint. Keys of other types (`oct`, other curves),
 * with private members, or whose `alg`/`use`/`key_ops` exclude signature verification are refused.
 */
export async function readDirectoryKey(input: unknown): Promise<DirectoryKeyResult> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { ok: false, reason: 'not an object' };
  const jwk = input as Record<string, unknown>;
  if ('d' in jwk || 'p' in jwk || 'k' in jwk) return { ok: false, reason: 'holds private or secret key material' };
  if (jwk.use !== undefined && jwk.use !== 'sig') return { ok: false, reason: '"use" is not "sig"' };
  if (jwk.key_ops !== undefined && !(Array.isArray(jwk.key_ops) && jwk.key_ops.includes('verify'))) {
    return { ok: false, reason: '"key_ops" does not include "verify"' };
  }

  let algorithm: SignatureAlgorithm;
  let members: Record<string, string>;
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && isB64u(jwk.x, 43)) {
    algorithm = 'ed25519';
    members = { crv: 'Ed25519', kty: 'OKP', x: jwk.x };
  } else if (jwk.kty === 'EC' && jwk.crv === 'P-256' && isB64u(jwk.x, 43) && isB64u(jwk.y, 43)) {
    algorithm = 'ecdsa-p256-sha256';
    members = { crv: 'P-256', kty: 'EC', x: jwk.x, y: jwk.y };
  } else if (jwk.kty === 'RSA' && isB64u(jwk.n) && isB64u(jwk.e) && jwk.e.length <= 8) {
    const bits = modulusBits(jwk.n);
    if (bits < MIN_RSA_BITS || bits > MAX_RSA_BITS) return { ok: false, reason: `RSA modulus of ${bits} bits` };
    algorithm = 'rsa-pss-sha512';
    members = { e: jwk.e, kty: 'RSA', n: jwk.n };
  } else {
    return { ok: false, reason: 'not an Ed25519, P-256 or RSA public key' };
  }
  if (jwk.alg !== undefined && !(typeof jwk.alg === 'string' && ALG_NAMES[algorithm].includes(jwk.alg))) {
    return { ok: false, reason: `"alg" ${JSON.stringify(jwk.alg)} does not fit a ${algorithm} key` };
  }
  const key: DirectoryKey = { thumbprint: await thumbprint(members), algorithm, jwk: members };
  if (typeof jwk.nbf === 'number') key.notBefore = jwk.nbf;
  if (typeof jwk.exp === 'number') key.expiresAt = jwk.exp;
  return { ok: true, key };
}

function isB64u(value: unknown, length?: number): value is string {
  return typeof value === 'string' && BASE64URL.test(value) && (length === undefined || value.length === length);
}

/** Bits of a base64url big-endian modulus, ignoring leading zero octets. */
function modulusBits(n: string): number {
  const bytes = base64UrlDecode(n);
  let i = 0;
  while (i < bytes.length && bytes[i] === 0) i++;
  if (i === bytes.length) return 0;
  return (bytes.length - i - 1) * 8 + (32 - Math.clz32(bytes[i]!));
}

function base64UrlDecode(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/**
 * RFC 7638 JWK SHA-256 thumbprint, base64url without padding, of the required members given
 * (`members` must hold exactly the required members; they are serialised in lexicographic order).
 */
export async function thumbprint(members: Record<string, string>): Promise<string> {
  const canonical = JSON.stringify(
    Object.fromEntries(
      Object.keys(members)
        .sort()
        .map((k) => [k, members[k]]),
    ),
  );
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical)));
  return btoa(String.fromCharCode(...digest))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/**
 * Imports a directory key into WebCrypto and wraps it as an `http-message-sig` verifier.
 * `http-message-sig` provides the Ed25519 and RSA-PSS-SHA-512 verifiers (salt length 64, RFC 9421 §3.3.1);
 * ECDSA P-256 (§3.3.4: raw r‖s, which is WebCrypto's format) is wrapped here.
 * @throws when WebCrypto refuses the key material.
 */
export async function importVerifier(key: DirectoryKey): Promise<Verifier> {
  switch (key.algorithm) {
    case 'ed25519':
      return httpSigWebCrypto.verifier(await crypto.subtle.importKey('jwk', key.jwk, { name: 'Ed25519' }, false, ['verify']));
    case 'rsa-pss-sha512':
      return httpSigWebCrypto.verifier(await crypto.subtle.importKey('jwk', key.jwk, { name: 'RSA-PSS', hash: 'SHA-512' }, false, ['verify']));
    case 'ecdsa-p256-sha256': {
      const cryptoKey = await crypto.subtle.importKey('jwk', key.jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
      return Object.freeze({
        algorithm: 'ecdsa-p256-sha256',
        verify: (data: Uint8Array, signature: Uint8Array) =>
          crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, cryptoKey, new Uint8Array(signature), new Uint8Array(data)),
      });
    }
  }
}
