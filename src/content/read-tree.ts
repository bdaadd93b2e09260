/**
 * What a content tree holds, by one rule shared by the loader, the watcher and `syllabus-content validate`:
 *
 * - entries whose name starts with `.` are skipped, with everything under them (`.git`, editor swap files);
 * - a symbolic link, wherever it is and whatever it points at, is never followed: it is a content problem at its
 *   path ({@link LINK_PROBLEM}), so a link to `/usr` can neither be read nor make the watcher walk `/usr`;
 * - plain `*.md` files in plain folders are content; other plain files are ignored.
 *
 * The content folder itself (the root handed to the loader) may be a link: deployments swap it.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { byCodePoint } from '../contract/order.js';
import { TimeSlice } from './time-slice.js';

/** The message of a symbolic link inside the content tree, reported at its path, line 1, column 1. */
export const LINK_PROBLEM = 'a symbolic link: content is plain files and folders, and links are not followed';

/** What kind of entry a path of the tree is, by the rule above. */
export type EntryKind = 'skipped' | 'link' | 'folder' | 'markdown' | 'other';

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
 * The kind of a Git tree entry at `rel` by the same rule, from its mode instead of an `lstat` (`120000` a link,
 * `100644`/`100755` a file; a submodule, `160000`, is judged as a folder, which holds nothing in the commit).
 */
export function treeEntryKind(rel: string, mode: string): EntryKind {
  return entryKind(rel, { isSymbolicLink: () => mode === '120000', isDirectory: () => mode === '160000', isFile: () => mode.startsWith('100') });
}

/** A content tree's entries that matter, as `/`-separated paths relative to its folder, sorted by code point. */
export interface ContentTree {
  /** Every Markdown file. */
  markdown: string[];
  /** Every symbolic link (each a problem). */
  links: string[];
}

/** Collects the entries of a walk that matter into a {@link ContentTree}: the listing's rule and order, stated once. */
export class ContentTreeListing {
  readonly #markdown: string[] = [];
  readonly #links: string[] = [];

  /** Takes the entry at `rel` if its kind is one a tree lists. @returns whether `kind` is a folder to walk into. */
  add(rel: string, kind: EntryKind): boolean {
    if (kind === 'markdown') this.#markdown.push(rel);
    else if (kind === 'link') this.#links.push(rel);
    return kind === 'folder';
  }

  /** The paths taken so far, unsorted (a watcher reports them as they are found). */
  paths(): string[] {
    return [...this.#markdown, ...this.#links];
  }

  /** The tree, sorted by code point. */
  tree(): ContentTree {
    return { markdown: this.#markdown.sort(byCodePoint), links: this.#links.sort(byCodePoint) };
  }
}

/**
 * Walks `dir` by the rule of the module comment, never following a link below it. Each folder is read
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
      if (listing.add(childRel, entryKind(childRel, entry))) folders.push(childRel);
    }
  }
  return listing.tree();
}
