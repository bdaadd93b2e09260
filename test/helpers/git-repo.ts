/**
 * Real Git repositories for tests: a bare "remote" in a temporary folder and a working clone that commits and
 * pushes to it, holding the small content fixture under `content/`. Identity and branch name are passed on the
 * command line, so no global Git configuration is needed.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { writeContentFixture, type ContentFiles } from './content-fixture.js';

/** A bare remote and a working clone of it. */
export interface ContentRemote {
  /** Temporary folder holding both (and whatever else a test puts there). */
  root: string;
  /** Path of the bare repository: what `CONTENT_GIT_URL` names. */
  bare: string;
  /** The working clone. */
  work: string;
  /** Runs git in the working clone; resolves with stdout. */
  git(...args: string[]): Promise<string>;
  /** Writes files (paths relative to the repository; text or bytes), commits them, pushes `main`; resolves with the commit id. */
  commit(message: string, files: Readonly<Record<string, string | Uint8Array>>, options?: { force?: boolean }): Promise<string>;
  /** Removes the temporary folder. */
  remove(): Promise<void>;
}

/** Runs `git` in `cwd`; resolves with stdout. */
export function git(cwd: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-c', 'user.name=Syllabus Tests', '-c', 'user.email=tests@example.com', '-c', 'commit.gpgsign=false', ...args],
      { cwd, env: { ...process.env, LC_ALL: 'C' } },
      (error, stdout, stderr) => (error ? reject(new Error(`git ${args.join(' ')}: ${stderr || error.message}`)) : resolve(stdout)),
    );
  });
}

/** A remote whose `main` holds the small valid content fixture (edited by `edit`) under `content/`. */
export async function createContentRemote(edit?: (files: ContentFiles) => void): Promise<ContentRemote> {
  const root = await mkdtemp(join(tmpdir(), 'syllabus-git-'));
  const bare = join(root, 'remote.git');
  const work = join(root, 'work');
  await git(root, ['init', '--quiet', '--bare', '--initial-branch=main', bare]);
  // Like a forge, the remote lets a client delete its default branch (tests of a deleted branch do).
  await git(bare, ['config', 'receive.denyDeleteCurrent', 'ignore']);
  await git(root, ['init', '--quiet', '--initial-branch=main', work]);
  await writeContentFixture(join(work, 'content'), edit);
  await writeFile(join(work, 'README.md'), 'The catalog content.\n');
  await git(work, ['add', '--all']);
  await git(work, ['commit', '--quiet', '-m', 'Initial content']);
  await git(work, ['remote', 'add', 'origin', bare]);
  await git(work, ['push', '--quiet', 'origin', 'main']);
  return {
    root,
    bare,
    work,
    git: (...args) => git(work, args),
    async commit(message, files, options = {}) {
      for (const [rel, text] of Object.entries(files)) {
        await mkdir(dirname(join(work, rel)), { recursive: true });
        await writeFile(join(work, rel), text);
      }
      await git(work, ['add', '--all']);
      await git(work, ['commit', '--quiet', '--allow-empty', '-m', message]);
      await git(work, ['push', '--quiet', ...(options.force ? ['--force'] : []), 'origin', 'main']);
      return (await git(work, ['rev-parse', 'HEAD'])).trim();
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

/** Runs `git` in `cwd` with `input` on its standard input; resolves with stdout, trimmed. */
export function gitWithInput(cwd: string, args: readonly string[], input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile('git', args, { cwd, env: { ...process.env, LC_ALL: 'C' } }, (error, stdout, stderr) =>
      error ? reject(new Error(`git ${args.join(' ')}: ${stderr}`)) : resolve(stdout.trim()),
    );
    child.stdin!.end(input);
  });
}

/**
 * Pushes a commit on `main` whose `content/` folder is HEAD's plus one entry built by hand (`git mktree`): an entry
 * no working tree can hold, such as `..` or a name over 255 bytes. `entry` gets a small Markdown blob and a tree
 * holding it, and returns the `mktree` line. Resolves with the commit id; the working clone's files are unchanged.
 */
export async function pushHandMadeEntry(remote: ContentRemote, entry: (ids: { blob: string; tree: string }) => string): Promise<string> {
  const work = remote.work;
  const blob = await gitWithInput(work, ['hash-object', '-w', '--stdin'], '# Title\n');
  const tree = await gitWithInput(work, ['mktree'], `100644 blob ${blob}\tcatalog.md\n`);
  const lines = async (treeish: string): Promise<string[]> => (await remote.git('ls-tree', treeish)).split('\n').filter((l) => l !== '');
  const content = await gitWithInput(work, ['mktree'], [...(await lines('HEAD:content')), entry({ blob, tree })].join('\n') + '\n');
  const top = (await lines('HEAD')).filter((l) => !l.endsWith('\tcontent'));
  const root = await gitWithInput(work, ['mktree'], [...top, `040000 tree ${content}\tcontent`].join('\n') + '\n');
  const commit = (await remote.git('commit-tree', root, '-p', 'HEAD', '-m', 'Hand-made tree')).trim();
  await remote.git('update-ref', 'refs/heads/main', commit);
  await remote.git('push', '--quiet', 'origin', 'main');
  return commit;
}
