/**
 * A client generated from the served `/openapi.json` the way an API user would do it: openapi-typescript
 * writes the types, a small openapi-fetch program is type-checked with tsc (strict) and run against the
 * real server to read the catalog, a course, a 404, a 422 and a referral check.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

/** The client program: compiled with `tsc --strict`, so a wrong field name or a loose type fails the test. */
const CLIENT = `import createClient from 'openapi-fetch';
import type { components, paths } from './api.js';

type Course = components['schemas']['Course'];

const client = createClient<paths>({ baseUrl: process.argv[2]!, headers: { 'User-Agent': 'syllabus-generated-client-test/1.0' } });

const catalog = await client.GET('/v1/catalog');
if (!catalog.data) throw new Error('catalog: HTTP ' + catalog.response.status);
const courses: Course[] = catalog.data.courses;
// @ts-expect-error a Course has no \`name\` (it has \`title\`): the generated types are precise, not \`any\`.
void courses[0]?.name;
const first = courses[0]!;
const course = await client.GET('/v1/courses/{course_id}', { params: { path: { course_id: first.id } } });
const missing = await client.GET('/v1/courses/{course_id}', { params: { path: { course_id: 'no-such-course' } } });
const invalid = await client.GET('/v1/lessons/{lesson_id}', { params: { path: { lesson_id: 'Not An Id' } } });
const referral = await client.GET('/v1/referrals/{code}', { params: { path: { code: 'NOT-A-REAL-CODE-123' } } });
const result = {
  courseIds: courses.map((c) => c.id),
  lessonsLive: courses.reduce((n, c) => n + c.lessons_live, 0),
  courseTitle: course.data?.title ?? null,
  missing: { status: missing.response.status, detail: missing.error?.detail ?? null },
  invalid: { status: invalid.response.status, type: Array.isArray(invalid.error?.detail) ? (invalid.error.detail[0]?.type ?? null) : null },
  referralValid: referral.data?.valid ?? null,
  rateLimitPolicy: catalog.response.headers.get('RateLimit-Policy'),
};
console.log(JSON.stringify(result));
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noUncheckedIndexedAccess: true,
    lib: ['ES2023', 'DOM'],
    types: ['node'],
    outDir: 'out',
    skipLibCheck: true,
  },
  files: ['client.ts', 'api.d.ts'],
};

let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startTestServer();
  dir = await mkdtemp(join(tmpdir(), 'syllabus-client-'));
  // The program resolves openapi-fetch and @types/node from the project's installed packages.
  await symlink(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  await writeFile(join(dir, 'client.ts'), CLIENT);
});

afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a client generated from /openapi.json', () => {
  it('generates, type-checks and reads the catalog from the real server', async () => {
    await run(bin('openapi-typescript'), [`${server.url}/openapi.json`, '--output', join(dir, 'api.d.ts')], { cwd: dir });

    const tsc = await run(bin('tsc'), ['-p', join(dir, 'tsconfig.json')], { cwd: dir }).catch((e: { stdout?: string; message: string }) => {
      throw new Error(`tsc failed on the generated client:\n${e.stdout ?? e.message}`);
    });
    expect(tsc.stdout).toBe('');

    const { stdout } = await run(process.execPath, [join(dir, 'out', 'client.js'), server.url], { cwd: dir });
    const result = JSON.parse(stdout) as Record<string, any>;

    const catalog = (await (await fetch(`${server.url}/v1/catalog`)).json()) as { courses: Array<{ id: string; title: string }> };
    expect(result.courseIds).toEqual(catalog.courses.map((c) => c.id));
    expect(result.lessonsLive).toBeGreaterThan(0);
    expect(result.courseTitle).toBe(catalog.courses[0]!.title);
    expect(result.missing).toEqual({ status: 404, detail: 'Course not found' });
    expect(result.invalid).toEqual({ status: 422, type: 'string_pattern_mismatch' });
    expect(result.referralValid).toBe(false);
    expect(result.rateLimitPolicy).toMatch(/^\d+;w=\d+$/);
  });
});
