/**
 * The Web Bot Auth verification policy, case by case, with freshly generated keys signed by `http-message-sig`.
 * The directory is served from memory here (the transport is tested against a real server in
 * signatures-directory.test.ts).
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createSignatureVerifier, type SignatureVerifierOptions } from '../src/signatures/verifier.js';
import type { FetchedDirectory } from '../src/signatures/directory-client.js';
import type { NonceStore } from '../src/signatures/nonce-store.js';
import { generateAgentKey, signRequest, type AgentKey, type SignOptions } from './fixtures/signatures/agent.js';

const AGENT = 'https://agent.example';
const DIRECTORY = `${AGENT}/.well-known/http-message-signatures-directory`;
const URL_ = 'https://catalog.example/v1/catalog';
const CLIENT = { clientAddress: '198.51.100.20' };

let ed: AgentKey;
let other: AgentKey;
let pss: AgentKey;
let ecdsa: AgentKey;

beforeAll(async () => {
  [ed, other, pss, ecdsa] = await Promise.all([
    generateAgentKey('ed25519'),
    generateAgentKey('ed25519'),
    generateAgentKey('rsa-pss-sha512'),
    generateAgentKey('ecdsa-p256-sha256'),
  ]);
});

function verifier(options: Partial<SignatureVerifierOptions> = {}, directory?: (url: string) => FetchedDirectory) {
  const calls: string[] = [];
  const fetchDirectory = async (url: string): Promise<FetchedDirectory> => {
    calls.push(url);
    if (directory !== undefined) return directory(url);
    return url === DIRECTORY
      ? { ok: true, status: 200, headers: {}, body: JSON.stringify({ keys: [ed.publicJwk, pss.publicJwk, ecdsa.publicJwk] }) }
      : { ok: false, reason: 'HTTP 404' };
  };
  return Object.assign(createSignatureVerifier({ directory: { fetchDirectory }, ...options }), { calls });
}

async function signed(options: Partial<SignOptions> = {}, url = URL_, extra: Record<string, string> = {}): Promise<Request> {
  const headers = await signRequest(url, { key: ed, agent: AGENT, ...options });
  return new Request(url, { headers: { ...headers, ...extra } });
}

const now = () => Math.floor(Date.now() / 1000);

describe('a correct signature', () => {
  it.each(['ed25519', 'rsa-pss-sha512', 'ecdsa-p256-sha256'] as const)('verifies with %s', async (alg) => {
    const key = { ed25519: ed, 'rsa-pss-sha512': pss, 'ecdsa-p256-sha256': ecdsa }[alg];
    const result = await verifier().verify(await signed({ key, alg }), CLIENT);
    expect(result).toEqual({ verified: true, agent: AGENT, directory: DIRECTORY, keyid: key.keyid, algorithm: alg, label: 'sig1' });
  });

  it('verifies without "alg" (the key decides), in the string form of Signature-Agent, and covering @target-uri instead of @authority', async () => {
    const v = verifier();
    expect(await v.verify(await signed(), CLIENT)).toMatchObject({ verified: true });
    expect(await v.verify(await signed({ form: 'string' }), CLIENT)).toMatchObject({ verified: true });
    const targetUri = await signed({ components: ['@target-uri', { name: 'signature-agent', parameters: { key: 'sig1' } }] });
    expect(await v.verify(targetUri, CLIENT)).toMatchObject({ verified: true });
  });

  it('verifies a dictionary member under another key than the label when it is the one covered (as in the draft vectors)', async () => {
    expect(await verifier().verify(await signed({ memberKey: 'agent2' }), CLIENT)).toMatchObject({ verified: true });
  });

  it('verifies a dictionary-form Signature-Agent covered as the whole field (web-bot-auth npm default, RFC 9421 §2.1)', async () => {
    const v = verifier();
    const whole = await signed({ components: ['@authority', 'signature-agent'] });
    expect(await v.verify(whole, CLIENT)).toMatchObject({ verified: true, agent: AGENT });
    // Only member, under another key than the label: still the one whole-field coverage protects.
    expect(await v.verify(await signed({ memberKey: 'agent2', components: ['@authority', 'signature-agent'] }), CLIENT)).toMatchObject({
      verified: true,
    });
    // The covered value is the whole field: changing any member after signing breaks the signature.
    const headers = Object.fromEntries(whole.headers);
    const tampered = new Request(URL_, { headers: { ...headers, 'signature-agent': `${headers['signature-agent']}, other="https://evil.example"` } });
    expect(await v.verify(tampered, CLIENT)).toMatchObject({ verified: false });
  });

  it('verifies a Signature-Agent that ends in "/" (an origin with an empty path)', async () => {
    expect(await verifier().verify(await signed({ agent: `${AGENT}/` }), CLIENT)).toMatchObject({ verified: true, agent: AGENT });
  });

  it('tolerates created up to the clock skew in the future, and honours a configured skew', async () => {
    expect(await verifier().verify(await signed({ created: now() + 20 }), CLIENT)).toMatchObject({ verified: true });
    expect(await verifier({ clockSkewSeconds: 0 }).verify(await signed({ created: now() + 20 }), CLIENT)).toMatchObject({
      verified: false,
      reason: 'the signature was created in the future',
    });
  });

  it('finds the web-bot-auth signature among others', async () => {
    const other1 = await signRequest(URL_, { key: other, agent: AGENT, label: 'other', tag: 'something-else' });
    const mine = await signRequest(URL_, { key: ed, agent: AGENT, label: 'sig1' });
    const request = new Request(URL_, {
      headers: {
        'signature-agent': mine['signature-agent']!,
        'signature-input': `${other1['signature-input']}, ${mine['signature-input']}`,
        signature: `${other1.signature}, ${mine.signature}`,
      },
    });
    expect(await verifier().verify(request, CLIENT)).toMatchObject({ verified: true, label: 'sig1' });
  });
});

describe('@authority (RFC 9421 §2.2.3)', () => {
  it('is compared lowercased and without the default port', async () => {
    const request = await signed({ signedUrl: 'https://catalog.example/v1/catalog' }, 'https://CATALOG.example:443/v1/catalog');
    expect(await verifier().verify(request, CLIENT)).toMatchObject({ verified: true });
  });

  it('keeps a non-default port: a signature for :8443 does not verify on :443', async () => {
    const request = await signed({ signedUrl: 'https://catalog.example:8443/v1/catalog' });
    expect(await verifier().verify(request, CLIENT)).toMatchObject({ verified: false, code: 'bad_signature' });
  });

  it('behind a proxy: verifies against the authority the app passes, not the internal Host', async () => {
    const request = await signed({ signedUrl: 'https://catalog.example/v1/catalog' }, 'http://10.0.0.5:8080/v1/catalog');
    expect(await verifier().verify(request, CLIENT)).toMatchObject({ verified: false });
    expect(await verifier().verify(request, { ...CLIENT, url: 'https://catalog.example/v1/catalog' })).toMatchObject({ verified: true });
    expect(await verifier().verify(request, { ...CLIENT, authority: 'catalog.example' })).toMatchObject({ verified: false }); // http: keeps its scheme
    const httpsInternal = await signed({ signedUrl: 'https://catalog.example/v1/catalog' }, 'https://10.0.0.5/v1/catalog');
    expect(await verifier().verify(httpsInternal, { ...CLIENT, authority: 'catalog.example' })).toMatchObject({ verified: true });
  });

  it('judges a target once while requests ask for the same URL, and anew for another URL or authority', async () => {
    const judged: string[] = [];
    const v = verifier({
      targetProblem: (target) => {
        judged.push(target.href);
        return target.host === 'catalog.example' ? undefined : `the signature is for ${target.host}`;
      },
    });
    const internal = 'http://10.0.0.5:8080/v1/catalog';
    const asked = async (url: string, context: { url?: string; authority?: string } = {}) =>
      v.verify(await signed({ signedUrl: 'https://catalog.example/v1/catalog' }, url), { ...CLIENT, ...context });
    expect(await asked(URL_)).toMatchObject({ verified: true });
    expect(await asked(URL_)).toMatchObject({ verified: true });
    expect(judged).toEqual([URL_]);
    expect(await asked('https://other.example/v1/catalog')).toMatchObject({ verified: false, code: 'wrong_authority' });
    expect(await asked('https://other.example/v1/catalog')).toMatchObject({ verified: false, code: 'wrong_authority' });
    expect(await asked(internal, { url: URL_ })).toMatchObject({ verified: true });
    expect(await asked(internal, { url: URL_, authority: 'evil.example' })).toMatchObject({ verified: false, code: 'wrong_authority' });
    expect(await asked(URL_)).toMatchObject({ verified: true });
    expect(judged).toEqual([URL_, 'https://other.example/v1/catalog', URL_, 'https://evil.example/v1/catalog', URL_]);
  });

  it('an authority that is not host[:port] is a reason, not an exception', async () => {
    expect(await verifier().verify(await signed(), { ...CLIENT, authority: 'evil.example/path@x' })).toMatchObject({
      verified: false,
      reason: 'the authority is not a host[:port]',
    });
  });
});

describe('falls back (verified: false with a reason) for', () => {
  const cases: [string, () => Promise<Request>, string | RegExp, Partial<SignatureVerifierOptions>?][] = [
    ['no signature at all', async () => new Request(URL_), 'unsigned request'],
    ['a signature made with another key', async () => signed({ key: other, keyid: ed.keyid }), /does not verify/],
    ['a keyid not in the directory', async () => signed({ key: other }), 'keyid is not in the key directory'],
    ['a keyid that is not a thumbprint', async () => signed({ keyid: 'test-key-ed25519' }), '"keyid" is not a JWK SHA-256 thumbprint'],
    ['an expired signature', async () => signed({ created: now() - 600, expires: now() - 60 }), 'the signature has expired'],
    ['created in the future', async () => signed({ created: now() + 600 }), 'the signature was created in the future'],
    ['no expires', async () => signed({ expires: null }), 'no integer "expires" parameter'],
    ['expires not after created', async () => signed({ created: now(), expires: now() }), '"expires" is not after "created"'],
    ['a lifetime over 24 hours', async () => signed({ created: now(), expires: now() + 86_401 }), 'the signature lives longer than 86400 s'],
    ['a wrong tag', async () => signed({ tag: 'web-bot-auth-x' }), 'no signature tagged web-bot-auth'],
    ['no tag', async () => signed({ tag: null }), 'no signature tagged web-bot-auth'],
    ['Signature-Agent not covered', async () => signed({ components: ['@authority'] }), 'Signature-Agent is not covered by the signature'],
    [
      'string-form Signature-Agent covered as a dictionary member',
      async () => {
        const r = await signed();
        const h = new Headers(r.headers);
        h.set('signature-agent', `"${AGENT}"`);
        return new Request(URL_, { headers: h });
      },
      'the string-form Signature-Agent is not covered as "signature-agent"',
    ],
    [
      'neither @authority nor @target-uri covered',
      async () => signed({ components: [{ name: 'signature-agent', parameters: { key: 'sig1' } }] }),
      'the signature covers neither @authority nor @target-uri',
    ],
    ['an alg that does not match the key', async () => signed({ alg: 'rsa-pss-sha512' }), '"alg" "rsa-pss-sha512" does not fit the key (ed25519)'],
    ['an HMAC alg', async () => signed({ alg: 'hmac-sha256' }), 'HMAC signatures are refused'],
    ['an unknown alg', async () => signed({ alg: 'rsa-v1_5-sha1' }), 'unsupported algorithm "rsa-v1_5-sha1"'],
    ['an http:// agent (without the insecure switch)', async () => signed({ agent: 'http://agent.example' }), 'the Signature-Agent URL is not https'],
    ['an agent URL with a path whose key set is missing', async () => signed({ agent: `${AGENT}/keys.json` }), 'key directory unavailable: HTTP 404'],
    ['an agent URL with credentials', async () => signed({ agent: 'https://user:pw@agent.example' }), 'the Signature-Agent URL carries credentials'],
    ['an agent URL with a fragment', async () => signed({ agent: `${AGENT}/keys.json#k` }), 'the Signature-Agent URL carries a fragment'],
    [
      'a Signature-Agent member with parameters (-01 §5.2.1: ignored), even the old type=directory',
      async () => {
        const r = await signed();
        const h = new Headers(r.headers);
        h.set('signature-agent', `sig1="${AGENT}";type=directory`);
        return new Request(URL_, { headers: h });
      },
      'the Signature-Agent member carries parameters (type): ignored',
    ],
    ['a directory that does not exist', async () => signed({ agent: 'https://nowhere.example' }), 'key directory unavailable: HTTP 404'],
  ];

  it.each(cases)('%s', async (_name, make, reason, options) => {
    const result = await verifier(options).verify(await make(), CLIENT);
    expect(result.verified).toBe(false);
    if (!result.verified) {
      if (typeof reason === 'string') expect(result.reason).toBe(reason);
      else expect(result.reason).toMatch(reason);
    }
  });

  it('hostile header values never throw', async () => {
    const v = verifier();
    const junk = ['', '=', 'sig1=', 'sig1=(', 'sig1=("@authority";key=1)', '\u00e9', 'a'.repeat(10_000), 'sig1=("@x y");tag="web-bot-auth"'];
    for (const value of junk) {
      for (const name of ['signature-input', 'signature', 'signature-agent']) {
        const base = await signed();
        const headers = new Headers(base.headers);
        try {
          headers.set(name, value);
        } catch {
          continue; // not even a valid header value for fetch
        }
        const result = await v.verify(new Request(URL_, { headers }), CLIENT);
        expect(result.verified).toBe(false);
      }
    }
    const odd = new Headers({
      'signature-input': 'sig1=("@authority" "x y" "signature-agent";key="sig1");created=1;expires=2;keyid="k";tag="web-bot-auth"',
      signature: 'sig1=:AAAA:',
      'signature-agent': `sig1="${AGENT}"`,
    });
    expect(await v.verify(new Request(URL_, { headers: odd }), CLIENT)).toMatchObject({ verified: false });
  });
});

describe('nonce', () => {
  it('a replay of the same keyid and nonce is not verified; another nonce is', async () => {
    const v = verifier();
    const request = await signed({ nonce: 'n-1' });
    expect(await v.verify(request, CLIENT)).toMatchObject({ verified: true });
    expect(await v.verify(request.clone(), CLIENT)).toMatchObject({ verified: false, code: 'replayed', reason: 'replayed nonce' });
    expect(await v.verify(await signed({ nonce: 'n-2' }), CLIENT)).toMatchObject({ verified: true });
  });

  it('of two concurrent requests with the same nonce, exactly one is verified', async () => {
    const v = verifier();
    const request = await signed({ nonce: 'concurrent' });
    const results = await Promise.all([v.verify(request, CLIENT), v.verify(request.clone(), CLIENT), v.verify(request.clone(), CLIENT)]);
    expect(results.filter((r) => r.verified)).toHaveLength(1);
  });

  it('a failed signature does not burn the nonce of the real one', async () => {
    const v = verifier();
    expect(await v.verify(await signed({ nonce: 'shared', key: other, keyid: ed.keyid }), CLIENT)).toMatchObject({ verified: false });
    expect(await v.verify(await signed({ nonce: 'shared' }), CLIENT)).toMatchObject({ verified: true });
  });

  it('an injected store: its pre-check runs before any fetch, and it records only verified pairs, for their remaining lifetime plus the skew', async () => {
    const t = now();
    const records: Array<[string, string, number]> = [];
    const store: NonceStore = {
      has: (_keyid, nonce) => nonce === 'known',
      record: (keyid, nonce, ttlSeconds) => {
        records.push([keyid, nonce, ttlSeconds]);
        return Promise.resolve(nonce !== 'elsewhere');
      },
    };
    const v = verifier({ nonceStore: store, now: () => t, clockSkewSeconds: 30 });
    // Known to the pre-check: refused before the directory is fetched.
    expect(await v.verify(await signed({ nonce: 'known' }), CLIENT)).toMatchObject({ verified: false, code: 'replayed' });
    expect(v.calls).toEqual([]);
    // A forged signature never reaches the store.
    expect(await v.verify(await signed({ nonce: 'fresh', key: other, keyid: ed.keyid }), CLIENT)).toMatchObject({ code: 'bad_signature' });
    expect(records).toEqual([]);
    // Created 100 s ago, expires in 200 s: kept 200 + 30 s.
    expect(await v.verify(await signed({ nonce: 'fresh', created: t - 100, expires: t + 200 }), CLIENT)).toMatchObject({ verified: true });
    expect(records).toEqual([[ed.keyid, 'fresh', 230]]);
    // The store's answer decides: already recorded (e.g. by another instance) is a replay.
    expect(await v.verify(await signed({ nonce: 'elsewhere' }), CLIENT)).toMatchObject({ verified: false, code: 'replayed' });
  });

  it('signatures without a nonce may be repeated until they expire', async () => {
    const v = verifier();
    const request = await signed();
    expect(await v.verify(request, CLIENT)).toMatchObject({ verified: true });
    expect(await v.verify(request.clone(), CLIENT)).toMatchObject({ verified: true });
  });
});

describe('directory cache', () => {
  it('fetches a directory once for many verifications, and imports each key once', async () => {
    const v = verifier();
    const requests = await Promise.all(Array.from({ length: 20 }, () => signed()));
    const results = await Promise.all(requests.map((r) => v.verify(r, CLIENT)));
    expect(results.every((r) => r.verified)).toBe(true);
    expect(v.calls).toEqual([DIRECTORY]);
  });

  it('keys directories by URL: a key published by one agent does not verify for another', async () => {
    const v = verifier({}, (url) =>
      url === DIRECTORY
        ? { ok: true, status: 200, headers: {}, body: JSON.stringify({ keys: [ed.publicJwk] }) }
        : { ok: true, status: 200, headers: {}, body: JSON.stringify({ keys: [] }) },
    );
    expect(await v.verify(await signed(), CLIENT)).toMatchObject({ verified: true });
    expect(await v.verify(await signed({ agent: 'https://impostor.example' }), CLIENT)).toMatchObject({
      verified: false,
      reason: 'keyid is not in the key directory',
    });
  });
});

describe('verified-signature cache', () => {
  it('checks a reused signature cryptographically once, but re-checks time, directory and authority every time', async () => {
    let keys = [ed.publicJwk];
    const c = { t: now() };
    const v = verifier({ now: () => c.t }, (url) =>
      url === DIRECTORY
        ? { ok: true, status: 200, headers: { 'cache-control': 'max-age=60' }, body: JSON.stringify({ keys }) }
        : { ok: false, reason: 'HTTP 404' },
    );
    const spy = vi.spyOn(crypto.subtle, 'verify');
    try {
      const request = await signed({ created: c.t, expires: c.t + 600 });
      expect(await v.verify(request, CLIENT)).toMatchObject({ verified: true });
      const first = spy.mock.calls.length;
      expect(await v.verify(request.clone(), CLIENT)).toMatchObject({ verified: true });
      expect(spy.mock.calls.length).toBe(first);
      // The same headers sent to another authority are a different message.
      const elsewhere = new Request('https://elsewhere.example/v1/catalog', { headers: request.headers });
      expect(await v.verify(elsewhere, CLIENT)).toMatchObject({ verified: false, code: 'bad_signature' });
      // A key removed from the directory stops verifying once the directory is refetched.
      keys = [];
      c.t += 61;
      expect(await v.verify(request.clone(), CLIENT)).toMatchObject({
        verified: false,
        code: 'unknown_key',
        reason: 'keyid is not in the key directory',
      });
      // And an expired signature is refused whatever was cached.
      keys = [ed.publicJwk];
      c.t += 600;
      expect(await v.verify(request.clone(), CLIENT)).toMatchObject({ verified: false, code: 'expired', reason: 'the signature has expired' });
    } finally {
      spy.mockRestore();
    }
  });

  it('keeps no success of a signature with a nonce (single use): only its nonce record refuses a replay', async () => {
    // A store that records every pair as new stands for one that lost its records.
    const forgetful: NonceStore = { record: () => Promise.resolve(true) };
    const v = verifier({ nonceStore: forgetful });
    const spy = vi.spyOn(crypto.subtle, 'verify');
    try {
      const request = await signed({ nonce: 'once' });
      expect(await v.verify(request, CLIENT)).toMatchObject({ verified: true });
      const first = spy.mock.calls.length;
      expect(await v.verify(request.clone(), CLIENT)).toMatchObject({ verified: true });
      expect(spy.mock.calls.length).toBe(first + 1);
      // Its failure is kept: the same bad signature with a nonce is checked once.
      const bad = await signed({ nonce: 'bad', key: other, keyid: ed.keyid });
      expect(await v.verify(bad, CLIENT)).toMatchObject({ code: 'bad_signature' });
      const afterBad = spy.mock.calls.length;
      expect(await v.verify(bad.clone(), CLIENT)).toMatchObject({ code: 'bad_signature' });
      expect(spy.mock.calls.length).toBe(afterBad);
    } finally {
      spy.mockRestore();
    }
  });

  it('can be turned off', async () => {
    const v = verifier({ verifiedCacheSize: 0 });
    const spy = vi.spyOn(crypto.subtle, 'verify');
    try {
      const request = await signed();
      await v.verify(request, CLIENT);
      const first = spy.mock.calls.length;
      expect(await v.verify(request.clone(), CLIENT)).toMatchObject({ verified: true });
      expect(spy.mock.calls.length).toBe(first + 1);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('bad signatures cost little (a denial-of-service lever otherwise)', () => {
  /** Counts public-key operations while `run` runs. */
  async function keyOperations(run: () => Promise<void>): Promise<number> {
    const spy = vi.spyOn(crypto.subtle, 'verify');
    try {
      await run();
      return spy.mock.calls.length;
    } finally {
      spy.mockRestore();
    }
  }
  /** A signature by another key under `ed`'s keyid, made unique by its nonce. */
  const garbage = () => signed({ key: other, keyid: ed.keyid, nonce: crypto.randomUUID() });

  it('one client address gets 10 failed signed requests a minute, then its signatures are ignored until the minute ends; other addresses are not affected', async () => {
    const c = { t: now() };
    const v = verifier({ now: () => c.t });
    const results: string[] = [];
    const operations = await keyOperations(async () => {
      for (let i = 0; i < 12; i++) results.push(((await v.verify(await garbage(), CLIENT)) as { code: string }).code);
    });
    expect(results).toEqual([...Array<string>(10).fill('bad_signature'), 'over_budget', 'over_budget']);
    expect(operations).toBe(10);
    // The same /64 is one client; another address is checked.
    expect(await v.verify(await garbage(), { clientAddress: '198.51.100.21' })).toMatchObject({ code: 'bad_signature' });
    c.t += 61;
    expect(await v.verify(await garbage(), CLIENT)).toMatchObject({ code: 'bad_signature' });
  });

  it('failures of any kind count (an unknown keyid costs no public-key operation, but a lookup each time)', async () => {
    const v = verifier();
    const codes: string[] = [];
    for (let i = 0; i < 11; i++)
      codes.push(((await v.verify(await signed({ key: other, nonce: crypto.randomUUID() }), CLIENT)) as { code: string }).code);
    expect(codes).toEqual([...Array<string>(10).fill('unknown_key'), 'over_budget']);
  });

  it('signatures that verify spend nothing: an agent never runs out, and its own bad ones still have their allowance', async () => {
    const v = verifier();
    for (let i = 0; i < 30; i++) expect(await v.verify(await signed({ nonce: crypto.randomUUID() }), CLIENT)).toMatchObject({ verified: true });
    expect(await v.verify(await garbage(), CLIENT)).toMatchObject({ code: 'bad_signature' });
  });

  it('the same bad signature is checked once, from whichever address it comes', async () => {
    const v = verifier();
    const request = await signed({ key: other, keyid: ed.keyid });
    const operations = await keyOperations(async () => {
      for (let i = 1; i <= 5; i++)
        expect(await v.verify(request.clone(), { clientAddress: `203.0.113.${i}` })).toMatchObject({ code: 'bad_signature' });
    });
    expect(operations).toBe(1);
  });

  it('several signatures in one request cost one public-key operation', async () => {
    const v = verifier();
    const first = await signed({ key: other, keyid: ed.keyid, label: 'sig1' });
    const second = await signed({ key: other, keyid: ed.keyid, label: 'sig2', nonce: 'n2' });
    const headers = new Headers(first.headers);
    headers.set('signature-agent', `${first.headers.get('signature-agent')!}, ${second.headers.get('signature-agent')!}`);
    headers.set('signature-input', `${first.headers.get('signature-input')!}, ${second.headers.get('signature-input')!}`);
    headers.set('signature', `${first.headers.get('signature')!}, ${second.headers.get('signature')!}`);
    let result: unknown;
    const operations = await keyOperations(async () => {
      result = await v.verify(new Request(URL_, { headers }), CLIENT);
    });
    expect(operations).toBe(1);
    expect(result).toMatchObject({ verified: false, reason: expect.stringContaining('sig2: one public-key operation per request') });
  });

  it('the whole process runs a bounded number of failed checks a second, whoever sends them', async () => {
    const c = { t: now() };
    const v = verifier({ now: () => c.t, failedChecksPerSecond: 3 });
    const codes: string[] = [];
    for (let i = 1; i <= 5; i++) codes.push(((await v.verify(await garbage(), { clientAddress: `203.0.113.${i}` })) as { code: string }).code);
    expect(codes).toEqual(['bad_signature', 'bad_signature', 'bad_signature', 'over_budget', 'over_budget']);
    c.t += 1;
    expect(await v.verify(await garbage(), { clientAddress: '203.0.113.9' })).toMatchObject({ code: 'bad_signature' });
  });

  it('RSA keys above 4096 bits are not read from a directory (their checks cost too much)', async () => {
    const { readDirectoryKey } = await import('../src/signatures/keys.js');
    const modulus = (bits: number) => {
      const bytes = crypto.getRandomValues(new Uint8Array(bits / 8));
      bytes[0]! |= 0x80;
      return Buffer.from(bytes).toString('base64url');
    };
    expect(await readDirectoryKey({ kty: 'RSA', e: 'AQAB', n: modulus(4096) })).toMatchObject({ ok: true });
    expect(await readDirectoryKey({ kty: 'RSA', e: 'AQAB', n: modulus(4104) })).toMatchObject({ ok: false, reason: 'RSA modulus of 4104 bits' });
    expect(await readDirectoryKey({ kty: 'RSA', e: 'AQAB', n: modulus(8192) })).toMatchObject({
      ok: false,
      reason: 'RSA modulus of more than 4096 bits',
    });
  });
});
