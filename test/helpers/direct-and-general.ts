/**
 * The production app over one content folder, hosted twice: through the Node host's direct path and through the
 * general HatTip path, so a test can hold the two answers equal. Same index (compressed, as a running server's), same
 * referral codes, a rate-limit store frozen at one instant; each host gets its own logger on `sink(direct)`.
 */
import type { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { ContentLoader } from '../../src/content/index.js';
import { HealthReport } from '../../src/http/health.js';
import type { RequestObserver } from '../../src/http/observe.js';
import { MemoryStore } from '../../src/http/ratelimit/index.js';
import { completeCompression } from '../../src/index/build.js';
import { buildReferralAnswers } from '../../src/referrals/answers.js';
import { ReferralStore } from '../../src/referrals/store.js';
import { composeApp, indexBuilder, publicHostOptions } from '../../src/server/app.js';
import type { Config } from '../../src/server/config.js';
import { startHost, type Host } from '../../src/server/host.js';
import { loggerOptions } from '../../src/server/logger.js';
import { nodeCodec } from '../../src/server/node-codec.js';

/** What each host is given: where its log lines go and the observers of its requests. */
export interface HostWiring {
  sink: Writable;
  observers?: RequestObserver[];
}

/**
 * Starts both hosts on ephemeral loopback ports.
 * @param wiring called once per host (`direct` true, then false)
 * @throws when the content folder of `config` does not load
 */
export async function startDirectAndGeneral(
  config: Config,
  contentDir: string,
  wiring: (direct: boolean) => HostWiring,
): Promise<{ direct: Host; general: Host }> {
  const loaded = await new ContentLoader(contentDir).load();
  if (!loaded.ok) throw new Error(`the content does not load: ${loaded.problems.map((p) => p.message).join('; ')}`);
  const index = await completeCompression(nodeCodec, await indexBuilder(config)(loaded.model));
  const frozen = Date.now();
  const referrals = config.referralsFile === undefined ? undefined : new ReferralStore(config.referralsFile);
  await referrals?.load();
  const referralAnswers = await buildReferralAnswers(nodeCodec);
  const start = async (direct: boolean): Promise<Host> => {
    const { sink, observers } = wiring(direct);
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
    return startHost(app, { ...publicHostOptions(config, logger), port: 0, direct });
  };
  return { direct: await start(true), general: await start(false) };
}
