/**
 * A reload never stalls serving: while the server reloads lessons that each carry 2,000 unknown frontmatter keys
 * (the 17 KB mistake that once blocked the event loop for 80 s), requests keep being answered, the problems are
 * counted on /health and logged at their exact lines, and the last good content stays served. Ordering, not timing: the test counts
 * requests sent after the server logged that the reload started and answered before the rejection was recorded
 * (the server runs in this process, so a reload that held the event loop would let none through).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REPORTED_PROBLEMS } from '../src/server/problems.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const KEYS = 2_000;
/** Lesson files written with 2,000 unknown keys each: a reload of many files yields between them. */
const FILES = Array.from({ length: 40 }, (_, i) => `courses/python-basics/first-steps/bulk-${String(i).padStart(2, '0')}.md`);

let server: TestServer;
beforeAll(async () => {
  // A quiet time long enough that the writes below make one reload.
  server = await startTestServer({ env: { LOG_LEVEL: 'debug' }, start: { contentDebounceMs: 300 } });
});
afterAll(() => server.close());

const unknownKeys = Array.from({ length: KEYS }, (_, i) => `k${i}: 1\n`).join('');
const bloated = (title: string): string => `---\ntitle: ${title}\nlang: python\n${unknownKeys}---\n\n## One\n`;

describe('a reload of files with thousands of problems', () => {
  it('keeps answering requests while it runs, then reports the problems and keeps the last good content', async () => {
    const holder = server.server.holder;
    const before = holder.status();
    await Promise.all(FILES.map((rel, i) => writeFile(join(server.contentDir, rel), bloated(`Bloated ${i}`))));

    // One request at a time, each sent after the previous answer, until the rejected reload is recorded.
    const started = () => server.logs.some((l) => l.msg === 'content reload started');
    let answeredDuringReload = 0;
    while (holder.status().last_reload_error === '') {
      const sentDuringReload = started();
      const res = await fetch(`${server.url}/v1/catalog`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      if (sentDuringReload && holder.status().last_reload_error === '') answeredDuringReload++;
    }
    expect(server.logs.filter((l) => l.msg === 'content reload started')).toHaveLength(1);
    expect(answeredDuringReload).toBeGreaterThan(0);

    // /health counts the problems; the log lists the first of them, each at its exact line.
    const error = holder.status().last_reload_error;
    const count = Number(/^invalid content \((\d+) problems\); see the log or the admin listener's \/statusz$/.exec(error)?.[1]);
    expect(count).toBeGreaterThanOrEqual(FILES.length * KEYS);
    const rejected = server.logs.find((l) => l.msg === 'content reload rejected; still serving the previous revision')!;
    expect(rejected.problem_count).toBe(count);
    const lines = rejected.problems as string[];
    expect(lines).toHaveLength(MAX_REPORTED_PROBLEMS);
    // Key k<N> sits on line N + 4 of its file (---, title, lang come first): every problem at its own line.
    const unknownKeys = lines.map((line) => /^courses\/.+\.md:(\d+):1: unknown key "k(\d+)"/.exec(line)).filter((m) => m !== null);
    expect(unknownKeys.length).toBeGreaterThan(MAX_REPORTED_PROBLEMS / 2);
    for (const m of unknownKeys) expect(Number(m[1])).toBe(Number(m[2]) + 4);
    expect(holder.status().revision).toBe(before.revision);
    const lesson = (await (await fetch(`${server.url}/v1/lessons/hello-world`)).json()) as { title: string };
    expect(lesson.title).toBe('Hello, world');
  });
});
