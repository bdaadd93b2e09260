/**
 * The production app and index, composed once: `startServer` serves them, and the benchmark (`bench/hosts-app.ts`)
 * builds exactly the same, so it measures what runs.
 */
import type { Logger } from 'pino';
import type { ContentModel } from '../content/index.js';
import { createApp, type App } from '../http/app.js';
import { clientAddressStep, compileTrust } from '../http/client-address.js';
import { clientKindStep, type SignatureVerifier } from '../http/client-kind.js';
import { effectiveTarget } from '../http/forwarded-target.js';
import type { HealthReport } from '../http/health.js';
import { errorAnswers, type ErrorPages } from '../http/html-errors.js';
import { rateLimitStep, type RateLimitStore } from '../http/ratelimit/index.js';
import type { ReferralAnswers, ReferralLookup } from '../http/referrals.js';
import { buildIndex, type IndexEntry, type Renderer } from '../index/build.js';
import { StaticRepresentations } from '../index/static-representations.js';
import type { CatalogIndex } from '../index/types.js';
import { HTML_TYPE, PAGE_HEADERS, renderNotFoundPage, renderServerErrorPage, renderTooManyRequestsPage } from '../pages/errors.js';
import { shellAssets, shellLinks } from '../pages/assets.js';
import { pageSources } from '../pages/index.js';
import { createNodeSignatureVerifier } from '../signatures/index.js';
import type { NonceStore } from '../signatures/nonce-store.js';
import type { RefusalReason } from '../signatures/refusals.js';
import { isLoopbackHost, type Config } from './config.js';
import { docsRepresentations, swaggerUiDir } from './docs-assets.js';
import { nodeCodec } from './node-codec.js';
import { openApiRepresentation } from './openapi-document.js';
import type { RequestObserver } from '../http/observe.js';
import type { HostOptions } from './host.js';
import { releasesStep } from './releases.js';
import { serviceVersion } from './version.js';

/** The error pages link the content-independent assets under the names the pages give them. */
const ERROR_PAGE_LINKS = shellLinks(shellAssets(nodeCodec.digest));

/** The error pages people see (404, 429, 500), from `src/pages/`. */
export const ERROR_PAGES: ErrorPages = {
  contentType: HTML_TYPE,
  headers: PAGE_HEADERS,
  notFound: (what) => renderNotFoundPage(ERROR_PAGE_LINKS, what),
  serverError: (requestId) => renderServerErrorPage(ERROR_PAGE_LINKS, requestId),
  tooManyRequests: (why) => renderTooManyRequestsPage(ERROR_PAGE_LINKS, why),
};

/**
 * Web Bot Auth: one verifier per process, with its directory and imported-key caches; used nonces are recorded in
 * `nonceStore` (shared through Redis) or else in this process. Each outcome is reported (the metrics) and each
 * refusal logged at debug level with its reason, directory and keyid.
 */
function webBotAuthVerifier(config: Config, logger: Logger, events: SignatureEvents, nonceStore: NonceStore | undefined): SignatureVerifier {
  const verifier = createNodeSignatureVerifier({
    ...(nonceStore && { nonceStore }),
    allowInsecureDirectories: config.keyDirectoryAllowInsecure,
    clockSkewSeconds: config.signatureClockSkewSeconds,
    targetProblem: signatureTargetPolicy(config),
    // The development switch also admits the RFC 9421 test keys (-01 §6.8: refused in production).
    allowTestKeys: config.keyDirectoryAllowInsecure,
    ...(events.onKeyDirectoryFetch && { directory: { onFetch: events.onKeyDirectoryFetch } }),
  });
  return async (request, context) => {
    const result = await verifier.verify(request, context);
    events.onSignatureResult?.(result.verified ? 'verified' : result.code);
    if (!result.verified && logger.isLevelEnabled('debug')) {
      logger.debug({ reason: result.code, detail: result.reason, directory: result.directory, keyid: result.keyid }, 'signature not verified');
    }
    return result;
  };
}

/** What the default signature verifier reports (the metrics). */
export interface SignatureEvents {
  /** Told when a key-directory fetch ends. */
  onKeyDirectoryFetch?: (result: 'ok' | 'refused' | 'error') => void;
  /** Told the outcome of every signed request checked: `verified`, or the refusal reason. */
  onSignatureResult?: (result: 'verified' | RefusalReason) => void;
}

/**
 * Whose request a signature may be for (Web Bot Auth -01 §6.1): `https` to `PUBLIC_BASE_URL`'s host or a
 * `SIGNATURE_AUTHORITIES` entry. A signature made for another site and replayed here is refused. With the
 * development switch `KEY_DIRECTORY_ALLOW_INSECURE`, plain `http` and loopback authorities are accepted too.
 */
export function signatureTargetPolicy(config: Config): (target: URL) => string | undefined {
  const authorities = new Set([...(config.publicBaseUrlSet ? [new URL(config.publicBaseUrl).host] : []), ...config.signatureAuthorities]);
  const development = config.keyDirectoryAllowInsecure;
  return (target) => {
    if (target.protocol !== 'https:' && !development) return 'signatures are accepted over https only';
    if (authorities.has(target.host) || (development && isLoopbackHost(target.hostname))) return undefined;
    return `the signature is for ${target.host}, not for this service (PUBLIC_BASE_URL, SIGNATURE_AUTHORITIES)`;
  };
}

