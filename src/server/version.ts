/** The service's release: `version` of the repository's package.json (found from `src/` and from `dist/src/`). */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** @throws Error when no package.json named `syllabus-catalog` is found above this file. */
export function serviceVersion(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'syllabus-catalog' && typeof pkg.version === 'string') return (cached = pkg.version);
    } catch {
      // not here: look further up
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json of syllabus-catalog not found');
    dir = parent;
  }
}
