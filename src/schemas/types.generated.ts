/* Generated from schemas/ by `npm run generate:types`. Do not edit by hand. */

/**
 * Every course, live and soon, in display order.
 */
export interface Catalog {
  courses: Course[];
}

/**
 * Entries newest first; on the same date, by id.
 */
export interface Changelog {
  entries: ChangelogEntry[];
}

export interface ChangelogEntry {
  /**
   * A course, class, lesson, changelog or roadmap id: lowercase letters and digits in hyphen-separated words, at most 64 characters.
   */
  id: string;
  /**
   * A calendar date, YYYY-MM-DD.
   */
  date: string;
  kind: "course" | "class" | "lesson" | "feature";
  title: string;
  blurb: string;
  /**
   * One paragraph of Markdown.
   */
  body: string;
  /**
   * Routes this change deprecates, with their sunset dates.
   *
   * Items: A route this change deprecates and the day it stops being served.
   */
  deprecates: {
    /**
     * A route of the API, as in the OpenAPI document (e.g. /v1/roadmap or /v1/courses/{course_id}).
     */
    path: string;
    /**
     * A calendar date, YYYY-MM-DD.
     */
    sunset: string;
  }[];
}

export interface Course {
  /**
   * A course, class, lesson, changelog or roadmap id: lowercase letters and digits in hyphen-separated words, at most 64 characters.
   */
  id: string;
  title: string;
  tagline: string | null;
  blurb: string | null;
  /**
   * A hex colour #rrggbb.
   */
  color: string;
  /**
   * live: open to learners; soon: announced, not startable.
   */
  status: "live" | "soon";
  /**
   * Classes in teaching order.
   */
  classes: Klass[];
  classes_total: number;
  classes_live: number;
  /**
   * Sum of lessons_live over its classes.
   */
  lessons_live: number;
}

export interface Health {
  status: "ok";
  version: "v1";
}

export interface HTTPValidationError {
  detail: ValidationError[];
}

/**
 * A class of a course (named Klass because class is a keyword in most client languages).
 */
export interface Klass {
  /**
   * A course, class, lesson, changelog or roadmap id: lowercase letters and digits in hyphen-separated words, at most 64 characters.
   */
  id: string;
  /**
   * A course, class, lesson, changelog or roadmap id: lowercase letters and digits in hyphen-separated words, at most 64 characters.
   */
  course_id: string;
  name: string;
  blurb: string | null;
  /**
   * live: open to learners; soon: announced, not startable.
   */
  status: "live" | "soon";
  /**
   * Lessons in teaching order.
   */
  lessons: Lesson[];
  /**
   * Number of lessons built.
   */
  lessons_live: number;
  /**
   * lessons_live plus the number of soon topics.
   */
  lessons_total: number;
  /**
   * Sum of the steps of its lessons.
   */
  exercises: number;
  /**
   * Topics announced but not built yet.
   */
  soon: string[];
}

/**
 * A lesson's metadata. Its step content is never served: steps is a count.
 */
export interface Lesson {
  /**
   * A course, class, lesson, changelog or roadmap id: lowercase letters and digits in hyphen-separated words, at most 64 characters.
   */
  id: string;
  /**
   * A course, class, lesson, changelog or roadmap id: lowercase letters and digits in hyphen-separated words, at most 64 characters.
   */
  course_id: string;
  /**
   * A course, class, lesson, changelog or roadmap id: lowercase letters and digits in hyphen-separated words, at most 64 characters.
   */
  class_id: string;
  title: string;
  blurb: string | null;
  /**
   * The programming language a lesson teaches in, lowercase (python, sql, bash, typescript, …).
   */
  lang: string;
  /**
   * Number of steps (level-2 headings) in the lesson.
   */
  steps: number;
}

/**
 * Whether a referral code is valid. It never identifies the owner.
 */
export interface ReferralCheck {
  valid: boolean;
}

/**
 * Stages in the order shipped, building, next, exploring; a stage with no items is omitted.
 */
