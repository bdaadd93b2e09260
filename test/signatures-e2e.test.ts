/**
 * Verified agents end to end: the real server (test/helpers/server.ts, same wiring as `npm start`) with
 * `KEY_DIRECTORY_ALLOW_INSECURE=1`, key directories on real loopback servers, and a client signing with a
 * freshly generated Ed25519 key through `http-message-sig`. A correct signature earns the verified budget
 * (`RateLimit-Policy: 480;w=60`); every broken one falls back to the `User-Agent` kind (declared: `120;w=60`).
 *
 * Each case comes from its own client address (`X-Forwarded-For` through `TRUST_PROXY=loopback`), so budgets
 * and the per-client limit on new directory fetches never mix between cases.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import {
  generateAgentKey,
  jwksHandler,
  signRequest,
  startDirectoryServer,
  type AgentKey,
  type DirectoryServer,
  type SignOptions,
} from './fixtures/signatures/agent.js';

const DECLARED_UA = 'e2e-agent/1.0 (+https://agent.example/bot)';
const VERIFIED_POLICY = '480;w=60';
const DECLARED_POLICY = '120;w=60';
const WELL_KNOWN = '/.well-known/http-message-signatures-directory';
const LIMITS = { RATE_LIMIT_VERIFIED: '480', RATE_LIMIT_DECLARED: '120', RATE_LIMIT_BROWSER: '120', RATE_LIMIT_ANONYMOUS: '30' };

let srv: TestServer;
let key: AgentKey;
let stranger: AgentKey;
let good: DirectoryServer;
const directories: DirectoryServer[] = [];
let nextClient = 1;

async function directory(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<DirectoryServer> {
  const d = await startDirectoryServer(handler);
  directories.push(d);
  return d;
}

beforeAll(async () => {
  [key, stranger] = await Promise.all([generateAgentKey(), generateAgentKey()]);
  good = await directory(jwksHandler([key.publicJwk], { 'cache-control': 'max-age=300' }));
  srv = await startTestServer({
    env: { ...LIMITS, KEY_DIRECTORY_ALLOW_INSECURE: '1', TRUST_PROXY: 'loopback', SIGNATURE_AUTHORITIES: 'catalog.example' },
  });
});

afterAll(async () => {
  await srv?.close();
  await Promise.all(directories.map((d) => d.close()));
});

/** Headers of a GET /v1/catalog signed with `options` (agent defaults to the good directory). */
async function signedHeaders(server: TestServer, options: Partial<SignOptions> = {}): Promise<Record<string, string>> {
  return signRequest(`${server.url}/v1/catalog`, { key, agent: good.origin, ...options });
}

/** Sends a GET /v1/catalog from a fresh client address and returns its RateLimit-Policy. */
async function policyOf(server: TestServer, headers: Record<string, string>, userAgent = DECLARED_UA): Promise<string | null> {
  const res = await fetch(`${server.url}/v1/catalog`, {
    headers: { 'user-agent': userAgent, 'x-forwarded-for': `198.51.100.${nextClient++}`, ...headers },
  });
  await res.arrayBuffer();
  expect(res.status).toBe(200);
  return res.headers.get('ratelimit-policy');
}

const now = () => Math.floor(Date.now() / 1000);

describe('a correct signature', () => {
  it('earns the verified-agent budget, and later requests verify from the cached directory', async () => {
    expect(await policyOf(srv, await signedHeaders(srv, { nonce: crypto.randomUUID() }))).toBe(VERIFIED_POLICY);
    expect(await policyOf(srv, await signedHeaders(srv, { nonce: crypto.randomUUID() }))).toBe(VERIFIED_POLICY);
    expect(await policyOf(srv, await signedHeaders(srv, { form: 'string' }))).toBe(VERIFIED_POLICY);
    expect(good.hits).toEqual([WELL_KNOWN]);
  });

  it('an unsigned request with the same User-Agent gets the declared budget', async () => {
    expect(await policyOf(srv, {})).toBe(DECLARED_POLICY);
  });
});

