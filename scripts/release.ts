/**
 * `npm run release`: builds the `syllabus` client into one self-contained bundle (esbuild: platform node,
 * target node20, ESM, no node_modules at run time) and publishes, into `dist/release/` (or `--out DIR`):
 *
 * - `syllabus-<version>.tar.gz` containing `syllabus-<version>/bin/syllabus` (launcher), `lib/syllabus.mjs` (bundle)
 *   and a `package.json` pinning the folder to CommonJS so the extensionless launcher runs the same everywhere;
 * - `SHA256SUMS` (every archive in the folder, `sha256sum -c` format);
 * - `latest.json` (schemas/cli/release-manifest.schema.json): version, archive URL (relative to the manifest), sha256, size, date;
 * - `latest.json.sig`: the Ed25519 signature of latest.json's bytes, base64 (src/cli/release/signature.ts). The private
 *   key is never in the repository: `SYLLABUS_RELEASE_SIGNING_KEY` names its PEM file (or pass `signingKey`), and
 *   `npm run release` refuses a key whose public half is not the pinned `RELEASE_PUBLIC_KEY`;
 * - `install.sh`.
 *
 * Options: `--version X` (default: package.json's), `--out DIR`. Static files: any static host can serve them,
 * and the service does at `/releases/` when `RELEASES_DIR` points at the folder.
 */
