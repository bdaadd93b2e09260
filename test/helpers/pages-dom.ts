/**
 * Reads the data the web pages show back out of their HTML (parsed with hast-util-from-html, queried with CSS
 * selectors), in the API's shapes, so a test can compare pages and JSON field by field.
 */
import type { Element, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { select, selectAll } from 'hast-util-select';
import { toString } from 'hast-util-to-string';

/** Parses an HTML document. */
export function parseHtml(html: string): Root {
  return fromHtml(html);
}

/** Text content of the first match of `selector` under `node`, trimmed; `undefined` when nothing matches. */
export function textOf(node: Root | Element, selector: string): string | undefined {
  const el = select(selector, node);
  return el === undefined ? undefined : toString(el).replace(/\s+/g, ' ').trim();
}

/** A property of an element as a string (hast names: `dataCourse` for `data-course`, `className`, `href`). */
export function prop(el: Element | undefined, name: string): string | undefined {
  const v = el?.properties[name];
  if (v === undefined || v === null) return undefined;
  return Array.isArray(v) ? v.join(' ') : String(v);
}

/** What a course card on `/` shows. */
export interface CardData {
  id: string;
  title: string;
  href: string;
  status: string;
  tagline?: string;
  blurb?: string;
  classes_live: number;
  classes_total: number;
  lessons_live: number;
}

const num = (s: string | undefined) => (s === undefined ? Number.NaN : Number(s));

/** The course cards of the course map, in page order. */
export function courseCards(root: Root): CardData[] {
  return selectAll('li.course-card', root).map((card) => ({
    id: prop(card, 'dataCourse')!,
    title: textOf(card, 'h2')!,
    href: prop(select('h2 a', card), 'href')!,
    status: prop(select('[data-status]', card), 'dataStatus')!,
    tagline: textOf(card, '.tagline'),
    blurb: textOf(card, '.blurb'),
    classes_live: num(textOf(card, '[data-count=classes_live]')),
    classes_total: num(textOf(card, '[data-count=classes_total]')),
    lessons_live: num(textOf(card, '[data-count=lessons_live]')),
  }));
}

/** What a course page shows. */
export interface CoursePageData {
  id: string;
  title: string;
  status: string;
  counts: { classes_live: number; classes_total: number; lessons_live: number };
  classes: Array<{
    id: string;
    name: string;
    status: string;
    blurb?: string;
    lessons: Array<{ id: string; title: string; blurb?: string; lang: string; steps: number }>;
    soon: string[];
  }>;
}

/** The course, classes, lessons and soon topics of a course page. */
export function coursePage(root: Root): CoursePageData {
  const hero = select('.course-hero', root)!;
  return {
    id: prop(hero, 'dataCourse')!,
    title: textOf(hero, 'h1')!,
    status: prop(select('[data-status]', hero), 'dataStatus')!,
    counts: {
      classes_live: num(textOf(hero, '[data-count=classes_live]')),
      classes_total: num(textOf(hero, '[data-count=classes_total]')),
      lessons_live: num(textOf(hero, '[data-count=lessons_live]')),
    },
    classes: selectAll('li.klass', root).map((k) => ({
      id: prop(k, 'dataClass')!,
      name: textOf(k, 'h2')!,
      status: prop(select('[data-status]', k), 'dataStatus')!,
      blurb: textOf(k, '.klass-head ~ .blurb'),
      lessons: selectAll('li.lesson', k).map((l) => ({
        id: prop(l, 'dataLesson')!,
        title: textOf(l, 'h3')!,
        blurb: textOf(l, '.blurb'),
        lang: prop(select('[data-lang]', l), 'dataLang')!,
        steps: num(prop(select('[data-steps]', l), 'dataSteps')),
      })),
      soon: selectAll('[data-soon-topic]', k).map((t) => toString(t).trim()),
    })),
  };
}

/** What the changelog page shows of each entry, in page order. */
export function changelogEntries(root: Root): Array<{ id: string; date: string; kind: string; title: string; blurb?: string }> {
  return selectAll('li.entry', root).map((e) => ({
    id: prop(e, 'id')!,
    date: prop(select('time', e), 'dateTime')!,
    kind: prop(select('[data-kind]', e), 'dataKind')!,
    title: textOf(e, 'h3')!,
    blurb: textOf(e, '.blurb'),
  }));
}

/** What the roadmap page shows: stages in order, their items, and shipped items' changelog links. */
export function roadmapStages(root: Root): Array<{
  key: string;
  label: string;
  note: string;
  items: Array<{ id: string; title: string; theme: string; shippedHref?: string }>;
}> {
  return selectAll('section.stage', root).map((s) => ({
    key: prop(s, 'dataStage')!,
    label: textOf(s, '.stage-head h2')!,
    note: textOf(s, '.stage-head p')!,
    items: selectAll('li.item', s).map((i) => ({
      id: prop(i, 'dataItem')!,
      title: textOf(i, 'h3')!,
      theme: prop(select('[data-theme]', i), 'dataTheme')!,
      shippedHref: prop(select('a[data-shipped]', i), 'href'),
    })),
  }));
}
