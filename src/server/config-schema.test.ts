/**
 * The variables' table (config-schema.ts) and loadConfig agree: each variable fills the field it names, takes its
 * default when unset, and a bad value is reported by its name with what is allowed, in the table's order.
 */
import { describe, expect, it } from 'vitest';
import { readVariable, VARIABLE_NAMES, VARIABLES, type VariableName, type VariableRow } from './config-schema.js';
import { ConfigError, loadConfig, type Config } from './config.js';

const CWD = '/srv';

/** A good value of every variable, none of them its default (a new variable fails to compile until it has one). */
const GOOD: Record<VariableName, string> = {
  PORT: '9000',
  HOST: '0.0.0.0',
  CONTENT_DIR: 'data/content',
  CONTENT_GIT_URL: 'https://git.example.com/org/content.git',
  CONTENT_GIT_REF: 'release/2026',
  CONTENT_GIT_PATH: 'docs/catalog',
  CONTENT_GIT_POLL: '5',
  CONTENT_GIT_HISTORY_DEPTH: '7',
  CONTENT_GIT_MAX_MIB: '32',
  CONTENT_GIT_CACHE: 'cache',
  CONTENT_GIT_WEBHOOK_SECRET: 'a-long-enough-shared-secret',
  ADMIN_PORT: '9090',
  ADMIN_HOST: '::1',
  REFERRALS_FILE: 'codes.txt',
  PUBLIC_BASE_URL: 'https://catalog.example.com/api',
  LOG_LEVEL: 'warn',
  LOG_FORMAT: 'pretty',
  TRUST_PROXY: '10.0.0.0/8',
  TRUST_PROXY_HEADER: 'forwarded',
  RATE_LIMIT_VERIFIED: '1000',
  RATE_LIMIT_DECLARED: '100',
  RATE_LIMIT_BROWSER: '90',
  RATE_LIMIT_ANONYMOUS: '10',
  RATE_LIMIT_REFERRALS: '5',
  RATE_LIMIT_STORE: 'redis://127.0.0.1:6379/0',
  RATE_LIMIT_STORE_TIMEOUT_MS: '500',
  WORKERS: '2',
  KEY_DIRECTORY_ALLOW_INSECURE: 'yes',
  SIGNATURE_AUTHORITIES: 'Catalog.Example.com:8443, api.example.org',
  SIGNATURE_CLOCK_SKEW: '5',
  RELEASES_DIR: 'dist/release',
  MAX_CONNECTIONS: '5000',
  MAX_CONNECTIONS_PER_ADDRESS: '16',
  SHUTDOWN_TIMEOUT: '3',
};

