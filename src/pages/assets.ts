/**
 * The site's static files under content-hashed names ({@link contentHashedName}), `/assets/<stem>.<hash>.<ext>`: the
 * base stylesheet, the course colours and the icon. The route table serves them `immutable`, and new bytes are a new
 * URL, which the pages link at once. Any other name under `/assets/` (an earlier hash, the former `/assets/site.css`)
 * names nothing and is a 404.
 */
import type { Course } from '../schemas/types.generated.js';
import { assetPath } from './paths.js';
import { BASE_STYLESHEET, courseColorRules } from './styles.js';

/** The site icon: three lines of a syllabus on a rounded square. Pure shapes, no fonts or scripts. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#3572a5"/><stop offset="1" stop-color="#7a4fd0"/></linearGradient></defs>
<rect width="32" height="32" rx="8" fill="url(#g)"/>
<rect x="8" y="9" width="16" height="3" rx="1.5" fill="#fff"/>
<rect x="8" y="15" width="12" height="3" rx="1.5" fill="#fff"/>
<rect x="8" y="21" width="14" height="3" rx="1.5" fill="#fff"/>
</svg>
`;

/** `Content-Type` of the icon (also at `/favicon.ico`). */
export const ICON_TYPE = 'image/svg+xml';
const CSS_TYPE = 'text/css; charset=utf-8';

/** SHA-256 of some bytes, base64url without padding: the index's codec digest (`IndexCodec.digest`). */
export type Digest = (body: Uint8Array) => string;

/** One site asset: its hashed path and what to serve there. */
export interface SiteAsset {
  readonly path: string;
  readonly contentType: string;
  readonly body: string;
}

/** The assets every page shell links, the same for every catalog: the base stylesheet and the icon. */
export interface ShellAssets {
  readonly stylesheet: SiteAsset;
  readonly icon: SiteAsset;
}

/** What a page's `<head>` links: stylesheets in cascade order, and the icon. */
export interface ShellLinks {
  readonly stylesheets: readonly string[];
  readonly icon: string;
}

/**
 * Digest characters in a name: 16 base64url characters, 96 bits. Ample against an accidental collision among a
 * handful of files; a URL still short enough to read.
 */
const NAME_HASH_LENGTH = 16;
const encoder = new TextEncoder();

/**
 * The name a file is served under wherever its URL is `immutable` (`/assets/`, `/docs/assets/`): `<stem>.<hash>.<ext>`
 * for `<stem>.<ext>` (`swagger-ui.css` → `swagger-ui.<hash>.css`), the hash a digest of its bytes. So the bytes at a
 * name never change, and new bytes are a new name. base64url has no `.` or `/`: the name stays one segment.
 * @param file a name with an extension (`site.css`).
 * @throws Error when `file` has no extension.
 */
export function contentHashedName(file: string, body: Uint8Array, digest: Digest): string {
  const dot = file.lastIndexOf('.');
  if (dot <= 0) throw new Error(`asset name without an extension: ${JSON.stringify(file)}`);
  return `${file.slice(0, dot)}.${digest(body).slice(0, NAME_HASH_LENGTH)}${file.slice(dot)}`;
}

function hashedAsset(stem: string, ext: string, contentType: string, body: string, digest: Digest): SiteAsset {
  return { path: assetPath(contentHashedName(`${stem}.${ext}`, encoder.encode(body), digest)), contentType, body };
}

/** The base stylesheet and the icon, named by their bytes. */
export function shellAssets(digest: Digest): ShellAssets {
  const shell = {
    stylesheet: hashedAsset('site', 'css', CSS_TYPE, BASE_STYLESHEET, digest),
    icon: hashedAsset('favicon', 'svg', ICON_TYPE, FAVICON_SVG, digest),
  };
  return shell;
}

/** The course colours of a catalog (`/assets/courses.<hash>.css`), or `undefined` when it has no course. */
export function courseStylesheet(courses: readonly Pick<Course, 'id' | 'color'>[], digest: Digest): SiteAsset | undefined {
  // Picking readable inks is most of a reload's page work, and a lesson edit never changes a colour: the last
  // stylesheet is kept with what it was made from.
  const key = courses.map(({ id, color }) => `${id} ${color}`).join('\n');
  if (lastColours?.key === key && lastColours.digest === digest) return lastColours.asset;
  const rules = courseColorRules(courses);
  const asset = rules === '' ? undefined : hashedAsset('courses', 'css', CSS_TYPE, `/* Course colours */\n${rules}`, digest);
  lastColours = { key, digest, asset };
  return asset;
}

/** The last course stylesheet made, with the course ids and colours and the digest it was made from. */
let lastColours: { key: string; digest: Digest; asset: SiteAsset | undefined } | undefined;

/** What a page links: the base stylesheet, then the course colours if any, and the icon. */
export function shellLinks(shell: ShellAssets, courses?: SiteAsset): ShellLinks {
  return { stylesheets: courses ? [shell.stylesheet.path, courses.path] : [shell.stylesheet.path], icon: shell.icon.path };
}
