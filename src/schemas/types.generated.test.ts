import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderSchemaTypes } from './render-types.js';

describe('types.generated.ts', () => {
  it('is what `npm run generate:types` makes of schemas/ today (run it after changing a schema)', async () => {
    const committed = readFileSync(new URL('./types.generated.ts', import.meta.url), 'utf8');
    expect(committed).toBe(await renderSchemaTypes());
  });
});
