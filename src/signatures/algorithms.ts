/**
 * The RFC 9421 §3.3 signature algorithms a Web Bot Auth agent may use, and their verification with WebCrypto.
 * One table states, for each algorithm, the key it needs, its JOSE name (a JWK `alg`, RFC 7518 §3.1, RFC 8037
 * §3.1) and the WebCrypto parameters. HMAC (§3.3.3) is absent on purpose: a shared secret cannot be published
 * in a key directory (protocol §"Shared Secrets Considered Harmful").
 * Portable: only `crypto.subtle`, available on Node 20 and every Fetch runtime.
 */

/** What one algorithm needs and how WebCrypto runs it. */
interface AlgorithmSpec {
  /** JWK `kty` of its keys. */
  kty: 'OKP' | 'EC' | 'RSA';
  /** JWK `crv` of its keys (OKP and EC). */
  crv?: string;
  /** The JOSE `alg` names that select it; the RFC 9421 name itself is accepted too. */
  jose: readonly string[];
  /** WebCrypto `importKey` algorithm. */
  importParams: AlgorithmIdentifier | RsaHashedImportParams | EcKeyImportParams;
  /** WebCrypto `verify` algorithm. */
  verifyParams: AlgorithmIdentifier | RsaPssParams | EcdsaParams;
}

const ALGORITHMS = {
  /** §3.3.6 EdDSA using curve edwards25519. */
  ed25519: { kty: 'OKP', crv: 'Ed25519', jose: ['EdDSA', 'Ed25519'], importParams: { name: 'Ed25519' }, verifyParams: { name: 'Ed25519' } },
  /** §3.3.4 ECDSA using curve P-256 and SHA-256; the signature is r‖s, 64 bytes (WebCrypto's format). */
  'ecdsa-p256-sha256': {
    kty: 'EC',
    crv: 'P-256',
    jose: ['ES256'],
    importParams: { name: 'ECDSA', namedCurve: 'P-256' },
    verifyParams: { name: 'ECDSA', hash: 'SHA-256' },
  },
  /** §3.3.5 ECDSA using curve P-384 and SHA-384; r‖s, 96 bytes. */
  'ecdsa-p384-sha384': {
    kty: 'EC',
    crv: 'P-384',
    jose: ['ES384'],
    importParams: { name: 'ECDSA', namedCurve: 'P-384' },
    verifyParams: { name: 'ECDSA', hash: 'SHA-384' },
  },
  /** §3.3.1 RSASSA-PSS using SHA-512, salt length 64 bytes. */
  'rsa-pss-sha512': {
    kty: 'RSA',
    jose: ['PS512'],
    importParams: { name: 'RSA-PSS', hash: 'SHA-512' },
    verifyParams: { name: 'RSA-PSS', saltLength: 64 },
  },
  /** §3.3.2 RSASSA-PKCS1-v1_5 using SHA-256. */
  'rsa-v1_5-sha256': {
    kty: 'RSA',
    jose: ['RS256'],
    importParams: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    verifyParams: { name: 'RSASSA-PKCS1-v1_5' },
  },
} as const satisfies Record<string, AlgorithmSpec>;

/** An RFC 9421 algorithm name this service verifies. */
export type SignatureAlgorithm = keyof typeof ALGORITHMS;

/** Every algorithm this service verifies, in the order of the table. */
export const SUPPORTED_ALGORITHMS = Object.keys(ALGORITHMS) as readonly SignatureAlgorithm[];

/** Whether `name` is an algorithm this service verifies. */
export function isSupportedAlgorithm(name: string): name is SignatureAlgorithm {
  return Object.hasOwn(ALGORITHMS, name);
}

/**
 * The algorithms a public key of this type may verify: one for OKP and EC keys (the curve decides), both RSA
 * algorithms for an RSA key. A JWK `alg` narrows that to one ({@link algorithmOfJoseName}).
 */
export function algorithmsForKey(kty: string, crv: string | undefined): SignatureAlgorithm[] {
  return SUPPORTED_ALGORITHMS.filter((name) => {
    const spec: AlgorithmSpec = ALGORITHMS[name];
    return spec.kty === kty && spec.crv === crv;
  });
}

/** The algorithm a JWK `alg` value names (JOSE or RFC 9421 spelling), or `undefined` when it names none of ours. */
export function algorithmOfJoseName(alg: string): SignatureAlgorithm | undefined {
  return SUPPORTED_ALGORITHMS.find((name) => name === alg || ALGORITHMS[name].jose.some((jose) => jose === alg));
}

/** Verifies signatures of one algorithm with one public key. */
export interface KeyVerifier {
  readonly algorithm: SignatureAlgorithm;
  /**
   * Whether `signature` is valid over `data` (the signature base, RFC 9421 §2.5, as UTF-8 bytes). Resolves
   * `false` for a wrong or malformed signature; never rejects for a bad signature.
   */
  verify(data: Uint8Array, signature: Uint8Array): Promise<boolean>;
}

/**
 * Imports a public JWK for one algorithm.
 * @throws when WebCrypto refuses the key material (a key that does not fit the algorithm).
 */
export async function importKeyVerifier(jwk: JsonWebKey, algorithm: SignatureAlgorithm): Promise<KeyVerifier> {
  const spec: AlgorithmSpec = ALGORITHMS[algorithm];
  const key = await crypto.subtle.importKey('jwk', jwk, spec.importParams, false, ['verify']);
  return Object.freeze({
    algorithm,
    async verify(data: Uint8Array, signature: Uint8Array) {
      try {
        return await crypto.subtle.verify(spec.verifyParams, key, new Uint8Array(signature), new Uint8Array(data));
      } catch {
        return false;
      }
    },
  });
}
