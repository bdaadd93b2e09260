/**
 * What the service logger writes to stdout: every line, once and whole, with text outside ASCII intact, in both
 * formats, whether the process waits for its output to drain or exits at once with lines still buffered (pino's exit
 * hook writes them).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const TITLE = 'Café — 学习 🚀';

/** Runs the lines fixture and resolves to its exit code and stdout. */
function logLines(env: Record<string, string>): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/logger/lines.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => chunks.push(c));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout: Buffer.concat(chunks).toString('utf8') })));
}

describe('the service log on stdout', () => {
  // 5,000 lines of ~150 bytes: several 32 KiB batches, and a last one not full.
  const expectEveryLine = (lines: string[]): void => {
    expect(lines).toHaveLength(5000);
    lines.forEach((line, i) => {
      expect(JSON.parse(line)).toMatchObject({ level: 30, service: 'syllabus-catalog', i, title: TITLE, msg: `line ${i}` });
    });
  };

  it('holds every JSON line once, in order, outside ASCII intact, when the output drains before the exit', async () => {
    const { code, stdout } = await logLines({ LINES: '5000', FORMAT: 'json', END: 'drain' });
    expect(code).toBe(0);
    expectEveryLine(stdout.trimEnd().split('\n'));
  });

  it('holds every JSON line once, in order, outside ASCII intact, when the process exits at once', async () => {
    // 4,800 lines written and drained, then 200 logged right before process.exit: pino's exit hook writes those.
    const { code, stdout } = await logLines({ LINES: '4800', FORMAT: 'json', END: 'exit', TAIL: '200' });
    expect(code).toBe(0);
    expectEveryLine(stdout.trimEnd().split('\n'));
  });

  it('keeps a line longer than a batch whole and in its place among the others', async () => {
    const { code, stdout } = await logLines({ LINES: '5000', FORMAT: 'json', END: 'drain', LONG_EVERY: '700' });
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expectEveryLine(lines);
    lines.forEach((line, i) => expect((JSON.parse(line) as { long?: string }).long).toBe(i % 700 === 0 ? 'é'.repeat(12_000) : undefined));
  });

  it('writes pino-pretty lines in the pretty format, one line each with its fields', async () => {
    const { code, stdout } = await logLines({ LINES: '300', FORMAT: 'pretty', END: 'drain' });
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(300);
    lines.forEach((line, i) => {
      expect(line).toMatch(new RegExp(`^\\[[^\\]]+\\] INFO: line ${i} `));
      expect(line).toContain(`"i":${i},"title":"${TITLE}"`);
    });
  });
});
