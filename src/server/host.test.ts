/**
 * The host's connection bounds on raw sockets: an error answer (400, 408, 431) closes its connection even when the
 * client keeps its half open, and open connections are bounded in total and per peer address (trusted proxies
 * exempt). Requests that arrive while the HatTip path is still being imported are all answered, bodies included.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../test/helpers/eventually.js';
import type { RequestContext } from '@hattip/compose';
import type { RouteSpec } from '../contract/routes.js';
import type { RequestRecord } from '../http/observe.js';
import type { PlainAnswer } from '../http/respond.js';
import { startHost, type Host, type HostOptions } from './host.js';

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const hosts: Host[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(hosts.splice(0).map((h) => h.close(0)));
});

async function host(extra: Partial<HostOptions> = {}): Promise<{ host: Host; port: number; open: () => Promise<number> }> {
  const h = await startHost(() => new Response('ok'), { host: '127.0.0.1', port: 0, logger, ...extra });
  hosts.push(h);
  const open = () => new Promise<number>((resolve) => h.server.getConnections((_e, n) => resolve(n)));
  return { host: h, port: Number(new URL(h.url).port), open };
}

/** A plain client: it closes when the server does. */
const client = (port: number, from: string): Promise<Socket> => halfOpenClient(port, from, false);

/** A client that keeps its half of the connection open whatever the server does (allowHalfOpen). */
function halfOpenClient(port: number, from = '127.0.0.1', allowHalfOpen = true): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ port, host: '127.0.0.1', localAddress: from, allowHalfOpen }, () => resolve(s));
    s.on('error', reject);
    sockets.push(s);
  });
}

const closed = (s: Socket): Promise<void> => new Promise((resolve) => (s.destroyed ? resolve() : s.once('close', () => resolve())));

