/**
 * `syllabus-content validate [dir]`: checks a content folder and prints every problem as
 * `path:line:column: message` (in a terminal followed by its code frame: src/content/print-problems.ts); under GitHub Actions
 * also as `::error` workflow commands (annotations). With `--base <ref>`, an id published at that Git ref that leads
 * nowhere now is a problem too.
 * `syllabus-content diff <base-ref> [head-ref]`: the change to the public API, in Markdown (commands/diff.ts).
 * Exit status: 0 valid, 1 invalid, 2 usage error (bad arguments, folder missing, a ref that names no commit).
 */
import { stat } from 'node:fs/promises';
import { normalize, relative, resolve, sep } from 'node:path';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { choiceOption } from './choices.js';
import { ContentLoader, printable, problemLines, problemStyle, scheduledLines, type Problem, type ProblemFolder } from '../content/index.js';
import { addNewCommand } from './scaffold/command.js';
import { CLI_VERSION } from '../cli/meta.js';
import { parseInstant, parsePort, PREVIEW_DEFAULTS } from '../preview/options.js';
import { prepareBaseCheck } from './commands/validate-base.js';
import { DIFF_FORMATS, DIFF_HELP, runDiff, type DiffArgs } from './commands/diff.js';

/** What follows a usage error. */
const USAGE_HINT = '(run syllabus-content --help for usage)';

/** Exit statuses of the command. */
export const EXIT = { valid: 0, invalid: 1, usage: 2 } as const;

/** Where the command writes; injectable for tests. */
export interface CliIo {
  stdout(line: string): void;
  stderr(line: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Clock (default the system's): what is scheduled is dated after its UTC date. */
  now?: () => Date;
  /** Whether `stdout` is a terminal (problems then get code frames). */
  stdoutIsTTY?: boolean;
}

const defaultIo: CliIo = {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  cwd: process.cwd(),
  stdoutIsTTY: process.stdout.isTTY,
};

/**
 * Runs the command line `argv` (without the node and script entries) and resolves to the exit status.
 * Never throws for bad input.
 */
export async function runCli(argv: readonly string[], io: CliIo = defaultIo): Promise<number> {
  let status: number = EXIT.valid;
  const program = new Command('syllabus-content')
    .description('Tools for a Syllabus content folder (Markdown with YAML frontmatter).')
    .version(CLI_VERSION, '-V, --version', 'print the version')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout(s.trimEnd()), writeErr: (s) => io.stderr(s.trimEnd()) })
    // A usage error is one line and where to read more, as `syllabus` does, never the whole help.
    .showHelpAfterError(USAGE_HINT);
  program
    .command('validate')
    .description('check every file and rule; print each problem as path:line:column: message')
    .argument('[dir]', 'the content folder', 'content')
    .option('--base <ref>', 'also fail when an id published at this Git ref (e.g. origin/main) leads nowhere now')
    .action(async (dir: string, options: { base?: string }) => {
      status = await validate(dir, io, options.base);
    });
  program
    .command('diff')
    .description('print in Markdown what the change from <base-ref> to [head-ref] does to the public API; exit 1 if it breaks a published id')
    .argument('<base-ref>', 'the Git ref to compare with (e.g. origin/main)')
    .argument('[head-ref]', 'the Git ref of the change (default: the working content folder, uncommitted edits included)')
    .option('--dir <dir>', 'the content folder', 'content')
    .addOption(
      choiceOption('--format <format>', 'github: also append to $GITHUB_STEP_SUMMARY and annotate broken ids', DIFF_FORMATS).default('markdown'),
    )
    .addHelpText('after', DIFF_HELP)
    .action(async (base: string, head: string | undefined, options: Pick<DiffArgs, 'dir' | 'format'>) => {
      status = await runDiff({ base, head, ...options }, io, {
        report: (problems) => reportProblems(problems, { dir: resolve(io.cwd, options.dir), displayRoot: normalize(options.dir) }, io),
        annotation: (p) => annotation(p, io),
      });
    });
  addNewCommand(program, io, (s) => {
    status = s;
  });
  program
    .command('dev')
    .description('live preview: serve the pages and the API from the folder, reload on save, show problems with their code frames')
    .argument('[dir]', 'the content folder', 'content')
    .option('--port <port>', 'port to listen on (0: any free port)', parsePort, PREVIEW_DEFAULTS.port)
    .option('--host <address>', 'address to listen on', PREVIEW_DEFAULTS.host)
    .option('--referrals-file <file>', 'referral code digests to check /v1/referrals/{code} against (default none: every check answers 503)')
    .addOption(
      new Option('--at <instant>', 'show the content as published at this instant (2026-12-01 or 2026-12-01T09:00:00Z), scheduled entries marked')
        .argParser(parseInstant)
        .conflicts('scheduled'),
    )
    .option('--scheduled', 'show the content with every scheduled changelog entry published, each marked with its date')
    .action(async (dir: string, options: { port: number; host: string; referralsFile?: string; at?: Date; scheduled?: boolean }) => {
      // Loaded only for this command: it brings the whole server.
      status = await (await import('../preview/command.js')).runDev(dir, options, io);
    });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    if (argv.length === 0) {
      io.stderr(program.helpInformation().trimEnd());
      return EXIT.usage;
    }
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version are successful exits; everything else commander rejects is a usage error.
      return err.exitCode === 0 ? EXIT.valid : EXIT.usage;
    }
    throw err;
  }
  return status;
}

