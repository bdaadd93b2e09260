/**
 * The Node host's direct path (src/server/direct-path.ts) answers exactly as the general path (@hono/node-server and
 * HatTip): two real servers on ephemeral ports, built alike from the production wiring (`composeApp`,
 * `indexBuilder`, `publicHostOptions`), one with the direct path and one without, get the same requests — every
 * client kind (a fresh Ed25519 signature for each verified request), codings, conditional requests, HEAD, errors, a
 * budget running out, behind `TRUST_PROXY` — and must send the same status line, header fields (in order; `Date`
 * aside) and body bytes, write the same access-log lines and count the same metrics. Each server has its own budget
 * store on the same frozen clock, so the RateLimit fields agree to the second.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDirectAndGeneral } from './helpers/direct-and-general.js';
import { MIN_COMPRESSIBLE_BYTES } from '../src/index/representation.js';
import { codeDigest } from '../src/referrals/digests.js';
import { loadConfig } from '../src/server/config.js';
import { type Host } from '../src/server/host.js';
import { ServiceMetrics } from '../src/server/metrics.js';
import {
  generateAgentKey,
  jwksHandler,
  signRequest,
  startDirectoryServer,
  type AgentKey,
  type DirectoryServer,
} from './fixtures/signatures/agent.js';
import { writeContentFixture } from './helpers/content-fixture.js';
import { eventually } from './helpers/eventually.js';

const PUBLIC = 'https://catalog.example';
const DECLARED_UA = 'acme-sync/2.1 (+https://acme.example/bot)';
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:145.0) Gecko/20100101 Firefox/145.0';
/** Small enough for an anonymous client to run out within the matrix. */
const ANONYMOUS_LIMIT = 3;

interface Served {
  host: Host;
  logs: Array<Record<string, unknown>>;
  metrics: ServiceMetrics;
}

interface Answer {
  status: number;
  /** Raw header fields in order, `Date` left out. */
  headers: string[];
  body: Buffer;
}

let root: string;
let key: AgentKey;
let directory: DirectoryServer;
const servers: { direct?: Served; general?: Served } = {};
/** `RateLimit-Policy` of a verified agent. */
let verifiedPolicy: string;
/** The proxy fields of the current client (reassigned every few requests). */
const headersOfClient: Record<string, string> = {};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'syllabus-direct-'));
  const contentDir = await writeContentFixture(join(root, 'content'));
  const referralsFile = join(root, 'referrals.txt');
  await writeFile(referralsFile, `${codeDigest('WELCOME-2026')}\n`);
  key = await generateAgentKey();
  directory = await startDirectoryServer(jwksHandler([key.publicJwk], { 'cache-control': 'max-age=300' }));
  const config = loadConfig(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      CONTENT_DIR: contentDir,
      REFERRALS_FILE: referralsFile,
      LOG_LEVEL: 'info',
      TRUST_PROXY: 'loopback',
      KEY_DIRECTORY_ALLOW_INSECURE: '1',
      SIGNATURE_AUTHORITIES: 'catalog.example',
      RATE_LIMIT_ANONYMOUS: String(ANONYMOUS_LIMIT),
      RATE_LIMIT_BROWSER: String(ANONYMOUS_LIMIT + 1),
    },
    root,
  );
  verifiedPolicy = `RateLimit-Policy: ${config.rateLimits.verified};w=60`;
  const made: { direct?: Omit<Served, 'host'>; general?: Omit<Served, 'host'> } = {};
  const hosts = await startDirectAndGeneral(config, contentDir, (direct) => {
    const logs: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') logs.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const metrics = new ServiceMetrics();
    made[direct ? 'direct' : 'general'] = { logs, metrics };
    return { sink, observers: [metrics.observeRequest] };
  });
  servers.direct = { host: hosts.direct, ...made.direct! };
  servers.general = { host: hosts.general, ...made.general! };
});

afterAll(async () => {
  await Promise.all([servers.direct?.host.close(1000), servers.general?.host.close(1000), directory?.close()]);
  await rm(root, { recursive: true, force: true });
});

