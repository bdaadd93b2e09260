/**
 * Reading the service's JSON API: one GET, its status worded as a sentence, its body parsed and checked for the
 * shape the command relies on. Bodies are revalidated with the ETag cache (http.ts).
 */
import { apiUrl } from './config.js';
import { servicePurpose, type CliContext } from './context.js';
import { CliError } from './errors.js';

/** Words a non-200 answer of `url` (the default is {@link statusProblem}); it may ask the service more first. */
type OnStatus = (status: number, url: string) => string | Promise<string>;

/**
 * What a non-200 answer of an API URL means for the user, one sentence: a 5xx or 408 may pass (try again later);
 * any other status will not, so it points at the base URL, which is the service's root. A 404 under a base URL with
 * a path suggests the host's root.
 */
export function statusProblem(baseUrl: URL, status: number, url: string): string {
  if (status >= 500 || status === 408) return `${url} answered ${status}; try again later, or check --base-url.`;
  if (status !== 404) return `${url} answered ${status}; check --base-url (the service's root URL).`;
  if (baseUrl.pathname === '/') return `${url} answered 404: ${baseUrl.href} does not serve the Syllabus API; check --base-url.`;
  return (
    `${url} answered 404: there is no Syllabus API under ${baseUrl.href}. --base-url is the service's root URL ` +
    `(the client adds /v1/… itself); if the service is at its host's root, use ${baseUrl.origin}/`
  );
}

/**
 * GETs the API path `path` (e.g. `/v1/changelog`) and parses its JSON body.
 * @param is whether the body has the shape the command reads (a type guard); `what` names it in the error.
 * @throws CliError when the service cannot be reached, answers another status than 200 (worded by `onStatus`),
 *   does not send JSON, or sends JSON of another shape.
 */
export async function getApiJson<T>(
  ctx: CliContext,
  path: string,
  what: string,
  is: (value: unknown) => value is T,
  onStatus: OnStatus = (status, href) => statusProblem(ctx.baseUrl, status, href),
): Promise<T> {
  const url = apiUrl(ctx.baseUrl, path);
  const response = await ctx.http.getText(url, servicePurpose(ctx));
  if (response.status !== 200) throw new CliError(await onStatus(response.status, url.href));
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    throw new CliError(`${url.href} did not answer with JSON; check that ${ctx.baseUrl.href} is a Syllabus service.`);
  }
  if (!is(body)) throw new CliError(`The ${what} from ${ctx.baseUrl.href} is not in the expected shape; is this client too old for the service?`);
  return body;
}

/** Whether `value` is an object whose `key` is an array (the top level of the API's list bodies). */
export function hasArray(value: unknown, key: string): boolean {
  return typeof value === 'object' && value !== null && Array.isArray((value as Record<string, unknown>)[key]);
}
