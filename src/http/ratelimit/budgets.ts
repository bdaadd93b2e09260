/**
 * The fair-use budgets (contract §5, §8) and the decision for one request: which budgets a path spends, whether
 * the request is allowed, and which budget its RateLimit headers report. Pure logic over a {@link RateLimitStore}.
 */
import type { BudgetName } from '../../contract/rate-limits.js';
import type { Budget } from '../../contract/routes.js';
import type { ClientKind, RateLimitState } from '../locals.js';
import { isPromise } from '../maybe-async.js';
import type { HitResult, RateLimitStore } from './store.js';

/** Requests allowed per window, by budget (the configuration's `RATE_LIMIT_*`). */
export interface BudgetLimits {
  /** Verified agents, per {@link READ_WINDOW_SECONDS}. */
  verified: number;
  /** Declared agents, per {@link READ_WINDOW_SECONDS}. */
  declared: number;
  /** Browsers, per {@link READ_WINDOW_SECONDS}. */
  browser: number;
  /** Anonymous clients, per {@link READ_WINDOW_SECONDS}. */
  anonymous: number;
  /** Referral lookups per client address, whatever the kind, per {@link REFERRAL_WINDOW_SECONDS}. */
  referrals: number;
}

/** The contract's default budgets. */
export const DEFAULT_LIMITS: BudgetLimits = { verified: 480, declared: 120, browser: 120, anonymous: 30, referrals: 60 };

/** Length of the read window, in seconds. */
export const READ_WINDOW_SECONDS = 60;
/** Length of the referral window, in seconds. */
export const REFERRAL_WINDOW_SECONDS = 3600;

/** The outcome for one request. */
export type Decision =
  | {
      allowed: true;
      /** The budget reported in the RateLimit headers. */
      state: RateLimitState;
    }
  | {
      /** Answer 429. */
      allowed: false;
      /** The budget that ran out, reported in the RateLimit headers. */
      state: RateLimitState;
      /** Which budget that is. */
      spent: BudgetName;
    };

/** One budget after this request. */
function budgetState(
  name: BudgetName,
  limit: number,
  windowSeconds: number,
  hit: HitResult,
): RateLimitState & { exceeded: boolean; name: BudgetName } {
  return {
    name,
    limit,
    windowSeconds,
    remaining: Math.max(0, limit - hit.count),
    // Rounded up so that waiting this long always reaches the window's end.
    resetSeconds: Math.max(0, Math.ceil(hit.resetMs / 1000)),
    exceeded: hit.count > limit,
  };
}

/** Drops the internal flag from a budget state. */
function publicState({ limit, remaining, resetSeconds, windowSeconds }: RateLimitState): RateLimitState {
  return { limit, remaining, resetSeconds, windowSeconds };
}

/** Who is asking and for what. */
export interface RequestIdentity {
  /** The client's bucket (IPv4 address or IPv6 /64), see `addressBucket`. */
  bucket: string;
  /** The client kind. */
  kind: ClientKind;
  /** How the path is counted (the route table's budget). */
  pathClass: Budget;
}

/**
 * The most requests one address may make in a read window, across kinds: the largest budget a request of `kind`
 * qualifies for. A client chooses its `User-Agent`, so an unverified request could claim any unverified kind; only
 * a verified signature reaches the verified budget. Without this ceiling, switching `User-Agent` would add the
 * kinds' budgets up (30 + 120 + 120).
 */
export function addressCeiling(limits: BudgetLimits, kind: ClientKind): number {
  const unverified = Math.max(limits.declared, limits.browser, limits.anonymous);
  return kind === 'verified' ? Math.max(limits.verified, unverified) : unverified;
}

/** The limit of the budget `name` for a request of `kind`: its kind's reads, its address's ceiling, or referral checks. */
export function budgetLimit(limits: BudgetLimits, name: BudgetName, kind: ClientKind): number {
  if (name === 'address') return addressCeiling(limits, kind);
  return name === 'referral' ? limits.referrals : limits[kind];
}

/** The two store options, shared by every request. */
const SPEND = Object.freeze({ spend: true });
const READ_ONLY = Object.freeze({ spend: false });

/**
 * The decision over a read's two budgets (its kind's and its address's ceiling): as {@link decideAll} decides over
 * any list, without building one.
 */
