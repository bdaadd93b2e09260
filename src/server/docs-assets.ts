/**
 * The bytes of `/docs` and its assets: our page and start-up script (`src/pages/docs.ts`) and the Swagger UI
 * files of the installed `swagger-ui-dist` package (never a CDN), under content-hashed names. Node-only: reads the
 * package's files once per process.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RepresentationSource } from '../index/representation.js';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  DOCS_ASSETS_PREFIX,
  DOCS_INIT_SCRIPT,
  DOCS_INIT_SCRIPT_NAME,
  DOCS_PATH,
  SWAGGER_UI_FILES,
  docsContentSecurityPolicy,
  docsHtml,
  type DocsAssetFile,
} from '../pages/docs.js';
import { contentHashedName } from '../pages/assets.js';
import { nodeCodec } from './node-codec.js';

/** A content-independent representation before compression and ETag (its `Cache-Control` is its route's). */
export type StaticRepresentation = RepresentationSource & { body: Uint8Array; headers: Readonly<Record<string, string>> };

let swaggerFiles: Map<keyof typeof SWAGGER_UI_FILES, Uint8Array> | undefined;

const NOSNIFF = Object.freeze({ 'X-Content-Type-Options': 'nosniff' });

/**
 * The folder of the Swagger UI files: copied beside the bundle by `npm run build`, else that of the installed package.
 * @throws Error when the package is not installed.
 */
export function swaggerUiDir(): string {
  const besideBundle = fileURLToPath(new URL('swagger-ui-dist', import.meta.url));
  return existsSync(besideBundle) ? besideBundle : dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/** A trailing source-map comment (`//# sourceMappingURL=…` or its CSS form), with the line break before it. */
const SOURCE_MAP_COMMENT = /\n?\/[/*][#@] sourceMappingURL=[^\n]*\s*$/;
const SOURCE_MAP_MARKER = new TextEncoder().encode('sourceMappingURL=');

/**
 * `bytes` (UTF-8) without {@link SOURCE_MAP_COMMENT}, replaced by a line break: decoding only the line holding the
 * last `sourceMappingURL=`, not the whole script twice. A match lies there: its `[^\n]*\s*$` cannot cross a line
 * break before that marker, and cannot start on an earlier line as what follows the marker is not all blank.
 */
export function withoutSourceMapComment(bytes: Uint8Array): Uint8Array {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const marker = buffer.lastIndexOf(SOURCE_MAP_MARKER);
  if (marker < 0) return bytes;
  const from = Math.max(0, buffer.lastIndexOf(0x0a, marker));
  const tail = new TextDecoder().decode(bytes.subarray(from));
  const stripped = tail.replace(SOURCE_MAP_COMMENT, '\n');
  if (stripped === tail) return bytes;
  return Buffer.concat([bytes.subarray(0, from), new TextEncoder().encode(stripped)]);
}

/** The `swagger-ui-dist` files, read once. @throws Error when the package is not installed. */
function readSwaggerUiFiles(): Map<keyof typeof SWAGGER_UI_FILES, Uint8Array> {
  if (swaggerFiles) return swaggerFiles;
  const dir = swaggerUiDir();
  const files = new Map<keyof typeof SWAGGER_UI_FILES, Uint8Array>();
  for (const name of Object.keys(SWAGGER_UI_FILES) as Array<keyof typeof SWAGGER_UI_FILES>) {
    const bytes: Uint8Array = readFileSync(join(dir, name));
    // The bundle names a source map we do not serve; drop the comment so developer tools do not ask for it.
    files.set(name, name.endsWith('.js') || name.endsWith('.css') ? withoutSourceMapComment(bytes) : bytes);
  }
  swaggerFiles = files;
  return files;
}

/**
 * `/docs` (HTML with a strict Content-Security-Policy) and every file it loads, keyed by request path: each file
 * under its content-hashed name (`/docs/assets/swagger-ui-bundle.<hash>.js`, {@link contentHashedName}), which the
 * route table serves `immutable`, and which the page links. Independent of content: a caller may build these (and
 * their compressed forms) once per process.
 * @param opts.publicBaseUrl the configured public URL, allowed in the page's `connect-src`.
 * @throws Error when `swagger-ui-dist` is not installed; TypeError when `publicBaseUrl` is not absolute.
 */
export function docsRepresentations(opts: { publicBaseUrl?: string } = {}): Array<[string, StaticRepresentation]> {
  const encode = (text: string) => new TextEncoder().encode(text);
  const files: Array<[DocsAssetFile, StaticRepresentation]> = [
    [DOCS_INIT_SCRIPT_NAME, { contentType: 'text/javascript; charset=utf-8', body: encode(DOCS_INIT_SCRIPT), headers: NOSNIFF }],
  ];
  for (const [name, bytes] of readSwaggerUiFiles()) {
    files.push([name, { contentType: SWAGGER_UI_FILES[name], body: bytes, headers: NOSNIFF }]);
  }
  const paths = new Map(files.map(([name, rep]) => [name, DOCS_ASSETS_PREFIX + contentHashedName(name, rep.body, nodeCodec.digest)]));
  const page: StaticRepresentation = {
    contentType: 'text/html; charset=utf-8',
    body: encode(docsHtml((file) => paths.get(file)!)),
    headers: {
      'Content-Security-Policy': docsContentSecurityPolicy(opts.publicBaseUrl),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
  };
  return [[DOCS_PATH, page], ...files.map(([name, rep]): [string, StaticRepresentation] => [paths.get(name)!, rep])];
}
