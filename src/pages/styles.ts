/**
 * The site's two stylesheets. The base rules (`/assets/site.<hash>.css`) are static: the same bytes for every
 * catalog, so their URL changes only with a release, and the error pages (rendered outside any index build) link
 * them too. The course colours (`/assets/courses.<hash>.css`, after the base in the cascade) set one rule per
 * course as CSS custom properties (the pages never use inline styles, so a strict CSP holds), with text
 * variants computed to reach WCAG AA contrast in both colour schemes.
 */
import type { Course } from '../schemas/types.generated.js';
import { mix, readableOn, textOn } from './colors.js';
import { DARK, LIGHT } from './theme.js';

/** The CSS class carrying a course's colour properties. Ids are `[a-z0-9-]`, so always a valid class name. */
export function courseClass(courseId: string): string {
  return `c-${courseId}`;
}

/**
 * One rule per course: `--course` (the colour as given, for bands and borders), `--course-ink` (text and links
 * in that colour, ≥ 4.5:1 on page and card backgrounds), `--course-field` (a large area in that colour: the
 * colour itself in light, deepened in dark) and `--course-on` (text drawn on the field, ≥ 4.5:1).
 */
export function courseColorRules(courses: readonly Pick<Course, 'id' | 'color'>[]): string {
  const light: string[] = [];
  const dark: string[] = [];
  for (const { id, color } of courses) {
    const cls = courseClass(id);
    const ink = readableOn(color, [LIGHT.surface, LIGHT.bg]);
    const darkInk = readableOn(color, [DARK.surface, DARK.bg]);
    // A full-strength colour field glares on a dark page: deepen it toward the page there.
    const darkField = mix(color, DARK.bg, 0.45);
    light.push(`.${cls}{--course:${color};--course-ink:${ink};--course-field:${color};--course-on:${textOn(color)}}`);
    dark.push(`.${cls}{--course-ink:${darkInk};--course-field:${darkField};--course-on:${textOn(darkField)}}`);
  }
  if (light.length === 0) return '';
  return `${light.join('\n')}\n@media (prefers-color-scheme: dark){\n${dark.join('\n')}\n}\n`;
}

