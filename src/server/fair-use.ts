/**
 * Wires fair use for the server entry: the client-address, client-kind and rate-limit steps that `createApp`
 * takes, and the counter store chosen by the configuration (in-process, or Redis for several instances).
 * Node-only because of the Redis client; the steps themselves are runtime-neutral.
 */
import type { RequestContext, RequestHandler } from '@hattip/compose';
import { clientAddressStep } from '../http/client-address.js';
import { clientKindStep, type SignatureVerifier } from '../http/client-kind.js';
import type { RateLimitState } from '../http/locals.js';
import { MemoryStore } from '../http/ratelimit/memory-store.js';
import { rateLimitStep } from '../http/ratelimit/step.js';
import type { RateLimitStore } from '../http/ratelimit/store.js';
import type { Config } from './config.js';
import { RedisStore, storeHealthFields, type StoreLogger } from './redis-store.js';

/** The steps and the store, ready for `createApp({ clientAddress, clientKind, rateLimit })`. */
export interface FairUse {
  clientAddress: RequestHandler;
  clientKind: RequestHandler;
  rateLimit: RequestHandler;
  /** The counter store (closed by {@link FairUse.close}). */
  store: RateLimitStore;
  /** Closes the store's connection; call on shutdown. */
  close(): Promise<void>;
}

/** What {@link createFairUse} needs besides the configuration. */
export interface FairUseDeps {
  /** Outage/recovery lines of the Redis store; verifier errors. */
  logger: StoreLogger & { error(fields: object, message: string): void };
  /** Receives the store's `/health` fields now and on every change (e.g. `health.set`). */
  reportHealth?: (fields: Record<string, string>) => void;
  /** The RFC 9421 verifier (`createNodeSignatureVerifier(…).verify`); without it no client is verified. */
  verify?: SignatureVerifier;
  /** The 429 body (e.g. `refuseWithPage` for HTML pages); default JSON. */
  refuse?: (ctx: RequestContext, state: RateLimitState) => Response | Promise<Response>;
  /**
   * Whether the rate-limit step adds the RateLimit fields to later steps' responses itself (default `false`:
   * the app's response assembly adds them from `ctx.locals.rateLimit`).
   */
  decorate?: boolean;
}

/**
 * Builds the fair-use steps from the configuration (`TRUST_PROXY`, `TRUST_PROXY_HEADER`, `RATE_LIMIT_*`,
 * `RATE_LIMIT_STORE`).
 * With Redis it waits up to 2 s for the first connection, then starts anyway (counting locally until Redis answers).
 */
export async function createFairUse(
  config: Pick<Config, 'trustProxy' | 'trustProxyHeader' | 'rateLimits' | 'rateLimitStore'>,
  deps: FairUseDeps,
): Promise<FairUse> {
  const report = deps.reportHealth ?? (() => {});
  const store: RateLimitStore =
    config.rateLimitStore.kind === 'redis'
      ? await RedisStore.open({
          url: config.rateLimitStore.url,
          logger: deps.logger,
          onHealthChange: (health) => report(storeHealthFields(health)),
        })
      : new MemoryStore();
  report(storeHealthFields(store.health()));
  return {
    clientAddress: clientAddressStep({ trustProxy: config.trustProxy, header: config.trustProxyHeader }),
    clientKind: clientKindStep({
      verify: deps.verify,
      onVerifierError: (error, ctx) =>
        deps.logger.error({ err: String(error), request_id: ctx.locals.requestId }, 'signature verifier failed'),
    }),
    rateLimit: rateLimitStep({ store, limits: config.rateLimits, refuse: deps.refuse, decorate: deps.decorate ?? false }),
    store,
    close: () => store.close(),
  };
}