function decideRead(kindLimit: number, ceiling: number, spend: boolean, kindHit: HitResult, addressHit: HitResult): Decision {
  const kind = budgetState('read', kindLimit, READ_WINDOW_SECONDS, kindHit);
  const address = budgetState('address', ceiling, READ_WINDOW_SECONDS, addressHit);
  if (spend && (kind.exceeded || address.exceeded)) {
    // Both ran out: the later reset (on a tie the kind's, as the stable sort of decideAll keeps it first).
    const out = !address.exceeded || (kind.exceeded && kind.resetSeconds >= address.resetSeconds) ? kind : address;
    return { allowed: false, state: publicState(out), spent: out.name };
  }
  const closest =
    kind.remaining < address.remaining || (kind.remaining === address.remaining && kind.resetSeconds >= address.resetSeconds) ? kind : address;
  return { allowed: true, state: publicState(closest) };
}

/**
 * Counts one request and decides it.
 *
 * Every request counts in its kind's read budget and in its address's ceiling across kinds
 * ({@link addressCeiling}); a referral lookup also in the referral budget. The headers report the budget closest to
 * running out (fewer remaining; on a tie the later reset), and a 429 reports the budget that ran out (if several
 * did, the one that resets later, so that honouring `Retry-After` avoids the next 429).
 * @returns the decision, at once when the store answers at once (the memory store), else a promise.
 */
export function decide(store: RateLimitStore, limits: BudgetLimits, who: RequestIdentity): Decision | Promise<Decision> {
  const spend = who.pathClass !== 'exempt';
  // A referral lookup, or a store that counts several buckets atomically (Redis): the general way.
  if (who.pathClass === 'referral' || (spend && store.hitMany)) return decideAll(store, limits, who);
  const windowMs = READ_WINDOW_SECONDS * 1000;
  const options = spend ? SPEND : READ_ONLY;
  const kindHit = store.hit(`read:${who.kind}:${who.bucket}`, windowMs, options);
  const addressHit = store.hit(`read:address:${who.bucket}`, windowMs, options);
  const kindLimit = budgetLimit(limits, 'read', who.kind);
  const ceiling = budgetLimit(limits, 'address', who.kind);
  if (isPromise(kindHit) || isPromise(addressHit)) {
    return Promise.all([kindHit, addressHit]).then(([k, a]) => decideRead(kindLimit, ceiling, spend, k, a));
  }
  return decideRead(kindLimit, ceiling, spend, kindHit, addressHit);
}

/** {@link decide} over every budget the request spends, as a list. */
async function decideAll(store: RateLimitStore, limits: BudgetLimits, who: RequestIdentity): Promise<Decision> {
  const spend = who.pathClass !== 'exempt';
  const readWindowMs = READ_WINDOW_SECONDS * 1000;
  const budgets: Array<{ name: BudgetName; key: string; windowMs: number; limit: number; windowSeconds: number }> = [
    {
      name: 'read',
      key: `read:${who.kind}:${who.bucket}`,
      windowMs: readWindowMs,
      limit: budgetLimit(limits, 'read', who.kind),
      windowSeconds: READ_WINDOW_SECONDS,
    },
    {
      name: 'address',
      key: `read:address:${who.bucket}`,
      windowMs: readWindowMs,
      limit: budgetLimit(limits, 'address', who.kind),
      windowSeconds: READ_WINDOW_SECONDS,
    },
  ];
  if (who.pathClass === 'referral') {
    budgets.push({
      name: 'referral',
      key: `referral:${who.bucket}`,
      windowMs: REFERRAL_WINDOW_SECONDS * 1000,
      limit: budgetLimit(limits, 'referral', who.kind),
      windowSeconds: REFERRAL_WINDOW_SECONDS,
    });
  }
  const hitEach = (spendNow: boolean) => Promise.all(budgets.map((b) => Promise.resolve(store.hit(b.key, b.windowMs, { spend: spendNow }))));
  const hits = spend && store.hitMany ? await store.hitMany(budgets) : await hitEach(spend);
  const states = budgets.map((b, i) => budgetState(b.name, b.limit, b.windowSeconds, hits[i]!));
  const laterReset = (a: RateLimitState, b: RateLimitState) => b.resetSeconds - a.resetSeconds;
  if (spend) {
    const exceeded = states.filter((b) => b.exceeded).sort(laterReset);
    if (exceeded.length > 0) return { allowed: false, state: publicState(exceeded[0]!), spent: exceeded[0]!.name };
  }
  const closest = states.sort((a, b) => a.remaining - b.remaining || laterReset(a, b))[0]!;
  return { allowed: true, state: publicState(closest) };
}
