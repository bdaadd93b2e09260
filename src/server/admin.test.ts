import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from './host.js';
import { createAdminHandler, startAdminHost, type AdminRequestInfo, type AdminRoute } from './admin.js';

interface Line {
  level: 'info' | 'warn' | 'error';
  obj: Record<string, unknown>;
  msg: string | undefined;
}

const lines: Line[] = [];
const logger = {
  info: (obj: object, msg?: string) => lines.push({ level: 'info', obj: obj as Record<string, unknown>, msg }),
  warn: (obj: object, msg?: string) => lines.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }),
  error: (obj: object, msg?: string) => lines.push({ level: 'error', obj: obj as Record<string, unknown>, msg }),
};

let seenInfo: AdminRequestInfo | undefined;
const routes: AdminRoute[] = [
  {
    path: '/livez',
    methods: ['GET', 'HEAD'],
    handle: (_request, info) => {
      seenInfo = info;
      return new Response('{"status":"ok"}', { headers: { 'content-type': 'application/json' } });
    },
  },
  {
    path: '/boom',
    methods: ['GET'],
    handle: () => {
      throw new Error('secret internals at /srv/app.ts:12');
    },
  },
  { path: '/rejects', methods: ['POST'], handle: () => Promise.reject(new Error('async failure')) },
  { path: '/hidden', methods: ['POST'], enabled: false, handle: () => new Response('must not be reached') },
];

let host: Host;
beforeAll(async () => {
  host = await startAdminHost({ host: '127.0.0.1', port: 0, routes, logger });
});
afterAll(async () => {
  await host.close(1_000);
});

/** Checks the JSON error shape every admin error has. */
async function expectDetail(res: Response, status: number, detail: string): Promise<void> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(await res.text()).toBe(JSON.stringify({ detail }));
}

describe('admin route table over HTTP', () => {
  it('listens on the loopback address it was given', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('answers a declared route and gives it the socket peer', async () => {
    const res = await fetch(`${host.url}/livez?verbose=1`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
    expect(seenInfo?.peer).toMatch(/127\.0\.0\.1$/);
  });

  it.each(['/', '/livez/', '/LIVEZ', '/nope', '/livez/extra', '/hidden'])('answers 404 for %s', async (path) => {
    await expectDetail(await fetch(`${host.url}${path}`), 404, 'Not Found');
  });

  it('answers a disabled route exactly as an unknown path, whatever the method', async () => {
    const hidden = await fetch(`${host.url}/hidden`, { method: 'POST', body: 'x' });
    const unknown = await fetch(`${host.url}/unknown`, { method: 'POST', body: 'x' });
    expect(hidden.status).toBe(unknown.status);
    expect([...hidden.headers.keys()].filter((k) => k !== 'date')).toEqual([...unknown.headers.keys()].filter((k) => k !== 'date'));
    expect(await hidden.text()).toBe(await unknown.text());
  });

  it('answers 405 with Allow for another method on a known path', async () => {
    const res = await fetch(`${host.url}/livez`, { method: 'POST', body: '{}' });
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    await expectDetail(res, 405, 'Method Not Allowed');
  });

  it('answers 500 without a stack trace when a route throws or rejects, and logs the error', async () => {
    lines.length = 0;
    const thrown = await fetch(`${host.url}/boom`);
    const body = await thrown.clone().text();
    expect(body).not.toContain('secret internals');
    await expectDetail(thrown, 500, 'Internal Server Error');
    await expectDetail(await fetch(`${host.url}/rejects`, { method: 'POST' }), 500, 'Internal Server Error');
    const errors = lines.filter((l) => l.level === 'error');
    expect(errors).toHaveLength(2);
    expect(errors[0]!.obj).toMatchObject({ method: 'GET', path: '/boom' });
    expect((errors[0]!.obj.err as Error).message).toContain('secret internals');
  });

  it('sends no CORS headers', async () => {
    const res = await fetch(`${host.url}/nope`, { headers: { origin: 'https://evil.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('createAdminHandler', () => {
  it('refuses a table with a path declared twice', () => {
    const route: AdminRoute = { path: '/x', methods: ['GET'], handle: () => new Response(null) };
    expect(() => createAdminHandler([route, route], logger)).toThrow(/declared twice/);
  });

  it('works without host information', async () => {
    const handle = createAdminHandler(routes, logger);
    await expectDetail(await handle(new Request('http://admin/missing')), 404, 'Not Found');
    expect((await handle(new Request('http://admin/livez'))).status).toBe(200);
    expect(seenInfo).toEqual({ peer: '' });
  });
});
