/**
 * Helpers of the CLI and installer tests: build the client, run it as a subprocess, serve release folders and
 * fake services on loopback (counting requests), validate --json output against schemas/cli.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { createReadStream, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import * as tar from 'tar';
import { loadSchemas } from '../../src/schemas/registry.js';

/** The repository root. */
export const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** A finished subprocess. */
export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A throw-away release key for the tests: releases built by them are signed with it, and {@link cliEnv} points the
 * client and install.sh at its public half through the explicit test setting (the pinned key is the project's).
 */
const testReleaseKeys = generateKeyPairSync('ed25519');
/** The test releases' private key, PKCS#8 PEM (`buildRelease({ signingKey })`). */
export const TEST_RELEASE_SIGNING_KEY = testReleaseKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
/** A file holding the test releases' public key (PEM). */
export const TEST_RELEASE_PUBLIC_KEY_FILE = join(tmpdir(), `syllabus-test-release-key-${process.pid}.pem`);
writeFileSync(TEST_RELEASE_PUBLIC_KEY_FILE, testReleaseKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString());

/**
 * A clean environment for the client: nothing inherited but PATH, a throw-away HOME and cache, no CI, and the
 * explicit test setting that accepts loopback http release servers signed with the test key.
 */
export function cliEnv(home: string, extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: home,
    SYLLABUS_CACHE_DIR: join(home, 'cache'),
    SYLLABUS_ALLOW_TEST_RELEASES: '1',
    SYLLABUS_RELEASE_TEST_KEY: TEST_RELEASE_PUBLIC_KEY_FILE,
    ...extra,
  };
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

/** Runs `command args` to completion (never rejects on a non-zero exit). */
export function runProcess(command: string, args: readonly string[], env: Record<string, string>, timeoutMs = 30_000): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(command, [...args], { env, timeout: timeoutMs, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (!error) return resolve({ code: 0, stdout, stderr });
      if (error.killed) return reject(new Error(`${command} ${args.join(' ')} timed out; stderr: ${stderr}`));
      if (typeof error.code === 'number') return resolve({ code: error.code, stdout, stderr });
      reject(new Error(error.message, { cause: error }));
    });
  });
}

/** Runs the client bundle (`node <bundle> ...args`). */
export function runCli(bundle: string, args: readonly string[], env: Record<string, string>): Promise<RunResult> {
  return runProcess(process.execPath, [bundle, ...args], env);
}

/**
 * Runs a command on a pseudo-terminal (util-linux `script`), so the client sees a TTY on stdout.
 * @returns the exit code; the terminal output is discarded.
 */
export function runOnTty(command: readonly string[], env: Record<string, string>): Promise<number | null> {
  const quoted = command.map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', quoted, '/dev/null'], { env, stdio: ['ignore', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  });
}

/** A temporary folder removed by the returned cleanup. */
export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `${prefix}-`));
}

/** Removes folders (afterAll). */
export async function removeAll(paths: readonly string[]): Promise<void> {
  await Promise.all(paths.map((p) => rm(p, { recursive: true, force: true })));
}

/** A loopback HTTP server that records every request. */
export interface LoopbackServer {
  url: string;
  /** Every request seen, in order. */
  requests: { method: string; path: string; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

/** Starts a loopback server on an ephemeral port with `handler`, recording requests. */
export async function startLoopback(handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>): Promise<LoopbackServer> {
  const requests: LoopbackServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    void Promise.resolve(handler(req, res)).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A static release server for `dir` (files directly in it), counting requests.
 * @param redirects request paths (`/latest.json`) answered with a 302 to the given URL instead.
 */
export function startReleaseServer(dir: string, redirects: Record<string, string> = {}): Promise<LoopbackServer> {
  return startLoopback(async (req, res) => {
    const location = redirects[req.url ?? ''];
    if (location !== undefined) return void res.writeHead(302, { location }).end('moved');
    const name = decodeURIComponent((req.url ?? '/').split('?')[0]!.replace(/^\//, ''));
    if (!/^[A-Za-z0-9][A-Za-z0-9._+-]*$/.test(name)) return void res.writeHead(404).end();
    const file = join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-length': info.size });
    createReadStream(file).pipe(res);
  });
}

/** A port with nothing listening (bound then released). */
export async function deadUrl(): Promise<string> {
  const server = await startLoopback(() => undefined);
  await server.close();
  return server.url;
}

/** Rewrites `<dir>/latest.json` as `manifest` and signs it with the test release key (a manifest the key vouches for). */
export async function writeSignedManifest(dir: string, manifest: object): Promise<void> {
  const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(join(dir, 'latest.json'), bytes);
  await writeFile(join(dir, 'latest.json.sig'), `${sign(null, bytes, testReleaseKeys.privateKey).toString('base64')}\n`);
}

/**
 * Publishes a hand-made release of `version` into `dir`, as `npm run release` would lay it out: the archive
 * `syllabus-<version>.tar.gz` packed from `files` (path inside the archive → content, or `{ link }` for a symbolic
 * link), `SHA256SUMS` and `latest.json` signed with the test key. Signature and checksums are all good, so only what
 * the files hold can make an installer refuse it.
 */
export async function writeRelease(dir: string, version: string, files: Record<string, string | { link: string }>): Promise<void> {
  const src = await mkdtemp(join(tmpdir(), 'hand-made-release-'));
  try {
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(src, path)), { recursive: true });
      if (typeof content === 'string') await writeFile(join(src, path), content, { mode: 0o755 });
      else await symlink(content.link, join(src, path));
    }
    const name = `syllabus-${version}.tar.gz`;
    await mkdir(dir, { recursive: true });
    await tar.c({ gzip: true, portable: true, cwd: src, file: join(dir, name) }, await readdir(src));
    const data = await readFile(join(dir, name));
    const sha256 = createHash('sha256').update(data).digest('hex');
    await writeFile(join(dir, 'SHA256SUMS'), `${sha256}  ${name}\n`);
    await writeSignedManifest(dir, { version, url: name, sha256, size: data.length, date: new Date().toISOString() });
  } finally {
    await rm(src, { recursive: true, force: true });
  }
}

/** Flips one byte in the middle of a file (a tampered download of the same size). */
export async function tamper(file: string): Promise<void> {
  const data = await readFile(file);
  const i = Math.floor(data.length / 2);
  data[i] = data[i]! ^ 0xff;
  await writeFile(file, data);
}

let ajv: Ajv2020 | undefined;

/** Validates `value` against `schemas/<path>`; returns ajv's errors as text, or '' when valid. */
export function schemaErrors(path: string, value: unknown): string {
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: true, strict: false });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    for (const schema of loadSchemas().values()) ajv.addSchema(schema);
  }
  const id = `https://syllabus.example/schemas/${path}`;
  const validate = ajv.getSchema(id);
  if (!validate) throw new Error(`no schema ${id}`);
  return validate(value) ? '' : ajv.errorsText(validate.errors);
}

/** Polls `condition` every 50 ms until it holds or `timeoutMs` passes. */
export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}
