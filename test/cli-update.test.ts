/**
 * `syllabus update` and the daily self-update, run from a real install (made by install.sh from a loopback
 * release server) against loopback release servers built by `npm run release`'s code.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { cp, lstat, readdir, readlink, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRelease } from '../scripts/release.js';
import {
  REPO,
  TEST_RELEASE_SIGNING_KEY,
  cliEnv,
  removeAll,
  runOnTty,
  runProcess,
  schemaErrors,
  startLoopback,
  startReleaseServer,
  tamper,
  tempDir,
  writeSignedManifest,
  waitFor,
  type LoopbackServer,
} from './helpers/cli.js';

let work: string;
const servers: LoopbackServer[] = [];
let oldRelease: LoopbackServer; // serves 0.1.0
let newRelease: LoopbackServer; // serves 0.2.0
let tampered: LoopbackServer; // 0.2.0 with one archive byte flipped

async function serveDir(dir: string): Promise<LoopbackServer> {
  const server = await startReleaseServer(dir);
  servers.push(server);
  return server;
}

/** Installs 0.1.0 with install.sh into a fresh HOME. @returns HOME. */
async function freshInstall(name: string): Promise<string> {
  const home = join(work, name);
  const r = await runProcess('sh', [join(REPO, 'install.sh'), oldRelease.url], cliEnv(home));
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return home;
}

const bin = (home: string): string => join(home, '.local', 'bin', 'syllabus');
const root = (home: string): string => join(home, '.local', 'share', 'syllabus');

beforeAll(async () => {
  work = await tempDir('cli-update');
  await buildRelease({ version: '0.1.0', out: join(work, 'rel-0.1.0'), signingKey: TEST_RELEASE_SIGNING_KEY });
  await buildRelease({ version: '0.2.0', out: join(work, 'rel-0.2.0'), signingKey: TEST_RELEASE_SIGNING_KEY });
  await cp(join(work, 'rel-0.2.0'), join(work, 'rel-tampered'), { recursive: true });
  await tamper(join(work, 'rel-tampered', 'syllabus-0.2.0.tar.gz'));
  oldRelease = await serveDir(join(work, 'rel-0.1.0'));
  newRelease = await serveDir(join(work, 'rel-0.2.0'));
  tampered = await serveDir(join(work, 'rel-tampered'));
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await removeAll([work]);
});

