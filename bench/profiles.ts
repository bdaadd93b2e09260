/**
 * CPU profiles (`node --cpu-prof`) of the service process, taken where a target is missed: serving
 * `/v1/catalog` under load, and a cold start. The process writes its profile when it exits after SIGTERM.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summariseProfile, type ProfileSummary, type ProfileWindow } from './lib/profile.js';
import { startServerProcess, waitUntilCompressed } from './lib/servers.js';
import { runWrk } from './lib/wrk.js';

/** Runs `fn` with a fresh profile folder and summarises the profile the process wrote there (over `fn`'s window). */
export async function withProfileDir(fn: (dir: string) => Promise<ProfileWindow | undefined>): Promise<ProfileSummary> {
  const dir = await mkdtemp(join(tmpdir(), 'syllabus-bench-prof-'));
  try {
    const window = await fn(dir);
    const file = (await readdir(dir)).find((f) => f.endsWith('.cpuprofile'));
    if (file === undefined) throw new Error('the service wrote no CPU profile');
    return summariseProfile(join(dir, file), 15, window);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Profiles the service while wrk requests `path` for `seconds` (after a 1 s warm-up); only the samples of the
 * measured load count (start-up, warm-up and shutdown are cut off by time).
 */
export function profileServing(
  serverBundle: string,
  contentDir: string,
  path: string,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
  env: Record<string, string> = {},
): Promise<ProfileSummary> {
  return withProfileDir(async (dir) => {
    const server = await startServerProcess(serverBundle, [], {
      env: { CONTENT_DIR: contentDir, ...env },
      nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
      discardStdout: env.LOG_LEVEL === 'info',
    });
    let stopMs: number;
    try {
      await waitUntilCompressed(server.url, '/v1/catalog');
      await runWrk({ url: server.url + path, headers, durationS: 1, connections });
      await runWrk({ url: server.url + path, headers, durationS: seconds, connections });
    } finally {
      const t = performance.now();
      await server.child.stop(30_000);
      stopMs = performance.now() - t;
    }
    // A quarter second of margin at both ends of the load.
    return { skipEndMs: stopMs + 250, lengthMs: seconds * 1000 - 500 };
  });
}

/**
 * Profiles a cold start of the service on `contentDir`, until `/v1/catalog` is served and start-up settles.
 * @param timeoutMs how long the start may take (default 300 000).
 */
export function profileColdStart(serverBundle: string, contentDir: string, timeoutMs = 300_000): Promise<ProfileSummary> {
  return withProfileDir(async (dir) => {
    const server = await startServerProcess(serverBundle, [], {
      env: { CONTENT_DIR: contentDir, LOG_LEVEL: 'info' },
      readyPath: '/v1/catalog',
      timeoutMs,
      nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
    });
    // The watchers are set up after the first request can be served; the SIGTERM handler (which exits normally,
    // writing the profile) is installed once the service logs `serving`.
    const deadline = performance.now() + timeoutMs;
    while (!server.child.output().includes('"msg":"serving"') && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await server.child.stop(30_000);
    return undefined;
  });
}
