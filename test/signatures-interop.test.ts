/**
 * Interoperability matrix: each known signer produces real requests to the real server (test/helpers/server.ts,
 * the wiring of `npm start`), whose agent key directory is a real loopback server. A verified request earns the
 * verified budget (`RateLimit-Policy: 480;w=60`); any other is counted by its `User-Agent` (declared, `120;w=60`).
 *
 * Signers: Cloudflare's `web-bot-auth` npm package (its default whole-field `signature-agent` coverage, the
 * `;key=` form, the string form), `http-message-sig` (the library under it), `http-message-signatures` (npm,
 * every RFC 9421 algorithm and component), and hand-built requests in the shapes OpenAI's (a bare-string
 * `Signature-Agent`) and Google's (a `g=` member) agents send, signed over a signature base written out here by
 * hand. The RFC 9421 Appendix B vectors are in signatures-rfc9421.test.ts, the draft's in
 * signatures-webbotauth-vectors.test.ts.
 */
import { generateKeyPairSync, sign as nodeSign, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignature, webcrypto as httpSigCrypto } from 'http-message-sig';
import { createSigner, httpbis } from 'http-message-signatures';
import { jwkToKeyID, signatureHeaders } from 'web-bot-auth';
import { signerFromJWK } from 'web-bot-auth/crypto';
import { startTestServer, type TestServer } from './helpers/server.js';
import { jwksHandler, startDirectoryServer, type DirectoryServer } from './fixtures/signatures/agent.js';

const UA = 'interop-agent/1.0 (+https://agent.example/bot)';
const VERIFIED = '480;w=60';
const DECLARED = '120;w=60';
const LIMITS = { RATE_LIMIT_VERIFIED: '480', RATE_LIMIT_DECLARED: '120', RATE_LIMIT_BROWSER: '120', RATE_LIMIT_ANONYMOUS: '30' };

type KeyKind = 'ed25519' | 'p256' | 'p384' | 'rsa' | 'rsa-rs256';

interface TestKey {
  privateKey: KeyObject;
  privateJwk: JsonWebKey;
  publicJwk: JsonWebKey;
  /** RFC 7638 thumbprint, computed by web-bot-auth's own dependency (not by the code under test). */
  keyid: string;
}

let srv: TestServer;
let directory: DirectoryServer;
const keys = {} as Record<KeyKind, TestKey>;
let nextClient = 1;

async function testKey(kind: KeyKind): Promise<TestKey> {
  const pair =
    kind === 'ed25519'
      ? generateKeyPairSync('ed25519')
      : kind === 'p256'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : kind === 'p384'
          ? generateKeyPairSync('ec', { namedCurve: 'P-384' })
          : generateKeyPairSync('rsa', { modulusLength: 2048 });
  const full = pair.publicKey.export({ format: 'jwk' });
  const publicJwk: JsonWebKey = kind === 'rsa-rs256' ? { ...full, alg: 'RS256' } : full;
  return {
    privateKey: pair.privateKey,
    privateJwk: pair.privateKey.export({ format: 'jwk' }),
    publicJwk,
    keyid: await jwkToKeyID(
      full,
      (b) => crypto.subtle.digest('SHA-256', b),
      (u) => Buffer.from(u).toString('base64url'),
    ),
  };
}

beforeAll(async () => {
  for (const kind of ['ed25519', 'p256', 'p384', 'rsa', 'rsa-rs256'] as const) keys[kind] = await testKey(kind);
  directory = await startDirectoryServer(jwksHandler(Object.values(keys).map((k) => k.publicJwk)));
  srv = await startTestServer({ env: { ...LIMITS, KEY_DIRECTORY_ALLOW_INSECURE: '1', TRUST_PROXY: 'loopback', ADMIN_PORT: '0' } });
});

afterAll(async () => {
  await srv?.close();
  await directory?.close();
});

const target = (path = '/v1/catalog') => `${srv.url}${path}`;
const seconds = () => Math.floor(Date.now() / 1000);
const nonce = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64');

