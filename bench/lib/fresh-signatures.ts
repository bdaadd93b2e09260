/**
 * Fresh signatures for the verified-agent scenario: each request carries its own Ed25519 signature with a nonce
 * never sent before, so the service checks every one cryptographically (a nonce is single use, and a signature
 * with one is never served from the verified-signature cache). wrk cannot sign, so the signatures are made here
 * ahead of each run, one line per request (`Signature-Input` TAB `Signature`), and `bench/fresh-signatures.lua`
 * sends them in order.
 *
 * The signature base is written out here (RFC 9421 §2.5) for the two covered components the bench agent uses,
 * `@authority` and `"signature-agent";key="sig1"`; the scenario's probe request checks that the service verifies
 * the first line, so a wrong base cannot go unnoticed.
 */
import { randomBytes, sign, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The wrk script that sends the lines of a pool. */
export const FRESH_SIGNATURES_LUA = fileURLToPath(new URL('../fresh-signatures.lua', import.meta.url));

/** What a pool needs of the bench agent. */
export interface FreshSigner {
  /** The `Signature-Agent` field value (`sig1="<origin>"`). */
  signatureAgent: string;
  keyid: string;
  privateKey: KeyObject;
}

/**
 * Writes `count` single-use signed requests to `file` (replacing it), one per line: `Signature-Input` TAB
 * `Signature`, each with a random nonce, valid for an hour from now.
 * @param authority the `@authority` the requests are sent to (`127.0.0.1:<port>`).
 */
export function writeFreshSignatures(file: string, signer: FreshSigner, authority: string, count: number): void {
  const created = Math.floor(Date.now() / 1000);
  const expires = created + 3600;
  // The member's value as RFC 9421 §2.1.2 serialises it: the sf-string of the `sig1` member.
  const member = signer.signatureAgent.slice('sig1='.length);
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const nonce = randomBytes(24).toString('base64url');
    const params = `("@authority" "signature-agent";key="sig1");created=${created};expires=${expires};keyid="${signer.keyid}";nonce="${nonce}";tag="web-bot-auth"`;
    const base = `"@authority": ${authority}\n"signature-agent";key="sig1": ${member}\n"@signature-params": ${params}`;
    lines.push(`sig1=${params}\tsig1=:${sign(null, Buffer.from(base), signer.privateKey).toString('base64')}:`);
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
}
