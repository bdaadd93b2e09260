/**
 * The preview's page of one lesson (`/__syllabus/lessons/<id>`), as a learner reads it: its body rendered by the
 * pages' own Markdown pipeline (sanitised, raw HTML dropped), in the site's shell, each step heading numbered by the
 * content library's step rule (`lessonOutline`: the steps `/v1/lessons/{id}` counts, no other), and a mark before
 * every code fence that is never closed, saying what it swallows. Only the preview serves it: production never
 * sends a lesson's body.
 */
import type { Element, ElementContent, Root } from 'hast';
import { visit } from 'unist-util-visit';
import { lessonOutline, lessonPath, readProblemSource, type ContentModel, type LessonOutline, type LessonFence } from '../content/index.js';
import { routeNamed, routePath } from '../contract/routes.js';
import { courseStylesheet, shellAssets, shellLinks, type ShellLinks } from '../pages/assets.js';
import { CONTENT_SECURITY_POLICY, HTML_TYPE, PAGE_HEADERS } from '../pages/headers.js';
import { count, html } from '../pages/html.js';
import { page } from '../pages/layout.js';
import { hastToHtml, sanitisedTree } from '../pages/markdown.js';
import { coursePath, HOME_PATH } from '../pages/paths.js';
import { courseClass } from '../pages/styles.js';
import { nodeCodec } from '../server/node-codec.js';
import type { PreviewResponse } from './error-page.js';
import { allowReloadScript, PREVIEW_PATHS } from './reload-script.js';

const HEADERS = {
  ...PAGE_HEADERS,
  'Content-Type': HTML_TYPE,
  'Content-Security-Policy': allowReloadScript(CONTENT_SECURITY_POLICY),
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex',
};

/** The preview path of a lesson's page. */
export function lessonPagePath(lessonId: string): string {
  return `${PREVIEW_PATHS.lessons}${encodeURIComponent(lessonId)}`;
}

/** The site's own assets (its stylesheet, the favicon): the same for every page, hashed once. */
const SHELL_ASSETS = shellAssets(nodeCodec.digest);

/**
 * The page of the lesson `lessonId` of `model` (the latest valid load), its body read now from `dir`: `200`, or
 * `404` when no live lesson has that id or its file cannot be read.
 * @param dir the content folder (absolute).
 */
export function lessonPage(dir: string, model: ContentModel, lessonId: string): PreviewResponse {
  // The site's stylesheets as its pages name them (src/server/app.ts names them so too), then the preview's.
  const site = shellLinks(SHELL_ASSETS, courseStylesheet(model.catalog.courses, nodeCodec.digest));
  const links = { ...site, stylesheets: [...site.stylesheets, PREVIEW_PATHS.stylesheet] };
  for (const course of model.catalog.courses) {
    for (const klass of course.classes) {
      const lesson = klass.lessons.find((l) => l.id === lessonId);
      if (lesson === undefined) continue;
      const path = lessonPath(course.id, klass.id, lesson.id);
      const text = readProblemSource({ path }, { dir, displayRoot: '' });
      if (text === undefined) return notFound(links, `The file ${path} cannot be read.`);
      const outline = lessonOutline(text);
      const fences = outline.unclosedFences;
      const body = html`<nav class="breadcrumb" aria-label="Breadcrumb">
          <a href="${HOME_PATH}">All courses</a> › <a href="${coursePath(course.id)}#lesson-${lesson.id}">${course.title}</a>
        </nav>
        <p class="preview-note" role="note">Preview: the lesson as a learner reads it. Production never serves a lesson's body.</p>
        <article class="lesson-preview ${courseClass(course.id)}" data-lesson="${lesson.id}">
          <p class="eyebrow">${klass.name}</p>
          <h1>${lesson.title}</h1>
          ${lesson.blurb ? html`<p class="blurb">${lesson.blurb}</p>` : ''}
          <p class="lesson-meta">
            <span class="chip chip-lang" data-lang="${lesson.lang}"><span class="visually-hidden">Language: </span>${lesson.lang}</span>
            <span data-steps="${outline.steps.length}">${count(outline.steps.length, 'step')}</span>
            <code>${path}</code>
          </p>
          ${
            fences.length > 0
              ? html`<p class="preview-mark" role="alert">
                  ${count(fences.length, 'code fence')} never closed: see the ${fences.length === 1 ? 'mark' : 'marks'} below.
                </p>`
              : ''
          }
          <div class="lesson-body">${hastToHtml(numbered(sanitisedTree(outline.tree), outline, path))}</div>
        </article>`;
      const document = page({
        title: `${lesson.title} (preview)`,
        description: lesson.blurb ?? `The lesson ${lesson.title}.`,
        path: coursePath(course.id),
        links,
        apiPath: routePath(routeNamed('lesson'), lesson.id),
        body,
      });
      return { status: 200, headers: { ...HEADERS }, body: document };
    }
  }
  return notFound(links, `No live lesson has the id "${lessonId}".`);
}

