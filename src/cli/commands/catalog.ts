/** `syllabus catalog [--json] [COURSE_ID]`: the courses as a table, or one course's classes and lessons. */
import { COURSE_ID, ID_MAX_LENGTH, ID_PATTERN } from '../../contract/params.js';
import { getApiJson, hasArray, statusProblem } from '../api.js';
import type { CliContext } from '../context.js';
import { EXIT, UsageError } from '../errors.js';
import { didYouMean } from '../did-you-mean.js';
import { printable, renderTable, writeJson, type Column } from '../output.js';
import type { Catalog, Course, Klass, Lesson } from '../../schemas/types.generated.js';

const ID = new RegExp(ID_PATTERN);

/** The course id the help and the errors show as an example: the API's own example (src/contract/params.ts). */
export const EXAMPLE_COURSE_ID = COURSE_ID.example;

function isCatalog(value: unknown): value is Catalog {
  return hasArray(value, 'courses');
}

function isCourse(value: unknown): value is Course {
  return hasArray(value, 'classes') && typeof (value as Course).id === 'string';
}

function statusColumn<Row extends { status: string }>(ctx: CliContext): Column<Row> {
  return {
    heading: 'STATUS',
    value: (row) => row.status,
    colour: (text, row) => (row.status === 'live' ? ctx.style.green(text) : ctx.style.dim(text)),
  };
}

function printCatalog(ctx: CliContext, catalog: Catalog): void {
  const columns: Column<Course>[] = [
    { heading: 'ID', value: (c) => c.id, colour: (t) => ctx.style.cyan(t) },
    { heading: 'TITLE', value: (c) => c.title },
    statusColumn<Course>(ctx),
    { heading: 'CLASSES', value: (c) => `${c.classes_live}/${c.classes_total}`, align: 'right' },
    { heading: 'LESSONS', value: (c) => String(c.lessons_live), align: 'right' },
  ];
  ctx.stdout.write(renderTable(catalog.courses, columns, ctx.style));
}

type CourseRow = { kind: 'class'; klass: Klass } | { kind: 'lesson'; lesson: Lesson } | { kind: 'soon'; topic: string };

function printCourse(ctx: CliContext, course: Course): void {
  const { style } = ctx;
  ctx.stdout.write(
    style.bold(
      printable(
        `${course.title} (${course.id}) — ${course.status}, ${course.classes_live}/${course.classes_total} classes live, ${course.lessons_live} lessons`,
      ),
    ) + '\n\n',
  );
  const rows: CourseRow[] = course.classes.flatMap((klass): CourseRow[] => [
    { kind: 'class', klass },
    ...klass.lessons.map((lesson): CourseRow => ({ kind: 'lesson', lesson })),
    ...klass.soon.map((topic): CourseRow => ({ kind: 'soon', topic })),
  ]);
  const columns: Column<CourseRow>[] = [
    {
      heading: 'ID',
      value: (r) => (r.kind === 'class' ? r.klass.id : r.kind === 'lesson' ? `  ${r.lesson.id}` : '  -'),
      colour: (t, r) => (r.kind === 'class' ? style.bold(t) : t),
    },
    {
      heading: 'TITLE',
      value: (r) => (r.kind === 'class' ? r.klass.name : r.kind === 'lesson' ? r.lesson.title : `${r.topic} (soon)`),
      colour: (t, r) => (r.kind === 'soon' ? style.dim(t) : t),
    },
    {
      heading: 'STATUS',
      value: (r) => (r.kind === 'class' ? r.klass.status : r.kind === 'lesson' ? 'live' : 'soon'),
      colour: (t) => (t.trim() === 'live' ? style.green(t) : style.dim(t)),
    },
    {
      heading: 'LESSONS',
      value: (r) => (r.kind === 'class' ? `${r.klass.lessons_live}/${r.klass.lessons_total}` : ''),
      align: 'right',
    },
    {
      heading: 'STEPS',
      value: (r) => (r.kind === 'class' ? String(r.klass.exercises) : r.kind === 'lesson' ? String(r.lesson.steps) : ''),
      align: 'right',
    },
  ];
  ctx.stdout.write(renderTable(rows, columns, style));
}

/**
 * Runs the command.
 * @returns 0; throws CliError (exit 1) when the service fails, UsageError (exit 2) for a malformed course id.
 */
export async function catalogCommand(ctx: CliContext, courseId: string | undefined, options: { json?: boolean }): Promise<number> {
  if (courseId === undefined) {
    const catalog = await getApiJson(ctx, '/v1/catalog', 'catalog', isCatalog);
    if (options.json) writeJson(ctx.stdout, catalog);
    else printCatalog(ctx, catalog);
    return EXIT.ok;
  }
  if (!ID.test(courseId) || courseId.length > ID_MAX_LENGTH) {
    throw new UsageError(
      `${JSON.stringify(courseId)} is not a course id: ids are lowercase letters and digits in hyphen-separated words (e.g. ${EXAMPLE_COURSE_ID}).`,
    );
  }
  const course = await getApiJson(ctx, `/v1/courses/${courseId}`, 'course', isCourse, (status, url) =>
    status === 404 ? noSuchCourse(ctx, courseId) : statusProblem(ctx.baseUrl, status, url),
  );
  if (options.json) writeJson(ctx.stdout, course);
  else printCourse(ctx, course);
  return EXIT.ok;
}

/**
 * Words a 404 for a course id: the catalog is read to tell a missing course (with the nearest ids, "did you mean")
 * from a base URL that serves no API at all, whose error is then the catalog's.
 * @throws CliError when the catalog cannot be read either.
 */
async function noSuchCourse(ctx: CliContext, courseId: string): Promise<string> {
  const catalog = await getApiJson(ctx, '/v1/catalog', 'catalog', isCatalog);
  const guess = didYouMean(
    courseId,
    catalog.courses.map((c) => c.id),
  );
  const missing = `There is no course ${courseId} at ${ctx.baseUrl.href}`;
  return guess ? `${missing}; ${guess} Run syllabus catalog to list the course ids.` : `${missing}; run syllabus catalog to list the course ids.`;
}
