/** `/`: the course map, every course in display order as a card in its colour. */
import type { Catalog, Course } from '../schemas/types.generated.js';
import { courseCounts, statusBadge, type RenderContext } from './common.js';
import { count, html, type SafeHtml } from './html.js';
import { page } from './layout.js';
import { API_PATHS, coursePath, HOME_PATH } from './paths.js';
import { courseClass } from './styles.js';

function courseCard(course: Course): SafeHtml {
  const soon = course.status === 'soon';
  return html`<li class="course-card ${courseClass(course.id)}${soon ? ' is-soon' : ''}" id="course-${course.id}" data-course="${course.id}">
    ${statusBadge(course.status)}
    <h2><a class="card-link" href="${coursePath(course.id)}">${course.title}</a></h2>
    ${course.tagline ? html`<p class="tagline">${course.tagline}</p>` : ''} ${course.blurb ? html`<p class="blurb">${course.blurb}</p>` : ''}
    ${soon ? html`<p class="soon-note">Not open yet: you can see what is planned, but not start it.</p>` : ''} ${courseCounts(course)}
  </li>`;
}

/** Renders the course map page. */
export function renderHomePage(catalog: Catalog, ctx: RenderContext): string {
  const live = catalog.courses.filter((c) => c.status === 'live').length;
  const lessons = catalog.courses.reduce((n, c) => n + c.lessons_live, 0);
  const body = html`<div class="intro">
      <h1>Course map</h1>
      <p class="lead">
        Short, hands-on programming courses, in the order we suggest taking them. Each lesson is a handful of steps you can try in a few minutes.
      </p>
      <ul class="summary" aria-label="At a glance">
        <li>${count(catalog.courses.length, 'course')}</li>
        <li>${live} live</li>
        <li>${count(lessons, 'lesson')} to take today</li>
      </ul>
    </div>
    ${
      catalog.courses.length > 0
        ? html`<ol class="course-grid" aria-label="Courses">
            ${catalog.courses.map(courseCard)}
          </ol>`
        : html`<p>No courses are published yet.</p>`
    }`;
  return page({
    title: 'Course map',
    description: 'Every Syllabus course with its classes and lessons, live and coming soon.',
    path: HOME_PATH,
    publicBaseUrl: ctx.publicBaseUrl,
    links: ctx.links,
    apiPath: API_PATHS.catalog,
    alternates: [{ type: 'application/json', href: API_PATHS.catalog, title: 'Catalog (JSON)' }],
    body,
  });
}
