/**
 * The `syllabus` command line: global options, the commands, and the mapping of outcomes to exit codes
 * (0 ok, 1 check or request failed, 2 usage error, 10 `update --check` found a newer release, 75 rate limited).
 */
import { Command, CommanderError } from 'commander';
import { announceBackgroundUpdate, DAILY_UPDATE_COMMAND, maybeStartDailyUpdate, runDailyUpdate } from './autoupdate.js';
import { catalogCommand, EXAMPLE_COURSE_ID } from './commands/catalog.js';
import { changelogCommand, DEFAULT_LIMIT, EXAMPLE_SINCE, type ChangelogOptions } from './commands/changelog.js';
import { DOCTOR_DEADLINE_MS, doctorCommand } from './commands/doctor.js';
import { roadmapCommand } from './commands/roadmap.js';
import { updateCommand } from './commands/update.js';
import { versionCommand } from './commands/version.js';
import { debugEnabled } from './config.js';
import { createContext, type CliContext, type CliIo, type GlobalOptions } from './context.js';
import { DEFAULT_BASE_URL, environmentHelp, MAX_WAIT_SECONDS } from './environment.js';
import { CliError, EXIT } from './errors.js';
import { clockTime, RateLimited } from './http.js';
import { CLI_HOMEPAGE, CLI_VERSION } from './meta.js';
import { styleFor, writeJson } from './output.js';
import type { CliErrorOutput } from '../schemas/types.generated.js';

/** The "Examples:" block of a command's help: one `$ syllabus …` line each (a test runs them against the content). */
function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ syllabus ${line}`).join('\n')}\n`;
}

/** The exit codes, as `--help` lists them. */
const EXIT_HELP = `Exit codes:
  ${EXIT.ok}   ok
  ${EXIT.failed}   a check or request failed
  ${EXIT.usage}   usage error
  ${EXIT.updateAvailable}  (update --check) a newer release exists
  ${EXIT.rateLimited}  rate limited: the read budget is spent (at once with --no-wait; else when it resets more than ${MAX_WAIT_SECONDS} s
      away, or the one retry is refused again)
`;

/** The JSON document a command run with `--json` prints on stdout when it fails (schemas/cli/error.schema.json). */
function errorOutput(error: CliError): CliErrorOutput {
  return {
    error: error.message,
    exit_code: error.exitCode,
    retry_at: error instanceof RateLimited && error.retryAt !== undefined ? clockTime(error.retryAt) : null,
  };
}

/** Commands after which the daily self-update never starts (they are updates themselves). */
const NO_DAILY_AFTER = new Set(['update', DAILY_UPDATE_COMMAND]);

