/**
 * Public keys from a key directory: JWK validation and the JWK SHA-256 thumbprint that names them (RFC 7638 §3;
 * RFC 8037 Appendix A.3 for OKP), and which RFC 9421 algorithm a signature made with one uses.
 * Portable: only `crypto.subtle`, available on Node 20 and every Fetch runtime.
 */
import { algorithmOfJoseName, algorithmsForKey, isSupportedAlgorithm, type SignatureAlgorithm } from './algorithms.js';

/** A directory key, validated and named by its thumbprint. */
export interface DirectoryKey {
  /** base64url JWK SHA-256 thumbprint: what a signature's `keyid` must equal. */
  thumbprint: string;
  /**
   * The RFC 9421 algorithms this key may verify: one, except for an RSA key without a JWK `alg`, which may be
   * used with either RSA algorithm (the signature's `alg` then decides).
   */
  algorithms: readonly SignatureAlgorithm[];
  /** The public members the thumbprint was computed from (no private members). */
  jwk: JsonWebKey;
  /** JWK `nbf`: not valid before this time, seconds since the epoch. */
  notBefore?: number;
  /** JWK `exp`: not valid after this time, seconds since the epoch. */
  expiresAt?: number;
}

/** The result of validating one JWK of a directory. */
export type DirectoryKeyResult = { ok: true; key: DirectoryKey } | { ok: false; reason: string };

const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Smallest RSA modulus accepted, in bits. */
const MIN_RSA_BITS = 2048;
/** Largest RSA modulus accepted, in bits: bounds the verification cost an agent can impose (issue 17: RSA ≤ 4096). */
const MAX_RSA_BITS = 4096;

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

  let members: Record<string, string>;
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && isB64u(jwk.x, 43)) {
    members = { crv: 'Ed25519', kty: 'OKP', x: jwk.x };
  } else if (jwk.kty === 'EC' && jwk.crv === 'P-256' && isB64u(jwk.x, 43) && isB64u(jwk.y, 43)) {
    members = { crv: 'P-256', kty: 'EC', x: jwk.x, y: jwk.y };
  } else if (jwk.kty === 'EC' && jwk.crv === 'P-384' && isB64u(jwk.x, 64) && isB64u(jwk.y, 64)) {
    members = { crv: 'P-384', kty: 'EC', x: jwk.x, y: jwk.y };
  } else if (jwk.kty === 'RSA' && isB64u(jwk.n) && isB64u(jwk.e) && jwk.e.length <= 8) {
    // Checked before decoding: a huge "n" must not cost a decode.
    if (jwk.n.length > Math.ceil((MAX_RSA_BITS + 8) / 6)) return { ok: false, reason: `RSA modulus of more than ${MAX_RSA_BITS} bits` };
    const bits = modulusBits(jwk.n);
    if (bits < MIN_RSA_BITS || bits > MAX_RSA_BITS) return { ok: false, reason: `RSA modulus of ${bits} bits` };
    members = { e: jwk.e, kty: 'RSA', n: jwk.n };
  } else {
    return { ok: false, reason: 'not an Ed25519, P-256, P-384 or RSA public key' };
  }
  let algorithms = algorithmsForKey(members.kty!, members.crv);
  if (jwk.alg !== undefined) {
    const named = typeof jwk.alg === 'string' ? algorithmOfJoseName(jwk.alg) : undefined;
    if (named === undefined || !algorithms.includes(named)) {
      return { ok: false, reason: `"alg" ${JSON.stringify(jwk.alg)} does not fit a ${members.crv ?? members.kty} key` };
    }
    algorithms = [named];
  }
  const key: DirectoryKey = { thumbprint: await thumbprint(members), algorithms, jwk: members };
  if (typeof jwk.nbf === 'number') key.notBefore = jwk.nbf;
  if (typeof jwk.exp === 'number') key.expiresAt = jwk.exp;
  return { ok: true, key };
}

/**
 * The algorithm a signature with this key uses: the signature's `alg` when present (it must be one the key
 * allows), else the key's only algorithm. Never a guess: an RSA key without a JWK `alg` needs the signature's.
 */
export function chooseAlgorithm(
  key: DirectoryKey,
  alg: string | undefined,
): { ok: true; algorithm: SignatureAlgorithm } | { ok: false; reason: string } {
  if (alg !== undefined) {
    if (!isSupportedAlgorithm(alg) || !key.algorithms.includes(alg)) {
      return { ok: false, reason: `"alg" ${JSON.stringify(alg)} does not fit the key (${key.algorithms.join(' or ')})` };
    }
    return { ok: true, algorithm: alg };
  }
  if (key.algorithms.length === 1) return { ok: true, algorithm: key.algorithms[0]! };
  return { ok: false, reason: 'the key allows several algorithms (an RSA JWK without "alg") and the signature names none' };
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