import { execFileSync } from 'node:child_process';
import { createHash, createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { RELEASE_PUBLIC_KEY } from '../src/cli/release/signature.js';
import { NODE_BUNDLE_OPTIONS } from './build.js';
import semver from 'semver';
import * as tar from 'tar';

const repo = fileURLToPath(new URL('..', import.meta.url));

/** The launcher: checks the Node version, then runs the bundle beside it (CommonJS, so it needs no flags). */
const LAUNCHER = `#!/usr/bin/env node
'use strict';
// Launcher of the syllabus client: checks the Node.js version, then runs the bundle in ../lib.
const [major, minor] = process.versions.node.split('.').map(Number);
if (!((major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major >= 24)) {
  process.stderr.write('syllabus: needs Node.js 20.19+, 22.12+ or 24+, but this is ' + process.version + '; install a supported Node.js and run it again.\\n');
  process.exit(1);
}
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');
import(pathToFileURL(join(__dirname, '..', 'lib', 'syllabus.mjs')).href).catch((error) => {
  process.stderr.write('syllabus: could not start (' + (error && error.message) + '); reinstall it with install.sh.\\n');
  process.exitCode = 1;
});
`;

/**
 * The manifest's signing key. @throws Error when none is given: a release is never published unsigned.
 */
function releaseSigningKey(pem: string | undefined): KeyObject {
  const file = process.env.SYLLABUS_RELEASE_SIGNING_KEY;
  const text = pem ?? (file ? readFileSync(file, 'utf8') : undefined);
  if (text === undefined) throw new Error('set SYLLABUS_RELEASE_SIGNING_KEY to the PEM file of the Ed25519 release key: releases are signed');
  const key = createPrivateKey(text);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('the release signing key must be an Ed25519 private key');
  return key;
}

async function sha256(file: string): Promise<{ hex: string; size: number }> {
  const data = await readFile(file);
  return { hex: createHash('sha256').update(data).digest('hex'), size: data.length };
}

/** Options of {@link buildRelease}. */
export interface ReleaseOptions {
  /** Semantic version to stamp into the client (default: package.json's). */
  version?: string;
  /** Folder to publish into (default: dist/release). */
  out?: string;
  /** The Ed25519 private key (PKCS#8 PEM) that signs the manifest; default the file `SYLLABUS_RELEASE_SIGNING_KEY` names. */
  signingKey?: string;
  /**
   * Refuse a signing key whose public half is not the one pinned in the client and install.sh (every client would
   * refuse such a release). `npm run release` sets it; tests sign with throw-away keys and leave it off.
   */
  requirePinnedKey?: boolean;
}

/** What {@link buildRelease} published. */
export interface ReleaseResult {
  version: string;
  out: string;
  archive: string;
  sha256: string;
  size: number;
}

/**
 * Bundles the client with esbuild into `outfile` (one ESM file, platform node, target node20).
 * @param version stamped into the bundle as the client's version.
 */
export async function buildClientBundle(outfile: string, version: string): Promise<void> {
  const pkg = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as { homepage?: string; engines?: { node?: string } };
  await build({
    ...NODE_BUNDLE_OPTIONS,
    entryPoints: [join(repo, 'src', 'cli', 'main.ts')],
    outfile,
    define: {
      __SYLLABUS_CLI_VERSION__: JSON.stringify(version),
      ...(pkg.homepage ? { __SYLLABUS_CLI_HOMEPAGE__: JSON.stringify(pkg.homepage) } : {}),
      __SYLLABUS_CLI_NODE_RANGE__: JSON.stringify(pkg.engines?.node ?? '>=20.19.0'),
    },
  });
}

/**
 * Builds and publishes a release (see the file comment).
 * @throws Error when the version is not semver or the built client does not report it.
 */
export async function buildRelease(options: ReleaseOptions = {}): Promise<ReleaseResult> {
  const pkg = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as { version: string };
  const version = options.version ?? pkg.version;
  if (semver.valid(version) !== version) throw new Error(`--version must be a semantic version like 1.2.3, got ${version}`);
  const out = resolve(options.out ?? join(repo, 'dist', 'release'));
  const signingKey = releaseSigningKey(options.signingKey);
  if (options.requirePinnedKey && createPublicKey(signingKey).export({ type: 'spki', format: 'pem' }).toString() !== RELEASE_PUBLIC_KEY) {
    throw new Error(
      'the signing key is not the release key pinned in src/cli/release/signature.ts and install.sh; every client would refuse this release',
    );
  }
  const name = `syllabus-${version}`;
  await mkdir(out, { recursive: true });

  const date = new Date();
  const work = await mkdtemp(join(tmpdir(), 'syllabus-release-'));
  try {
    const top = join(work, name);
    await mkdir(join(top, 'bin'), { recursive: true });
    await buildClientBundle(join(top, 'lib', 'syllabus.mjs'), version);
    await writeFile(join(top, 'bin', 'syllabus'), LAUNCHER);
    await chmod(join(top, 'bin', 'syllabus'), 0o755);
    await writeFile(join(top, 'package.json'), `${JSON.stringify({ name: 'syllabus-cli', version, private: true, type: 'commonjs' }, null, 2)}\n`);

    // The bundle must run on its own, outside the repository (no node_modules to fall back on).
    const reported = execFileSync(process.execPath, [join(top, 'bin', 'syllabus'), '--version'], {
      cwd: work,
      env: { ...process.env, SYLLABUS_NO_UPDATE: '1' },
      encoding: 'utf8',
    }).trim();
    if (reported !== version) throw new Error(`the built client reports version ${reported}, expected ${version}`);

    const archiveName = `${name}.tar.gz`;
    const tmpArchive = join(out, `.${archiveName}.tmp`);
    await tar.c({ gzip: true, portable: true, mtime: date, cwd: work, file: tmpArchive }, [name]);
    await rename(tmpArchive, join(out, archiveName));
    const { hex, size } = await sha256(join(out, archiveName));

    const archives = (await readdir(out)).filter((f) => /^syllabus-.+\.tar\.gz$/.test(f)).sort();
    const sums = await Promise.all(archives.map(async (f) => `${(await sha256(join(out, f))).hex}  ${f}\n`));
    await writeFile(join(out, 'SHA256SUMS'), sums.join(''));

    // One key per line: install.sh reads it with sed.
    const manifest = { version, url: archiveName, sha256: hex, size, date: date.toISOString() };
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    await writeFile(join(out, 'latest.json'), manifestBytes);
    await writeFile(join(out, 'latest.json.sig'), `${sign(null, manifestBytes, signingKey).toString('base64')}\n`);
    await copyFile(join(repo, 'install.sh'), join(out, 'install.sh'));
    await chmod(join(out, 'install.sh'), 0o755);
    return { version, out, archive: join(out, archiveName), sha256: hex, size };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { version: { type: 'string' }, out: { type: 'string' } } });
  const result = await buildRelease({
    requirePinnedKey: true,
    ...(values.version !== undefined ? { version: values.version } : {}),
    ...(values.out !== undefined ? { out: values.out } : {}),
  });
  process.stdout.write(`release ${result.version}: ${result.archive} (${result.size} bytes, sha256 ${result.sha256})\n`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`release: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
