/** The site's public base URL, as given in configuration (PUBLIC_BASE_URL). */

/**
 * Normalises a public base URL: absolute http(s), no query or fragment, no trailing slash.
 * @throws {TypeError} with a message naming the value when it is not such a URL.
 */
export function normalizeBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`publicBaseUrl is not an absolute URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`publicBaseUrl must use http or https: ${JSON.stringify(value)}`);
  if (url.search || url.hash || url.username || url.password)
    throw new TypeError(`publicBaseUrl must have no query, fragment or credentials: ${JSON.stringify(value)}`);
  return url.href.replace(/\/+$/, '');
}
