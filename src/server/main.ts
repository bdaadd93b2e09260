/**
 * The service's entry point (`npm start`, `node dist/server.js`): reads the configuration, starts
 * the server (or `WORKERS` worker processes sharing the port), drains on SIGTERM/SIGINT, exiting 0, and reads
 * the content and the referral codes again on SIGHUP.
 * Start-up failures print a clear message (every bad setting, every content problem) and exit non-zero:
 * 2 for bad configuration, 1 for anything else.
 */
import cluster from 'node:cluster';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createServiceLogger } from './logger.js';
import { StartupError, startServer } from './start.js';

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
  const { logger, output } = createServiceLogger(config.logLevel, config.logFormat);
  /** Exits once the log is written, but never waits on a stalled stdout longer than `SHUTDOWN_TIMEOUT`. */
  const exitAfterFlush = (code: number): void => {
    void output.drain(config.shutdownTimeoutSeconds * 1000).then(() => {
      output.abandon();
      process.exit(code);
    });
  };
  let server;
  try {
    server = await startServer(config, { logger, logOutput: output });
  } catch (error) {
    if (error instanceof StartupError) process.stderr.write(`syllabus: cannot start: ${error.message}\n`);
    else process.stderr.write(`syllabus: cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
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
        exitAfterFlush(0);
      },
      (error: unknown) => {
        running.logger.error({ err: error }, 'error while stopping');
        exitAfterFlush(1);
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
  cluster.on('exit', (worker, code, signal) => {
    if (!stopping) {
      // A worker that died unasked (start-up failure or crash) takes the service down: a supervisor
      // (systemd, Kubernetes) restarts it whole, with its message in the log.
      process.stderr.write(`syllabus: worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); stopping\n`);
      failed = true;
      stop('SIGTERM');
    }
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(failed ? 1 : 0);
  });
}

function main(): void {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`syllabus: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  if (config.workers > 1 && cluster.isPrimary) supervise(config);
  else void serve(config);
}

main();
