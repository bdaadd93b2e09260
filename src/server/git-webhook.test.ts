import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Host } from './host.js';
import { startAdminHost } from './admin.js';
import { gitWebhookRoute, WEBHOOK_MAX_BODY_BYTES, type GitDelivery, type WebhookResult } from './git-webhook.js';
import { WARNING_INTERVAL_MS } from './throttled-warning.js';

const SECRET = "It's a Secret to Everybody";
const MiB = WEBHOOK_MAX_BODY_BYTES;

const lines: { level: string; obj: Record<string, unknown>; msg?: string }[] = [];
const logger = {
  info: (obj: object, msg?: string) => lines.push({ level: 'info', obj: obj as Record<string, unknown>, msg }),
  warn: (obj: object, msg?: string) => lines.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }),
  error: (obj: object, msg?: string) => lines.push({ level: 'error', obj: obj as Record<string, unknown>, msg }),
};

const deliveries: GitDelivery[] = [];
/** What `onResult` was told, in order. */
const results: WebhookResult[] = [];
const onResult = (result: WebhookResult): void => void results.push(result);
/** The clock of the rejections' log rate, in ms. Each test starts a minute later, so its first rejection is logged. */
let clockMs = 0;
const now = (): number => clockMs;
const nextMinute = (): void => void (clockMs += WARNING_INTERVAL_MS);
let host: Host;
let disabledHost: Host;
let throwingHost: Host;

beforeAll(async () => {
  host = await startAdminHost({
    host: '127.0.0.1',
    port: 0,
    logger,
    routes: [gitWebhookRoute({ secret: SECRET, onDelivery: (d) => deliveries.push(d), onResult, logger, now })],
  });
  disabledHost = await startAdminHost({
    host: '127.0.0.1',
    port: 0,
    logger,
    routes: [gitWebhookRoute({ secret: undefined, onDelivery: (d) => deliveries.push(d), onResult, logger, now })],
  });
  throwingHost = await startAdminHost({
    host: '127.0.0.1',
    port: 0,
    logger,
    routes: [
      gitWebhookRoute({
        secret: SECRET,
        onDelivery: () => {
          throw new Error('refresh failed');
        },
        onResult,
        logger,
        now,
      }),
    ],
  });
});

afterAll(async () => {
  await Promise.all([host.close(1_000), disabledHost.close(1_000), throwingHost.close(1_000)]);
});

beforeEach(() => {
  deliveries.length = 0;
  results.length = 0;
  lines.length = 0;
  nextMinute();
});

const sign = (body: string | Uint8Array, secret = SECRET): string => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

function post(body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string>, base = host.url): Promise<Response> {
  return fetch(`${base}/hooks/git`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
}

async function expectDetail(res: Response, status: number, detail: string): Promise<void> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(await res.text()).toBe(JSON.stringify({ detail }));
}

/**
 * POSTs `chunks` with node:http and no Content-Length (so chunked), one `write` each; `end` false leaves the
 * request open, so only a server that answers before the end of the body can resolve.
 */
function postChunked(chunks: Uint8Array[], headers: Record<string, string>, end = true): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    // A connection of its own: a pooled one may be one the server already dropped after an earlier 413.
    const req = httpRequest(`${host.url}/hooks/git`, { method: 'POST', headers, agent: false }, (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('error', reject);
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body });
        req.destroy();
      });
    });
    // Once the server has answered, it may drop the connection while we still write.
    req.on('error', (error) => (answered ? undefined : reject(error)));
    for (const chunk of chunks) req.write(chunk);
    if (end) req.end();
  });
}

const PUSH = JSON.stringify({ ref: 'refs/heads/main', after: 'deadbeef'.repeat(5), commits: [{ message: 'café ☕' }] });
const GITHUB_ID = '72d3162e-cc78-11e3-81ab-4c9367dc0958';

