/**
 * `/docs` in a real headless Chromium (Debian's, driven by playwright-core) against the real server: every
 * operation of the served document is listed, "Try it out" → "Execute" on GET /v1/catalog shows the 200,
 * and no request leaves the server's origin (no CDN, fonts, telemetry or validator) nor breaks the page's CSP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './helpers/chromium.js';
import { type Browser, type Page } from 'playwright-core';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let browser: Browser;
let page: Page;
const requests: string[] = [];
const problems: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
  const context = await browser.newContext({ serviceWorkers: 'block' });
  page = await context.newPage();
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('/docs in Chromium', () => {
  it('lists every operation of the served OpenAPI document', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const expected = Object.entries(doc.paths)
      .flatMap(([path, item]) =>
        Object.keys(item)
          .filter((k) => k !== 'parameters')
          .map((m) => `${m.toUpperCase()} ${path}`),
      )
      .sort();
    expect(expected.length).toBeGreaterThanOrEqual(9);

    const response = await page.goto(`${server.url}/docs`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page
      .locator('.opblock')
      .nth(expected.length - 1)
      .waitFor({ timeout: 20_000 });
    const listed = await page
      .locator('.opblock')
      .evaluateAll((blocks) =>
        blocks.map(
          (b) => `${b.querySelector('.opblock-summary-method')?.textContent} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
        ),
      );
    expect(listed.sort()).toEqual(expected);
    await expect(page.title()).resolves.toContain('Syllabus');
  });

  it('sends GET /v1/catalog through "Try it out" to this origin and shows the 200 response', async () => {
    const op = page.locator('#operations-Catalog-getCatalog');
    await op.locator('.opblock-summary').click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/catalog');
    await op.getByRole('button', { name: 'Execute' }).click();
    const apiResponse = await answered;
    expect(apiResponse.url()).toBe(`${server.url}/v1/catalog`);
    expect(apiResponse.status()).toBe(200);

    const status = op.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor();
    expect((await status.textContent())?.trim()).toBe('200');
    const shown = await op.locator('.live-responses-table .response-col_description .microlight').first().textContent();
    const served = (await (await fetch(`${server.url}/v1/catalog`)).json()) as { courses: Array<{ id: string }> };
    expect(served.courses.length).toBeGreaterThan(0);
    expect(shown).toContain(`"id": "${served.courses[0]!.id}"`);
  });

  it('made no request to another host and raised no error (CSP included)', () => {
    const origin = new URL(server.url).origin;
    expect(requests.length).toBeGreaterThanOrEqual(5);
    const foreign = requests.filter((u) => !u.startsWith('data:') && !u.startsWith('blob:') && new URL(u).origin !== origin);
    expect(foreign).toEqual([]);
    expect(requests).toContain(`${origin}/openapi.json`);
    expect(requests.some((u) => u.startsWith(`${origin}/docs/assets/swagger-ui-bundle.`) && u.endsWith('.js'))).toBe(true);
    expect(problems).toEqual([]);
  });
});
