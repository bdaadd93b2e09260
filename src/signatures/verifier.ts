/**
 * Web Bot Auth verification: is this request signed (RFC 9421) by a key its `Signature-Agent` key directory
 * publishes? Profile of draft-ietf-webbotauth-httpsig-protocol §"Generating HTTP Message Signature" and
 * §"Validating Message Signature". The signature base and the cryptographic check are `http-message-sig`'s.
 *
 * A missing, malformed, expired or unverifiable signature never throws and never refuses a request: the result
 * is `{ verified: false, reason }` and the caller classifies the client as if it had not signed.
 * Portable: no Node-only modules (the directory fetch is injected).
 */
import { isSignatureError, verifySignature, type FieldOccurrence, type RequestDescriptor } from 'http-message-sig';
import { LRUCache } from 'lru-cache';
import { effectiveTargetUri, TargetUriError, type EffectiveTarget } from './authority.js';
import { DIRECTORY_PATH, KeyDirectoryClient, type KeyDirectoryClientOptions } from './directory-client.js';
import { readSignatureAgent, readSignatureFields, type SignatureCandidate } from './fields.js';
import { SUPPORTED_ALGORITHMS, type SignatureAlgorithm } from './keys.js';
import { PUBLISHED_TEST_KEYIDS } from './test-keys.js';
import { DEFAULT_NONCE_CACHE_SIZE, MAX_NONCE_LENGTH, MemoryNonceStore, type NonceStore } from './nonce-store.js';
import type { RefusalReason } from './refusals.js';

/** Where and from whom a request came, as the http layer knows it. */
export interface VerifyContext extends EffectiveTarget {
  /** The client's address (after trusted proxies): charged for the directory fetches it causes. */
  clientAddress: string;
}

/** A request verified as signed by a key its agent's directory publishes. */
export interface Verified {
  verified: true;
  /** The agent: the origin named in `Signature-Agent`, e.g. `https://agent.example`. */
  agent: string;
  /** The directory URL the key was found at. */
  directory: string;
  /** The key's JWK SHA-256 thumbprint. */
  keyid: string;
  /** The signature's algorithm. */
  algorithm: SignatureAlgorithm;
  /** The label of the signature that verified. */
  label: string;
}

/** Why a request is not verified (for metrics and logs; never shown as an error to the client). */
export interface NotVerified {
  verified: false;
  /** The refusal reason, one of a closed set (the metric label). */
  code: RefusalReason;
  /** What exactly was wrong, for people (the log line). */
  reason: string;
  /** The key directory the signature named, when it got that far. */
  directory?: string;
  /** The signature's `keyid`, when it had one. */
  keyid?: string;
}

/** The outcome of {@link SignatureVerifier.verify}. */
export type VerificationResult = Verified | NotVerified;

/** Verifies Web Bot Auth signatures. */
export interface SignatureVerifier {
  /** Never throws; resolves to why the request is not verified when it is not. */
  verify(request: Request, context: VerifyContext): Promise<VerificationResult>;
}

/** Options of {@link createSignatureVerifier}. Times in seconds. */
export interface SignatureVerifierOptions {
  /** Performs directory fetches (on Node: `createGuardedFetcher`) and the directory cache limits. */
  directory: KeyDirectoryClientOptions;
  /**
   * Accept `http://` agent origins (`KEY_DIRECTORY_ALLOW_INSECURE=1`): tests and local development only.
   * The fetcher must be configured to match. Default `false`.
   */
  allowInsecureDirectories?: boolean;
  /** Tolerated clock difference for `created` and `expires`, seconds (`SIGNATURE_CLOCK_SKEW`). Default 30. */
  clockSkewSeconds?: number;
  /** Longest accepted `expires − created`, seconds. Default 86 400 (24 h). */
  maxLifetimeSeconds?: number;
  /** Bound on remembered (keyid, nonce) pairs of the default nonce store. Default 100 000. */
  nonceCacheSize?: number;
  /**
   * Where used nonces are recorded: shared between instances (the Redis one of src/server) for a nonce to be
   * single use across them. Default a {@link MemoryNonceStore} of `nonceCacheSize` pairs (this process only).
   */
  nonceStore?: NonceStore;
  /**
   * Bound on remembered verified signatures without a nonce, in characters of their identity (bytes of the
   * message parts that determine the signature base, roughly). An agent reusing one signature until it expires
   * then costs a lookup instead of a public-key operation. Default 4 000 000; 0 disables.
   */
  verifiedCacheSize?: number;
  /** Current time in seconds since the epoch. Default `Date.now() / 1000`. */
  now?: () => number;
  /**
   * Whose request it is (Web Bot Auth -01 §6.1): the reason a request to this effective target URL is not this
   * service's, or `undefined` when it is (its authority is one this service answers for, over https). Checked
   * before any fetch or public-key operation. Default: every target accepted.
   */
  targetProblem?: (target: URL) => string | undefined;
  /**
   * Accept the published test keys of RFC 9421 Appendix B.1 (test-keys.ts), which -01 §6.8 says must be refused:
   * test vectors and local development only. Default `false`.
   */
  allowTestKeys?: boolean;
}

