/**
 * Captures what the service answers (status, header fields in order, body bytes exactly as sent, no decoding)
 * so the raw `node:http` baseline can replay the very same response.
 */
import { request } from 'node:http';

/** One response as sent on the wire (minus the connection-level fields Node writes itself). */
export interface CapturedResponse {
  status: number;
  /** Header fields in the order sent, as `[name, value]`. */
  headers: [string, string][];
  /** The body as sent (compressed when `Content-Encoding` says so), base64. */
  body: string;
}

/** What the baseline serves for one path. */
export interface BaselineRoute {
  etag?: string;
  plain: CapturedResponse;
  gzip?: CapturedResponse;
  notModified?: CapturedResponse;
}

/** The baseline's spec file. */
export interface BaselineSpec {
  routes: Record<string, BaselineRoute>;
}

/** Fields written per connection or per moment by Node itself, not part of the precomputed answer. */
const CONNECTION_FIELDS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** GET `url` and return the response exactly as received. */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<CapturedResponse & { bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (!CONNECTION_FIELDS.has(res.rawHeaders[i]!.toLowerCase())) pairs.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
        }
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, headers: pairs, body: bytes.toString('base64'), bytes });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The value of a header field (case-insensitive), or undefined. */
export function headerOf(response: Pick<CapturedResponse, 'headers'>, name: string): string | undefined {
  const lower = name.toLowerCase();
  return response.headers.find(([n]) => n.toLowerCase() === lower)?.[1];
}

const strip = ({ status, headers, body }: CapturedResponse): CapturedResponse => ({ status, headers, body });

/**
 * Captures, for each path, the plain answer and — when it has an ETag — the gzip answer and the 304 answer,
 * sent with `requestHeaders` (e.g. the declared agent's User-Agent).
 */
export async function captureSpec(baseUrl: string, paths: readonly string[], requestHeaders: Record<string, string> = {}): Promise<BaselineSpec> {
  const routes: Record<string, BaselineRoute> = {};
  for (const path of paths) {
    const plain = await rawGet(baseUrl + path, requestHeaders);
    const etag = headerOf(plain, 'etag');
    const route: BaselineRoute = { plain: strip(plain) };
    if (etag !== undefined) {
      route.etag = etag;
      route.gzip = strip(await rawGet(baseUrl + path, { ...requestHeaders, 'Accept-Encoding': 'gzip' }));
      route.notModified = strip(await rawGet(baseUrl + path, { ...requestHeaders, 'If-None-Match': etag }));
    }
    routes[path] = route;
  }
  return { routes };
}
