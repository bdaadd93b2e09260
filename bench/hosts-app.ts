/**
 * One HatTip application, hosted two ways, for the host comparison in `npm run bench`:
 *
 *   node bench/out/hosts-app.mjs node     the production host (src/server/host.ts, src/server/node-adapter.ts)
 *   node bench/out/hosts-app.mjs hattip   the HatTip handler (src/http/hattip.ts) on @hattip/adapter-node's createServer
 *
 * The app and index are built by the functions production uses (`composeApp`, `indexBuilder` of src/server/app.ts,
 * with the configuration from the environment: PORT, HOST, CONTENT_DIR, RATE_LIMIT_*, TRUST_PROXY); only the host
 * differs. No watcher.
 * Prints `listening on <url>` once ready.
 */
import { createServer as createHattipServer } from '@hattip/adapter-node';
import { ContentLoader, formatProblem } from '../src/content/index.js';
import { hattipHandler } from '../src/http/hattip.js';
import { HealthReport } from '../src/http/health.js';
import { MemoryStore } from '../src/http/ratelimit/index.js';
import { completeCompression } from '../src/index/build.js';
import { buildReferralAnswers } from '../src/referrals/answers.js';
import { ReferralStore } from '../src/referrals/store.js';
import { composeApp, indexBuilder, publicHostOptions } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { startHost } from '../src/server/host.js';
import { createLogger } from '../src/server/logger.js';
import { nodeListener } from '../src/server/node-adapter.js';
import { nodeCodec } from '../src/server/node-codec.js';

const hostKind = process.argv[2];
if (hostKind !== 'node' && hostKind !== 'hattip') {
  process.stderr.write('usage: hosts-app.mjs node|hattip\n');
  process.exit(2);
}
const config = loadConfig();
const logger = createLogger(config.logLevel, config.logFormat);
if (config.contentSource.kind !== 'folder') {
  process.stderr.write('hosts-app serves a content folder: set CONTENT_DIR, not CONTENT_GIT_URL\n');
  process.exit(2);
}
const loaded = await new ContentLoader(config.contentSource.dir).load();
if (!loaded.ok) {
  process.stderr.write(`invalid content:\n${loaded.problems.map(formatProblem).join('\n')}\n`);
  process.exit(1);
}
// The same index and app as production (src/server/app.ts), compressed as a running server's index is.
const index = await completeCompression(nodeCodec, await indexBuilder(config)(loaded.model));
const referrals = config.referralsFile === undefined ? undefined : new ReferralStore(config.referralsFile);
await referrals?.load();
const app = composeApp(config, {
  getIndex: () => index,
  health: new HealthReport({ revision: index.revision }),
  referrals,
  referralAnswers: await buildReferralAnswers(nodeCodec),
  logger,
  store: new MemoryStore(),
});

let url: string;
if (hostKind === 'node') {
  url = (await startHost(nodeListener(app, logger), publicHostOptions(config))).url;
} else {
  const server = createHattipServer(hattipHandler(app));
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  url = `http://${config.host}:${(server.address() as { port: number }).port}`;
}
process.stdout.write(`listening on ${url}\n`);
process.on('SIGTERM', () => process.exit(0));
