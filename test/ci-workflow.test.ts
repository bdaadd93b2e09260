/**
 * `.github/workflows/ci.yml`: valid for GitHub Actions (SchemaStore's workflow JSON Schema, vendored in
 * test/fixtures/github-workflow), a content job that runs the writers' checks, and a test suite that runs only when
 * something besides content/ changed; the script that decides it is run as the workflow runs it, in real Git
 * repositories.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createContentRemote, type ContentRemote } from './helpers/git-repo.js';

const ROOT = join(import.meta.dirname, '..');

interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  if?: string;
  env?: Record<string, string>;
  outputs?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  jobs: Record<string, Job>;
}

async function workflow(): Promise<Workflow> {
  return parse(await readFile(join(ROOT, '.github/workflows/ci.yml'), 'utf8')) as Workflow;
}

/**
 * The vendored schema, compiled without Ajv's strict mode (meant for schemas written here): SchemaStore's declares
 * `properties` without `type` and `required` names it does not define, which plain draft-07 allows.
 */
async function validator(): Promise<ReturnType<Ajv['compile']>> {
  const schema = JSON.parse(await readFile(join(ROOT, 'test/fixtures/github-workflow/github-workflow.json'), 'utf8')) as object;
  return new Ajv({ allErrors: true, strict: false, validateFormats: false }).compile(schema);
}

describe('the CI workflow', () => {
  it('is valid against the GitHub workflow JSON Schema, which rejects a broken workflow', async () => {
    const validate = await validator();
    const ci = await workflow();
    expect(validate(ci) ? [] : validate.errors).toEqual([]);
    // The check can fail: a job without runs-on, a step with an unknown key.
    const broken = structuredClone(ci) as unknown as { jobs: Record<string, Record<string, unknown>> };
    delete broken.jobs.content!['runs-on'];
    expect(validate(broken)).toBe(false);
    const typo = structuredClone(ci) as unknown as { jobs: Record<string, { steps: Record<string, unknown>[] }> };
    typo.jobs.content!.steps[0]!.wiht = { 'fetch-depth': 0 };
    expect(validate(typo)).toBe(false);
  });

  it('has a content job running validate, validate --base and diff (summary on the pull request), without the suite', async () => {
    const { content } = (await workflow()).jobs;
    const runs = content!.steps.map((s) => s.run ?? '');
    expect(runs).toContain('node bin/syllabus-content.js validate content');
    expect(runs).toContain('node bin/syllabus-content.js validate content --base "origin/$BASE_REF"');
    expect(runs).toContain('node bin/syllabus-content.js diff --format github "origin/$BASE_REF"');
    expect(runs.some((r) => /npm (run )?test/.test(r))).toBe(false);
    expect(content!.needs).toBeUndefined(); // it starts at once
  });

  it('runs the suite only when the changes job says code changed, in a job that always reports (success when skipped)', async () => {
    const { test, changes } = (await workflow()).jobs;
    expect(test!.needs).toBe('changes');
    expect(test!.if).toBeUndefined(); // a skipped matrix job would report its name unexpanded
    expect(test!.env).toEqual({ RUN_SUITE: '${{ needs.changes.outputs.code }}' });
    expect(changes!.outputs).toEqual({ code: '${{ steps.paths.outputs.code }}' });
    const suite = test!.steps.filter((s) => s.run === 'npm test' || s.run === 'npm ci' || s.uses !== undefined);
    expect(suite.length).toBeGreaterThanOrEqual(4);
    for (const step of suite) expect(step.if).toBe("env.RUN_SUITE == 'true'");
  });
});

describe('the changes script, run in a real repository', () => {
  let remote: ContentRemote;
  let scratch: string;
  beforeEach(async () => {
    remote = await createContentRemote();
    scratch = await mkdtemp(join(tmpdir(), 'syllabus-ci-'));
  });
  afterEach(async () => {
    await remote.remove();
    await rm(scratch, { recursive: true, force: true });
  });

  /** Runs the `paths` step as the runner would, on HEAD of the clone; its `code` output. */
  async function code(env: Record<string, string>): Promise<string> {
    const step = (await workflow()).jobs.changes!.steps.find((s) => s.id === 'paths')!;
    const output = join(scratch, `output-${Math.random().toString(36).slice(2)}`);
    await writeFile(output, '');
    await new Promise<void>((resolve, reject) =>
      execFile('bash', ['-e', '-c', step.run!], { cwd: remote.work, env: { ...process.env, ...env, GITHUB_OUTPUT: output } }, (err) =>
        err ? reject(new Error(err.message)) : resolve(),
      ),
    );
    const lines = (await readFile(output, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(1);
    return lines[0]!;
  }

  it('says code=false for a pull request that changes only content/, true for one that changes anything else', async () => {
    await remote.git('switch', '--quiet', '-c', 'change');
    await remote.commit('A lesson title', {
      'content/courses/python-basics/first-steps/variables.md': '---\ntitle: Names\nlang: python\n---\n\n## Names\n',
    });
    const pr = { EVENT: 'pull_request', BASE_REF: 'main', BEFORE: '' };
    expect(await code(pr)).toBe('code=false');
    await remote.commit('And the README', { 'README.md': 'Changed.\n' });
    expect(await code(pr)).toBe('code=true');
  });

  it('compares a push with the commit before it, and runs everything when that commit is unknown', async () => {
    const before = (await remote.git('rev-parse', 'HEAD')).trim();
    await remote.commit('Content only', { 'content/roadmap/new-thing.md': '---\ntitle: X\ntheme: Y\nstage: next\n---\n\nZ.\n' });
    expect(await code({ EVENT: 'push', BEFORE: before })).toBe('code=false');
    expect(await code({ EVENT: 'push', BEFORE: '0000000000000000000000000000000000000000' })).toBe('code=true');
    await remote.commit('Code', { 'src/x.ts': 'export {};\n' });
    expect(await code({ EVENT: 'push', BEFORE: before })).toBe('code=true');
  });
});