/** What {@link composeApp} serves from. */
export interface AppParts {
  /** The index served (read once per request). */
  getIndex: () => CatalogIndex;
  health: HealthReport;
  /** `undefined`: no referral source (`REFERRALS_FILE` unset); every check answers `503`. */
  referrals: ReferralLookup | undefined;
  referralAnswers: ReferralAnswers;
  logger: Logger;
  /** Rate-limit counters (memory or Redis). */
  store: RateLimitStore;
  /** RFC 9421 verifier; default the Web Bot Auth verifier built from the configuration. */
  verifySignature?: SignatureVerifier;
  /** Where the default verifier records used nonces (the Redis one shares them); default this process's memory. */
  nonceStore?: NonceStore;
  /** Observers of every answered request besides the access log (the metrics). */
  observers?: readonly RequestObserver[];
  /** What the default verifier reports (the metrics). */
  signatureEvents?: SignatureEvents;
  /** `/openapi.json`, `/docs` and its assets; default {@link staticRepresentations} of the configuration. */
  statics?: StaticRepresentations;
}

/** The app with every step as production runs it: client address, kind, budgets, router, error pages. */
export function composeApp(config: Config, parts: AppParts): App {
  const errors = errorAnswers(ERROR_PAGES);
  const { logger } = parts;
  const verify = parts.verifySignature ?? webBotAuthVerifier(config, logger, parts.signatureEvents ?? {}, parts.nonceStore);
  return createApp({
    getIndex: parts.getIndex,
    health: parts.health,
    referrals: parts.referrals,
    referralAnswers: parts.referralAnswers,
    logger,
    errors,
    statics: parts.statics ?? staticRepresentations(config),
    ...(parts.observers && { observers: parts.observers }),
    clientAddress: clientAddressStep({ trustProxy: config.trustProxy, header: config.trustProxyHeader }),
    clientKind: clientKindStep({
      verify,
      target: effectiveTarget(config.trustProxy, config.trustProxyHeader),
      onVerifierError: (error, ctx) => logger.error({ err: error, request_id: ctx.locals.requestId }, 'signature verifier failed'),
    }),
    rateLimit: rateLimitStep({ store: parts.store, limits: config.rateLimits, refuse: errors.refuse }),
    ...(config.releasesDir !== undefined && { extraHandlers: [releasesStep(config.releasesDir)] }),
  });
}

/** The model-derived renderers: the web pages (and Atom feed) from the same model as the API. */
const RENDERERS: readonly Renderer[] = [(model, ctx) => pageSources(model, { publicBaseUrl: ctx.publicBaseUrl, digest: ctx.digest })];

/** Content-independent entries: `/openapi.json`, `/docs` and its assets (reads the Swagger UI files). */
function staticEntries(config: Config): IndexEntry[] {
  const publicBaseUrl = config.publicBaseUrlSet ? config.publicBaseUrl : undefined;
  return [
    openApiRepresentation({ publicBaseUrl, version: serviceVersion(), rateLimits: config.rateLimits }),
    ...docsRepresentations({ publicBaseUrl }),
  ];
}

/**
 * `/openapi.json`, `/docs` and its assets of this configuration, built once per process on first need, off the
 * start-up path: reading, hashing and compressing the Swagger UI files delayed the first request a start could
 * serve, and no content reload needs them again.
 * @throws Error when `swagger-ui-dist` is not installed (found now, not on the first request for `/docs`).
 */
export function staticRepresentations(config: Config): StaticRepresentations {
  swaggerUiDir();
  return new StaticRepresentations(nodeCodec, () => staticEntries(config));
}

/**
 * The index builder of this configuration: the API bodies and the pages of a model (the static documents are
 * {@link staticRepresentations}), built at `now` (default the system clock). New bodies are left uncompressed (servable at once);
 * `completeCompression(nodeCodec, index)` adds their forms. New pages and lesson bodies are made by their first
 * request and compressed after it: the catalog is served without waiting for them, and a body nobody asks for takes
 * no memory.
 */
export function indexBuilder(config: Config, now?: () => Date): (model: ContentModel, previous?: CatalogIndex) => Promise<CatalogIndex> {
  return (model, previous) =>
    buildIndex(model, {
      codec: nodeCodec,
      publicBaseUrl: config.publicBaseUrl,
      ...(config.publicBaseUrlSet && { locationBase: config.publicBaseUrl }),
      renderers: RENDERERS,
      previous,
      deferCompression: true,
      deferRendering: true,
      ...(now && { now }),
    });
}

/**
 * The public listener's options from the configuration (production and the benchmark): connection bounds, with
 * the trusted proxies exempt from the per-address one.
 */
export function publicHostOptions(config: Config): HostOptions {
  const trust = compileTrust(config.trustProxy);
  return {
    host: config.host,
    port: config.port,
    limits: { maxConnections: config.maxConnections, maxConnectionsPerAddress: config.maxConnectionsPerAddress },
    ...(trust && { isTrustedPeer: (address: string) => trust(address, 0) }),
  };
}
