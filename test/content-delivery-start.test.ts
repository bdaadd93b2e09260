/**
 * No change is lost at start-up, and SIGHUP reads everything again: the real entry point as a subprocess.
 * An edit written the moment `/health` first answers is served (the watcher is armed before the first load and
 * before the port is opened); a referral file changed behind the watcher's back is read on SIGHUP.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeDigest } from '../src/referrals/digests.js';
import { writeContentFixture } from './helpers/content-fixture.js';
import { eventually } from './helpers/eventually.js';
import { freePort, killServers, logLines, spawnServer } from './helpers/server-process.js';

const LESSON = 'courses/python-basics/first-steps/hello-world.md';
const lessonText = (title: string): string => `---\ntitle: ${title}\nlang: python\n---\n\n## One\n`;

const temps: string[] = [];
afterAll(async () => {
  killServers();
  for (const d of temps) await rm(d, { recursive: true, force: true });
});

async function fixture(): Promise<{ contentDir: string; referralsFile: string }> {
  const root = await mkdtemp(join(tmpdir(), 'syllabus-start-'));
  temps.push(root);
  const contentDir = await writeContentFixture(join(root, 'content'), (files) => void (files[LESSON] = lessonText('At start')));
  const referralsFile = join(root, 'referrals.txt');
  await writeFile(referralsFile, `${codeDigest('WELCOME-2026')}\n`);
  return { contentDir, referralsFile };
}

describe('start-up and SIGHUP', () => {
  it('serves an edit written the moment /health first answers', async () => {
    const { contentDir, referralsFile } = await fixture();
    const port = String(await freePort());
    const s = spawnServer({ CONTENT_DIR: contentDir, REFERRALS_FILE: referralsFile, PORT: port });
    const url = `http://127.0.0.1:${port}`;
    // Ask as fast as the loop allows: the first answer is the earliest moment a client can see the service.
    await eventually(async () => (await fetch(`${url}/health`).catch(() => undefined))?.ok === true, {
      what: '/health',
      everyMs: 2,
      limitMs: 30_000,
    });
    await writeFile(join(contentDir, LESSON), lessonText('Written at the first answer'));
    await eventually(
      async () => ((await (await fetch(`${url}/v1/lessons/hello-world`)).json()) as { title: string }).title === 'Written at the first answer',
      {
        what: 'the edit to be served',
        limitMs: 10_000,
      },
    );
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  });

  it('reads the content and the referral codes again on SIGHUP', async () => {
    const { contentDir, referralsFile } = await fixture();
    const port = String(await freePort());
    const s = spawnServer({ CONTENT_DIR: contentDir, REFERRALS_FILE: referralsFile, PORT: port });
    const url = `http://127.0.0.1:${port}`;
    await eventually(() => logLines(s).some((l) => l.msg === 'serving'), { what: 'serving', limitMs: 30_000 });
    s.child.kill('SIGHUP');
    await eventually(() => logLines(s).some((l) => l.msg === 'referral digests reloaded'), { what: 'the referral file read again' });
    await eventually(() => logLines(s).some((l) => l.msg === 'content reloaded' && l.reason === 'SIGHUP'), { what: 'the content read again' });
    expect(s.child.exitCode).toBeNull(); // SIGHUP does not end the process
    expect((await fetch(`${url}/health`)).status).toBe(200);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  });
});
