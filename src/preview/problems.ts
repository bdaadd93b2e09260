/**
 * Content problems as the preview shows them: each with the lines of its file around `line:column` and a caret
 * under the column, without colour (the error page escapes it). The files are read when the problems arrive, by the
 * content layer's own reader: only regular files inside the content folder, never through a link, bounded.
 */
import { codeFrame, readProblemSource, type Problem } from '../content/index.js';
import type { ShownProblem } from './state.js';

/**
 * `problems` with their frames, in their order. A file that cannot be read, or a position that is not in it,
 * gives no frame.
 * @param contentDir the content folder the problems' paths are relative to (the folder source reports them so).
 */
export function showProblems(contentDir: string, problems: readonly Problem[]): ShownProblem[] {
  const sources = new Map<string, string | undefined>();
  return problems.map((problem) => {
    if (!sources.has(problem.path)) sources.set(problem.path, readProblemSource(problem, { dir: contentDir, displayRoot: '' }));
    const source = sources.get(problem.path);
    const frame = source === undefined ? '' : codeFrame(source, problem.line, problem.column, { color: false });
    return { path: problem.path, line: problem.line, column: problem.column, message: problem.message, frame: frame === '' ? undefined : frame };
  });
}
