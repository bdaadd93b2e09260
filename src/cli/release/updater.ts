/**
 * `syllabus update`'s steps: read the manifest, compare versions, download, verify SHA-256 and size against the
 * manifest before anything is unpacked, then install (release/install.ts).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import semver from 'semver';
import { RELEASE_PURPOSE, type CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { CLI_VERSION } from '../meta.js';
import { writeUpdateCheck } from '../state.js';
import { installRelease, type InstallResult } from './install.js';
import type { ManagedInstall } from './layout.js';
import { parseManifest, type ReleaseManifest } from './manifest.js';
import { manifestSignatureValid, releaseKey, releaseUrlProblem, SIGNATURE_SUFFIX } from './signature.js';

/** What the manifest offers. */
export interface UpdateOffer {
  manifest: ReleaseManifest;
  manifestUrl: URL;
  archiveUrl: URL;
  /** True when the offered version is newer than {@link CLI_VERSION}. */
  newer: boolean;
  /** Milliseconds the manifest request took. */
  ms: number;
}

/** The largest manifest or signature read, in bytes (a manifest is a few hundred). */
const MAX_MANIFEST_BYTES = 64 * 1024;

/**
 * Reads `<release-url>/latest.json` and its signature `latest.json.sig`, and believes the manifest only when the
 * signature verifies under the pinned release key (release/signature.ts). Releases are fetched over `https` only,
 * and the archive must be on the manifest's own origin.
 * @param signal ends the requests early (a caller's deadline).
 * @throws CliError when the URL is not allowed, a file cannot be read, the signature is missing or wrong, or the
 *   manifest is invalid or points elsewhere. Nothing is written in any of these cases.
 */
export async function readOffer(ctx: Pick<CliContext, 'http' | 'releaseUrl' | 'env'>, signal?: AbortSignal): Promise<UpdateOffer> {
  const manifestUrl = new URL('latest.json', ctx.releaseUrl);
  const refused = releaseUrlProblem(manifestUrl, ctx.env);
  if (refused !== undefined) throw new CliError(`Not updating: ${refused}. Set SYLLABUS_RELEASE_URL to the https address of the releases.`);
  const key = releaseKey(ctx.env);
  const response = await ctx.http.getBytes(manifestUrl, RELEASE_PURPOSE, MAX_MANIFEST_BYTES, { signal });
  if (response.status !== 200) {
    throw new CliError(`The release server answered ${response.status} for ${manifestUrl.href}; check SYLLABUS_RELEASE_URL or try again later.`);
  }
  const signatureUrl = new URL(`latest.json${SIGNATURE_SUFFIX}`, manifestUrl);
  const signature = await ctx.http.getBytes(signatureUrl, RELEASE_PURPOSE, MAX_MANIFEST_BYTES, { signal });
  if (signature.status !== 200) {
    throw new CliError(`The release manifest has no signature (${signatureUrl.href} answered ${signature.status}); nothing was installed.`);
  }
  if (!manifestSignatureValid(response.body, signature.body.toString('utf8'), key)) {
    throw new CliError(
      `The release manifest at ${manifestUrl.href} is not signed by the Syllabus release key; it may have been tampered with. Nothing was installed.`,
    );
  }
  const { manifest, archiveUrl } = parseManifest(response.body.toString('utf8'), manifestUrl);
  if (archiveUrl.origin !== manifestUrl.origin) {
    throw new CliError(
      `The release manifest names an archive on another origin (${archiveUrl.origin}); only ${manifestUrl.origin} is trusted. Nothing was installed.`,
    );
  }
  return { manifest, manifestUrl, archiveUrl, newer: semver.gt(manifest.version, CLI_VERSION), ms: response.ms };
}

/** Whether `data` has the manifest's size and SHA-256; the reason when not. */
export function verifyArchive(data: Buffer, manifest: ReleaseManifest): string | undefined {
  if (data.length !== manifest.size) return `it is ${data.length} bytes, the manifest says ${manifest.size}`;
  const actual = createHash('sha256').update(data).digest();
  const expected = Buffer.from(manifest.sha256, 'hex');
  if (!timingSafeEqual(actual, expected)) return `its SHA-256 is ${actual.toString('hex')}, the manifest says ${manifest.sha256}`;
  return undefined;
}

/**
 * Downloads, verifies and installs the offered release.
 * @throws CliError when the download fails or does not match the manifest; the install is then untouched.
 */
export async function applyOffer(ctx: Pick<CliContext, 'http'>, install: ManagedInstall, offer: UpdateOffer): Promise<InstallResult> {
  const { manifest, archiveUrl } = offer;
  const download = await ctx.http.getBytes(archiveUrl, RELEASE_PURPOSE, manifest.size);
  if (download.status !== 200) {
    throw new CliError(`The release server answered ${download.status} for ${archiveUrl.href}; nothing was installed, try again later.`);
  }
  const mismatch = verifyArchive(download.body, manifest);
  if (mismatch !== undefined) {
    throw new CliError(
      `The downloaded archive ${archiveUrl.href} does not match the release manifest (${mismatch}); it was discarded and the installed version ${CLI_VERSION} is unchanged.`,
    );
  }
  return installRelease(install.root, manifest.version, download.body);
}

/**
 * Checks for and installs a newer release, recording the check for `doctor` and the daily self-update.
 * @param check only report, never download.
 * @param notice for a background update: the line the next run prints once on stderr when this run installs
 *   (given the two versions), recorded with the check.
 */
export async function runUpdate(
  ctx: Pick<CliContext, 'http' | 'releaseUrl' | 'cacheDir' | 'env'>,
  install: ManagedInstall | undefined,
  check: boolean,
  notice?: (from: string, to: string) => string,
): Promise<{ offer: UpdateOffer; result: InstallResult | undefined }> {
  const checkedAt = Date.now();
  try {
    const offer = await readOffer(ctx);
    if (check || !offer.newer) {
      await writeUpdateCheck(ctx.cacheDir, { checkedAt, result: 'up-to-date', latest: offer.manifest.version });
      return { offer, result: undefined };
    }
    if (!install) {
      throw new CliError(
        'This copy of syllabus was not installed by install.sh (it runs from a source checkout or a package manager), so it cannot replace itself; update it the way it was installed.',
      );
    }
    const result = await applyOffer(ctx, install, offer);
    await writeUpdateCheck(ctx.cacheDir, {
      checkedAt,
      result: 'installed',
      latest: offer.manifest.version,
      ...(notice ? { notice: notice(CLI_VERSION, offer.manifest.version) } : {}),
    });
    return { offer, result };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await writeUpdateCheck(ctx.cacheDir, { checkedAt, result: 'failed', message });
    throw error;
  }
}
