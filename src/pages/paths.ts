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
/** `/assets/site.css` */
export const STYLESHEET_PATH: string = routePath(routeNamed('pageAsset'), 'site.css');
/** `/assets/favicon.svg` */
export const ICON_PATH: string = routePath(routeNamed('pageAsset'), 'favicon.svg');

/** The page of one course: `/courses/<id>` (an id needs no encoding). */
export function coursePath(courseId: string): string {
  return routePath(routeNamed('coursePage'), courseId);
}