describe('POST /hooks/git from GitHub', () => {
  it('matches the test vector of the GitHub documentation', () => {
    expect(sign('Hello, World!')).toBe('sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17');
  });

  it('accepts a delivery signed with the secret and reports its event and delivery id', async () => {
    const res = await post(PUSH, { 'x-hub-signature-256': sign(PUSH), 'x-github-event': 'push', 'x-github-delivery': GITHUB_ID });
    await expectDetail(res, 202, 'Accepted');
    expect(deliveries).toEqual([{ provider: 'github', event: 'push', deliveryId: GITHUB_ID }]);
    const accepted = lines.find((l) => l.msg === 'git webhook delivery accepted');
    expect(accepted?.level).toBe('info');
    expect(accepted?.obj).toMatchObject({ provider: 'github', event: 'push', delivery_id: GITHUB_ID, status: 202 });
    expect(accepted?.obj.peer).toMatch(/127\.0\.0\.1$/);
    expect(results).toEqual(['accepted']);
  });

  it('accepts a ping', async () => {
    const body = '{"zen":"Keep it logically awesome.","hook_id":1}';
    await expectDetail(await post(body, { 'x-hub-signature-256': sign(body), 'x-github-event': 'ping' }), 202, 'Accepted');
    expect(deliveries).toEqual([{ provider: 'github', event: 'ping' }]);
  });

  it('signs the raw bytes: a body that is not valid UTF-8 or JSON verifies byte for byte', async () => {
    const body = new Uint8Array([0xff, 0xfe, 0x00, 0x7b, 0xc3]);
    await expectDetail(await post(body, { 'x-hub-signature-256': sign(body) }), 202, 'Accepted');
    expect(deliveries).toEqual([{ provider: 'github' }]);
  });

  it('accepts an uppercase hex digest', async () => {
    await expectDetail(await post(PUSH, { 'x-hub-signature-256': `sha256=${sign(PUSH).slice(7).toUpperCase()}` }), 202, 'Accepted');
  });

  it.each([
    ['a wrong secret', () => sign(PUSH, 'not the secret')],
    ['a signature of another body', () => sign(`${PUSH} `)],
    ['a sha1 signature', () => `sha1=${createHmac('sha1', SECRET).update(PUSH).digest('hex')}`],
    ['a sha1 prefix on a sha256 digest', () => `sha1=${sign(PUSH).slice(7)}`],
    ['no prefix', () => sign(PUSH).slice(7)],
    ['non-hex digits', () => `sha256=${'zz'.repeat(32)}`],
    ['a short digest', () => sign(PUSH).slice(0, -2)],
    ['a long digest', () => `${sign(PUSH)}00`],
    ['two signatures', () => `${sign(PUSH)}, ${sign(PUSH)}`],
    ['an empty value', () => ''],
    ['the bare prefix', () => 'sha256='],
  ])('refuses %s with 401', async (_name, signature) => {
    const value = signature();
    const res = await post(PUSH, { 'x-hub-signature-256': value, 'x-github-event': 'push' });
    await expectDetail(res, 401, 'Unauthorized');
    expect(deliveries).toEqual([]);
    const rejected = lines.find((l) => l.msg === 'git webhook delivery rejected');
    expect(rejected?.level).toBe('warn');
    expect(rejected?.obj).toMatchObject({ provider: 'github', event: 'push', status: 401, result: 'unauthorized', suppressed: 0 });
    expect(results).toEqual(['unauthorized']);
  });

  it('refuses a delivery without a signature or token with 401', async () => {
    await expectDetail(await post(PUSH, { 'x-github-event': 'push', 'x-github-delivery': GITHUB_ID }), 401, 'Unauthorized');
    nextMinute();
    await expectDetail(await post(PUSH, {}), 401, 'Unauthorized');
    expect(deliveries).toEqual([]);
    expect(lines.map((l) => l.obj.provider)).toEqual(['github', 'unknown']);
  });

  it('omits an event or delivery id that is too long or not printable ASCII', async () => {
    for (const [event, id] of [
      ['x'.repeat(129), 'pùsh'],
      ['push\tpush', ''],
    ] as const) {
      const res = await post(PUSH, { 'x-hub-signature-256': sign(PUSH), 'x-github-event': event, 'x-github-delivery': id });
      expect(res.status).toBe(202);
    }
    expect(deliveries).toEqual([{ provider: 'github' }, { provider: 'github' }]);
  });

  it('never logs the secret, a token or a signature', async () => {
    const wrong = sign(PUSH, 'other');
    await post(PUSH, { 'x-hub-signature-256': sign(PUSH), 'x-github-event': 'push' });
    await post(PUSH, { 'x-hub-signature-256': wrong });
    await post(PUSH, { 'x-gitlab-token': SECRET });
    nextMinute();
    await post(PUSH, { 'x-gitlab-token': 'a wrong token' });
    const logged = JSON.stringify(lines.map((l) => [l.obj, l.msg]));
    expect(lines).toHaveLength(4);
    for (const leak of [SECRET, sign(PUSH).slice(7), wrong.slice(7), 'a wrong token']) expect(logged).not.toContain(leak);
  });
});

