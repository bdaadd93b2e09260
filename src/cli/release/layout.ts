/**
 * The layout of an install made by `install.sh` or `syllabus update`:
 *
 * ```
 * <root>/syllabus-<version>/bin/syllabus       launcher (Node script)
 * <root>/syllabus-<version>/lib/syllabus.mjs   the self-contained bundle
 * <root>/current  -> syllabus-<version>         symlink, swapped atomically by an update
 * <root>/previous -> syllabus-<older version>   kept to roll back to
 * <bin dir>/syllabus -> <root>/current/bin/syllabus
 * ```
 */
import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** An install the running client belongs to. */
export interface ManagedInstall {
  /** The install root, e.g. `~/.local/share/syllabus`. */
  root: string;
  /** The running version's folder, `<root>/syllabus-<version>`. */
  versionDir: string;
}

/** Folder name of one installed version. */
export function versionDirName(version: string): string {
  return `syllabus-${version}`;
}

/** The path of the running client's code (the bundle, or a source module), with symlinks resolved. */
export function runningModulePath(): string {
  const path = fileURLToPath(import.meta.url);
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * The install the code at `modulePath` belongs to, when it is `<root>/syllabus-<v>/lib/<file>` and
 * `<root>/current` is a symlink; `undefined` for any other copy (a source checkout, `npm install -g`).
 */
export function detectManagedInstall(modulePath: string = runningModulePath()): ManagedInstall | undefined {
  const libDir = dirname(modulePath);
  if (basename(libDir) !== 'lib') return undefined;
  const versionDir = dirname(libDir);
  if (!/^syllabus-\d/.test(basename(versionDir))) return undefined;
  const root = dirname(versionDir);
  try {
    if (!lstatSync(join(root, 'current')).isSymbolicLink()) return undefined;
  } catch {
    return undefined;
  }
  return { root, versionDir };
}
