/**
 * The host's connection bounds on raw sockets: an error answer (400, 408, 431) closes its connection even when the
 * client keeps its half open, is never written into an answer in progress, and open connections are bounded in
 * total and per peer address (trusted proxies exempt). An answer written later reaches a client that half-closes
 * after its request.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../test/helpers/eventually.js';
import { startHost, type Host, type HostOptions, type RequestListener } from './host.js';

const hosts: Host[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(hosts.splice(0).map((h) => h.close(0)));
});

async function host(extra: Partial<HostOptions> = {}): Promise<{ host: Host; port: number; open: () => Promise<number> }> {
  const h = await startHost((_req, res) => res.end('ok'), { host: '127.0.0.1', port: 0, ...extra });
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

describe('a client error on a connection with an answer in progress', () => {
  it('closes the connection without writing its own answer into the other', async () => {
    let answer: (() => void) | undefined;
    const slow: RequestListener = (_req, res) => {
      answer = () => res.end('late');
    };
    const h = await startHost(slow, { host: '127.0.0.1', port: 0 });
    hosts.push(h);
    const s = await client(Number(new URL(h.url).port), '127.0.0.1');
    let text = '';
    s.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    // A request, then garbage pipelined behind it: Node reports the garbage while the first is being answered.
    s.write('GET /a HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\n');
    await closed(s);
    answer?.();
    expect(text).not.toContain('400 Bad Request');
  });
});

describe('answers written later', () => {
  /** A host answering each request with its path, `delayMs` milliseconds after it arrives. */
  async function lateHost(delayMs: number): Promise<number> {
    const late: RequestListener = (req, res) => void setTimeout(() => res.end(`late ${req.url}`), delayMs);
    const h = await startHost(late, { host: '127.0.0.1', port: 0 });
    hosts.push(h);
    return Number(new URL(h.url).port);
  }

  /** Everything the server sends on `s` until it closes the connection. */
  function untilClosed(s: Socket): Promise<string> {
    let text = '';
    s.setEncoding('latin1').on('data', (chunk: string) => (text += chunk));
    return new Promise((resolve) => s.once('end', () => resolve(text)));
  }

  it('reach a client that half-closes right after its request, then the connection closes', async () => {
    const s = await halfOpenClient(await lateHost(50));
    const received = untilClosed(s);
    s.end('GET /one HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await received).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nlate \/one$/);
  });

  it('reach a client that pipelines two requests and half-closes, in order', async () => {
    const s = await halfOpenClient(await lateHost(30));
    const received = untilClosed(s);
    s.end('GET /one HTTP/1.1\r\nHost: x\r\n\r\nGET /two HTTP/1.1\r\nHost: x\r\n\r\n');
    const text = await received;
    expect(text.match(/late \/(?:one|two)/g)).toEqual(['late /one', 'late /two']);
  });

  it('leave a keep-alive connection open for the next request', async () => {
    const s = await halfOpenClient(await lateHost(10));
    let text = '';
    s.setEncoding('latin1').on('data', (chunk: string) => (text += chunk));
    s.write('GET /one HTTP/1.1\r\nHost: x\r\n\r\n');
    await eventually(() => text.includes('late /one'));
    s.write('GET /two HTTP/1.1\r\nHost: x\r\n\r\n');
    await eventually(() => text.includes('late /two'));
    expect(s.destroyed).toBe(false);
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
