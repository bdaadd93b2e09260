/**
 * Generates `src/content/frontmatter-validators.generated.js` (and its `.d.ts`) from the JSON Schemas in
 * `schemas/`: the frontmatter validators as ajv standalone code (src/content/render-validators.ts). Run
 * `npm run generate:validators`; a test fails when the files are stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderFrontmatterValidators } from '../src/content/render-validators.js';

const out = fileURLToPath(new URL('../src/content/frontmatter-validators.generated', import.meta.url));
const { code, declarations } = renderFrontmatterValidators();
writeFileSync(`${out}.js`, code);
writeFileSync(`${out}.d.ts`, declarations);
console.log(`wrote ${out}.js and .d.ts`);
