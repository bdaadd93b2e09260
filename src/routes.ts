/**
 * The API's route templates, as written in the OpenAPI document. Data only: content/ uses it to check that
 * a changelog entry's `deprecates[].path` names a real route; http/ and the OpenAPI builder route by it.
 */
export const API_ROUTES = [
  '/health',
  '/v1/health',
  '/v1/catalog',
  '/v1/courses/{course_id}',
  '/v1/lessons/{lesson_id}',
  '/v1/changelog',
  '/v1/roadmap',
  '/v1/referrals/{code}',
] as const;

/** One of {@link API_ROUTES}. */
export type ApiRoute = (typeof API_ROUTES)[number];

/**
 * The route template a path belongs to: a template itself (`/v1/courses/{course_id}`) or a concrete path
 * (`/v1/courses/python-basics`) whose parameters are single non-empty segments.
 * @returns the template, or `undefined` when the path matches no route.
 */
export function matchRoute(path: string): ApiRoute | undefined {
  const segments = path.split('/');
  return API_ROUTES.find((route) => {
    const parts = route.split('/');
    if (parts.length !== segments.length) return false;
    return parts.every((part, i) => {
      const seg = segments[i]!;
      return part.startsWith('{') ? seg.length > 0 : part === seg;
    });
  });
}
