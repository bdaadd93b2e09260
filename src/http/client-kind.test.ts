import { describe, expect, it } from 'vitest';
import { classifyUserAgent, classifyUserAgentCached, productNames } from './client-kind.js';
import type { UserAgentKind } from './client-kind.js';

/** Real User-Agent strings as sent by current software (2025–2026), with the kind each must get. */
const TABLE: Array<[string, UserAgentKind, string | undefined]> = [
  // Browsers, desktop
  ['chrome windows', 'browser', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36'],
  [
    'chrome macos',
    'browser',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
  ],
  ['chrome linux', 'browser', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36'],
  ['firefox windows', 'browser', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:145.0) Gecko/20100101 Firefox/145.0'],
  ['firefox macos', 'browser', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:145.0) Gecko/20100101 Firefox/145.0'],
  ['firefox linux', 'browser', 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:144.0) Gecko/20100101 Firefox/144.0'],
  [
    'safari macos',
    'browser',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.1 Safari/605.1.15',
  ],
  [
    'edge windows',
    'browser',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36 Edg/142.0.0.0',
  ],
  [
    'opera windows',
    'browser',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36 OPR/124.0.0.0',
  ],
  // Browsers, mobile
  [
    'chrome android',
    'browser',
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.7444.48 Mobile Safari/537.36',
  ],
  [
    'chrome ios',
    'browser',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/142.0.7444.46 Mobile/15E148 Safari/604.1',
  ],
  [
    'safari iphone',
    'browser',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Mobile/15E148 Safari/604.1',
  ],
  [
    'safari ipad',
    'browser',
    'Mozilla/5.0 (iPad; CPU OS 18_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Mobile/15E148 Safari/604.1',
  ],
  ['firefox android', 'browser', 'Mozilla/5.0 (Android 15; Mobile; rv:145.0) Gecko/145.0 Firefox/145.0'],
  [
    'firefox ios',
    'browser',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/145.0 Mobile/15E148 Safari/605.1.15',
  ],
  [
    'edge android',
    'browser',
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36 EdgA/142.0.0.0',
  ],
  [
    'edge ios',
    'browser',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 EdgiOS/142.3595.50 Mobile/15E148 Safari/605.1.15',
  ],
  [
    'samsung internet',
    'browser',
    'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/28.0 Chrome/130.0.0.0 Mobile Safari/537.36',
  ],
  [
    'android webview',
    'browser',
    'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/142.0.7444.48 Mobile Safari/537.36',
  ],
  // Crawlers and AI agents: they name themselves
  ['googlebot', 'declared', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
  [
    'googlebot smartphone',
    'declared',
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.7444.59 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  ],
  [
    'bingbot',
    'declared',
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36',
  ],
  ['gptbot', 'declared', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.3; +https://openai.com/gptbot'],
  ['chatgpt-user', 'declared', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot'],
  ['oai-searchbot', 'declared', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.3; +https://openai.com/searchbot'],
  ['claudebot', 'declared', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)'],
  ['claude-user', 'declared', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)'],
  [
    'perplexitybot',
    'declared',
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
  ],
  [
    'perplexity-user',
    'declared',
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)',
  ],
  ['duckduckbot', 'declared', 'DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)'],
  [
    'applebot',
    'declared',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
  ],
  ['yandexbot', 'declared', 'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)'],
  // Apps naming themselves, with and without a contact URL
  ['app with url', 'declared', 'acme-sync/2.1 (+https://acme.example/bot)'],
  ['app without url', 'declared', 'acme-sync/2.1'],
  ['app with email', 'declared', 'CourseMirror/0.9.3 (ops@mirror.example)'],
  ['app over library', 'declared', 'syllabus-cli/1.4.0 node-fetch/3.3.2'],
  ['app after library', 'declared', 'python-requests/2.32.3 study-buddy/3.0'],
  ['ios app on cfnetwork', 'declared', 'Syllabus/412 CFNetwork/1568.100.1 Darwin/24.0.0'],
  ['github actions app', 'declared', 'catalog-checker/1.0 (+https://github.com/acme/catalog-checker) curl/8.5.0'],
  // HTTP-library defaults and blanks: anonymous
  ['curl', 'anonymous', 'curl/8.5.0'],
  ['wget', 'anonymous', 'Wget/1.21.4'],
  ['wget2', 'anonymous', 'Wget2/2.1.0'],
  ['python-requests', 'anonymous', 'python-requests/2.32.3'],
  ['httpx', 'anonymous', 'python-httpx/0.28.1'],
  ['python urllib', 'anonymous', 'Python-urllib/3.12'],
  ['aiohttp', 'anonymous', 'Python/3.12 aiohttp/3.11.11'],
  ['go', 'anonymous', 'Go-http-client/1.1'],
  ['go http2', 'anonymous', 'Go-http-client/2.0'],
  ['java', 'anonymous', 'Java/21.0.5'],
  ['apache httpclient', 'anonymous', 'Apache-HttpClient/4.5.14 (Java/17.0.8)'],
  ['okhttp', 'anonymous', 'okhttp/4.12.0'],
  ['axios', 'anonymous', 'axios/1.7.9'],
  ['undici', 'anonymous', 'undici'],
  ['node fetch (undici)', 'anonymous', 'node'],
  ['node-fetch', 'anonymous', 'node-fetch'],
  ['node-fetch v2', 'anonymous', 'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)'],
  ['got', 'anonymous', 'got (https://github.com/sindresorhus/got)'],
  ['libwww-perl', 'anonymous', 'libwww-perl/6.77'],
  ['ruby', 'anonymous', 'Ruby'],
  ['faraday', 'anonymous', 'Faraday v2.12.2'],
  ['postman', 'anonymous', 'PostmanRuntime/7.43.0'],
  ['insomnia', 'anonymous', 'insomnia/10.3.0'],
  ['httpie', 'anonymous', 'HTTPie/3.2.4'],
  ['scrapy default', 'anonymous', 'Scrapy/2.12.0 (+https://scrapy.org)'],
  ['dart', 'anonymous', 'Dart/3.6 (dart:io)'],
  ['reqwest', 'anonymous', 'reqwest/0.12.12'],
  ['deno', 'anonymous', 'Deno/2.1.4'],
  ['bun', 'anonymous', 'Bun/1.1.42'],
  ['android dalvik', 'anonymous', 'Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/AP2A.240805.005)'],
  ['powershell', 'anonymous', 'Mozilla/5.0 (Windows NT 10.0; Microsoft Windows 10.0.22631; en-US) PowerShell/7.4.6'],
  ['headless chrome', 'anonymous', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/142.0.0.0 Safari/537.36'],
  ['bare word', 'anonymous', 'Mozilla'],
  ['empty', 'anonymous', ''],
  ['blank', 'anonymous', '   '],
  ['missing', 'anonymous', undefined],
];

describe('classifyUserAgent', () => {
  it('has at least 40 real strings', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(40);
  });

  it.each(TABLE)('%s → %s', (_name, kind, ua) => {
    expect(classifyUserAgent(ua)).toBe(kind);
  });

  it('gives the same answers when remembered', () => {
    for (let round = 0; round < 2; round++) {
      for (const [, kind, ua] of TABLE) expect(classifyUserAgentCached(ua ?? null)).toBe(kind);
    }
  });

  it('examines only a bounded prefix of a huge header', () => {
    const padding = 'x'.repeat(100_000);
    expect(classifyUserAgent(`curl/8.5.0 ${padding} acme/1.0`)).toBe('anonymous');
    expect(classifyUserAgent(`acme/1.0 ${padding}`)).toBe('declared');
  });
});

describe('productNames', () => {
  it('finds products in comments and skips versionless words', () => {
    expect(productNames('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html) Build/MMB29P foo')).toEqual([
      'Mozilla',
      'Googlebot',
    ]);
  });
});
