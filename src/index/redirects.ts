/**
 * The redirects of one content revision: for each route of the table that allows renaming (`aliases` in
 * `src/contract/routes.ts`) and each old id of its kind in the content's alias table, the `308` answering the old
 * id's path, made once at index build time. Serving one is a map lookup, on the path a 404 would take.
 */
import type { ContentModel } from '../content/index.js';
import { movedBody } from '../contract/errors.js';
import { JSON_TYPE, ROUTES, routePath, type RouteSpec } from '../contract/routes.js';
import type { Redirect, Representation } from './types.js';

/** The body of a redirect that has none (a page's, a trailing slash's). */
export const EMPTY_BODY = new Uint8Array(0);

/** The routes of the table whose ids may be renamed and whose answers the index holds. */
const RENAMABLE = (ROUTES as readonly RouteSpec[]).filter((r) => r.aliases !== undefined && (r.source === 'index' || r.source === 'page'));

/**
 * The redirect of every old id, keyed by the path it makes. An old id whose current resource has no representation
 * at its route gets none (it answers 404, as the current id does).
 * @param representations the index's representations, the pages' among them.
 * @param locationBase absolute base URL put before the current path in `Location` (no trailing slash); default none.
 * @throws Error when an old id's path is also the path of a representation (the content validator keeps an alias
 *   from being a live id; this guards the index's own invariant).
 */
export function buildRedirects(model: ContentModel, representations: ReadonlyMap<string, Representation>, locationBase = ''): Map<string, Redirect> {
  const out = new Map<string, Redirect>();
  for (const route of RENAMABLE) {
    const kind = route.aliases!;
    for (const [old, current] of model.aliases[kind]) {
      const path = routePath(route, old);
      if (representations.has(path)) throw new Error(`the old id ${JSON.stringify(old)} is also served at ${path}`);
      const target = routePath(route, current);
      if (!representations.has(target)) continue;
      out.set(path, {
        location: locationBase + target,
        ...(route.errors === 'json' ? { body: movedBody(kind, old, current), contentType: JSON_TYPE } : { body: EMPTY_BODY, contentType: null }),
        cacheControl: route.cacheControl,
      });
    }
  }
  return out;
}
