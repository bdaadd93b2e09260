/**
 * The route of the versioned API nearest to a path that names none, for the `nearest_route` of its 404: the
 * smallest edit distance between the path and each route's template, a parameter taking the path's segment at its
 * place (`/v1/lesson/x` is one edit from `/v1/lessons/x`, so from `/v1/lessons/{lesson_id}`). Ties go to the
 * earlier route of the table, the API's root (`/v1`) first.
 */
import editDistance from 'damerau-levenshtein';
import { API_BASE, ROUTES, templateSegments, type RouteSpec } from './routes.js';

/**
 * Paths longer than this get the API's root without a distance computed: the cost of a 404 stays that of any
 * request whatever a client sends (a distance costs the product of the two lengths).
 */
export const NEAREST_ROUTE_MAX_PATH = 128;

/** The versioned API's routes, in the table's order, with their templates split into segments (`undefined`: a parameter). */
const CANDIDATES = (ROUTES as readonly RouteSpec[])
  .filter((r) => r.path === API_BASE || r.path.startsWith(`${API_BASE}/`))
  .map((r) => ({ path: r.path, segments: templateSegments(r) }));

/**
 * The template of the API route nearest to `path` ({@link NEAREST_ROUTE_MAX_PATH} bounds the work).
 * @param path the URL path as requested (not decoded), below `/v1/`.
 */
export function nearestRoute(path: string): string {
  if (path.length > NEAREST_ROUTE_MAX_PATH) return API_BASE;
  const asked = path.split('/');
  let best = API_BASE;
  let bestSteps = Infinity;
  for (const { path: template, segments } of CANDIDATES) {
    const filled = segments.map((s, i) => s ?? asked[i] ?? '').join('/');
    const steps = editDistance(path, filled).steps;
    if (steps < bestSteps) [best, bestSteps] = [template, steps];
  }
  return best;
}
