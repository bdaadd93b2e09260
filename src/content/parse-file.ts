/**
 * Parses one content file on its own: its role from its path, its frontmatter against its schema, its body,
 * and every rule that needs no other file. The result is cached by the loader until the file changes.
 */
import { hash } from 'node:crypto';
import type {
  CatalogFrontmatter,
  ChangelogEntryFrontmatter,
  ClassFrontmatter,
  CourseFrontmatter,
  LessonFrontmatter,
  RoadmapFrontmatter,
  RoadmapItemFrontmatter,
} from '../schemas/types.generated.js';
import { dayNumber } from '../contract/calendar.js';
import { FILE_START, FrontmatterLocator, splitFile, type LocalProblem } from './frontmatter.js';
import { idProblem } from './ids.js';
import { LAYOUT_SUMMARY, roleOf, type FileRole } from './layout.js';
import { singleParagraph } from './paragraph.js';
import { allowsLineBreaks, validateFrontmatter } from './schema-validation.js';
import { scanSteps, type StepScan } from './steps.js';
import { unclosedFence } from './fences.js';
import { isDeprecatablePath } from '../contract/routes.js';
import { listRules } from './list-rules.js';
import { positionAt } from './position.js';
import { findForbiddenCharacter, forbiddenCharacterMessage, forEachString } from './text-characters.js';
import { fieldName } from './schema-messages.js';
import { valueAt, withSchemaHint } from './yaml-hints.js';

/** The stage keys in the only order the roadmap may list them. */
export const STAGE_ORDER = ['shipped', 'building', 'next', 'exploring'] as const;

/** The least number of days between a changelog entry and the sunset of a route it deprecates. */
export const MIN_SUNSET_DAYS = 90;

interface Common {
  /** Path relative to the content folder, `/`-separated. */
  rel: string;
  /**
   * SHA-256 of the file's bytes, hex: the input of the folder digest. `undefined` when parsed without it
   * ({@link ParseOptions.digest}).
   */
  sha256: string | undefined;
  /** The raw frontmatter, kept to locate keys when a rule across files fails. */
  yaml: string;
  /** Problems found in this file alone. */
  problems: LocalProblem[];
  /** What this file holds that is valid but likely not meant (a comment cutting a value, a code block left open). */
  warnings: readonly LocalProblem[];
}

/** A parsed file. `data` is present only when the frontmatter is valid against its schema. */
export type ParsedFile =
  | (Common & { kind: 'unknown' })
  | (Common & { kind: 'catalog'; data?: CatalogFrontmatter })
  | (Common & { kind: 'course'; courseId: string; data?: CourseFrontmatter })
  | (Common & { kind: 'class'; courseId: string; classId: string; data?: ClassFrontmatter })
  | (Common & { kind: 'lesson'; courseId: string; classId: string; lessonId: string; data?: LessonFrontmatter; steps: number })
  | (Common & { kind: 'changelog'; entryId: string; date?: string; data?: ChangelogEntryFrontmatter; body?: string })
  | (Common & { kind: 'roadmap'; data?: RoadmapFrontmatter })
  | (Common & { kind: 'roadmap-item'; itemId: string; data?: RoadmapItemFrontmatter; body?: string });

const CHANGELOG_NAME = /^(.+)-(\d{4}-\d{2}-\d{2})$/;
/** Schema keywords that judge a string's characters: after a forbidden-character problem they add nothing. */
const REPEATS_A_CHARACTER_PROBLEM = new Set(['pattern', 'format', 'enum', 'const']);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Options of {@link parseFile}. */
export interface ParseOptions {
  /**
   * Whether to hash the file for the folder digest (`sha256`). Default true; a caller that knows the revision (a
   * Git commit) makes no digest: hashing every byte of a large tree is a visible share of a start.
   */
  digest?: boolean;
}

/**
 * Parses the file at `rel` (relative to the content folder) from its text or its raw bytes (bytes are decoded
 * as UTF-8; invalid UTF-8 is a problem). Never throws for bad content.
 */
