/** Small pieces several pages render the same way. */
import type { Course } from '../schemas/types.generated.js';
import type { ShellLinks } from './assets.js';
import { html, type SafeHtml } from './html.js';

/** What every page renderer needs beyond its data. */
export interface RenderContext {
  /** Absolute base URL of the site, no trailing slash (e.g. `https://catalog.syllabus.dev`). */
  publicBaseUrl: string;
  /** This build's stylesheets and icon, under their content-hashed names. */
  links: ShellLinks;
}

/** The status badge of a course or class: `live` or a visible "Coming soon". */
export function statusBadge(status: 'live' | 'soon'): SafeHtml {
  return status === 'live'
    ? html`<span class="badge badge-live" data-status="live">Live</span>`
    : html`<span class="badge badge-soon" data-status="soon">Coming soon</span>`;
}

/** A course's counts as a description list: classes live, classes total, lessons live. */
export function courseCounts(course: Course): SafeHtml {
  return html`<dl class="counts">
    <div>
      <dt>${course.classes_live === 1 ? 'class live' : 'classes live'}</dt>
      <dd data-count="classes_live">${course.classes_live}</dd>
    </div>
    <div>
      <dt>${course.classes_total === 1 ? 'class in total' : 'classes in total'}</dt>
      <dd data-count="classes_total">${course.classes_total}</dd>
    </div>
    <div>
      <dt>${course.lessons_live === 1 ? 'lesson live' : 'lessons live'}</dt>
      <dd data-count="lessons_live">${course.lessons_live}</dd>
    </div>
  </dl>`;
}
