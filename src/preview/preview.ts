/**
 * The writers' live preview (`npm run dev`, `syllabus-content dev`): the production server, wired exactly as
 * `npm start` wires it (`startServer`: the folder watcher, the index build, the app, the host), on a loopback port
 * of its own, behind the preview's listener (`dev-host.ts`), which adds what production never sends: the reload
 * script, the event stream, and the error page while the content is invalid.
 *
 * ```
 * content/ ──► folder watcher ──► ObservedSource ──► startServer (production) ◄── dev host ◄── browser
 *                                      │ every load                                  ▲ events, error page
 *                                      └──────────────► PreviewState ────────────────┘
 * ```
 *
 * A valid load is announced once the server serves it (its index holder swapped), so the page that reloads on
 * the event gets the new content; an invalid one at once, with every problem and its code frame. Unlike
 * production, the preview starts on invalid content too: it shows the problems until the first valid load.
 *
 * The server inside answers its own address only and no other origin (`writer-only.ts`), and may show the content at another instant than
 * now (`PreviewTime`, `time.ts`): then the pages say so and mark each entry and roadmap item not published yet.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { ContentModel } from '../content/index.js';
import { loadConfig } from '../server/config.js';
import { createContentSource } from '../server/content-source.js';
import { createLogger } from '../server/logger.js';
import { startServer, type RunningServer } from '../server/start.js';
import { startDevHost } from './dev-host.js';
import { lessonPage } from './lesson-page.js';
import { ObservedSource } from './observed-source.js';
import { showProblems } from './problems.js';
import { PreviewState } from './state.js';
import { pageMarks, previewClock, type PreviewTime } from './time.js';
import { innerRefusal } from './writer-only.js';

/** Options of {@link startPreview}. */
export interface PreviewOptions {
  /** Absolute path of the content folder. */
  dir: string;
  /** Address the preview listens on (the production server inside always listens on 127.0.0.1). */
  host: string;
  /** Port the preview listens on; 0: any free port. */
  port: number;
  /** Absolute path of a referral digests file to check codes against; default none (every check answers `503`). */
  referralsFile?: string;
  /** The watcher's quiet time in milliseconds (default: the watcher's). */
  debounceMs?: number;
  /** Logger of the server inside (default: errors only, for people, on stdout). */
  logger?: Logger;
  /** Which content to show (default: as published now). */
  time?: PreviewTime;
}

/** A running preview. */
export interface Preview {
  /** Where to open it, e.g. `http://127.0.0.1:4321`. */
  url: string;
  /** What it shows; subscribe to hear of every reload and every invalid load. */
  state: PreviewState;
  /** Stops the listener, the server and the watcher. */
  close(): Promise<void>;
}

/**
 * Every budget of the server inside: one writer's browser is every client, behind one address (the preview's).
 * Not a setting of production.
 */
const PREVIEW_RATE_LIMIT = String(1_000_000_000);

/**
 * The inner server's guard (`writer-only.ts`): answers `403` itself to a request whose `Host` is not the server's own
 * address (a DNS name rebound to its port) or that another origin's page made.
 * @returns whether it answered.
 */
function writerOnly(req: IncomingMessage, res: ServerResponse): boolean {
  const refusal = innerRefusal(req, `127.0.0.1:${req.socket.localPort}`);
  if (refusal === undefined) return false;
  req.resume();
  res.writeHead(refusal.status, refusal.headers).end(refusal.body);
  return true;
}

/**
 * Starts the preview of `options.dir` and resolves once it shows something: the served content, or the problems
 * of an invalid first load.
 * @throws Error when the address cannot be bound, or the server cannot start for another reason than the content.
 */
export async function startPreview(options: PreviewOptions): Promise<Preview> {
  const state = new PreviewState();
  let upstream: string | undefined;
  /** The latest valid model, every entry included (what the server publishes at its clock's instant). */
  let model: ContentModel | undefined;
  const time = options.time ?? { kind: 'now' };
  const clock = previewClock(time, () => model);
  const host = await startDevHost({
    host: options.host,
    port: options.port,
    state,
    upstream: () => upstream,
    lessonPage: (id) => (model === undefined ? undefined : lessonPage(options.dir, model, id)),
    marks: () => pageMarks(time, model, clock),
  });

  let server: RunningServer | undefined;
  let source: ObservedSource;
  let serving: Promise<RunningServer>;
  let logger: Logger;
  try {
    const config = loadConfig(
      {
        CONTENT_DIR: options.dir,
        PORT: '0',
        HOST: '127.0.0.1',
        // Links in the pages and the feed point at the preview, not at the server inside.
        PUBLIC_BASE_URL: host.url,
        // Referral codes are no part of the content: without a file named, checks answer 503 as in production.
        ...(options.referralsFile !== undefined && { REFERRALS_FILE: options.referralsFile }),
        RATE_LIMIT_VERIFIED: PREVIEW_RATE_LIMIT,
        RATE_LIMIT_DECLARED: PREVIEW_RATE_LIMIT,
        RATE_LIMIT_BROWSER: PREVIEW_RATE_LIMIT,
        RATE_LIMIT_ANONYMOUS: PREVIEW_RATE_LIMIT,
        RATE_LIMIT_REFERRALS: PREVIEW_RATE_LIMIT,
      },
      options.dir,
    );
    logger = options.logger ?? createLogger('error', 'pretty');
    const watcher = await createContentSource(config.contentSource, {
      logger,
      ...(options.debounceMs !== undefined && { debounceMs: options.debounceMs }),
    });
    // Whether the latest load was valid: a swap of the index announces content only while it is.
    let latestValid = true;
    source = new ObservedSource(watcher, (update) => {
      latestValid = update.result.ok;
      if (update.result.ok) model = update.result.model;
      else state.fail(showProblems(options.dir, update.result.problems));
    });
    const shown = new Promise<void>((resolve) => {
      const stop = state.subscribe(() => {
        stop();
        resolve();
      });
    });
    serving = startServer(config, { logger, contentSource: source, intercept: writerOnly, ...(clock !== undefined && { now: clock }) });
    const started = serving.then((running) => {
      server = running;
      upstream = running.url;
      // Every swap (a reload, scheduled content) is served from now on; a recorded failure was shown when loaded.
      running.holder.subscribe((status) => {
        if (latestValid && status.last_reload_error === '') state.recover();
      });
      state.recover();
    });
    await Promise.race([shown, started]);
  } catch (error) {
    await host.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  // A start still running while the preview shows the problems ends when the content is valid, or fails (closed
  // before that: expected; anything else is logged, and the preview keeps showing the problems).
  const settled = serving.then(
    () => undefined,
    (error: unknown) => {
      if (closing === undefined) logger.error({ err: error }, 'the server inside the preview could not start');
    },
  );

  return {
    url: host.url,
    state,
    close: () =>
      (closing ??= (async () => {
        await host.close();
        // Before the first valid load the server is still starting: closing its source ends that start.
        await (server === undefined ? source.close() : server.close());
        await settled;
        await server?.close();
      })()),
  };
}
