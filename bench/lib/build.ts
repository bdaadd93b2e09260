/**
 * Bundles the processes the benchmark starts into plain JavaScript (bench/out/, git-ignored), so servers run
 * as in production: compiled code in a bare Node process, with no TypeScript loader thread adding start-up
 * time or memory. Dependencies stay external (loaded from node_modules).
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Paths of the bundled entry points. */
export interface Bundles {
  /** The service entry, `src/server/main.ts` (what `npm start` runs). */
  server: string;
  /** `bench/hosts-app.ts`: the app on either host. */
  hostsApp: string;
  /** `bench/raw-baseline.js` (plain JavaScript already, not bundled). */
  baseline: string;
}

/** Builds both bundles (a second or two). @throws Error when esbuild fails (e.g. a syntax error in src/). */
export async function buildBundles(): Promise<Bundles> {
  const out = (name: string): string => `${root}bench/out/${name}`;
  const common = { bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', logLevel: 'warning' } as const;
  await Promise.all([
    build({ ...common, entryPoints: [`${root}src/server/main.ts`], outfile: out('server.mjs') }),
    build({ ...common, entryPoints: [`${root}bench/hosts-app.ts`], outfile: out('hosts-app.mjs') }),
  ]);
  return { server: out('server.mjs'), hostsApp: out('hosts-app.mjs'), baseline: `${root}bench/raw-baseline.js` };
}

/** The repository root (with a trailing slash). */
export const repoRoot = root;
