/**
 * The Web Bot Auth protocol draft's published test vectors (draft-ietf-webbotauth-httpsig-protocol, appendix
 * "Test Vectors"; the dictionary-form ones also in cloudflare/web-bot-auth — fixture and sources in
 * test/fixtures/signatures/webbotauth-test-vectors.json), in both Signature-Agent forms.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDictionary, type InnerList } from 'structured-headers';
import { importKeyVerifier, type SignatureAlgorithm } from '../src/signatures/algorithms.js';
import { readDirectoryKey } from '../src/signatures/keys.js';
import { signatureBase } from '../src/signatures/signature-base.js';
import { createSignatureVerifier } from '../src/signatures/verifier.js';
import type { DirectoryFetcher } from '../src/signatures/directory-client.js';
import { publicJwk, type KeyName } from './fixtures/signatures/rfc9421.js';

interface Vector {
  section: string;
  key: KeyName;
  form: 'dictionary' | 'string';
  signatureAgent: string;
  signatureInput: string;
  signature: string;
  signatureBase: string[];
}
const FILE = JSON.parse(readFileSync(new URL('./fixtures/signatures/webbotauth-test-vectors.json', import.meta.url), 'utf8')) as {
  url: string;
  vectors: Vector[];
};
const CREATED = 1735689600;
const DIRECTORY = 'https://signature-agent.test/.well-known/http-message-signatures-directory';

function request(vector: Vector, signatureAgent = vector.signatureAgent): Request {
  return new Request(FILE.url, {
    headers: { 'signature-agent': signatureAgent, 'signature-input': vector.signatureInput, signature: vector.signature },
  });
}

/** The directory of https://signature-agent.test, served from memory: these vectors name a host that does not exist. */
function directoryOf(keys: JsonWebKey[]): DirectoryFetcher & { calls: string[] } {
  const calls: string[] = [];
  const fetcher = async (url: string) => {
    calls.push(url);
    return url === DIRECTORY
      ? { ok: true as const, status: 200 as const, headers: { 'cache-control': 'max-age=86400' }, body: JSON.stringify({ keys }) }
      : { ok: false as const, reason: 'HTTP 404' };
  };
  return Object.assign(fetcher, { calls });
}

/** A verifier with the vectors' directory, under the explicit setting that admits the published test keys. */
function verifierAt(now: number, maxLifetimeSeconds?: number, allowTestKeys = true) {
  const fetchDirectory = directoryOf([publicJwk('test-key-ed25519'), publicJwk('test-key-rsa-pss')]);
  return createSignatureVerifier({ directory: { fetchDirectory }, now: () => now, maxLifetimeSeconds, clockSkewSeconds: 30, allowTestKeys });
}

describe.each(FILE.vectors)('$section', (vector) => {
  it('reproduces the published signature base byte for byte and the signature verifies', async () => {
    const directoryKey = await readDirectoryKey(publicJwk(vector.key));
    if (!directoryKey.ok) throw new Error(directoryKey.reason);
    const signed = request(vector);
    const input = parseDictionary(vector.signatureInput).get('sig2') as InnerList;
    const [bytes] = parseDictionary(vector.signature).get('sig2') as [ArrayBuffer, unknown];
    const base = signatureBase({ method: 'GET', targetUri: signed.url, field: (name) => signed.headers.get(name) }, input);
    expect(new TextDecoder().decode(base)).toBe(vector.signatureBase.join('\n'));
    const verifier = await importKeyVerifier(directoryKey.key.jwk, read(vector).alg as SignatureAlgorithm);
    expect(await verifier.verify(base, new Uint8Array(bytes))).toBe(true);
  });

  it('is verified end to end by the Web Bot Auth verifier (keyid, directory, nonce)', async () => {
    const [, expires] = /expires=(\d+)/.exec(vector.signatureInput)!;
    const verifier = verifierAt(CREATED + 60, Number(expires) - CREATED);
    const result = await verifier.verify(request(vector), { clientAddress: '203.0.113.7' });
    expect(result).toEqual({
      verified: true,
      agent: 'https://signature-agent.test',
      directory: DIRECTORY,
      keyid: read(vector).keyid,
      algorithm: read(vector).alg,
      label: 'sig2',
    });
    // The vector carries a nonce: the same signature a second time is a replay.
    expect(await verifier.verify(request(vector), { clientAddress: '203.0.113.7' })).toMatchObject({
      verified: false,
      code: 'replayed',
      reason: 'replayed nonce',
    });
  });

  it('fails when the covered Signature-Agent value changes by one byte', async () => {
    const verifier = verifierAt(CREATED + 60, 4889289600 - CREATED);
    const changed = vector.signatureAgent.replace('https://signature-agent.test', 'https://signature-agent.test/');
    const result = await verifier.verify(request(vector, changed), { clientAddress: '203.0.113.7' });
    expect(result).toMatchObject({ verified: false, code: 'bad_signature' });
  });
});

function read(vector: Vector): { keyid: string; alg: string } {
  return {
    keyid: /keyid="([^"]+)"/.exec(vector.signatureInput)![1]!,
    alg: /alg="([^"]+)"/.exec(vector.signatureInput)![1]!,
  };
}

describe('the dictionary-form vectors under the default policy', () => {
  it('are not verified: they expire in 2124, beyond the 24-hour lifetime this service accepts', async () => {
    const verifier = verifierAt(CREATED + 60);
    for (const vector of FILE.vectors.filter((v) => v.form === 'dictionary')) {
      expect(await verifier.verify(request(vector), { clientAddress: '203.0.113.7' })).toMatchObject({
        verified: false,
        reason: 'the signature lives longer than 86400 s',
      });
    }
  });

  it('the string-form vectors (1-hour lifetime) verify under the default policy and expire an hour later', async () => {
    for (const vector of FILE.vectors.filter((v) => v.form === 'string')) {
      expect(await verifierAt(CREATED + 60).verify(request(vector), { clientAddress: '203.0.113.7' })).toMatchObject({ verified: true });
      expect(await verifierAt(CREATED + 3600 + 31).verify(request(vector), { clientAddress: '203.0.113.7' })).toMatchObject({
        verified: false,
        reason: 'the signature has expired',
      });
    }
  });

  it('refuses every vector without that setting: the published test keys are never accepted (-01 §6.8)', async () => {
    for (const vector of FILE.vectors) {
      const [, expires] = /expires=(\d+)/.exec(vector.signatureInput)!;
      const result = await verifierAt(CREATED + 60, Number(expires) - CREATED, false).verify(request(vector), { clientAddress: '203.0.113.7' });
      expect(result).toMatchObject({ verified: false, reason: 'a published test key (RFC 9421 Appendix B.1) is never accepted' });
    }
  });
});
