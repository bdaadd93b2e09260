import { describe, expect, it } from 'vitest';
import { COURSE_ID, LESSON_ID, REFERRAL_CODE, type PathParamSpec } from './params.js';
import { checkPathParam, codePointLength, decodePathSegment, errorItem, validationErrorBody, type PathParamError } from './path-params.js';

/** The 422 item of `value`, or `undefined` when it is valid. */
const itemOf = (spec: PathParamSpec, value: string) => {
  const error = checkPathParam(spec, value);
  return error && errorItem(error);
};

describe('decodePathSegment', () => {
  it('decodes like Python unquote, never throwing', () => {
    expect(decodePathSegment('python-basics')).toBe('python-basics');
    expect(decodePathSegment('WELCOME%2D2026')).toBe('WELCOME-2026');
    expect(decodePathSegment('caf%C3%A9')).toBe('café');
    expect(decodePathSegment('%ZZabc')).toBe('%ZZabc');
    expect(decodePathSegment('ab%C3')).toBe('ab\uFFFD');
    expect(decodePathSegment('%')).toBe('%');
    expect(decodePathSegment('a%20b%')).toBe('a b%');
  });
});

describe('checkPathParam (Pydantic v2 shapes)', () => {
  it('accepts valid values', () => {
    expect(checkPathParam(COURSE_ID, 'python-basics')).toBeUndefined();
    expect(checkPathParam(REFERRAL_CODE, 'WELCOME_2026-x')).toBeUndefined();
  });

  it('checks min length first', () => {
    expect(itemOf(REFERRAL_CODE, 'a!')).toEqual({
      type: 'string_too_short',
      loc: ['path', 'code'],
      msg: 'String should have at least 4 characters',
      input: 'a!',
      ctx: { min_length: 4 },
    });
  });

  it('then max length, counting code points', () => {
    const long = 'A'.repeat(65);
    expect(itemOf(COURSE_ID, long)).toEqual({
      type: 'string_too_long',
      loc: ['path', 'course_id'],
      msg: 'String should have at most 64 characters',
      input: long,
      ctx: { max_length: 64 },
    });
    expect(codePointLength('😀😀')).toBe(2);
    expect(checkPathParam(REFERRAL_CODE, '😀😀😀😀')?.type).toBe('string_pattern_mismatch');
  });

  it('then the pattern, reported as written', () => {
    expect(itemOf(COURSE_ID, 'Python')).toEqual({
      type: 'string_pattern_mismatch',
      loc: ['path', 'course_id'],
      msg: "String should match pattern '^[a-z0-9]+(?:-[a-z0-9]+)*$'",
      input: 'Python',
      ctx: { pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' },
    });
    expect(checkPathParam(COURSE_ID, 'a--b')?.type).toBe('string_pattern_mismatch');
    expect(checkPathParam(COURSE_ID, 'ab\n')?.type).toBe('string_pattern_mismatch');
    expect(checkPathParam(REFERRAL_CODE, 'good code')?.type).toBe('string_pattern_mismatch');
  });
});

describe('validationErrorBody', () => {
  const inputs = ['', 'Not An Id', 'a"b\\c', 'tab\there\u0000', '\u2028\u2029', 'café 😀', '\uD800 alone', '}]},"input":"x'];
  const errors: PathParamError[] = [COURSE_ID, LESSON_ID, REFERRAL_CODE].flatMap((spec) =>
    (['string_too_short', 'string_too_long', 'string_pattern_mismatch'] as const).flatMap((type) => inputs.map((input) => ({ spec, type, input }))),
  );

  it('writes one error as JSON.stringify writes its item, whatever the input holds', () => {
    for (const error of errors) {
      expect(validationErrorBody([error])).toBe(JSON.stringify({ detail: [errorItem(error)] }));
      expect(JSON.parse(validationErrorBody([error]))).toEqual({ detail: [errorItem(error)] });
    }
  });

  it('writes several errors in order', () => {
    const two = [errors[0]!, errors.at(-1)!];
    expect(JSON.parse(validationErrorBody(two))).toEqual({ detail: two.map(errorItem) });
  });
});