const KEYID = /^[A-Za-z0-9_-]{43}$/;
/** Longest identity remembered in the verified-signature cache, characters. */
const MAX_IDENTITY_LENGTH = 8_192;
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/** Creates a verifier with its own directory cache, imported-key cache and nonce cache. */
export function createSignatureVerifier(options: SignatureVerifierOptions): SignatureVerifier & { directories: KeyDirectoryClient } {
  const allowInsecure = options.allowInsecureDirectories ?? false;
  const allowTestKeys = options.allowTestKeys ?? false;
  const skew = options.clockSkewSeconds ?? 30;
  const maxLifetime = options.maxLifetimeSeconds ?? 86_400;
  const now = options.now ?? (() => Date.now() / 1000);
  const directories = new KeyDirectoryClient({ now, ...options.directory });
  const nonces = options.nonceStore ?? new MemoryNonceStore(options.nonceCacheSize ?? DEFAULT_NONCE_CACHE_SIZE);
  const verifiedCacheSize = options.verifiedCacheSize ?? 4_000_000;
  const verifiedSignatures =
    verifiedCacheSize > 0
      ? new LRUCache<string, true>({ maxSize: verifiedCacheSize, sizeCalculation: (_v, identity) => identity.length })
      : undefined;

  /** Cheap checks first, so a bad signature costs neither a fetch nor a public-key operation. */
  async function verifyCandidate(
    request: Request,
    candidate: SignatureCandidate,
    targetUri: string,
    context: VerifyContext,
  ): Promise<VerificationResult> {
    const { created, expires, keyid, alg, nonce } = candidate;
    const named = keyid === undefined ? {} : { keyid };
    const fail = (code: RefusalReason, reason: string, directory?: string): NotVerified => ({
      verified: false,
      code,
      reason,
      ...named,
      ...(directory !== undefined && { directory }),
    });
    const covers = (name: string) => candidate.components.some((c) => c.name === name && c.parameters.size === 0);
    if (!covers('@authority') && !covers('@target-uri')) return fail('malformed', 'the signature covers neither @authority nor @target-uri');

    const agent = readSignatureAgent(request.headers.get('signature-agent'), candidate);
    if (!agent.ok) return fail(agent.code, agent.reason);

    if (created === undefined) return fail('malformed', 'no integer "created" parameter');
    if (expires === undefined) return fail('malformed', 'no integer "expires" parameter');
    if (expires <= created) return fail('malformed', '"expires" is not after "created"');
    if (expires - created > maxLifetime) return fail('malformed', `the signature lives longer than ${maxLifetime} s`);
    const t = now();
    if (created > t + skew) return fail('expired', 'the signature was created in the future');
    if (expires < t - skew) return fail('expired', 'the signature has expired');
    if (keyid === undefined || !KEYID.test(keyid)) return fail('malformed', '"keyid" is not a JWK SHA-256 thumbprint');
    if (PUBLISHED_TEST_KEYIDS.has(keyid) && !allowTestKeys) return fail('test_key', 'a published test key (RFC 9421 Appendix B.1) is never accepted');
    if (alg !== undefined) {
      if (alg.startsWith('hmac')) return fail('unsupported', 'HMAC signatures are refused');
      if (!(SUPPORTED_ALGORITHMS as readonly string[]).includes(alg)) return fail('unsupported', `unsupported algorithm ${JSON.stringify(alg)}`);
    }
    if (nonce !== undefined && (nonce.length > MAX_NONCE_LENGTH || nonces.has?.(keyid, nonce))) {
      return nonce.length > MAX_NONCE_LENGTH ? fail('malformed', 'the nonce is too long') : fail('replayed', 'replayed nonce');
    }

    const origin = agentOrigin(agent.value, allowInsecure);
    if (!origin.ok) return fail('no_directory', origin.reason);
    const directory = `${origin.origin}${DIRECTORY_PATH}`;

    const found = await directories.lookup(directory, keyid, context.clientAddress);
    if (!found.ok) return fail(found.code, found.reason, directory);
    if (alg !== undefined && alg !== found.key.algorithm)
      return fail('unsupported', `"alg" ${alg} does not match the ${found.key.algorithm} key`, directory);

    // Same message parts, same signature, same key: the cryptographic answer cannot differ. Time, directory and
    // alg checks above still run for every request.
    const message = describe(request, targetUri, candidate);
    const identity = nonce === undefined && verifiedSignatures !== undefined ? signatureIdentity(directory, keyid, message) : undefined;
    if (identity !== undefined && verifiedSignatures!.has(identity)) {
      return { verified: true, agent: origin.origin, directory, keyid, algorithm: found.key.algorithm, label: candidate.label };
    }

    try {
      await verifySignature(message, {
        label: candidate.label,
        policy: {
          algorithms: SUPPORTED_ALGORITHMS,
          requiredComponents: [],
          requiredParameters: ['created', 'expires', 'keyid', 'tag'],
          clockSkew: skew,
          now: t,
        },
        resolveVerifier: () => found.verifier,
      });
    } catch (error) {
      return fail('bad_signature', isSignatureError(error) ? `${error.code}: ${error.message}` : 'verification failed', directory);
    }

    if (nonce !== undefined && !(await nonces.record(keyid, nonce, expires + skew - t))) return fail('replayed', 'replayed nonce', directory);
    if (identity !== undefined) verifiedSignatures!.set(identity, true, { ttl: Math.max(1, Math.ceil(expires + skew - t)) * 1000 });
    return { verified: true, agent: origin.origin, directory, keyid, algorithm: found.key.algorithm, label: candidate.label };
  }

  return {
    directories,
    async verify(request, context) {
      try {
        const fields = readSignatureFields(request.headers.get('signature-input'), request.headers.get('signature'));
        if (!fields.ok) return { verified: false, code: 'malformed', reason: fields.reason };
        let targetUri: string;
        try {
          targetUri = effectiveTargetUri(request.url, context);
        } catch (error) {
          return { verified: false, code: 'malformed', reason: error instanceof TargetUriError ? error.message : 'unusable request URL' };
        }
        const refused = options.targetProblem?.(new URL(targetUri));
        if (refused !== undefined) return { verified: false, code: 'wrong_authority', reason: refused };
        let last: NotVerified | undefined;
        const reasons: string[] = [];
        for (const candidate of fields.candidates) {
          const result = await verifyCandidate(request, candidate, targetUri, context);
          if (result.verified) return result;
          last = result;
          reasons.push(fields.candidates.length > 1 ? `${candidate.label}: ${result.reason}` : result.reason);
        }
        // Several candidates: the last one's code and key stand for the request (every reason is in the text).
        return { ...last!, reason: reasons.join('; ') };
      } catch {
        // Defensive: hostile input must never turn into a 500.
        return { verified: false, code: 'malformed', reason: 'verification failed' };
      }
    },
  };
}

