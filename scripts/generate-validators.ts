/**
 * Generates `src/content/frontmatter-validators.generated.cjs` (and its `.d.cts`) from the JSON Schemas in
 * `schemas/`: the frontmatter validators as ajv standalone code (src/content/render-validators.ts). Run
 * `npm run generate:validators`; a test fails when the files are stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderFrontmatterValidators } from '../src/content/render-validators.js';

const out = fileURLToPath(new URL('../src/content/frontmatter-validators.generated', import.meta.url));
const { code, declarations } = renderFrontmatterValidators();
writeFileSync(`${out}.cjs`, code);
writeFileSync(`${out}.d.cts`, declarations);
console.log(`wrote ${out}.cjs and .d.cts`);
