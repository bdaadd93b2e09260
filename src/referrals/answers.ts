/**
 * The two bodies of `/v1/referrals/{code}` (schema ReferralCheck), prepared once like every other body.
 * `Cache-Control: no-store`: a code's validity changes when the digest file does, and the URL holds the code,
 * which no shared cache should keep.
 */
import { NO_STORE } from '../contract/routes.js';
import type { IndexCodec } from '../index/codec.js';
import { buildRepresentation } from '../index/representation.js';
import type { ReferralAnswers } from '../http/referrals.js';

/** Builds `{"valid":true}` and `{"valid":false}`. */
export async function buildReferralAnswers(codec: IndexCodec): Promise<ReferralAnswers> {
  const answer = (valid: boolean) =>
    buildRepresentation(codec, { contentType: 'application/json', body: JSON.stringify({ valid }), cacheControl: NO_STORE });
  const [valid, invalid] = await Promise.all([answer(true), answer(false)]);
  return { valid, invalid };
}
