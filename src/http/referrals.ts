/**
 * What the referral route needs from the referral store: a yes/no answer for a decoded, already validated
 * code, and the two precomputed answers. How codes are stored (SHA-256 digests in a file, reloaded on change)
 * is the store's concern (`src/referrals/`); the answer never identifies the owner.
 */
import type { Representation } from '../index/types.js';

/** Answers whether a referral code is valid. */
export interface ReferralLookup {
  /** @param code a code that passed validation (4–64 of `[A-Za-z0-9_-]`). */
  isValid(code: string): boolean | Promise<boolean>;
}

/** The two possible 200 bodies, `{"valid":true}` and `{"valid":false}`, prepared once. */
export interface ReferralAnswers {
  valid: Representation;
  invalid: Representation;
}
