/** Renders TypeScript declarations for every schema in `schemas/` (see scripts/generate-types.ts). */
import { compile } from 'json-schema-to-typescript';
import { apiSchemas, inlineSchema, loadSchemas, type JsonSchema } from './registry.js';

const HEADER = '/* Generated from schemas/ by `npm run generate:types`. Do not edit by hand. */\n';

/** Type name for a frontmatter schema path: `frontmatter/roadmap-item.schema.json` → `RoadmapItemFrontmatter`. */
function frontmatterTypeName(path: string): string {
  const base = path.replace(/^frontmatter\//, '').replace(/\.schema\.json$/, '');
  return (
    base
      .split('-')
      .map((w) => w[0]!.toUpperCase() + w.slice(1))
      .join('') + 'Frontmatter'
  );
}

/** @returns the whole generated module's source text. */
export async function renderSchemaTypes(): Promise<string> {
  const opts = { bannerComment: '', additionalProperties: false, strictIndexSignatures: true, format: true, ignoreMinAndMaxItems: true } as const;
  const parts: string[] = [HEADER];
  const toTs = (name: string) => ({ tsType: name }) as JsonSchema;
  const api = [...apiSchemas()].sort(([a], [b]) => a.localeCompare(b));
  for (const [name, s] of api) {
    parts.push(await compile(inlineSchema({ ...s, title: name }, toTs), name, opts));
  }
  // The component names of the OpenAPI document: one per schemas/api/<Name>.schema.json.
  parts.push(`/** The API's component schema names, one per \`schemas/api/<Name>.schema.json\`. */
export const API_SCHEMA_NAMES = ${JSON.stringify(api.map(([name]) => name))} as const;
`);
  for (const [path, s] of [...loadSchemas()].filter(([p]) => p.startsWith('frontmatter/')).sort(([a], [b]) => a.localeCompare(b))) {
    const name = frontmatterTypeName(path);
    parts.push(await compile(inlineSchema({ ...s, title: name }, toTs), name, opts));
  }
  // The CLI's --json outputs and its release manifest, named by their titles (CliDoctorOutput, ReleaseManifest, …).
  for (const [, s] of [...loadSchemas()].filter(([p]) => p.startsWith('cli/')).sort(([a], [b]) => a.localeCompare(b))) {
    const name = String(s.title);
    parts.push(await compile(inlineSchema({ ...s, title: name }, toTs), name, opts));
  }
  return parts.join('\n');
}
