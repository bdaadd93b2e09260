import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test/helpers/eventually.js';
import { codeDigest, DigestFileError, parseDigests } from './digests.js';
import { publicReloadError, ReferralStore } from './store.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** A store on `codes.txt` in a new temporary folder holding `code`'s digest, loaded. */
async function loadedStore(code: string): Promise<{ dir: string; file: string; store: ReferralStore }> {
  const dir = await mkdtemp(join(tmpdir(), 'referrals-'));
  dirs.push(dir);
  const file = join(dir, 'codes.txt');
  await writeFile(file, `${codeDigest(code)}\n`);
  const store = new ReferralStore(file);
  await store.load();
  return { dir, file, store };
}

describe('referral digests', () => {
  it('digests a code as sha256sum does', () => {
    expect(codeDigest('WELCOME-2026')).toBe('e0bd023f859de583d9894d6513c2cd61b78777855939e437eb026d18c5f4bc4a');
  });

  it('parses digests, skipping comments and blanks, and reports every bad line', () => {
    const d = codeDigest('abcd');
    expect([...parseDigests(`# c\n\n ${d.toUpperCase()} \r\n`, 'f.txt')]).toEqual([d]);
    try {
      parseDigests(`${d}\nWELCOME-2026\n${d}x\n`, 'f.txt');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DigestFileError);
      expect((e as DigestFileError).problems).toEqual([
        'f.txt:2: not a SHA-256 hex digest (64 hex digits; this line has 12 characters)',
        'f.txt:3: not a SHA-256 hex digest (64 hex digits; this line has 65 characters)',
      ]);
      expect((e as Error).message).not.toContain('WELCOME-2026'); // a plaintext code is never repeated
    }
  });

  it('the shipped sample file holds the README codes', async () => {
    const store = new ReferralStore(join(import.meta.dirname, '../../referrals.sample.txt'));
    expect(await store.load()).toBe(3);
    for (const code of ['WELCOME-2026', 'WELCOME-2024', 'SYLLABUS_FRIENDS']) expect(store.isValid(code)).toBe(true);
    expect(store.isValid('welcome-2026')).toBe(false);
  });

  it('reloads on change and keeps the previous set when the new file is bad', async () => {
    const { file, store } = await loadedStore('FIRST-CODE');
    const events: Array<Error | undefined> = [];
    let notify: () => void = () => {};
    await store.watch({
      onReload: (err) => {
        events.push(err);
        notify();
      },
    });
    const next = () =>
      new Promise<void>((r) => {
        notify = r;
      });

    let reloaded = next();
    await writeFile(file, `${codeDigest('SECOND-CODE')}\n`);
    await reloaded;
    expect(store.isValid('SECOND-CODE')).toBe(true);
    expect(store.isValid('FIRST-CODE')).toBe(false);

    reloaded = next();
    await writeFile(file, 'garbage\n');
    await reloaded;
    expect(events.at(-1)?.message).toMatch(/codes\.txt:1: not a SHA-256 hex digest/);
    expect(publicReloadError(events.at(-1)!)).toBe('invalid file, previous set kept');
    expect(store.isValid('SECOND-CODE')).toBe(true);
    await store.close();
  });

  it('follows a file replaced by a rename, and the edits of the new file', async () => {
    const { dir, file, store } = await loadedStore('FIRST-CODE');
    const reloads: Array<Error | undefined> = [];
    await store.watch({ onReload: (error) => void reloads.push(error) });
    try {
      await writeFile(join(dir, 'codes.txt.tmp'), `${codeDigest('RENAMED-CODE')}\n`);
      await rename(join(dir, 'codes.txt.tmp'), file);
      await eventually(() => store.isValid('RENAMED-CODE'), { what: 'the renamed file loaded' });
      // The watch is on the folder: the new file's own edits are seen too.
      await writeFile(file, `${codeDigest('EDITED-CODE')}\n`);
      await eventually(() => store.isValid('EDITED-CODE'), { what: 'the replacement edited' });
      expect(reloads).toEqual([undefined, undefined]);
    } finally {
      await store.close();
    }
  });

  it('follows a Kubernetes Secret volume update (the ..data link swapped)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'referrals-'));
    dirs.push(dir);
    const version = async (name: string, code: string): Promise<void> => {
      await mkdir(join(dir, name));
      await writeFile(join(dir, name, 'codes.txt'), `${codeDigest(code)}\n`);
    };
    await version('..2026_11_29_a', 'FIRST-CODE');
    await symlink('..2026_11_29_a', join(dir, '..data'));
    await symlink('..data/codes.txt', join(dir, 'codes.txt'));
    const store = new ReferralStore(join(dir, 'codes.txt'));
    await store.load();
    await store.watch();
    try {
      await version('..2026_11_29_b', 'SECOND-CODE');
      await symlink('..2026_11_29_b', join(dir, '..data_tmp'));
      await rename(join(dir, '..data_tmp'), join(dir, '..data'));
      await rm(join(dir, '..2026_11_29_a'), { recursive: true });
      await eventually(() => store.isValid('SECOND-CODE'), { what: 'the new Secret version loaded' });
      expect(store.isValid('FIRST-CODE')).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('says which file it could not read (for the log), and only a category for the public /health', async () => {
    const failure = (await new ReferralStore('/nonexistent/codes.txt').load().then(
      () => undefined,
      (e: unknown) => e,
    )) as Error;
    expect(failure.message).toContain('/nonexistent/codes.txt: cannot read the referral digests file (ENOENT)');
    expect(publicReloadError(failure)).toBe('unreadable file, previous set kept');
  });
});
