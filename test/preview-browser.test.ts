/**
 * The live preview as a writer meets it, in a real headless Chromium (Debian's, driven by playwright-core) against
 * the real preview on a temporary copy of the small content fixture: an edit on disk reloads the open page by
 * itself; a broken file turns it into the error page (the problem's `path:line:column`, its message and its code
 * frame with the caret); the fix brings the page back. The pages' strict policy holds: the browser reports no
 * refused script, no console error and no failed request besides the error page's own 500.
 */
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './helpers/chromium.js';
import { startPreview, type Preview } from '../src/preview/preview.js';
import { writeContentFixture } from './helpers/content-fixture.js';

/** Waits for what the page does by itself: a bound on a hang, not a timing assertion. */
const WAIT = { timeout: 20_000 };
const COURSE = 'courses/python-basics/index.md';

let dir: string;
let preview: Preview;
let browser: Browser;

beforeAll(async () => {
  dir = await writeContentFixture();
  preview = await startPreview({ dir, host: '127.0.0.1', port: 0, debounceMs: 50, logger: pino({ level: 'silent' }) });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await preview?.close();
  await rm(dir, { recursive: true, force: true });
});

/**
 * Replaces `from` with `to` in a content file (it must be there), as an editor that saves atomically does: the
 * watcher never sees a half-written file.
 */
async function edit(path: string, from: string, to: string): Promise<void> {
  const text = await readFile(join(dir, path), 'utf8');
  expect(text).toContain(from);
  const staged = `${dir}.saving`;
  await writeFile(staged, text.replace(from, to));
  await rename(staged, join(dir, path));
}

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
      await edit(COURSE, 'title: Python basics', 'title: Python from scratch');
      await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Python from scratch', undefined, WAIT);
      expect(loads).toBeGreaterThan(1);

      // A broken file: the error page lists the problem with its location and code frame.
      await edit(COURSE, 'status: live', 'status: maybe');
      await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'The content has 1 problem', undefined, WAIT);
      const sections = page.locator('section');
      expect(await sections.count()).toBe(1);
      expect(await sections.locator('h2').textContent()).toBe(`${COURSE}:6:1`);
      expect(await sections.locator('p').textContent()).toContain('"status" must be one of "live", "soon", got "maybe"');
      const frame = (await sections.locator('pre').textContent()) ?? '';
      expect(frame.split('\n')).toEqual(['  5 | color: "#3776ab"', '> 6 | status: maybe', '    | ^', '  7 | classes:']);

      // Fixed: the page comes back by itself, with the content as saved.
      await edit(COURSE, 'status: maybe', 'status: live');
      await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Python from scratch', undefined, WAIT);
      expect(await page.locator('script[src="/__syllabus/reload.js"]').count()).toBe(1);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