describe('POST /hooks/git from GitLab', () => {
  const gitlabHeaders = { 'x-gitlab-event': 'Push Hook', 'x-gitlab-event-uuid': '13792a34-cac6-4fda-95a8-c58e00a3954e' };

  it('accepts the right token', async () => {
    await expectDetail(await post(PUSH, { ...gitlabHeaders, 'x-gitlab-token': SECRET }), 202, 'Accepted');
    expect(deliveries).toEqual([{ provider: 'gitlab', event: 'Push Hook', deliveryId: '13792a34-cac6-4fda-95a8-c58e00a3954e' }]);
  });

  it.each([
    ['a wrong token', 'wrong'],
    ['the secret with a suffix', `${SECRET}x`],
    ['a prefix of the secret', SECRET.slice(0, -1)],
    ['an empty token', ''],
    ['the HMAC of the body', sign(PUSH)],
  ])('refuses %s with 401', async (_name, token) => {
    await expectDetail(await post(PUSH, { ...gitlabHeaders, 'x-gitlab-token': token }), 401, 'Unauthorized');
    expect(deliveries).toEqual([]);
    expect(lines[0]?.obj).toMatchObject({ provider: 'gitlab', event: 'Push Hook', status: 401 });
  });

  it('compares the bytes of a non-ASCII token as the sender wrote them (UTF-8)', async () => {
    const secret = 'sécret ☕ token';
    const local = await startAdminHost({
      host: '127.0.0.1',
      port: 0,
      logger,
      routes: [gitWebhookRoute({ secret, onDelivery: (d) => deliveries.push(d), onResult, logger })],
    });
    try {
      // A header carries bytes: the UTF-8 of the secret, spelt as a latin1 string so fetch sends them unchanged.
      const onTheWire = Buffer.from(secret, 'utf8').toString('latin1');
      await expectDetail(await post(PUSH, { 'x-gitlab-token': onTheWire }, local.url), 202, 'Accepted');
      await expectDetail(await post(PUSH, { 'x-gitlab-token': 's\u00e9cret' }, local.url), 401, 'Unauthorized');
      expect(deliveries).toEqual([{ provider: 'gitlab' }]);
    } finally {
      await local.close(1_000);
    }
  });

  it('applies the body limit too', async () => {
    const res = await post(new Uint8Array(MiB + 1), { ...gitlabHeaders, 'x-gitlab-token': SECRET });
    await expectDetail(res, 413, 'Payload Too Large');
    expect(deliveries).toEqual([]);
    expect(results).toEqual(['too_large']);
  });
});

describe('POST /hooks/git body limit', () => {
  it('accepts exactly 1 MiB with a valid signature', async () => {
    const body = new Uint8Array(MiB).fill(0x61);
    await expectDetail(await post(body, { 'x-hub-signature-256': sign(body), 'x-github-event': 'push' }), 202, 'Accepted');
    expect(deliveries).toHaveLength(1);
  });

  it('refuses 1 MiB + 1 byte with Content-Length with 413', async () => {
    const body = new Uint8Array(MiB + 1).fill(0x61);
    await expectDetail(await post(body, { 'x-hub-signature-256': sign(body) }), 413, 'Payload Too Large');
    expect(deliveries).toEqual([]);
    expect(lines[0]?.obj).toMatchObject({ status: 413, result: 'too_large', reason: 'declared body too large' });
  });

  it('accepts a chunked body under the limit, signed across its chunks', async () => {
    const chunks = [new Uint8Array(300_000).fill(1), new Uint8Array(300_000).fill(2), new Uint8Array(1).fill(3)];
    const res = await postChunked(chunks, { 'x-hub-signature-256': sign(Buffer.concat(chunks)), 'x-github-event': 'push' });
    expect(res).toEqual({ status: 202, body: '{"detail":"Accepted"}' });
    expect(deliveries).toEqual([{ provider: 'github', event: 'push' }]);
  });

  it('refuses a chunked body over 1 MiB with 413', async () => {
    const chunks = Array.from({ length: 5 }, () => new Uint8Array(256 * 1024).fill(0x61));
    const res = await postChunked(chunks, { 'x-hub-signature-256': sign(Buffer.concat(chunks)) });
    expect(res).toEqual({ status: 413, body: '{"detail":"Payload Too Large"}' });
    expect(deliveries).toEqual([]);
    expect(lines[0]?.obj).toMatchObject({ status: 413, reason: 'body too large' });
  });

  it('answers 413 as soon as a chunked body passes the limit, before the client has finished sending', async () => {
    const chunks = Array.from({ length: 5 }, () => new Uint8Array(256 * 1024));
    const res = await postChunked(chunks, { 'x-hub-signature-256': sign('anything') }, false);
    expect(res.status).toBe(413);
  });

  it('refuses an unauthenticated request before reading its body', async () => {
    const chunks = [new Uint8Array(1024)];
    // The request is never ended: only an answer given without the body can arrive.
    const res = await postChunked(chunks, { 'x-github-event': 'push' }, false);
    expect(res).toEqual({ status: 401, body: '{"detail":"Unauthorized"}' });
  });
});

