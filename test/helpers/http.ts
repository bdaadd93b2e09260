/**
 * Test helper: one HTTP request with node:http, exactly as given (no automatic Accept-Encoding or
 * decompression, unlike fetch), returning the raw body bytes.
 */
import { request } from 'node:http';

/** What {@link rawRequest} returns. */
export interface RawResponse {
  status: number;
  /** Header names lower-cased; repeated headers joined by `, `. */
  headers: Record<string, string>;
  body: Buffer;
  /** The body as UTF-8 text. */
  text: string;
  /** The body parsed as JSON. @throws SyntaxError when it is not JSON. */
  json(): unknown;
}

/**
 * Sends one request. `path` is sent verbatim (percent-encoding and all), so tests can send what a browser
 * would not.
 */
export function rawRequest(
  base: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {},
): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: init.method ?? 'GET',
        path,
        headers: { connection: 'close', ...init.headers },
        agent: false,
        // Another loopback address (127.0.0.2, …) makes another client, as a proxy in front sees it.
        ...(init.localAddress !== undefined && { localAddress: init.localAddress }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
          resolve({
            status: res.statusCode ?? 0,
            headers,
            body,
            text: body.toString('utf8'),
            json: () => JSON.parse(body.toString('utf8')) as unknown,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}
