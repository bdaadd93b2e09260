/**
 * The client's small files in its cache folder (update check, read budgets, ETag bodies): written whole or not at
 * all. {@link readSmallFile} reads one only when it is a regular file of a bounded size (the read budgets do), so a
 * swapped or hostile file is at worst ignored.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Writes `text` to `file` atomically (a temporary file beside it, then a rename), creating its folder (mode 0700)
 * and the file with mode 0600. A link at `file` is replaced, never followed.
 * @throws the file system's error (the temporary file is removed first).
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(tmp, text, { mode: 0o600, flag: 'wx' });
    await rename(tmp, file);
  } catch (error) {
    await unlink(tmp).catch(() => undefined);
    throw error;
  }
}

/**
 * Reads `file` as UTF-8 when it is a regular file of at most `maxBytes` (a link to one is followed; a FIFO, a device
 * or a larger file is not read).
 * @returns its text, or `undefined` when it is missing, not a regular file, too large or unreadable.
 */
export async function readSmallFile(file: string, maxBytes: number): Promise<string | undefined> {
  let handle;
  try {
    // O_NONBLOCK: opening a FIFO planted there must not wait for a writer.
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const info = await handle.stat();
    if (!info.isFile() || info.size > maxBytes) return undefined;
    const buffer = Buffer.alloc(maxBytes + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return bytesRead > maxBytes ? undefined : buffer.subarray(0, bytesRead).toString('utf8');
  } catch {
    return undefined;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
