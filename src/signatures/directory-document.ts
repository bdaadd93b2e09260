/**
 * What a key-source URL answered: a JWK Set (RFC 7517 §5; draft-ietf-webbotauth-httpsig-protocol-01 §5.5.1), or a
 * Signature Agent Card (draft-meunier-webbotauth-registry-04: OAuth client metadata with its keys inline as
 * `jwks`, or by reference as `jwks_uri`). Only the members that lead to keys are read; every other card member
 * is ignored, as the card draft says of unknown ones. Portable: no Node-only modules.
 */
import { unfetchable } from './key-source.js';

/** A parsed answer, or why it holds no keys. */
export type DirectoryDocument =
  | {
      ok: true;
      kind: 'keys';
      /** The JWKs, unvalidated: `keys.ts` judges each one. */
      entries: unknown[];
    }
  | {
      ok: true;
      kind: 'card';
      /** The absolute `http(s)` URL of the card's JWK Set, still to be fetched (one hop, same guards). */
      jwksUri: string;
    }
  | { ok: false; reason: string };

/**
 * Reads a directory answer. Never throws.
 * @param body the response body.
 * @param url the URL it was fetched from: a card's `client_id`, when present, must be that URL (registry-04, as in
 *   OAuth Client ID Metadata Documents), so one card cannot be served as another agent's.
 */
export function readDirectoryDocument(body: string, url: string): DirectoryDocument {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'the directory is not JSON' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return notKeys;
  const document = json as Record<string, unknown>;
  // A JWK Set; also the earlier card drafts, whose `keys` member was a JWK Set's.
  if (Array.isArray(document.keys)) return { ok: true, kind: 'keys', entries: document.keys };
  if (!('jwks' in document) && !('jwks_uri' in document)) return notKeys;

  if (document.client_id !== undefined && document.client_id !== url) {
    return { ok: false, reason: 'the Signature Agent Card\'s "client_id" is not the URL it was fetched from' };
  }
  if ('jwks' in document && 'jwks_uri' in document) return { ok: false, reason: 'the Signature Agent Card has both "jwks" and "jwks_uri"' };
  if ('jwks' in document) {
    const jwks = document.jwks as { keys?: unknown } | null;
    if (typeof jwks !== 'object' || jwks === null || !Array.isArray(jwks.keys)) {
      return { ok: false, reason: 'the Signature Agent Card\'s "jwks" is not a JWK Set' };
    }
    return { ok: true, kind: 'keys', entries: jwks.keys };
  }
  const jwksUri = typeof document.jwks_uri === 'string' ? hopUrl(document.jwks_uri) : undefined;
  if (jwksUri === undefined)
    return { ok: false, reason: 'the Signature Agent Card\'s "jwks_uri" is not an absolute URL without credentials or fragment' };
  return { ok: true, kind: 'card', jwksUri };
}

const notKeys = { ok: false, reason: 'the directory is neither a JWK Set ("keys") nor a Signature Agent Card ("jwks", "jwks_uri")' } as const;

/**
 * A `jwks_uri` that may be fetched: absolute `http(s)`, no credentials, no fragment. Whether `http` is allowed is
 * the fetcher's rule (https only unless insecure directories are allowed), as for every fetch.
 */
function hopUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  // http passes here; the fetcher applies unfetchable() again with the real setting.
  if (unfetchable(url, true) !== undefined || url.hash !== '' || value.includes('#')) return undefined;
  return url.href;
}
