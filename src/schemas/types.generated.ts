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
