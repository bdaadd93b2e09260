/**
 * Watches a content tree with one non-recursive `fs.watch` per folder: no watch and no `stat` per file, so a large
 * tree costs a watch per folder instead of chokidar's per file (bench/watchers.ts measures it, and also shows why not `fs.watch(dir, { recursive: true })` on Node 20 or `@parcel/watcher` 2.6: each loses changes
 * in one of the deploy cases).
 *
 * Every event names a child of a watched folder and is judged by `lstat`, by the rule of read-tree.ts:
 * - a Markdown file or a symbolic link is reported (a link is never followed: it is not a folder to `lstat`);
 * - a folder that appears (created, moved in, renamed) is watched, then listed, and its Markdown files and links
 *   are reported: a file written before the watch on its new folder was armed is found by the listing;
 * - a path that is gone is reported as `rel` and `rel/` (it may have been a file or a folder: the loader drops
 *   either), and the watches at and under it are closed;
 * - a submodule (a folder holding `.git`) is reported, never listed; its folder is watched for its `.git` only,
 *   which appearing in a folder or leaving it turns one into the other (reported as gone, then as it is now);
 * - other hidden paths and other files are ignored, and hidden folders are never watched.
 * Editors that save by writing a temporary file and renaming it over the original give one event for the original's
 * name, judged like any other; the watch is on the folder, so later edits of the new file are seen too.
 */
import { lstatSync, readdirSync, watch, type FSWatcher, type Stats } from 'node:fs';
import { join } from 'node:path';
import { ContentTreeListing, folderEntryKind, isGitEntry, isHiddenPath, type ContentTree } from '../content/index.js';

/** Options of {@link watchFolders}. */
export interface FolderWatchOptions {
  /**
   * Called with changed paths, relative to the folder and `/`-separated; a path ending in `/` is a folder that is
   * gone. A path may be reported more than once for one change (a write can give two events).
   */
  onPaths(paths: string[]): void;
  /** Called when a folder cannot be watched for another reason than being gone (`ENOSPC`: the inotify limit, `EACCES`). */
  onError(error: unknown): void;
}

/** A running watch of a tree. */
export interface FolderWatch {
  /** Closes every watch; no `onPaths` call follows. */
  close(): void;
  /**
   * The tree as arming listed it (`listContentTree`'s rule and order), each folder listed after its own watch was
   * armed, so a change made after the listing is reported: a first load may read it instead of walking the tree
   * again. `undefined` when a folder could be neither watched nor listed (`onError` was called): the listing would
   * miss its files.
   */
  readonly listing: ContentTree | undefined;
}

interface Watched {
  watcher: FSWatcher;
  /** Which folder is watched ({@link identity}). */
  id: string | undefined;
}

/**
 * Watches `dir` and every folder under it (see the module comment).
 * @returns once every folder is watched (synchronously: a change made after the call is seen).
 * @throws the error of watching or listing `dir` itself (`ENOENT`, `ENOTDIR`, `EACCES`, `ENOSPC`, …).
 */
export function watchFolders(dir: string, options: FolderWatchOptions): FolderWatch {
  const watched = new Map<string, Watched>(); // '' is `dir`
  let closed = false;

  const unwatch = (rel: string): void => {
    for (const [key, { watcher }] of watched) {
      if (key === rel || key.startsWith(`${rel}/`)) {
        watcher.close();
        watched.delete(key);
      }
    }
  };

  let listingComplete = true;
  const fail = (error: unknown): void => {
    listingComplete = false;
    options.onError(error);
  };

  /** Watches the folder `rel`, then those under it; adds the Markdown files and links found to `found`. */
  const arm = (rel: string, id: string | undefined, found: ContentTreeListing): void => {
    let watcher: FSWatcher;
    try {
      watcher = watch(join(dir, rel), (_event, name) => {
        if (!closed && name) onChild(rel === '' ? name : `${rel}/${name}`);
      });
    } catch (error) {
      if (rel === '') throw error;
      if (!isGone(error)) fail(error);
      return; // gone already: its parent reports it
    }
    watcher.on('error', (error) => {
      unwatch(rel);
      if (!isGone(error)) options.onError(error);
    });
    watched.set(rel, { watcher, id });
    let entries;
    try {
      entries = readdirSync(join(dir, rel), { withFileTypes: true });
    } catch (error) {
      if (rel === '') {
        unwatch('');
        throw error;
      }
      if (!isGone(error)) fail(error);
      return;
    }
    for (const entry of entries) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      const kind = folderEntryKind(dir, child, entry);
      if (found.add(child, kind)) {
        const info = lstatOrUndefined(join(dir, child));
        if (info?.isDirectory()) arm(child, identity(info), found);
      } else if (kind === 'submodule') watchGitEntry(child);
    }
  };

  /** Watches a submodule's folder for its `.git` entry only (nothing in it is content): its leaving makes it a folder. */
  const watchGitEntry = (rel: string): void => {
    try {
      const watcher = watch(join(dir, rel), (_event, name) => {
        if (!closed && name && isGitEntry(`${rel}/${name}`)) onChild(`${rel}/${name}`);
      });
      watcher.on('error', () => unwatch(rel));
      watched.set(rel, { watcher, id: undefined });
    } catch {
      // Gone already, or unwatchable: its parent reports it gone; a submodule holds no content to miss.
    }
  };

  const onChild = (rel: string, rejudge = false): void => {
    if (isHiddenPath(rel)) {
      // A `.git` that appears in or leaves a folder makes it a submodule, or a folder again.
      if (isGitEntry(rel)) onChild(rel.slice(0, rel.lastIndexOf('/')), true);
      return;
    }
    const info = lstatOrUndefined(join(dir, rel));
    if (!info) {
      unwatch(rel);
      options.onPaths([rel, `${rel}/`]);
      return;
    }
    const kind = folderEntryKind(dir, rel, info);
    const previous = watched.get(rel);
    // The same folder: its own entry changed (attributes), and its children report themselves.
    if (!rejudge && kind === 'folder' && previous?.id !== undefined && previous.id === identity(info)) return;
    const found = new ContentTreeListing();
    // Replaced (by another folder, a file or a link), or rejudged: everything under it was, or is no longer, content.
    if (previous || rejudge) unwatch(rel);
    if (found.add(rel, kind)) arm(rel, identity(info), found);
    else if (kind === 'submodule') watchGitEntry(rel);
    // A rejudged entry is reported as gone, then as what it is now.
    const paths = rejudge ? [`${rel}/`, rel, ...found.paths()] : previous ? [`${rel}/`, ...found.paths()] : found.paths();
    if (paths.length > 0) options.onPaths(paths);
  };

  const armed = new ContentTreeListing();
  arm('', undefined, armed);
  const listing = listingComplete ? armed.tree() : undefined;
  return {
    listing,
    close(): void {
      closed = true;
      unwatch('');
      for (const { watcher } of watched.values()) watcher.close();
      watched.clear();
    },
  };
}

/**
 * Which folder `info` is, or `undefined` where the file system has no birth time: the inode number alone is not
 * enough, as ext4 gives a folder removed and made again at once the same number. Unknown means the folder is
 * watched and listed again on each event its parent reports for it.
 */
function identity(info: Stats): string | undefined {
  return info.birthtimeMs > 0 ? `${info.ino}:${info.birthtimeMs}` : undefined;
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Whether `error` says the path is gone (removed, or replaced by a file) rather than unwatchable. */
function isGone(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
