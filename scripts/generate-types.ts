/**
 * Generates `src/schemas/types.generated.ts` from the JSON Schemas in `schemas/`, so the TypeScript types
 * are derived, never hand-kept. Run `npm run generate:types`; a test fails when the file is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderSchemaTypes } from '../src/schemas/render-types.js';

const out = fileURLToPath(new URL('../src/schemas/types.generated.ts', import.meta.url));
writeFileSync(out, await renderSchemaTypes());
console.log(`wrote ${out}`);
