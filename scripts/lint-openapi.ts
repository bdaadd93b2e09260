/**
 * Lints the generated OpenAPI document with Redocly CLI (`redocly.yaml`, recommended rules) and Spectral
 * (`.spectral.yaml`, `spectral:oas`), offline and with Redocly's telemetry off. Fails on any error or
 * warning from either. Run by `npm test` (scripts/test.sh) before vitest.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeOpenApi } from './write-openapi.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

/** Runs a linter that exits non-zero on findings; returns its stdout either way. */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
  try {
    return execFileSync(cmd, args, { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  } catch (err) {
    const out = (err as { stdout?: string }).stdout;
    if (out) return out;
    throw err;
  }
}

interface Finding {
  tool: string;
  severity: string;
  rule: string;
  where: string;
  message: string;
}

function redocly(file: string): Finding[] {
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  const report = JSON.parse(run(bin('redocly'), ['lint', file, '--config', 'redocly.yaml', '--format', 'json'], env)) as {
    problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }>;
  };
  return report.problems.map((p) => ({
    tool: 'redocly',
    severity: p.severity,
    rule: p.ruleId,
    where: p.location[0]?.pointer ?? '#',
    message: p.message,
  }));
}

function spectral(file: string): Finding[] {
  const out = run(bin('spectral'), ['lint', file, '--ruleset', '.spectral.yaml', '--format', 'json', '--quiet']);
  const results = JSON.parse(out.trim() || '[]') as Array<{ code: string; severity: number; message: string; path: string[] }>;
  const names = ['error', 'warn', 'info', 'hint'];
  return results.map((r) => ({
    tool: 'spectral',
    severity: names[r.severity] ?? String(r.severity),
    rule: r.code,
    where: '#/' + r.path.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/'),
    message: r.message,
  }));
}

const dir = mkdtempSync(join(tmpdir(), 'syllabus-openapi-'));
try {
  const file = join(dir, 'openapi.json');
  writeOpenApi(file);
  const findings = [...redocly(file), ...spectral(file)];
  for (const f of findings) console.error(`${f.tool} ${f.severity} ${f.rule} at ${f.where}: ${f.message}`);
  if (findings.length > 0) {
    console.error(`OpenAPI lint: ${findings.length} finding(s)`);
    process.exitCode = 1;
  } else {
    console.log('OpenAPI lint: Redocly (recommended) and Spectral (spectral:oas) report nothing');
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
