/**
 * `syllabus-content diff <base-ref> [<head-ref>]`: what a change does to the public API, in Markdown, on stdout
 * ({@link renderMarkdown}). The head defaults to the working content folder, uncommitted edits included. With
 * `--format github` the summary is also appended to the file `$GITHUB_STEP_SUMMARY` names, and each broken id is
 * an `::error` annotation. Exit status: 0, 1 when the change breaks a published id ({@link brokenIds}, the rule of
 * `validate --base`) or the head is not valid content, 2 on a usage error (a ref that names no commit).
 */
import { randomUUID } from 'node:crypto';
import { appendFile, stat } from 'node:fs/promises';
import { normalize, resolve } from 'node:path';
import { code, diffModels, renderMarkdown } from '../api-diff.js';
import { commitPath, ContentLoader, GitContentError, type LoadResult, type Problem } from '../../content/index.js';
import { ModelIndex, Removals } from '../published-ids.js';
import {
  brokenIdProblems,
  folderDisplay,
  frontmatterOf,
  loadRef,
  publishedBase,
  refLabel,
  removalsOf,
  resolveRef,
  type CommandIo,
  type FrontmatterOf,
  type RefContent,
} from './published-at.js';

/** The output formats of `diff`. */
export const DIFF_FORMATS = ['markdown', 'github'] as const;

/** The end of `diff --help`. */
export const DIFF_HELP = `
Examples:
  syllabus-content diff origin/main                  the working content folder against origin/main
  syllabus-content diff main my-branch               two commits
  syllabus-content diff --format github origin/main  in CI: also $GITHUB_STEP_SUMMARY and ::error annotations

Exit status: 0; 1 when the change breaks an id the base published (as validate --base), the head is
not valid content, or the base is not valid content for another reason than a submodule or link (its ids
cannot be checked); 2 on a usage error (a ref that names no commit). Writers' guide: docs/content.md.`;

/** The arguments of `diff`. */
export interface DiffArgs {
  base: string;
  /** Default: the working content folder. */
  head?: string;
  /** The content folder (it locates the repository and the folder's path in it). */
  dir: string;
  format: (typeof DIFF_FORMATS)[number];
}

/** How the command line prints problems, given by `main.ts` so both commands print them one way. */
export interface ProblemOutput {
  /** Prints problems as `validate` does (`path:line:column: message`, annotations under GitHub Actions). */
  report(problems: readonly Problem[]): void;
  /** A GitHub `::error` workflow command for a problem. */
  annotation(problem: Problem): string;
}

/** Runs `diff` and resolves to its exit status (0, 1 or 2). Never throws for bad input. */
export async function runDiff(args: DiffArgs, io: CommandIo, output: ProblemOutput): Promise<number> {
  const dir = resolve(io.cwd, args.dir);
  if (!(await stat(dir).catch(() => undefined))?.isDirectory()) {
    io.stderr(`syllabus-content: ${args.dir}: not a directory (--dir names the content folder)`);
    return 2;
  }
  let refs;
  try {
    const base = await resolveRef(dir, args.base);
    const head = args.head === undefined ? undefined : await resolveRef(dir, args.head);
    refs = { repo: base.repo, base: base.commit, head: head?.commit };
  } catch (err) {
    if (!(err instanceof GitContentError)) throw err;
    io.stderr(`syllabus-content: diff: ${err.message}`);
    return 2;
  }
  const display = folderDisplay(normalize(args.dir));
  const headRef = args.head;
  let base: RefContent;
  let head: Side;
  try {
    [base, head] = await Promise.all([
      loadRef(refs.repo, args.base, refs.base),
      headRef === undefined || refs.head === undefined
        ? loadWorkingTree(new ContentLoader(dir, { displayRoot: normalize(args.dir) }), display)
        : loadRef(refs.repo, headRef, refs.head).then((content): Side => ({
            result: content.result,
            label: refLabel(content, code),
            frontmatterOf: frontmatterOf(content.files),
            display: (rel) => commitPath(refs.repo, content.commit, rel),
            removals: removalsOf(content.files),
          })),
    ]);
  } catch (err) {
    if (!(err instanceof GitContentError)) throw err;
    io.stderr(`syllabus-content: diff: ${err.message}`);
    return 2;
  }
  const labels = { base: refLabel(base, code), head: head.label };
  if (!head.result.ok) {
    output.report(head.result.problems);
    io.stderr(`syllabus-content: diff: ${head.label} is not valid content; nothing to compare (syllabus-content validate lists the same problems)`);
    return 1;
  }
  const published = publishedBase(base, (line) => io.stderr(line));
  if (published.model === undefined) {
    if (published.problems.length === 0) return 0; // no content folder at the base: everything is new
    output.report(published.problems);
    return 1;
  }
  const baseIndex = new ModelIndex(published.model);
  const headIndex = new ModelIndex(head.result.model, head.removals);
  const diff = diffModels(baseIndex, headIndex, io.now?.() ?? new Date());
  const markdown = renderMarkdown(diff, labels);
  const github = args.format === 'github';
  // Titles are contributors' text: under Actions no line of it may run as a workflow command.
  const token = github ? randomUUID() : '';
  if (github) io.stdout(`::stop-commands::${token}`);
  io.stdout(markdown.trimEnd());
  if (github) io.stdout(`::${token}::`);
  const broken = await brokenIdProblems(diff.broken, headIndex, base.short, head.frontmatterOf, head.display);
  if (github) {
    for (const problem of broken) io.stdout(output.annotation(problem));
    const summary = io.env.GITHUB_STEP_SUMMARY;
    if (!summary) io.stderr('syllabus-content: diff: GITHUB_STEP_SUMMARY is not set, so the summary is only printed');
    else {
      const failed = await appendFile(summary, `${markdown.trimEnd()}\n\n`).then(
        () => undefined,
        (err: NodeJS.ErrnoException) => err.code ?? 'error',
      );
      if (failed) {
        io.stderr(`syllabus-content: diff: cannot append to $GITHUB_STEP_SUMMARY (${failed})`);
        return 2;
      }
    }
  }
  return broken.length > 0 ? 1 : 0;
}

/** The new revision: its load result, how it is named, and how to locate keys in its files. */
interface Side {
  result: LoadResult;
  label: string;
  frontmatterOf: FrontmatterOf;
  display: (rel: string) => string;
  /** The removals its changelog announces. */
  removals: Removals;
}

/** The working folder as the new revision: the loader's own parsed files give the frontmatter and the removals. */
async function loadWorkingTree(loader: ContentLoader, display: (rel: string) => string): Promise<Side> {
  const result = await loader.load();
  const files = loader.parsedFiles();
  return {
    result,
    label: 'the working tree',
    frontmatterOf: frontmatterOf(files),
    display,
    removals: result.ok ? removalsOf(files) : new Removals(),
  };
}