/**
 * Runs the client with `argv` (as in `process.argv`: node and script first).
 * @returns the exit code. Never throws: every failure is reported on stderr.
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const errStyle = styleFor(io.stderr, io.env);
  let exitCode: number = EXIT.ok;
  let finished: { name: string; ctx: CliContext } | undefined;

  const program = new Command('syllabus')
    .description('Command-line client of the Syllabus catalog service.')
    .version(CLI_VERSION, '-V, --version', 'print the client version')
    .option('--base-url <url>', `the service's root URL (default: $SYLLABUS_BASE_URL, else ${DEFAULT_BASE_URL})`)
    .option(
      '--no-wait',
      `when the read budget is spent, fail at once (exit ${EXIT.rateLimited}) naming when it resets, instead of waiting up to ${MAX_WAIT_SECONDS} s (also SYLLABUS_NO_WAIT=1)`,
    )
    .helpOption('-h, --help', 'show help')
    .showHelpAfterError('(run syllabus --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(errStyle.red(text)),
    })
    .addHelpText('after', `\n${EXIT_HELP}\n${environmentHelp()}\nDocumentation: ${CLI_HOMEPAGE}`);

  /** Wraps a command's action: builds the context, runs it, remembers the outcome. */
  const action =
    <A extends unknown[]>(name: string, body: (ctx: CliContext, ...args: A) => Promise<number>) =>
    async (...args: [...A, Command]): Promise<void> => {
      const command = args[args.length - 1] as Command;
      const ctx = createContext(command.optsWithGlobals<GlobalOptions>(), io);
      finished = { name, ctx };
      // First, so a command that records an update check itself (update) cannot overwrite the news.
      if (name !== DAILY_UPDATE_COMMAND) await announceBackgroundUpdate(ctx.cacheDir, io.stderr).catch(() => undefined);
      try {
        exitCode = await body(ctx, ...(args.slice(0, -1) as A));
      } catch (error) {
        // A script reading --json gets a document either way; the sentence also goes to stderr (below).
        if (error instanceof CliError && command.opts<{ json?: boolean }>().json === true) writeJson(io.stdout, errorOutput(error));
        throw error;
      }
    };

  program
    .command('doctor')
    .description(`check the service and this install, every check at once within ${DOCTOR_DEADLINE_MS / 1000} s; exit 1 when a required check fails`)
    .option('--json', 'print { ok, checks: [{ name, ok, required, timed_out, detail, ms }] } as JSON')
    .addHelpText('after', examples('doctor', 'doctor --json'))
    .action(action('doctor', (ctx, opts: { json?: boolean }) => doctorCommand(ctx, opts)));

  program
    .command('version')
    .description('print the client, Node and platform versions, and the API version when the service answers')
    .option('--json', 'print as JSON')
    .addHelpText('after', examples('version', 'version --json'))
    .action(action('version', (ctx, opts: { json?: boolean }) => versionCommand(ctx, opts)));

  program
    .command('catalog')
    .description('list the courses, or with COURSE_ID that course’s classes and lessons')
    .argument('[COURSE_ID]', `a course id, e.g. ${EXAMPLE_COURSE_ID}`)
    .option('--json', 'print the API’s JSON body')
    .addHelpText('after', examples('catalog', `catalog ${EXAMPLE_COURSE_ID}`, `catalog --json ${EXAMPLE_COURSE_ID}`))
    .action(action('catalog', (ctx, courseId: string | undefined, opts: { json?: boolean }) => catalogCommand(ctx, courseId, opts)));

  program
    .command('changelog')
    .description(`list the latest changelog entries, newest first (${DEFAULT_LIMIT} unless --limit or --since says otherwise)`)
    .option('--limit <N>', `show at most N entries (default ${DEFAULT_LIMIT}; with --since, every entry since then)`)
    .option('--since <YYYY-MM-DD>', 'only entries dated on or after that day')
    .option('--json', 'print the API’s JSON body with the selected entries')
    .addHelpText('after', examples('changelog', 'changelog --limit 3', `changelog --since ${EXAMPLE_SINCE}`, 'changelog --json'))
    .action(action('changelog', (ctx, opts: ChangelogOptions) => changelogCommand(ctx, opts)));

  program
    .command('roadmap')
    .description('list what is planned, by stage (shipped, building, next, exploring), with its items')
    .option('--json', 'print the API’s JSON body')
    .addHelpText('after', examples('roadmap', 'roadmap --json'))
    .action(action('roadmap', (ctx, opts: { json?: boolean }) => roadmapCommand(ctx, opts)));

  program
    .command('update')
    .description('install the newest release, verified against its signed manifest, SHA-256 and size; keeps the previous version')
    .option('--check', `only report whether a newer release exists: exit ${EXIT.updateAvailable} when one does, 0 when up to date`)
    .option('--rollback', 'make the previous version current again (it is kept by every update)')
    .option('--json', 'print the outcome as JSON')
    .addHelpText(
      'after',
      `\nExit codes: 0 up to date or updated; with --check, ${EXIT.updateAvailable} when a newer release exists; 1 the release could not be read, verified or installed; ${EXIT.rateLimited} the release server's read budget is spent.\n` +
        examples('update', 'update --check', 'update --rollback'),
    )
    .action(action('update', (ctx, opts: { check?: boolean; json?: boolean; rollback?: boolean }) => updateCommand(ctx, opts)));

  program.command(DAILY_UPDATE_COMMAND, { hidden: true }).action(
    action(DAILY_UPDATE_COMMAND, async (ctx) => {
      await runDailyUpdate(ctx);
      return EXIT.ok;
    }),
  );

  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end parsing with an "error" that is a success.
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof CliError) {
      io.stderr.write(`${errStyle.red('syllabus:')} ${error.message}\n`);
      exitCode = error.exitCode;
    } else {
      const message = error instanceof Error ? error.message : String(error);
      io.stderr.write(`${errStyle.red('syllabus:')} unexpected error: ${message}. Please report it at ${CLI_HOMEPAGE}.\n`);
      if (debugEnabled(io.env) && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
      exitCode = EXIT.failed;
    }
  }

  if (finished && !NO_DAILY_AFTER.has(finished.name)) {
    try {
      await maybeStartDailyUpdate(io.env, io.stdout.isTTY === true, finished.ctx.cacheDir, finished.ctx.releaseUrl);
    } catch {
      // the background check is best effort and must never change the command's outcome
    }
  }
  return exitCode;
}