/** The base stylesheet: every rule but the course colours; the same for every catalog. */
export const BASE_STYLESHEET = /* css */ `
:root {
  color-scheme: light dark;
  --bg: ${LIGHT.bg};
  --surface: ${LIGHT.surface};
  --ink: #1b1c1f;
  --muted: #4d535d;
  --line: #dcd8cd;
  --link: #1f4fbf;
  --focus: #0b57d0;
  --live-bg: #e2f3e7; --live-ink: #1a6332;
  --soon-bg: #fcefd2; --soon-ink: #744800;
  --chip-bg: #efede6; --chip-ink: #33363c;
  --course: #5b6170; --course-ink: #3d424c; --course-field: #5b6170; --course-on: #ffffff;
  --radius: 14px;
  --shadow: 0 1px 2px rgb(0 0 0 / 6%), 0 4px 16px rgb(0 0 0 / 5%);
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  font-size: 106.25%;
  line-height: 1.6;
  -webkit-text-size-adjust: 100%;
  text-size-adjust: 100%;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: ${DARK.bg};
    --surface: ${DARK.surface};
    --ink: #eaeaee;
    --muted: #aab1bc;
    --line: #2e343e;
    --link: #8fb6ff;
    --focus: #8fb6ff;
    --live-bg: #15301f; --live-ink: #8fdcaa;
    --soon-bg: #37290b; --soon-ink: #f3c86d;
    --chip-bg: #262b34; --chip-ink: #d5d9e0;
    --course-ink: #c9ced8;
    --shadow: 0 1px 2px rgb(0 0 0 / 40%);
  }
}
*, *::before, *::after { box-sizing: border-box; }
html { background: var(--bg); color: var(--ink); }
body { margin: 0; min-height: 100vh; display: flex; flex-direction: column; }
main { flex: 1; padding-block: 2rem 3.5rem; }
h1, h2, h3 { line-height: 1.2; margin: 0 0 .5rem; text-wrap: balance; }
h1 { font-size: clamp(1.9rem, 1.4rem + 2vw, 2.6rem); letter-spacing: -.02em; }
h2 { font-size: 1.45rem; letter-spacing: -.01em; }
h3 { font-size: 1.1rem; }
p { margin: 0 0 .75rem; }
a { color: var(--link); text-underline-offset: .18em; text-decoration-thickness: .08em; }
a:hover { text-decoration-thickness: .14em; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 3px; border-radius: 4px; }
code { font-family: ui-monospace, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace; font-size: .92em;
  background: var(--chip-bg); color: var(--chip-ink); padding: .05em .35em; border-radius: 5px; }
.wrap { width: 100%; max-width: 72rem; margin-inline: auto; padding-inline: 1.25rem; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; }

/* Skip link: hidden until focused from the keyboard. */
.skip { position: absolute; left: 1rem; top: -10rem; z-index: 10; background: var(--surface); color: var(--ink);
  padding: .6rem 1rem; border-radius: 8px; box-shadow: var(--shadow); }
.skip:focus { top: 1rem; }

/* Header and navigation */
.site-header { background: var(--surface); border-bottom: 1px solid var(--line); }
.site-header .wrap { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between;
  gap: .5rem 1.5rem; padding-block: .8rem; }
.brand { display: inline-flex; align-items: center; gap: .55rem; font-weight: 750; font-size: 1.2rem;
  color: var(--ink); text-decoration: none; letter-spacing: -.01em; }
.brand img { width: 1.6rem; height: 1.6rem; display: block; }
.site-nav ul { display: flex; flex-wrap: wrap; gap: .25rem; list-style: none; margin: 0; padding: 0; }
.site-nav a { display: block; padding: .4rem .75rem; border-radius: 999px; color: var(--ink); text-decoration: none;
  font-weight: 550; }
.site-nav a:hover { background: var(--chip-bg); }
.site-nav a[aria-current="page"] { background: var(--ink); color: var(--surface); }

/* Footer */
.site-footer { border-top: 1px solid var(--line); color: var(--muted); font-size: .9rem; padding-block: 1.5rem 2rem; }
.site-footer .wrap { display: flex; flex-wrap: wrap; gap: .75rem 2rem; justify-content: space-between; }
.site-footer ul { display: flex; flex-wrap: wrap; gap: .4rem 1.1rem; list-style: none; margin: 0; padding: 0; }
.site-footer a { color: var(--muted); }
.site-footer p { margin: 0; }

/* Page intro */
.intro { max-width: 44rem; margin-bottom: 2rem; }
.lead { font-size: 1.15rem; color: var(--muted); }
.summary { display: flex; flex-wrap: wrap; gap: .5rem; list-style: none; margin: 1rem 0 0; padding: 0; }
.summary li { background: var(--surface); border: 1px solid var(--line); border-radius: 999px; padding: .2rem .8rem;
  font-size: .92rem; }

/* Badges and chips */
.badge { display: inline-block; font-size: .78rem; font-weight: 700; letter-spacing: .04em; text-transform: uppercase;
  padding: .15rem .6rem; border-radius: 999px; white-space: nowrap; vertical-align: middle; }
.badge-live { background: var(--live-bg); color: var(--live-ink); }
.badge-soon { background: var(--soon-bg); color: var(--soon-ink); }
.chip { display: inline-block; font-size: .85rem; padding: .05rem .55rem; border-radius: 6px;
  background: var(--chip-bg); color: var(--chip-ink); }
.chip-lang { font-family: ui-monospace, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace; }

/* Course map */
.course-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 19rem), 1fr)); gap: 1.25rem;
  list-style: none; margin: 0; padding: 0; }
.course-card { position: relative; display: flex; flex-direction: column; background: var(--surface);
  border: 1px solid var(--line); border-radius: var(--radius); box-shadow: var(--shadow); overflow: hidden;
  padding: 1.2rem 1.4rem 1.2rem; border-top: .5rem solid var(--course); }
.course-card.is-soon { border-top-style: dashed; }
.course-card:hover { border-color: var(--course); }
.course-card:has(.card-link:focus-visible) { outline: 3px solid var(--focus); outline-offset: 3px; }
.course-card .card-link:focus-visible { outline: none; }
.course-card > .badge { align-self: flex-start; }
.course-card h2 { font-size: 1.3rem; margin-top: .35rem; }
.card-link { color: var(--course-ink); text-decoration: none; }
.card-link::after { content: ""; position: absolute; inset: 0; }
.card-link:hover { text-decoration: underline; }
.tagline { font-weight: 600; }
.course-card .blurb { color: var(--muted); font-size: .95rem; }
.counts { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; margin: auto 0 0; padding-top: 1rem;
  border-top: 1px solid var(--line); }
.counts div { display: flex; flex-direction: column-reverse; }
.counts dt { font-size: .8rem; color: var(--muted); }
.counts dd { margin: 0; font-size: 1.35rem; font-weight: 750; font-variant-numeric: tabular-nums; line-height: 1.2; }
.soon-note { font-size: .9rem; color: var(--soon-ink); background: var(--soon-bg); border-radius: 8px;
  padding: .45rem .7rem; margin-top: .25rem; }

/* Course page */
.breadcrumb { font-size: .95rem; margin-bottom: 1rem; }
.course-hero { background: var(--course-field); color: var(--course-on); border-radius: calc(var(--radius) + 4px);
  padding: clamp(1.4rem, 1rem + 2vw, 2.5rem); margin-bottom: 2.25rem; }
.course-hero a { color: inherit; }
.course-hero :focus-visible { outline-color: currentColor; }
.course-hero .tagline { font-size: 1.2rem; }
.course-hero p { max-width: 46rem; }
.course-hero .counts { border-top-color: currentColor; max-width: 30rem; }
.course-hero .counts dt { color: inherit; }
.hero-status { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin-bottom: .75rem; }
.classes { list-style: none; margin: 0; padding: 0; display: grid; gap: 1.5rem; }
.klass { background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); box-shadow: var(--shadow);
  padding: 1.4rem 1.4rem 1.1rem; border-left: .4rem solid var(--course); }
.klass.is-soon { border-left-style: dashed; }
.klass-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: .25rem .75rem; }
.eyebrow { font-size: .8rem; font-weight: 700; letter-spacing: .06em; text-transform: uppercase; color: var(--course-ink); margin: 0; }
.klass-head h2 { margin: 0; flex: 1 1 16rem; }
.klass .blurb { color: var(--muted); margin-top: .4rem; }
.klass-stats { font-size: .92rem; color: var(--muted); }
.lessons { list-style: none; margin: 1rem 0 0; padding: 0; counter-reset: lesson; }
.lesson { counter-increment: lesson; display: grid; grid-template-columns: 2.2rem 1fr; gap: .1rem .75rem;
  padding: .8rem 0; border-top: 1px solid var(--line); }
.lesson::before { content: counter(lesson); grid-row: span 3; width: 1.9rem; height: 1.9rem; border-radius: 50%;
  display: grid; place-items: center; font-weight: 700; font-size: .9rem; border: 2px solid var(--course);
  color: var(--course-ink); font-variant-numeric: tabular-nums; }
.lesson h3 { margin: .15rem 0 .1rem; font-size: 1.05rem; }
.lesson p { margin: 0; }
.lesson .blurb { margin: 0; font-size: .95rem; }
.lesson-meta { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: .35rem !important; font-size: .85rem; color: var(--muted); align-items: center; }
.soon-topics { margin-top: 1rem; padding: .8rem 1rem; border-radius: 10px; background: var(--soon-bg); color: var(--soon-ink); }
.soon-topics h3 { font-size: .95rem; margin: 0 0 .3rem; }
.soon-topics ul { margin: 0; padding-left: 1.2rem; }

/* Changelog */
.feed-link { display: inline-flex; align-items: center; gap: .4rem; }
.feed-icon { display: inline-block; width: .95em; height: .95em; border-radius: 3px; background: #c24e00; }
.month { margin-bottom: 2.5rem; }
.month > h2 { font-size: 1rem; text-transform: uppercase; letter-spacing: .08em; color: var(--muted); margin-bottom: 1rem; }
@media (min-width: 62rem) {
  /* Wide screens: months in a column of their own, beside their entries. */
  .month { display: grid; grid-template-columns: 11.5rem minmax(0, 48rem); gap: 1.5rem; }
  .month > h2 { position: sticky; top: 1rem; align-self: start; padding-top: 1.3rem; margin: 0; }
  .changelog-intro { margin-left: 13rem; }
}
.entries { list-style: none; margin: 0; padding: 0; display: grid; gap: 1rem; max-width: 48rem; }
.entry { background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); box-shadow: var(--shadow);
  padding: 1.2rem 1.4rem; scroll-margin-top: 1rem; }
/* An old id of a renamed entry (/changelog#<old id>) is an empty element inside it: the entry shows as the target. */
.entry:target, .entry:has(> [data-old-id]:target) { outline: 3px solid var(--focus); outline-offset: 2px; }
.entry-meta { display: flex; flex-wrap: wrap; gap: .5rem .8rem; align-items: center; font-size: .9rem; color: var(--muted); margin-bottom: .35rem; }
.entry h3 { font-size: 1.2rem; margin-bottom: .25rem; }
.entry h3 a { color: inherit; text-decoration: none; }
.entry h3 a:hover { text-decoration: underline; }
.entry .blurb { color: var(--muted); margin-bottom: .5rem; }
.prose p:last-child { margin-bottom: 0; }
.kind-course { --kind: #6b3fc0; } .kind-class { --kind: #0f6f76; } .kind-lesson { --kind: #1f5fbf; } .kind-feature { --kind: #a3421a; }
@media (prefers-color-scheme: dark) {
  .kind-course { --kind: #c4a8ff; } .kind-class { --kind: #72d3da; } .kind-lesson { --kind: #9cc0ff; } .kind-feature { --kind: #ffab85; }
}
.kind { font-size: .75rem; font-weight: 700; letter-spacing: .05em; text-transform: uppercase; color: var(--kind);
  border: 1.5px solid var(--kind); border-radius: 999px; padding: 0 .55rem; }
.deprecations { margin-top: .9rem; padding: .7rem 1rem; border-radius: 10px; background: var(--soon-bg); color: var(--soon-ink); font-size: .92rem; }
.deprecations h4 { margin: 0 0 .25rem; font-size: .92rem; }
.deprecations ul { margin: 0; padding-left: 1.2rem; }

/* Roadmap */
.stage { margin-bottom: 2.75rem; }
.stage-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: .25rem 1rem; margin-bottom: 1rem; }
.stage-head h2 { margin: 0; display: flex; align-items: center; gap: .6rem; }
.stage-head h2::before { content: ""; width: .8rem; height: .8rem; border-radius: 50%; background: var(--stage); }
.stage-head p { margin: 0; color: var(--muted); }
.stage-shipped { --stage: #2e8b57; } .stage-building { --stage: #d08a00; } .stage-next { --stage: #3b6fd6; } .stage-exploring { --stage: #8a5cc7; }
.items { list-style: none; margin: 0; padding: 0; display: grid; gap: 1rem;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 20rem), 1fr)); }
.item { background: var(--surface); border: 1px solid var(--line); border-top: .3rem solid var(--stage);
  border-radius: var(--radius); box-shadow: var(--shadow); padding: 1.1rem 1.25rem; display: flex; flex-direction: column; }
.item h3 { margin-bottom: .35rem; }
.item .chip { align-self: flex-start; margin-bottom: .6rem; }
.item .prose { color: var(--muted); font-size: .95rem; }
.shipped-in { margin: .75rem 0 0; padding-top: .6rem; border-top: 1px solid var(--line); font-size: .92rem; }

/* Error pages */
.error-page { max-width: 36rem; padding-block: 3rem; }
.error-code { font-size: 1rem; font-weight: 700; color: var(--muted); letter-spacing: .08em; margin-bottom: .25rem; }

@media (max-width: 40rem) {
  main { padding-block: 1.25rem 2.5rem; }
  .site-header .wrap { padding-block: .6rem; }
  .site-nav { flex-basis: 100%; }
  .wrap { padding-inline: 1rem; }
  .site-nav ul { justify-content: space-between; gap: 0; }
  .site-nav a { padding: .3rem .5rem; font-size: .92rem; }
  .lead { font-size: 1.05rem; }
  .course-card, .klass, .entry, .item { padding-inline: 1.1rem; }
  .lesson { grid-template-columns: 1.9rem 1fr; }
  .counts { column-gap: 1rem; }
}
@media (prefers-reduced-motion: no-preference) {
  .course-card, .site-nav a { transition: border-color .15s, background-color .15s; }
}
@media print {
  .site-header, .site-footer, .skip { display: none; }
  .course-card, .klass, .entry, .item { box-shadow: none; }
}
`;
