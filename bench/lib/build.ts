/**
 * Builds what the benchmark starts: the service exactly as production runs it (the `npm run build` bundle,
 * `dist/server.js` with its precompiled validators, built by the same `buildDist` into the benchmark's own folder),
 * and the host comparison and rival apps compiled file by file to plain JavaScript (bench/out/js/, git-ignored;
 * like `tsc`, but without type-checking, so others' work in progress cannot stop a run), in a bare Node process
 * with no TypeScript loader thread adding start-up time or memory.
 */
import { cp, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildDist } from '../../scripts/build.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Paths of the compiled entry points. */
export interface Bundles {
  /** The service: the production bundle's `server.js` (what `npm start` runs). */
  server: string;
  /** `bench/hosts-app.ts`: the app on either host. */
  hostsApp: string;
  /** `bench/raw-baseline.js` (plain JavaScript already, not compiled). */
  baseline: string;
  /** `bench/rivals/fastify-app.ts`: the same bytes served by a Fastify app. */
  fastifyApp: string;
  /** `bench/rivals/hono-app.ts`: the same bytes served by a Hono app. */
  honoApp: string;
}

/**
 * Builds the production bundle and compiles `src/` (tests excluded), the host app and the rival apps (a few seconds).
 * @param outdir where to write, inside the repository so that packages and `schemas/` resolve (default bench/out/js).
 * @throws Error when esbuild fails.
 */
export async function buildBundles(outdir = `${root}bench/out/js`): Promise<Bundles> {
  const sources = (await readdir(`${root}src`, { recursive: true }))
    // The generated modules are JavaScript already (e.g. the frontmatter validators): copied beside the rest.
    .filter((f) => (f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts')) || f.endsWith('.js'))
    .map((f) => `${root}src/${f}`);
  const rivals = (await readdir(`${root}bench/rivals`)).filter((f) => f.endsWith('.ts')).map((f) => `${root}bench/rivals/${f}`);
  await build({
    entryPoints: [...sources, `${root}bench/hosts-app.ts`, ...rivals],
    outdir,
    outbase: root,
    bundle: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Keep `with { type: 'json' }`: Node 20.10+ requires it (esbuild's node20 target would drop it).
    supported: { 'import-attributes': true },
    logLevel: 'warning',
  });
  await buildDist(`${outdir}/dist`);
  // Modules import schemas/*.json relative to themselves (`with { type: 'json' }`), as tsc's dist/ has them.
  await cp(`${root}schemas`, `${outdir}/schemas`, { recursive: true });
  return {
    server: `${outdir}/dist/server.js`,
    hostsApp: `${outdir}/bench/hosts-app.js`,
    baseline: `${root}bench/raw-baseline.js`,
    fastifyApp: `${outdir}/bench/rivals/fastify-app.js`,
    honoApp: `${outdir}/bench/rivals/hono-app.js`,
  };
}

/** The repository root (with a trailing slash). */
export const repoRoot = root;
