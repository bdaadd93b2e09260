#!/usr/bin/env node
// The `syllabus` bin of this package: runs the client bundle in dist/ (built by `npm run build`, which
// `npm ci` runs through the `prepare` script). Released installs use the esbuild bundle instead (npm run release).
const entry = new URL('../dist/cli.js', import.meta.url);
try {
  await import(entry.href);
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli.js')) {
    process.stderr.write('syllabus: the client is not built yet; run `npm run build` in this repository, then try again.\n');
    process.exitCode = 1;
  } else {
    throw error;
  }
}
