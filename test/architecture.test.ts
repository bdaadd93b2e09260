/**
 * The layers of docs/architecture.md hold: dependency-cruiser with the project's rules (dependency-cruiser.cjs)
 * finds no import going back up, no cycle, and no Node import in the runtime-neutral layers.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

interface CruiseOutput {
  summary: { violations: Array<{ from: string; to: string; rule: { name: string } }>; totalCruised: number };
}

describe('the layers', () => {
  it('have no violation of the dependency rules', () => {
    const root = new URL('..', import.meta.url);
    const out = execFileSync('npx', ['depcruise', 'src', '--config', 'dependency-cruiser.cjs', '--output-type', 'json'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const { summary } = JSON.parse(out) as CruiseOutput;
    expect(summary.totalCruised).toBeGreaterThan(100);
    expect(summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  }, 120_000);
});
