/**
 * Deprecation headers of API routes, derived from changelog entries that declare `deprecates` (contract §9):
 * `Deprecation` (RFC 9745 §2: `@<unix seconds>` of the announcing entry's date), `Sunset` (RFC 8594: the
 * HTTP-date the route stops being served) and `Link` to the entry (RFC 9745 §3, `rel="deprecation"`).
 */
import type { ContentModel } from '../content/index.js';
import type { Changelog } from '../schemas/types.generated.js';
import { utcMidnightMs } from '../contract/calendar.js';
import { isDeprecatablePath } from '../contract/routes.js';

/**
 * Formatted header fields keyed by the deprecated path as the entry wrote it: a route template
 * (`/v1/courses/{course_id}`: every resource of the route) or one concrete path (`/v1/courses/old-course`).
 */
export type RouteDeprecations = ReadonlyMap<string, Readonly<Record<string, string>>>;

/**
 * The deprecation headers of every deprecated route. When several entries deprecate one route, the earliest
 * sunset wins (ties: the earlier entry), since that is the date clients must act by.
 * @param publicBaseUrl absolute base of the `Link` target, no trailing slash; the link is `<base>/changelog#<id>`.
 * @throws Error when an entry names a path that matches no route or has a malformed date (the content
 *   validator rejects both first; this guards the index's own invariant).
 */
export function routeDeprecations(model: ContentModel, publicBaseUrl: string): RouteDeprecations {
  // The same changelog gives the very same header records, so a reload can tell a resource's fields unchanged by identity.
  const known = computed.get(model.changelog);
  if (known?.publicBaseUrl === publicBaseUrl) return known.deprecations;
  const deprecations = deprecationsOf(model.changelog, publicBaseUrl);
  computed.set(model.changelog, { publicBaseUrl, deprecations });
  return deprecations;
}

/** The deprecations last computed from each changelog (the model shares an unchanged changelog between reloads). */
const computed = new WeakMap<Changelog, { publicBaseUrl: string; deprecations: RouteDeprecations }>();

function deprecationsOf(changelog: Changelog, publicBaseUrl: string): RouteDeprecations {
  const chosen = new Map<string, { entryId: string; date: number; sunset: number }>();
  for (const entry of changelog.entries) {
    for (const dep of entry.deprecates) {
      if (!isDeprecatablePath(dep.path)) {
        throw new Error(`changelog entry ${entry.id} deprecates ${JSON.stringify(dep.path)}, which is not a route of the API`);
      }
      const route = dep.path;
      const candidate = { entryId: entry.id, date: utcMidnightMs(entry.date), sunset: utcMidnightMs(dep.sunset) };
      const current = chosen.get(route);
      if (!current || candidate.sunset < current.sunset || (candidate.sunset === current.sunset && candidate.date < current.date)) {
        chosen.set(route, candidate);
      }
    }
  }
  const out = new Map<string, Readonly<Record<string, string>>>();
  for (const [route, c] of chosen) {
    out.set(route, {
      Deprecation: `@${Math.floor(c.date / 1000)}`,
      Sunset: new Date(c.sunset).toUTCString(),
      Link: `<${publicBaseUrl}/changelog#${c.entryId}>; rel="deprecation"`,
    });
  }
  return out;
}
