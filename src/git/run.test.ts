import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitError, isCommitId, runGit, streamGit } from './run.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'git-run-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Runs `fn` with a `git` first on PATH that is the shell script `body`. */
async function withFakeGit<T>(name: string, body: string, fn: () => Promise<T>): Promise<T> {
  const bin = join(root, name);
  await mkdir(bin);
  await writeFile(join(bin, 'git'), `#!/bin/sh\n${body}\n`);
  await chmod(join(bin, 'git'), 0o755);
  const saved = process.env.PATH;
  process.env.PATH = `${bin}:${saved ?? ''}`;
  try {
    return await fn();
  } finally {
    process.env.PATH = saved;
  }
}

/** The `NAME=value` lines of `env` output, as a record. */
const parseEnv = (text: string): Record<string, string> =>
  Object.fromEntries(
    text.split('\n').flatMap((line) => (line.includes('=') ? [[line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]] : [])),
  );

describe('the environment of every git command', () => {
  const fixed = { GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_NO_LAZY_FETCH: '1', GIT_OPTIONAL_LOCKS: '0' };

  it('is the same for runGit and streamGit, and a caller cannot loosen it', async () => {
    await withFakeGit('env-bin', 'env', async () => {
      const ran = parseEnv(await runGit(['x'], { timeoutMs: 10_000, env: { LC_ALL: 'de_DE.UTF-8', GIT_INDEX_FILE: '/tmp/i' } }));
      expect(ran).toMatchObject({ ...fixed, GIT_INDEX_FILE: '/tmp/i' });
      let streamed = '';
      await streamGit(['x'], { timeoutMs: 10_000 }, (chunk) => (streamed += chunk.toString('utf8')));
      expect(parseEnv(streamed)).toMatchObject(fixed);
    });
  });
});

describe('streamGit', () => {
  it('hands over stdout as it comes, and writes the input to stdin', async () => {
    const repo = join(root, 'repo.git');
    await runGit(['init', '--quiet', '--bare', repo], { timeoutMs: 10_000 });
    const oid = (await runGit(['--git-dir', repo, 'hash-object', '-w', '--stdin'], { timeoutMs: 10_000, input: 'hello\n' })).trim();
    const chunks: Buffer[] = [];
    await streamGit(['--git-dir', repo, 'cat-file', '--batch'], { timeoutMs: 10_000, input: `${oid}\n` }, (chunk) => chunks.push(chunk));
    expect(Buffer.concat(chunks).toString('utf8')).toBe(`${oid} blob 6\nhello\n\n`);
  });

  it('rejects with a category and no credentials when git fails', async () => {
    // Port 1 on the loopback: nothing listens there, the connection is refused at once.
    const failure = streamGit(['ls-remote', 'https://reader:s3cret@127.0.0.1:1/org/repo.git'], { timeoutMs: 60_000 }, () => undefined);
    await expect(failure).rejects.toBeInstanceOf(GitError);
    const error = (await failure.catch((e: unknown) => e)) as GitError;
    expect(error.category).toBe('network');
    expect(error.message).not.toContain('s3cret');
  });

  it('kills git and rejects with what the reader threw', async () => {
    await withFakeGit('yes-bin', 'exec yes', async () => {
      const refused = new Error('unexpected output');
      await expect(
        streamGit(['x'], { timeoutMs: 60_000 }, () => {
          throw refused;
        }),
      ).rejects.toBe(refused);
    });
  });

  it('kills git that runs past its time, as a timeout', async () => {
    await withFakeGit('sleep-bin', 'exec sleep 600', async () => {
      await expect(streamGit(['x'], { timeoutMs: 50 }, () => undefined)).rejects.toMatchObject({ category: 'timeout' });
    });
  });

  it('says when git is not installed', async () => {
    const saved = process.env.PATH;
    process.env.PATH = join(root, 'nothing-here');
    try {
      await expect(streamGit(['--version'], { timeoutMs: 10_000 }, () => undefined)).rejects.toMatchObject({ category: 'git-missing' });
    } finally {
      process.env.PATH = saved;
    }
  });
});

describe('isCommitId', () => {
  it('takes the 40 and 64 hex digits of SHA-1 and SHA-256 ids only', () => {
    expect(isCommitId('a'.repeat(40))).toBe(true);
    expect(isCommitId('0'.repeat(64))).toBe(true);
    for (const text of ['a'.repeat(39), 'a'.repeat(41), 'a'.repeat(63), 'A'.repeat(40), `${'a'.repeat(40)}\n`, '(initial)', ''])
      expect(isCommitId(text)).toBe(false);
  });
});
