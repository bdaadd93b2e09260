/**
 * Unpacks a verified release archive into an install and makes it current atomically, keeping the
 * version it replaces as `previous`. Nothing outside `<root>/.staging-*` is touched until the new version
 * has been unpacked and has answered `--version` correctly; the switch itself is one rename(2) of a symlink.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { access, chmod, constants, lstat, mkdir, mkdtemp, readdir, readlink, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import * as tar from 'tar';
import { CliError } from '../errors.js';
import { versionDirName } from './layout.js';

const run = promisify(execFile);

/** What {@link installRelease} did. */
export interface InstallResult {
  /** The new current version's folder. */
  installDir: string;
  /** The folder name `previous` now points to, or `null` when there was no current version. */
  previous: string | null;
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** What the launcher `bin/syllabus` at `launcher` prints for `--version` (run with this Node, no self-update). */
async function answersVersion(launcher: string): Promise<string> {
  const { stdout } = await run(process.execPath, [launcher, '--version'], {
    timeout: 20_000,
    env: { ...process.env, SYLLABUS_NO_UPDATE: '1' },
  });
  return stdout.trim();
}

/** Points `link` at `target` atomically: a new symlink under a temporary name, renamed over the old one. */
async function swapSymlink(root: string, name: string, target: string): Promise<void> {
  const tmp = join(root, `.${name}-${randomBytes(6).toString('hex')}`);
  await symlink(target, tmp);
  try {
    await rename(tmp, join(root, name));
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

/**
 * Installs `archive` (already verified against the manifest) as version `version` under `root`.
 * @throws CliError when the archive does not unpack to a working client; the current install is then untouched.
 */
export async function installRelease(root: string, version: string, archive: Buffer): Promise<InstallResult> {
  const release = await lock(root);
  try {
    return await installLocked(root, version, archive);
  } finally {
    await release();
  }
}

/** An update lock older than this is left over from a crashed run and is taken over, in milliseconds. */
const STALE_LOCK_MS = 10 * 60 * 1000;

/**
 * Takes `<root>/.update.lock` (created exclusively), so two updates (a manual one and the daily one) never
 * interleave their renames.
 * @returns a function that releases the lock.
 * @throws CliError when another update holds it.
 */
async function lock(root: string): Promise<() => Promise<void>> {
  const file = join(root, '.update.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(file, `${process.pid}\n`, { flag: 'wx' });
      return () => rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const info = await stat(file).catch(() => undefined);
      if (info && Date.now() - info.mtimeMs < STALE_LOCK_MS) break;
      await rm(file, { force: true });
    }
  }
  throw new CliError(`Another syllabus update is running in ${root}; wait for it to finish (or remove ${file} if none is running).`);
}

async function installLocked(root: string, version: string, archive: Buffer): Promise<InstallResult> {
  const dirName = versionDirName(version);
  const staging = await mkdtemp(join(root, '.staging-'));
  try {
    const archivePath = join(staging, 'archive.tar.gz');
    await writeFile(archivePath, archive);
    const unpackDir = join(staging, 'unpacked');
    await mkdir(unpackDir);
    try {
      await tar.x({
        file: archivePath,
        cwd: unpackDir,
        strict: true,
        // Only plain files and folders inside the versioned top folder: no links, devices or stray paths.
        filter: (path, entry) =>
          (path === `${dirName}/` || path.startsWith(`${dirName}/`)) &&
          ('type' in entry ? entry.type === 'File' || entry.type === 'Directory' : true),
      });
    } catch (error) {
      throw new CliError(`The release archive ${dirName}.tar.gz could not be unpacked (${(error as Error).message}); nothing was changed.`);
    }
    const unpacked = join(unpackDir, dirName);
    const launcher = join(unpacked, 'bin', 'syllabus');
    const bundle = join(unpacked, 'lib', 'syllabus.mjs');
    try {
      await access(bundle, constants.R_OK);
      await access(launcher, constants.R_OK);
    } catch {
      throw new CliError(`The release archive ${dirName}.tar.gz does not contain bin/syllabus and lib/syllabus.mjs; nothing was changed.`);
    }
    // Never change permissions through a link (the archive filter keeps links out; this holds even if it did not).
    for (const path of [join(unpacked, 'bin'), launcher]) {
      if ((await lstat(path)).isSymbolicLink()) {
        throw new CliError(`The release archive ${dirName}.tar.gz makes ${path.slice(unpackDir.length + 1)} a link; nothing was changed.`);
      }
    }
    await chmod(launcher, 0o755);
    // The new version must run (its launcher, as users will run it) before it replaces the working one.
    let reported = '';
    try {
      reported = await answersVersion(launcher);
    } catch (error) {
      throw new CliError(`The downloaded version ${version} does not start (${(error as Error).message.split('\n')[0]}); nothing was changed.`);
    }
    if (reported !== version) {
      throw new CliError(`The downloaded release says it is version ${JSON.stringify(reported)}, not ${version}; nothing was changed.`);
    }

    const target = join(root, dirName);
    if (await exists(target)) {
      // A leftover of an earlier attempt (never the running version: only newer versions are installed).
      const aside = join(staging, 'replaced');
      await rename(target, aside);
    }
    await rename(unpacked, target);

    const currentLink = join(root, 'current');
    const previous = (await exists(currentLink)) ? basename(await readlink(currentLink)) : null;
    await swapSymlink(root, 'current', dirName);
    if (previous !== null && previous !== dirName) await swapSymlink(root, 'previous', previous);
    await pruneOldVersions(root, [dirName, previous]);
    return { installDir: target, previous: previous !== null && previous !== dirName ? previous : null };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Removes installed versions other than the current and previous ones (best effort). */
async function pruneOldVersions(root: string, keep: ReadonlyArray<string | null>): Promise<void> {
  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name.startsWith('syllabus-') && !keep.includes(entry.name)) {
      await rm(join(root, entry.name), { recursive: true, force: true }).catch(() => undefined);
    }
  }
}

/**
 * Makes the kept previous version current again, and the current one previous (so a second rollback undoes the
 * first). The previous version must still answer `--version` before the switch.
 * @returns the version now current and the one now previous (folder names without `syllabus-`).
 * @throws CliError when there is no previous version, or it does not run; nothing is changed then.
 */
export async function rollbackInstall(root: string): Promise<{ current: string; previous: string }> {
  const release = await lock(root);
  try {
    const current = basename(await readlink(join(root, 'current')));
    const previous = await readlink(join(root, 'previous')).then(basename, () => undefined);
    if (previous === undefined || !(await exists(join(root, previous)))) {
      throw new CliError(`There is no previous version in ${root} to roll back to; nothing was changed.`);
    }
    let reported: string;
    try {
      reported = await answersVersion(join(root, previous, 'bin', 'syllabus'));
    } catch (error) {
      throw new CliError(`The previous version ${previous} does not start (${(error as Error).message.split('\n')[0]}); nothing was changed.`);
    }
    if (`syllabus-${reported}` !== previous) {
      throw new CliError(`The previous version in ${previous} says it is ${JSON.stringify(reported)}; nothing was changed.`);
    }
    await swapSymlink(root, 'current', previous);
    await swapSymlink(root, 'previous', current);
    return { current: previous.replace(/^syllabus-/, ''), previous: current.replace(/^syllabus-/, '') };
  } finally {
    await release();
  }
}
