/**
 * The published test keys: RFC 9421 Appendix B.1 (whose Ed25519 and RSA-PSS keys the Web Bot Auth drafts' test
 * vectors also use). Their private halves are public, so a signature with one proves nothing: Web Bot Auth -01
 * §6.8 says a verifier must refuse them. Named here by keyid (JWK SHA-256 thumbprint, RFC 7638).
 */
export const PUBLISHED_TEST_KEYIDS: ReadonlySet<string> = new Set([
  'BHj8s0GPnMEQtkaULIM-PLgEhLBbuGUQ1vMxmBWZzEo', // test-key-rsa (B.1.1)
  'oD0HwocPBSfpNy5W3bpJeyFGY_IQ_YpqxSjQ3Yd-CLA', // test-key-rsa-pss (B.1.2)
  'ydQXMtvbsOsZyFir-Y7A8t7fKEM1gbKPvyFkdpu4fvI', // test-key-ecc-p256 (B.1.3)
  'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U', // test-key-ed25519 (B.1.4)
]);
