/**
 * The pages as a person meets them, in a real headless Chromium (Debian's, driven by playwright-core) against
 * the real server: every page in light and dark, desktop and phone width, with no console error, no request to
 * another host, no failed request, no serious or critical axe-core violation (colour contrast verified on every
 * text node), no horizontal scrolling on a phone; every internal link resolves, fragments included
 * (`/roadmap` → `/changelog#<id>`); keyboard focus is visible; the pages work without JavaScript; and an edit
 * of a changelog file reaches the page (hot reload). Screenshots go to `test-output/screenshots/` for review.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './helpers/chromium.js';
import type { Catalog, Changelog } from '../src/schemas/types.generated.js';
import { bundledContentFiles, useBundledContent } from './helpers/pages-content.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const SCREENSHOTS = join(process.cwd(), 'test-output', 'screenshots');
const AXE_SOURCE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const VIEWPORTS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } } as const;
const SCHEMES = ['light', 'dark'] as const;

interface AxeResult {
  violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> }>;
  incomplete: Array<{ id: string; nodes: Array<{ target: string[] }> }>;
}

let server: TestServer;
let browser: Browser;
/** Every page to visit: path and a file-friendly name; the 404 page is visited too. */
let pages: Array<{ path: string; name: string; status: number }>;

/** A browser context that records what should never happen on our pages. */
async function watchedContext(options: Parameters<Browser['newContext']>[0]): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ serviceWorkers: 'block', ...options });
  const page = await context.newPage();
  const problems: string[] = [];
  const origin = new URL(server.url).origin;
  const expected404 = (url: string) => pages.some((p) => p.status === 404 && url.split('#')[0] === server.url + p.path);
  page.on('console', (m) => {
    // Chromium logs the intended 404 page's own status as a console error.
    if (m.type() === 'error' && expected404(m.location().url) && m.text().includes('404')) return;
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    if (new URL(r.url()).origin !== origin) problems.push(`request to another host: ${r.url()}`);
  });
  page.on('requestfailed', (r) => {
    // A navigation cancels the previous page's pending loads (e.g. its icon): not a failure of the page.
    if (r.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400 && !(r.request().isNavigationRequest() && expected404(r.url()))) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  return { context, page, problems };
}

async function axe(page: Page): Promise<AxeResult> {
  // Evaluated through the DevTools protocol, so the page's strict CSP (no inline script) stays on.
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(() =>
    (window as unknown as { axe: { run(ctx: Document, o: object): Promise<AxeResult> } }).axe.run(document, {
      resultTypes: ['violations', 'incomplete'],
    }),
  );
}

beforeAll(async () => {
  server = await startTestServer({ editContent: useBundledContent(await bundledContentFiles()), start: { contentDebounceMs: 50 } });
  browser = await launchChromium();
  const catalog = (await (await fetch(`${server.url}/v1/catalog`)).json()) as Catalog;
  pages = [
    { path: '/', name: 'home', status: 200 },
    ...catalog.courses.map((c) => ({ path: `/courses/${c.id}`, name: `course-${c.id}`, status: 200 })),
    { path: '/changelog', name: 'changelog', status: 200 },
    { path: '/roadmap', name: 'roadmap', status: 200 },
    { path: '/courses/no-such-course', name: 'not-found', status: 404 },
  ];
  await mkdir(SCREENSHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('every page in Chromium', () => {
  for (const scheme of SCHEMES) {
    for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
      it(`${viewportName}, ${scheme}: no errors, no other host, accessible, fits the screen`, async () => {
        const { context, page, problems } = await watchedContext({ viewport, colorScheme: scheme });
        try {
          for (const p of pages) {
            const res = await page.goto(server.url + p.path, { waitUntil: 'load' });
            expect(res?.status(), p.path).toBe(p.status);
            await page.screenshot({ path: join(SCREENSHOTS, `${p.name}-${viewportName}-${scheme}.png`), fullPage: true });
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
            expect(overflow, `${p.path} scrolls sideways`).toBeLessThanOrEqual(0);
            if (viewportName === 'desktop') {
              const result = await axe(page);
              const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
              expect(
                serious.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
                p.path,
              ).toEqual([]);
              const unverifiedContrast = result.incomplete
                .filter((i) => i.id === 'color-contrast')
                .flatMap((i) => i.nodes.map((n) => n.target.join(' ')));
              expect(unverifiedContrast, `${p.path}: contrast axe could not verify`).toEqual([]);
            }
          }
          expect(problems).toEqual([]);
        } finally {
          await context.close();
        }
      });
    }
  }
});

describe('links and interaction', () => {
  it('every internal link and link element resolves, fragments included', async () => {
    const { context, page, problems } = await watchedContext({});
    try {
      const origin = new URL(server.url).origin;
      const targets = new Set<string>();
      for (const p of pages) {
        await page.goto(server.url + p.path);
        const hrefs = await page.$$eval('a[href], link[href]', (els) => els.map((e) => (e as HTMLAnchorElement | HTMLLinkElement).href));
        for (const href of hrefs) if (new URL(href).origin === origin) targets.add(href);
      }
      expect([...targets].some((t) => /\/changelog#.+/.test(t))).toBe(true);
      for (const target of targets) {
        const url = new URL(target);
        const res = await fetch(url.origin + url.pathname + url.search);
        expect(res.status, target).toBe(pages.find((p) => p.path === url.pathname)?.status ?? 200);
        if (url.hash) {
          await page.goto(target);
          const id = decodeURIComponent(url.hash.slice(1));
          expect(await page.evaluate((i) => document.getElementById(i) !== null, id), `${target}: no element with that id`).toBe(true);
        }
      }
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows where keyboard focus is: the skip link first, then links with a visible outline', async () => {
    const { context, page } = await watchedContext({});
    try {
      await page.goto(`${server.url}/`);
      await page.keyboard.press('Tab');
      const skip = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const s = getComputedStyle(el);
        const r = el.getBoundingClientRect();
        return { text: el.textContent, outline: s.outlineStyle, width: parseFloat(s.outlineWidth), visible: r.top >= 0 && r.bottom <= innerHeight };
      });
      expect(skip).toEqual({ text: 'Skip to content', outline: 'solid', width: 3, visible: true });
      await page.keyboard.press('Tab');
      const brand = await page.evaluate(() => {
        const s = getComputedStyle(document.activeElement!);
        return {
          href: (document.activeElement as HTMLAnchorElement).getAttribute('href'),
          outline: s.outlineStyle,
          width: parseFloat(s.outlineWidth),
        };
      });
      expect(brand).toEqual({ href: '/', outline: 'solid', width: 3 });
    } finally {
      await context.close();
    }
  });

  it('works without JavaScript', async () => {
    const { context, page, problems } = await watchedContext({ javaScriptEnabled: false });
    try {
      const catalog = (await (await fetch(`${server.url}/v1/catalog`)).json()) as Catalog;
      await page.goto(`${server.url}/`);
      await expect(page.locator('li.course-card').count()).resolves.toBe(catalog.courses.length);
      await page.locator('li.course-card h2 a').first().click();
      await expect(page.locator('h1').textContent()).resolves.toBe(catalog.courses[0]!.title);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('hot reload', () => {
  it('an edited changelog entry shows on the page', async () => {
    const { entries } = (await (await fetch(`${server.url}/v1/changelog`)).json()) as Changelog;
    const edited = entries[entries.length - 1]!;
    const page = await browser.newPage();
    try {
      await page.goto(`${server.url}/changelog`);
      const heading = page.locator(`[id="${edited.id}"] h3`);
      await expect(heading.textContent()).resolves.toBe(edited.title);
      const file = join(server.contentDir, 'changelog', `${edited.id}.md`);
      const text = await readFile(file, 'utf8');
      expect(text).toMatch(/^title: .*$/m);
      await writeFile(file, text.replace(/^title: .*$/m, 'title: Edited while the server runs'));
      await expect
        .poll(
          async () => {
            await page.reload();
            return heading.textContent();
          },
          { timeout: 15_000, interval: 200 },
        )
        .toBe('Edited while the server runs');
    } finally {
      await page.close();
    }
  });
});
