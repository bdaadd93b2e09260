/**
 * Web Bot Auth verification: is this request signed (RFC 9421) by a key its `Signature-Agent` key directory
 * publishes? Profile of draft-ietf-webbotauth-httpsig-protocol §"Generating HTTP Message Signature" and
 * §"Validating Message Signature". The signature base is `http-message-signatures`' (signature-base.ts); the
 * public-key check is WebCrypto's (algorithms.ts).
 *
 * Work an anonymous client can trigger stays bounded: cheap checks come first; at most one public-key operation
 * per request; each client address (IPv6 /64) may send only a few signed requests that fail per minute (past that
 * its signatures are not parsed at all), and the process runs a bounded number of failed public-key checks per
 * second (both checked before the work; a signature that verifies spends nothing); an identical signature is
 * answered from a cache of earlier results, whichever way it went.
 *
 * A missing, malformed, expired or unverifiable signature never throws and never refuses a request: the result
 * is `{ verified: false, reason }` and the caller classifies the client as if it had not signed.
 * Portable: no Node-only modules (the directory fetch is injected).
 */
import { LRUCache } from 'lru-cache';
import { clientBucket } from './address-policy.js';
import { isSupportedAlgorithm, type SignatureAlgorithm } from './algorithms.js';
import { effectiveTargetUrl, TargetUriError, type EffectiveTarget } from './authority.js';
import { KeyDirectoryClient, type KeyDirectoryClientOptions } from './directory-client.js';
import { readSignatureAgent, readSignatureFields, type SignatureCandidate } from './fields.js';
import { keySource } from './key-source.js';
import { PUBLISHED_TEST_KEYIDS } from './test-keys.js';
import { DEFAULT_NONCE_CACHE_SIZE, MAX_NONCE_LENGTH, MemoryNonceStore, type NonceStore } from './nonce-store.js';
import type { RefusalReason } from './refusals.js';
import { FIELD_NAME, signatureBase, SignatureBaseError } from './signature-base.js';
import { WindowBudget } from './window-budget.js';

/** What verification reads of a request (a Fetch `Request` has it all). */
export interface SignedRequest {
  readonly method: string;
  /** The absolute request URL. */
  readonly url: string;
  readonly headers: { get(name: string): string | null };
}

/** Where and from whom a request came, as the http layer knows it. */
export interface VerifyContext extends EffectiveTarget {
  /** The client's address (after trusted proxies): charged for the directory fetches it causes. */
  clientAddress: string;
}

/** A request verified as signed by a key its agent's directory publishes. */
export interface Verified {
  verified: true;
  /** The agent: the origin named in `Signature-Agent` (`https://agent.example`), or the key-set URL without its query. */
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
  verify(request: SignedRequest, context: VerifyContext): Promise<VerificationResult>;
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
   * Bound on remembered results of public-key checks, in characters of their identity (the key, the signature
   * parameters, the signature and every message part its base is built from). An agent reusing one signature until
   * it expires, or a client repeating one bad signature, then costs a lookup instead of a public-key operation.
   * Default 4 000 000; 0 disables.
   */
  verifiedCacheSize?: number;
  /**
   * Signed requests that fail verification (for any reason) one client address (an IPv6 /64) may send per 60 s;
   * past it, its signatures are not even parsed (`over_budget`) until the window ends. Only failures count, so an
   * agent whose signatures verify never runs out. Concurrent requests may overshoot by the number in flight.
   * Default 10.
   */
  failedRequestsPerClientPerMinute?: number;
  /** Failed public-key checks the whole process runs per second, whoever causes them. Default 100. */
  failedChecksPerSecond?: number;
  /** Current time in seconds since the epoch. Default `Date.now() / 1000`. */
  now?: () => number;
  /**
   * Whose request it is (Web Bot Auth -01 §6.1): the reason a request to this effective target URL is not this
   * service's, or `undefined` when it is (its authority is one this service answers for, over https). Checked
   * before any fetch or public-key operation. A function of the target alone, which it must not modify: its
   * answer for the last URL is reused while requests ask for the same one. Default: every target accepted.
   */
  targetProblem?: (target: URL) => string | undefined;
  /**
   * Accept the published test keys of RFC 9421 Appendix B.1 (test-keys.ts), which -01 §6.8 says must be refused:
   * test vectors and local development only. Default `false`.
   */
  allowTestKeys?: boolean;
}

