/**
 * The service's entry point (`npm start`, `node dist/server.js`): reads the configuration, starts
 * the server (or `WORKERS` worker processes sharing the port), drains on SIGTERM/SIGINT, exiting 0, and reads
 * the content and the referral codes again on SIGHUP, sent to the process named {@link PROCESS_NAME}.
 * Start-up failures are one `fatal` line of the log, in its format (what failed, and every bad setting or content
 * problem in `problems`), written before the process exits non-zero: 2 for bad configuration, 1 for anything else.
 */
import cluster from 'node:cluster';
import type { Logger } from 'pino';
import { ConfigError, lenientLogSettings, loadConfig, type Config } from './config.js';
import { createServiceLogger, type LogOutput } from './logger.js';
import { StartupError, startServer } from './start.js';

/**
 * The name of the process to signal (`pkill -HUP -x syllabus`): the server, or with `WORKERS` > 1 their primary,
 * which passes signals on. Workers are named {@link WORKER_PROCESS_NAME}, so the command never reaches a worker as
 * well as its primary (a second reload), nor npm (which would die of it), nor tini or a shell, whose command lines
 * name `dist/server.js` too.
 */
const PROCESS_NAME = 'syllabus';
/** The name of a worker of `WORKERS` > 1 (at most 15 characters: Linux keeps no more of a process's name). */
const WORKER_PROCESS_NAME = 'syllabus-worker';

/**
 * Names this process (`process.title`: on Linux its name in `/proc/<pid>/comm`, which `pgrep -x` matches, and its
 * command line), once it handles SIGHUP: the default action of SIGHUP ends a process.
 */
function nameProcess(): void {
  process.title = cluster.isWorker ? WORKER_PROCESS_NAME : PROCESS_NAME;
}

/** Exits once the log is written, but never waits on a stalled stdout longer than `timeoutSeconds`. */
function exitAfterFlush(output: LogOutput, timeoutSeconds: number, code: number): void {
  void output.drain(timeoutSeconds * 1000).then(() => {
    output.abandon();
    process.exit(code);
  });
}

/**
 * Logs why the service cannot start (a `fatal` line: `msg` says what failed, `problems` lists each problem, an
 * unexpected error comes with its stack), then exits with `code` once the line is written.
 */
function failStart(logger: Logger, output: LogOutput, timeoutSeconds: number, error: unknown, code: number): void {
  if (error instanceof ConfigError || error instanceof StartupError) {
    // Both messages are a summary line, then the problems (the problems field's items), one a line.
    const summary = error.message.split('\n', 1)[0]!.replace(/:$/, '');
    logger.fatal({ problems: error.problems, exit_code: code }, `cannot start: ${summary}`);
  } else {
    const err = error instanceof Error ? error : new Error(String(error));
    logger.fatal({ err, exit_code: code }, `cannot start: ${err.message}`);
  }
  exitAfterFlush(output, timeoutSeconds, code);
}

/** Runs one server in this process until a signal asks it to stop. */
async function serve(config: Config): Promise<void> {
  // Signals during start-up are answered once serving: a SIGHUP (whose default action would end the process)
  // reloads, a SIGTERM or SIGINT drains and exits, so a stop never kills in-flight requests (the public port
  // opens before start-up ends). A second SIGTERM or SIGINT while starting exits at once.
  let hupDuringStart = false;
  let stopDuringStart: NodeJS.Signals | undefined;
  const hupEarly = (): void => void (hupDuringStart = true);
  const stopEarly = (signal: NodeJS.Signals): void => {
    if (stopDuringStart) process.exit(1);
    stopDuringStart = signal;
  };
  process.on('SIGHUP', hupEarly);
  process.on('SIGTERM', stopEarly);
  process.on('SIGINT', stopEarly);
  nameProcess();
  const { logger, output } = createServiceLogger(config.logLevel, config.logFormat);
  const exit = (code: number): void => exitAfterFlush(output, config.shutdownTimeoutSeconds, code);
  let server;
  try {
    server = await startServer(config, { logger, logOutput: output });
  } catch (error) {
    failStart(logger, output, config.shutdownTimeoutSeconds, error, 1);
    return;
  }
  const running = server;
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    running.logger.info({ signal }, 'draining in-flight requests, then exiting');
    running.close().then(
      () => {
        running.logger.info({}, 'stopped');
        exit(0);
      },
      (error: unknown) => {
        running.logger.error({ err: error }, 'error while stopping');
        exit(1);
      },
    );
  };
  process.off('SIGTERM', stopEarly);
  process.off('SIGINT', stopEarly);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.off('SIGHUP', hupEarly);
  process.on('SIGHUP', () => {
    if (!stopping) running.reload('SIGHUP');
  });
  if (stopDuringStart) stop(stopDuringStart);
  else if (hupDuringStart) running.reload('SIGHUP');
}

/** The primary of `WORKERS` > 1: forks workers, forwards signals, exits when they all have. */
function supervise(config: Config): void {
  const { logger, output } = createServiceLogger(config.logLevel, config.logFormat);
  for (let i = 0; i < config.workers; i++) cluster.fork();
  let stopping = false;
  let failed = false;
  const stop = (signal: NodeJS.Signals): void => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('SIGHUP', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGHUP');
  });
  nameProcess();
  cluster.on('exit', (worker, code, signal) => {
    if (!stopping) {
      // A worker that died unasked (start-up failure or crash) takes the service down: a supervisor
      // (systemd, Kubernetes) restarts it whole, with its message in the log.
      const pid = worker.process.pid;
      logger.fatal(
        { worker_pid: pid, ...(signal ? { worker_signal: signal } : { worker_exit_code: code }) },
        `worker ${pid} exited (${signal ?? `code ${code}`}); stopping the service`,
      );
      failed = true;
      stop('SIGTERM');
    }
    if (Object.keys(cluster.workers ?? {}).length === 0) exitAfterFlush(output, config.shutdownTimeoutSeconds, failed ? 1 : 0);
  });
}

function main(): void {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // The configuration is bad, maybe LOG_FORMAT too: the log's settings are read alone, a bad one as its default.
    const settings = lenientLogSettings();
    const { logger, output } = createServiceLogger(settings.logLevel, settings.logFormat);
    failStart(logger, output, settings.shutdownTimeoutSeconds, error, 2);
    return;
  }
  if (config.workers > 1 && cluster.isPrimary) supervise(config);
  else void serve(config);
}

main();
