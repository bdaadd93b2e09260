/**
 * The live preview as a writer meets it, in a real headless Chromium (Debian's, driven by playwright-core) against
 * the real preview on a temporary copy of the small content fixture: an edit on disk reloads the open page by
 * itself; a broken file turns it into the error page (the problem's `path:line:column`, its message and its code
 * frame with the caret); the fix brings the page back. The pages' strict policy holds: the browser reports no
 * refused script, no console error and no failed request besides the error page's own 500. A lesson opened from its
 * course page shows its steps numbered as the API counts them, and a mark once a fence is left open; a page of
 * another origin cannot read the preview.
 */
import { readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pino } from 'pino';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './helpers/chromium.js';
import { startPreview, type Preview } from '../src/preview/preview.js';
import { writeContentFixture } from './helpers/content-fixture.js';
import { eventually } from './helpers/eventually.js';
import { saveEdit } from './helpers/preview.js';

/** Waits for what the page does by itself: a bound on a hang, not a timing assertion. */
const WAIT = { timeout: 20_000 };
const COURSE = 'courses/python-basics/index.md';
const LESSON = 'courses/python-basics/first-steps/hello-world.md';

let dir: string;
let preview: Preview;
let browser: Browser;

beforeAll(async () => {
  // The lesson ends with a code block and a sentence, for the test that leaves that block open.
  dir = await writeContentFixture(undefined, (files) => {
    files[LESSON] += '\n```python\nprint("Hello, world")\n```\n\nIt prints one line.\n';
  });
  preview = await startPreview({ dir, host: '127.0.0.1', port: 0, debounceMs: 50, logger: pino({ level: 'silent' }) });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await preview?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The text of the page's first heading. */
function heading(page: Page): Promise<string | null> {
  return page.locator('h1').first().textContent();
}

describe('the preview in Chromium', () => {
  it('reloads on save, shows the error page with its code frame while the content is invalid, and comes back', async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      // Chromium logs the error page's own status (500) as a failed load.
      if (m.type() === 'error' && /status of 500/.test(m.text())) return;
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => {
      // A reload cancels the page's open event stream.
      if (r.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`);
    });
    let loads = 0;
    page.on('load', () => (loads += 1));
    try {
      const first = await page.goto(`${preview.url}/courses/python-basics`, { waitUntil: 'load' });
      expect(first?.status()).toBe(200);
      expect(await heading(page)).toBe('Python basics');
      // An edit on disk: the page reloads by itself and shows the new title.
      await saveEdit(dir, COURSE, 'title: Python basics', 'title: Python from scratch');
      await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Python from scratch', undefined, WAIT);
      expect(loads).toBeGreaterThan(1);

      // A broken file: the error page lists the problem with its location and code frame.
      await saveEdit(dir, COURSE, 'status: live', 'status: maybe');
      await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'The content has 1 problem', undefined, WAIT);
      const sections = page.locator('section');
      expect(await sections.count()).toBe(1);
      expect(await sections.locator('h2').textContent()).toBe(`${COURSE}:6:1`);
      expect(await sections.locator('p').textContent()).toContain('"status" must be one of "live", "soon", got "maybe"');
      const frame = (await sections.locator('pre').textContent()) ?? '';
      expect(frame.split('\n')).toEqual(['  5 | color: "#3776ab"', '> 6 | status: maybe', '    | ^', '  7 | classes:']);

      // Fixed: the page comes back by itself, with the content as saved.
      await saveEdit(dir, COURSE, 'status: maybe', 'status: live');
      await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Python from scratch', undefined, WAIT);
      expect(await page.locator('script[src="/__syllabus/reload.js"]').count()).toBe(1);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('opens a lesson from its course page, its steps numbered as /v1/lessons/{id} counts them, and marks a broken fence', async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const problems = watchProblems(page);
    const apiSteps = async (): Promise<number> => ((await (await fetch(`${preview.url}/v1/lessons/hello-world`)).json()) as { steps: number }).steps;
    const shownSteps = (): Promise<string[]> => page.locator('.lesson-body h2[data-step] .step-number').allTextContents();
    try {
      await page.goto(`${preview.url}/courses/python-basics`, { waitUntil: 'load' });
      await page.locator('[data-lesson="hello-world"] h3 a').click();
      await page.waitForURL(`${preview.url}/__syllabus/lessons/hello-world`, WAIT);
      expect(await heading(page)).toBe('Hello, world');
      expect(await apiSteps()).toBe(2);
      expect(await shownSteps()).toEqual(['Step 1: ', 'Step 2: ']);
      expect(await page.locator('.lesson-body h2[data-step]').allInnerTexts()).toEqual([
        expect.stringMatching(/Run Python$/),
        expect.stringMatching(/Print$/),
      ]);
      // The fenced `## …` line is code, not a step, and nothing is marked.
      expect(await page.locator('.lesson-body pre code').first().textContent()).toContain('## this is a shell comment, not a step');
      expect(await page.locator('.preview-mark').count()).toBe(0);
      // The site's stylesheet applies: the page is styled as the course pages are.
      expect(await page.locator('.site-header').evaluate((e) => getComputedStyle(e).display)).not.toBe('inline');

      // The last block's closing fence removed: the page reloads by itself and marks the block, which swallowed the
      // sentence after it; the steps are still numbered as the API counts them.
      await saveEdit(dir, LESSON, 'print("Hello, world")\n```\n', 'print("Hello, world")\n');
      const mark = page.locator('.preview-mark[data-unclosed-fence]');
      await mark.waitFor({ state: 'visible', ...WAIT });
      const text = await readFile(join(dir, LESSON), 'utf8');
      expect(await mark.getAttribute('data-unclosed-fence')).toBe(String(text.split('\n').indexOf('```python') + 1));
      expect(await mark.textContent()).toContain('is never closed, so everything after it, to the end of the lesson, is one code block');
      expect(await page.locator('pre.preview-swallowed').isVisible()).toBe(true);
      expect(await page.locator('pre.preview-swallowed').textContent()).toContain('It prints one line.');
      expect(await page.locator('.lesson-body p', { hasText: 'It prints one line.' }).count()).toBe(0);
      expect(await apiSteps()).toBe(2);
      expect(await shownSteps()).toEqual(['Step 1: ', 'Step 2: ']);
      await saveEdit(dir, LESSON, 'print("Hello, world")\n', 'print("Hello, world")\n```\n');
      await page.locator('.lesson-body p', { hasText: 'It prints one line.' }).waitFor({ state: 'visible', ...WAIT });
      expect(await page.locator('.preview-mark').count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("refuses another origin's page: its fetch of the preview fails and reads nothing", async () => {
    // A page on another origin of this machine (another port), as any web page the writer has open would be.
    const elsewhere = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>elsewhere</title>'));
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    try {
      await page.goto(`http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/`);
      // The browser hides a refused answer from the page; its DevTools protocol shows what the preview sent.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      // The protocol may report an answer's raw fields before the request they belong to: both are kept by id.
      const requests = new Map<string, string>();
      const received = new Map<string, { status: number; headers: Record<string, string> }>();
      cdp.on('Network.requestWillBeSent', ({ requestId, request }) => requests.set(requestId, request.url));
      cdp.on('Network.responseReceivedExtraInfo', ({ requestId, statusCode, headers }) => received.set(requestId, { status: statusCode, headers }));
      const answersOf = (url: string) => [...requests].flatMap(([id, sent]) => (sent === url && received.has(id) ? [received.get(id)!] : []));
      const read = await page.evaluate(async (url) => {
        try {
          return `read ${(await (await fetch(url)).text()).length} characters`;
        } catch (error) {
          return `refused: ${(error as Error).name}`;
        }
      }, `${preview.url}/v1/catalog`);
      expect(read).toBe('refused: TypeError');
      await eventually(() => answersOf(`${preview.url}/v1/catalog`).length > 0, { what: "the preview's answer in the DevTools protocol" });
      const answers = answersOf(`${preview.url}/v1/catalog`);
      expect(answers.map((a) => a.status)).toEqual([403]);
      expect(Object.keys(answers[0]!.headers).filter((name) => /^access-control-/i.test(name))).toEqual([]);
    } finally {
      await context.close();
      elsewhere.closeAllConnections();
      await new Promise((resolve) => elsewhere.close(resolve));
    }
  });
});

/** Collects what the page reports that it should not: console errors and warnings, page errors, failed requests. */
function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => {
    if (r.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`);
  });
  return problems;
}
