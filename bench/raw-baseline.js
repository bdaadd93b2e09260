// The physical limit of this stack: a bare node:http server writing precomputed bytes. It answers each path of
// a spec file (captured from the real service by bench/lib/capture.ts: same bytes, same header fields) with the
// identity body, the gzip body when the client accepts gzip, or the 304 when If-None-Match names the ETag.
// Usage: PORT=8081 node bench/raw-baseline.js spec.json
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const prepare = (r) => r && { status: r.status, headers: r.headers.flat(), body: Buffer.from(r.body, 'base64') };
const routes = new Map(
  Object.entries(spec.routes).map(([path, r]) => [
    path,
    { etag: r.etag, plain: prepare(r.plain), gzip: prepare(r.gzip), notModified: prepare(r.notModified) },
  ]),
);
const notFound = Buffer.from('{"detail":"Not Found"}');

const server = createServer((req, res) => {
  const route = routes.get(req.url.split('?', 1)[0]);
  if (route === undefined) return res.writeHead(404, ['Content-Type', 'application/json']).end(notFound);
  let answer = route.plain;
  if (route.notModified && req.headers['if-none-match'] === route.etag) answer = route.notModified;
  else if (route.gzip && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) answer = route.gzip;
  res.writeHead(answer.status, answer.headers).end(answer.body);
});
server.keepAliveTimeout = 5000;
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)) && server.closeAllConnections());
