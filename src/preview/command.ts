/**
 * `syllabus-content dev [dir]` (and `npm run dev`): runs the live preview of a content folder until SIGINT or
 * SIGTERM, printing its URL, each reload and each invalid load (every problem as `validate` prints it: in a
 * terminal with its code frame) on stdout. With `--at` or `--scheduled`, the content as it will be published (see
 * `PreviewTime`). Exit status: 0 when stopped, 2 when the folder or the referral file is missing
 * or the address cannot be used.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isLoopbackHost } from '../server/config.js';
import { problemLines, problemStyle } from '../content/index.js';
import type { PreviewEvent } from './state.js';
import { startPreview } from './preview.js';
import type { PreviewTime } from './time.js';

/** Options of the command. */
export interface DevOptions {
  port: number;
  host: string;
  /** A referral digests file (`--referrals-file`, relative to `io.cwd`); without it referral checks answer `503`. */
  referralsFile?: string;
  /** `--at`: show the content as published at this instant. */
  at?: Date;
  /** `--scheduled`: show the content with every scheduled entry published. */
  scheduled?: boolean;
}

/** Where the command writes (the content CLI's `CliIo` fits): the URL and what happens on stdout, failures on stderr. */
export interface DevIo {
  stdout(line: string): void;
  stderr(line: string): void;
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdoutIsTTY?: boolean;
}

/** Runs the preview; see the module comment. Resolves to the exit status once stopped. */
export async function runDev(dir: string, options: DevOptions, io: DevIo): Promise<number> {
  const abs = resolve(io.cwd, dir);
  const info = await stat(abs).catch(() => undefined);
  if (!info?.isDirectory()) {
    io.stderr(`syllabus-content: ${dir}: not a directory`);
    return 2;
  }
  const referralsFile = options.referralsFile === undefined ? undefined : resolve(io.cwd, options.referralsFile);
  if (referralsFile !== undefined && !(await stat(referralsFile).catch(() => undefined))?.isFile()) {
    io.stderr(`syllabus-content: ${options.referralsFile}: not a file (--referrals-file)`);
    return 2;
  }
  const shown: PreviewTime =
    options.at !== undefined ? { kind: 'at', at: options.at } : options.scheduled === true ? { kind: 'scheduled' } : { kind: 'now' };
  let preview;
  try {
    preview = await startPreview({
      dir: abs,
      host: options.host,
      port: options.port,
      time: shown,
      ...(referralsFile !== undefined && { referralsFile }),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'EADDRINUSE'
        ? 'the port is in use; choose another with --port'
        : code === 'EADDRNOTAVAIL'
          ? 'no such address on this machine'
          : undefined;
    io.stderr(
      `syllabus-content: cannot start the preview on ${options.host}:${options.port}: ${why ?? (error instanceof Error ? error.message : String(error))}`,
    );
    return 2;
  }
  // The problems as `validate` prints them: in a terminal each with its code frame, coloured unless NO_COLOR.
  const style = problemStyle(io.env, io.stdoutIsTTY === true);
  const report = (event: PreviewEvent): void => {
    if (event.kind === 'reload') return io.stdout(`${time()} reloaded: the preview shows the content as saved`);
    const problems = event.problems ?? [];
    io.stdout(`${time()} ${problems.length} problem${problems.length === 1 ? '' : 's'}: the preview shows them until they are fixed`);
    for (const line of problemLines(problems, { dir: abs, displayRoot: '' }, style)) io.stdout(line);
  };
  io.stdout(`Previewing ${dir} at ${preview.url} (Ctrl-C to stop)`);
  if (shown.kind === 'at')
    io.stdout(`Showing the content as published at ${shown.at.toISOString()}: what is not published yet is marked with its date`);
  if (shown.kind === 'scheduled') io.stdout('Showing every scheduled changelog entry as published, each marked with its date');
  const initial = preview.state.snapshot().problems;
  if (initial !== undefined) report({ kind: 'problems', version: '', problems: initial });
  preview.state.subscribe(report);
  if (!isLoopbackHost(options.host)) io.stderr(`syllabus-content: listening on ${options.host}: other machines can open the preview`);
  const signal = await new Promise<NodeJS.Signals>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  io.stderr(`${signal}: stopping the preview`);
  await preview.close();
  return 0;
}

function time(): string {
  return new Date().toISOString().slice(11, 19);
}
