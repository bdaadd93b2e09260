/**
 * The README's API examples against the real server on the bundled `content/`: every `curl` of the README and of
 * `docs/api.md` names its client (a declared agent, not curl's anonymous default), the renamed lesson of the
 * bundled content answers the `308` the README shows, and the README's ETag text is what the answers carry.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyUserAgent } from '../src/http/client-kind.js';
import { rawRequest } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const root = fileURLToPath(new URL('..', import.meta.url));
let readme: string;
let apiDoc: string;
let srv: TestServer;

beforeAll(async () => {
  [readme, apiDoc] = await Promise.all([readFile(`${root}README.md`, 'utf8'), readFile(`${root}docs/api.md`, 'utf8')]);
  srv = await startTestServer({ env: { CONTENT_DIR: `${root}content` }, start: { watch: false } });
}, 60_000);

afterAll(() => srv?.close());

/** The `User-Agent` each `curl` line of `text` sends (`-A '…'`, or `-A "$UA"` with `UA='…'` set in the text). */
function curlAgents(text: string): Array<[line: string, agent: string | undefined]> {
  const variable = /^UA='([^']+)'/m.exec(text)?.[1];
  return text
    .split('\n')
    .filter((line) => /^(?:\$ )?curl /.test(line))
    .map((line) => {
      const agent = /-A '([^']+)'/.exec(line)?.[1] ?? (/-A "\$UA"/.test(line) ? variable : undefined);
      return [line, agent];
    });
}

describe('the README examples', () => {
  it('name their client in every curl: a declared agent, not an anonymous curl', () => {
    for (const [doc, text] of [
      ['README.md', readme],
      ['docs/api.md', apiDoc],
    ] as const) {
      const lines = curlAgents(text);
      expect(lines.length, doc).toBeGreaterThan(1);
      for (const [line, agent] of lines) expect(agent === undefined ? 'none' : classifyUserAgent(agent), `${doc}: ${line}`).toBe('declared');
    }
  });

  it('show the 308 of the renamed lesson of the bundled content as it is answered', async () => {
    const block = /```console\n\$ curl -i -A '([^']+)' http:\/\/localhost:8080(\S+)\n([\s\S]*?)```/.exec(readme);
    expect(block).not.toBeNull();
    const [, agent, path, shown] = block!;
    const res = await rawRequest(srv.url, path!, { headers: { 'user-agent': agent! } });
    expect(res.status).toBe(308);
    const lines = shown!.split('\n');
    expect(lines[0]).toBe('HTTP/1.1 308 Permanent Redirect');
    for (const line of lines.slice(1, lines.indexOf('…'))) {
      const [name, value] = line.split(': ');
      expect(res.headers[name!.toLowerCase()], line).toBe(value);
    }
    expect(lines.filter((l) => l.startsWith('{'))).toEqual([res.text]);
    // The redirect leads to the lesson.
    expect((await rawRequest(srv.url, res.headers.location!, { headers: { 'user-agent': agent! } })).status).toBe(200);
  });

  it('describe the ETags: "<hash>", "<hash>.gz" and "<hash>.br", and a 304 for a tag of any coding', async () => {
    expect(readme).toContain('`"<hash>"`');
    expect(readme).toContain('`"<hash>.gz"`');
    expect(readme).toContain('`"<hash>.br"`');
    const path = '/v1/courses/python-foundations';
    const tagOf = async (coding: string) => {
      const res = await rawRequest(srv.url, path, { headers: { 'accept-encoding': coding } });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding'], coding).toBe(coding === 'identity' ? undefined : coding);
      return res.headers.etag!;
    };
    const identity = await tagOf('identity');
    expect(identity).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const tags = { identity, gzip: await tagOf('gzip'), br: await tagOf('br') };
    expect(tags.gzip).toBe(`${identity.slice(0, -1)}.gz"`);
    expect(tags.br).toBe(`${identity.slice(0, -1)}.br"`);
    for (const coding of Object.keys(tags)) {
      for (const held of Object.values(tags)) {
        const res = await rawRequest(srv.url, path, { headers: { 'accept-encoding': coding, 'if-none-match': held } });
        expect([res.status, res.headers.etag], `${coding} holding ${held}`).toEqual([304, tags[coding as keyof typeof tags]]);
      }
    }
  });
});
