/**
 * The key-directory client against real HTTP servers on 127.0.0.1 (with the insecure-directory switch on, as
 * in tests and local development), and its refusals with the switch off.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedFetcher, createNodeSignatureVerifier, type NodeSignatureVerifierOptions } from '../src/signatures/index.js';
import {
  generateAgentKey,
  jwksHandler,
  signRequest,
  startDirectoryServer,
  type AgentKey,
  type DirectoryServer,
} from './fixtures/signatures/agent.js';

/** V8's collector, exposed at run time (the test process was not started with --expose-gc). */
function exposedGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

const URL_ = 'https://catalog.example/v1/catalog';
const CLIENT = { clientAddress: '198.51.100.20' };
const WELL_KNOWN = '/.well-known/http-message-signatures-directory';

let key: AgentKey;
const servers: DirectoryServer[] = [];

async function server(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<DirectoryServer> {
  const s = await startDirectoryServer(handler);
  servers.push(s);
  return s;
}

beforeAll(async () => {
  key = await generateAgentKey();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** A clock the test moves; signatures are made at its current time. */
function clock(start = Math.floor(Date.now() / 1000)) {
  let t = start;
  return { now: () => t, advance: (s: number) => (t += s) };
}

function insecure(options: Partial<NodeSignatureVerifierOptions> = {}) {
  return createNodeSignatureVerifier({ allowInsecureDirectories: true, ...options });
}

async function request(agent: string, created?: number, extra: Partial<Parameters<typeof signRequest>[1]> = {}) {
  return new Request(URL_, { headers: await signRequest(URL_, { key, agent, created, ...extra }) });
}

describe('a directory on loopback (KEY_DIRECTORY_ALLOW_INSECURE on)', () => {
  it('reports each fetch result (for the metrics): ok for a key set, error for anything else', async () => {
    const results: string[] = [];
    const good = await server(jwksHandler([key.publicJwk]));
    const broken = await server((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('not json'));
    const verifier = insecure({ directory: { onFetch: (result) => results.push(result) } });
    await verifier.verify(await request(good.origin), CLIENT);
    await verifier.verify(await request(good.origin), CLIENT); // cached: no fetch
    await verifier.verify(await request(broken.origin), CLIENT);
    expect(results).toEqual(['ok', 'error']);
  });

  it('verifies against a good directory, requested at the well-known path with the directory media type', async () => {
    let accept: string | undefined;
    const good = await server((req, res) => {
      accept = req.headers.accept;
      jwksHandler([key.publicJwk])(req, res);
    });
    expect(await insecure().verify(await request(good.origin), CLIENT)).toMatchObject({ verified: true, agent: good.origin });
    expect(good.hits).toEqual([WELL_KNOWN]);
    expect(accept).toContain('application/http-message-signatures-directory+json');
  });

  it('fetches a key-set URL with a path as given, query included (-01 §5.5); the agent is that URL without the query', async () => {
    const s = await server((req, res) => (req.url === '/keys/jwks.json?v=1' ? jwksHandler([key.publicJwk])(req, res) : res.writeHead(404).end()));
    expect(await insecure().verify(await request(`${s.origin}/keys/jwks.json?v=1`), CLIENT)).toMatchObject({
      verified: true,
      agent: `${s.origin}/keys/jwks.json`,
      directory: `${s.origin}/keys/jwks.json?v=1`,
    });
    expect(s.hits).toEqual(['/keys/jwks.json?v=1']);
  });

  it('accepts application/json too', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ keys: [key.publicJwk] }));
    });
    expect(await insecure().verify(await request(s.origin), CLIENT)).toMatchObject({ verified: true });
  });

  const failures: [string, (req: IncomingMessage, res: ServerResponse) => void, string][] = [
    ['404', (_q, r) => r.writeHead(404).end('not here'), 'key directory unavailable: HTTP 404'],
    ['500', (_q, r) => r.writeHead(500).end('boom'), 'key directory unavailable: HTTP 500'],
    [
      'garbage',
      (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{"keys": [ nope'),
      'key directory unavailable: the directory is not JSON',
    ],
    [
      'JSON that is not a JWKS',
      (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{"kty":"OKP"}'),
      'key directory unavailable: the directory is neither a JWK Set ("keys") nor a Signature Agent Card ("jwks", "jwks_uri")',
    ],
    [
      'an HTML page',
      (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'),
      'key directory unavailable: unexpected content type "text/html"',
    ],
    [
      'a declared body over 64 KiB',
      (_q, r) => r.writeHead(200, { 'content-type': 'application/json', 'content-length': String(70_000) }).end('x'.repeat(70_000)),
      'key directory unavailable: body larger than 65536 bytes',
    ],
    [
      'a streamed body over 64 KiB (no Content-Length)',
      (_q, r) => {
        r.writeHead(200, { 'content-type': 'application/json' });
        const chunk = ' '.repeat(16_384);
        let sent = 0;
        const more = () => {
          if (sent++ > 64 || r.destroyed) return r.end();
          r.write(chunk, more);
        };
        more();
      },
      'key directory unavailable: body larger than 65536 bytes',
    ],
    [
      'a compressed body',
      (_q, r) => r.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end('x'),
      'key directory unavailable: content coding "gzip" refused',
    ],
    [
      'more than 64 keys',
      (_q, r) =>
        r.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: Array.from({ length: 65 }, () => key.publicJwk) })),
      'key directory unavailable: the directory holds more than 64 keys',
    ],
  ];

  it.each(failures)('falls back for %s', async (_name, handler, reason) => {
    const s = await server(handler);
    expect(await insecure().verify(await request(s.origin), CLIENT)).toMatchObject({ verified: false, reason });
  });

  it('does not follow a redirect, not even to a good directory', async () => {
    const good = await server(jwksHandler([key.publicJwk]));
    const redirecting = await server((_q, r) => r.writeHead(302, { location: `${good.origin}${WELL_KNOWN}` }).end());
    expect(await insecure().verify(await request(redirecting.origin), CLIENT)).toMatchObject({
      verified: false,
      reason: 'key directory unavailable: redirect refused (HTTP 302)',
    });
    expect(good.hits).toEqual([]);
  });

  it('gives up on a directory that does not answer within the total deadline (2 s by default)', async () => {
    const slow = await server(() => {
      /* never answers */
    });
    expect(await insecure().verify(await request(slow.origin), CLIENT)).toMatchObject({
      verified: false,
      code: 'fetch_failed',
      reason: 'key directory unavailable: timed out',
    });
  });

  it('gives up on a directory that sends its body too slowly (the deadline covers the body)', async () => {
    const trickle = await server((_q, r) => {
      r.writeHead(200, { 'content-type': 'application/json' });
      r.write('{"keys":[');
    });
    const v = insecure({ fetch: { timeoutMs: 300 } });
    expect(await v.verify(await request(trickle.origin), CLIENT)).toMatchObject({
      verified: false,
      code: 'fetch_failed',
      reason: 'key directory unavailable: timed out',
    });
  });

  it('reports a refused connection', async () => {
    const gone = await startDirectoryServer(jwksHandler([key.publicJwk]));
    await gone.close();
    expect(await insecure().verify(await request(gone.origin), CLIENT)).toMatchObject({
      verified: false,
      reason: expect.stringMatching(/^key directory unavailable: connection failed/),
    });
  });
});

