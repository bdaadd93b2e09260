/**
 * The production bundle leaves gray-matter's default YAML engine (js-yaml 3, which requires esprima) out
 * (scripts/gray-matter-engine.ts): the content code splits files exactly as before, a call that would fall back on
 * the default engine throws instead of parsing YAML another way, and the build fails if gray-matter stops importing
 * js-yaml.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_BUNDLE_OPTIONS } from '../scripts/build.js';
import { grayMatterWithoutDefaultEngine } from '../scripts/gray-matter-engine.js';
import { splitFile } from '../src/content/frontmatter.js';

const ROOT = join(import.meta.dirname, '..');
let directory: string;

/** Bundles `contents` as the production build does (same options, this plugin), resolved from the repository root. */
function bundle(contents: string) {
  return build({
    ...NODE_BUNDLE_OPTIONS,
    stdin: { contents, resolveDir: ROOT, loader: 'ts' },
    plugins: [grayMatterWithoutDefaultEngine()],
    write: false,
    logLevel: 'silent',
  });
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'syllabus-gray-matter-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('gray-matter without its default engine', () => {
  it('splits files as the unbundled code does, with no js-yaml in the bundle', async () => {
    const result = await bundle("export { splitFile } from './src/content/frontmatter.js';\nexport { default as matter } from 'gray-matter';");
    const text = result.outputFiles[0]!.text;
    expect(text).not.toContain('tag:yaml.org,2002:js/'); // js-yaml 3's JavaScript types, the ones that load esprima
    const file = join(directory, 'split.mjs');
    await writeFile(file, text);
    const bundled = (await import(pathToFileURL(file).href)) as { splitFile: typeof splitFile; matter: (text: string) => unknown };
    for (const sample of ['---\ntitle: A\ntags: [x, y]\n---\nBody\n', '---\ntitle: [unclosed\n---\n', '---\ntitle: A\n', 'no frontmatter\n']) {
      expect(bundled.splitFile(sample)).toEqual(splitFile(sample));
    }
    // Only a call without an engine of its own would reach the default one.
    expect(() => bundled.matter('---\ntitle: A\n---\n')).toThrow(/default YAML engine is not bundled/);
  });

  it('fails the build when gray-matter imports no js-yaml', async () => {
    await expect(bundle('export const nothing = 1;')).rejects.toThrow(/gray-matter imports no js-yaml/);
  });
});