/** Sends a GET from a fresh client address; returns the budget it was given. */
async function policyOf(headers: Record<string, string>, path = '/v1/catalog'): Promise<string | null> {
  const res = await fetch(target(path), { headers: { 'user-agent': UA, 'x-forwarded-for': `198.51.100.${nextClient++}`, ...headers } });
  await res.arrayBuffer();
  expect(res.status).toBe(200);
  return res.headers.get('ratelimit-policy');
}

/** Signs with Cloudflare's web-bot-auth npm package (Ed25519 or RSA-PSS from a private JWK). */
async function webBotAuth(
  kind: 'ed25519' | 'rsa',
  signatureAgent: string,
  options: { components?: Parameters<typeof signatureHeaders>[2]['components'] } = {},
): Promise<Record<string, string>> {
  const key = keys[kind];
  const signer = await signerFromJWK(kind === 'rsa' ? { ...key.privateJwk, alg: 'PS512' } : key.privateJwk);
  const request = new Request(target(), { headers: { 'Signature-Agent': signatureAgent } });
  const now = Date.now();
  const headers = await signatureHeaders(request, signer, { created: new Date(now), expires: new Date(now + 300_000), ...options });
  return { 'Signature-Agent': signatureAgent, ...headers };
}

/** Signs with http-message-signatures (npm): any algorithm, any covered component. */
async function httpMessageSignatures(
  kind: KeyKind,
  alg: string,
  fields: string[],
  options: { path?: string; withAlg?: boolean; withNonce?: boolean } = {},
): Promise<Record<string, string>> {
  const signatureAgent = `sig1="${directory.origin}"`;
  const key = keys[kind];
  const created = new Date();
  const signed = await httpbis.signMessage(
    {
      key: createSigner(key.privateKey, alg, key.keyid),
      fields,
      params: [
        'created',
        'expires',
        'keyid',
        ...(options.withAlg === false ? [] : ['alg']),
        ...(options.withNonce === false ? [] : ['nonce']),
        'tag',
      ],
      paramValues: { created, expires: new Date(created.getTime() + 300_000), nonce: nonce(), tag: 'web-bot-auth' },
    },
    { method: 'GET', url: target(options.path), headers: { 'signature-agent': signatureAgent } },
  );
  return signed.headers;
}

/** A request signed over a signature base written out by hand (Ed25519 with node:crypto). */
function handBuilt(signatureAgent: string, covered: [string, string][], params: string): Record<string, string> {
  const inner = `(${covered.map(([id]) => id).join(' ')});${params}`;
  const base = [...covered.map(([id, value]) => `${id}: ${value}`), `"@signature-params": ${inner}`].join('\n');
  const signature = nodeSign(null, Buffer.from(base), keys.ed25519.privateKey).toString('base64');
  return { 'Signature-Agent': signatureAgent, 'Signature-Input': `sig1=${inner}`, Signature: `sig1=:${signature}:` };
}

const authority = () => new URL(srv.url).host;
const agentMember = () => `sig1="${directory.origin}"`;
const ws = (params: Record<string, string | number>) =>
  Object.entries(params)
    .map(([k, v]) => (typeof v === 'number' ? `${k}=${v}` : `${k}="${v}"`))
    .join(';');

