/**
 * Path-parameter validation with FastAPI / Pydantic v2 error bodies (422), driven by the specs in
 * `params.ts` (which the OpenAPI document reads too). Input is percent-decoded first, as Starlette does;
 * bytes that are not valid UTF-8 or a `%` not followed by two hex digits never fail the request: they end up
 * in the string (as U+FFFD or literally, like Python's `unquote`) and fail the pattern.
 */
import type { PathParamSpec } from './params.js';

/** One item of a 422 `detail` (schema ValidationError). */
export interface ValidationErrorItem {
  type: 'string_too_short' | 'string_too_long' | 'string_pattern_mismatch';
  loc: ['path', string];
  msg: string;
  input: string;
  ctx: { min_length: number } | { max_length: number } | { pattern: string };
}

const compiled = new Map<string, RegExp>();

/** The spec's pattern, compiled once per process. */
function regexOf(spec: PathParamSpec): RegExp {
  let re = compiled.get(spec.pattern);
  if (re === undefined) {
    re = new RegExp(spec.pattern, 'u');
    compiled.set(spec.pattern, re);
  }
  return re;
}

/** Length in Unicode code points, as Pydantic counts (a surrogate pair is one character). */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

const lenient = new TextDecoder('utf-8', { fatal: false });
const HEX = /^[0-9A-Fa-f]{2}$/;

/**
 * Percent-decodes one path segment like Python's `urllib.parse.unquote` (errors replaced, never thrown).
 * `+` is not a space in a path.
 */
export function decodePathSegment(raw: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    // Malformed: decode valid %XX runs as UTF-8 (invalid bytes → U+FFFD) and keep stray `%` literally.
    let out = '';
    let bytes: number[] = [];
    const flush = () => {
      if (bytes.length > 0) out += lenient.decode(new Uint8Array(bytes));
      bytes = [];
    };
    for (let i = 0; i < raw.length; i++) {
      const hex = raw.slice(i + 1, i + 3);
      if (raw[i] === '%' && HEX.test(hex)) {
        bytes.push(parseInt(hex, 16));
        i += 2;
      } else {
        flush();
        out += raw[i];
      }
    }
    flush();
    return out;
  }
}

/** Pydantic's plural: `1 character`, `64 characters`. */
const characters = (n: number) => `${n} character${n === 1 ? '' : 's'}`;

/**
 * Checks one decoded value against its spec, in the order min length, max length, pattern.
 * @returns the first error, or `undefined` when the value is valid.
 */
export function checkPathParam(spec: PathParamSpec, value: string): ValidationErrorItem | undefined {
  const length = codePointLength(value);
  if (length < spec.minLength) {
    return {
      type: 'string_too_short',
      loc: ['path', spec.name],
      msg: `String should have at least ${characters(spec.minLength)}`,
      input: value,
      ctx: { min_length: spec.minLength },
    };
  }
  if (length > spec.maxLength) {
    return {
      type: 'string_too_long',
      loc: ['path', spec.name],
      msg: `String should have at most ${characters(spec.maxLength)}`,
      input: value,
      ctx: { max_length: spec.maxLength },
    };
  }
  if (!regexOf(spec).test(value)) {
    return {
      type: 'string_pattern_mismatch',
      loc: ['path', spec.name],
      msg: `String should match pattern '${spec.pattern}'`,
      input: value,
      ctx: { pattern: spec.pattern },
    };
  }
  return undefined;
}

/** The 422 body (schema HTTPValidationError) for some errors, as JSON text: it differs with each request. */
export function validationErrorBody(errors: readonly ValidationErrorItem[]): string {
  return JSON.stringify({ detail: errors });
}
