/**
 * A content tree whose lessons are lesson-shaped Markdown: the `*.md` files of the shared corpus beside the checkout
 * (`../shared/corpus`, real teaching material; see its README), read in place, in the layout and with the
 * frontmatter of `generate-content.ts` (which writes everything but the lesson bodies). Built in the benchmark,
 * never committed.
 *
 * Documents are the `*.md` files in the corpus's folders (the corpus's own README at its top is no lesson),
 * deduplicated by content and taken in the order of their SHA-256, so the same corpus gives the same tree whatever
 * the order the file system lists it in. When the tree asks for more lessons than there are documents, they are
 * reused cyclically. A document becomes a lesson body with as few changes as the lesson rules (docs/content.md)
 * require, or is skipped:
 * - not UTF-8: skipped;
 * - a leading byte-order mark is dropped (the body follows our frontmatter);
 * - a lone carriage return (a line break in CommonMark, but a forbidden control character in content) becomes a
 *   line feed;
 * - any other character content forbids: skipped;
 * - no level-2 heading, so no step: a first line `## Overview` is added.
 *
 * Steps are counted as the remark tree has them (the reference the service's count agrees with); whether the
 * service's line scanner answers for the document alone is recorded, since the others go to remark, which costs
 * far more.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countStepsFast, countStepsOnTree } from '../src/content/steps.js';
import { findForbiddenCharacter } from '../src/content/text-characters.js';
import { generateContent, type GeneratedContent } from './generate-content.js';

/**
 * The shared lesson corpus: a sibling of the repository root, not part of it. (Found from this file, not from
 * `lib/build.ts`, whose import would build the service inside `content-load.ts`'s bundle.)
 */
export const LESSON_CORPUS = fileURLToPath(new URL('../../shared/corpus', import.meta.url));

/** Whether {@link LESSON_CORPUS} is there (CI and the benchmark machine have it beside the checkout). */
export const hasLessonCorpus = existsSync(LESSON_CORPUS);

/** One document, ready to be a lesson body. */
export interface RealDocument {
  /** Where it was found, relative to the scanned folder (the first path in code-unit order among identical copies). */
  source: string;
  body: string;
  /** Level-2 headings of `body`. */
  steps: number;
  /** Whether the service's line scanner (`countStepsFast`) counts them, rather than the remark tree. */
  fastPath: boolean;
  /** Whether `## Overview` was added because the document had no level-2 heading. */
  headingAdded: boolean;
  /** Whether lone carriage returns were turned into line feeds. */
  lineBreaksFixed: boolean;
  /** The language of its first fenced code block when it is a valid lesson `lang`, else `markdown`. */
  lang: string;
}

/** The usable documents of a folder, and what was left out. */
export interface DocumentSet {
  /** Ordered by the SHA-256 of their original bytes. */
  documents: RealDocument[];
  /** `*.md` files found. */
  scanned: number;
  /** Files skipped because an identical file was already taken. */
  duplicates: number;
  /** Distinct documents skipped, by reason. */
  skipped: { notUtf8: number; forbiddenCharacter: number };
  /** Total size of the documents' bodies, in bytes (UTF-8). */
  bytes: number;
}

/** The documents behind a lesson corpus, in numbers. */
export interface DocumentSummary extends Omit<DocumentSet, 'documents'> {
  /** Distinct usable documents. */
  documents: number;
  /** Of those: counted by the line scanner, given `## Overview`, with lone carriage returns fixed. */
  fastPath: number;
  headingAdded: number;
  lineBreaksFixed: number;
}

/** What {@link buildRealCorpus} wrote. */
export interface RealCorpus extends GeneratedContent {
  /** Lessons whose document an earlier lesson already used (0 when there are enough documents). */
  reusedLessons: number;
  documents: DocumentSummary;
}

