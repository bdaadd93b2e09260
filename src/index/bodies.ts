/**
 * The 200 body of every index-backed route of the contract (`source: 'index'` in `src/contract/routes.ts`),
 * computed from the content model. The compiler asks for one function per such route: adding a route to the
 * table without its body here does not build.
 */
import type { ContentModel } from '../content/index.js';
import { apiLinks, type IndexRouteName } from '../contract/routes.js';

/**
 * A route's bodies: for a route without parameters its one body; for a route with one parameter, each
 * `[value, body]` (the value is a valid id, so the path needs no encoding).
 */
export type RouteBodies = (
  | {
      /** @param linkBase what absolute links start with (`PUBLIC_BASE_URL`, no trailing slash), `''` for paths alone. */
      readonly one: (model: ContentModel, linkBase: string) => unknown;
    }
  | { readonly each: (model: ContentModel) => Iterable<readonly [string, unknown]> }
) & {
  /**
   * Whether each body may be made by its first request rather than by the build, when the build defers rendering
   * (`BuildIndexOptions.deferRendering`): a body no other body is put together from (the catalog is made of its
   * courses' bytes, so a course body is made with it) and no start waits for. Default false.
   */
  readonly onFirstRequest?: boolean;
};

/** The JSON body of `/v1/health` (schema Health). */
const V1_HEALTH = { status: 'ok', version: 'v1' } as const;

/** The API root's body by base: the same object each build, so its entry is reused. */
const rootBodies = new Map<string, Record<string, string>>();
function apiRootBody(linkBase: string): Record<string, string> {
  let body = rootBodies.get(linkBase);
  if (body === undefined) rootBodies.set(linkBase, (body = apiLinks(linkBase)));
  return body;
}

/** Every lesson of the catalog, course by course, class by class. */
function* lessons(model: ContentModel) {
  for (const course of model.catalog.courses) for (const klass of course.classes) yield* klass.lessons;
}

/** The bodies, by route name. */
export const ROUTE_BODIES: { readonly [Name in IndexRouteName]: RouteBodies } = {
  apiRoot: { one: (_model, linkBase) => apiRootBody(linkBase) },
  apiHealth: { one: () => V1_HEALTH },
  catalog: { one: (model) => model.catalog },
  course: { each: (model) => model.catalog.courses.map((course) => [course.id, course] as const) },
  // One body per lesson: 10,000 serialisations and hashes a start need not wait for.
  lesson: { each: (model) => Array.from(lessons(model), (lesson) => [lesson.id, lesson] as const), onFirstRequest: true },
  changelog: { one: (model) => model.changelog },
  roadmap: { one: (model) => model.roadmap },
};
