import { mkdir, mkdtemp, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliError } from '../errors.js';
import { installRelease, rollbackInstall } from './install.js';

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'cli-install-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Packs files (path → content, or { link }) into a .tar.gz buffer. */
async function archive(name: string, files: Record<string, string | { link: string }>): Promise<Buffer> {
  const src = join(work, `src-${name}`);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(src, path, '..'), { recursive: true });
    if (typeof content === 'string') await writeFile(join(src, path), content);
    else await symlink(content.link, join(src, path));
  }
  const file = join(work, `${name}.tar.gz`);
  await tar.c({ gzip: true, cwd: src, file, portable: true }, await readdir(src));
  return readFile(file);
}

/** A stand-in launcher: runs the bundle beside it, as the real one does. */
const LAUNCHER = `#!/usr/bin/env node
import(require('node:url').pathToFileURL(require('node:path').join(__dirname, '..', 'lib', 'syllabus.mjs')).href);
`;

/** A stand-in client that answers `--version` with `version`. */
const client = (dir: string, version: string): Record<string, string> => ({
  [`${dir}/bin/syllabus`]: LAUNCHER,
  [`${dir}/lib/syllabus.mjs`]: `console.log(${JSON.stringify(version)});\n`,
});

/** Writes a stand-in client for `version` into `<root>/syllabus-<version>` (an installed version). */
async function installed(root: string, version: string, bundle = `console.log(${JSON.stringify(version)});\n`): Promise<void> {
  await mkdir(join(root, `syllabus-${version}`, 'bin'), { recursive: true });
  await mkdir(join(root, `syllabus-${version}`, 'lib'), { recursive: true });
  await writeFile(join(root, `syllabus-${version}`, 'bin', 'syllabus'), LAUNCHER);
  await writeFile(join(root, `syllabus-${version}`, 'lib', 'syllabus.mjs'), bundle);
}

/** An install root whose current version is 1.0.0. */
async function root(name: string): Promise<string> {
  const dir = join(work, name);
  await mkdir(join(dir, 'syllabus-1.0.0', 'lib'), { recursive: true });
  await symlink('syllabus-1.0.0', join(dir, 'current'));
  return dir;
}

describe('installRelease', () => {
  it('unpacks only plain files of the versioned folder, switches current and keeps previous', async () => {
    const dir = await root('good');
    const data = await archive('good', {
      ...client('syllabus-2.0.0', '2.0.0'),
      'evil.txt': 'outside the versioned folder',
      'syllabus-2.0.0/lib/passwd': { link: '/etc/passwd' },
    });
    const result = await installRelease(dir, '2.0.0', data);
    expect(result).toEqual({ installDir: join(dir, 'syllabus-2.0.0'), previous: 'syllabus-1.0.0' });
    expect(await readlink(join(dir, 'current'))).toBe('syllabus-2.0.0');
    expect(await readlink(join(dir, 'previous'))).toBe('syllabus-1.0.0');
    expect((await readdir(dir)).sort()).toEqual(['current', 'previous', 'syllabus-1.0.0', 'syllabus-2.0.0']);
    expect((await readdir(join(dir, 'syllabus-2.0.0', 'lib'))).sort()).toEqual(['syllabus.mjs']);
  });

  it.each([
    ['missing bundle', { 'syllabus-2.0.0/bin/syllabus': '#!/usr/bin/env node\n' }, /does not contain bin\/syllabus and lib\/syllabus\.mjs/],
    ['wrong version', client('syllabus-2.0.0', '6.6.6'), /says it is version "6\.6\.6", not 2\.0\.0/],
    ['bundle that crashes', { ...client('syllabus-2.0.0', '2.0.0'), 'syllabus-2.0.0/lib/syllabus.mjs': 'throw new Error("boom")' }, /does not start/],
    ['wrong top folder', client('syllabus-3.0.0', '2.0.0'), /does not contain/],
  ])('refuses an archive with a %s and leaves the install untouched', async (name, files, message) => {
    const dir = await root(`bad-${name.replace(/\W/g, '-')}`);
    const data = await archive(name.replace(/\W/g, '-'), files);
    const error = await installRelease(dir, '2.0.0', data).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as Error).message).toMatch(message);
    expect(await readlink(join(dir, 'current'))).toBe('syllabus-1.0.0');
    expect((await readdir(dir)).sort()).toEqual(['current', 'syllabus-1.0.0']);
  });

  it('never changes permissions through a link: an archive whose bin is a link to another folder is refused', async () => {
    const dir = await root('linked-bin');
    const outside = join(work, 'outside-bin');
    await mkdir(outside);
    await writeFile(join(outside, 'syllabus'), 'secret\n', { mode: 0o600 });
    const data = await archive('linked-bin', {
      'syllabus-2.0.0/bin': { link: outside },
      'syllabus-2.0.0/lib/syllabus.mjs': 'console.log("2.0.0");\n',
    });
    await expect(installRelease(dir, '2.0.0', data)).rejects.toThrow(/does not contain bin\/syllabus/);
    expect((await stat(join(outside, 'syllabus'))).mode & 0o777).toBe(0o600);
    expect(await readlink(join(dir, 'current'))).toBe('syllabus-1.0.0');
  });

  it('refuses to run while another update holds the lock, and leaves the install untouched', async () => {
    const dir = await root('locked');
    await writeFile(join(dir, '.update.lock'), '12345\n');
    const data = await archive('locked', client('syllabus-2.0.0', '2.0.0'));
    await expect(installRelease(dir, '2.0.0', data)).rejects.toThrow(/Another syllabus update is running/);
    expect(await readlink(join(dir, 'current'))).toBe('syllabus-1.0.0');
    await rm(join(dir, '.update.lock'));
    await installRelease(dir, '2.0.0', data);
    expect(await readlink(join(dir, 'current'))).toBe('syllabus-2.0.0');
    expect((await readdir(dir)).includes('.update.lock')).toBe(false);
  });

  it('refuses bytes that are not a gzip tar', async () => {
    const dir = await root('garbage');
    const error = await installRelease(dir, '2.0.0', Buffer.from('not an archive at all')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((await readdir(dir)).sort()).toEqual(['current', 'syllabus-1.0.0']);
  });
});

describe('rollbackInstall', () => {
  it('swaps current and previous, and back', async () => {
    const dir = await root('rollback');
    await installed(dir, '1.0.0');
    await installRelease(dir, '2.0.0', await archive('rollback', client('syllabus-2.0.0', '2.0.0')));
    expect(await rollbackInstall(dir)).toEqual({ current: '1.0.0', previous: '2.0.0' });
    expect(await readlink(join(dir, 'current'))).toBe('syllabus-1.0.0');
    expect(await readlink(join(dir, 'previous'))).toBe('syllabus-2.0.0');
    expect(await rollbackInstall(dir)).toEqual({ current: '2.0.0', previous: '1.0.0' });
  });

  it('changes nothing when there is no previous version, or it does not run', async () => {
    const none = await root('rollback-none');
    await expect(rollbackInstall(none)).rejects.toThrow(/no previous version/);
    const broken = await root('rollback-broken');
    await installed(broken, '0.9.0', 'process.exit(3);\n');
    await symlink('syllabus-0.9.0', join(broken, 'previous'));
    await expect(rollbackInstall(broken)).rejects.toThrow(/previous version syllabus-0\.9\.0 does not start/);
    expect(await readlink(join(broken, 'current'))).toBe('syllabus-1.0.0');
    expect(await readlink(join(broken, 'previous'))).toBe('syllabus-0.9.0');
  });
});