/** The set in numbers. */
export function summariseDocuments(set: DocumentSet): DocumentSummary {
  const { documents, ...rest } = set;
  const count = (f: (d: RealDocument) => boolean): number => documents.filter(f).length;
  return {
    ...rest,
    documents: documents.length,
    fastPath: count((d) => d.fastPath),
    headingAdded: count((d) => d.headingAdded),
    lineBreaksFixed: count((d) => d.lineBreaksFixed),
  };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const LANG = /^[a-z][a-z0-9+#.-]{0,31}$/;
const FIRST_FENCE = /^ {0,3}(?:```|~~~)[ \t]*([^\s`{]+)/m;

/**
 * Reads the `*.md` files in the folders under `root` (default: {@link LESSON_CORPUS}; symbolic links are not
 * followed, files directly in `root` are left out) and prepares each distinct usable one as a lesson body, stopping
 * after `limit` usable documents (default: all).
 * @throws Error when `root` cannot be read (the corpus is missing).
 */
export async function collectDocuments(root = LESSON_CORPUS, limit = Infinity): Promise<DocumentSet> {
  const paths = (await readdir(root, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .filter((path) => path.includes('/'))
    .sort();
  const byHash = new Map<string, { source: string; bytes: Buffer }>();
  for (const source of paths) {
    const bytes = await readFile(join(root, source));
    const digest = createHash('sha256').update(bytes).digest('hex');
    if (!byHash.has(digest)) byHash.set(digest, { source, bytes });
  }
  const set: DocumentSet = {
    documents: [],
    scanned: paths.length,
    duplicates: paths.length - byHash.size,
    skipped: { notUtf8: 0, forbiddenCharacter: 0 },
    bytes: 0,
  };
  for (const digest of [...byHash.keys()].sort()) {
    if (set.documents.length >= limit) break;
    const { source, bytes } = byHash.get(digest)!;
    const document = asLessonBody(source, bytes);
    if (typeof document === 'string') set.skipped[document]++;
    else {
      set.documents.push(document);
      set.bytes += Buffer.byteLength(document.body);
    }
  }
  return set;
}

/** The document as a lesson body, or why it cannot be one. */
function asLessonBody(source: string, bytes: Buffer): RealDocument | 'notUtf8' | 'forbiddenCharacter' {
  let text: string;
  try {
    text = utf8.decode(bytes); // drops a leading byte-order mark
  } catch {
    return 'notUtf8';
  }
  const fixed = text.replace(/\r(?!\n)/g, '\n');
  if (findForbiddenCharacter(fixed, 'multi-line')) return 'forbiddenCharacter';
  let body = fixed;
  let steps = countStepsOnTree(body);
  const headingAdded = steps === 0;
  if (headingAdded) {
    body = `## Overview\n\n${body}`;
    steps = countStepsOnTree(body);
  }
  const fence = FIRST_FENCE.exec(body)?.[1]?.toLowerCase();
  const lang = fence !== undefined && LANG.test(fence) ? fence : 'markdown';
  const fastPath = countStepsFast(body) !== undefined;
  return { source, body, steps, fastPath, headingAdded, lineBreaksFixed: fixed !== text, lang };
}

/**
 * Writes a valid content tree of `lessons` lessons into `dir` whose lesson bodies are `set`'s documents, in order,
 * reused cyclically when there are fewer documents than lessons.
 * @throws Error when `set` holds no document.
 */
export async function buildRealCorpus(dir: string, lessons: number, set: DocumentSet): Promise<RealCorpus> {
  const { documents } = set;
  if (documents.length === 0) throw new Error('no usable Markdown document to build a lesson corpus from');
  const written = await generateContent(dir, {
    lessons,
    lesson: (n) => {
      const doc = documents[(n - 1) % documents.length]!;
      return { title: `Real lesson ${n}`, blurb: `From ${doc.source}.`, lang: doc.lang, body: doc.body, steps: doc.steps };
    },
  });
  return { ...written, reusedLessons: Math.max(0, written.lessons - documents.length), documents: summariseDocuments(set) };
}