/** A bad value of every variable that can have one, and the message it gives after `NAME: `. */
const BAD: Partial<Record<VariableName, [string, string]>> = {
  PORT: ['80a', '"80a" is not a whole number from 0 to 65535'],
  HOST: ['a b', '"a b" is not a host name or IP address'],
  CONTENT_GIT_URL: ['-u', '"-u" is not a repository URL or path'],
  CONTENT_GIT_REF: ['a..b', '"a..b" has ".." or "@{", which git does not allow'],
  CONTENT_GIT_PATH: ['../up', '"../up" must be a folder inside the repository, relative, without ".." (e.g. content)'],
  CONTENT_GIT_POLL: ['0', '"0" is not a whole number from 1 to 86400'],
  CONTENT_GIT_WEBHOOK_SECRET: ['short', 'use at least 16 random characters (e.g. openssl rand -hex 32)'],
  ADMIN_PORT: ['65536', '"65536" is not a whole number from 0 to 65535'],
  ADMIN_HOST: ['a/b', '"a/b" is not a host name or IP address'],
  PUBLIC_BASE_URL: ['ftp://x.example', '"ftp://x.example" must use http or https'],
  LOG_LEVEL: ['loud', '"loud" is not one of fatal, error, warn, info, debug, trace, silent'],
  TRUST_PROXY: ['33', '33 hops is more than 32; give a proxy count from 0 to 32 or a list of addresses/CIDRs'],
  TRUST_PROXY_HEADER: ['Via', '"via" is neither x-forwarded-for nor forwarded'],
  RATE_LIMIT_VERIFIED: ['0', '"0" is not a whole number from 1 to 1000000000'],
  RATE_LIMIT_DECLARED: ['-1', '"-1" is not a whole number from 1 to 1000000000'],
  RATE_LIMIT_BROWSER: ['1e3', '"1e3" is not a whole number from 1 to 1000000000'],
  RATE_LIMIT_ANONYMOUS: ['1.5', '"1.5" is not a whole number from 1 to 1000000000'],
  RATE_LIMIT_REFERRALS: ['many', '"many" is not a whole number from 1 to 1000000000'],
  RATE_LIMIT_STORE: ['redis-ish://u:pw@x', '"redis-ish://u:***@x" is neither "memory" nor a redis:// or rediss:// URL'],
  RATE_LIMIT_STORE_TIMEOUT_MS: ['5', '"5" is not a whole number from 10 to 10000'],
  WORKERS: ['257', '"257" is not a whole number from 1 to 256'],
  KEY_DIRECTORY_ALLOW_INSECURE: ['maybe', '"maybe" is not a boolean (1/0, true/false, yes/no, on/off)'],
  SIGNATURE_CLOCK_SKEW: ['3601', '"3601" is not a whole number from 0 to 3600'],
  SHUTDOWN_TIMEOUT: ['ten', '"ten" is not a whole number from 0 to 3600'],
};

const variable = (name: VariableName): VariableRow => VARIABLES[name];
/** Whether the variable belongs to the Git follower (read only with `CONTENT_GIT_URL`). */
const gitOnly = (name: VariableName): boolean => name === 'CONTENT_GIT_URL' || variable(name).requires === 'CONTENT_GIT_URL';
/** An environment in which `name` is read: the folder or the Git mode, with the admin listener. */
const around = (name: VariableName): Record<string, string> =>
  gitOnly(name) ? { CONTENT_GIT_URL: GOOD.CONTENT_GIT_URL, ADMIN_PORT: GOOD.ADMIN_PORT } : { ADMIN_PORT: GOOD.ADMIN_PORT };
/** The value at a dotted path of the configuration. */
const at = (config: Config, field: string): unknown =>
  field.split('.').reduce<unknown>((object, key) => (object as Record<string, unknown> | undefined)?.[key], config);
