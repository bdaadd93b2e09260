/** Lists the Markdown files of a content folder. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Every `*.md` file under `dir`, as `/`-separated paths relative to it, sorted by code point.
 *
 * Entries whose name starts with `.` are skipped (`.git`, editor swap and backup files such as `.x.md.swp`),
 * and so are symbolic links: content is plain files in plain folders. Other non-Markdown files are ignored.
 * @throws the `readdir` error (e.g. `ENOENT`, `ENOTDIR`) when `dir` itself cannot be read.
 */
export async function listMarkdownFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (abs: string, rel: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(abs, { withFileTypes: true });
    } catch (err) {
      // A sub-folder removed while we walk (a checkout in progress) is simply gone; the root must exist.
      if (rel !== '' && (err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    const subdirs: Promise<void>[] = [];
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) subdirs.push(walk(join(abs, entry.name), childRel));
      else if (entry.isFile() && entry.name.endsWith('.md')) found.push(childRel);
    }
    await Promise.all(subdirs);
  };
  await walk(dir, '');
  return found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
