/**
 * The production app over one content folder, served by both adapters: as the HatTip handler on
 * `@hattip/adapter-node` (the portable entry point) and by the production Node host, so a test can hold the two
 * answers equal. Same index (compressed, as a running server's), same referral codes, a rate-limit store each, frozen
 * at one instant; each gets its own logger on `sink(kind)`.
 */
import type { AddressInfo } from 'node:net';
import type { Writable } from 'node:stream';
import { createServer } from '@hattip/adapter-node';
import { pino, type Logger } from 'pino';
import { ContentLoader } from '../../src/content/index.js';
import { hattipHandler } from '../../src/http/hattip.js';
import { HealthReport } from '../../src/http/health.js';
import type { RequestObserver } from '../../src/http/observe.js';
import { MemoryStore } from '../../src/http/ratelimit/index.js';
import { completeCompression } from '../../src/index/build.js';
import { buildReferralAnswers } from '../../src/referrals/answers.js';
import { ReferralStore } from '../../src/referrals/store.js';
import { composeApp, indexBuilder, publicHostOptions } from '../../src/server/app.js';
import type { Config } from '../../src/server/config.js';
import { startHost } from '../../src/server/host.js';
import { loggerOptions } from '../../src/server/logger.js';
import { nodeListener } from '../../src/server/node-adapter.js';
import { nodeCodec } from '../../src/server/node-codec.js';
import type { RawResponse } from './http.js';

/** Which adapter serves. */
export type AdapterKind = 'hattip' | 'node';

/** What each adapter is given: where its log lines go and the observers of its requests. */
export interface AdapterWiring {
  sink: Writable;
  observers?: RequestObserver[];
}

/** A listening server. */
export interface Served {
  url: string;
  close(): Promise<void>;
}

/**
 * Starts both on ephemeral loopback ports.
 * @param wiring called once per adapter (`hattip`, then `node`)
 * @throws when the content folder of `config` does not load
 */
export async function startBothAdapters(
  config: Config,
  contentDir: string,
  wiring: (kind: AdapterKind) => AdapterWiring,
): Promise<Record<AdapterKind, Served>> {
  const loaded = await new ContentLoader(contentDir).load();
  if (!loaded.ok) throw new Error(`the content does not load: ${loaded.problems.map((p) => p.message).join('; ')}`);
  const index = await completeCompression(nodeCodec, await indexBuilder(config)(loaded.model));
  const frozen = Date.now();
  const referrals = config.referralsFile === undefined ? undefined : new ReferralStore(config.referralsFile);
  await referrals?.load();
  const referralAnswers = await buildReferralAnswers(nodeCodec);
  const appFor = (kind: AdapterKind) => {
    const { sink, observers } = wiring(kind);
    const logger: Logger = pino(loggerOptions(config.logLevel), sink);
    const app = composeApp(config, {
      getIndex: () => index,
      health: new HealthReport({ revision: index.revision }),
      referrals,
      referralAnswers,
      logger,
      store: new MemoryStore({ now: () => frozen }),
      ...(observers && { observers }),
    });
    return { app, logger };
  };
  const hattip = appFor('hattip');
  const server = createServer(hattipHandler(hattip.app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const node = appFor('node');
  const host = await startHost(nodeListener(node.app, node.logger), { ...publicHostOptions(config), port: 0 });
  return {
    hattip: {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    },
    node: { url: host.url, close: () => host.close(1000) },
  };
}

/** Fields that say how a message is framed or when it was sent, not what it answers. */
const FRAMING = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/**
 * What both adapters must agree on: the status, the header fields (names lowercase, in any order; `Date`,
 * `X-Request-Id` and the framing fields aside) and the body bytes. `Content-Length` must state the length of the
 * body when a body is sent; without one (HEAD, 304) it is not compared, as `@hattip/adapter-node` writes `0` there
 * (the production host keeps the app's value: test/conformance.test.ts checks it on its own).
 */
export function comparable(res: RawResponse): { status: number; fields: Record<string, string>; body: string } {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) if (!FRAMING.has(name) && name !== 'x-request-id') fields[name] = value;
  const length = res.headers['content-length'];
  if (res.body.byteLength > 0 && length !== undefined && Number(length) !== res.body.byteLength) {
    fields['content-length'] = `${length} (the body has ${res.body.byteLength} bytes)`;
  }
  return { status: res.status, fields, body: res.body.toString('base64') };
}
