/** The pages' own paths, from the contract's route table (one place for every path the service answers). */
import { routeNamed, routePath } from '../contract/routes.js';

/** `/` */
export const HOME_PATH: string = routeNamed('home').path;
/** `/changelog` */
export const CHANGELOG_PATH: string = routeNamed('changelogPage').path;
/** `/changelog.atom` */
export const FEED_PATH: string = routeNamed('changelogFeed').path;
/** `/roadmap` */
export const ROADMAP_PATH: string = routeNamed('roadmapPage').path;
/** `/docs`: the API reference */
export const DOCS_PATH: string = routeNamed('docs').path;
/** `/favicon.ico`: the icon at the name browsers ask for when no page names one */
export const FAVICON_PATH: string = routeNamed('favicon').path;
/** `/robots.txt` */
export const ROBOTS_PATH: string = routeNamed('robots').path;
/** `/sitemap.xml` */
export const SITEMAP_PATH: string = routeNamed('sitemap').path;

/** A site asset: `/assets/<file>` (names are built from digests and fixed stems: no encoding needed). */
export function assetPath(file: string): string {
  return routePath(routeNamed('pageAsset'), file);
}

/** The page of one course: `/courses/<id>` (an id needs no encoding). */
export function coursePath(courseId: string): string {
  return routePath(routeNamed('coursePage'), courseId);
}

/** The API resources the pages link to (a page and its resource never disagree: same index). */
export const API_PATHS = {
  catalog: routeNamed('catalog').path,
  changelog: routeNamed('changelog').path,
  roadmap: routeNamed('roadmap').path,
} as const;

/** The API resource of one course: `/v1/courses/<id>` (an id needs no encoding). */
export function courseApiPath(courseId: string): string {
  return routePath(routeNamed('course'), courseId);
}

/** Whether `path` is the page of a course (the nav marks "Courses" current there). */
export function isCoursePagePath(path: string): boolean {
  return path.startsWith(coursePath(''));
}
