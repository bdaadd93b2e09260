/**
 * A preview only its writer can read, against the real preview on a temporary copy of the small content fixture:
 * no answer carries an `Access-Control-*` field; a read by another origin's page (its `Origin`, or Fetch Metadata
 * saying `cross-site`) is refused with 403, while the writer's own pages, a typed URL, a link followed from
 * elsewhere and programs (no such fields) are served; the server inside, on its random loopback port, answers only
 * requests for its own `Host` and refuses other origins' reads too.
 */
import { Writable } from 'node:stream';
import { rm } from 'node:fs/promises';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreview, type Preview } from '../src/preview/preview.js';
import { writeContentFixture } from './helpers/content-fixture.js';
import { rawRequest, type RawResponse } from './helpers/http.js';

/** One request with exactly these header fields (`fetch` would add or refuse some, e.g. `Host`). */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  const { origin, pathname, search } = new URL(url);
  return rawRequest(origin, pathname + search, { headers, method });
}

const corsFields = (answer: RawResponse): string[] => Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'));

/** What another site's script sends with `fetch(url)`. */
const CROSS_ORIGIN_READ = {
  Origin: 'https://elsewhere.example',
  'Sec-Fetch-Site': 'cross-site',
  'Sec-Fetch-Mode': 'cors',
  'Sec-Fetch-Dest': 'empty',
};
const PATHS = [
  '/v1/catalog',
  '/v1/lessons/hello-world',
  '/courses/python-basics',
  '/changelog.atom',
  '/__syllabus/lessons/hello-world',
  '/__syllabus/events',
];

let dir: string;
let preview: Preview;
/** The URL of the server inside, from its "serving" log line. */
let inner: string;

beforeAll(async () => {
  dir = await writeContentFixture();
  const lines: Array<{ msg?: string; url?: string }> = [];
  const log = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.startsWith('{')) lines.push(JSON.parse(line) as { msg?: string; url?: string });
      done();
    },
  });
  preview = await startPreview({ dir, host: '127.0.0.1', port: 0, debounceMs: 50, logger: pino({ level: 'info' }, log) });
  inner = lines.find((l) => l.msg === 'serving')!.url!;
  expect(new URL(inner).hostname).toBe('127.0.0.1');
  expect(inner).not.toBe(preview.url);
});

afterAll(async () => {
  await preview?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the dev host', () => {
  it("refuses another origin's read with 403 and no CORS field, on every kind of path and on preflights", async () => {
    for (const path of PATHS) {
      const answer = await raw(preview.url + path, CROSS_ORIGIN_READ);
      expect(answer.status, path).toBe(403);
      expect(corsFields(answer), path).toEqual([]);
      expect(answer.text).toBe('The preview answers its own pages only: a request from https://elsewhere.example is refused.\n');
      expect(answer.text).not.toContain('Python basics');
    }
    const preflight = await raw(`${preview.url}/v1/catalog`, { ...CROSS_ORIGIN_READ, 'Access-Control-Request-Method': 'GET' }, 'OPTIONS');
    expect(preflight.status).toBe(403);
    expect(corsFields(preflight)).toEqual([]);
    // A sandboxed or file: page, another port of this machine (same site), Fetch Metadata without Origin (no-cors).
    for (const headers of <Array<Record<string, string>>>[
      { Origin: 'null' },
      { Origin: preview.url.replace(/:\d+$/, ':1') },
      { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'script' },
      { 'Sec-Fetch-Site': 'same-site', 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Dest': 'empty' },
      { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'iframe' },
    ]) {
      const answer = await raw(`${preview.url}/v1/catalog`, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(corsFields(answer)).toEqual([]);
    }
  });

  it('serves its own pages, the writer and programs, and a link followed from elsewhere, never with a CORS field', async () => {
    const own = new URL(preview.url);
    const served: Array<Record<string, string>> = [
      {}, // curl, a test, a link checker
      { Origin: own.origin, 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Dest': 'empty' },
      { 'Sec-Fetch-Site': 'none', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document' }, // a typed URL
      { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document' }, // a link elsewhere
    ];
    for (const headers of served) {
      for (const path of PATHS.filter((p) => p !== '/__syllabus/events')) {
        const answer = await raw(preview.url + path, { Accept: 'text/html', ...headers });
        expect(answer.status, `${path} ${JSON.stringify(headers)}`).toBe(200);
        expect(corsFields(answer), path).toEqual([]);
      }
    }
    // The app's own CORS answers lose their fields too: a preflight from this origin, a 404.
    const preflight = await raw(`${preview.url}/v1/catalog`, { Origin: own.origin, 'Access-Control-Request-Method': 'GET' }, 'OPTIONS');
    expect(preflight.status).toBe(204);
    expect(corsFields(preflight)).toEqual([]);
    const missing = await raw(`${preview.url}/v1/courses/no-such-course`);
    expect(missing.status).toBe(404);
    expect(corsFields(missing)).toEqual([]);
  });
});

describe('the server inside the preview', () => {
  it('answers its own Host only, refuses other origins, and serves what its dev host forwards', async () => {
    const port = new URL(inner).port;
    for (const host of [`rebound.example:${port}`, `localhost:${port}`, `127.0.0.1:${new URL(preview.url).port}`, '127.0.0.1']) {
      const answer = await raw(`${inner}/v1/catalog`, { Host: host });
      expect(answer.status, host).toBe(403);
      expect(answer.text).toBe('This server answers the preview only: open the URL the preview printed.\n');
      expect(corsFields(answer)).toEqual([]);
    }
    const crossOrigin = await raw(`${inner}/v1/catalog`, CROSS_ORIGIN_READ);
    expect(crossOrigin.status).toBe(403);
    expect(corsFields(crossOrigin)).toEqual([]);
    const direct = await raw(`${inner}/v1/catalog`);
    expect(direct.status).toBe(200);
    // The app allows any origin (the public API); what the dev host answers never says so.
    expect(corsFields(direct)).toContain('access-control-allow-origin');
    // Through the dev host, under its own name: served.
    expect((await raw(`${preview.url.replace('127.0.0.1', 'localhost')}/v1/catalog`)).status).toBe(200);
  });
});
