/**
 * The real entry point as a subprocess (`node --import tsx src/server/main.ts`: the entry point `npm start` runs, from source):
 * SIGTERM drains in-flight requests and exits 0; invalid content or configuration stops start-up with a
 * clear message and a non-zero exit code.
 */
import { Agent, request } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeDigest } from '../src/referrals/digests.js';
import { writeContentFixture } from './helpers/content-fixture.js';
import { killServers, servingUrl, spawnServer } from './helpers/server-process.js';

const temps: string[] = [];
afterAll(async () => {
  killServers();
  for (const d of temps) await rm(d, { recursive: true, force: true });
});

async function fixture(edit?: Parameters<typeof writeContentFixture>[1]): Promise<{ contentDir: string; referralsFile: string }> {
  const root = await mkdtemp(join(tmpdir(), 'syllabus-process-'));
  temps.push(root);
  const contentDir = await writeContentFixture(join(root, 'content'), edit);
  const referralsFile = join(root, 'referrals.txt');
  await writeFile(referralsFile, `${codeDigest('WELCOME-2026')}\n`);
  return { contentDir, referralsFile };
}

function get(url: string, agent: Agent): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/catalog`, { agent }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the server process', () => {
  it('drains on SIGTERM and exits 0, without waiting for idle keep-alive connections', async () => {
    const { contentDir, referralsFile } = await fixture();
    // With an hour of grace, an idle keep-alive connection that held the shutdown would time the test out.
    const s = spawnServer({ CONTENT_DIR: contentDir, REFERRALS_FILE: referralsFile, SHUTDOWN_TIMEOUT: '3600' });
    const url = await servingUrl(s);
    const agent = new Agent({ keepAlive: true });
    expect((await get(url, agent)).status).toBe(200);
    // The keep-alive connection stays open and idle; the server closes it instead of waiting for it.
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect(s.stdout()).toContain('"msg":"draining in-flight requests, then exiting"');
    expect(s.stdout()).toContain('"msg":"stopped"');
    agent.destroy();
    await expect(get(url, new Agent())).rejects.toThrow(/ECONNREFUSED/);
  });

  it('SIGINT stops it too, exit 0', async () => {
    const { contentDir, referralsFile } = await fixture();
    const s = spawnServer({ CONTENT_DIR: contentDir, REFERRALS_FILE: referralsFile });
    await servingUrl(s);
    s.child.kill('SIGINT');
    expect(await s.exited).toBe(0);
  });

  it('a SIGTERM the moment it serves (compression and the /docs build still running) exits 0, every time', async () => {
    const { contentDir, referralsFile } = await fixture();
    for (let i = 0; i < 3; i++) {
      const s = spawnServer({ CONTENT_DIR: contentDir, REFERRALS_FILE: referralsFile });
      await servingUrl(s);
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
    }
  });

  it('refuses to start on invalid content, listing each problem as path:line:column: message', async () => {
    const { contentDir, referralsFile } = await fixture((files) => {
      files['courses/python-basics/index.md'] = files['courses/python-basics/index.md']!.replace('color: "#3776ab"', 'color: blue');
    });
    const s = spawnServer({ CONTENT_DIR: contentDir, REFERRALS_FILE: referralsFile });
    expect(await s.exited).toBe(1);
    expect(s.stderr()).toMatch(/cannot start: content in .* is invalid/);
    expect(s.stderr()).toMatch(/courses\/python-basics\/index\.md:\d+:\d+: .*color/);
    expect(s.stderr()).not.toMatch(/\n\s+at /);
  });

  it('refuses to start on bad configuration, naming every bad variable, exit 2', async () => {
    const s = spawnServer({ PORT: 'eighty', LOG_LEVEL: 'loud' });
    expect(await s.exited).toBe(2);
    expect(s.stderr()).toContain('PORT: "eighty" is not a whole number from 0 to 65535');
    expect(s.stderr()).toContain('LOG_LEVEL: "loud" is not one of');
  });

  it('refuses a content folder and a Git repository at once, exit 2', async () => {
    const s = spawnServer({ CONTENT_DIR: 'content', CONTENT_GIT_URL: 'https://user:hunter2@git.example.com/content.git' });
    expect(await s.exited).toBe(2);
    expect(s.stderr()).toContain('CONTENT_DIR and CONTENT_GIT_URL: set one or the other');
    expect(s.stderr()).not.toContain('hunter2');
  });

  it('refuses to start without a readable referral file', async () => {
    const { contentDir } = await fixture();
    const s = spawnServer({ CONTENT_DIR: contentDir, REFERRALS_FILE: '/nonexistent/referrals.txt' });
    expect(await s.exited).toBe(1);
    expect(s.stderr()).toContain('/nonexistent/referrals.txt: cannot read the referral digests file (ENOENT)');
  });
});
