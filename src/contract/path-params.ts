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

/** The kinds of 422 item, in the order the checks run. */
type ErrorType = ValidationErrorItem['type'];

/** A value that failed one check of its spec: a 422 item before it is written out ({@link errorItem}). */
export interface PathParamError {
  readonly spec: PathParamSpec;
  readonly type: ErrorType;
  /** The decoded value. */
  readonly input: string;
}

/** What is made once per spec: its pattern compiled, and its one-error 422 bodies around their input by type. */
interface CompiledSpec {
  readonly pattern: RegExp;
  readonly bodies: Partial<Record<ErrorType, readonly [head: string, tail: string]>>;
}

const compiled = new WeakMap<PathParamSpec, CompiledSpec>();

function compiledOf(spec: PathParamSpec): CompiledSpec {
  let done = compiled.get(spec);
  if (done === undefined) {
    done = { pattern: new RegExp(spec.pattern, 'u'), bodies: {} };
    compiled.set(spec, done);
  }
  return done;
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
 * @returns the first failed check, or `undefined` when the value is valid.
 */
export function checkPathParam(spec: PathParamSpec, value: string): PathParamError | undefined {
  const length = codePointLength(value);
  if (length < spec.minLength) return { spec, type: 'string_too_short', input: value };
  if (length > spec.maxLength) return { spec, type: 'string_too_long', input: value };
  if (!compiledOf(spec).pattern.test(value)) return { spec, type: 'string_pattern_mismatch', input: value };
  return undefined;
}

/** The 422 item (schema ValidationError) of a failed check, with Pydantic v2's type, message and context. */
export function errorItem({ spec, type, input }: PathParamError): ValidationErrorItem {
  const loc: ValidationErrorItem['loc'] = ['path', spec.name];
  switch (type) {
    case 'string_too_short':
      return { type, loc, msg: `String should have at least ${characters(spec.minLength)}`, input, ctx: { min_length: spec.minLength } };
    case 'string_too_long':
      return { type, loc, msg: `String should have at most ${characters(spec.maxLength)}`, input, ctx: { max_length: spec.maxLength } };
    case 'string_pattern_mismatch':
      return { type, loc, msg: `String should match pattern '${spec.pattern}'`, input, ctx: { pattern: spec.pattern } };
  }
}

/** An empty input, as `JSON.stringify` writes it. */
const EMPTY_STRING = '""';
/** The `input` field of an item whose input is empty. */
const EMPTY_INPUT = `,"input":${EMPTY_STRING}`;

/**
 * The 422 body of one failed check of `spec` split around its input: only the input differs between requests.
 * Inside a JSON string every `"` is escaped, so {@link EMPTY_INPUT} can only be the field itself.
 */
function bodyAround(spec: PathParamSpec, type: ErrorType): readonly [head: string, tail: string] {
  const bodies = compiledOf(spec).bodies;
  let parts = bodies[type];
  if (parts === undefined) {
    const json = JSON.stringify({ detail: [errorItem({ spec, type, input: '' })] });
    const at = json.indexOf(EMPTY_INPUT) + EMPTY_INPUT.length - EMPTY_STRING.length;
    parts = bodies[type] = [json.slice(0, at), json.slice(at + EMPTY_STRING.length)];
  }
  return parts;
}

/**
 * The 422 body (schema HTTPValidationError) of some failed checks, as JSON text: it differs with each request. The
 * usual one error is its spec's body with the input written in ({@link bodyAround}).
 */
export function validationErrorBody(errors: readonly PathParamError[]): string {
  const [only] = errors;
  if (only === undefined || errors.length > 1) return JSON.stringify({ detail: errors.map(errorItem) });
  const [head, tail] = bodyAround(only.spec, only.type);
  return head + JSON.stringify(only.input) + tail;
}
