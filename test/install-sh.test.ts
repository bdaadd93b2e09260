/**
 * install.sh run with `sh` (dash) and HOME in a temporary folder, against loopback release servers:
 * installs a good signed release (curl + sha256sum, and wget + shasum), refuses a tampered archive or manifest, plain
 * http without the test setting and a linked bin folder, leaving nothing unpacked.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { cp, mkdir, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRelease } from '../scripts/release.js';
import { RELEASE_PUBLIC_KEY } from '../src/cli/release/signature.js';
import {
  REPO,
  TEST_RELEASE_SIGNING_KEY,
  cliEnv,
  removeAll,
  runProcess,
  startReleaseServer,
  tamper,
  tempDir,
  writeRelease,
  type LoopbackServer,
} from './helpers/cli.js';

let work: string;
const servers: LoopbackServer[] = [];
let good: LoopbackServer;
let bad: LoopbackServer;
const INSTALL = join(REPO, 'install.sh');

beforeAll(async () => {
  work = await tempDir('install-sh');
  await buildRelease({ version: '1.2.3', out: join(work, 'good'), signingKey: TEST_RELEASE_SIGNING_KEY });
  await cp(join(work, 'good'), join(work, 'bad'), { recursive: true });
  await tamper(join(work, 'bad', 'syllabus-1.2.3.tar.gz'));
  good = await startReleaseServer(join(work, 'good'));
  bad = await startReleaseServer(join(work, 'bad'));
  servers.push(good, bad);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await removeAll([work]);
});

describe('install.sh', () => {
  it('installs a good release under ~/.local/share/syllabus, links ~/.local/bin/syllabus, and says what to add to PATH', async () => {
    const home = join(work, 'home-good');
    const r = await runProcess('sh', [INSTALL, good.url], cliEnv(home));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('verified SHA-256');
    expect(r.stdout).toContain(`export PATH="${home}/.local/bin:$PATH"`);
    expect(await readlink(join(home, '.local', 'share', 'syllabus', 'current'))).toBe('syllabus-1.2.3');
    expect(await readlink(join(home, '.local', 'bin', 'syllabus'))).toBe(join(home, '.local', 'share', 'syllabus', 'current', 'bin', 'syllabus'));
    const v = await runProcess(join(home, '.local', 'bin', 'syllabus'), ['--version'], cliEnv(home));
    expect(v).toMatchObject({ code: 0, stdout: '1.2.3\n' });
    expect(good.requests.map((q) => q.path)).toEqual(['/latest.json', '/latest.json.sig', '/syllabus-1.2.3.tar.gz', '/SHA256SUMS']);
  });

  it('reinstalls the same version over itself cleanly', async () => {
    const home = join(work, 'home-twice');
    expect((await runProcess('sh', [INSTALL, good.url], cliEnv(home))).code).toBe(0);
    const again = await runProcess('sh', [INSTALL, good.url], cliEnv(home));
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect((await readdir(join(home, '.local', 'share', 'syllabus'))).sort()).toEqual(['current', 'syllabus-1.2.3']);
    expect(await runProcess(join(home, '.local', 'bin', 'syllabus'), ['--version'], cliEnv(home))).toMatchObject({ code: 0, stdout: '1.2.3\n' });
  });

  it('takes the release URL from SYLLABUS_RELEASE_URL and works with wget and shasum only', async () => {
    // A PATH without curl and sha256sum.
    const tools = join(work, 'tools');
    await mkdir(tools);
    for (const tool of [
      'wget',
      'shasum',
      'perl',
      'gzip',
      'tar',
      'sed',
      'awk',
      'cut',
      'grep',
      'head',
      'mktemp',
      'rm',
      'mkdir',
      'mv',
      'ln',
      'readlink',
      'chmod',
      'cat',
      'dirname',
      'openssl',
      'cp',
    ]) {
      const found = await runProcess('sh', ['-c', `command -v ${tool}`], { PATH: process.env.PATH ?? '' });
      if (found.code === 0) await symlink(found.stdout.trim(), join(tools, tool));
    }
    await symlink(process.execPath, join(tools, 'node'));
    const home = join(work, 'home-wget');
    const r = await runProcess('/bin/sh', [INSTALL], { ...cliEnv(home, { SYLLABUS_RELEASE_URL: good.url }), PATH: tools });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(await readlink(join(home, '.local', 'share', 'syllabus', 'current'))).toBe('syllabus-1.2.3');
  });

  it('refuses a tampered archive with a clear message and leaves nothing unpacked', async () => {
    const home = join(work, 'home-bad');
    const tmp = join(work, 'tmp-bad');
    await mkdir(tmp);
    const r = await runProcess('sh', [INSTALL, bad.url], cliEnv(home, { TMPDIR: tmp }));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(
      /^syllabus install: checksum mismatch for syllabus-1\.2\.3\.tar\.gz: SHA256SUMS says [0-9a-f]{64}, the download is [0-9a-f]{64}\. The download is corrupt or was tampered with; nothing was installed\.\n$/,
    );
    expect(await readdir(home).catch(() => [])).toEqual([]);
    expect(await readdir(tmp)).toEqual([]); // the download was removed too
    expect(bad.requests.map((q) => q.path)).toEqual(['/latest.json', '/latest.json.sig', '/syllabus-1.2.3.tar.gz', '/SHA256SUMS']);
  });

  it.each([
    ['changed after signing', 'latest.json is not signed by the Syllabus release key; it may have been tampered with. Nothing was installed.'],
    ['signed by another key', 'latest.json is not signed by the Syllabus release key; it may have been tampered with. Nothing was installed.'],
    [
      'whose signature is not base64',
      'latest.json is not signed by the Syllabus release key; it may have been tampered with. Nothing was installed.',
    ],
    ['without a signature', 'latest.json.sig with curl (HTTP 404)'],
  ] as const)('refuses a manifest %s, downloading nothing else and writing nothing', async (how, message) => {
    const dir = join(work, `manifest-${how.replace(/\W/g, '-')}`);
    await cp(join(work, 'good'), dir, { recursive: true });
    const manifest = join(dir, 'latest.json');
    const signature = join(dir, 'latest.json.sig');
    if (how === 'changed after signing') await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('"1.2.3"', '"1.2.4"'));
    if (how === 'signed by another key') {
      await writeFile(signature, `${sign(null, await readFile(manifest), generateKeyPairSync('ed25519').privateKey).toString('base64')}\n`);
    }
    if (how === 'whose signature is not base64') await writeFile(signature, 'not a signature!\n');
    if (how === 'without a signature') await rm(signature);
    const server = await startReleaseServer(dir);
    servers.push(server);
    const home = join(work, `home-manifest-${how.replace(/\W/g, '-')}`);
    const r = await runProcess('sh', [INSTALL, server.url], cliEnv(home));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(message);
    expect(server.requests.map((q) => q.path)).toEqual(['/latest.json', '/latest.json.sig']);
    expect(await readdir(home).catch(() => [])).toEqual([]);
  });

  it.each([
    ['to loopback without the explicit test setting', () => good.url, undefined],
    ['to a host that only starts like a loopback address', () => 'http://127.0.0.1.example.invalid/', '1'],
    ['to another host behind loopback-looking user info', () => 'http://localhost:80@example.invalid/', '1'],
  ])('refuses plain http %s', async (_, url, setting) => {
    const home = join(work, `home-http-${setting ?? 'none'}-${url().length}`);
    const r = await runProcess('sh', [INSTALL, url()], cliEnv(home, { SYLLABUS_ALLOW_TEST_RELEASES: setting }));
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`syllabus install: releases are only fetched over https, not from ${url()}\n`);
    expect(await readdir(home).catch(() => [])).toEqual([]);
  });

  it('never follows a redirect: an archive redirected to another origin is refused, and nothing is written', async () => {
    const elsewhere = await startReleaseServer(join(work, 'good'));
    const server = await startReleaseServer(join(work, 'good'), { '/syllabus-1.2.3.tar.gz': `${elsewhere.url}syllabus-1.2.3.tar.gz` });
    servers.push(elsewhere, server);
    const home = join(work, 'home-redirect');
    const r = await runProcess('sh', [INSTALL, server.url], cliEnv(home));
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `syllabus install: ${server.url}syllabus-1.2.3.tar.gz redirects elsewhere (HTTP 302); release files are only fetched from the release URL's own origin, without redirects. Nothing was installed.\n`,
    );
    expect(elsewhere.requests).toEqual([]);
    expect(await readdir(home).catch(() => [])).toEqual([]);
  });

  it.each(['SYLLABUS_BIN_DIR', 'SYLLABUS_INSTALL_DIR'])('never writes through a symbolic link: a linked %s is refused', async (setting) => {
    const home = join(work, `home-linked-${setting}`);
    const elsewhere = join(work, `elsewhere-${setting}`);
    await mkdir(home, { recursive: true });
    await mkdir(elsewhere);
    await symlink(elsewhere, join(home, 'linked'));
    const r = await runProcess('sh', [INSTALL, good.url], cliEnv(home, { [setting]: join(home, 'linked') }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${join(home, 'linked')} is a symbolic link`);
    expect(await readdir(elsewhere)).toEqual([]);
    expect(await readdir(home)).toEqual(['linked']); // nothing installed either
  });

  it('never writes through a symbolic link: the default ~/.local/bin linked elsewhere is refused', async () => {
    const home = join(work, 'home-linked-bin');
    const elsewhere = join(work, 'elsewhere-bin');
    await mkdir(join(home, '.local'), { recursive: true });
    await mkdir(elsewhere);
    await symlink(elsewhere, join(home, '.local', 'bin'));
    const r = await runProcess('sh', [INSTALL, good.url], cliEnv(home));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('.local/bin is a symbolic link');
    expect(await readdir(elsewhere)).toEqual([]);
    expect(await readdir(join(home, '.local'))).toEqual(['bin']); // nothing installed either
  });

  it('never changes permissions through a link: a signed release whose bin is a link elsewhere is refused', async () => {
    const outside = join(work, 'outside-bin');
    await mkdir(outside);
    await writeFile(join(outside, 'syllabus'), '#!/bin/sh\necho 1.2.4\n', { mode: 0o600 });
    const dir = join(work, 'linked-bin-release');
    await writeRelease(dir, '1.2.4', {
      'syllabus-1.2.4/bin': { link: outside },
      'syllabus-1.2.4/lib/syllabus.mjs': 'console.log("1.2.4");\n',
    });
    const server = await startReleaseServer(dir);
    servers.push(server);
    const home = join(work, 'home-linked-bin-release');
    const r = await runProcess('sh', [INSTALL, server.url], cliEnv(home));
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('syllabus install: syllabus-1.2.4.tar.gz holds links or special files; nothing was installed.\n');
    expect((await stat(join(outside, 'syllabus'))).mode & 0o777).toBe(0o600);
    expect(await readdir(home).catch(() => [])).toEqual([]);
  });

  it.each([
    ['says it is another version', '#!/bin/sh\necho 9.9.9\n', 'the release says it is version 9.9.9, not 1.2.4; nothing was changed.'],
    ['does not run', '#!/bin/sh\necho broken >&2\nexit 3\n', 'syllabus 1.2.4 does not run: broken. Nothing was changed.'],
  ])('switches current only after the new version answers --version: one that %s leaves the old one current', async (_, launcher, message) => {
    const home = join(work, `home-unrunnable-${launcher.length}`);
    expect((await runProcess('sh', [INSTALL, good.url], cliEnv(home))).code).toBe(0);
    const dir = join(work, `unrunnable-${launcher.length}`);
    await writeRelease(dir, '1.2.4', { 'syllabus-1.2.4/bin/syllabus': launcher, 'syllabus-1.2.4/lib/syllabus.mjs': '' });
    const server = await startReleaseServer(dir);
    servers.push(server);
    const r = await runProcess('sh', [INSTALL, server.url], cliEnv(home));
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`syllabus install: ${message}\n`);
    const root = join(home, '.local', 'share', 'syllabus');
    expect(await readlink(join(root, 'current'))).toBe('syllabus-1.2.3');
    expect((await readdir(root)).sort()).toEqual(['current', 'syllabus-1.2.3']);
    expect(await runProcess(join(home, '.local', 'bin', 'syllabus'), ['--version'], cliEnv(home))).toMatchObject({ code: 0, stdout: '1.2.3\n' });
  });

  it('keeps the version it replaces as previous', async () => {
    const home = join(work, 'home-previous');
    expect((await runProcess('sh', [INSTALL, good.url], cliEnv(home))).code).toBe(0);
    const dir = join(work, 'next');
    await writeRelease(dir, '1.2.4', { 'syllabus-1.2.4/bin/syllabus': '#!/bin/sh\necho 1.2.4\n', 'syllabus-1.2.4/lib/syllabus.mjs': '' });
    const server = await startReleaseServer(dir);
    servers.push(server);
    const r = await runProcess('sh', [INSTALL, server.url], cliEnv(home));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const root = join(home, '.local', 'share', 'syllabus');
    expect(await readlink(join(root, 'current'))).toBe('syllabus-1.2.4');
    expect(await readlink(join(root, 'previous'))).toBe('syllabus-1.2.3');
    expect((await readdir(root)).sort()).toEqual(['current', 'previous', 'syllabus-1.2.3', 'syllabus-1.2.4']);
  });

  it('pins the same release key as the client', async () => {
    const script = await readFile(INSTALL, 'utf8');
    const pinned = /release_key='([^']+)'/.exec(script)?.[1];
    expect(`${pinned}\n`).toBe(RELEASE_PUBLIC_KEY);
  });

  it('refuses to run without a release URL (exit 1, one sentence)', async () => {
    const r = await runProcess('sh', [INSTALL], cliEnv(join(work, 'home-none')));
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'syllabus install: no release URL: pass it as the first argument or set SYLLABUS_RELEASE_URL (e.g. https://example.org/releases/).\n',
    );
  });
});
