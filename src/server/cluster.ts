/**
 * `WORKERS=N`: N server processes on one machine sharing the listening socket (`node:cluster`), to use every
 * core. They share rate-limit budgets only through Redis, so N > 1 requires `RATE_LIMIT_STORE=redis://…`.
 *
 * The primary only supervises: it starts the workers, replaces one that dies unexpectedly (giving up when they
 * keep dying), and on SIGTERM/SIGINT asks every worker to drain and exits once they have.
 */
import cluster, { type Worker } from 'node:cluster';

/** Where the primary reports (pino's methods fit). */
export interface SupervisorLogger {
  info(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** Options of {@link runWorkers}. */
export interface RunWorkersOptions {
  /** Number of processes (`WORKERS`); 1 runs `startWorker` in this process, without a primary. */
  workers: number;
  /** The configured store kind; more than one worker requires `redis`. */
  store: 'memory' | 'redis';
  /** Primary's log. */
  logger: SupervisorLogger;
  /** More unexpected worker exits than this within {@link RunWorkersOptions.crashWindowMs} stops the service (default 5). */
  maxCrashes?: number;
  /** Window for counting crashes, in ms (default 60,000). */
  crashWindowMs?: number;
}

/** Thrown when `WORKERS` > 1 without the shared store. */
export class WorkersNeedRedisError extends Error {
  constructor(workers: number) {
    super(
      `WORKERS=${workers} needs RATE_LIMIT_STORE=redis://…: each worker process would otherwise keep its own ` +
        `rate-limit budgets, giving every client ${workers} times its budget. Set RATE_LIMIT_STORE or WORKERS=1.`,
    );
    this.name = 'WorkersNeedRedisError';
  }
}

/**
 * Starts the service in `workers` processes.
 * In the primary (N > 1) it forks the workers and resolves once they are all listening; in a worker, or with
 * N = 1, it runs `startWorker` (which starts the server and installs its own SIGTERM drain) and resolves with it.
 * @throws WorkersNeedRedisError when N > 1 and the store is not Redis.
 */
export async function runWorkers(options: RunWorkersOptions, startWorker: () => Promise<void>): Promise<void> {
  if (options.workers > 1 && options.store !== 'redis') throw new WorkersNeedRedisError(options.workers);
  if (options.workers <= 1 || cluster.isWorker) return startWorker();
  await superviseWorkers(options);
}

async function superviseWorkers(options: RunWorkersOptions): Promise<void> {
  const { logger } = options;
  const maxCrashes = options.maxCrashes ?? 5;
  const crashWindowMs = options.crashWindowMs ?? 60_000;
  const crashes: number[] = [];
  /** No more replacements. */
  let stopping = false;
  /** A signal asked the service to stop: exit once the last worker has. */
  let shuttingDown = false;

  const fork = (): Worker => cluster.fork();

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0 && shuttingDown) {
        logger.info({}, 'all workers stopped');
        process.exit(process.exitCode ?? 0);
      }
      return;
    }
    const now = Date.now();
    crashes.push(now);
    while (crashes.length > 0 && crashes[0]! < now - crashWindowMs) crashes.shift();
    logger.error({ pid: worker.process.pid, code, signal }, 'worker exited unexpectedly');
    if (crashes.length > maxCrashes) {
      logger.error({ crashes: crashes.length, windowMs: crashWindowMs }, 'workers keep dying: stopping the service');
      stopping = true;
      shuttingDown = true;
      process.exitCode = 1;
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(1);
      return;
    }
    fork();
  });

  const shutdown = (signal: NodeJS.Signals) => {
    if (shuttingDown) return;
    stopping = true;
    shuttingDown = true;
    logger.info({ signal }, 'stopping workers');
    const remaining = Object.values(cluster.workers ?? {});
    if (remaining.length === 0) process.exit(0);
    // Each worker drains in-flight requests on SIGTERM and exits.
    for (const w of remaining) w?.process.kill('SIGTERM');
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  const listening = Array.from({ length: options.workers }, () => {
    const worker = fork();
    return new Promise<void>((resolve, reject) => {
      worker.once('listening', () => resolve());
      worker.once('exit', (code) => reject(new Error(`worker ${worker.process.pid} exited with ${code} before listening`)));
    });
  });
  try {
    await Promise.all(listening);
  } catch (error) {
    // A worker that cannot start (port taken, bad content) will not do better when replaced.
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    throw error;
  }
  logger.info({ workers: options.workers, pid: process.pid }, 'workers listening');
}