describe('error answers', () => {
  it('close the connection after 1,000 malformed requests from clients that keep their half open', async () => {
    const { port, open } = await host();
    const answers = await Promise.all(
      Array.from({ length: 1000 }, async () => {
        const s = await halfOpenClient(port);
        const answer = new Promise<string>((resolve) => s.once('data', (d: Buffer) => resolve(d.toString())));
        s.write('GARBAGE\r\n\r\n');
        return answer;
      }),
    );
    expect(answers.every((a) => a.startsWith('HTTP/1.1 400 Bad Request'))).toBe(true);
    await eventually(async () => (await open()) === 0, { what: 'every errored connection closed' });
  });

  it('close a connection whose client never reads the answer', async () => {
    const { port, open } = await host({ limits: { errorFlushMs: 200, maxHeaderSizeBytes: 1024 } });
    const s = await halfOpenClient(port);
    s.pause(); // never read: the answer may sit in the kernel buffers
    s.write(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(4096)}\r\n\r\n`); // 431
    await eventually(async () => (await open()) === 0, { what: 'the 431 connection closed' });
  });
});

describe('the HatTip path', () => {
  it('answers every request that arrives while it is being imported, with the body each one sent', async () => {
    const h = await startHost(async ({ request }) => new Response(`${request.method} ${new URL(request.url).pathname} ${await request.text()}`), {
      host: '127.0.0.1',
      port: 0,
      logger,
    });
    hosts.push(h);
    const answers = await Promise.all(
      Array.from({ length: 5 }, async (_, i) => {
        const response = await fetch(`${h.url}/n${i}`, { method: 'POST', body: `body ${i}` });
        return `${response.status} ${await response.text()}`;
      }),
    );
    expect(answers).toEqual(Array.from({ length: 5 }, (_, i) => `200 POST /n${i} body ${i}`));
  });
});

describe('answering in turns', () => {
  /** A handler whose direct path notes, for each request it is asked about, how many requests had arrived. */
  function notingHost(throwFor?: string): { handler: Parameters<typeof startHost>[0]; arrivedWhenAsked: number[]; arrived: { n: number } } {
    const arrived = { n: 0 };
    const arrivedWhenAsked: number[] = [];
    const handler = Object.assign(({ request }: { request: Request }) => new Response(`ok ${new URL(request.url).pathname}`), {
      direct: {
        routeOf: (path: string) => {
          arrivedWhenAsked.push(arrived.n);
          if (path === throwFor) throw new Error('the direct path broke');
          return undefined; // the general path answers
        },
        answer: () => Promise.reject(new Error('not asked')),
        observers: () => undefined,
        record: () => {
          throw new Error('not asked');
        },
        notify: () => undefined,
      },
    });
    return { handler, arrivedWhenAsked, arrived };
  }

  /** Sends `paths` pipelined in one write on one connection (the last asks to close it) and reads until it closes. */
  async function pipelined(port: number, paths: string[]): Promise<string> {
    const s = await client(port, '127.0.0.1');
    let text = '';
    s.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    s.write(paths.map((p, i) => `GET ${p} HTTP/1.1\r\nHost: x\r\n${i === paths.length - 1 ? 'Connection: close\r\n' : ''}\r\n`).join(''));
    await closed(s);
    return text;
  }

  it('reads every request of a turn before answering the first, and answers them in order', async () => {
    const { handler, arrivedWhenAsked, arrived } = notingHost();
    const h = await startHost(handler, { host: '127.0.0.1', port: 0, logger });
    hosts.push(h);
    h.server.on('request', () => void arrived.n++); // after the host's own listener
    const text = await pipelined(Number(new URL(h.url).port), ['/a', '/b', '/c']);
    expect(arrivedWhenAsked).toEqual([3, 3, 3]);
    expect([...text.matchAll(/ok \/\w/g)].map((m) => m[0])).toEqual(['ok /a', 'ok /b', 'ok /c']);
  });

  it('answers 500 to a request whose answering threw, logs it, and answers the rest of its turn', async () => {
    const errors: unknown[] = [];
    const { handler } = notingHost('/boom');
    const h = await startHost(handler, { host: '127.0.0.1', port: 0, logger: { ...logger, error: (obj: object) => void errors.push(obj) } });
    hosts.push(h);
    const text = await pipelined(Number(new URL(h.url).port), ['/a', '/boom', '/c']);
    expect(text.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 500', 'HTTP/1.1 200']);
    expect(text).toContain('{"detail":"Internal Server Error"}');
    expect([...text.matchAll(/ok \/\w/g)].map((m) => m[0])).toEqual(['ok /a', 'ok /c']);
    expect(errors).toEqual([expect.objectContaining({ err: expect.objectContaining({ message: 'the direct path broke' }) })]);
  });
});

describe('the direct path', () => {
  /** A direct app that takes every path: `/reject` rejects (which `answer` promises never to do), `/throw` throws
   * while its answer is written (an observer is enabled, and making its record throws), anything else answers. */
  const failingDirect = {
    routeOf: () => ({}) as RouteSpec,
    answer: (ctx: RequestContext): PlainAnswer | Promise<PlainAnswer> =>
      ctx.url.pathname === '/reject'
        ? Promise.reject(new Error('the steps rejected'))
        : { status: 200, headers: { 'Content-Type': 'text/plain' }, body: new TextEncoder().encode(`ok ${ctx.url.pathname}`) },
    observers: () => [],
    record: (ctx: RequestContext): RequestRecord => {
      if (ctx.url.pathname === '/throw') throw new Error('the record failed');
      return {} as RequestRecord;
    },
    notify: () => undefined,
  };

  it.each([
    ['rejected', '/reject', 'the steps rejected'],
    ['threw while being written', '/throw', 'the record failed'],
  ])("answers a request whose answer %s with the host's own 500, and logs the error", async (_, path, message) => {
    const errors: unknown[] = [];
    const handler = Object.assign(() => new Response('the general path'), { direct: failingDirect });
    const h = await startHost(handler, { host: '127.0.0.1', port: 0, logger: { ...logger, error: (obj: object) => void errors.push(obj) } });
    hosts.push(h);
    const failed = await fetch(`${h.url}${path}`);
    expect(failed.status).toBe(500);
    expect(Object.fromEntries(failed.headers)).toMatchObject({ 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    expect(await failed.json()).toEqual({ detail: 'Internal Server Error' });
    expect(errors).toEqual([expect.objectContaining({ err: expect.objectContaining({ message }) })]);
    expect(await (await fetch(`${h.url}/fine`)).text()).toBe('ok /fine');
  });
});

describe('connection bounds', () => {
  it('close connections beyond the per-address limit, for that address only', async () => {
    const { port, open } = await host({ limits: { maxConnectionsPerAddress: 5 } });
    const fromOne = await Promise.all(Array.from({ length: 8 }, () => client(port, '127.0.0.2')));
    await Promise.all(fromOne.slice(5).map(closed));
    expect(fromOne.filter((s) => !s.destroyed)).toHaveLength(5);
    const other = await client(port, '127.0.0.3');
    const answer = new Promise<string>((resolve) => other.once('data', (d: Buffer) => resolve(d.toString())));
    other.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await answer).toMatch(/^HTTP\/1\.1 200/);
    expect(await open()).toBe(6);
  });

  it('exempt trusted proxies from the per-address limit', async () => {
    const { port, open } = await host({ limits: { maxConnectionsPerAddress: 5 }, isTrustedPeer: (a) => a === '127.0.0.2' });
    await Promise.all(Array.from({ length: 8 }, () => halfOpenClient(port, '127.0.0.2')));
    await eventually(async () => (await open()) === 8, { what: 'eight connections from the proxy' });
  });

  it('close connections beyond the total limit', async () => {
    const { port, open } = await host({ limits: { maxConnections: 4 } });
    const clients = await Promise.all(Array.from({ length: 6 }, (_, i) => client(port, `127.0.0.${10 + i}`)));
    await eventually(() => clients.filter((s) => s.destroyed).length === 2, { what: 'two connections refused' });
    expect(await open()).toBe(4);
  });
});