const problemsOf = (env: Record<string, string>): readonly string[] => {
  try {
    loadConfig(env, CWD);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('the configuration schema', () => {
  it('lists each variable once, with a default that is a good value and a "requires" that is a variable', () => {
    expect(new Set(VARIABLE_NAMES).size).toBe(VARIABLE_NAMES.length);
    for (const name of VARIABLE_NAMES) {
      const { default: dflt, requires } = variable(name);
      if (dflt !== undefined) expect(variable(name).parse(dflt, CWD).problem, name).toBeUndefined();
      if (requires !== undefined) expect(VARIABLE_NAMES, name).toContain(requires);
    }
  });

  it.each(VARIABLE_NAMES)('%s fills the field it names, and takes its default when unset', (name) => {
    const { field, default: dflt, parse } = variable(name);
    const set = loadConfig({ ...around(name), ...(name === 'WORKERS' && { RATE_LIMIT_STORE: GOOD.RATE_LIMIT_STORE }), [name]: GOOD[name] }, CWD);
    const expected = parse(GOOD[name], CWD).value;
    expect(at(set, field)).toEqual(expected);
    const unset = loadConfig(Object.fromEntries(Object.entries(around(name)).filter(([other]) => other !== name)), CWD);
    if (name === 'PUBLIC_BASE_URL') expect(unset.publicBaseUrl).toBe(`http://localhost:${VARIABLES.PORT.default}`);
    else expect(at(unset, field)).toEqual(dflt === undefined ? undefined : parse(dflt, CWD).value);
    expect(at(unset, field), 'the good value is not the default').not.toEqual(expected);
  });

  it.each(Object.entries(BAD))('a bad %s is reported by its name with what is allowed', (name, [text, message]) => {
    expect(problemsOf({ ...around(name as VariableName), [name]: text })).toEqual([`${name}: ${message}`]);
    expect(readVariable(variable(name as VariableName), text, CWD).problem).toBe(`${name}: ${message}`);
  });

  it('reports the variables of the Git follower set without CONTENT_GIT_URL, without reading them', () => {
    expect(problemsOf({ CONTENT_GIT_POLL: 'often', CONTENT_GIT_WEBHOOK_SECRET: 'x' })).toEqual([
      'CONTENT_GIT_POLL: only used with CONTENT_GIT_URL, which is not set',
      'CONTENT_GIT_WEBHOOK_SECRET: only used with CONTENT_GIT_URL, which is not set',
    ]);
  });

  it('reads a switched group only with its switch, ignoring its other variables without it (the image sets ADMIN_HOST)', () => {
    expect(loadConfig({ ADMIN_HOST: '0.0.0.0' }, CWD).admin).toBeUndefined();
    expect(loadConfig({ ADMIN_PORT: '9090', ADMIN_HOST: '0.0.0.0' }, CWD).admin).toEqual({ port: 9090, host: '0.0.0.0' });
  });

  it("lists problems in the table's order, rules between variables with the variable they name", () => {
    const problems = problemsOf({
      SHUTDOWN_TIMEOUT: 'x',
      WORKERS: '3',
      PORT: '9000',
      ADMIN_PORT: '9000',
      ADMIN_HOST: 'a b',
      CONTENT_GIT_URL: 'https://h.example/r.git',
      CONTENT_GIT_WEBHOOK_SECRET: 'short',
      HOST: 'a b',
    });
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'HOST',
      'CONTENT_GIT_WEBHOOK_SECRET',
      'ADMIN_PORT',
      'ADMIN_HOST',
      'WORKERS',
      'SHUTDOWN_TIMEOUT',
    ]);
  });

  it('checks the rules between variables against a bad value as if it were its default', () => {
    // A bad RATE_LIMIT_STORE counts as `memory`, so 2 workers still need Redis; a bad PORT counts as 8080.
    expect(problemsOf({ RATE_LIMIT_STORE: 'nope', WORKERS: '2' }).map((p) => p.split(':')[0])).toEqual(['RATE_LIMIT_STORE', 'WORKERS']);
    expect(problemsOf({ PORT: 'x', ADMIN_PORT: '8080' })).toEqual([
      'PORT: "x" is not a whole number from 0 to 65535',
      'ADMIN_PORT: 8080 is also PORT; the admin listener needs a port of its own',
    ]);
    // A bad ADMIN_PORT still turns the admin listener on, so ADMIN_HOST is checked and the webhook has its listener.
    expect(
      problemsOf({ ADMIN_PORT: 'x', ADMIN_HOST: 'a b', CONTENT_GIT_URL: 'r', CONTENT_GIT_WEBHOOK_SECRET: 'a-long-enough-shared-secret' }),
    ).toEqual(['ADMIN_PORT: "x" is not a whole number from 0 to 65535', 'ADMIN_HOST: "a b" is not a host name or IP address']);
    // A bad CONTENT_GIT_URL still means the Git follower: its settings are checked, CONTENT_DIR is refused.
    expect(problemsOf({ CONTENT_GIT_URL: '-r', CONTENT_GIT_REF: 'a b', CONTENT_DIR: 'content' }).map((p) => p.split(':')[0])).toEqual([
      'CONTENT_DIR and CONTENT_GIT_URL',
      'CONTENT_GIT_URL',
      'CONTENT_GIT_REF',
    ]);
  });
});
