/**
 * Error pages for HTML clients (`Accept: text/html`): 404, 429 and 500. Small, self-explanatory, with the same
 * shell and base stylesheet as every page; the app sends them with {@link PAGE_HEADERS}. API paths keep their JSON.
 * They show no content, so they link only the content-independent assets (no course colours): a page cached by
 * the app stays valid across content reloads: `links` is `shellLinks(shellAssets(digest))`, as the pages name them.
 */
import type { TooManyRequestsBody } from '../contract/rate-limits.js';
import type { ShellLinks } from './assets.js';
import { count, html } from './html.js';
import { HOME_PATH, CHANGELOG_PATH, DOCS_PATH } from './paths.js';
import { page } from './layout.js';

export { PAGE_HEADERS, HTML_TYPE } from './headers.js';

/** The 404 page: an unknown path or an unknown course. */
export function renderNotFoundPage(links: ShellLinks, what: 'page' | 'course' = 'page'): string {
  const course = what === 'course';
  return page({
    links,
    title: course ? 'Course not found' : 'Page not found',
    description: 'This page does not exist.',
    path: '',
    body: html`<div class="error-page">
      <p class="error-code">404</p>
      <h1>${course ? 'We have no course at this address' : 'This page does not exist'}</h1>
      <p>${course ? 'The course may have been renamed, or the link has a typo.' : 'The link may be broken, or the page may have moved.'}</p>
      <p><a href="${HOME_PATH}">See every course on the course map</a>, or read the <a href="${CHANGELOG_PATH}">changelog</a>.</p>
    </div>`,
  });
}

/**
 * The 429 page for a page request over its budget: the same explanation as the JSON body (which budget ran out,
 * the larger budgets a client could reach and how, when to retry, the documentation).
 * @param why the refusal, as the JSON 429 body states it (`retry_after_seconds` is the `Retry-After` value).
 * @param links the stylesheet and icon to link.
 */
export function renderTooManyRequestsPage(links: ShellLinks, why: TooManyRequestsBody): string {
  const raw = why.retry_after_seconds;
  const seconds = Math.max(1, Math.ceil(Number.isFinite(raw) ? raw : 1));
  const { budget } = why;
  return page({
    links,
    title: 'Too many requests',
    description: 'You have reached the request limit for now.',
    path: '',
    body: html`<div class="error-page">
      <p class="error-code">429</p>
      <h1>Slow down a little</h1>
      <p>
        You have made many requests in a short time. Please try again in <strong data-retry-after="${seconds}">${count(seconds, 'second')}</strong>.
      </p>
      <p data-budget="${budget.name}" data-client-kind="${budget.client_kind}" data-policy="${budget.policy}">
        Your budget: ${count(budget.limit, 'request')} per ${count(budget.window_seconds, 'second')} (${BUDGET_NAMES[budget.name]}, as
        ${KIND_NAMES[budget.client_kind]}).
      </p>
      ${
        why.larger_budgets.length === 0
          ? ''
          : html`<p>Building something on our data? A larger budget:</p>
              <ul>
                ${why.larger_budgets.map(
                  (b) =>
                    html`<li data-client-kind="${b.client_kind}" data-policy="${b.policy}">
                      ${count(b.limit, 'request')} per ${count(b.window_seconds, 'second')}: ${b.how} <a href="${b.documentation_url}">How</a>
                    </li>`,
                )}
              </ul>`
      }
      <p>
        The <a href="${why.documentation_url}" data-documentation>rate limits are documented</a>; the
        <a href="${DOCS_PATH}">API reference</a> describes the API.
      </p>
    </div>`,
  });
}

/** How the page names each budget. */
const BUDGET_NAMES: Readonly<Record<TooManyRequestsBody['budget']['name'], string>> = {
  read: 'per address and client kind',
  address: 'per address, across client kinds',
  referral: 'referral checks per address',
};

/** How the page names each client kind. */
const KIND_NAMES: Readonly<Record<TooManyRequestsBody['budget']['client_kind'], string>> = {
  verified: 'a verified agent',
  declared: 'a named client',
  browser: 'a browser',
  anonymous: 'an anonymous client',
};

/**
 * The 500 page. Never shows error details; shows the request id so a report can be matched to the logs.
 * @param requestId the request's id (as in the `X-Request-Id` response header), when known.
 * @param links the stylesheet and icon to link.
 */
export function renderServerErrorPage(links: ShellLinks, requestId?: string): string {
  return page({
    links,
    title: 'Something went wrong',
    description: 'An unexpected error occurred.',
    path: '',
    body: html`<div class="error-page">
      <p class="error-code">500</p>
      <h1>Something went wrong on our side</h1>
      <p>It is not your fault, and we log every such error. Please try again in a moment.</p>
      ${requestId ? html`<p>If you report it, mention request id <code>${requestId}</code>.</p>` : ''}
      <p><a href="${HOME_PATH}">Back to the course map</a></p>
    </div>`,
  });
}
