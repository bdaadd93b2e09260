/**
 * A content folder as `syllabus-content new` sees it: every file read and parsed by the loader's own rules
 * (`read-tree.ts`, `parse-file.ts`, `build-model.ts`), the model when the folder is valid, and a way to write a set of
 * new and edited files only after checking, in memory, that the folder they make is valid too.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import {
  buildModel,
  formatProblem,
  LINK_PROBLEM,
  SUBMODULE_PROBLEM,
  listContentTree,
  MAX_FILE_BYTES,
  parseFile,
  type DerivedModel,
  type ParsedFile,
  type RelProblem,
} from '../../content/index.js';

/** Exit statuses of `new`: written; refused because of the content; refused because of the command line. */
export const NEW_EXIT = { written: 0, refused: 1, usage: 2 } as const;

/** Why nothing was written, and the exit status that says so. */
export class ScaffoldError extends Error {
  constructor(
    message: string,
    readonly status: (typeof NEW_EXIT)['refused' | 'usage'],
  ) {
    super(message);
  }
}

/** A file to write: new (`before` undefined) or an edit of the text `before`. Paths are relative to the folder, `/`-separated. */
export interface FileChange {
  rel: string;
  text: string;
  before?: string;
}

/** How many problems of an invalid folder are printed before pointing at `validate`. */
const PROBLEMS_SHOWN = 10;
// A byte order mark stays in the text, so an edited file keeps it.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A valid content folder, read once. */
export class ContentFolder {
  private constructor(
    /** The folder, absolute. */
    readonly abs: string,
    /** The folder as the user wrote it: the prefix of printed paths. */
    readonly display: string,
    private readonly texts: ReadonlyMap<string, string>,
    private readonly parsed: ReadonlyMap<string, ParsedFile>,
    /** The model of the folder as it is. */
    readonly model: DerivedModel,
  ) {}

  /**
   * Reads and checks the folder at `abs`.
   * @throws ScaffoldError (usage) when it is not a folder; (refused) when it has problems: new files are only added to
   * valid content, so that what is written is known to validate
   */
  static async open(abs: string, display: string): Promise<ContentFolder> {
    const info = await stat(abs).catch(() => undefined);
    if (!info?.isDirectory()) throw new ScaffoldError(`${display}: not a directory (the content folder; --dir to choose)`, NEW_EXIT.usage);
    const tree = await listContentTree(abs);
    const texts = new Map<string, string>();
    const parsed = new Map<string, ParsedFile>();
    const problems: RelProblem[] = [
      ...tree.links.map((rel) => ({ rel, line: 1, column: 1, message: LINK_PROBLEM })),
      ...tree.submodules.map((rel) => ({ rel, line: 1, column: 1, message: SUBMODULE_PROBLEM })),
    ];
    for (const rel of tree.markdown) {
      const text = await readText(join(abs, rel));
      if (text === undefined) problems.push({ rel, line: 1, column: 1, message: 'cannot read the file as UTF-8 text' });
      else {
        texts.set(rel, text);
        parsed.set(rel, parseFile(rel, text));
      }
    }
    const built = buildModel(parsed.values());
    problems.push(...built.problems);
    if (problems.length > 0 || !built.model) {
      const shown = problems.slice(0, PROBLEMS_SHOWN).map((p) => `  ${formatProblem({ path: posix.join(display, p.rel), ...p })}`);
      const more = problems.length > PROBLEMS_SHOWN ? [`  … and ${problems.length - PROBLEMS_SHOWN} more`] : [];
      throw new ScaffoldError(
        [
          `${display}: the content has ${plural(problems.length, 'problem')}; new adds files only to valid content, so fix ${problems.length === 1 ? 'it' : 'them'} first (syllabus-content validate ${display}):`,
          ...shown,
          ...more,
        ].join('\n'),
        NEW_EXIT.refused,
      );
    }
    return new ContentFolder(abs, display, texts, parsed, built.model);
  }

  /** The text of the file at `rel`, or `undefined` when the folder has no such Markdown file. */
  text(rel: string): string | undefined {
    return this.texts.get(rel);
  }

  /** The path of `rel` as printed: under the folder as the user wrote it. */
  show(rel: string): string {
    return posix.join(this.display, rel);
  }

  /**
   * Checks that the folder with `changes` applied is valid, then writes them: new files first, never over an
   * existing file; edits replace their file in one rename, and only if it still holds the text they were made from.
   * @throws ScaffoldError when the result would not validate (nothing is written), when a file exists or changed
   * meanwhile, or when writing fails (files written by this call are removed again)
   */
  async write(changes: readonly FileChange[]): Promise<void> {
    this.check(changes);
    const created: string[] = [];
    try {
      for (const change of changes.filter((c) => c.before === undefined)) {
        const abs = join(this.abs, change.rel);
        const firstDir = await mkdir(dirname(abs), { recursive: true });
        try {
          await writeFile(abs, change.text, { flag: 'wx' });
        } catch (err) {
          if (firstDir !== undefined) await rm(firstDir, { recursive: true, force: true });
          throw err;
        }
        created.push(firstDir ?? abs);
      }
      for (const change of changes.filter((c) => c.before !== undefined)) await this.replace(change);
    } catch (err) {
      for (const path of created) await rm(path, { recursive: true, force: true });
      if (err instanceof ScaffoldError) throw err;
      const e = err as NodeJS.ErrnoException;
      const path = e.path ? ` ${e.path}` : '';
      if (e.code === 'EEXIST') throw new ScaffoldError(`${path.trim()} already exists: new never overwrites a file`, NEW_EXIT.refused);
      throw new ScaffoldError(`cannot write${path}: ${e.code ?? e.message}; nothing was written`, NEW_EXIT.refused);
    }
  }

  /** Builds the model of the folder with `changes` in memory. */
  private check(changes: readonly FileChange[]): void {
    const files = new Map(this.parsed);
    for (const change of changes) files.set(change.rel, parseFile(change.rel, change.text));
    const { problems } = buildModel(files.values());
    if (problems.length === 0) return;
    const created = new Set(changes.filter((c) => c.before === undefined).map((c) => c.rel));
    // A problem in a new file comes from what was typed (a title with a tab, a colour "red"); any other is the content's.
    const status = problems.every((p) => created.has(p.rel)) ? NEW_EXIT.usage : NEW_EXIT.refused;
    const lines = problems.map((p) => `  ${formatProblem({ path: this.show(p.rel), ...p })}`);
    throw new ScaffoldError(['nothing written: the result would not validate:', ...lines].join('\n'), status);
  }

  private async replace(change: FileChange): Promise<void> {
    const abs = join(this.abs, change.rel);
    if ((await readText(abs)) !== change.before) {
      throw new ScaffoldError(`${this.show(change.rel)} changed while new ran; nothing was written, run it again`, NEW_EXIT.refused);
    }
    // A hidden name: the loader and the watcher skip it (read-tree.ts), so the server never sees a half-written file.
    const temp = join(dirname(abs), `.${randomBytes(6).toString('hex')}.new.tmp`);
    try {
      await writeFile(temp, change.text, { flag: 'wx' });
      await rename(temp, abs);
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      throw err;
    }
  }
}

/** The file at `abs` as UTF-8 text; `undefined` when it cannot be read (gone, a link), is larger than the loader reads, or is not UTF-8. */
async function readText(abs: string): Promise<string | undefined> {
  const handle = await open(abs, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
  if (!handle) return undefined;
  try {
    if ((await handle.stat()).size > MAX_FILE_BYTES) return undefined;
    return utf8.decode(await readFile(handle));
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/** `3 problems`, `1 problem`. */
function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