export interface Roadmap {
  stages: RoadmapStage[];
}

export interface RoadmapItem {
  /**
   * A course, class, lesson, changelog or roadmap id: lowercase letters and digits in hyphen-separated words, at most 64 characters.
   */
  id: string;
  title: string;
  theme: string;
  stage: "shipped" | "building" | "next" | "exploring";
  /**
   * One paragraph of Markdown.
   */
  body: string;
  /**
   * Id of the changelog entry that shipped it; present on shipped items only.
   */
  shipped?: string;
}

export interface RoadmapStage {
  key: "shipped" | "building" | "next" | "exploring";
  label: string;
  note: string;
  /**
   * Items by order, then title.
   *
   * @minItems 1
   */
  items: RoadmapItem[];
}

/**
 * One invalid request parameter, in the FastAPI / Pydantic v2 shape.
 */
export interface ValidationError {
  /**
   * string_too_short, string_too_long or string_pattern_mismatch.
   */
  type: string;
  loc: (string | number)[];
  msg: string;
  input?: unknown;
  ctx?: {};
}

/** The API's component schema names, one per `schemas/api/<Name>.schema.json`. */
export const API_SCHEMA_NAMES = ["Catalog","Changelog","ChangelogEntry","Course","Health","HTTPValidationError","Klass","Lesson","ReferralCheck","Roadmap","RoadmapItem","RoadmapStage","ValidationError"] as const;

export interface CatalogFrontmatter {
  /**
   * Course ids in display order.
   *
   * Items: A course, class, lesson, changelog or roadmap id: lowercase letters and digits in hyphen-separated words, at most 64 characters.
   */
  courses: string[];
}

/**
 * The body is exactly one paragraph. The date comes from the file name.
 */
export interface ChangelogEntryFrontmatter {
  kind: "course" | "class" | "lesson" | "feature";
  title: string;
  blurb: string;
  /**
   * Items: A route this change deprecates and the day it stops being served.
   */
  deprecates?: {
    /**
     * A route of the API, as in the OpenAPI document (e.g. /v1/roadmap or /v1/courses/{course_id}).
     */
    path: string;
    /**
     * A calendar date, YYYY-MM-DD.
     */
    sunset: string;
  }[];
  /**
   * Ids this resource was published under before: a request for one is redirected (308) to the resource, so a rename never breaks a client. Unique, and never a live id of the same kind.
   *
   * @minItems 1
   *
   * Items: A course, class, lesson, changelog or roadmap id: lowercase letters and digits in hyphen-separated words, at most 64 characters.
   */
  aliases?: string[];
  /**
   * Published ids this change retires for good, on the entry's date: the entry announces their removal, so they may leave the catalog without an alias (docs/content.md, Ids that never break).
   */
  removes?: {
    /**
     * @minItems 1
     *
     * Items: A course, class, lesson, changelog or roadmap id: lowercase letters and digits in hyphen-separated words, at most 64 characters.
     */
    courses?: string[];
    /**
     * Each with its course: a class id means something only within its course.
     *
     * @minItems 1
     */
    classes?: {
      /**
       * A course, class, lesson, changelog or roadmap id: lowercase letters and digits in hyphen-separated words, at most 64 characters.
       */
      course: string;
      /**
       * A course, class, lesson, changelog or roadmap id: lowercase letters and digits in hyphen-separated words, at most 64 characters.
       */
      id: string;
    }[];
    /**
     * @minItems 1
     *
     * Items: A course, class, lesson, changelog or roadmap id: lowercase letters and digits in hyphen-separated words, at most 64 characters.
     */
    lessons?: string[];
    /**
     * @minItems 1
     *
     * Items: A course, class, lesson, changelog or roadmap id: lowercase letters and digits in hyphen-separated words, at most 64 characters.
     */
    changelog?: string[];
  };
}

