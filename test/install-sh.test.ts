/**
 * install.sh run with `sh` (dash) and HOME in a temporary folder, against loopback release servers:
 * installs a good signed release (curl + sha256sum, and wget + shasum), refuses a tampered archive or manifest, plain
 * http without the test setting and a linked bin folder, leaving nothing unpacked.
 */
import { cp, mkdir, readdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
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

  it('refuses a manifest that is not signed by the release key, downloading nothing else', async () => {
    const dir = join(work, 'unsigned');
    await cp(join(work, 'good'), dir, { recursive: true });
    const text = await readFile(join(dir, 'latest.json'), 'utf8');
    await writeFile(join(dir, 'latest.json'), text.replace('"1.2.3"', '"1.2.4"'));
    const server = await startReleaseServer(dir);
    try {
      const home = join(work, 'home-unsigned');
      const r = await runProcess('sh', [INSTALL, server.url], cliEnv(home));
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('latest.json is not signed by the Syllabus release key; it may have been tampered with. Nothing was installed.');
      expect(server.requests.map((q) => q.path)).toEqual(['/latest.json', '/latest.json.sig']);
      expect(await readdir(home).catch(() => [])).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('refuses plain http without the explicit test setting', async () => {
    const r = await runProcess('sh', [INSTALL, good.url], cliEnv(join(work, 'home-http'), { SYLLABUS_ALLOW_TEST_RELEASES: undefined }));
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`syllabus install: releases are only fetched over https, not from ${good.url}\n`);
  });

  it('never writes through a symbolic link: a linked bin folder is refused', async () => {
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
