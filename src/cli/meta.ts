/**
 * What the client knows about itself: its version, homepage and the Node versions it supports.
 *
 * The release bundle gets these values baked in by esbuild (`define`); run from the source tree (tsx, or `tsc`
 * output under `dist/`) they are read from the repository's `package.json`.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

declare const __SYLLABUS_CLI_VERSION__: string | undefined;
declare const __SYLLABUS_CLI_HOMEPAGE__: string | undefined;
declare const __SYLLABUS_CLI_NODE_RANGE__: string | undefined;

/** Where the client is documented; used in the `User-Agent` contact URL when `package.json` names none. */
const DEFAULT_HOMEPAGE = 'https://github.com/syllabus/syllabus-catalog#command-line-client';

interface PackageMeta {
  version: string;
  homepage: string;
  nodeRange: string;
}

function readPackageMeta(): PackageMeta {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
        homepage?: string;
        engines?: { node?: string };
      };
      if (pkg.name === 'syllabus-catalog' && typeof pkg.version === 'string') {
        return {
          version: pkg.version,
          homepage: pkg.homepage ?? DEFAULT_HOMEPAGE,
          nodeRange: pkg.engines?.node ?? '>=20.19.0',
        };
      }
    } catch {
      // no readable package.json here: keep walking up
    }
    const parent = dirname(dir);
    if (parent === dir) return { version: '0.0.0-unknown', homepage: DEFAULT_HOMEPAGE, nodeRange: '>=20.19.0' };
    dir = parent;
  }
}

const meta: PackageMeta =
  typeof __SYLLABUS_CLI_VERSION__ === 'string'
    ? {
        version: __SYLLABUS_CLI_VERSION__,
        homepage: typeof __SYLLABUS_CLI_HOMEPAGE__ === 'string' ? __SYLLABUS_CLI_HOMEPAGE__ : DEFAULT_HOMEPAGE,
        nodeRange: typeof __SYLLABUS_CLI_NODE_RANGE__ === 'string' ? __SYLLABUS_CLI_NODE_RANGE__ : '>=20.19.0',
      }
    : readPackageMeta();

/** The client's version (semver), e.g. `0.1.0`. */
export const CLI_VERSION: string = meta.version;

/** The client's homepage, named in its `User-Agent`. */
export const CLI_HOMEPAGE: string = meta.homepage;

/** The Node versions the client supports, as a semver range (from `package.json` `engines.node`). */
export const NODE_RANGE: string = meta.nodeRange;

/** `User-Agent` of every request: a declared agent with a contact URL (`syllabus-cli/<version> (+<homepage>)`). */
export const USER_AGENT = `syllabus-cli/${CLI_VERSION} (+${CLI_HOMEPAGE})`;

/** Whether a Node version (e.g. `process.versions.node`) is within {@link NODE_RANGE}. */
export function isNodeSupported(nodeVersion: string): boolean {
  return semver.satisfies(nodeVersion, NODE_RANGE);
}