async function validate(dir: string, io: CliIo, baseRef?: string): Promise<number> {
  const abs = resolve(io.cwd, dir);
  const info = await stat(abs).catch(() => undefined);
  if (!info?.isDirectory()) {
    io.stderr(`syllabus-content: ${dir}: not a directory`);
    return EXIT.usage;
  }
  const base = baseRef === undefined ? undefined : await prepareBaseCheck(abs, normalize(dir), baseRef, io);
  if (baseRef !== undefined && !base) return EXIT.usage;
  // Problems name files under the folder as the user wrote it, so the paths can be pasted back.
  const folder = { dir: abs, displayRoot: normalize(dir) };
  const loader = new ContentLoader(folder.dir, { displayRoot: folder.displayRoot });
  const result = await loader.load();
  const problems = !result.ok ? result.problems : base ? await base.problems(result.model, loader.parsedFiles()) : [];
  const warnings = result.warnings ?? [];
  const warned = warnings.length === 0 ? '' : `; ${warnings.length} warning${warnings.length === 1 ? '' : 's'}`;
  reportProblems(problems, folder, io, warnings);
  if (result.ok && problems.length === 0) {
    const { catalog, changelog, roadmap } = result.model;
    const lessons = catalog.courses.reduce((n, c) => n + c.lessons_live, 0);
    const items = roadmap.stages.reduce((n, s) => n + s.items.length, 0);
    io.stderr(
      `${dir}: valid (${catalog.courses.length} courses, ${lessons} lessons, ${changelog.entries.length} changelog entries, ` +
        `${items} roadmap items; revision ${result.model.revision})${warned}`,
    );
    const now = io.now?.() ?? new Date();
    for (const line of scheduledLines(result.model, now, (rel) => loader.display(rel))) io.stderr(printable(line));
    return EXIT.valid;
  }
  const files = new Set(problems.map((p) => p.path)).size;
  io.stderr(`${dir}: ${problems.length} problem${problems.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}${warned}`);
  return EXIT.invalid;
}

/** Annotation levels of GitHub Actions: a problem is an error, a warning a warning. */
type Level = 'error' | 'warning';

/**
 * Prints problems as `path:line:column: message`, then warnings as `path:line:column: warning: message` (in a terminal
 * with their code frames, read from `folder`), and under GitHub Actions also as `::error` and `::warning` annotations.
 */
function reportProblems(problems: readonly Problem[], folder: ProblemFolder, io: CliIo, warnings: readonly Problem[] = []): void {
  if (problems.length === 0 && warnings.length === 0) return;
  const annotate = io.env.GITHUB_ACTIONS === 'true';
  // File names and YAML keys are written by contributors: under Actions, a line of theirs starting with `::`
  // would be run as a workflow command, so command processing is off while they are printed (the toolkit's
  // documented guard), and control characters never reach a terminal.
  const token = annotate ? randomUUID() : '';
  if (annotate) io.stdout(`::stop-commands::${token}`);
  const style = problemStyle(io.env, io.stdoutIsTTY === true);
  const asWarnings = warnings.map((w) => ({ ...w, message: `warning: ${w.message}` }));
  for (const line of problemLines([...problems, ...asWarnings], folder, style)) io.stdout(line);
  if (annotate) {
    io.stdout(`::${token}::`);
    for (const problem of problems) io.stdout(annotation(problem, io));
    for (const warning of warnings) io.stdout(annotation(warning, io, 'warning'));
  }
}

/**
 * A GitHub Actions `::error` (or `::warning`) workflow command for a problem; `file` is relative to the workspace
 * (`GITHUB_WORKSPACE`, else the working directory), as annotations require.
 */
export function annotation(problem: Problem, io: Pick<CliIo, 'env' | 'cwd'>, level: Level = 'error'): string {
  const workspace = io.env.GITHUB_WORKSPACE ?? io.cwd;
  const file = relative(workspace, resolve(io.cwd, problem.path)).split(sep).join('/');
  return `::${level} file=${escapeProperty(file)},line=${problem.line},col=${problem.column}::${escapeData(problem.message)}`;
}

// Escaping rules of the GitHub Actions toolkit (@actions/core command.ts).
function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await runCli(process.argv.slice(2));
}
