/**
 * A verified agent for the benchmark: an Ed25519 key, its key directory served on loopback (the service must
 * run with `KEY_DIRECTORY_ALLOW_INSECURE=1`), and one pre-signed set of header fields that stays valid for the
 * whole run. Without a nonce the same signature may be replayed until it expires, so wrk can send it unchanged;
 * the service fetches the directory on the first request and serves the rest from its cache.
 */
import { createHash, KeyObject, sign as cryptoSign, webcrypto } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createSignature, webcrypto as sigCrypto } from 'http-message-sig';

/** The loopback key directory of the benchmark agent. */
export interface BenchAgent {
  /** The agent origin, e.g. `http://127.0.0.1:41234`. */
  origin: string;
  /** JWK SHA-256 thumbprint of the public key (RFC 7638). */
  keyid: string;
  /** Directory requests served so far (the service should fetch once and cache). */
  directoryHits(): number;
  /**
   * Signs a GET of `targetUrl` (`@authority` and `signature-agent` covered, tag `web-bot-auth`), valid from now
   * for `lifetimeSeconds` (at most 24 h). Returns the header fields to send.
   */
  sign(targetUrl: string, lifetimeSeconds: number): Promise<Record<string, string>>;
  /**
   * `count` (at most 50,000) distinct signatures of a GET of `targetUrl` (as {@link BenchAgent.sign}, each with
   * another `expires` within a day), as `Signature-Input<TAB>Signature` lines for bench/fresh-signatures.lua.
   */
  signMany(targetUrl: string, count: number): Promise<string>;
  close(): Promise<void>;
}

/** Starts the key directory on 127.0.0.1 and returns a signer for its key. */
export async function startBenchAgent(): Promise<BenchAgent> {
  const { privateKey, publicKey } = (await webcrypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const { x } = await webcrypto.subtle.exportKey('jwk', publicKey);
  const keyid = createHash('sha256')
    .update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x }))
    .digest('base64url');
  const directory = JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x, kid: keyid, use: 'sig' }] });
  let hits = 0;
  const server: Server = createServer((req, res) => {
    if (req.url !== '/.well-known/http-message-signatures-directory') return void res.writeHead(404).end();
    hits++;
    res.writeHead(200, { 'Content-Type': 'application/http-message-signatures-directory+json', 'Cache-Control': 'max-age=86400' }).end(directory);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const signatureAgent = `sig1="${origin}"`;

  // node:crypto signs synchronously: tens of thousands of signatures take seconds, not minutes.
  const privateKeyObject = KeyObject.from(privateKey);
  const fastSigner = {
    algorithm: 'ed25519' as const,
    sign: (data: Uint8Array) => Promise.resolve(new Uint8Array(cryptoSign(null, data, privateKeyObject))),
  };
  const sign = async (targetUrl: string, lifetimeSeconds: number, signer: typeof fastSigner = fastSigner): Promise<Record<string, string>> => {
    const created = Math.floor(Date.now() / 1000);
    const { signature, signatureInput } = await createSignature(
      { kind: 'request', method: 'GET', targetUri: targetUrl, fields: [{ name: 'signature-agent', value: signatureAgent }] },
      {
        label: 'sig1',
        components: ['@authority', { name: 'signature-agent', parameters: { key: 'sig1' } }],
        parameters: { created, expires: created + Math.min(lifetimeSeconds, 86_400), keyid, tag: 'web-bot-auth' },
        signer,
      },
    );
    return { 'Signature-Agent': signatureAgent, 'Signature-Input': signatureInput, Signature: signature };
  };
  return {
    origin,
    keyid,
    directoryHits: () => hits,
    sign: (targetUrl, lifetimeSeconds) => sign(targetUrl, lifetimeSeconds, sigCrypto.signer(privateKey) as typeof fastSigner),
    async signMany(targetUrl, count) {
      if (count > 50_000) throw new RangeError('at most 50,000 distinct lifetimes fit under 24 h');
      const lines: string[] = [];
      for (let i = 0; i < count; i++) {
        // Lifetimes of 10 h + i seconds (under 24 h): every Signature-Input differs.
        const fields = await sign(targetUrl, 36_000 + i);
        lines.push(`${fields['Signature-Input']}\t${fields.Signature}\n`);
      }
      return lines.join('');
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
