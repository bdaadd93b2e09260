/**
 * Turns ajv's errors into sentences for content writers: the field, what was expected, what was found.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { ID_PATTERN } from '../contract/params.js';
import { closest } from '../text/nearest.js';

/** One schema violation: the data path it is about and the message. */
export interface SchemaProblem {
  /** Path of the offending key or item within the frontmatter (`['stages', 1, 'key']`); `[]` for the whole block. */
  path: (string | number)[];
  /** The JSON Schema keyword that failed (`pattern`, `type`, `additionalProperties`, …). */
  keyword: string;
  message: string;
}

// Short phrases for the patterns of schemas/defs.schema.json; any other pattern falls back to its description.
const PATTERN_PHRASES: Record<string, string> = {
  [ID_PATTERN]: 'an id: lowercase letters and digits in hyphen-separated words',
  '^#[0-9a-fA-F]{6}$': 'a hex colour #rrggbb',
  '^[a-z][a-z0-9+#.-]*$': 'a lowercase language name such as python, sql, bash or typescript',
  '\\S': 'text that is not blank',
  '^/': 'a path starting with /',
};

const FORMAT_PHRASES: Record<string, string> = {
  date: 'a real calendar date YYYY-MM-DD',
};

/**
 * Converts ajv errors (from a validator compiled with `allErrors` and `verbose`) into one problem per
 * offending key: duplicates ajv reports for the same value (e.g. minLength and pattern of an empty string)
 * are dropped.
 */
export function schemaProblems(errors: readonly ErrorObject[]): SchemaProblem[] {
  const seen = new Set<string>();
  const out: SchemaProblem[] = [];
  for (const error of errors) {
    const path = pointerToPath(error.instancePath);
    let key = error.instancePath;
    let target = path;
    if (error.keyword === 'additionalProperties') {
      const name = String((error.params as { additionalProperty: string }).additionalProperty);
      key += `/${name}`;
      target = [...path, name];
    } else if (error.keyword === 'required') {
      key += `/${(error.params as { missingProperty: string }).missingProperty}?`;
    }
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path: target, keyword: error.keyword, message: describe(error, path) });
  }
  return out;
}

function describe(error: ErrorObject, path: (string | number)[]): string {
  const field = `"${fieldName(path)}"`;
  const got = describeValue(error.data);
  const schema = (error.parentSchema ?? {}) as Record<string, unknown>;
  const params = error.params as Record<string, unknown>;
  const within = path.length === 0 ? '' : ` in ${field}`;
  switch (error.keyword) {
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      const allowed = Object.keys(schema.properties ?? {});
      return `unknown key "${name}"${within}${didYouMean(name, allowed)}; allowed keys: ${allowed.join(', ')}`;
    }
    case 'required':
      return `missing required key "${String(params.missingProperty)}"${within}`;
    case 'type':
      if (path.length === 0) return `the frontmatter must be a mapping of keys to values, got ${got}`;
      return `${field} must be ${withArticle(String(params.type))}, got ${got}`;
    case 'enum': {
      const allowed = params.allowedValues as unknown[];
      const guess =
        typeof error.data === 'string'
          ? didYouMean(
              error.data,
              allowed.filter((v) => typeof v === 'string'),
            )
          : '';
      return `${field} must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}, got ${got}${guess}`;
    }
    case 'const':
      return `${field} must be ${JSON.stringify(params.allowedValue)}, got ${got}`;
    case 'pattern': {
      const pattern = String(params.pattern);
      const phrase = PATTERN_PHRASES[pattern] ?? descriptionPhrase(schema) ?? `text matching /${pattern}/`;
      return `${field} must be ${phrase}, got ${got}`;
    }
    case 'format': {
      const format = String(params.format);
      return `${field} must be ${FORMAT_PHRASES[format] ?? `a valid ${format}`}, got ${got}`;
    }
    case 'minLength':
      return Number(params.limit) === 1
        ? `${field} must not be empty`
        : `${field} must be at least ${String(params.limit)} characters, got ${lengthOf(error.data)}`;
    case 'maxLength':
      return `${field} must be at most ${String(params.limit)} characters, got ${lengthOf(error.data)}`;
    case 'minItems':
    case 'maxItems': {
      const count = Array.isArray(error.data) ? error.data.length : 0;
      if (schema.minItems !== undefined && schema.minItems === schema.maxItems) {
        return `${field} must have exactly ${Number(schema.minItems)} items, got ${count}`;
      }
      const bound = error.keyword === 'minItems' ? 'at least' : 'at most';
      return `${field} must have ${bound} ${String(params.limit)} items, got ${count}`;
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${field} must be ${String(params.comparison)} ${String(params.limit)}, got ${String(error.data)}`;
    default:
      return `${field} ${error.message ?? 'is invalid'}`;
  }
}

/** `stages[1].key` for `['stages', 1, 'key']`. */
export function fieldName(path: readonly (string | number)[]): string {
  let out = '';
  for (const segment of path) out += typeof segment === 'number' ? `[${segment}]` : out === '' ? segment : `.${segment}`;
  return out === '' ? 'frontmatter' : out;
}

function pointerToPath(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => {
      const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      return /^(?:0|[1-9]\d*)$/.test(segment) ? Number(segment) : segment;
    });
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return `${typeof value} ${String(value)}`;
  return typeof value;
}

function withArticle(type: string): string {
  const nouns: Record<string, string> = { array: 'a list', object: 'a mapping', integer: 'an integer', null: 'null' };
  return nouns[type] ?? `a ${type}`;
}

function lengthOf(value: unknown): number {
  return typeof value === 'string' ? [...value].length : 0;
}

function descriptionPhrase(schema: Record<string, unknown>): string | undefined {
  const text = typeof schema.description === 'string' ? schema.description.split(/[.:]/, 1)[0]!.trim() : '';
  return text === '' ? undefined : text.charAt(0).toLowerCase() + text.slice(1);
}

/**
 * ` (did you mean "x"?)` for the name closest to the unknown `name` ({@link closest}) in the first group of
 * `candidates` that has one (so a likelier group, such as files no list names, goes first); `''` when none is close.
 */
export function didYouMean(name: string, ...candidates: Iterable<string>[]): string {
  for (const group of candidates) {
    const guess = closest(name, group);
    if (guess !== undefined) return ` (did you mean "${guess}"?)`;
  }
  return '';
}
