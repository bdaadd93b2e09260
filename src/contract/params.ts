/**
 * The path parameters of the API and their constraints: the one place both the request validation (422)
 * and the OpenAPI document (`parameters[].schema`) read them from, so the two cannot disagree.
 */
import defs from '../../schemas/defs.schema.json' with { type: 'json' };

/** Constraints of one string path parameter, checked in this order: min length, max length, pattern. */
export interface PathParamSpec {
  /** Name as written in the route template (`{course_id}`) and in a 422's `loc` (`["path","course_id"]`). */
  readonly name: string;
  /** One-sentence description for the OpenAPI document. */
  readonly description: string;
  /** Minimum length in Unicode code points (as Pydantic counts: `[...value].length`, not UTF-16 units). */
  readonly minLength: number;
  /** Maximum length in Unicode code points. */
  readonly maxLength: number;
  /** ECMAScript regular expression source, anchored, as reported in `string_pattern_mismatch`. */
  readonly pattern: string;
  /** An example value for the OpenAPI document. */
  readonly example: string;
}

/**
 * Course, class, lesson, changelog and roadmap ids: lowercase words joined by hyphens. Read from
 * `schemas/defs.schema.json#/$defs/Id`, the one place the grammar is written.
 */
export const ID_PATTERN: string = defs.$defs.Id.pattern;

/** The longest id, in characters (`schemas/defs.schema.json#/$defs/Id`). */
export const ID_MAX_LENGTH: number = defs.$defs.Id.maxLength;

/** `{course_id}` of `/v1/courses/{course_id}`. */
export const COURSE_ID: PathParamSpec = {
  name: 'course_id',
  description: 'The course id: lowercase letters and digits in hyphen-separated words.',
  minLength: defs.$defs.Id.minLength,
  maxLength: ID_MAX_LENGTH,
  pattern: ID_PATTERN,
  example: 'python-foundations',
};

/** `{lesson_id}` of `/v1/lessons/{lesson_id}`. */
export const LESSON_ID: PathParamSpec = {
  name: 'lesson_id',
  description: 'The lesson id: lowercase letters and digits in hyphen-separated words.',
  minLength: defs.$defs.Id.minLength,
  maxLength: ID_MAX_LENGTH,
  pattern: ID_PATTERN,
  example: 'py-variables',
};

/** `{code}` of `/v1/referrals/{code}`: 4 to 64 characters of `[A-Za-z0-9_-]`. */
export const REFERRAL_CODE: PathParamSpec = {
  name: 'code',
  description: 'A referral code: 4 to 64 letters, digits, underscores or hyphens.',
  minLength: 4,
  maxLength: 64,
  pattern: '^[A-Za-z0-9_-]+$',
  example: 'WELCOME-2024',
};
