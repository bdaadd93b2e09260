/**
 * The client-kind step (contract §5): a valid RFC 9421 signature makes a verified agent; otherwise the
 * `User-Agent` decides between a declared agent, a browser and an anonymous client. Never refuses a request.
 */
import type { Step, StepContext, StepRequest } from './step.js';
import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';
import type { ClientKind } from './locals.js';
import { BROWSER_ENGINE_PATTERN, GENERIC_PRODUCTS, LIBRARY_PRODUCTS, MAX_USER_AGENT_LENGTH, PRODUCT_TOKEN_PATTERN } from './user-agents.js';

/** The kinds a `User-Agent` alone can earn; `verified` comes only from a signature. */
export type UserAgentKind = Exclude<ClientKind, 'verified'>;

const LIBRARY = new Set(LIBRARY_PRODUCTS.map((name) => name.toLowerCase()));
const GENERIC = new Set(GENERIC_PRODUCTS.map((name) => name.toLowerCase()));

/**
 * Product names (`name` of each `name/version`) in a `User-Agent`, in order, comments included.
 * @param userAgent an already length-bounded string.
 */
export function productNames(userAgent: string): string[] {
  const names: string[] = [];
  for (const match of userAgent.matchAll(PRODUCT_TOKEN_PATTERN)) names.push(match[1]!);
  return names;
}

/**
 * Classifies a request by its `User-Agent` header.
 *
 * - `anonymous`: missing or blank, or every named product is an HTTP-library default (`curl/8.5.0`,
 *   `python-requests/2.32.3`, `Apache-HttpClient/4.5 (Java/17)`), or it names nothing at all.
 * - `browser`: a browser string (a browser engine token) that `isbot` does not flag as a bot.
 * - `declared`: a product token `name/version` of the client's own, anywhere in the string: crawlers
 *   (`Googlebot/2.1`, `GPTBot/1.2`) and apps (`acme-sync/2.1 (+https://acme.example/bot)`) alike.
 *
 * Only the first {@link MAX_USER_AGENT_LENGTH} characters are examined.
 * @param userAgent the header value, `null`/`undefined` when absent.
 */
export function classifyUserAgent(userAgent: string | null | undefined): UserAgentKind {
  const ua = (userAgent ?? '').slice(0, MAX_USER_AGENT_LENGTH).trim();
  if (ua === '') return 'anonymous';
  if (!isbot(ua) && BROWSER_ENGINE_PATTERN.test(ua)) return 'browser';
  const ownProducts = productNames(ua).filter((name) => {
    const key = name.toLowerCase();
    return !LIBRARY.has(key) && !GENERIC.has(key);
  });
  return ownProducts.length > 0 ? 'declared' : 'anonymous';
}

/**
 * Kinds of recently seen `User-Agent` values: most traffic repeats a few hundred strings, and classifying one
 * costs several microseconds (isbot's pattern). Bounded, so unique strings from a hostile client only churn it.
 */
const recentKinds = new LRUCache<string, UserAgentKind>({ max: 2048 });

/** {@link classifyUserAgent}, remembered for recently seen values. */
export function classifyUserAgentCached(userAgent: string | null): UserAgentKind {
  if (userAgent === null) return 'anonymous';
  let kind = recentKinds.get(userAgent);
  if (kind === undefined) {
    kind = classifyUserAgent(userAgent);
    if (userAgent.length <= MAX_USER_AGENT_LENGTH) recentKinds.set(userAgent, kind);
  }
  return kind;
}

/** What the signatures module answers for one request (see `src/signatures/`). */
export type VerificationResult = { verified: true } | { verified: false; reason: string };

/**
 * Verifies a request's RFC 9421 signature. Must not throw for bad input; a throw is treated as unverified.
 * @param request the incoming request.
 * @param context the client's address (for per-client limits on key-directory fetches) and, behind a trusted
 *   proxy, the URL the client addressed (from which `@authority` and `@target-uri` are derived, RFC 9421 §2.2);
 *   without them the request's own URL stands.
 */
export type SignatureVerifier = (
  request: StepRequest,
  context: { clientAddress: string; url?: string; authority?: string },
) => Promise<VerificationResult>;

/** Options of {@link clientKindStep}. */
export interface ClientKindOptions {
  /** The signature verifier; when absent no client is verified. */
  verify?: SignatureVerifier;
  /**
   * The target the client addressed, when it differs from the request URL (behind a trusted proxy: see
   * `forwarded-target.ts`). Default: the request URL.
   */
  target?: (ctx: StepContext) => { url?: string };
  /** Called when the verifier throws (a bug there must not fail the request). */
  onVerifierError?: (error: unknown, ctx: StepContext) => void;
}

/**
 * The middleware step that sets `ctx.locals.clientKind`. Needs `ctx.locals.clientAddress` (client-address step).
 * A signature is only checked when the request carries a `Signature` header; a failed check falls back to the
 * `User-Agent` kind and never refuses the request.
 */
export function clientKindStep(options: ClientKindOptions = {}): Step {
  const { verify, onVerifierError } = options;
  const targetOf = options.target ?? (() => ({}));
  const classifySigned = async (ctx: StepContext, verifier: SignatureVerifier): Promise<void> => {
    try {
      if ((await verifier(ctx.request, { clientAddress: ctx.locals.clientAddress ?? ctx.ip, ...targetOf(ctx) })).verified) {
        ctx.locals.clientKind = 'verified';
        return;
      }
    } catch (error) {
      onVerifierError?.(error, ctx);
    }
    ctx.locals.clientKind = classifyUserAgentCached(ctx.request.headers.get('user-agent'));
  };
  // Unsigned requests (nearly all) are classified at once: no promise, no microtask.
  return (ctx) => {
    const headers = ctx.request.headers;
    if (verify && headers.has('signature') && headers.has('signature-input')) return classifySigned(ctx, verify);
    ctx.locals.clientKind = classifyUserAgentCached(headers.get('user-agent'));
  };
}