/**
 * `tree` (the body's sanitised HTML) with each step heading numbered and given the id `step-<n>`, and a mark before
 * each unclosed fence's block. Elements are matched to the outline's nodes by where their Markdown starts.
 */
function numbered(tree: Root, outline: LessonOutline, path: string): Root {
  const steps = new Map(outline.steps.map((heading, i) => [heading.position!.start.offset!, i + 1]));
  const fences = new Map(outline.unclosedFences.map((fence) => [fence.node.position!.start.offset!, fence]));
  visit(tree, 'element', (node: Element, index, parent) => {
    const offset = node.position?.start.offset;
    if (offset === undefined) return;
    const step = node.tagName === 'h2' ? steps.get(offset) : undefined;
    if (step !== undefined) {
      node.properties = { ...node.properties, id: `step-${step}`, dataStep: step };
      node.children.unshift(
        element('span', { className: ['step-number'] }, [text(`Step ${step}`), element('span', { className: ['visually-hidden'] }, [text(': ')])]),
      );
    }
    const fence = node.tagName === 'pre' ? fences.get(offset) : undefined;
    if (fence !== undefined && parent !== undefined && index !== undefined) {
      node.properties = { ...node.properties, className: ['preview-swallowed'] };
      parent.children.splice(index, 0, fenceMark(fence, path));
      return index + 2; // past the mark and this block
    }
    return undefined;
  });
  return tree;
}

/** The mark before an unclosed fence's block: where it opens, what it swallows, and the fix. */
function fenceMark(fence: LessonFence, path: string): Element {
  const hidden = fence.hiddenSteps;
  const end = fence.reopened
    ? `line ${fence.reopened.line}, where ${fence.reopened.text} was meant to open the next block`
    : fence.runsToEndOf === 'lesson'
      ? 'the end of the lesson'
      : `the end of its ${fence.runsToEndOf}`;
  return element('p', { className: ['preview-mark'], role: 'note', dataUnclosedFence: fence.line }, [
    element('strong', {}, [text('Unclosed code fence. ')]),
    text('The '),
    element('code', {}, [text(fence.fence)]),
    text(` opened on line ${fence.line} of `),
    element('code', {}, [text(path)]),
    text(` is never closed, so everything after it, to ${end}, is one code block`),
    ...(hidden === 0
      ? [text('. ')]
      : [
          text(`; it holds ${count(hidden, 'line')} that start${hidden === 1 ? 's' : ''} with `),
          element('code', {}, [text('##')]),
          text(`, and ${hidden === 1 ? 'it is not' : 'none of them is'} a step. `),
        ]),
    text('Add a line '),
    element('code', {}, [text(fence.fence)]),
    text(' where the code ends.'),
  ]);
}

function element(tagName: string, properties: Element['properties'], children: ElementContent[]): Element {
  return { type: 'element', tagName, properties, children };
}

function text(value: string): ElementContent {
  return { type: 'text', value };
}

function notFound(links: ShellLinks, why: string): PreviewResponse {
  const body = html`<h1>Lesson not found</h1>
    <p>${why} The preview shows the lessons of live classes; open one from its course page.</p>
    <p><a href="${HOME_PATH}">All courses</a></p>`;
  const document = page({ title: 'Lesson not found (preview)', description: why, path: PREVIEW_PATHS.lessons, links, body });
  return { status: 404, headers: { ...HEADERS }, body: document };
}
