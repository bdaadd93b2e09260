/**
 * How `syllabus-content validate` prints problems: `path:line:column: message`, one a line, for CI and pipes; in a
 * terminal each followed by its code frame ({@link codeFrame}).
 */
import { codeFrame, readProblemSource, type ProblemFolder } from './code-frame.js';
import { formatProblem, type Problem } from './model.js';

/** Whether problems get code frames, and whether those are coloured. */
export interface ProblemStyle {
  frames: boolean;
  color: boolean;
}

/**
 * The style for an output stream: frames when it is a terminal or `FORCE_COLOR` asks for colour (any value but
 * empty, `0` or `false`, as in Node and the `supports-color` convention); colour with them unless `NO_COLOR` is set
 * to a non-empty value (https://no-color.org). Piped output, as in CI, stays one plain line per problem.
 */
export function problemStyle(env: NodeJS.ProcessEnv, isTTY: boolean): ProblemStyle {
  const force = env.FORCE_COLOR;
  const frames = isTTY || (force !== undefined && force !== '' && force !== '0' && force !== 'false');
  return { frames, color: frames && !env.NO_COLOR };
}

/**
 * The lines that report `problems` of the loader of `folder`: each `path:line:column: message` (control characters
 * shown as `\u{…}` escapes), and with {@link ProblemStyle.frames} its code frame and an empty line after it. A
 * problem whose file cannot be read (or whose line it does not have) is printed without a frame.
 */
export function problemLines(problems: readonly Problem[], folder: ProblemFolder, style: ProblemStyle): string[] {
  if (!style.frames) return problems.map((problem) => printable(formatProblem(problem)));
  const sources = new Map<string, string | undefined>();
  const out: string[] = [];
  for (const problem of problems) {
    if (!sources.has(problem.path)) sources.set(problem.path, readProblemSource(problem, folder));
    const source = sources.get(problem.path);
    const frame = source === undefined ? '' : codeFrame(source, problem.line, problem.column, { color: style.color });
    out.push(printable(formatProblem(problem)));
    if (frame !== '') out.push(frame, '');
  }
  return out;
}

/** `text` with C0/C1 control characters and DEL shown as `\u{…}` escapes. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`);
}