export function parseFile(rel: string, content: string | Uint8Array, options: ParseOptions = {}): ParsedFile {
  // Hashing the text hashes its UTF-8 encoding: the file's bytes whenever the text was decoded from valid UTF-8.
  const sha256 = options.digest === false ? undefined : hash('sha256', content, 'hex');
  const role = roleOf(rel);
  const problems: LocalProblem[] = [];
  if (!role) {
    problems.push({ ...FILE_START, message: `unexpected file: it is not part of the content layout (${LAYOUT_SUMMARY})` });
    return { kind: 'unknown', rel, sha256, yaml: '', problems, warnings: NO_WARNINGS };
  }
  problems.push(...idProblems(role));
  let text: string;
  try {
    text = typeof content === 'string' ? content : utf8.decode(content);
  } catch {
    problems.push({ ...FILE_START, message: 'the file is not valid UTF-8 text' });
    return fileOf(role, rel, sha256, '', problems);
  }
  const split = splitFile(text);
  problems.push(...split.problems);
  let warnings = split.warnings;
  const warn = (warning: LocalProblem): void => void (warnings = [...warnings, warning]);
  const locator = new FrontmatterLocator(split.yaml); // parses only if a problem needs a position
  const at = (path: readonly (string | number)[]): { line: number; column: number } => locator.at(path);
  let valid = split.data !== undefined;
  // Control characters and non-characters (text-characters.ts), in every frontmatter string and in the body; a
  // schema complaint about the same value's text (pattern, format, enum) would only repeat it, so it is dropped.
  // Made at the first such character: almost every file has none, and a start parses thousands.
  let characterPaths: Set<string> | undefined;
  let characterPositions: Set<string> | undefined; // a value repeated through a YAML alias is one character, one problem
  forEachString(split.data, (path, value) => {
    const kind = allowsLineBreaks(role.kind, path) ? 'multi-line' : 'one-line';
    const found = findForbiddenCharacter(value, kind);
    if (!found) return;
    valid = false;
    (characterPaths ??= new Set()).add(JSON.stringify(path));
    const position = locator.characterAt(path, found.index);
    characterPositions ??= new Set();
    if (characterPositions.has(`${position.line}:${position.column}`)) return;
    characterPositions.add(`${position.line}:${position.column}`);
    problems.push({ ...position, message: forbiddenCharacterMessage(`"${fieldName(path)}"`, found, kind) });
  });
  const inBody = findForbiddenCharacter(split.body, 'multi-line');
  if (inBody)
    problems.push({ ...positionAt(split.body, inBody.index, split.bodyLine), message: forbiddenCharacterMessage('body', inBody, 'multi-line') });
  if (split.data !== undefined) {
    for (const p of validateFrontmatter(role.kind, split.data)) {
      valid = false;
      if (REPEATS_A_CHARACTER_PROBLEM.has(p.keyword) && characterPaths?.has(JSON.stringify(p.path))) continue;
      const position = at(p.path);
      problems.push({ ...position, message: withSchemaHint(split.yaml, position, p, valueAt(split.data, p.path)) });
    }
  }
  const file = fileOf(role, rel, sha256, split.yaml, problems);
  const data = valid ? split.data : undefined;
  const report = (path: readonly (string | number)[], message: string): void => void problems.push({ ...at(path), message });

  switch (file.kind) {
    case 'catalog':
      file.data = data as CatalogFrontmatter | undefined;
      if (file.data) listRules(file.data.courses, ['courses'], 'course', 'catalog.md', report);
      break;
    case 'course':
      file.data = data as CourseFrontmatter | undefined;
      if (file.data) listRules(file.data.classes, ['classes'], 'class', 'this course', report);
      break;
    case 'class':
      file.data = data as ClassFrontmatter | undefined;
      if (file.data) classRules(file.data, report);
      break;
    case 'lesson': {
      file.data = data as LessonFrontmatter | undefined;
      const scan = scanSteps(split.body);
      file.steps = scan.steps;
      lessonBodyRules(split.body, split.bodyLine, scan, split.data !== undefined, problems, warn);
      break;
    }
    case 'changelog': {
      file.date = changelogDate(file.entryId, problems);
      file.data = data as ChangelogEntryFrontmatter | undefined;
      if (file.data && file.date) deprecationRules(file.data, file.date, report);
      if (split.data !== undefined) file.body = body(split.body, split.bodyLine, problems);
      break;
    }
    case 'roadmap':
      file.data = data as RoadmapFrontmatter | undefined;
      if (file.data) stageOrderRules(file.data, report);
      break;
    case 'roadmap-item':
      file.data = data as RoadmapItemFrontmatter | undefined;
      if (file.data) shippedRules(file.data, report);
      if (split.data !== undefined) file.body = body(split.body, split.bodyLine, problems);
      break;
  }
  file.warnings = warnings;
  return file;
}

