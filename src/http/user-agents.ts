/**
 * The data behind User-Agent classification (contract §5): which product tokens are HTTP-library defaults
 * (they name a tool, not the client using it) and which belong to browser and platform strings (they name
 * nobody). Everything else of the form `name/version` is a product token of the client's own.
 *
 * Data only, so the table can be reviewed and extended without touching the logic in `client-kind.ts`.
 * Names are compared case-insensitively.
 */

/**
 * Default `User-Agent` product names of HTTP libraries, command-line tools and runtimes. A request whose
 * named products are all from this list did not name its client: it is anonymous.
 */
export const LIBRARY_PRODUCTS: readonly string[] = [
  // command-line tools
  'curl',
  'libcurl',
  'wget',
  'wget2',
  'httpie',
  'aria2',
  'powershell',
  'windowspowershell',
  'xh',
  // Python
  'python',
  'python-requests',
  'python-httpx',
  'python-urllib',
  'python-urllib3',
  'urllib3',
  'aiohttp',
  'httplib2',
  'scrapy',
  'mechanize',
  'pycurl',
  // JavaScript runtimes and libraries
  'node',
  'node-fetch',
  'undici',
  'axios',
  'got',
  'superagent',
  'needle',
  'ky',
  'ofetch',
  'deno',
  'bun',
  'headlesschrome',
  'phantomjs',
  'electron-fetch',
  'cross-fetch',
  // Go, Rust, Java, .NET, Dart
  'go-http-client',
  'go',
  'resty',
  'reqwest',
  'ureq',
  'hyper',
  'isahc',
  'okhttp',
  'java',
  'apache-httpclient',
  'apache-httpasyncclient',
  'jetty',
  'ktor-client',
  'restsharp',
  'dalvik',
  'dart',
  'cfnetwork',
  'darwin',
  // Ruby, Perl, PHP
  'ruby',
  'faraday',
  'rest-client',
  'http.rb',
  'httparty',
  'typhoeus',
  'libwww-perl',
  'lwp',
  'lwp-request',
  'guzzlehttp',
  'guzzle',
  'php',
  'symfony',
  // API tools
  'postmanruntime',
  'insomnia',
  'bruno',
  'thunder',
  'paw',
  'rapidapi',
];

/**
 * Product names that appear in browser and platform strings (`Mozilla/5.0 … AppleWebKit/537.36 … Chrome/…`).
 * They identify an engine or a platform, never a particular client.
 */
export const GENERIC_PRODUCTS: readonly string[] = [
  'mozilla',
  'applewebkit',
  'khtml',
  'gecko',
  'trident',
  'presto',
  'blink',
  'edgehtml',
  'chrome',
  'chromium',
  'crios',
  'safari',
  'mobile',
  'version',
  'firefox',
  'fxios',
  'focus',
  'edg',
  'edge',
  'edga',
  'edgios',
  'opr',
  'opera',
  'opt',
  'vivaldi',
  'yabrowser',
  'samsungbrowser',
  'ucbrowser',
  'brave',
  'msie',
  'rv',
  'build',
  'wv',
  'windows',
  'linux',
  'android',
  'cpu',
  'iphone',
  'ipad',
  'macintosh',
  'x11',
  'ubuntu',
  'fedora',
  'electron',
  'silk',
  'miuibrowser',
  'huaweibrowser',
  'duckduckgo',
  'ddg',
];

/**
 * Product tokens found in a browser's `User-Agent`: a string that isbot does not flag as a bot and that
 * names one of these engines is a person's browser.
 */
export const BROWSER_ENGINE_PATTERN = /\b(?:AppleWebKit|Gecko|Trident|Presto|Chrome|Firefox|Safari)\/\d/;

/**
 * A product token `name/version` anywhere in the string, including inside comments (where crawlers put
 * theirs: `(compatible; Googlebot/2.1; +http://www.google.com/bot.html)`). The version must start with a digit
 * (optionally after `v`), so `Build/MMB29P` in an Android comment is not a product.
 * Linear: one character class per part, no nested quantifiers.
 */
export const PRODUCT_TOKEN_PATTERN = /(?:^|[\s;(),])([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)\/v?(\d[A-Za-z0-9.+_-]*)/g;

/** Longest prefix of a `User-Agent` that is examined; longer values are cut (bounds the work per request). */
export const MAX_USER_AGENT_LENGTH = 1024;
