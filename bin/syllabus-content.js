#!/usr/bin/env node
// syllabus-content: validates a Syllabus content folder. Runs the bundle in dist/ (built by
// `npm run build`, which `npm ci` runs through the `prepare` script).
import { pathToFileURL } from 'node:url';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const entry = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'content-cli.js');
let cli;
try {
  cli = await import(pathToFileURL(entry).href);
} catch (err) {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('content-cli.js')) {
    process.stderr.write('syllabus-content: dist/ is missing; run `npm run build` first\n');
    process.exit(2);
  }
  throw err;
}
process.exitCode = await cli.runCli(process.argv.slice(2));
