/**
 * The service as an operator runs it: `npm run build`'s bundle (`buildDist`, the same build) in a temporary app folder
 * with `package.json`, a copy of the bundled `content/` and `referrals.sample.txt`, so `npm start` there runs
 * `exec node dist/server.js` on files a test may change. Needs no node_modules: the bundle is self-contained.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDist } from '../../scripts/build.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** A temporary app folder (see the module comment). */
export interface BuiltApp {
  /** The folder: `npm start` runs here. */
  dir: string;
  /** Removes the folder. */
  remove(): Promise<void>;
}

/** Builds the bundle into a new temporary app folder (a few seconds). */
export async function buildApp(): Promise<BuiltApp> {
  const dir = await mkdtemp(join(tmpdir(), 'syllabus-app-'));
  await buildDist(join(dir, 'dist'));
  for (const file of ['package.json', 'referrals.sample.txt', 'content']) await cp(join(ROOT, file), join(dir, file), { recursive: true });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
