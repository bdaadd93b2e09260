/**
 * Follows one file with `fs.watch` only. A watch on its folder sees the file replaced: renamed over, or a link on
 * its way swapped (a Kubernetes Secret or ConfigMap volume renames its `..data` link, an entry of another name). A
 * watch on the file the path resolves to sees it written in place, also through a symbolic link or a bind mount;
 * it moves to the new file when the path comes to resolve to another one. Every event of the folder counts, so the
 * caller tells a real change from a sibling's by {@link fileVersion}.
 */
import { statSync, watch, type FSWatcher, type Stats } from 'node:fs';
import { dirname } from 'node:path';

/** A running watch of a file. */
export interface FileWatch {
  /** Stops watching; no `onChange` call follows. */
  close(): void;
}

/** What changes when a file is replaced or written: its identity, size and times. */
export function fileVersion(stats: Stats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

/**
 * Watches `path` (see the module comment).
 * @param onChange called on every event that may be a change of the file (often several for one change).
 * @param onError called when the folder's watch fails (the file's own watch is re-armed by the next folder event).
 * @returns once both watches are armed (a change made after the call is seen).
 * @throws the error of watching the folder (`ENOENT`, `EACCES`, `ENOSPC`, …).
 */
export function watchFile(path: string, onChange: () => void, onError: (error: unknown) => void): FileWatch {
  let closed = false;
  let file: { watcher: FSWatcher; id: string } | undefined;

  /** Watches the file `path` resolves to now, unless it is the one watched already. */
  const follow = (): void => {
    let id: string;
    try {
      const stats = statSync(path);
      id = `${stats.dev}:${stats.ino}`;
    } catch {
      return; // gone for now: the folder's watch sees it come back
    }
    if (closed || file?.id === id) return;
    file?.watcher.close();
    file = undefined;
    try {
      const watcher = watch(path, changed);
      // A watch on a file that goes away may fail; the folder's watch re-arms it.
      watcher.on('error', () => watcher.close());
      file = { watcher, id };
    } catch {
      // Replaced or removed between the stat and the watch: the folder's watch sees that too.
    }
  };

  const changed = (): void => {
    if (closed) return;
    follow();
    onChange();
  };

  const folder = watch(dirname(path), changed);
  folder.on('error', onError);
  follow();
  return {
    close: () => {
      closed = true;
      folder.close();
      file?.watcher.close();
    },
  };
}