const KEYID = /^[A-Za-z0-9_-]{43}$/;
/** Longest identity remembered in the check-result cache, characters. */
const MAX_IDENTITY_LENGTH = 8_192;
/** Public-key operations per request: a header with several signatures cannot multiply the work. */
const KEY_OPERATIONS_PER_REQUEST = 1;

/** Creates a verifier with its own directory cache, imported-key cache and nonce cache. */
export function createSignatureVerifier(options: SignatureVerifierOptions): SignatureVerifier & { directories: KeyDirectoryClient } {
  const allowInsecure = options.allowInsecureDirectories ?? false;
  const allowTestKeys = options.allowTestKeys ?? false;
  const skew = options.clockSkewSeconds ?? 30;
  const maxLifetime = options.maxLifetimeSeconds ?? 86_400;
  const now = options.now ?? (() => Date.now() / 1000);
  const directories = new KeyDirectoryClient({ now, ...options.directory });
  const nonces = options.nonceStore ?? new MemoryNonceStore(options.nonceCacheSize ?? DEFAULT_NONCE_CACHE_SIZE);
  const checkCacheSize = options.verifiedCacheSize ?? 4_000_000;
  /** Identity → whether it verified; kept until the signature expires. */
  const checked =
    checkCacheSize > 0 ? new LRUCache<string, boolean>({ maxSize: checkCacheSize, sizeCalculation: (_v, identity) => identity.length }) : undefined;
  const clientFailures = new WindowBudget({ limit: options.failedRequestsPerClientPerMinute ?? 10, windowSeconds: 60, now });
  const processFailures = new WindowBudget({ limit: options.failedChecksPerSecond ?? 100, windowSeconds: 1, now, maxKeys: 1 });

  /**
   * The last request target judged: an agent that signs every request afresh asks for the same URL again and
   * again, and parsing it and judging its authority showed in the server's profile of such requests.
   */
  let lastTarget: JudgedTarget | undefined;
  /**
   * The target URI of a request and {@link SignatureVerifierOptions.targetProblem}'s answer for it.
   * @throws TargetUriError as {@link effectiveTargetUrl}.
   */
  function judgeTarget(requestUrl: string, context: EffectiveTarget): JudgedTarget {
    const last = lastTarget;
    if (last?.requestUrl === requestUrl && last.url === context.url && last.authority === context.authority) return last;
    const target = effectiveTargetUrl(requestUrl, context);
    lastTarget = { requestUrl, url: context.url, authority: context.authority, targetUri: target.href, refused: options.targetProblem?.(target) };
    return lastTarget;
  }

  /**
   * Cheap checks first, so a bad signature costs neither a fetch nor a public-key operation; `work` holds the
   * client's address bucket and counts the public-key operations this request has run.
   */
  async function verifyCandidate(
    request: SignedRequest,
    candidate: SignatureCandidate,
    targetUri: string,
    context: VerifyContext,
    work: { bucket: string; keyOperations: number },
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
      if (!isSupportedAlgorithm(alg)) return fail('unsupported', `unsupported algorithm ${JSON.stringify(alg)}`);
    }
    if (nonce !== undefined && (nonce.length > MAX_NONCE_LENGTH || nonces.has?.(keyid, nonce))) {
      return nonce.length > MAX_NONCE_LENGTH ? fail('malformed', 'the nonce is too long') : fail('replayed', 'replayed nonce');
    }

    const source = keySource(agent.value, allowInsecure);
    if (!source.ok) return fail('no_directory', source.reason);
    const directory = source.url;
    const identity = checkIdentity(request, targetUri, candidate, directory);
    if (!identity.ok) return fail('malformed', identity.reason);

    const found = await directories.lookup(directory, keyid, context.clientAddress, alg);
    if (!found.ok) return fail(found.code, found.reason, directory);

    // Same key, algorithm and message parts: the public-key answer cannot differ, whichever way it went.
    const key = identity.key === undefined ? undefined : `${found.algorithm}\n${identity.key}`;
    const earlier = key === undefined ? undefined : checked?.get(key);
    if (earlier === false) return fail('bad_signature', 'the same signature failed verification before', directory);
    if (earlier === undefined) {
      if (work.keyOperations >= KEY_OPERATIONS_PER_REQUEST) return fail('over_budget', 'one public-key operation per request', directory);
      if (clientFailures.spent(work.bucket)) return fail('over_budget', 'too many failed signatures from this client address', directory);
      if (processFailures.spent('')) return fail('over_budget', 'too many failed signatures in the last second', directory);
      let base: Uint8Array;
      try {
        base = signatureBase({ method: request.method, targetUri, field: (name) => request.headers.get(name) }, candidate.input);
      } catch (error) {
        return fail('malformed', error instanceof SignatureBaseError ? error.message : 'no signature base', directory);
      }
      work.keyOperations++;
      const valid = await found.verifier.verify(base, candidate.signature);
      // A valid signature with a nonce is single use: once its nonce is recorded below, a replay is refused before
      // this cache, so only its failure is worth remembering.
      if (key !== undefined && !(valid && nonce !== undefined)) checked?.set(key, valid, { ttl: Math.max(1, Math.ceil(expires + skew - t)) * 1000 });
      if (!valid) {
        processFailures.take('');
        return fail('bad_signature', `the signature does not verify with the ${found.algorithm} key`, directory);
      }
    }

    if (nonce !== undefined && !(await nonces.record(keyid, nonce, expires + skew - t))) return fail('replayed', 'replayed nonce', directory);
    return { verified: true, agent: source.agent, directory, keyid, algorithm: found.algorithm, label: candidate.label };
  }

  return {
    directories,
    async verify(request, context) {
      try {
        // An address whose signed requests keep failing is not even parsed until its window ends.
        const bucket = clientBucket(context.clientAddress);
        if (clientFailures.spent(bucket)) {
          return { verified: false, code: 'over_budget', reason: 'too many failed signatures from this client address' };
        }
        const fields = readSignatureFields(request.headers.get('signature-input'), request.headers.get('signature'));
        if (!fields.ok) return { verified: false, code: 'malformed', reason: fields.reason };
        let judged: JudgedTarget;
        try {
          judged = judgeTarget(request.url, context);
        } catch (error) {
          return { verified: false, code: 'malformed', reason: error instanceof TargetUriError ? error.message : 'unusable request URL' };
        }
        const { targetUri, refused } = judged;
        if (refused !== undefined) return { verified: false, code: 'wrong_authority', reason: refused };
        let last: NotVerified | undefined;
        const reasons: string[] = [];
        const work = { bucket, keyOperations: 0 };
        for (const candidate of fields.candidates) {
          const result = await verifyCandidate(request, candidate, targetUri, context, work);
          if (result.verified) return result;
          last = result;
          reasons.push(fields.candidates.length > 1 ? `${candidate.label}: ${result.reason}` : result.reason);
        }
        // Whatever the reason (a bad signature, an unknown key, a directory that fails), the address pays for it.
        if (last!.code !== 'over_budget') clientFailures.take(bucket);
        // Several candidates: the last one's code and key stand for the request (every reason is in the text).
        return { ...last!, reason: reasons.join('; ') };
      } catch {
        // Defensive: hostile input must never turn into a 500.
        return { verified: false, code: 'malformed', reason: 'verification failed' };
      }
    },
  };
}

