/**
 * `syllabus update [--check] [--json]`: installs a newer release, verified against the signed release manifest;
 * `syllabus update --rollback`: makes the kept previous version current again.
 */
import type { CliContext } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import { CLI_VERSION } from '../meta.js';
import { writeJson } from '../output.js';
import { rollbackInstall } from '../release/install.js';
import { detectManagedInstall } from '../release/layout.js';
import { runUpdate } from '../release/updater.js';
import type { CliRollbackOutput, CliUpdateOutput } from '../../schemas/types.generated.js';

/**
 * Runs the command.
 * @returns 0 when up to date or updated; with `--check`, 10 ({@link EXIT.updateAvailable}) when a newer release
 *   exists, else 0. Throws CliError (exit 1) when the manifest cannot be read or the download fails or does not
 *   match it.
 */
export async function updateCommand(ctx: CliContext, options: { check?: boolean; json?: boolean; rollback?: boolean }): Promise<number> {
  if (options.rollback) return rollback(ctx, options.json === true);
  const { offer, result } = await runUpdate(ctx, detectManagedInstall(), options.check === true);
  const output: CliUpdateOutput = {
    current: CLI_VERSION,
    latest: offer.manifest.version,
    manifest: offer.manifestUrl.href,
    newer: offer.newer,
    installed: result !== undefined,
    install_dir: result?.installDir ?? null,
    previous: result ? (result.previous?.replace(/^syllabus-/, '') ?? null) : null,
  };
  const exitCode = options.check === true && offer.newer ? EXIT.updateAvailable : EXIT.ok;
  if (options.json) {
    writeJson(ctx.stdout, output);
    return exitCode;
  }
  const { style } = ctx;
  if (result) {
    ctx.stdout.write(
      `${style.green('Updated')} syllabus ${CLI_VERSION} → ${offer.manifest.version} (verified SHA-256 ${offer.manifest.sha256.slice(0, 12)}…), installed in ${result.installDir}.\n` +
        (output.previous ? `The previous version ${output.previous} is kept to roll back to.\n` : ''),
    );
  } else if (offer.newer) {
    ctx.stdout.write(
      `syllabus ${offer.manifest.version} is available (this is ${CLI_VERSION}); run ${style.bold('syllabus update')} to install it.\n`,
    );
  } else {
    ctx.stdout.write(`syllabus ${CLI_VERSION} is up to date (the newest release is ${offer.manifest.version}).\n`);
  }
  return exitCode;
}

/** `--rollback`: switches back to the previous version (only for installs made by install.sh). */
async function rollback(ctx: CliContext, json: boolean): Promise<number> {
  const install = detectManagedInstall();
  if (!install) {
    throw new CliError('This copy of syllabus was not installed by install.sh, so it keeps no previous version to roll back to.');
  }
  const { current, previous } = await rollbackInstall(install.root);
  if (json) {
    const output: CliRollbackOutput = { current, previous };
    writeJson(ctx.stdout, output);
    return EXIT.ok;
  }
  ctx.stdout.write(`Rolled back: syllabus ${current} is current again (${previous} is kept; run syllabus update --rollback to return to it).\n`);
  return EXIT.ok;
}
