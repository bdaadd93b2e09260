/**
 * Fresh signatures for the verified-agent scenario: each request carries its own Ed25519 signature with a nonce
 * never sent before, so the service checks every one cryptographically (a nonce is single use, and a signature
 * with one is never served from the verified-signature cache). wrk cannot sign, so the signatures are made here
 * ahead of each run, one line per request (`Signature-Input` TAB `Signature`), and `bench/fresh-signatures.lua`
 * sends them in order.
 *
 * The covered components are the bench agent's, `@authority` and `"signature-agent";key="sig1"`; the signature
 * base is built by the service's own `signatureBase` (on `http-message-signatures`) and the `Signature-Input`
 * serialised by `structured-headers`, and the scenario's probe request checks that the service verifies the first
 * line.
 */
import { randomBytes, sign, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serializeInnerList, type BareItem, type InnerList } from 'structured-headers';
import { signatureBase } from '../../src/signatures/signature-base.js';

/** The wrk script that sends the lines of a pool. */
export const FRESH_SIGNATURES_LUA = fileURLToPath(new URL('../fresh-signatures.lua', import.meta.url));

/** What a pool needs of the bench agent. */
export interface FreshSigner {
  /** The `Signature-Agent` field value (`sig1="<origin>"`). */
  signatureAgent: string;
  keyid: string;
  privateKey: KeyObject;
}

/** The components every line covers: the target's authority and the agent's `sig1` member. */
const COVERED: InnerList[0] = [
  ['@authority', new Map<string, BareItem>()],
  ['signature-agent', new Map<string, BareItem>([['key', 'sig1']])],
];

/**
 * Writes `count` single-use signed requests to `file` (replacing it), one per line: `Signature-Input` TAB
 * `Signature`, each with a random nonce, valid for an hour from now.
 * @param targetUrl the URL the requests are sent to (its authority is signed).
 */
export function writeFreshSignatures(file: string, signer: FreshSigner, targetUrl: string, count: number): void {
  const created = Math.floor(Date.now() / 1000);
  const request = { method: 'GET', targetUri: targetUrl, field: (name: string) => (name === 'signature-agent' ? signer.signatureAgent : null) };
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const parameters = new Map<string, BareItem>([
      ['created', created],
      ['expires', created + 3600],
      ['keyid', signer.keyid],
      ['nonce', randomBytes(24).toString('base64url')],
      ['tag', 'web-bot-auth'],
    ]);
    const input: InnerList = [COVERED, parameters];
    const signature = sign(null, signatureBase(request, input), signer.privateKey).toString('base64');
    lines.push(`sig1=${serializeInnerList(input)}\tsig1=:${signature}:`);
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
}
