/**
 * The live preview over plain HTTP, against the real preview and the real production server on temporary copies
 * of the small content fixture: the preview serves production's bodies (pages with the reload script added), its
 * event stream announces each reload and each invalid load, the error page is escaped and only HTML is replaced
 * (the API keeps the last good index), it starts on invalid content, refuses foreign `Host` names, and
 * `syllabus-content dev` runs it as a command. Production serves none of it.
 */
import { spawn } from 'node:child_process';
import { request, type IncomingMessage } from 'node:http';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeNamed } from '../src/contract/routes.js';
import type { Preview } from '../src/preview/preview.js';
import { writeContentFixture } from './helpers/content-fixture.js';
import { eventually } from './helpers/eventually.js';
import { saveEdit, startFixturePreview } from './helpers/preview.js';
import { killServers, spawnServer } from './helpers/server-process.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const COURSE = 'courses/python-basics/index.md';
const HTML = { Accept: 'text/html' };
const SCRIPT_TAG = /<script src="\/__syllabus\/reload\.js" data-version="([^"]+)"><\/script>/;
const PREVIEW_STYLESHEET_TAG = '<link rel="stylesheet" href="/__syllabus/preview.css" />';
const LESSON_LINK = /<a href="\/__syllabus\/lessons\/[a-z0-9-]+" data-preview-lesson="[a-z0-9-]+">([^<]*)<\/a>/g;

/** The server-sent events of a stream, as they arrive: name and data. */
function listen(url: string): { events: Array<{ event: string; data: string }>; close(): void } {
  const events: Array<{ event: string; data: string }> = [];
  let buffered = '';
  const req = request(url, { headers: { Accept: 'text/event-stream' } }, (res: IncomingMessage) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffered += chunk;
      let end;
      while ((end = buffered.indexOf('\n\n')) !== -1) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const fields = Object.fromEntries(block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]));
        if (fields.event !== undefined) events.push({ event: fields.event, data: fields.data ?? '' });
      }
    });
  });
  req.on('error', () => undefined);
  req.end();
  return { events, close: () => req.destroy() };
}

describe('a production server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('sends no preview script and has no event stream', async () => {
    const page = await fetch(`${server.url}/courses/python-basics`, { headers: HTML });
    expect(page.status).toBe(200);
    const body = await page.text();
    expect(body).not.toContain('<script');
    expect(body).not.toContain('__syllabus');
    expect(page.headers.get('content-security-policy')).not.toMatch(/script-src|connect-src/);
    expect(page.headers.get('etag')).toMatch(/^"/);
    for (const path of ['/__syllabus/events', '/__syllabus/reload.js', '/__syllabus/preview.css', '/__syllabus/lessons/hello-world']) {
      const res = await fetch(server.url + path, { headers: { Accept: 'text/event-stream' } });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).not.toContain('text/event-stream');
    }
  });
});