describe('caching', () => {
  it('concurrent verifications share one fetch', async () => {
    const s = await server((req, res) => setTimeout(() => jwksHandler([key.publicJwk])(req, res), 50));
    const v = insecure();
    const requests = await Promise.all(Array.from({ length: 10 }, () => request(s.origin)));
    const results = await Promise.all(requests.map((r) => v.verify(r, CLIENT)));
    expect(results.every((r) => r.verified)).toBe(true);
    expect(s.hits).toHaveLength(1);
  });

  it('refetches a fresh directory for an unknown keyid (key rotation), at most once a minute', async () => {
    const rotated = await generateAgentKey();
    let published = [key.publicJwk];
    const s = await server((req, res) => jwksHandler(published, { 'cache-control': 'public, max-age=3600' })(req, res));
    const c = clock();
    const v = insecure({ now: c.now });
    expect(await v.verify(await request(s.origin, c.now()), CLIENT)).toMatchObject({ verified: true });
    published = [key.publicJwk, rotated.publicJwk]; // the agent rotates: the new key is published
    c.advance(61); // the cached copy is still fresh (max-age 3600) but older than a minute
    const withRotated = new Request(URL_, { headers: await signRequest(URL_, { key: rotated, agent: s.origin, created: c.now() }) });
    const rotatedResult = await v.verify(withRotated, CLIENT);
    expect(rotatedResult, JSON.stringify(rotatedResult)).toMatchObject({ verified: true });
    expect(s.hits).toHaveLength(2);
    // An unknown keyid right after: no fetch loop, the reason is the missing key.
    const unknown = await generateAgentKey();
    c.advance(10);
    const withUnknown = () => signRequest(URL_, { key: unknown, agent: s.origin, created: c.now() }).then((h) => new Request(URL_, { headers: h }));
    expect(await v.verify(await withUnknown(), CLIENT)).toMatchObject({ verified: false });
    expect(s.hits).toHaveLength(2);
    c.advance(60);
    expect(await v.verify(await withUnknown(), CLIENT)).toMatchObject({ verified: false });
    expect(s.hits).toHaveLength(3); // a minute later it may look again
  });

  it('keeps a directory for its Cache-Control max-age, then fetches it again', async () => {
    const s = await server(jwksHandler([key.publicJwk], { 'cache-control': 'public, max-age=120' }));
    const c = clock();
    const v = insecure({ now: c.now });
    expect(await v.verify(await request(s.origin, c.now()), CLIENT)).toMatchObject({ verified: true });
    c.advance(119);
    expect(await v.verify(await request(s.origin, c.now()), CLIENT)).toMatchObject({ verified: true });
    expect(s.hits).toHaveLength(1);
    c.advance(2);
    expect(await v.verify(await request(s.origin, c.now()), CLIENT)).toMatchObject({ verified: true });
    expect(s.hits).toHaveLength(2);
  });

  it('clamps max-age to at least 1 minute and at most 24 hours, and uses 1 hour without one', async () => {
    const cases: [string | undefined, number, number][] = [
      ['max-age=5', 59, 61],
      ['max-age=31536000', 86_399, 86_401],
      ['no-cache', 59, 61],
      [undefined, 3_599, 3_601],
    ];
    for (const [cacheControl, stillCached, refetched] of cases) {
      const s = await server(jwksHandler([key.publicJwk], cacheControl === undefined ? {} : { 'cache-control': cacheControl }));
      const c = clock();
      const v = insecure({ now: c.now });
      await v.verify(await request(s.origin, c.now()), CLIENT);
      c.advance(stillCached);
      await v.verify(await request(s.origin, c.now()), CLIENT);
      expect(s.hits, `${cacheControl}: cached at +${stillCached}s`).toHaveLength(1);
      c.advance(refetched - stillCached);
      await v.verify(await request(s.origin, c.now()), CLIENT);
      expect(s.hits, `${cacheControl}: refetched at +${refetched}s`).toHaveLength(2);
    }
  });

  it('remembers a failure for 5 minutes', async () => {
    const s = await server((_q, r) => r.writeHead(500).end());
    const c = clock();
    const v = insecure({ now: c.now });
    await v.verify(await request(s.origin, c.now()), CLIENT);
    c.advance(299);
    expect(await v.verify(await request(s.origin, c.now()), CLIENT)).toMatchObject({
      verified: false,
      reason: 'key directory unavailable: HTTP 500',
    });
    expect(s.hits).toHaveLength(1);
    c.advance(2);
    await v.verify(await request(s.origin, c.now()), CLIENT);
    expect(s.hits).toHaveLength(2);
  });

  it('keeps using a directory whose refresh fails (an outage is not key removal), but drops a removed key at once', async () => {
    let mode: 'good' | 'down' | 'rotated' = 'good';
    const s = await server((req, res) => {
      if (mode === 'down') return res.writeHead(503).end();
      jwksHandler(mode === 'good' ? [key.publicJwk] : [], { 'cache-control': 'max-age=60' })(req, res);
    });
    const c = clock();
    const v = insecure({ now: c.now });
    expect(await v.verify(await request(s.origin, c.now()), CLIENT)).toMatchObject({ verified: true });
    mode = 'down';
    c.advance(61);
    expect(await v.verify(await request(s.origin, c.now()), CLIENT)).toMatchObject({ verified: true });
    expect(s.hits).toHaveLength(2);
    mode = 'rotated';
    c.advance(301);
    expect(await v.verify(await request(s.origin, c.now()), CLIENT)).toMatchObject({
      verified: false,
      code: 'unknown_key',
      reason: 'keyid is not in the key directory',
    });
  });

  it('lets one client address cause at most 5 new directory fetches a minute', async () => {
    const s = await server(jwksHandler([key.publicJwk]));
    const port = new URL(s.origin).port;
    const c = clock();
    // Six agent origins, all resolving to the loopback server.
    const v = insecure({ now: c.now, fetch: { resolve: async () => [{ address: '127.0.0.1', family: 4 }] } });
    const origins = Array.from({ length: 6 }, (_, i) => `http://agent${i}.test:${port}`);
    const results = [];
    for (const origin of origins) results.push(await v.verify(await request(origin, c.now()), CLIENT));
    expect(results.slice(0, 5).every((r) => r.verified)).toBe(true);
    expect(results[5]).toMatchObject({ verified: false, reason: 'too many new key directory fetches from this client address' });
    // Another client is not affected, and the budget refills after a minute.
    expect(await v.verify(await request(origins[5]!, c.now()), { clientAddress: '198.51.100.21' })).toMatchObject({ verified: true });
    c.advance(60);
    const origin7 = `http://agent7.test:${port}`;
    expect(await v.verify(await request(origin7, c.now()), CLIENT)).toMatchObject({ verified: true });
  });

  it('counts IPv6 clients per /64 for that budget', async () => {
    const s = await server(jwksHandler([key.publicJwk]));
    const port = new URL(s.origin).port;
    const v = insecure({ fetch: { resolve: async () => [{ address: '127.0.0.1', family: 4 }] } });
    const results = [];
    for (let i = 0; i < 6; i++) {
      results.push(await v.verify(await request(`http://v6agent${i}.test:${port}`), { clientAddress: `2001:db8:7:7::${i + 1}` }));
    }
    expect(results.map((r) => r.verified)).toEqual([true, true, true, true, true, false]);
  });

  it('bounds concurrent host name lookups; a fetch refused for that is not remembered as a failure', async () => {
    let release: () => void = () => {};
    const hanging = new Promise<void>((resolve) => (release = resolve));
    const fetcher = createGuardedFetcher({
      allowInsecure: true,
      timeoutMs: 200,
      maxConcurrentLookups: 2,
      resolve: async () => {
        await hanging;
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    const first = await Promise.all([fetcher(`http://a.test${WELL_KNOWN}`), fetcher(`http://b.test${WELL_KNOWN}`)]);
    expect(first).toEqual([
      { ok: false, reason: 'timed out' },
      { ok: false, reason: 'timed out' },
    ]);
    // Both lookups still occupy their slots after the deadline gave up on them.
    expect(await fetcher(`http://c.test${WELL_KNOWN}`)).toEqual({ ok: false, reason: 'too many host name lookups in progress', transient: true });
    release();
    await hanging;
    await new Promise((r) => setTimeout(r, 10));
    expect(await fetcher(`http://c.test:1${WELL_KNOWN}`)).toMatchObject({ ok: false, reason: expect.stringMatching(/^connection failed/) });
  });

  it('bounds lookups per host: a hanging and a slow host do not hold up another host', async () => {
    const collectGarbage = exposedGc();
    const s = await server(jwksHandler([key.publicJwk]));
    const port = new URL(s.origin).port;
    let calls = 0;
    const fetcher = createGuardedFetcher({
      allowInsecure: true,
      lookupTimeoutMs: 300,
      resolve: (host) => {
        calls++;
        if (host === 'hang.test') return new Promise(() => {}); // never answers
        const answer = [{ address: '127.0.0.1', family: 4 }];
        return host === 'slow.test' ? new Promise((r) => setTimeout(() => r(answer), 200)) : Promise.resolve(answer);
      },
    });
    let hangingSettled = false;
    const hanging = Promise.all(Array.from({ length: 5 }, () => fetcher(`http://hang.test:${port}${WELL_KNOWN}`))).finally(
      () => (hangingSettled = true),
    );
    const slow = fetcher(`http://slow.test:${port}${WELL_KNOWN}`);
    // Collections while they wait: a lookup deadline held only weakly (AbortSignal.timeout inside AbortSignal.any,
    // nodejs/node#57736) can be collected and never fire, leaving the hanging fetches to the 2 s fetch deadline.
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      collectGarbage();
    }
    // Six fetches in flight for two hosts take two lookups, not six: another host still gets one.
    expect(await fetcher(`http://good.test:${port}${WELL_KNOWN}`)).toMatchObject({ ok: true, status: 200 });
    expect(hangingSettled).toBe(false);
    expect(await slow).toMatchObject({ ok: true, status: 200 });
    expect(await hanging).toEqual(Array.from({ length: 5 }, () => ({ ok: false, reason: 'host name lookup timed out' })));
    expect(calls).toBe(3);
  });

  it('connects to the address it checked, sending the agent host name', async () => {
    let host: string | undefined;
    const s = await server((req, res) => {
      host = req.headers.host;
      jwksHandler([key.publicJwk])(req, res);
    });
    const port = new URL(s.origin).port;
    const v = insecure({ fetch: { resolve: async () => [{ address: '127.0.0.1', family: 4 }] } });
    expect(await v.verify(await request(`http://directory.agent.test:${port}`), CLIENT)).toMatchObject({ verified: true });
    expect(host).toBe(`directory.agent.test:${port}`);
  });
});

describe('Signature Agent Cards (draft-meunier-webbotauth-registry-04)', () => {
  const json = (res: ServerResponse, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

  it('verifies against a card carrying its keys inline ("jwks")', async () => {
    let origin = '';
    const s = await server((req, res) =>
      req.url === '/bot'
        ? json(res, { client_id: `${origin}/bot`, client_name: 'Example Bot', jwks: { keys: [key.publicJwk] } })
        : res.writeHead(404).end(),
    );
    origin = s.origin;
    expect(await insecure().verify(await request(`${s.origin}/bot`), CLIENT)).toMatchObject({ verified: true, agent: `${s.origin}/bot` });
    expect(s.hits).toEqual(['/bot']);
  });

  it('follows a card\'s "jwks_uri" once, through the same fetcher, and caches both', async () => {
    const s = await server((req, res) => {
      if (req.url === '/card') return json(res, { client_name: 'Example Bot', jwks_uri: `${s.origin}/jwks` });
      if (req.url === '/jwks') return jwksHandler([key.publicJwk])(req, res);
      res.writeHead(404).end();
    });
    const v = insecure();
    expect(await v.verify(await request(`${s.origin}/card`), CLIENT)).toMatchObject({ verified: true, directory: `${s.origin}/card` });
    expect(await v.verify(await request(`${s.origin}/card`), CLIENT)).toMatchObject({ verified: true });
    expect(s.hits).toEqual(['/card', '/jwks']);
  });

  it('refuses a card whose jwks_uri is another card, a card with both jwks and jwks_uri, and a card claiming another client_id', async () => {
    const s = await server((req, res) => {
      if (req.url === '/a') return json(res, { jwks_uri: `${s.origin}/b` });
      if (req.url === '/b') return json(res, { jwks_uri: `${s.origin}/a` });
      if (req.url === '/both') return json(res, { jwks: { keys: [key.publicJwk] }, jwks_uri: `${s.origin}/b` });
      if (req.url === '/other') return json(res, { client_id: 'https://other.example/bot', jwks: { keys: [key.publicJwk] } });
      res.writeHead(404).end();
    });
    const v = insecure();
    expect(await v.verify(await request(`${s.origin}/a`), CLIENT)).toMatchObject({
      verified: false,
      code: 'no_directory',
      reason: "key directory unavailable: the card's jwks_uri names another card, not a JWK Set",
    });
    expect(await v.verify(await request(`${s.origin}/both`), CLIENT)).toMatchObject({ verified: false, code: 'no_directory' });
    expect(await v.verify(await request(`${s.origin}/other`), CLIENT)).toMatchObject({
      verified: false,
      reason: 'key directory unavailable: the Signature Agent Card\'s "client_id" is not the URL it was fetched from',
    });
    expect(s.hits).toEqual(['/a', '/b', '/both', '/other']); // never more than one hop
  });

  it('finds a rotated key behind a card by refetching the key set, not the card', async () => {
    const rotated = await generateAgentKey();
    let published = [key.publicJwk];
    const s = await server((req, res) => {
      if (req.url === '/card') return json(res, { jwks_uri: `${s.origin}/jwks` }, { 'cache-control': 'max-age=3600' });
      jwksHandler(published, { 'cache-control': 'max-age=3600' })(req, res);
    });
    const c = clock();
    const v = insecure({ now: c.now });
    expect(await v.verify(await request(`${s.origin}/card`, c.now()), CLIENT)).toMatchObject({ verified: true });
    published = [key.publicJwk, rotated.publicJwk];
    c.advance(61);
    const withRotated = new Request(URL_, { headers: await signRequest(URL_, { key: rotated, agent: `${s.origin}/card`, created: c.now() }) });
    expect(await v.verify(withRotated, CLIENT)).toMatchObject({ verified: true });
    expect(s.hits).toEqual(['/card', '/jwks', '/jwks']);
  });
});

describe('HTTP caching of directories (RFC 9111)', () => {
  it('revalidates a stale directory with If-None-Match; a 304 keeps the keys and renews their lifetime', async () => {
    const seen: (string | undefined)[] = [];
    const s = await server((req, res) => {
      seen.push(req.headers['if-none-match']);
      if (req.headers['if-none-match'] === '"v1"') return res.writeHead(304, { etag: '"v1"', 'cache-control': 'max-age=60' }).end();
      jwksHandler([key.publicJwk], { etag: '"v1"', 'cache-control': 'max-age=60' })(req, res);
    });
    const c = clock();
    const v = insecure({ now: c.now });
    expect(await v.verify(await request(s.origin, c.now()), CLIENT)).toMatchObject({ verified: true });
    c.advance(61);
    expect(await v.verify(await request(s.origin, c.now()), CLIENT)).toMatchObject({ verified: true });
    expect(seen).toEqual([undefined, '"v1"']);
    expect(v.directories.stats).toEqual({ fetches: 2, notModified: 1 });
    c.advance(59); // fresh again for the 304's max-age
    expect(await v.verify(await request(s.origin, c.now()), CLIENT)).toMatchObject({ verified: true });
    expect(s.hits).toHaveLength(2);
  });

  it('revalidates with If-Modified-Since when the directory has only Last-Modified', async () => {
    const lastModified = new Date(Date.now() - 86_400_000).toUTCString();
    const seen: (string | undefined)[] = [];
    const s = await server((req, res) => {
      seen.push(req.headers['if-modified-since']);
      if (req.headers['if-modified-since'] === lastModified) return res.writeHead(304).end();
      jwksHandler([key.publicJwk], { 'last-modified': lastModified, 'cache-control': 'max-age=60' })(req, res);
    });
    const c = clock();
    const v = insecure({ now: c.now });
    await v.verify(await request(s.origin, c.now()), CLIENT);
    c.advance(61);
    expect(await v.verify(await request(s.origin, c.now()), CLIENT)).toMatchObject({ verified: true });
    expect(seen).toEqual([undefined, lastModified]);
  });

  it('never stores a no-store directory: every lookup fetches it', async () => {
    const s = await server(jwksHandler([key.publicJwk], { 'cache-control': 'no-store' }));
    const v = insecure();
    for (let i = 0; i < 3; i++) expect(await v.verify(await request(s.origin), CLIENT)).toMatchObject({ verified: true });
    expect(s.hits).toHaveLength(3);
  });

  it('keeps a directory until its Expires', async () => {
    const s = await server((req, res) => jwksHandler([key.publicJwk], { expires: new Date(Date.now() + 600_000).toUTCString() })(req, res));
    const c = clock();
    const v = insecure({ now: c.now });
    await v.verify(await request(s.origin, c.now()), CLIENT);
    c.advance(590);
    await v.verify(await request(s.origin, c.now()), CLIENT);
    expect(s.hits).toHaveLength(1);
    c.advance(20);
    await v.verify(await request(s.origin, c.now()), CLIENT);
    expect(s.hits).toHaveLength(2);
  });

  it('remembers a 503 for its Retry-After instead of 5 minutes', async () => {
    const s = await server((_q, r) => r.writeHead(503, { 'retry-after': '120' }).end());
    const c = clock();
    const v = insecure({ now: c.now });
    expect(await v.verify(await request(s.origin, c.now()), CLIENT)).toMatchObject({
      verified: false,
      reason: 'key directory unavailable: HTTP 503',
    });
    c.advance(119);
    await v.verify(await request(s.origin, c.now()), CLIENT);
    expect(s.hits).toHaveLength(1);
    c.advance(2);
    await v.verify(await request(s.origin, c.now()), CLIENT);
    expect(s.hits).toHaveLength(2);
  });
});

describe('with the switch off (production)', () => {
  it('refuses http:// agents, and https:// agents on loopback names and addresses, without connecting', async () => {
    const s = await server(jwksHandler([key.publicJwk]));
    const port = new URL(s.origin).port;
    const v = createNodeSignatureVerifier();
    expect(await v.verify(await request(s.origin), CLIENT)).toMatchObject({ verified: false, reason: 'the Signature-Agent URL is not https' });
    expect(await v.verify(await request(`https://127.0.0.1:${port}`), CLIENT)).toMatchObject({
      verified: false,
      reason: 'key directory unavailable: refused: 127.0.0.1 is a loopback address',
    });
    expect(await v.verify(await request(`https://localhost:${port}`), CLIENT)).toMatchObject({
      verified: false,
      reason: expect.stringMatching(/^key directory unavailable: refused: localhost resolves to \S+, a loopback address$/),
    });
    expect(await v.verify(await request(`https://[::ffff:127.0.0.1]:${port}`), CLIENT)).toMatchObject({
      verified: false,
      reason: 'key directory unavailable: refused: ::ffff:7f00:1 is a loopback address',
    });
    expect(s.hits).toEqual([]);
  });

  it('refuses a host with any private address among its DNS answers', async () => {
    const fetcher = createGuardedFetcher({
      resolve: async () => [
        { address: '93.184.215.14', family: 4 },
        { address: '10.1.2.3', family: 4 },
      ],
    });
    expect(await fetcher(`https://mixed.example${WELL_KNOWN}`)).toEqual({
      ok: false,
      reason: 'refused: mixed.example resolves to 10.1.2.3, a private address',
    });
  });

  it('the insecure switch allows loopback only, never private or link-local ranges', async () => {
    const fetcher = createGuardedFetcher({ allowInsecure: true });
    expect(await fetcher(`http://169.254.169.254${WELL_KNOWN}`)).toEqual({ ok: false, reason: 'refused: 169.254.169.254 is a linkLocal address' });
    expect(await fetcher(`http://10.0.0.1${WELL_KNOWN}`)).toEqual({ ok: false, reason: 'refused: 10.0.0.1 is a private address' });
    expect(await fetcher(`http://[fd00::1]${WELL_KNOWN}`)).toEqual({ ok: false, reason: 'refused: fd00::1 is a uniqueLocal address' });
  });
});