/**
 * The rules of a lesson's body: at least one step, and no code block left open (an error when it hides lines that
 * would be steps, since the count served changes; a warning otherwise). `scan` is the scan that counted the body's
 * steps.
 */
function lessonBodyRules(
  markdown: string,
  bodyLine: number,
  scan: StepScan,
  frontmatterRead: boolean,
  problems: LocalProblem[],
  warn: (warning: LocalProblem) => void,
): void {
  const { steps } = scan;
  const fence = unclosedFence(markdown, scan);
  const at = fence && { line: bodyLine + fence.line - 1, column: fence.column };
  if (fence && at) {
    const reopened = fence.reopened && { line: bodyLine + fence.reopened.line - 1, text: fence.reopened.text };
    const runs = reopened ? `it runs past line ${reopened.line}, where ${reopened.text} was meant to open the next block` : 'it runs to the end';
    const close = `hint: close it with a line ${fence.fence} where the code ends${reopened ? ` (before line ${reopened.line})` : ''}`;
    const n = fence.hiddenSteps;
    if (n > 0) {
      const hidden = `${n} "##" line${n === 1 ? '' : 's'} after it ${n === 1 ? 'is' : 'are'} code, not steps (the lesson counts ${steps})`;
      problems.push({ ...at, message: `this code block is never closed: ${runs}, so ${hidden}; ${close}` });
    } else warn({ ...at, message: `this code block is never closed: ${runs}; ${close}` });
  }
  if (steps > 0 || !frontmatterRead) return;
  const message = 'a lesson needs at least one step: its body has no level-2 heading (## …)';
  const unspaced = /^ {0,3}##([^#\s].*)$/m.exec(markdown);
  if (at) {
    const hint = `hint: the code block left open at line ${at.line} hides its headings`;
    problems.push({ line: bodyLine, column: 1, message: `${message}; ${hint}` });
  } else if (unspaced) {
    // At the line that was meant as a heading.
    const { line } = positionAt(markdown, unspaced.index, bodyLine);
    problems.push({ line, column: 1, message: `${message}; hint: a heading needs a space after ##: ## ${unspaced[1]!.trim()}` });
  } else problems.push({ line: bodyLine, column: 1, message });
}

const NO_WARNINGS: readonly LocalProblem[] = Object.freeze([]);

type Report = (path: readonly (string | number)[], message: string) => void;

/**
 * The parsed file: `role` (made by roleOf for this file alone) with the common fields, and no steps yet for a
 * lesson. Assigned, not spread: spreading the six shapes of a role goes through V8's slow path for every file.
 */
function fileOf(role: FileRole, rel: string, sha256: string | undefined, yaml: string, problems: LocalProblem[]): ParsedFile {
  const file = role as ParsedFile;
  file.rel = rel;
  file.sha256 = sha256;
  file.yaml = yaml;
  file.problems = problems;
  file.warnings = NO_WARNINGS;
  if (file.kind === 'lesson') file.steps = 0;
  return file;
}

