/**
 * Release manifests are signed: `npm run release` signs the bytes of `latest.json` with the project's Ed25519 key
 * and publishes the signature beside it as `latest.json.sig` (base64, one line). The client and `install.sh` pin
 * the public key, so whoever controls the release host still cannot make clients install anything: the manifest
 * names the archive's SHA-256 and size, and only a signed manifest is believed.
 *
 * For tests only, `SYLLABUS_ALLOW_TEST_RELEASES=1` lets `SYLLABUS_RELEASE_TEST_KEY` (a PEM public key file)
 * replace the pinned key and allows plain `http` to a loopback release server.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { CliEnv } from '../environment.js';
import { CliError } from '../errors.js';

/** The project's release public key (Ed25519, SPKI PEM). `install.sh` pins the same key (a test checks). */
export const RELEASE_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAcJCxlPThF6OzfKcRlRD7ocNkWjKmupHNOuAeXpUOvJI=
-----END PUBLIC KEY-----
`;

/** The signature's file name, beside the manifest. */
export const SIGNATURE_SUFFIX = '.sig';

/** Whether the explicit test setting is on (environment of the client). */
export function testReleasesAllowed(env: CliEnv): boolean {
  return env.SYLLABUS_ALLOW_TEST_RELEASES === '1';
}

/**
 * The key manifests must be signed with: the pinned one, or under the test setting `SYLLABUS_RELEASE_TEST_KEY`.
 * @throws CliError when the test key file cannot be read or is not an Ed25519 public key.
 */
export function releaseKey(env: CliEnv): KeyObject {
  const testKeyFile = testReleasesAllowed(env) ? env.SYLLABUS_RELEASE_TEST_KEY : undefined;
  let pem = RELEASE_PUBLIC_KEY;
  if (testKeyFile !== undefined && testKeyFile !== '') {
    try {
      pem = readFileSync(testKeyFile, 'utf8');
    } catch (error) {
      throw new CliError(`SYLLABUS_RELEASE_TEST_KEY: cannot read ${testKeyFile} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
    }
  }
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'ed25519') throw new CliError('The release key is not an Ed25519 public key.');
  return key;
}

/**
 * Whether `signature` (the text of `latest.json.sig`: base64 of a 64-byte Ed25519 signature) signs exactly
 * `manifest`'s bytes under `key`.
 */
export function manifestSignatureValid(manifest: Uint8Array, signature: string, key: KeyObject): boolean {
  const bytes = Buffer.from(signature.trim(), 'base64');
  if (bytes.length !== 64) return false;
  return verify(null, manifest, key, bytes);
}

/**
 * Whether the client may fetch releases from `url`: `https`, or under the test setting plain `http` to a loopback
 * host. @returns the reason when it may not.
 */
export function releaseUrlProblem(url: URL, env: CliEnv): string | undefined {
  if (url.protocol === 'https:') return undefined;
  const loopback = url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
  if (url.protocol === 'http:' && loopback && testReleasesAllowed(env)) return undefined;
  return `releases are only fetched over https, not from ${url.href}`;
}