export interface ClassFrontmatter {
  name: string;
  blurb?: string;
  /**
   * live: open to learners; soon: announced, not startable.
   */
  status: "live" | "soon";
  /**
   * Lesson ids in teaching order (empty for a soon class).
   *
   * Items: A course, class, lesson, changelog or roadmap id: lowercase letters and digits in hyphen-separated words, at most 64 characters.
   */
  lessons: string[];
  /**
   * Topics announced but not built yet.
   */
  soon?: string[];
  /**
   * Ids this resource was published under before: a request for one is redirected (308) to the resource, so a rename never breaks a client. Unique, and never a live id of the same kind.
   *
   * @minItems 1
   *
   * Items: A course, class, lesson, changelog or roadmap id: lowercase letters and digits in hyphen-separated words, at most 64 characters.
   */
  aliases?: string[];
}

export interface CourseFrontmatter {
  title: string;
  blurb?: string;
  tagline?: string;
  /**
   * A hex colour #rrggbb.
   */
  color: string;
  /**
   * live: open to learners; soon: announced, not startable.
   */
  status: "live" | "soon";
  /**
   * Class ids in teaching order.
   *
   * Items: A course, class, lesson, changelog or roadmap id: lowercase letters and digits in hyphen-separated words, at most 64 characters.
   */
  classes: string[];
  /**
   * Ids this resource was published under before: a request for one is redirected (308) to the resource, so a rename never breaks a client. Unique, and never a live id of the same kind.
   *
   * @minItems 1
   *
   * Items: A course, class, lesson, changelog or roadmap id: lowercase letters and digits in hyphen-separated words, at most 64 characters.
   */
  aliases?: string[];
}

/**
 * The body is the lesson itself: one step per level-2 heading (## …).
 */
export interface LessonFrontmatter {
  title: string;
  blurb?: string;
  /**
   * The programming language a lesson teaches in, lowercase (python, sql, bash, typescript, …).
   */
  lang: string;
  /**
   * Ids this resource was published under before: a request for one is redirected (308) to the resource, so a rename never breaks a client. Unique, and never a live id of the same kind.
   *
   * @minItems 1
   *
   * Items: A course, class, lesson, changelog or roadmap id: lowercase letters and digits in hyphen-separated words, at most 64 characters.
   */
  aliases?: string[];
}

/**
 * The body is exactly one paragraph.
 */
export interface RoadmapItemFrontmatter {
  title: string;
  theme: string;
  stage: "shipped" | "building" | "next" | "exploring";
  /**
   * The id of the changelog entry that shipped it; required when stage is shipped, forbidden otherwise.
   */
  shipped?: string;
  /**
   * The stage a shipped item shows in until the changelog entry named by "shipped" is published (its date, 00:00 UTC); default building. Only on shipped items.
   */
  until_shipped?: "building" | "next" | "exploring";
  /**
   * Position within its stage; items without one follow, by title.
   */
  order?: number;
}

export interface RoadmapFrontmatter {
  /**
   * The four stages, in the order shipped, building, next, exploring.
   *
   * @minItems 4
   * @maxItems 4
   */
  stages: {
    key: "shipped" | "building" | "next" | "exploring";
    label: string;
    note: string;
  }[];
}

/**
 * `syllabus catalog --json`: the API's body unchanged — GET /v1/catalog, or GET /v1/courses/{course_id} when a course id is given.
 */
export type CliCatalogOutput = Catalog | Course;

/**
 * `syllabus changelog --json`: the body of GET /v1/changelog with only the selected entries (the latest 10, or as --limit and --since say), newest first.
 */
export type CliChangelogOutput = Changelog;

/**
 * `syllabus doctor --json`: every check of the service and of the install, in a fixed order (they run concurrently, under one overall deadline). Keys are snake_case, as in the API.
 */