function idProblems(role: FileRole): LocalProblem[] {
  const checks: [string, string | undefined][] = [];
  if ('courseId' in role) checks.push(['course id', role.courseId]);
  if ('classId' in role) checks.push(['class id', role.classId]);
  if ('lessonId' in role) checks.push(['lesson id', role.lessonId]);
  if ('itemId' in role) checks.push(['roadmap item id', role.itemId]);
  if ('entryId' in role) checks.push(['changelog entry id', role.entryId]);
  const out: LocalProblem[] = [];
  for (const [what, id] of checks) {
    const why = id === undefined ? undefined : idProblem(id);
    if (why) out.push({ ...FILE_START, message: `the ${what} ${JSON.stringify(id)} (from the file's path) ${why}` });
  }
  return out;
}

function changelogDate(entryId: string, problems: LocalProblem[]): string | undefined {
  const m = CHANGELOG_NAME.exec(entryId);
  if (!m) {
    problems.push({ ...FILE_START, message: `a changelog file is named <slug>-<YYYY-MM-DD>.md, got ${JSON.stringify(`${entryId}.md`)}` });
    return undefined;
  }
  if (dayNumber(m[2]!) === undefined) {
    problems.push({ ...FILE_START, message: `the date "${m[2]}" in the file name is not a real calendar date` });
    return undefined;
  }
  return m[2];
}

function body(markdown: string, bodyLine: number, problems: LocalProblem[]): string | undefined {
  const result = singleParagraph(markdown, bodyLine);
  if ('problem' in result) {
    problems.push(result.problem);
    return undefined;
  }
  return result.paragraph;
}

function classRules(data: ClassFrontmatter, report: Report): void {
  if (data.status === 'soon' && data.lessons.length > 0) {
    report(
      ['lessons'],
      `a soon class lists no lessons, but this one lists ${data.lessons.length}; move them to "soon" topics or make the class live`,
    );
  }
  if (data.status === 'live' && data.lessons.length === 0) {
    report(['lessons'], 'a live class has at least one lesson, but "lessons" is empty');
  }
  listRules(data.lessons, ['lessons'], 'lesson', 'this class', report);
  const topics = new Map<string, number>();
  (data.soon ?? []).forEach((topic, i) => {
    const first = topics.get(topic);
    if (first !== undefined) report(['soon', i], `the soon topic "${topic}" is listed twice (also soon[${first}])`);
    else topics.set(topic, i);
  });
}

function deprecationRules(data: ChangelogEntryFrontmatter, date: string, report: Report): void {
  const entryDay = dayNumber(date)!;
  (data.deprecates ?? []).forEach((deprecation, i) => {
    if (!isDeprecatablePath(deprecation.path)) {
      report(['deprecates', i, 'path'], `"deprecates[${i}].path" is not a route of the API: "${deprecation.path}"`);
    }
    const sunsetDay = dayNumber(deprecation.sunset)!;
    if (sunsetDay - entryDay < MIN_SUNSET_DAYS) {
      report(
        ['deprecates', i, 'sunset'],
        `"deprecates[${i}].sunset" must be at least ${MIN_SUNSET_DAYS} days after the entry's date ${date}, got ${deprecation.sunset} (${sunsetDay - entryDay} days)`,
      );
    }
  });
}

function stageOrderRules(data: RoadmapFrontmatter, report: Report): void {
  data.stages.forEach((stage, i) => {
    const expected = STAGE_ORDER[i];
    if (expected !== undefined && stage.key !== expected) {
      report(['stages', i, 'key'], `stage ${i + 1} must be "${expected}", got "${stage.key}" (stages are in the order ${STAGE_ORDER.join(', ')})`);
    }
  });
}

function shippedRules(data: RoadmapItemFrontmatter, report: Report): void {
  if (data.stage === 'shipped' && data.shipped === undefined) {
    report(['stage'], 'a shipped roadmap item must name the changelog entry that shipped it in "shipped"');
  }
  if (data.stage !== 'shipped' && data.shipped !== undefined) {
    report(['shipped'], `"shipped" is only allowed when stage is "shipped", but stage is "${data.stage}"`);
  }
  if (data.stage !== 'shipped' && data.until_shipped !== undefined) {
    report(['until_shipped'], `"until_shipped" is only allowed when stage is "shipped", but stage is "${data.stage}"`);
  }
}
