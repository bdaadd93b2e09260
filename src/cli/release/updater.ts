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

/**
 * Reads `<release-url>/latest.json`.
 * @throws CliError when it cannot be read or is invalid.
 */
export async function readOffer(ctx: Pick<CliContext, 'http' | 'releaseUrl'>): Promise<UpdateOffer> {
  const manifestUrl = new URL('latest.json', ctx.releaseUrl);
  const response = await ctx.http.getText(manifestUrl, RELEASE_PURPOSE);
  if (response.status !== 200) {
    throw new CliError(`The release server answered ${response.status} for ${manifestUrl.href}; check SYLLABUS_RELEASE_URL or try again later.`);
  }
  const { manifest, archiveUrl } = parseManifest(response.body, manifestUrl);
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
 */
export async function runUpdate(
  ctx: Pick<CliContext, 'http' | 'releaseUrl' | 'cacheDir'>,
  install: ManagedInstall | undefined,
  check: boolean,
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
    await writeUpdateCheck(ctx.cacheDir, { checkedAt, result: 'installed', latest: offer.manifest.version });
    return { offer, result };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await writeUpdateCheck(ctx.cacheDir, { checkedAt, result: 'failed', message });
    throw error;
  }
}