export interface CliDoctorOutput {
  /**
   * True when every required check passed (the exit code is then 0, else 1).
   */
  ok: boolean;
  checks: {
    /**
     * Stable identifier of the check, e.g. service-health, api-version, clock-skew, read-budget, cli-version, node-version, install-folder, update-source, last-update-check, auto-update.
     */
    name: string;
    ok: boolean;
    /**
     * Whether a failure of this check makes the doctor fail; other checks only warn.
     */
    required: boolean;
    /**
     * Whether the check was cut short by its timeout (each check has its own, within the doctor's overall deadline); its detail then says after how long.
     */
    timed_out: boolean;
    /**
     * What was found, one line of text.
     */
    detail: string;
    /**
     * How long the check's request took, in milliseconds; null for checks that make no request.
     */
    ms: number | null;
  }[];
}

/**
 * What a command run with --json prints on stdout when it fails (catalog, changelog, roadmap, update): the sentence also written on stderr, and the exit status. `doctor --json` and `version --json` report failures in their own documents instead. Keys are snake_case, as in the API.
 */
export interface CliErrorOutput {
  /**
   * What failed and what to do, one sentence (as on stderr, without the `syllabus:` prefix).
   */
  error: string;
  /**
   * The exit status: 1 a request or check failed, 2 usage error, 75 rate limited (the read budget is spent; `retry_at` says until when).
   */
  exit_code: 1 | 2 | 75;
  /**
   * With exit status 75, when the read budget resets, when the service said so (RFC 3339, UTC); else null.
   */
  retry_at: string | null;
}

/**
 * latest.json, published beside the release archives by `npm run release`: the newest release of the client.
 */
export interface ReleaseManifest {
  /**
   * Semantic version of the release.
   */
  version: string;
  /**
   * The archive (syllabus-<version>.tar.gz): absolute, or relative to the manifest's URL.
   */
  url: string;
  /**
   * SHA-256 of the archive, 64 lowercase hex digits.
   */
  sha256: string;
  /**
   * Size of the archive in bytes.
   */
  size: number;
  /**
   * When the release was built (RFC 3339).
   */
  date: string;
}

/**
 * `syllabus roadmap --json`: the body of GET /v1/roadmap unchanged.
 */
export type CliRoadmapOutput = Roadmap;

/**
 * `syllabus update --rollback --json`: the versions after the switch (running it again switches back). Keys are snake_case, as in the API.
 */
export interface CliRollbackOutput {
  /**
   * The version now current: the one kept before.
   */
  current: string;
  /**
   * The version now kept to go back to: the one current before.
   */
  previous: string;
}

/**
 * `syllabus update [--check] --json`: what the release manifest offers and what was done about it. With --check the exit status is 10 when `newer` is true, else 0. Keys are snake_case, as in the API.
 */
export interface CliUpdateOutput {
  /**
   * The version that was running.
   */
  current: string;
  /**
   * The version the release manifest offers.
   */
  latest: string;
  /**
   * The manifest read (latest.json).
   */
  manifest: string;
  /**
   * Whether the offered version is newer than the running one.
   */
  newer: boolean;
  /**
   * Whether the offered version was downloaded, verified and made current (never with --check).
   */
  installed: boolean;
  /**
   * The folder of the installed version when `installed` is true, else null.
   */
  install_dir: string | null;
  /**
   * The version kept to roll back to when `installed` is true, else null.
   */
  previous: string | null;
}

/**
 * `syllabus version --json`: the client, its runtime, and the API version of the service when it answers. Keys are snake_case, as in the API.
 */
export interface CliVersionOutput {
  /**
   * The client's version (semver).
   */
  cli: string;
  /**
   * The Node.js version running the client, without the leading v.
   */
  node: string;
  /**
   * Whether that Node.js version is one the client supports.
   */
  node_supported: boolean;
  /**
   * Operating system, as Node names it (linux, darwin, win32, …).
   */
  platform: string;
  /**
   * CPU architecture, as Node names it (x64, arm64, …).
   */
  arch: string;
  /**
   * The service asked for its API version.
   */
  base_url: string;
  /**
   * The API version the service reports at /v1/health, or null when it did not answer.
   */
  api: string | null;
  /**
   * Why the API version is unknown, one sentence; null when it is known.
   */
  api_error: string | null;
}
