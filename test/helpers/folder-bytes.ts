/** The bytes a folder's files hold, recursively (for tests of bounded caches). */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** The total size of the files below `dir`, in bytes (links and folders themselves not counted). */
export async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}