/** A request URL and the target context it came with, its target URI and the target policy's answer. */
interface JudgedTarget {
  readonly requestUrl: string;
  readonly url: string | undefined;
  readonly authority: string | undefined;
  readonly targetUri: string;
  /** Why the target is not this service's; `undefined` when it is. */
  readonly refused: string | undefined;
}

/**
 * Everything a public-key check's answer depends on besides the algorithm, as one string: the key (directory and
 * keyid), the signature's label, the method and target URI, the raw `Signature-Input` and `Signature` fields and
 * every covered field's value. The signature base is a function of these, so equal strings mean equal answers;
 * building the string costs far less than building the base. `key` is `undefined` when it is too long to keep.
 * Fails when a covered field is absent (no base could be built).
 */
function checkIdentity(
  request: SignedRequest,
  targetUri: string,
  candidate: SignatureCandidate,
  directory: string,
): { ok: true; key: string | undefined } | { ok: false; reason: string } {
  const headers = request.headers;
  // Header values hold no newline (the Fetch Headers class refuses them), so joining by one is unambiguous.
  const parts = [
    directory,
    candidate.keyid ?? '',
    candidate.label,
    request.method,
    targetUri,
    headers.get('signature-input') ?? '',
    headers.get('signature') ?? '',
  ];
  for (const { name } of candidate.components) {
    if (name.startsWith('@')) continue;
    const value = FIELD_NAME.test(name) ? headers.get(name) : null;
    if (value === null) return { ok: false, reason: `the covered field "${name}" is absent` };
    parts.push(name, value);
  }
  const key = parts.join('\n');
  return { ok: true, key: key.length <= MAX_IDENTITY_LENGTH ? key : undefined };
}