describe('syllabus update', () => {
  it('refuses a tampered archive and keeps the old install working', async () => {
    const home = await freshInstall('tampered');
    const env = cliEnv(home, { SYLLABUS_RELEASE_URL: tampered.url });
    const r = await runProcess(bin(home), ['update'], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /does not match the release manifest \(its SHA-256 is [0-9a-f]{64}, the manifest says [0-9a-f]{64}\); it was discarded and the installed version 0\.1\.0 is unchanged\.\n$/,
    );
    expect(await readlink(join(root(home), 'current'))).toBe('syllabus-0.1.0');
    expect((await readdir(root(home))).sort()).toEqual(['current', 'syllabus-0.1.0']);
    const still = await runProcess(bin(home), ['--version'], cliEnv(home));
    expect(still).toMatchObject({ code: 0, stdout: '0.1.0\n' });
  });

  it('refuses a download whose size differs from the manifest', async () => {
    const dir = join(work, 'rel-bigger');
    await cp(join(work, 'rel-0.2.0'), dir, { recursive: true });
    const manifest = JSON.parse(await readFile(join(dir, 'latest.json'), 'utf8')) as { size: number };
    await writeSignedManifest(dir, { ...manifest, size: manifest.size - 10 }); // signed: only the size check can catch it
    const server = await serveDir(dir);
    const home = await freshInstall('size');
    const r = await runProcess(bin(home), ['update', '--json'], cliEnv(home, { SYLLABUS_RELEASE_URL: server.url }));
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({ error: expect.stringContaining('more than the'), exit_code: 1, retry_at: null });
    expect(r.stderr).toContain('more than the');
    expect(await readlink(join(root(home), 'current'))).toBe('syllabus-0.1.0');
  });

  it.each([
    ['changed after signing', 'is not signed by the Syllabus release key; it may have been tampered with. Nothing was installed.'],
    ['signed by another key', 'is not signed by the Syllabus release key; it may have been tampered with. Nothing was installed.'],
    ['signed for another manifest', 'is not signed by the Syllabus release key; it may have been tampered with. Nothing was installed.'],
    ['without a signature', 'The release manifest has no signature'],
  ] as const)('refuses a manifest %s, downloads nothing and changes nothing on disk', async (how, message) => {
    const dir = join(work, `rel-${how.replace(/\W/g, '-')}`);
    await cp(join(work, 'rel-0.2.0'), dir, { recursive: true });
    const manifest = join(dir, 'latest.json');
    const signature = join(dir, 'latest.json.sig');
    if (how === 'changed after signing') await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('"0.2.0"', '"0.2.1"'));
    if (how === 'signed by another key') {
      const other = generateKeyPairSync('ed25519').privateKey;
      await writeFile(signature, `${sign(null, await readFile(manifest), other).toString('base64')}\n`);
    }
    if (how === 'signed for another manifest') await cp(join(work, 'rel-0.1.0', 'latest.json.sig'), signature);
    if (how === 'without a signature') await rm(signature);
    const server = await serveDir(dir);
    const home = await freshInstall(`tampered-manifest-${how.replace(/\W/g, '-')}`);
    const before = (await readdir(root(home))).sort();
    const r = await runProcess(bin(home), ['update'], cliEnv(home, { SYLLABUS_RELEASE_URL: server.url }));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
    expect((await readdir(root(home))).sort()).toEqual(before);
    expect(await readlink(join(root(home), 'current'))).toBe('syllabus-0.1.0');
    expect(server.requests.map((q) => q.path)).toEqual(['/latest.json', '/latest.json.sig']); // no download
  });

  it('refuses a signed manifest whose archive is on another origin', async () => {
    const dir = join(work, 'rel-elsewhere');
    await cp(join(work, 'rel-0.2.0'), dir, { recursive: true });
    const manifest = JSON.parse(await readFile(join(dir, 'latest.json'), 'utf8')) as { url: string };
    await writeSignedManifest(dir, { ...manifest, url: `${newRelease.url}${manifest.url}` });
    const server = await serveDir(dir);
    const home = await freshInstall('elsewhere');
    const r = await runProcess(bin(home), ['update'], cliEnv(home, { SYLLABUS_RELEASE_URL: server.url }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('names an archive on another origin');
    expect(newRelease.requests.some((q) => q.path.endsWith('.tar.gz') && q.headers['user-agent']?.includes('syllabus'))).toBe(false);
  });

  it.each(['/latest.json', '/syllabus-0.2.0.tar.gz'])(
    'never follows a redirect to another origin: %s redirected is refused, and nothing changes',
    async (path) => {
      const elsewhere = await serveDir(join(work, 'rel-0.2.0'));
      const server = await startReleaseServer(join(work, 'rel-0.2.0'), { [path]: `${elsewhere.url}${path.slice(1)}` });
      servers.push(server);
      const home = await freshInstall(`redirect-${path.replace(/\W/g, '-')}`);
      const r = await runProcess(bin(home), ['update'], cliEnv(home, { SYLLABUS_RELEASE_URL: server.url }));
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `syllabus: The release server redirected ${server.url}${path.slice(1)} (302) to ${elsewhere.url}${path.slice(1)}; release files are only fetched from the manifest's own origin, without redirects. Nothing was installed.\n`,
      );
      expect(elsewhere.requests).toEqual([]);
      expect((await readdir(root(home))).sort()).toEqual(['current', 'syllabus-0.1.0']);
    },
  );

  it.each([
    ['to loopback without the explicit test setting', () => newRelease.url, undefined],
    ['to another host even with the test setting', () => 'http://releases.example.invalid/', '1'],
  ])('fetches releases over https only: plain http %s is refused before any request', async (_, url, setting) => {
    const home = await freshInstall(`http-${setting ?? 'none'}`);
    const requestsBefore = newRelease.requests.length;
    const r = await runProcess(bin(home), ['update'], cliEnv(home, { SYLLABUS_RELEASE_URL: url(), SYLLABUS_ALLOW_TEST_RELEASES: setting }));
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `syllabus: Not updating: releases are only fetched over https, not from ${url()}latest.json. Set SYLLABUS_RELEASE_URL to the https address of the releases.\n`,
    );
    expect(newRelease.requests.length).toBe(requestsBefore);
    expect((await readdir(root(home))).sort()).toEqual(['current', 'syllabus-0.1.0']);
  });

  it('--rollback makes the previous version current again, and back', async () => {
    const home = await freshInstall('rollback');
    const env = cliEnv(home, { SYLLABUS_RELEASE_URL: newRelease.url });
    expect((await runProcess(bin(home), ['update'], env)).code).toBe(0);
    expect(await readlink(join(root(home), 'current'))).toBe('syllabus-0.2.0');
    const back = await runProcess(bin(home), ['update', '--rollback'], env);
    expect(back.code).toBe(0);
    expect(back.stdout).toContain('syllabus 0.1.0 is current again');
    expect(await readlink(join(root(home), 'current'))).toBe('syllabus-0.1.0');
    expect(await readlink(join(root(home), 'previous'))).toBe('syllabus-0.2.0');
    expect((await runProcess(bin(home), ['--version'], env)).stdout.trim()).toBe('0.1.0');
    const forth = await runProcess(bin(home), ['update', '--rollback', '--json'], env);
    expect(forth.code).toBe(0);
    const out = JSON.parse(forth.stdout) as unknown;
    expect(schemaErrors('cli/rollback.schema.json', out)).toBe('');
    expect(out).toEqual({ current: '0.2.0', previous: '0.1.0' });
    expect(await readlink(join(root(home), 'current'))).toBe('syllabus-0.2.0');
  });

  it('--rollback with no previous version says so and changes nothing', async () => {
    const home = await freshInstall('no-previous');
    const r = await runProcess(bin(home), ['update', '--rollback'], cliEnv(home));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('There is no previous version');
    expect(await readlink(join(root(home), 'current'))).toBe('syllabus-0.1.0');
  });

  it('--check reports a newer release without installing it, with exit status 10', async () => {
    const home = await freshInstall('check');
    const r = await runProcess(bin(home), ['update', '--check', '--json'], cliEnv(home, { SYLLABUS_RELEASE_URL: newRelease.url }));
    expect(r.code).toBe(10);
    const out = JSON.parse(r.stdout);
    expect(schemaErrors('cli/update.schema.json', out)).toBe('');
    expect(out).toEqual({
      current: '0.1.0',
      latest: '0.2.0',
      manifest: `${newRelease.url}latest.json`,
      newer: true,
      installed: false,
      install_dir: null,
      previous: null,
    });
    expect(await readlink(join(root(home), 'current'))).toBe('syllabus-0.1.0');
    const human = await runProcess(bin(home), ['update', '--check'], cliEnv(home, { SYLLABUS_RELEASE_URL: newRelease.url }));
    expect(human).toMatchObject({
      code: 10,
      stdout: 'syllabus 0.2.0 is available (this is 0.1.0); run syllabus update to install it.\n',
      stderr: '',
    });
  });

  it('--check exits 0 when up to date, and 1 (not 10) when the release server cannot be read', async () => {
    const home = await freshInstall('check-current');
    const same = await runProcess(bin(home), ['update', '--check'], cliEnv(home, { SYLLABUS_RELEASE_URL: oldRelease.url }));
    expect(same).toMatchObject({ code: 0, stdout: 'syllabus 0.1.0 is up to date (the newest release is 0.1.0).\n' });
    const missing = await runProcess(bin(home), ['update', '--check'], cliEnv(home, { SYLLABUS_RELEASE_URL: `${oldRelease.url}nowhere/` }));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^syllabus: The release server answered 404 for /);
  });

  it('installs a newer release atomically, keeps the previous one, and is then up to date', async () => {
    const home = await freshInstall('good');
    const env = cliEnv(home, { SYLLABUS_RELEASE_URL: newRelease.url });
    const r = await runProcess(bin(home), ['update', '--json'], env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(schemaErrors('cli/update.schema.json', out)).toBe('');
    expect(out).toMatchObject({ current: '0.1.0', latest: '0.2.0', newer: true, installed: true, previous: '0.1.0' });
    expect(await readlink(join(root(home), 'current'))).toBe('syllabus-0.2.0');
    expect(await readlink(join(root(home), 'previous'))).toBe('syllabus-0.1.0');
    expect((await readdir(root(home))).filter((f) => f.startsWith('.'))).toEqual([]);
    expect(await runProcess(bin(home), ['--version'], env)).toMatchObject({ code: 0, stdout: '0.2.0\n' });

    const again = await runProcess(bin(home), ['update'], env);
    expect(again).toMatchObject({ code: 0, stdout: 'syllabus 0.2.0 is up to date (the newest release is 0.2.0).\n' });
  });

  it('from a source checkout, explains that it cannot replace itself', async () => {
    const home = join(work, 'source');
    const r = await runProcess(
      process.execPath,
      [join(REPO, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(REPO, 'src', 'cli', 'main.ts'), 'update'],
      cliEnv(home, { SYLLABUS_RELEASE_URL: newRelease.url }),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('was not installed by install.sh');
  });
});

describe('daily self-update', () => {
  it('never runs off a terminal, never with SYLLABUS_NO_UPDATE=1 (zero requests), and otherwise installs in the background', async () => {
    const home = await freshInstall('daily');
    // The command itself fails fast; only the background check matters. A live stand-in that answers 503 keeps its
    // port for the whole test (a closed port could be handed to one of the release servers below).
    const down = await startLoopback((_req, res) => void res.writeHead(503).end());
    servers.push(down);
    const service = down.url;
    const offTty = await serveDir(join(work, 'rel-0.2.0'));
    const noUpdate = await serveDir(join(work, 'rel-0.2.0'));
    const allowed = await serveDir(join(work, 'rel-0.2.0'));

    // stdout is a pipe here: no check.
    const piped = await runProcess(bin(home), ['version'], cliEnv(home, { SYLLABUS_BASE_URL: service, SYLLABUS_RELEASE_URL: offTty.url }));
    expect(piped.code).toBe(0);
    // On a terminal but switched off.
    const off = await runOnTty(
      [bin(home), 'version'],
      cliEnv(home, { SYLLABUS_BASE_URL: service, SYLLABUS_RELEASE_URL: noUpdate.url, SYLLABUS_NO_UPDATE: '1' }),
    );
    expect(off).toBe(0);
    const offDoctor = await runOnTty(
      [bin(home), 'doctor'],
      cliEnv(home, { SYLLABUS_BASE_URL: service, SYLLABUS_RELEASE_URL: noUpdate.url, SYLLABUS_NO_UPDATE: '1' }),
    );
    expect(offDoctor).toBe(1);
    // In CI: no check either.
    const ci = await runOnTty([bin(home), 'version'], cliEnv(home, { SYLLABUS_BASE_URL: service, SYLLABUS_RELEASE_URL: noUpdate.url, CI: 'true' }));
    expect(ci).toBe(0);

    // On a terminal, allowed: the detached check installs 0.2.0 after the command has exited.
    const on = await runOnTty([bin(home), 'version'], cliEnv(home, { SYLLABUS_BASE_URL: service, SYLLABUS_RELEASE_URL: allowed.url }));
    expect(on).toBe(0);
    // Done when the background process has recorded its check (after both links are in place).
    const record = join(home, 'cache', 'update-check.json');
    const installed = await waitFor(async () => (await readFile(record, 'utf8').catch(() => '')).includes('"installed"'), 20_000);
    expect(installed).toBe(true);
    expect(await readlink(join(root(home), 'current'))).toBe('syllabus-0.2.0');
    expect(allowed.requests.map((q) => q.path)).toEqual(['/latest.json', '/latest.json.sig', '/syllabus-0.2.0.tar.gz']);
    // The previous version is kept, to go back to with syllabus update --rollback.
    expect(await readlink(join(root(home), 'previous'))).toBe('syllabus-0.1.0');

    // The next run (the new version) says on stderr what the background update did, exactly once.
    const quiet = { SYLLABUS_BASE_URL: service, SYLLABUS_NO_UPDATE: '1' };
    const next = await runProcess(bin(home), ['version'], cliEnv(home, quiet));
    expect(next.code).toBe(0);
    expect(next.stderr).toBe('updated syllabus 0.1.0 → 0.2.0; SYLLABUS_NO_UPDATE=1 turns this off\n');
    expect((await runProcess(bin(home), ['version'], cliEnv(home, quiet))).stderr).toBe('');

    // The runs that must not check made no request at all (the allowed run proves such a check would have arrived).
    expect(offTty.requests).toEqual([]);
    expect(noUpdate.requests).toEqual([]);

    // At most once a day: another run on a terminal does not check again.
    const laterSameDay = await serveDir(join(work, 'rel-0.2.0'));
    expect(await runOnTty([bin(home), 'version'], cliEnv(home, { SYLLABUS_BASE_URL: service, SYLLABUS_RELEASE_URL: laterSameDay.url }))).toBe(0);
    const doctor = await runProcess(
      bin(home),
      ['doctor', '--json'],
      cliEnv(home, { SYLLABUS_BASE_URL: service, SYLLABUS_RELEASE_URL: laterSameDay.url }),
    );
    const lastCheck = (JSON.parse(doctor.stdout) as { checks: { name: string; detail: string }[] }).checks.find(
      (c) => c.name === 'last-update-check',
    )!;
    expect(lastCheck.detail).toMatch(/: installed$/);
    expect(laterSameDay.requests.map((q) => q.path)).toEqual(['/latest.json', '/latest.json.sig']); // doctor's update-source check only
    await lstat(join(root(home), 'previous'));
  });
});