describe('the preview', () => {
  let dir: string;
  let running: Preview;
  let production: TestServer;
  beforeAll(async () => {
    ({ dir, preview: running } = await startFixturePreview());
    // Production on the same content, with the preview's public URL: the pages must be the same bytes.
    production = await startTestServer({ env: { PUBLIC_BASE_URL: running.url } });
  });
  afterAll(async () => {
    await running?.close();
    await production?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("serves production's pages with the reload script added, and production's API bodies as they are", async () => {
    for (const path of ['/', '/courses/python-basics', '/changelog', '/roadmap', '/courses/no-such-course']) {
      const [dev, prod] = await Promise.all([fetch(running.url + path, { headers: HTML }), fetch(production.url + path, { headers: HTML })]);
      expect(dev.status, path).toBe(prod.status);
      const devBody = await dev.text();
      const tag = SCRIPT_TAG.exec(devBody);
      expect(tag, path).not.toBeNull();
      expect(tag![1]).toBe(running.state.snapshot().version);
      // Besides the script, the preview adds its stylesheet and, on a course page, a link on each lesson's title.
      const additions = devBody.replace(tag![0], '').replace(PREVIEW_STYLESHEET_TAG, '').replace(LESSON_LINK, '$1');
      expect(additions, path).toBe(await prod.text());
      expect((devBody.match(LESSON_LINK) ?? []).length, path).toBe(path === '/courses/python-basics' ? 3 : 0);
      expect(devBody.indexOf(tag![0])).toBe(devBody.lastIndexOf('</body>') - tag![0].length);
      expect(dev.headers.get('etag'), path).toBeNull();
      expect(dev.headers.get('cache-control'), path).toBe('no-store');
      expect(Number(dev.headers.get('content-length'))).toBe(Buffer.byteLength(devBody));
      expect(dev.headers.get('content-encoding')).toBeNull();
      expect(dev.headers.get('content-security-policy')).toBe(
        `${prod.headers.get('content-security-policy')}; script-src 'self'; connect-src 'self'`,
      );
    }
    for (const path of ['/v1/catalog', '/v1/courses/python-basics', '/changelog.atom']) {
      // The preview asks the app for the identity coding (it may change bodies); so does this comparison.
      const identity = { headers: { 'Accept-Encoding': 'identity' } };
      const [dev, prod] = await Promise.all([fetch(running.url + path), fetch(production.url + path, identity)]);
      expect(dev.status, path).toBe(200);
      expect(Buffer.from(await dev.arrayBuffer()).equals(Buffer.from(await prod.arrayBuffer())), path).toBe(true);
      expect(dev.headers.get('etag'), path).toBe(prod.headers.get('etag'));
    }
    const script = await fetch(`${running.url}/__syllabus/reload.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toContain('new EventSource("/__syllabus/events")');
  });

  it('answers referral checks 503 without a referral file: it has no codes, so it checks none', async () => {
    const res = await fetch(`${running.url}/v1/referrals/WELCOME-2026`);
    expect(res.status).toBe(503);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await res.json()) as unknown).toEqual({ detail: routeNamed('referral').unavailable });
  });

  it('announces each reload and each invalid load; while invalid, pages are the escaped error page and the API the last good index', async () => {
    const stream = listen(`${running.url}/__syllabus/events`);
    try {
      await eventually(() => stream.events.length === 1, { what: 'the hello event' });
      expect(stream.events[0]).toEqual({ event: 'hello', data: running.state.snapshot().version });

      await saveEdit(dir, COURSE, 'title: Python basics', 'title: Python from scratch');
      await eventually(() => stream.events.some((e) => e.event === 'reload'), { what: 'the reload event' });
      const reloaded = await (await fetch(`${running.url}/courses/python-basics`, { headers: HTML })).text();
      expect(reloaded).toContain('<h1>Python from scratch</h1>');
      expect(SCRIPT_TAG.exec(reloaded)![1]).toBe(stream.events.at(-1)!.data);

      await saveEdit(dir, COURSE, 'status: live', 'status: <b>maybe</b>');
      await eventually(() => stream.events.some((e) => e.event === 'problems'), { what: 'the problems event' });
      const page = await fetch(`${running.url}/courses/python-basics`, { headers: HTML });
      expect(page.status).toBe(500);
      expect(page.headers.get('cache-control')).toBe('no-store');
      const body = await page.text();
      expect(body).toContain(`<h2><code>${COURSE}:6:1</code></h2>`);
      expect(body).toContain(
        '<p class="message">&quot;status&quot; must be one of &quot;live&quot;, &quot;soon&quot;, got &quot;&lt;b&gt;maybe&lt;/b&gt;&quot;',
      );
      expect(body).toContain('&gt; 6 | status: &lt;b&gt;maybe&lt;/b&gt;\n    | ^');
      expect(body).not.toContain('<b>');
      expect(body).not.toContain(dir); // paths are relative to the content folder
      expect(SCRIPT_TAG.exec(body)![1]).toBe(stream.events.at(-1)!.data);
      // Every HTML answer is the error page; the API answers from the last good index.
      expect((await fetch(`${running.url}/no/such/page`, { headers: HTML })).status).toBe(500);
      const api = await fetch(`${running.url}/v1/courses/python-basics`);
      expect(api.status).toBe(200);
      expect(((await api.json()) as { title: string }).title).toBe('Python from scratch');

      await saveEdit(dir, COURSE, 'status: <b>maybe</b>', 'status: live');
      await eventually(() => stream.events.at(-1)?.event === 'reload', { what: 'the reload event after the fix' });
      expect((await fetch(`${running.url}/courses/python-basics`, { headers: HTML })).status).toBe(200);
      expect(stream.events.map((e) => e.event)).toEqual(['hello', 'reload', 'problems', 'reload']);
      expect(new Set(stream.events.map((e) => e.data)).size).toBe(4);
    } finally {
      stream.close();
    }
  });

  it('answers only requests for this machine when bound to loopback', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${running.url}/`, { headers: { Host: 'rebound.example:4321' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
    expect((await fetch(`${running.url.replace('127.0.0.1', 'localhost')}/v1/health`)).status).toBe(200);
  });
});

describe('the preview of invalid content', () => {
  it('starts, shows the problems until the content is valid, then serves it', async () => {
    const { dir, preview: running } = await startFixturePreview((files) => {
      files[COURSE] = files[COURSE]!.replace('status: live', 'status: maybe');
    });
    try {
      const page = await fetch(`${running.url}/`, { headers: HTML });
      expect(page.status).toBe(500);
      expect(await page.text()).toContain(`${COURSE}:6:1`);
      const api = await fetch(`${running.url}/v1/catalog`);
      expect(api.status).toBe(503);
      await saveEdit(dir, COURSE, 'status: maybe', 'status: live');
      await eventually(async () => (await fetch(`${running.url}/`, { headers: HTML })).status === 200, { what: 'the page once fixed' });
      expect((await fetch(`${running.url}/v1/catalog`)).status).toBe(200);
    } finally {
      await running.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('stops cleanly before the content was ever valid', async () => {
    const { dir, preview: running } = await startFixturePreview((files) => {
      files[COURSE] = files[COURSE]!.replace('status: live', 'status: maybe');
    });
    try {
      expect(running.state.snapshot().problems).toHaveLength(1);
    } finally {
      await running.close();
      await rm(dir, { recursive: true, force: true });
    }
    await expect(fetch(running.url)).rejects.toThrow();
  });
});

describe('syllabus-content dev', () => {
  const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
  const CLI = join(ROOT, 'src/content-cli/main.ts');

  it('prints the URL and each invalid load and reload, serves the preview, and stops on SIGTERM with status 0', async () => {
    const dir = await writeContentFixture(undefined, (files) => {
      files[COURSE] = files[COURSE]!.replace('status: live', 'status: maybe');
    });
    // The published sample codes, named as `npm run dev` names them.
    const referrals = ['--referrals-file', 'referrals.sample.txt'];
    const dev = spawnServer(
      { FORCE_COLOR: '', NO_COLOR: '' },
      { command: [process.execPath, '--import', TSX, CLI, 'dev', '--port', '0', ...referrals, dir] },
    );
    try {
      await eventually(() => dev.stdout().includes(`${COURSE}:6:1`), { what: 'the problem', limitMs: 30_000 });
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(dev.stdout())![0];
      // Piped, as in CI: one plain line per problem, as `validate` prints it.
      expect(dev.stdout().split('\n').slice(0, 3)).toEqual([
        `Previewing ${dir} at ${url} (Ctrl-C to stop)`,
        expect.stringMatching(/^\d\d:\d\d:\d\d 1 problem: the preview shows them until they are fixed$/),
        expect.stringMatching(new RegExp(`^${COURSE}:6:1: "status" must be one of "live", "soon", got "maybe"`)),
      ]);
      expect((await fetch(url, { headers: HTML })).status).toBe(500);
      await saveEdit(dir, COURSE, 'status: maybe', 'status: live');
      await eventually(() => dev.stdout().includes('reloaded'), { what: 'the reload line' });
      const page = await fetch(url, { headers: HTML });
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(SCRIPT_TAG);
      expect(await (await fetch(`${url}/v1/referrals/WELCOME-2026`)).json()).toEqual({ valid: true });
      expect(await (await fetch(`${url}/v1/referrals/WELCOME-2099`)).json()).toEqual({ valid: false });
      dev.child.kill('SIGTERM');
      expect(await dev.exited).toBe(0);
    } finally {
      killServers();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a bad port, a missing folder and a missing referral file with status 2', async () => {
    const run = (args: string[]): Promise<{ code: number | null; stderr: string }> =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, ['--import', TSX, CLI, 'dev', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
        child.on('exit', (code) => resolve({ code, stderr }));
      });
    const badPort = await run(['--port', '70000']);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('a port is an integer from 0 to 65535');
    const missing = await run(['/nonexistent/content']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('/nonexistent/content: not a directory');
    const noCodes = await run(['--referrals-file', '/nonexistent/referrals.txt', join(ROOT, 'content')]);
    expect(noCodes.code).toBe(2);
    expect(noCodes.stderr).toContain('/nonexistent/referrals.txt: not a file (--referrals-file)');
  });
});
