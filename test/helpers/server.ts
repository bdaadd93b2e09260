/**
 * Test helper: the real server (`startServer`, the same wiring as `npm start`) on 127.0.0.1 with an
 * ephemeral port, a temporary copy of the small content fixture and a temporary referral digests file.
 * Rate limits are raised so that contract tests never meet a 429 unless they set `RATE_LIMIT_*` themselves.
 * Log lines are collected in `logs` (parsed pino JSON) for assertions.
 *
 * ```ts
 * const srv = await startTestServer();
 * afterAll(() => srv.close());
 * const res = await fetch(`${srv.url}/v1/catalog`);
 * ```
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { eventually } from './eventually.js';
import { codeDigest } from '../../src/referrals/digests.js';
import { loadConfig, type Config } from '../../src/server/config.js';
import { startServer, type RunningServer, type StartOptions } from '../../src/server/start.js';
import { loggerOptions } from '../../src/server/logger.js';
import { writeContentFixture, type ContentFiles } from './content-fixture.js';

/** Referral codes valid on a test server unless `referralCodes` says otherwise. */
export const TEST_REFERRAL_CODES = ['WELCOME-2026', 'TEST_CODE_1'] as const;

/** Options of {@link startTestServer}. */
export interface TestServerOptions {
  /** Changes to the small content fixture before it is written. */
  editContent?: (files: ContentFiles) => void;
  /** Extra environment variables (`RATE_LIMIT_ANONYMOUS`, `TRUST_PROXY`, `PUBLIC_BASE_URL`, …). */
  env?: Record<string, string>;
  /** Valid referral codes (their digests are written to the file). */
  referralCodes?: readonly string[];
  /** Passed to `startServer` (e.g. `verifySignature`, `rateLimitStore`, `watch: false`). */
  start?: Omit<StartOptions, 'logger'>;
}

/** A running test server. */
export interface TestServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** The temporary content folder (edit it to test hot reload). */
  contentDir: string;
  /** The temporary referral digests file. */
  referralsFile: string;
  /** The configuration it runs with. */
  config: Config;
  /** The running server (holder, health, …). */
  server: RunningServer;
  /** Log lines written so far, parsed. */
  logs: Array<Record<string, unknown>>;
  /**
   * The access-log line of the request whose id is `requestId`, once made: lines are made a moment after the answer
   * is written (the observers are told after the turn of the event loop that answered).
   * @throws Error when no such line comes within 15 s
   */
  accessLine(requestId: string): Promise<Record<string, unknown>>;
  /** Stops the server and removes the temporary folder. */
  close(): Promise<void>;
}

/** Limits high enough that no contract test meets a 429. */
const GENEROUS_LIMITS = {
  RATE_LIMIT_VERIFIED: '1000000',
  RATE_LIMIT_DECLARED: '1000000',
  RATE_LIMIT_BROWSER: '1000000',
  RATE_LIMIT_ANONYMOUS: '1000000',
  RATE_LIMIT_REFERRALS: '1000000',
};

/** Starts a server; see the module comment. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const root = await mkdtemp(join(tmpdir(), 'syllabus-server-'));
  const contentDir = await writeContentFixture(join(root, 'content'), options.editContent);
  const referralsFile = join(root, 'referrals.txt');
  const codes = options.referralCodes ?? TEST_REFERRAL_CODES;
  await writeFile(referralsFile, `# test codes\n${codes.map((c) => codeDigest(c)).join('\n')}\n`);

  // A test that follows a Git repository names it in CONTENT_GIT_URL; the fixture folder is then unused.
  const folder = options.env?.CONTENT_GIT_URL === undefined ? { CONTENT_DIR: contentDir } : {};
  const config = loadConfig(
    { ...GENEROUS_LIMITS, PORT: '0', HOST: '127.0.0.1', ...folder, REFERRALS_FILE: referralsFile, LOG_LEVEL: 'info', ...options.env },
    root,
  );
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino(loggerOptions(config.logLevel), sink);
  let server: RunningServer;
  try {
    server = await startServer(config, { ...options.start, logger });
    await server.compressed; // tests see the index as it is served once settled
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  return {
    url: server.url,
    contentDir,
    referralsFile,
    config,
    server,
    logs,
    async accessLine(requestId) {
      const find = () => logs.find((l) => l.msg === 'request' && l.request_id === requestId);
      await eventually(() => find() !== undefined, { what: `the access-log line of request ${requestId}` });
      return find()!;
    },
    async close() {
      await server.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
