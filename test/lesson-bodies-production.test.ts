/**
 * Production never serves a lesson's body. The built server (`dist/server.js` in a temporary app folder with the
 * bundled content, `NODE_ENV=production`) is asked for every route of the route table, with every id the content
 * has, and for every same-origin link its answers carry (pages, sitemap, feed, API documents), followed until none
 * is new; no answer holds a sentence of any lesson's body. The preview's lesson pages are no route of production
 * (404), while the preview shows each of those sentences: the check finds a body where there is one.
 */
import { readdir, readFile, rm, cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Nodes } from 'mdast';
import { lessonOutline } from '../src/content/lesson-outline.js';
import { ROUTES } from '../src/contract/routes.js';
import { startPreview } from '../src/preview/preview.js';
import { buildApp, type BuiltApp } from './helpers/built-app.js';
import { killServers, servingUrl, spawnServer } from './helpers/server-process.js';

/** A run of plain words: the same characters in HTML, JSON, XML and a URL's text, so no escaping can hide it. */
const PLAIN_RUN = /[A-Za-z0-9][A-Za-z0-9 ,]{38,}[A-Za-z0-9]/g;
/** Most URLs one crawl may visit: far above what the bundled content links (a bound on a runaway, not a target). */
const MAX_URLS = 5000;

/** Budgets no crawl of every page spends (the default would answer 429 part way). */
const BUDGETS = Object.fromEntries(['VERIFIED', 'DECLARED', 'BROWSER', 'ANONYMOUS', 'REFERRALS'].map((kind) => [`RATE_LIMIT_${kind}`, '1000000']));

let app: BuiltApp;
let url: string;
/** Lesson id → its longest plain sentence fragment found in no other content file. */
const sentences = new Map<string, string>();

beforeAll(async () => {
  app = await buildApp();
  const server = spawnServer(
    { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://catalog.example.com', REFERRALS_FILE: 'referrals.sample.txt', ...BUDGETS },
    { command: [process.execPath, 'dist/server.js'], cwd: app.dir },
  );
  url = await servingUrl(server);
  const content = join(app.dir, 'content');
  const others: string[] = [];
  const lessons: Array<[string, string]> = [];
  for (const rel of (await readdir(content, { recursive: true })).map((p) => p.split('\\').join('/')).filter((p) => p.endsWith('.md'))) {
    const text = await readFile(join(content, rel), 'utf8');
    const parts = rel.split('/');
    if (parts[0] === 'courses' && parts.length === 4 && parts[3] !== 'index.md') lessons.push([parts[3]!.slice(0, -3), text]);
    else others.push(text);
  }
  for (const [id, text] of lessons) {
    const runs = proseOf(lessonOutline(text).tree)
      .flatMap((prose) => prose.match(PLAIN_RUN) ?? [])
      .map((run) => run.trim())
      .filter((run) => !others.some((other) => other.includes(run)) && !text.split('---')[1]!.includes(run));
    const longest = runs.sort((a, b) => b.length - a.length)[0];
    if (longest !== undefined) sentences.set(id, longest);
  }
}, 180_000);

afterAll(async () => {
  killServers();
  await app?.remove();
});

/** Each run of text of a lesson's body (code aside), as a learner reads it: its sentences and step titles. */
function proseOf(node: Nodes): string[] {
  if (node.type === 'text') return [node.value];
  return 'children' in node ? node.children.flatMap(proseOf) : [];
}

/** Every path the route table names, each template filled with every id of its kind. */
async function routePaths(): Promise<string[]> {
  const catalog = (await (await fetch(`${url}/v1/catalog`)).json()) as {
    courses: Array<{ id: string; classes: Array<{ lessons: Array<{ id: string }> }> }>;
  };
  const values: Record<string, string[]> = {
    course_id: catalog.courses.map((c) => c.id),
    lesson_id: catalog.courses.flatMap((c) => c.classes.flatMap((k) => k.lessons.map((l) => l.id))),
    code: ['WELCOME-2026', 'NOT-A-CODE'],
    file: ['site.css', 'swagger-ui.css'], // real names are found by following the pages' and /docs' links
  };
  return ROUTES.flatMap((route) => {
    const param = /\{([a-z_]+)\}/.exec(route.path)?.[1];
    return param === undefined ? [route.path] : values[param]!.map((value) => route.path.replace(`{${param}}`, value));
  });
}

/** Same-origin paths an answer links to: `href`, `src`, sitemap `<loc>`, Atom links, `$ref`-free JSON paths. */
function linkedPaths(body: string, base: string): string[] {
  const out: string[] = [];
  for (const m of body.matchAll(/(?:href|src)="([^"]+)"|<loc>([^<]+)<\/loc>|"(\/[^"\s]*)"/g)) {
    const raw = (m[1] ?? m[2] ?? m[3])!.replace(/&amp;/g, '&');
    let target: URL;
    try {
      target = new URL(raw.replace('https://catalog.example.com', base), base);
    } catch {
      continue;
    }
    if (target.origin === new URL(base).origin && !target.pathname.includes('{')) out.push(target.pathname + target.search);
  }
  return out;
}

describe('the built server in production', () => {
  it('has a sentence of every lesson to look for', () => {
    expect(sentences.size).toBeGreaterThan(10);
    for (const sentence of sentences.values()) expect(sentence.length).toBeGreaterThanOrEqual(40);
  });

  it("serves no lesson's body on any route or any page it links, and no preview lesson page", async () => {
    const queue = [...(await routePaths()), ...[...sentences.keys()].map((id) => `/__syllabus/lessons/${id}`)];
    const seen = new Set<string>();
    const statuses = new Map<number, number>();
    while (queue.length > 0) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      seen.add(path);
      expect(seen.size, 'a runaway crawl').toBeLessThan(MAX_URLS);
      for (const accept of ['text/html', 'application/json']) {
        const res = await fetch(url + path, { headers: { Accept: accept, 'Accept-Encoding': 'identity' }, redirect: 'manual' });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const body = await res.text();
        for (const [id, sentence] of sentences) expect(body.includes(sentence), `${path} (${accept}) holds a sentence of ${id}`).toBe(false);
        if (path.startsWith('/__syllabus/')) expect(res.status, path).toBe(404);
        const location = res.headers.get('location');
        if (location !== null) queue.push(...linkedPaths(`href="${location}"`, url));
        queue.push(...linkedPaths(body, url));
      }
    }
    // Every kind of page and document was read: the course pages, the changelog, the docs, the stylesheets.
    expect([...seen]).toEqual(expect.arrayContaining(['/', '/courses/python-foundations', '/changelog', '/docs', '/openapi.json', '/sitemap.xml']));
    expect([...seen].some((p) => /^\/assets\/site\.[\w-]+\.css$/.test(p))).toBe(true);
    expect([...seen].some((p) => p.startsWith('/v1/lessons/'))).toBe(true);
    expect(statuses.get(200)).toBeGreaterThan(50);
  }, 120_000);
});

describe('the preview of the same content', () => {
  it('shows each of those sentences on the lesson page', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'syllabus-bodies-'));
    await cp(join(app.dir, 'content'), dir, { recursive: true });
    const preview = await startPreview({ dir, host: '127.0.0.1', port: 0, logger: pino({ level: 'silent' }) });
    try {
      for (const [id, sentence] of sentences) {
        const page = await (await fetch(`${preview.url}/__syllabus/lessons/${id}`)).text();
        expect(page, id).toContain(sentence);
      }
    } finally {
      await preview.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
