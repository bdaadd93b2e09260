/**
 * `/courses/{course_id}`: one course, its classes in teaching order, each live class's lessons (metadata only:
 * title, blurb, language, number of steps; never their content) and each class's topics coming soon. A class is
 * `#class-<id>`, a lesson `#lesson-<id>`; their old ids (`aliases`) stay anchor targets too (`old-ids.ts`).
 */
import type { Course, Klass, Lesson } from '../schemas/types.generated.js';
import { courseCounts, statusBadge, type RenderContext } from './common.js';
import { count, html, type SafeHtml } from './html.js';
import { MAIN_ID, page } from './layout.js';
import { courseApiPath, coursePath, HOME_PATH } from './paths.js';
import { courseClass } from './styles.js';
import { NO_OLD_IDS, oldAnchors, oldIdsKey, type OldIds } from './old-ids.js';

/** The old ids that still point into a course page: its classes' (ids in the course) and its lessons'. */
export interface CourseOldIds {
  readonly classes: OldIds;
  readonly lessons: OldIds;
}

const NONE: CourseOldIds = { classes: NO_OLD_IDS, lessons: NO_OLD_IDS };

/** The old ids pointing into a course's page as one string, for the page's render inputs (see `oldIdsKey`). */
export function courseOldIdsKey(course: Course, old: CourseOldIds): string {
  if (old.classes.size + old.lessons.size === 0) return '';
  const classes = oldIdsKey(
    old.classes,
    course.classes.map((k) => k.id),
  );
  const lessons = oldIdsKey(
    old.lessons,
    course.classes.flatMap((k) => k.lessons.map((l) => l.id)),
  );
  return classes === '' && lessons === '' ? '' : `${classes} | ${lessons}`;
}

const classHeadingId = (id: string) => `class-${id}-title`;

/** The element ids the page gives its own elements (an old id's anchor must not repeat one). */
function courseElementIds(course: Course): Set<string> {
  const ids = new Set([MAIN_ID]);
  for (const klass of course.classes) {
    ids.add(`class-${klass.id}`).add(classHeadingId(klass.id));
    for (const lesson of klass.lessons) ids.add(`lesson-${lesson.id}`);
  }
  return ids;
}

function lessonItem(lesson: Lesson, old: OldIds, taken: ReadonlySet<string>): SafeHtml {
  return html`<li class="lesson" id="lesson-${lesson.id}" data-lesson="${lesson.id}">
    ${oldAnchors(old, lesson.id, 'lesson-', taken)}
    <h3>${lesson.title}</h3>
    ${lesson.blurb ? html`<p class="blurb">${lesson.blurb}</p>` : ''}
    <p class="lesson-meta">
      <span class="chip chip-lang" data-lang="${lesson.lang}"><span class="visually-hidden">Language: </span>${lesson.lang}</span>
      <span data-steps="${lesson.steps}">${count(lesson.steps, 'step')}</span>
    </p>
  </li>`;
}

function classSection(klass: Klass, position: number, old: CourseOldIds, taken: ReadonlySet<string>): SafeHtml {
  const soon = klass.status === 'soon';
  const headingId = classHeadingId(klass.id);
  return html`<li class="klass${soon ? ' is-soon' : ''}" id="class-${klass.id}" data-class="${klass.id}">
    ${oldAnchors(old.classes, klass.id, 'class-', taken)}
    <section aria-labelledby="${headingId}">
      <p class="eyebrow">Class ${position}</p>
      <div class="klass-head">
        <h2 id="${headingId}">${klass.name}</h2>
        ${statusBadge(klass.status)}
      </div>
      ${klass.blurb ? html`<p class="blurb">${klass.blurb}</p>` : ''}
      ${
        klass.status === 'live'
          ? html`<p class="klass-stats">
                <span data-count="lessons_live">${count(klass.lessons_live, 'lesson')}</span> live of ${klass.lessons_total} planned ·
                ${count(klass.exercises, 'step')} to try
              </p>
              <ol class="lessons" aria-label="Lessons of ${klass.name}">
                ${klass.lessons.map((lesson) => lessonItem(lesson, old.lessons, taken))}
              </ol>`
          : html`<p class="klass-stats">Not open yet${klass.lessons_total > 0 ? html` · ${count(klass.lessons_total, 'lesson')} planned` : ''}</p>`
      }
      ${
        klass.soon.length > 0
          ? html`<div class="soon-topics">
              <h3>Coming soon</h3>
              <ul>
                ${klass.soon.map((topic) => html`<li data-soon-topic>${topic}</li>`)}
              </ul>
            </div>`
          : ''
      }
    </section>
  </li>`;
}

/** Renders one course's page; `old`: the old ids of its classes and lessons, kept as anchor targets. */
export function renderCoursePage(course: Course, ctx: RenderContext, old: CourseOldIds = NONE): string {
  const taken = old.classes.size + old.lessons.size === 0 ? new Set<string>() : courseElementIds(course);
  const body = html`<nav class="breadcrumb" aria-label="Breadcrumb"><a href="${HOME_PATH}">All courses</a></nav>
    <div class="course-hero ${courseClass(course.id)}" data-course="${course.id}">
      <div class="hero-status">${statusBadge(course.status)}</div>
      <h1>${course.title}</h1>
      ${course.tagline ? html`<p class="tagline">${course.tagline}</p>` : ''} ${course.blurb ? html`<p>${course.blurb}</p>` : ''}
      ${course.status === 'soon' ? html`<p><strong>This course is not open yet.</strong> Here is what we are preparing.</p>` : ''}
      ${courseCounts(course)}
    </div>
    <div class="${courseClass(course.id)}">
      ${
        course.classes.length > 0
          ? html`<ol class="classes">
              ${course.classes.map((k, i) => classSection(k, i + 1, old, taken))}
            </ol>`
          : html`<p>No classes are announced yet.</p>`
      }
    </div>`;
  return page({
    title: course.title,
    description: course.tagline ?? course.blurb ?? `The ${course.title} course on Syllabus.`,
    path: coursePath(course.id),
    publicBaseUrl: ctx.publicBaseUrl,
    links: ctx.links,
    apiPath: courseApiPath(course.id),
    alternates: [{ type: 'application/json', href: courseApiPath(course.id), title: `${course.title} (JSON)` }],
    body,
  });
}
