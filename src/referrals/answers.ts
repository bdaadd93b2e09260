/**
 * The two bodies of `/v1/referrals/{code}` (schema ReferralCheck), prepared once like every other body.
 * `Cache-Control: no-store`: a code's validity changes when the digest file does, and the URL holds the code,
 * which no shared cache should keep.
 */
import { buildRepresentation } from '../index/representation.js';
import type { ReferralAnswers } from '../http/referrals.js';

/** Builds `{"valid":true}` and `{"valid":false}`. */
export async function buildReferralAnswers(): Promise<ReferralAnswers> {
  const answer = (valid: boolean) =>
    buildRepresentation({ contentType: 'application/json', body: JSON.stringify({ valid }), cacheControl: 'no-store' });
  const [valid, invalid] = await Promise.all([answer(true), answer(false)]);
  return { valid, invalid };
}
