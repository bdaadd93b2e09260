/**
 * How an environment variable's text becomes a value: one parser per kind of value (a whole number in a range, one
 * of some words, a URL, a branch name…). A parser never throws: a bad text gives a problem saying what is wrong and
 * what is allowed (the message after `NAME: `), and a stand-in value so the rules between variables can still run.
 * Which variable uses which parser is stated in `config-schema.ts`.
 */
import { isAbsolute, resolve } from 'node:path';
import proxyAddr from 'proxy-addr';
import type { TrustProxySetting } from '../http/client-address.js';
import { redactUrl } from '../git/redact.js';

/** Where rate-limit buckets live (`RATE_LIMIT_STORE`). */
export type RateLimitStoreConfig = { kind: 'memory' } | { kind: 'redis'; url: string };

/** The shortest webhook secret accepted, in characters: a guessable secret would let anyone trigger fetches. */
export const MIN_WEBHOOK_SECRET_LENGTH = 16;
/** The most trusted proxy hops. */
const MAX_HOPS = 32;

/**
 * What a parser reads from a variable's text: the value and, when the text is bad, what is wrong with it and what
 * is allowed (the message after `NAME: `). With a problem, `value` is only a stand-in that lets the other variables
 * be checked; the configuration is then refused.
 */
export interface Parsed<T> {
  readonly value: T;
  readonly problem?: string;
}

/**
 * How a variable's text becomes a value.
 * @param text the text as set (trimmed, not empty), or the default.
 * @param cwd the folder relative paths are resolved against.
 */
export type Parser<T> = (text: string, cwd: string) => Parsed<T>;

const quote = JSON.stringify;
const good = <T>(value: T): Parsed<T> => ({ value });
const bad = <T>(value: T, problem: string): Parsed<T> => ({ value, problem });

/** A whole number from `min` to `max`, digits only (stand-in: `NaN`); `min` and `max` are kept for the meanings that quote them. */
export function integer(min: number, max: number): Parser<number> & { readonly min: number; readonly max: number } {
  const parse: Parser<number> = (text) =>
    /^\d+$/.test(text) && Number(text) >= min && Number(text) <= max
      ? good(Number(text))
      : bad(NaN, `${quote(text)} is not a whole number from ${min} to ${max}`);
  return Object.assign(parse, { min, max });
}

/** One of `choices` (compared in lower case when `lowercase`); `choices` are kept for the meanings that list them. */
export function oneOf<const C extends string>(
  choices: readonly [C, ...C[]],
  { lowercase = false } = {},
): Parser<C> & { readonly choices: readonly C[] } {
  const isChoice = (text: string): text is C => (choices as readonly string[]).includes(text);
  const allowed = choices.length === 2 ? `neither ${choices.join(' nor ')}` : `not one of ${choices.join(', ')}`;
  const parse: Parser<C> = (text) => {
    const v = lowercase ? text.toLowerCase() : text;
    return isChoice(v) ? good(v) : bad(choices[0], `${quote(v)} is ${allowed}`);
  };
  return Object.assign(parse, { choices });
}

/** `a`, `b` or `c`, in Markdown. */
export const choiceList = (choices: readonly string[]): string =>
  choices
    .map((c) => `\`${c}\``)
    .join(', ')
    .replace(/, ([^,]*)$/, ' or $1');

/** The words of a boolean, true then false. */
const BOOLEAN_WORDS = [
  ['1', '0'],
  ['true', 'false'],
  ['yes', 'no'],
  ['on', 'off'],
] as const;
/** A boolean: one of {@link BOOLEAN_WORDS}, in any case. */
export const boolean: Parser<boolean> = (text) => {
  const pair = BOOLEAN_WORDS.find((words) => (words as readonly string[]).includes(text.toLowerCase()));
  if (pair !== undefined) return good(pair[0] === text.toLowerCase());
  return bad(false, `${quote(text)} is not a boolean (${BOOLEAN_WORDS.map((words) => words.join('/')).join(', ')})`);
};

