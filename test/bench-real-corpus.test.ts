/**
 * The benchmark's lesson corpus (bench/real-corpus.ts) on a small scale: built from the documents of the shared
 * lesson corpus (`../shared/corpus`, when it is there), it is deterministic, the service loads it and counts every
 * lesson's steps as the remark tree has them, and the frontmatter baseline reads every file. Nothing here asserts a
 * timing.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../src/schemas/types.generated.js';
import { countStepsOnTree } from '../src/content/steps.js';
import { frontmatterBaseline, type ColdResult, type CorpusResult } from '../bench/content-serve.js';
import { buildBundles, repoRoot } from '../bench/lib/build.js';
import { startServerProcess } from '../bench/lib/servers.js';
import { buildRealCorpus, collectDocuments, hasLessonCorpus, type DocumentSet, type DocumentSummary, type RealCorpus } from '../bench/real-corpus.js';
import { renderMarkdown, runInfo, type BenchResults } from '../bench/report.js';

const DOCUMENTS = 150;
const LESSONS = 200; // more lessons than documents: the last 50 reuse documents

let work: string;
let set: DocumentSet;
let corpus: RealCorpus;
const outdir = join(repoRoot, 'bench', 'out', `real-corpus-${process.pid}`);

async function treeFiles(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const rel of (await readdir(dir, { recursive: true })).sort()) {
    if (rel.endsWith('.md')) files.set(rel, await readFile(join(dir, rel), 'utf8'));
  }
  return files;
}

describe.skipIf(!hasLessonCorpus)('the lesson corpus', () => {
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'syllabus-bench-real-'));
    set = await collectDocuments(undefined, DOCUMENTS);
    corpus = await buildRealCorpus(join(work, 'a'), LESSONS, set);
  }, 120_000);

  afterAll(async () => {
    await rm(outdir, { recursive: true, force: true });
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('takes distinct documents of the shared corpus, reused cyclically, and says so', () => {
    expect(set.documents).toHaveLength(DOCUMENTS);
    expect(new Set(set.documents.map((d) => d.body)).size).toBe(DOCUMENTS);
    expect(corpus.lessons).toBe(LESSONS);
    expect(corpus.reusedLessons).toBe(LESSONS - DOCUMENTS);
    expect(corpus.documents.documents).toBe(DOCUMENTS);
    expect(corpus.documents.scanned).toBeGreaterThan(DOCUMENTS);
  });

  it('writes lesson bodies that are the documents, and the same tree from the same corpus', async () => {
    const again = await buildRealCorpus(join(work, 'b'), LESSONS, await collectDocuments(undefined, DOCUMENTS));
    expect(again.bytes).toBe(corpus.bytes);
    const first = await treeFiles(join(work, 'a'));
    expect(await treeFiles(join(work, 'b'))).toEqual(first);
    const lesson = first.get('courses/course-1/class-1/lesson-1.md')!;
    expect(lesson.startsWith('---\ntitle: "Real lesson 1"\n')).toBe(true);
    expect(lesson.endsWith(set.documents[0]!.body)).toBe(true);
  });

  it('is loaded by the service, which counts each lesson’s steps as the remark tree has them', async () => {
    const bundles = await buildBundles(outdir);
    const server = await startServerProcess(bundles.server, [], { env: { CONTENT_DIR: join(work, 'a') }, readyPath: '/v1/catalog' });
    try {
      const response = await fetch(`${server.url}/v1/catalog`, { headers: { 'User-Agent': 'bench-agent/1.0 (+https://bench.example)' } });
      expect(response.status).toBe(200);
      const catalog = (await response.json()) as Catalog;
      const lessons = catalog.courses.flatMap((c) => c.classes.flatMap((k) => k.lessons));
      expect(lessons).toHaveLength(LESSONS);
      for (const lesson of lessons) {
        const document = set.documents[(Number(lesson.id.slice('lesson-'.length)) - 1) % DOCUMENTS]!;
        expect({ id: lesson.id, steps: lesson.steps }).toEqual({ id: lesson.id, steps: countStepsOnTree(document.body) });
      }
      expect(lessons.reduce((n, l) => n + l.steps, 0)).toBe(corpus.steps);
    } finally {
      await server.child.stop();
    }
  }, 120_000);

  it('is read by the frontmatter baseline, every file', async () => {
    const baseline = await frontmatterBaseline(join(work, 'a'), corpus.files);
    expect(baseline.ms).toBeGreaterThan(0);
    expect(baseline.peakRssMiB).toBeGreaterThan(10);
  });
});

describe('the report of the content section', () => {
  const cold = (lessons: number, wallMs: number, baselineMs: number): ColdResult => {
    const run = {
      wallMs,
      serviceStartupMs: null,
      rssAtFirstServeMiB: 90,
      rssReadyMiB: 80,
      peakRssMiB: 120,
      compressedMs: wallMs + 1,
      steadyRssMiB: 70,
    };
    return {
      ...run,
      lessons,
      files: lessons + 240,
      treeMiB: 40,
      filesPerSecond: 1,
      baselineMs,
      baselinePeakRssMiB: 60,
      baselineRatio: wallMs / baselineMs,
      runs: [{ ...run, baselineMs, baselinePeakRssMiB: 60 }],
    };
  };

  const documents: DocumentSummary = {
    documents: 1234,
    scanned: 1300,
    duplicates: 66,
    skipped: { notUtf8: 0, forbiddenCharacter: 0 },
    bytes: 2_000_000,
    fastPath: 1200,
    headingAdded: 30,
    lineBreaksFixed: 0,
  };

  it('shows both corpora, the ratio to the frontmatter baseline and the steady-state RSS, with met or missed per target', () => {
    const corpora: CorpusResult[] = [
      { corpus: 'generated', documents: null, cold: [cold(10_000, 900, 600), cold(50_000, 3000, 1000)], reload: null },
      { corpus: 'real', documents, cold: [cold(10_000, 5000, 1000)], reload: null },
    ];
    const md = renderMarkdown({ run: runInfo(true, {}), content: { corpora }, profiles: [] }, '');
    expect(md).toContain('## Content: cold start on generated lessons');
    expect(md).toContain('## Content: cold start on lesson-shaped Markdown');
    expect(md).toContain('1,234 distinct documents');
    expect(md).toContain('| cold start to first served request, 10,000 generated lessons | ≤ 1,000 ms | 900 ms | **met** |');
    // The frontmatter-baseline target is judged on lesson-shaped Markdown only.
    expect(md).not.toMatch(/alone, 10,000 generated lessons \|/);
    expect(md).toMatch(/alone, 10,000 lessons of lesson-shaped Markdown \| ≤ 2× \| 5× .*\| \*\*missed\*\* \|/);
    expect(md).toMatch(/\| peak RSS, 50,000 generated lessons .*\| 120 MiB \(steady 70 MiB\) \| \*\*met\*\* \|/);
  });

  it('still renders a results file written before the real corpus (generated lessons only)', () => {
    // The fields of a cold start before the baseline and the steady-state RSS were measured.
    const legacy = {
      lessons: 10_000,
      files: 11_240,
      treeMiB: 40,
      wallMs: 900,
      compressedMs: 950,
      filesPerSecond: 12_489,
      rssAtFirstServeMiB: 90,
      rssReadyMiB: 80,
      peakRssMiB: 120,
      runs: [{ wallMs: 900 }],
    };
    const old = { run: runInfo(true, {}), content: { cold: [legacy], reload: null }, profiles: [] } as unknown as BenchResults;
    const md = renderMarkdown(old, '');
    expect(md).toContain('## Content: cold start on generated lessons');
    expect(md).toContain('| cold start to first served request, 10,000 generated lessons | ≤ 1,000 ms | 900 ms | **met** |');
    expect(md).not.toContain('undefined');
  });
});
