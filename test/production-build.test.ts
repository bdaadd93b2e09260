/**
 * The production path on a fresh copy of the tracked files: `npm ci && npm run build && npm prune --omit=dev &&
 * npm start` leaves no devDependency installed, serves the bundled content (API, pages, `/docs` assets from
 * `dist/`), and a SIGTERM to `npm start` drains and stops `node` (no orphan). The bundles of both commands run
 * from `dist/` too.
 */
import { execFile } from 'node:child_process';
import { cp, lstat, mkdir, mkdtemp, readdir, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './helpers/eventually.js';
import { killServers, logLines, spawnServer } from './helpers/server-process.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
/** Packages only the build and the tests use: none may be left after `npm prune --omit=dev`. */
const DEV_ONLY = ['esbuild', 'tsx', 'typescript', 'vitest', 'eslint', 'prettier'];

let app: string;

/**
 * Servers with `dir` as their working folder (an orphan would be one): processes running `dist/server.js`, or named
 * `syllabus` (the name a server takes once it handles SIGHUP replaces its command line).
 */
async function serversIn(dir: string): Promise<string[]> {
  const pgrep = async (...args: string[]): Promise<string[]> =>
    (await run('pgrep', args).catch(() => ({ stdout: '' }))).stdout.split('\n').filter((p) => p !== '');
  const pids = [...new Set([...(await pgrep('-f', 'dist/server.js')), ...(await pgrep('-x', 'syllabus'))])];
  const cwds = await Promise.all(pids.map((pid) => readlink(`/proc/${pid}/cwd`).catch(() => '')));
  return pids.filter((_, i) => cwds[i] === dir);
}

beforeAll(async () => {
  // What a fresh clone of this tree holds: the tracked files as they are now.
  app = await mkdtemp(join(tmpdir(), 'syllabus-prod-'));
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  // Never node_modules, even when it is an untracked link (a worktree sharing one): npm ci would empty its target.
  const files = stdout.split('\0').filter((f) => f !== '' && f.split('/')[0] !== 'node_modules');
  for (const file of files) {
    if ((await lstat(join(ROOT, file)).catch(() => undefined))?.isSymbolicLink()) continue;
    await mkdir(join(app, dirname(file)), { recursive: true });
    await cp(join(ROOT, file), join(app, file)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error; // deleted in the work tree, not yet committed
    });
  }
  const npm = (...args: string[]) => run('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline'], { cwd: app, maxBuffer: 64 * 1024 * 1024 });
  await npm('ci');
  await run('npm', ['run', 'build'], { cwd: app });
  await npm('prune', '--omit=dev');
}, 300_000);

afterAll(async () => {
  killServers();
  await rm(app, { recursive: true, force: true });
});

describe('the production build', () => {
  it('leaves no devDependency installed', async () => {
    const installed = new Set(await readdir(join(app, 'node_modules')));
    expect(DEV_ONLY.filter((name) => installed.has(name))).toEqual([]);
    expect(installed.has('pino')).toBe(true);
  });

  it('serves with `npm start`, and a SIGTERM to npm drains and stops node', async () => {
    const port = await getPort({ host: '127.0.0.1' });
    const server = spawnServer({ PORT: String(port) }, { command: ['npm', 'start', '--silent'], cwd: app });
    const base = `http://127.0.0.1:${port}`;
    await eventually(async () => (await fetch(`${base}/health`).catch(() => undefined))?.status === 200, { what: 'npm start healthy' });

    const catalog = await fetch(`${base}/v1/catalog`);
    expect(catalog.status).toBe(200);
    expect(((await catalog.json()) as { courses: unknown[] }).courses.length).toBeGreaterThan(0);
    const page = await (await fetch(`${base}/docs`)).text();
    const script = await fetch(`${base}${/src="(\/docs\/assets\/swagger-ui-bundle\.[^"]+)"/.exec(page)![1]}`);
    expect(script.status).toBe(200); // Swagger UI from dist/, with no swagger-ui-dist package needed
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    expect((await fetch(`${base}/`)).status).toBe(200);

    server.child.kill('SIGTERM');
    await server.exited;
    await eventually(
      async () =>
        (await fetch(`${base}/health`).then(
          () => 'up',
          () => 'down',
        )) === 'down',
      { what: 'node stopped' },
    );
    expect(await serversIn(app)).toEqual([]);
    expect(logLines(server).map((l) => l.msg)).toEqual(expect.arrayContaining(['draining in-flight requests, then exiting', 'stopped']));
  });

  it('runs both commands from dist/', async () => {
    const validate = await run(process.execPath, ['bin/syllabus-content.js', 'validate', 'content'], { cwd: app });
    expect(validate.stdout + validate.stderr).not.toMatch(/error/i);
    const version = await run(process.execPath, ['bin/syllabus.js', '--version'], { cwd: app, env: { ...process.env, SYLLABUS_NO_UPDATE: '1' } });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