describe('GET, unknown paths and a disabled webhook', () => {
  it('answers GET /hooks/git with 405 and Allow: POST', async () => {
    const res = await fetch(`${host.url}/hooks/git`);
    expect(res.headers.get('allow')).toBe('POST');
    await expectDetail(res, 405, 'Method Not Allowed');
  });

  it('answers an unknown path with 404', async () => {
    await expectDetail(await fetch(`${host.url}/hooks/github`, { method: 'POST', body: PUSH }), 404, 'Not Found');
    await expectDetail(await fetch(`${host.url}/hooks/git/`, { method: 'POST', body: PUSH }), 404, 'Not Found');
  });

  it('answers every request with 404 when no secret is configured, counting none', async () => {
    const res = await post(PUSH, { 'x-hub-signature-256': sign(PUSH), 'x-github-event': 'push' }, disabledHost.url);
    await expectDetail(res, 404, 'Not Found');
    await expectDetail(await post(PUSH, { 'x-gitlab-token': SECRET }, disabledHost.url), 404, 'Not Found');
    await expectDetail(await fetch(`${disabledHost.url}/hooks/git`), 404, 'Not Found');
    expect(deliveries).toEqual([]);
    expect(results).toEqual([]);
  });

  it('answers 500 when onDelivery throws, and logs it', async () => {
    await expectDetail(await post(PUSH, { 'x-hub-signature-256': sign(PUSH) }, throwingHost.url), 500, 'Internal Server Error');
    expect(lines.some((l) => l.level === 'error')).toBe(true);
    expect(results).toEqual(['failed']);
  });

  it('refuses an empty secret at construction', () => {
    expect(() => gitWebhookRoute({ secret: '', onDelivery: () => {}, onResult, logger })).toThrow(RangeError);
  });
});

describe('rejected deliveries in the log and the counts', () => {
  const rejectedLines = () => lines.filter((l) => l.msg === 'git webhook delivery rejected');

  it('counts every delivery by result, and logs rejections at most once a minute with how many went unwritten', async () => {
    const wrongSignature = { 'x-hub-signature-256': sign(PUSH, 'not the secret'), 'x-github-event': 'push' };
    for (let i = 0; i < 50; i++) await expectDetail(await post(PUSH, wrongSignature), 401, 'Unauthorized');
    await expectDetail(await post(new Uint8Array(MiB + 1), { 'x-gitlab-token': SECRET }), 413, 'Payload Too Large');
    await expectDetail(await post(PUSH, { 'x-hub-signature-256': sign(PUSH) }), 202, 'Accepted');
    expect(results).toEqual([...Array<WebhookResult>(50).fill('unauthorized'), 'too_large', 'accepted']);
    // The first rejection of the minute, alone; the accepted delivery has its own line, never held back.
    expect(rejectedLines()).toEqual([
      {
        level: 'warn',
        msg: 'git webhook delivery rejected',
        obj: expect.objectContaining({ status: 401, reason: 'wrong signature', suppressed: 0 }),
      },
    ]);
    expect(lines.filter((l) => l.msg === 'git webhook delivery accepted')).toHaveLength(1);

    // Just under a minute later: still held back. A minute after the line: the next is written, with the count.
    clockMs += WARNING_INTERVAL_MS - 1;
    await post(PUSH, { 'x-gitlab-token': 'wrong' });
    expect(rejectedLines()).toHaveLength(1);
    clockMs += 1;
    await post(PUSH, { 'x-gitlab-token': 'wrong' });
    expect(rejectedLines()[1]?.obj).toMatchObject({ provider: 'gitlab', status: 401, reason: 'wrong token', suppressed: 51 });
  });
});
