/* Generated from schemas/ by `npm run generate:validators`. Do not edit by hand. */
import type { ValidateFunction } from 'ajv/dist/2020.js';

/** The validator of each kind of content file. */
declare const validators: {
  readonly "catalog": ValidateFunction;
  readonly "course": ValidateFunction;
  readonly "class": ValidateFunction;
  readonly "lesson": ValidateFunction;
  readonly "changelog": ValidateFunction;
  readonly "roadmap": ValidateFunction;
  readonly "roadmap-item": ValidateFunction;
};
export default validators;
