/**
 * Why a signature was not verified, as a closed set of codes: the label values of
 * `syllabus_signature_refusals_total{reason}` and the `reason` of the debug log line. The free-text detail that
 * goes with each code is for people; these codes are for dashboards and alerts.
 */
export const REFUSAL_REASONS = [
  /** The signature fields or parameters are malformed or missing a required parameter. */
  'malformed',
  /** An algorithm, component, key type or `Signature-Agent` form this service does not accept. */
  'unsupported',
  /** Signed for another authority, or received over plain http (Web Bot Auth -01 §6.1). */
  'wrong_authority',
  /** The signature (or the key, by its JWK `exp`/`nbf`) is outside its validity window. */
  'expired',
  /** A nonce already seen within its signature's lifetime. */
  'replayed',
  /** A published test key (RFC 9421 Appendix B.1), refused by -01 §6.8. */
  'test_key',
  /** The `Signature-Agent` names no usable key directory: not a usable URL, or its answer is not a key set. */
  'no_directory',
  /** The key directory could not be fetched (network, status, size, time, or the fetch limits). */
  'fetch_failed',
  /** The directory does not publish the signature's `keyid`. */
  'unknown_key',
  /** The cryptographic check failed. */
  'bad_signature',
  /** The client address spent its budget of failed verifications; the signature was not checked. */
  'over_budget',
] as const;

/** One of {@link REFUSAL_REASONS}. */
export type RefusalReason = (typeof REFUSAL_REASONS)[number];