/** One request exactly as given (raw target, raw header fields). */
function send(base: string, method: string, target: string, headers: Record<string, string>): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path: target, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const fields: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (res.rawHeaders[i]!.toLowerCase() !== 'date') fields.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        }
        resolve({ status: res.statusCode ?? 0, headers: fields, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Sends the same request to both servers (the direct one first) and returns both answers. */
async function both(method: string, target: string, headers: Record<string, string>): Promise<[Answer, Answer]> {
  const direct = await send(servers.direct!.host.url, method, target, headers);
  const general = await send(servers.general!.host.url, method, target, headers);
  return [direct, general];
}

let nextRequest = 0;
let nextClient = 0;

/** A client address of its own behind the trusted proxy (so budgets never mix between clients). */
function client(): Record<string, string> {
  nextClient++;
  return { 'x-forwarded-for': `198.51.100.${nextClient}`, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'catalog.example' };
}

/** The request headers of one client kind, signed afresh for `target` when verified. */
async function kindHeaders(kind: string, target: string): Promise<Record<string, string>> {
  if (kind === 'anonymous') return {};
  if (kind === 'declared') return { 'user-agent': DECLARED_UA };
  if (kind === 'browser') return { 'user-agent': BROWSER_UA };
  return { 'user-agent': DECLARED_UA, ...(await signRequest(`${PUBLIC}${target}`, { key, agent: directory.origin })) };
}

describe('the direct path and the general path', () => {
  it('answer every request of the matrix with the same status, header fields and body bytes', async () => {
    const [catalog] = await both('GET', '/v1/catalog', { ...client(), 'user-agent': DECLARED_UA, 'x-request-id': 'probe' });
    const { courses } = JSON.parse(catalog.body.toString('utf8')) as {
      courses: Array<{ id: string; classes: Array<{ lessons: Array<{ id: string }> }> }>;
    };
    const course = courses.find((c) => c.classes.some((k) => k.lessons.length > 0))!;
    const lesson = course.classes.find((k) => k.lessons.length > 0)!.lessons[0]!;
    const etag = /^ETag: (.*)$/m.exec(catalog.headers.join('\n'))![1]!;
    const requests: Array<[method: string, target: string, extra: Record<string, string>]> = [
      ['GET', '/v1/catalog', {}],
      ['GET', '/v1/catalog?view=full', {}],
      ['HEAD', '/v1/catalog', {}],
      ['GET', '/v1/catalog', { 'accept-encoding': 'gzip' }],
      ['GET', '/v1/catalog', { 'accept-encoding': 'br, gzip' }],
      ['HEAD', '/v1/catalog', { 'accept-encoding': 'br' }],
      ['GET', '/v1/catalog', { 'if-none-match': etag }],
      ['GET', '/v1/catalog', { 'if-none-match': '"other"' }],
      ['GET', `/v1/courses/${course.id}`, {}],
      ['GET', `/v1/lessons/${lesson.id}`, { 'accept-encoding': 'gzip' }],
      ['GET', '/v1/lessons/no-such-lesson', {}],
      ['HEAD', '/v1/lessons/no-such-lesson', {}],
      ['GET', '/v1/lessons/Not%20An%20Id', {}],
      ['HEAD', '/v1/lessons/Not%20An%20Id', {}],
      ['GET', `/v1/courses/%${course.id.charCodeAt(0).toString(16)}${course.id.slice(1)}`, {}],
      ['GET', '/v1/lessons/a%zz', {}],
      ['GET', '/v1/lessons/%2e%2e/%2E', {}],
      ['GET', '/v1/catalog?view=%41', {}],
      ['GET', '/health', {}],
      ['HEAD', '/health', {}],
      ['GET', '/', { accept: 'text/html' }],
      ['GET', `/courses/${course.id}`, { accept: 'text/html', 'accept-encoding': 'gzip' }],
      ['GET', '/courses/no-such-course', { accept: 'text/html' }],
    ];
    // A page or a lesson body is made by its first request and compressed in the background after it, and both hosts
    // serve one index: until its compressed forms exist, a request for one is answered in identity, after, in gzip.
    // Made and compressed first (a body too small to gain is never compressed), so that no answer of the matrix
    // depends on how far that went.
    for (const target of [`/courses/${course.id}`, `/v1/lessons/${lesson.id}`]) {
      await eventually(
        async () => {
          const answers = await both('GET', target, { ...client(), 'user-agent': BROWSER_UA, 'accept-encoding': 'gzip' });
          return answers.every((a) => a.headers.includes('Content-Encoding: gzip') || a.body.byteLength < MIN_COMPRESSIBLE_BYTES);
        },
        { what: `the compressed forms of ${target}` },
      );
    }
    for (const kind of ['anonymous', 'declared', 'browser', 'verified']) {
      // Each client makes at most ANONYMOUS_LIMIT requests: the matrix is about answers, not refusals.
      for (let i = 0; i < requests.length; i++) {
        if (i % ANONYMOUS_LIMIT === 0) Object.assign(headersOfClient, client());
        const [method, target, extra] = requests[i]!;
        const headers = { ...headersOfClient, ...(await kindHeaders(kind, target)), ...extra, 'x-request-id': `matrix-${nextRequest++}` };
        const [direct, general] = await both(method, target, headers);
        expect(direct, `${kind} ${method} ${target} ${JSON.stringify(extra)}`).toEqual(general);
        if (kind === 'verified' && direct.status < 500) expect(direct.headers).toContain(verifiedPolicy);
      }
    }
  });

  it('refuse a client over its budget alike: 429 with Retry-After and the RateLimit fields', async () => {
    const headers = client();
    for (let i = 0; i <= ANONYMOUS_LIMIT; i++) {
      const [direct, general] = await both('GET', '/v1/catalog', { ...headers, 'x-request-id': `budget-${i}` });
      expect(direct).toEqual(general);
      if (i === ANONYMOUS_LIMIT) {
        expect(direct.status).toBe(429);
        expect(direct.headers.some((h) => h.startsWith('Retry-After: '))).toBe(true);
      }
    }
    // A page path refused to a browser: the HTML 429 page.
    const browser = { ...client(), 'user-agent': BROWSER_UA, accept: 'text/html' };
    const answers: Array<[Answer, Answer]> = [];
    for (let i = 0; i <= ANONYMOUS_LIMIT + 1; i++) {
      const pair = await both('GET', '/', { ...browser, 'x-request-id': `page-${i}` });
      answers.push(pair);
      if (pair[0].status === 429) break;
    }
    for (const [direct, general] of answers) expect(direct).toEqual(general);
    expect(answers.at(-1)![0].status).toBe(429);
  });

  it('make an id for a request without one on both paths', async () => {
    const [direct, general] = await both('GET', '/v1/catalog', client());
    const id = (a: Answer) => a.headers.find((h) => h.startsWith('X-Request-Id: '))!.slice('X-Request-Id: '.length);
    expect(id(direct)).toMatch(/^[0-9a-f-]{36}$/);
    expect(id(general)).toMatch(/^[0-9a-f-]{36}$/);
    const without = (a: Answer) => ({ ...a, headers: a.headers.filter((h) => !h.startsWith('X-Request-Id: ')) });
    expect(without(direct)).toEqual(without(general));
  });

  it('write the same access-log lines and count the same metrics', async () => {
    // The host answers a turn's requests after that turn, and the observers hear of the answers after the turn that
    // wrote them: two turns of the event loop after the last answer arrived, every record has been observed.
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    const lines = (s: Served) =>
      s.logs
        .filter((l) => l.msg === 'request' && typeof l.request_id === 'string' && !/^[0-9a-f-]{36}$/.test(l.request_id))
        .map((line) => {
          // When it was written and how long it took are the only fields that may differ.
          const rest = { ...line };
          delete rest.time;
          delete rest.duration_ms;
          return rest;
        });
    expect(lines(servers.direct!).length).toBeGreaterThan(50);
    expect(lines(servers.direct!)).toEqual(lines(servers.general!));
    const requestCounts = async (s: Served) =>
      (await s.metrics.render()).body.split('\n').filter((l) => l.startsWith('syllabus_http_requests_total{'));
    expect(await requestCounts(servers.direct!)).toEqual(await requestCounts(servers.general!));
  });
});