/** A host name or IP address to listen on (no spaces or slashes). */
export const hostName: Parser<string> = (text) => (/\s|\//.test(text) ? bad(text, `${quote(text)} is not a host name or IP address`) : good(text));

/** A path, resolved against the working directory. */
export const path: Parser<string> = (text, cwd) => good(resolve(cwd, text));

/** `host[:port]` values, comma-separated, normalised as URLs write them (lower case, no default port). */
export const authorityList: Parser<string[]> = (text) => {
  const items = text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const hostOf = (item: string): string | undefined => {
    try {
      const url = new URL(`https://${item}/`);
      return url.username === '' && url.pathname === '/' && !item.includes('/') ? url.host : undefined;
    } catch {
      return undefined;
    }
  };
  const invalid = items.filter((item) => hostOf(item) === undefined);
  if (invalid.length > 0) return bad([], `not a host[:port]: ${invalid.join(', ')}`);
  return good(items.map((item) => hostOf(item)!));
};

/** An absolute http(s) URL without query, fragment or credentials; a trailing slash is dropped. */
export const baseUrl: Parser<string> = (text) => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return bad(text, `${quote(text)} is not an absolute URL (e.g. https://catalog.example.com)`);
  }
  const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return bad(base, `${quote(text)} must use http or https`);
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    return bad(base, `${quote(text)} must not have a query, fragment or credentials`);
  }
  return good(base);
};

/** `false`/`0` (none), a hop count, or a comma-separated list `proxy-addr` accepts. */
export const trustProxy: Parser<TrustProxySetting> = (text) => {
  if (text === 'false' || text === '0') return good({ kind: 'none' });
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops <= MAX_HOPS) return good({ kind: 'hops', hops });
    return bad(
      { kind: 'hops', hops },
      `${hops} hops is more than ${MAX_HOPS}; give a proxy count from 0 to ${MAX_HOPS} or a list of addresses/CIDRs`,
    );
  }
  const entries = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  try {
    proxyAddr.compile(entries);
  } catch (error) {
    return bad(
      { kind: 'list', entries },
      `${quote(text)} is not a hop count or a comma-separated list of IP addresses, CIDRs, loopback, linklocal or uniquelocal (${(error as Error).message})`,
    );
  }
  return good({ kind: 'list', entries });
};

/** `memory`, or a `redis://`/`rediss://` URL (never shown with its password). */
export const rateLimitStore: Parser<RateLimitStoreConfig> = (text) => {
  if (text === 'memory') return good({ kind: 'memory' });
  if (URL.canParse(text) && ['redis:', 'rediss:'].includes(new URL(text).protocol)) return good({ kind: 'redis', url: text });
  return bad({ kind: 'memory' }, `${quote(redactUrl(text))} is neither "memory" nor a redis:// or rediss:// URL`);
};

/** What `git clone` accepts, and cannot be taken for an option (never shown with its credentials). */
export const repositoryUrl: Parser<string> = (text) =>
  text.startsWith('-') || /[\u0000-\u001f\u007f]/.test(text) ? bad(text, `${quote(redactUrl(text))} is not a repository URL or path`) : good(text);

/**
 * Why `name` is not a branch name git accepts (the rules of `git check-ref-format --branch`, plus no leading
 * `-` so it can never be read as an option), or `undefined` when it is one.
 */
function branchNameProblem(name: string): string | undefined {
  if (name.startsWith('-')) return 'must not start with "-"';
  if (name.startsWith('refs/')) return 'is a branch name such as main, not a full ref';
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name)) return 'has a character git does not allow in a branch name (space, control, ~ ^ : ? * [ \\)';
  if (name.includes('..') || name.includes('@{') || name === '@') return 'has ".." or "@{", which git does not allow';
  if (name.split('/').some((part) => part === '' || part.startsWith('.') || part.endsWith('.lock'))) {
    return 'has an empty part, a part starting with "." or ending with ".lock"';
  }
  if (name.endsWith('.')) return 'must not end with "."';
  return undefined;
}

/** A branch name git accepts. */
export const branch: Parser<string> = (text) => {
  const problem = branchNameProblem(text);
  return problem === undefined ? good(text) : bad(text, `${quote(text)} ${problem}`);
};

/** A folder inside the repository: relative, `/`-separated, without `..`; trailing slashes dropped, `.` for the root. */
export const repositoryFolder: Parser<string> = (text) => {
  const folder = text.replace(/\/+$/, '') || '.';
  const outside =
    isAbsolute(folder) ||
    folder.split('/').some((part) => part === '..' || part === '') ||
    folder.startsWith('-') ||
    /[\u0000-\u001f\u007f\\]/.test(folder);
  return outside ? bad(folder, `${quote(folder)} must be a folder inside the repository, relative, without ".." (e.g. content)`) : good(folder);
};

/** A shared secret of at least {@link MIN_WEBHOOK_SECRET_LENGTH} characters. */
export const sharedSecret: Parser<string> = (text) =>
  text.length < MIN_WEBHOOK_SECRET_LENGTH
    ? bad(text, `use at least ${MIN_WEBHOOK_SECRET_LENGTH} random characters (e.g. openssl rand -hex 32)`)
    : good(text);
