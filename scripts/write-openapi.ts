/**
 * Writes the OpenAPI document (as served at `/openapi.json` with no PUBLIC_BASE_URL) to a file, e.g. for
 * client generators: `npx tsx scripts/write-openapi.ts openapi.json [publicBaseUrl]`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../src/server/openapi-document.js';

/** The service's release, from package.json. */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8')) as { version: string };
  return pkg.version;
}

/** Writes the document, pretty-printed, to `path`. */
export function writeOpenApi(path: string, publicBaseUrl?: string): void {
  writeFileSync(path, JSON.stringify(buildOpenApiDocument({ version: packageVersion(), publicBaseUrl }), null, 2) + '\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [out, base] = process.argv.slice(2);
  if (!out) {
    console.error('usage: tsx scripts/write-openapi.ts <out.json> [publicBaseUrl]');
    process.exit(2);
  }
  writeOpenApi(out, base);
  console.log(`wrote ${out}`);
}
