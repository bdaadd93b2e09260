import { describe, expect, it } from 'vitest';
import { ConfigError, lenientLogSettings, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('takes documented defaults from an empty environment', () => {
    const c = loadConfig({}, '/srv/app');
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      contentSource: { kind: 'folder', dir: '/srv/app/content' },
      admin: undefined,
      referralsFile: undefined,
      publicBaseUrl: 'http://localhost:8080',
      logLevel: 'info',
      trustProxy: { kind: 'none' },
      rateLimits: { verified: 480, declared: 120, browser: 120, anonymous: 30, referrals: 60 },
      rateLimitStore: { kind: 'memory' },
      workers: 1,
      keyDirectoryAllowInsecure: false,
      signatureClockSkewSeconds: 30,
      releasesDir: undefined,
      shutdownTimeoutSeconds: 10,
    });
  });

  it('parses every variable', () => {
    const c = loadConfig(
      {
        PORT: '0',
        HOST: '127.0.0.1',
        CONTENT_DIR: '/data/content',
        REFERRALS_FILE: 'codes.txt',
        PUBLIC_BASE_URL: 'https://catalog.example.com/api/',
        LOG_LEVEL: 'warn',
        TRUST_PROXY: '10.0.0.0/8, loopback',
        RATE_LIMIT_VERIFIED: '1000',
        RATE_LIMIT_STORE: 'redis://127.0.0.1:6379/0',
        WORKERS: '2',
        KEY_DIRECTORY_ALLOW_INSECURE: '1',
        SIGNATURE_CLOCK_SKEW: '5',
        RELEASES_DIR: 'dist/release',
      },
      '/srv',
    );
    expect(c.port).toBe(0);
    expect(c.referralsFile).toBe('/srv/codes.txt');
    expect(c.publicBaseUrl).toBe('https://catalog.example.com/api');
    expect(c.trustProxy).toEqual({ kind: 'list', entries: ['10.0.0.0/8', 'loopback'] });
    expect(c.rateLimits.verified).toBe(1000);
    expect(c.rateLimitStore).toEqual({ kind: 'redis', url: 'redis://127.0.0.1:6379/0' });
    expect(c.workers).toBe(2);
    expect(c.keyDirectoryAllowInsecure).toBe(true);
    expect(c.signatureClockSkewSeconds).toBe(5);
    expect(c.releasesDir).toBe('/srv/dist/release');
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toEqual({ kind: 'hops', hops: 2 });
  });

  it('reports every bad value by name in one error', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: '80a',
        PUBLIC_BASE_URL: 'not a url',
        LOG_LEVEL: 'loud',
        TRUST_PROXY: 'bogus',
        RATE_LIMIT_ANONYMOUS: '0',
        RATE_LIMIT_STORE: 'redis-ish://x',
        WORKERS: '4',
        KEY_DIRECTORY_ALLOW_INSECURE: 'maybe',
        SIGNATURE_CLOCK_SKEW: '-1',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const names = (error as ConfigError).problems.map((p) => p.split(':')[0]);
    expect(names).toEqual([
      'PORT',
      'PUBLIC_BASE_URL',
      'LOG_LEVEL',
      'TRUST_PROXY',
      'RATE_LIMIT_ANONYMOUS',
      'RATE_LIMIT_STORE',
      'WORKERS',
      'KEY_DIRECTORY_ALLOW_INSECURE',
      'SIGNATURE_CLOCK_SKEW',
    ]);
    expect((error as ConfigError).message).toContain('PORT: "80a" is not a whole number from 0 to 65535');
  });

  it('never prints a Redis password', () => {
    expect(() => loadConfig({ RATE_LIMIT_STORE: 'http://user:secret@host' })).toThrow(/user:\*\*\*@/);
  });

  it('reads the Git follower settings, with their defaults', () => {
    const c = loadConfig({ CONTENT_GIT_URL: 'https://git.example.com/org/content.git' }, '/srv');
    expect(c.contentSource).toMatchObject({
      kind: 'git',
      url: 'https://git.example.com/org/content.git',
      ref: 'main',
      path: 'content',
      pollSeconds: 30,
      historyDepth: 20,
      maxContentMiB: 64,
      webhookSecret: undefined,
    });
    expect(c.contentSource.kind === 'git' && c.contentSource.cacheDir).toMatch(/content-git$/);
    const d = loadConfig(
      {
        CONTENT_GIT_URL: '/srv/repos/content.git',
        CONTENT_GIT_REF: 'release/2026',
        CONTENT_GIT_PATH: 'docs/catalog/',
        CONTENT_GIT_POLL: '5',
        CONTENT_GIT_HISTORY_DEPTH: '3',
        CONTENT_GIT_MAX_MIB: '16',
        CONTENT_GIT_CACHE: 'cache',
        CONTENT_GIT_WEBHOOK_SECRET: 'a-long-enough-shared-secret',
        ADMIN_PORT: '9090',
      },
      '/srv',
    );
    expect(d.contentSource).toEqual({
      kind: 'git',
      url: '/srv/repos/content.git',
      ref: 'release/2026',
      path: 'docs/catalog',
      pollSeconds: 5,
      historyDepth: 3,
      maxContentMiB: 16,
      cacheDir: '/srv/cache',
      webhookSecret: 'a-long-enough-shared-secret',
    });
    expect(d.admin).toEqual({ port: 9090, host: '127.0.0.1' });
  });

  it('refuses CONTENT_DIR with CONTENT_GIT_URL, bad refs and paths, a short secret, a webhook without the admin listener', () => {
    const problems = (env: Record<string, string>): string[] => {
      try {
        loadConfig(env);
      } catch (e) {
        return [...(e as ConfigError).problems];
      }
      return [];
    };
    expect(problems({ CONTENT_DIR: 'content', CONTENT_GIT_URL: 'https://h.example/r.git' })).toEqual([
      'CONTENT_DIR and CONTENT_GIT_URL: set one or the other (a watched folder, or a Git branch this service follows)',
    ]);
    for (const ref of ['-main', 'a..b', 'a b', 'refs/heads/main', 'x.lock', 'a//b', '.hidden', 'a~1', 'a:b']) {
      expect(problems({ CONTENT_GIT_URL: 'r', CONTENT_GIT_REF: ref })[0], ref).toMatch(/^CONTENT_GIT_REF: /);
    }
    for (const path of ['/abs', '../up', 'a/../b', '-x']) {
      expect(problems({ CONTENT_GIT_URL: 'r', CONTENT_GIT_PATH: path })[0], path).toMatch(/^CONTENT_GIT_PATH: /);
    }
    expect(problems({ CONTENT_GIT_URL: 'r', CONTENT_GIT_WEBHOOK_SECRET: 'short', ADMIN_PORT: '9090' })[0]).toMatch(
      /^CONTENT_GIT_WEBHOOK_SECRET: use at least 16/,
    );
    expect(problems({ CONTENT_GIT_URL: 'r', CONTENT_GIT_WEBHOOK_SECRET: 'a-long-enough-shared-secret' })).toEqual([
      'CONTENT_GIT_WEBHOOK_SECRET: the webhook is served on the admin listener; set ADMIN_PORT too',
    ]);
    expect(problems({ CONTENT_GIT_REF: 'main' })).toEqual(['CONTENT_GIT_REF: only used with CONTENT_GIT_URL, which is not set']);
    expect(problems({ PORT: '9000', ADMIN_PORT: '9000' })).toEqual(['ADMIN_PORT: 9000 is also PORT; the admin listener needs a port of its own']);
    expect(problems({ CONTENT_GIT_URL: 'https://user:hunter2@h.example/r', CONTENT_GIT_REF: '-x' }).join('\n')).not.toContain('hunter2');
  });
});

describe('lenientLogSettings', () => {
  it('reads the log settings one by one, a bad value as its default, whatever else is wrong', () => {
    const env = { PORT: 'eighty', LOG_FORMAT: ' pretty ', LOG_LEVEL: 'loud', SHUTDOWN_TIMEOUT: '3' };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(lenientLogSettings(env)).toEqual({ logFormat: 'pretty', logLevel: 'info', shutdownTimeoutSeconds: 3 });
    expect(lenientLogSettings({ LOG_FORMAT: 'xml', LOG_LEVEL: 'warn', SHUTDOWN_TIMEOUT: '' })).toEqual({
      logFormat: 'json',
      logLevel: 'warn',
      shutdownTimeoutSeconds: 10,
    });
  });
});
