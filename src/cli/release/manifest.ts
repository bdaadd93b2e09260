/**
 * The release manifest `latest.json` (schemas/cli/release-manifest.schema.json): read, validated against its
 * schema, and its archive URL resolved against the manifest's own URL.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import manifestSchema from '../../../schemas/cli/release-manifest.schema.json' with { type: 'json' };
import type { ReleaseManifest } from '../../schemas/types.generated.js';
import { CliError } from '../errors.js';

export type { ReleaseManifest };

let validator: (((value: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null }) | undefined;

function validate(value: unknown): string | undefined {
  if (!validator) {
    const ajv = new Ajv2020({ allErrors: false, strict: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    validator = ajv.compile(manifestSchema);
  }
  if (validator(value)) return undefined;
  const first = validator.errors?.[0];
  return first ? `${first.instancePath || '/'} ${first.message ?? 'is invalid'}` : 'is invalid';
}

/**
 * Parses a manifest body.
 * @param manifestUrl where it was read from, to resolve a relative archive URL and to word errors.
 * @returns the manifest and the archive's absolute URL.
 * @throws CliError when the body is not JSON, does not match the schema, or names a non-HTTP archive URL.
 */
export function parseManifest(body: string, manifestUrl: URL): { manifest: ReleaseManifest; archiveUrl: URL } {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new CliError(`The release manifest at ${manifestUrl.href} is not JSON; the release server may be misconfigured.`);
  }
  const problem = validate(value);
  if (problem !== undefined) {
    throw new CliError(`The release manifest at ${manifestUrl.href} is not valid (${problem}); the release server may be misconfigured.`);
  }
  const manifest = value as ReleaseManifest;
  let archiveUrl: URL;
  try {
    archiveUrl = new URL(manifest.url, manifestUrl);
  } catch {
    throw new CliError(`The release manifest at ${manifestUrl.href} names an archive URL that is not a URL.`);
  }
  if (archiveUrl.protocol !== 'http:' && archiveUrl.protocol !== 'https:') {
    throw new CliError(`The release manifest at ${manifestUrl.href} names an archive that is not on http(s): ${archiveUrl.href}.`);
  }
  return { manifest, archiveUrl };
}