describe("Cloudflare's web-bot-auth (npm)", () => {
  it('default: Ed25519, dictionary Signature-Agent covered as the whole field → verified', async () => {
    const headers = await webBotAuth('ed25519', agentMember());
    expect(headers['Signature-Input']).toMatch(/^sig1=\("@authority" "signature-agent"\)/);
    expect(await policyOf(headers)).toBe(VERIFIED);
  });

  it('the ;key= form → not verified: web-bot-auth 0.1.3 signs the whole field under "signature-agent";key="sig1", not the member (RFC 9421 §2.1.2)', async () => {
    // web-bot-auth 0.1 passes components to its http-message-sig 0.2, which takes component parameters as a Map.
    const keyed = { name: 'signature-agent', parameters: new Map<string, string | boolean>([['key', 'sig1']]) };
    const headers = await webBotAuth('ed25519', agentMember(), { components: ['@authority', keyed] });
    expect(headers['Signature-Input']).toContain('"signature-agent";key="sig1"');
    expect(await policyOf(headers)).toBe(DECLARED);
    // What it signed: the line of the member's value holds the whole dictionary (`sig1="…"`), where §2.1.2 puts
    // the member's value (`"…"`). http-message-sig 0.3 (below) and http-message-signatures sign the member.
    const bases: string[] = [];
    const spy = await signerFromJWK(keys.ed25519.privateJwk);
    const recording = Object.assign(Object.create(spy) as typeof spy, { sign: (data: string) => (bases.push(data), spy.sign(data)) });
    const request = new Request(target(), { headers: { 'Signature-Agent': agentMember() } });
    await signatureHeaders(request, recording, { created: new Date(), expires: new Date(Date.now() + 60_000), components: ['@authority', keyed] });
    expect(bases[0]).toContain(`"signature-agent";key="sig1": ${agentMember()}\n`);
  });

  it('the string form: Signature-Agent: "<origin>" → verified', async () => {
    expect(await policyOf(await webBotAuth('ed25519', `"${directory.origin}"`))).toBe(VERIFIED);
  });

  it("RSA-PSS SHA-512 (its RSAPSSSHA512Signer) against an RSA key without JWK alg: the signature's alg decides → verified", async () => {
    const headers = await webBotAuth('rsa', agentMember());
    expect(headers['Signature-Input']).toContain('alg="rsa-pss-sha512"');
    expect(await policyOf(headers)).toBe(VERIFIED);
  });

  it('whole-field coverage, then a member added after signing → not verified', async () => {
    const headers = await webBotAuth('ed25519', agentMember());
    expect(await policyOf({ ...headers, 'Signature-Agent': `${agentMember()}, evil="https://evil.example"` })).toBe(DECLARED);
  });
});

describe('http-message-sig (npm)', () => {
  it('Ed25519 with "@authority" and "signature-agent";key="sig1" → verified', async () => {
    const privateKey = await crypto.subtle.importKey('jwk', keys.ed25519.privateJwk, { name: 'Ed25519' }, false, ['sign']);
    const created = seconds();
    const signatureAgent = agentMember();
    const fields = await createSignature(
      { kind: 'request', method: 'GET', targetUri: target(), fields: [{ name: 'signature-agent', value: signatureAgent }] },
      {
        label: 'sig1',
        components: ['@authority', { name: 'signature-agent', parameters: { key: 'sig1' } }],
        parameters: { created, expires: created + 300, keyid: keys.ed25519.keyid, nonce: nonce(), tag: 'web-bot-auth' },
        signer: httpSigCrypto.signer(privateKey),
      },
    );
    expect(await policyOf({ 'Signature-Agent': signatureAgent, 'Signature-Input': fields.signatureInput, Signature: fields.signature })).toBe(
      VERIFIED,
    );
  });
});

describe('http-message-signatures (npm)', () => {
  const usual = ['@method', '@authority', '@path', '"signature-agent";key="sig1"'];

  it.each([
    ['ed25519', 'ed25519'],
    ['ecdsa-p256-sha256', 'p256'],
    ['ecdsa-p384-sha384', 'p384'],
    ['rsa-v1_5-sha256', 'rsa'],
  ] as const)('%s, covering @method @authority @path and the member → verified', async (alg, kind) => {
    expect(await policyOf(await httpMessageSignatures(kind, alg, usual))).toBe(VERIFIED);
  });

  it('rsa-v1_5-sha256 without alg in the signature, against a JWK with "alg": "RS256" → verified (the key decides)', async () => {
    expect(await policyOf(await httpMessageSignatures('rsa-rs256', 'rsa-v1_5-sha256', usual, { withAlg: false }))).toBe(VERIFIED);
  });

  it('rsa-v1_5-sha256 without alg anywhere (RSA key without JWK alg) → not verified: never a guess', async () => {
    expect(await policyOf(await httpMessageSignatures('rsa', 'rsa-v1_5-sha256', usual, { withAlg: false }))).toBe(DECLARED);
  });

  it('rsa-pss-sha512 → not verified: the library signs with the largest PSS salt, RFC 9421 §3.3.1 says 64 bytes', async () => {
    expect(await policyOf(await httpMessageSignatures('rsa', 'rsa-pss-sha512', usual))).toBe(DECLARED);
  });

  it('@query-param and @request-target → verified; the same signature with another query value → not verified', async () => {
    const path = '/v1/catalog?lang=en';
    // No nonce, so the same signature may be sent twice: the second time to another query.
    const covered = ['@authority', '@request-target', '"@query-param";name="lang"', '"signature-agent";key="sig1"'];
    const headers = await httpMessageSignatures('ed25519', 'ed25519', covered, { path, withNonce: false });
    expect(await policyOf(headers, path)).toBe(VERIFIED);
    expect(await policyOf(headers, '/v1/catalog?lang=fr')).toBe(DECLARED);
  });

  it('@scheme, @query and the sf parameter → verified', async () => {
    const headers = await httpMessageSignatures('p256', 'ecdsa-p256-sha256', ['@scheme', '@authority', '@query', '"signature-agent";sf']);
    expect(await policyOf(headers)).toBe(VERIFIED);
  });
});

