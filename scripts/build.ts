/**
 * `npm run build`: everything the service and its two commands need at run time, in `dist/`, with no
 * node_modules to fall back on (so `npm prune --omit=dev`, or an image that copies only `dist/`, still runs):
 *
 * - `server.js`, `cli.js`, `content-cli.js`: esbuild bundles (ESM, platform node) of `src/server/main.ts`,
 *   `src/cli/main.ts` and `src/content-cli/main.ts`, sharing `chunk-*.js`, with linked source maps;
 * - `schemas/`: the JSON Schemas, which the content validation reads at start-up (found beside the bundle);
 * - `swagger-ui-dist/`: the Swagger UI files `/docs` serves (found beside the bundle).
 *
 * The build starts from an empty `dist/` except `dist/release/` (the published CLI releases of `npm run release`).
 */
import { cp, mkdir, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { SWAGGER_UI_FILES } from '../src/pages/docs.js';

const repo = fileURLToPath(new URL('..', import.meta.url));
/** Where the build goes. */
export const DIST = join(repo, 'dist');

/**
 * esbuild options shared by this build and the CLI release bundle: one ESM output for Node 20+, CommonJS
 * dependencies given a `require` (they call it for Node built-ins), licences kept at the end of each file.
 */
export const NODE_BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  legalComments: 'eof',
  logLevel: 'warning',
  banner: {
    js: "import { createRequire as __syllabusCreateRequire } from 'node:module';\nconst require = __syllabusCreateRequire(import.meta.url);",
  },
} as const satisfies BuildOptions;

/**
 * Builds `dist/` (see the file comment).
 * @param outdir where to build instead of `dist/` (the benchmark builds the production bundle in its own folder).
 * @returns the paths written, relative to `outdir`.
 */
export async function buildDist(outdir: string = DIST): Promise<string[]> {
  await mkdir(outdir, { recursive: true });
  await Promise.all(
    (await readdir(outdir)).filter((name) => name !== 'release').map((name) => rm(join(outdir, name), { recursive: true, force: true })),
  );
  const result = await build({
    ...NODE_BUNDLE_OPTIONS,
    entryPoints: {
      server: join(repo, 'src/server/main.ts'),
      cli: join(repo, 'src/cli/main.ts'),
      'content-cli': join(repo, 'src/content-cli/main.ts'),
    },
    outdir,
    // Shared code and lazily imported parts (the Redis client, over a third of the bytes) in chunks beside the
    // entries: a start-up without Redis never parses them. Beside, not in a subfolder: `import.meta.url` of any
    // chunk then finds `schemas/` and `swagger-ui-dist/` next to it.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    sourcemap: 'linked',
    // Less to parse at every start (compiling the bundle is a large part of the start-up before listening), without
    // renaming: functions, classes and stack frames keep their source names, so no `keepNames`, whose helper
    // redefines `name` on every function object created, closures on the request path included (a visible share of
    // the CPU per request). Start-up is the same.
    minifyWhitespace: true,
    minifySyntax: true,
    metafile: true,
  });
  await cp(join(repo, 'schemas'), join(outdir, 'schemas'), { recursive: true });
  const swagger = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  await mkdir(join(outdir, 'swagger-ui-dist'));
  await Promise.all(Object.keys(SWAGGER_UI_FILES).map((name) => cp(join(swagger, name), join(outdir, 'swagger-ui-dist', name))));
  return Object.keys(result.metafile.outputs).map((path) => relative(outdir, resolve(path)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const outputs = await buildDist();
  process.stdout.write(`built dist/ (${outputs.filter((p) => p.endsWith('.js')).length} scripts) in ${Math.round(performance.now() - started)} ms\n`);
}
