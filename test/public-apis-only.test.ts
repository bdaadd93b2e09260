/**
 * Public APIs only: no source file under `src/` or `scripts/` names a private field of Node (or of a dependency) or
 * dresses something else up as a Fetch `Response`. Add a name to {@link FORBIDDEN} when one is found.
 */
import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

/** What no source may contain, each with why. */
const FORBIDDEN: ReadonlyArray<readonly [pattern: string | RegExp, why: string]> = [
  ['_contentLength', "Node's ServerResponse internals"],
  ['_hasBody', "Node's ServerResponse internals"],
  ['_removedContLen', "Node's ServerResponse internals"],
  ['useChunkedEncodingByDefault', "Node's ServerResponse internals"],
  ['as unknown as Response', 'a placeholder posing as a Fetch Response'],
  // Node's own underscore-prefixed fields of sockets, messages and streams.
  [
    /\._(?:httpMessage|header|headers|headerSent|implicitHeader|storeHeader|send|writeRaw|onPendingData|keepAliveTimeout|last|closed|events|handle|readableState|writableState|parent|pendingData|pendingEncoding|server)\b/,
    'a private field of Node',
  ],
];

const ROOTS = ['src', 'scripts'];

async function sources(): Promise<string[]> {
  const files: string[] = [];
  for (const root of ROOTS) {
    const names = await readdir(new URL(`../${root}/`, import.meta.url), { recursive: true });
    for (const name of names) if (/\.(?:ts|mts|js|mjs|cjs)$/.test(name)) files.push(`${root}/${name}`);
  }
  return files;
}

describe('sources use public APIs only', () => {
  it('name no private field and fake no Response', async () => {
    const found: string[] = [];
    for (const file of await sources()) {
      const text = await readFile(new URL(`../${file}`, import.meta.url), 'utf8');
      text.split('\n').forEach((line, i) => {
        for (const [pattern, why] of FORBIDDEN) {
          if (typeof pattern === 'string' ? line.includes(pattern) : pattern.test(line)) found.push(`${file}:${i + 1}: ${why}: ${line.trim()}`);
        }
      });
    }
    expect(found).toEqual([]);
  });
});
