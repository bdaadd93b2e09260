/**
 * One HatTip application, hosted two ways, for the host comparison in `npm run bench`:
 *
 *   node bench/out/hosts-app.mjs hono     the production host (src/server/host.ts: @hono/node-server's getRequestListener)
 *   node bench/out/hosts-app.mjs hattip   @hattip/adapter-node's createServer (full Fetch Request, streamed Response)
 *
 * The app is composed as src/server/start.ts composes it (same steps, same index, same configuration from the
 * environment: PORT, HOST, CONTENT_DIR, RATE_LIMIT_*, TRUST_PROXY); only the host differs. No watcher.
 * Prints `listening on <url>` once ready.
 */
import { createServer as createHattipServer } from '@hattip/adapter-node';
import { ContentLoader, formatProblem } from '../src/content/index.js';
import { createApp } from '../src/http/app.js';
import { clientAddressStep } from '../src/http/client-address.js';
import { clientKindStep } from '../src/http/client-kind.js';
import { HealthReport } from '../src/http/health.js';
import { MemoryStore, rateLimitStep } from '../src/http/ratelimit/index.js';
import { buildIndex } from '../src/index/build.js';
import { renderPages } from '../src/pages/index.js';
import { buildReferralAnswers } from '../src/referrals/answers.js';
import { ReferralStore } from '../src/referrals/store.js';
import { loadConfig } from '../src/server/config.js';
import { startHost } from '../src/server/host.js';
import { createLogger } from '../src/server/logger.js';

const hostKind = process.argv[2];
if (hostKind !== 'hono' && hostKind !== 'hattip') {
  process.stderr.write('usage: hosts-app.mjs hono|hattip\n');
  process.exit(2);
}
const config = loadConfig();
const logger = createLogger(config.logLevel);
if (config.contentSource.kind !== 'folder') {
  process.stderr.write('hosts-app serves a content folder: set CONTENT_DIR, not CONTENT_GIT_URL\n');
  process.exit(2);
}
const loaded = await new ContentLoader(config.contentSource.dir).load();
if (!loaded.ok) {
  process.stderr.write(`invalid content:\n${loaded.problems.map(formatProblem).join('\n')}\n`);
  process.exit(1);
}
const index = await buildIndex(loaded.model, {
  publicBaseUrl: config.publicBaseUrl,
  renderers: [(model, ctx) => renderPages(model, { publicBaseUrl: ctx.publicBaseUrl })],
});
const referrals = new ReferralStore(config.referralsFile);
await referrals.load();
const store = new MemoryStore();
const app = createApp({
  getIndex: () => index,
  health: new HealthReport({ revision: index.revision }),
  referrals,
  referralAnswers: await buildReferralAnswers(),
  logger,
  clientAddress: clientAddressStep({ trustProxy: config.trustProxy, header: config.trustProxyHeader }),
  clientKind: clientKindStep({}),
  rateLimit: rateLimitStep({ store, limits: config.rateLimits, decorate: false }),
});

let url: string;
if (hostKind === 'hono') {
  url = (await startHost(app, { host: config.host, port: config.port, logger })).url;
} else {
  // The adapter's platform type differs from the Hono bindings the app is typed for; the app reads neither.
  const server = createHattipServer(app as Parameters<typeof createHattipServer>[0]);
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  url = `http://${config.host}:${(server.address() as { port: number }).port}`;
}
process.stdout.write(`listening on ${url}\n`);
process.on('SIGTERM', () => process.exit(0));