describe('behind a trusted proxy that terminates TLS (TRUST_PROXY=loopback)', () => {
  const publicUrl = 'https://catalog.example/v1/catalog';
  const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'catalog.example' };

  it('a signature made for the public https URL verifies, by @authority and by @target-uri', async () => {
    expect(await policyOf(srv, { ...forwarded, ...(await signedHeaders(srv, { signedUrl: publicUrl })) })).toBe(VERIFIED_POLICY);
    const targetUri = await signedHeaders(srv, {
      signedUrl: publicUrl,
      components: ['@target-uri', { name: 'signature-agent', parameters: { key: 'sig1' } }],
    });
    expect(await policyOf(srv, { ...forwarded, ...targetUri })).toBe(VERIFIED_POLICY);
  });

  it('the RFC 7239 Forwarded fields are not read while the proxies write X-Forwarded-*', async () => {
    const headers = await signedHeaders(srv, { signedUrl: publicUrl });
    expect(await policyOf(srv, { forwarded: 'proto=https;host=catalog.example', ...headers })).toBe(DECLARED_POLICY);
  });

  it('a signature made for another site, replayed here with its host, does not verify (Web Bot Auth -01 §6.1)', async () => {
    const elsewhere = await signedHeaders(srv, { signedUrl: 'https://other-site.example/v1/catalog' });
    // The proxy reports the host the signature names, so the signature base matches: only the authority check refuses it.
    expect(await policyOf(srv, { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'other-site.example', ...elsewhere })).toBe(DECLARED_POLICY);
  });

  it('a forwarded host other than the one signed does not verify', async () => {
    const headers = await signedHeaders(srv, { signedUrl: publicUrl });
    expect(await policyOf(srv, { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'other.example', ...headers })).toBe(DECLARED_POLICY);
  });
});

describe('falls back to the User-Agent kind for', () => {
  const signatureCases: [string, () => Promise<Record<string, string>>][] = [
    ['a wrong key (signed by another key under the published keyid)', () => signedHeaders(srv, { key: stranger, keyid: key.keyid })],
    ['an unknown keyid', () => signedHeaders(srv, { key: stranger })],
    ['an expired signature', () => signedHeaders(srv, { created: now() - 600, expires: now() - 120 })],
    ['a signature created in the future', () => signedHeaders(srv, { created: now() + 600, expires: now() + 900 })],
    ['a wrong tag', () => signedHeaders(srv, { tag: 'not-web-bot-auth' })],
    ['a Signature-Agent that is not covered', () => signedHeaders(srv, { components: ['@authority'] })],
    ['a signature for another authority', () => signedHeaders(srv, { signedUrl: 'http://catalog.example/v1/catalog' })],
  ];

  it.each(signatureCases)('%s', async (_name, headers) => {
    expect(await policyOf(srv, await headers())).toBe(DECLARED_POLICY);
  });

  it('a bad signature with a bare library User-Agent falls back to the anonymous budget', async () => {
    expect(await policyOf(srv, await signedHeaders(srv, { tag: 'nope' }), 'curl/8.5.0')).toBe('30;w=60');
  });

  const directoryCases: [string, (req: IncomingMessage, res: ServerResponse) => void][] = [
    ['a directory answering 404', (_q, r) => r.writeHead(404).end()],
    ['a directory answering 500', (_q, r) => r.writeHead(500).end()],
    ['a directory answering garbage', (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('}{ not json')],
    [
      'a directory too large',
      (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [key.publicJwk], pad: 'x'.repeat(70_000) })),
    ],
    [
      'a slow directory (no answer within 2 s)',
      () => {
        /* never answers */
      },
    ],
  ];

  it.each(directoryCases)('%s', async (_name, handler) => {
    const d = await directory(handler);
    expect(await policyOf(srv, await signedHeaders(srv, { agent: d.origin }))).toBe(DECLARED_POLICY);
    expect(d.hits).toEqual([WELL_KNOWN]);
  });

  it('a redirecting directory (the redirect is not followed)', async () => {
    const target = await directory(jwksHandler([key.publicJwk]));
    const d = await directory((_q, r) => r.writeHead(301, { location: `${target.origin}${WELL_KNOWN}` }).end());
    expect(await policyOf(srv, await signedHeaders(srv, { agent: d.origin }))).toBe(DECLARED_POLICY);
    expect(d.hits).toEqual([WELL_KNOWN]);
    expect(target.hits).toEqual([]);
  });

  it('a replayed nonce', async () => {
    const headers = await signedHeaders(srv, { nonce: crypto.randomUUID() });
    expect(await policyOf(srv, headers)).toBe(VERIFIED_POLICY);
    expect(await policyOf(srv, headers)).toBe(DECLARED_POLICY);
  });
});

describe('with KEY_DIRECTORY_ALLOW_INSECURE off (production)', () => {
  let prod: TestServer;
  beforeAll(async () => {
    prod = await startTestServer({ env: { ...LIMITS, TRUST_PROXY: 'loopback' } });
  });
  afterAll(async () => {
    await prod?.close();
  });

  it('a directory on a private (loopback) address is never fetched, and the request falls back', async () => {
    const d = await directory(jwksHandler([key.publicJwk]));
    const port = new URL(d.origin).port;
    expect(await policyOf(prod, await signedHeaders(prod, { agent: `https://127.0.0.1:${port}` }))).toBe(DECLARED_POLICY);
    expect(await policyOf(prod, await signedHeaders(prod, { agent: `https://localhost:${port}` }))).toBe(DECLARED_POLICY);
    expect(await policyOf(prod, await signedHeaders(prod, { agent: d.origin }))).toBe(DECLARED_POLICY);
    expect(d.hits).toEqual([]);
  });
});
