/**
 * The real entry point as a subprocess (`node --import tsx src/server/main.ts`: the entry point `npm start` runs, from source):
 * SIGTERM drains in-flight requests and exits 0; invalid content or configuration stops start-up with a
 * clear message, a `fatal` line of the log in its format (nothing on stderr), and a non-zero exit code.
 */
import { Agent, request } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeDigest } from '../src/referrals/digests.js';
import { writeContentFixture } from './helpers/content-fixture.js';
import { killServers, logLines, servingUrl, spawnServer, type SpawnedServer } from './helpers/server-process.js';

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

/** The fatal lines a process wrote before exiting (pino level 60), and checks that it wrote nothing on stderr. */
function fatalLines(s: SpawnedServer): Array<{ msg: string; problems?: string[]; exit_code?: number; [field: string]: unknown }> {
  expect(s.stderr()).toBe('');
  return logLines(s).filter((l) => l.level === 60) as Array<{ msg: string; problems?: string[] }>;
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
    // An hour for the log to drain: a process that waited for its timeout instead of the written line would time out.
    const s = spawnServer({ CONTENT_DIR: contentDir, REFERRALS_FILE: referralsFile, SHUTDOWN_TIMEOUT: '3600' });
    expect(await s.exited).toBe(1);
    const [fatal, ...more] = fatalLines(s);
    expect(more).toEqual([]);
    expect(fatal?.msg).toMatch(/^cannot start: content in .* is invalid \(1 problem\(s\)\)$/);
    expect(fatal?.problems).toEqual([expect.stringMatching(/^courses\/python-basics\/index\.md:\d+:\d+: .*color/)]);
    expect(fatal).toMatchObject({ exit_code: 1, service: 'syllabus-catalog' });
    expect(fatal).not.toHaveProperty('err'); // a content problem is no crash: no stack
  });

  it('refuses to start on bad configuration, naming every bad variable, exit 2', async () => {
    const s = spawnServer({ PORT: 'eighty', LOG_LEVEL: 'loud', SHUTDOWN_TIMEOUT: '3600' });
    expect(await s.exited).toBe(2);
    // LOG_LEVEL is bad: the line is written at its default level.
    expect(fatalLines(s)).toEqual([
      expect.objectContaining({
        msg: 'cannot start: invalid configuration',
        exit_code: 2,
        problems: ['PORT: "eighty" is not a whole number from 0 to 65535', expect.stringMatching(/^LOG_LEVEL: "loud" is not one of/)],
      }),
    ]);
  });

  it('writes the configuration problems in the pretty format when LOG_FORMAT=pretty, in JSON when LOG_FORMAT is bad too', async () => {
    const pretty = spawnServer({ PORT: 'eighty', LOG_FORMAT: 'pretty' });
    expect(await pretty.exited).toBe(2);
    expect(pretty.stderr()).toBe('');
    expect(pretty.stdout()).toMatch(
      /^\[[^\]]+\] FATAL: cannot start: invalid configuration \{"exit_code":2\}\n {4}problems: ?\n {6}PORT: "eighty" is not a whole number from 0 to 65535\n$/,
    );
    const json = spawnServer({ PORT: 'eighty', LOG_FORMAT: 'colourful' });
    expect(await json.exited).toBe(2);
    expect(fatalLines(json)[0]?.problems).toEqual([
      'PORT: "eighty" is not a whole number from 0 to 65535',
      'LOG_FORMAT: "colourful" is neither json nor pretty',
    ]);
  });

  it('refuses a content folder and a Git repository at once, exit 2', async () => {
    const s = spawnServer({ CONTENT_DIR: 'content', CONTENT_GIT_URL: 'https://user:hunter2@git.example.com/content.git' });
    expect(await s.exited).toBe(2);
    expect(fatalLines(s)[0]?.problems).toEqual([expect.stringContaining('CONTENT_DIR and CONTENT_GIT_URL: set one or the other')]);
    expect(s.stdout()).not.toContain('hunter2');
  });

  it('refuses to start without a readable referral file', async () => {
    const { contentDir } = await fixture();
    const s = spawnServer({ CONTENT_DIR: contentDir, REFERRALS_FILE: '/nonexistent/referrals.txt' });
    expect(await s.exited).toBe(1);
    expect(fatalLines(s)).toEqual([
      expect.objectContaining({
        msg: 'cannot start: referral codes cannot be loaded',
        problems: [expect.stringContaining('/nonexistent/referrals.txt: cannot read the referral digests file (ENOENT)')],
      }),
    ]);
  });

  it('with WORKERS, a worker that cannot start stops the service: its fatal line and the primary’s, exit 1', async () => {
    const { contentDir, referralsFile } = await fixture((files) => {
      files['courses/python-basics/index.md'] = files['courses/python-basics/index.md']!.replace('color: "#3776ab"', 'color: blue');
    });
    // The content is read before the rate-limit store is opened: no Redis is needed to fail.
    const s = spawnServer({ CONTENT_DIR: contentDir, REFERRALS_FILE: referralsFile, WORKERS: '2', RATE_LIMIT_STORE: 'redis://127.0.0.1:1' });
    expect(await s.exited).toBe(1);
    const lines = fatalLines(s);
    const workers = lines.filter((l) => l.msg.startsWith('cannot start: content in '));
    expect(workers.length).toBeGreaterThanOrEqual(1);
    const primary = lines.filter((l) => /^worker \d+ exited \(code 1\); stopping the service$/.test(l.msg));
    expect(primary).toHaveLength(1);
    expect(primary[0]).toMatchObject({ worker_pid: expect.any(Number), worker_exit_code: 1 });
  });
});