/**
 * The agent's origin from a `Signature-Agent` value: an absolute `https` URL (`http` when insecure directories
 * are allowed) that is an origin — no credentials, path (other than `/`), query or fragment (protocol
 * §"Key Distribution and Discovery", type `directory`).
 */
export function agentOrigin(value: string, allowInsecure: boolean): { ok: true; origin: string } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: 'the Signature-Agent value is not an absolute URL' };
  }
  if (url.protocol !== 'https:' && !(allowInsecure && url.protocol === 'http:')) {
    return { ok: false, reason: 'the Signature-Agent URL is not https' };
  }
  if (
    url.username !== '' ||
    url.password !== '' ||
    (url.pathname !== '/' && url.pathname !== '') ||
    url.search !== '' ||
    url.hash !== '' ||
    value.includes('#') ||
    value.includes('?')
  ) {
    return { ok: false, reason: 'the Signature-Agent URL is not an origin' };
  }
  return { ok: true, origin: url.origin };
}

/**
 * Everything the signature base and signature depend on, as one string (`undefined` when too long to keep):
 * the key, method, target URI, the signature fields and every covered field's value.
 */
function signatureIdentity(directory: string, keyid: string, message: RequestDescriptor): string | undefined {
  const parts = [directory, keyid, message.method, message.targetUri];
  for (const field of message.fields) parts.push(field.name, field.value);
  const identity = parts.join('\n');
  return identity.length <= MAX_IDENTITY_LENGTH ? identity : undefined;
}

/** The message as `http-message-sig` sees it: the effective target URI and only the fields the signature needs. */
function describe(request: Request, targetUri: string, candidate: SignatureCandidate): RequestDescriptor {
  const names = new Set(['signature', 'signature-input']);
  // Invalid names are left out (Headers.get would throw); http-message-sig then reports the field missing.
  for (const c of candidate.components) if (FIELD_NAME.test(c.name)) names.add(c.name);
  const fields: FieldOccurrence[] = [];
  for (const name of names) {
    const value = request.headers.get(name);
    if (value !== null) fields.push({ name, value });
  }
  return { kind: 'request', method: request.method, targetUri, fields };
}