describe('hand-built requests', () => {
  it('OpenAI\'s shape: a bare-string Signature-Agent covered as "signature-agent", with @method and @path → verified', async () => {
    const created = seconds();
    const signatureAgent = `"${directory.origin}"`;
    const headers = handBuilt(
      signatureAgent,
      [
        ['"@authority"', authority()],
        ['"@method"', 'GET'],
        ['"@path"', '/v1/catalog'],
        ['"signature-agent"', signatureAgent],
      ],
      ws({ created, keyid: keys.ed25519.keyid, expires: created + 60, nonce: nonce(), tag: 'web-bot-auth', alg: 'ed25519' }),
    );
    expect(await policyOf(headers)).toBe(VERIFIED);
  });

  it('Google\'s shape: a g= member covered as "signature-agent";key="g" under label sig1 → verified', async () => {
    const created = seconds();
    const signatureAgent = `g="${directory.origin}"`;
    const headers = handBuilt(
      signatureAgent,
      [
        ['"@authority"', authority()],
        ['"signature-agent";key="g"', `"${directory.origin}"`],
      ],
      ws({ created, expires: created + 300, keyid: keys.ed25519.keyid, tag: 'web-bot-auth' }),
    );
    expect(await policyOf(headers)).toBe(VERIFIED);
  });

  it('the same hand-built request signed for another path than it is sent to → not verified', async () => {
    const created = seconds();
    const signatureAgent = `"${directory.origin}"`;
    const headers = handBuilt(
      signatureAgent,
      [
        ['"@authority"', authority()],
        ['"@path"', '/v1/roadmap'],
        ['"signature-agent"', signatureAgent],
      ],
      ws({ created, expires: created + 60, keyid: keys.ed25519.keyid, tag: 'web-bot-auth' }),
    );
    expect(await policyOf(headers)).toBe(DECLARED);
  });
});

describe('metrics', () => {
  it('counts every outcome above by reason: syllabus_signatures_verified_total and syllabus_signature_refusals_total{reason}', async () => {
    const scrape = await (await fetch(`${srv.server.adminUrl!}/metrics`)).text();
    const value = (line: string) =>
      Number(
        scrape
          .split('\n')
          .find((l) => l.startsWith(line))
          ?.split(' ')
          .pop(),
      );
    // 13 verified rows; 5 bad signatures (a member added, the ;key= form, PSS salt, another query, another path);
    // 1 unsupported (RSA without any alg). Every case came from its own address: no budget was involved.
    expect(value('syllabus_signatures_verified_total ')).toBe(13);
    expect(value('syllabus_signature_refusals_total{reason="bad_signature"}')).toBe(5);
    expect(value('syllabus_signature_refusals_total{reason="unsupported"}')).toBe(1);
    expect(value('syllabus_signature_refusals_total{reason="over_budget"}')).toBe(0);
    expect(value('syllabus_signature_refusals_total{reason="replayed"}')).toBe(0);
  });
});
