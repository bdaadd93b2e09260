/**
 * What a content tree holds, by one rule shared by the loader, the watcher and `syllabus-content validate`:
 *
 * - entries whose name starts with `.` are skipped, with everything under them (`.git`, editor swap files);
 * - a symbolic link, wherever it is and whatever it points at, is never followed: it is a content problem at its
 *   path ({@link LINK_PROBLEM}), so a link to `/usr` can neither be read nor make the watcher walk `/usr`;
 * - a Git submodule is never read: in a commit a gitlink, in a folder a sub-folder holding a `.git` entry (a
 *   submodule's checkout, or a repository of its own); it is a content problem at its path ({@link SUBMODULE_PROBLEM}),
 *   whether it is checked out or not, so a commit and its checkout are judged alike;
 * - plain `*.md` files in plain folders are content; other plain files are ignored.
 *
 * The content folder itself (the root handed to the loader) may be a link: deployments swap it.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { byCodePoint } from '../contract/order.js';
import { TimeSlice } from './time-slice.js';

/** The message of a symbolic link inside the content tree, reported at its path, line 1, column 1. */
export const LINK_PROBLEM = 'a symbolic link: content is plain files and folders, and links are not followed';

/** The message of a Git submodule inside the content tree, reported at its path, line 1, column 1. */
export const SUBMODULE_PROBLEM =
  'a Git submodule (or a repository of its own): content is plain files and folders, and submodules are not read; ' +
  'hint: copy its Markdown files into the content folder, or move the submodule outside it';

/** What kind of entry a path of the tree is, by the rule above. */
export type EntryKind = 'skipped' | 'link' | 'submodule' | 'folder' | 'markdown' | 'other';

/** The name of the entry that makes a folder a submodule's checkout (a `.git` file) or a repository (a `.git` folder). */
const GIT_ENTRY = '.git';

/** Whether any part of `rel` (`/`-separated, relative to the content folder) starts with `.`. */
export function isHiddenPath(rel: string): boolean {
  // A part starts with `.` where the path does or a `/` is followed by one (no array of parts: every file of the
  // tree is asked, at each load and each watched change).
  return rel.startsWith('.') || rel.includes('/.');
}

/**
 * The kind of the entry at `rel`, from its name and its `lstat` (never `stat`: a link is judged as a link).
 * @param entry anything with the `fs.Dirent`/`fs.Stats` type tests.
 */
export function entryKind(rel: string, entry: { isSymbolicLink(): boolean; isDirectory(): boolean; isFile(): boolean }): EntryKind {
  if (isHiddenPath(rel)) return 'skipped';
  if (entry.isSymbolicLink()) return 'link';
  if (entry.isDirectory()) return 'folder';
  if (entry.isFile()) return rel.endsWith('.md') ? 'markdown' : 'other';
  return 'other'; // sockets, FIFOs, devices: not content, never opened
}

/**
 * {@link entryKind} of the entry `rel` of the folder `dir`, telling a submodule from a folder: a folder holding a
 * `.git` entry (one `lstat` per folder, none per file).
 */
export function folderEntryKind(
  dir: string,
  rel: string,
  entry: { isSymbolicLink(): boolean; isDirectory(): boolean; isFile(): boolean },
): EntryKind {
  const kind = entryKind(rel, entry);
  if (kind !== 'folder') return kind;
  return lstatSync(join(dir, rel, GIT_ENTRY), { throwIfNoEntry: false }) ? 'submodule' : 'folder';
}

/** Whether the hidden path `rel` is the entry that makes its folder a submodule (its appearing changes the folder's kind). */
export function isGitEntry(rel: string): boolean {
  return rel.endsWith(`/${GIT_ENTRY}`) && !isHiddenPath(rel.slice(0, -GIT_ENTRY.length - 1));
}

/**
 * The kind of a Git tree entry at `rel` by the same rule, from its mode instead of an `lstat` (`120000` a link,
 * `100644`/`100755` a file, `160000` a gitlink: the only folder a recursive listing shows, always a submodule).
 */
export function treeEntryKind(rel: string, mode: string): EntryKind {
  const kind = entryKind(rel, {
    isSymbolicLink: () => mode === '120000',
    isDirectory: () => mode === '160000',
    isFile: () => mode.startsWith('100'),
  });
  return kind === 'folder' ? 'submodule' : kind;
}

/** A content tree's entries that matter, as `/`-separated paths relative to its folder, sorted by code point. */
export interface ContentTree {
  /** Every Markdown file. */
  markdown: string[];
  /** Every symbolic link (each a problem). */
  links: string[];
  /** Every submodule (each a problem). */
  submodules: string[];
}

/** Collects the entries of a walk that matter into a {@link ContentTree}: the listing's rule and order, stated once. */
export class ContentTreeListing {
  readonly #markdown: string[] = [];
  readonly #links: string[] = [];
  readonly #submodules: string[] = [];

  /** Takes the entry at `rel` if its kind is one a tree lists. @returns whether `kind` is a folder to walk into. */
  add(rel: string, kind: EntryKind): boolean {
    if (kind === 'markdown') this.#markdown.push(rel);
    else if (kind === 'link') this.#links.push(rel);
    else if (kind === 'submodule') this.#submodules.push(rel);
    return kind === 'folder';
  }

  /** The paths taken so far, unsorted (a watcher reports them as they are found). */
  paths(): string[] {
    return [...this.#markdown, ...this.#links, ...this.#submodules];
  }

  /** The tree, sorted by code point. */
  tree(): ContentTree {
    return { markdown: this.#markdown.sort(byCodePoint), links: this.#links.sort(byCodePoint), submodules: this.#submodules.sort(byCodePoint) };
  }
}

/**
 * Walks `dir` by the rule of the module comment, never following a link below it nor entering a submodule. Each folder is read
 * synchronously (a tree of 10,000 lessons has about 1,100 folders), a slice at a time (time-slice.ts).
 * @throws the `readdir` error (e.g. `ENOENT`, `ENOTDIR`) when `dir` itself cannot be read.
 */
export async function listContentTree(dir: string): Promise<ContentTree> {
  const listing = new ContentTreeListing();
  const folders = [''];
  const slice = new TimeSlice();
  for (let rel = folders.pop(); rel !== undefined; rel = folders.pop()) {
    if (slice.over()) await slice.yield();
    let entries;
    try {
      entries = readdirSync(rel === '' ? dir : join(dir, rel), { withFileTypes: true });
    } catch (err) {
      // A sub-folder removed while we walk (a checkout in progress) is simply gone; the root must exist.
      if (rel !== '' && (err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    for (const entry of entries) {
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (listing.add(childRel, folderEntryKind(dir, childRel, entry))) folders.push(childRel);
    }
  }
  return listing.tree();
}
