/**
 * Which requests the direct path takes (the answers themselves are held equal to the general path's in
 * test/http-direct-path.test.ts): GET and HEAD of a route it serves, whose target `@hono/node-server` would use as
 * it is or the URL parser would give back unchanged (percent-encoded octets and stray `%` included); never a dot
 * segment, plain or spelled `%2e`, nor a target or `Host` the URL parser would rewrite.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { RouteSpec } from '../contract/routes.js';
import type { DirectApp } from '../http/direct.js';
import { answerDirectly } from './direct-path.js';

/** A direct app serving every path, recording the paths it was asked about and the URLs it answered. */
function recordingApp(): DirectApp & { asked: string[]; answered: string[] } {
  const asked: string[] = [];
  const answered: string[] = [];
  return {
    asked,
    answered,
    routeOf: (path) => (asked.push(path), {} as RouteSpec),
    answer: (ctx) => (answered.push(ctx.url.href), { status: 200, headers: { 'Content-Type': 'text/plain' }, body: new TextEncoder().encode('ok') }),
    observers: () => undefined,
    record: () => {
      throw new Error('no observer is enabled');
    },
    notify: () => undefined,
  };
}

/** Offers `method target` with `Host: host` to the direct path; returns whether it took it, and what the app saw. */
function offer(method: string, target: string, host = 'catalog.example') {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  req.url = target;
  req.headers = { host };
  req.rawHeaders = ['Host', host];
  const app = recordingApp();
  const taken = answerDirectly(app, req, new ServerResponse(req), (_res, error) => {
    throw error;
  });
  return { taken, asked: app.asked, answered: app.answered };
}

describe('answerDirectly', () => {
  it.each([
    ['/v1/catalog', '/v1/catalog'],
    ['/v1/catalog?view=full', '/v1/catalog'],
    ['/v1/lessons/Not%20An%20Id', '/v1/lessons/Not%20An%20Id'],
    ['/v1/courses/%70ython', '/v1/courses/%70ython'],
    ['/v1/lessons/a%zz', '/v1/lessons/a%zz'],
    ['/v1/catalog?view=%41', '/v1/catalog'],
  ])('takes GET %s (the route of %s), with the target as the URL parser would give it back', (target, path) => {
    const { taken, asked, answered } = offer('GET', target);
    expect(taken).toBe(true);
    expect(asked).toEqual([path]);
    expect(answered).toEqual([new URL(`http://catalog.example${target}`).href]);
    expect(answered).toEqual([`http://catalog.example${target}`]);
  });

  it.each([
    ['a dot segment', '/v1/./catalog'],
    ['a double-dot segment', '/v1/lessons/../catalog'],
    ['a dot spelled %2e', '/v1/lessons/%2e%2e/catalog'],
    ['a dot spelled %2E', '/v1/%2E/catalog'],
    ['%2e anywhere, even harmless', '/v1/catalog?q=%2e'],
    ['a space', '/v1/lessons/a b'],
    ['a character the URL parser encodes', '/v1/lessons/a"b'],
    ['a fragment', '/v1/catalog#top'],
    ['a backslash', '/v1\\catalog'],
    ['an absolute form', 'http://catalog.example/v1/catalog'],
  ])('leaves a target with %s to the general path', (_, target) => {
    const { taken, answered } = offer('GET', target);
    expect(taken).toBe(false);
    expect(answered).toEqual([]);
  });

  it('leaves other methods, and a Host the URL parser would rewrite, to the general path', () => {
    expect(offer('POST', '/v1/catalog').taken).toBe(false);
    expect(offer('GET', '/v1/catalog', 'Catalog.Example').taken).toBe(false);
    expect(offer('HEAD', '/v1/catalog').taken).toBe(true);
  });
});
