/**
 * `npm run bench:watchers`: the content watcher candidates compared on a generated tree (issue 18, "a lighter
 * watcher"): chokidar 5 configured as `src/source/watch.ts` configured it until it moved to the fourth, Node's
 * `fs.watch(dir, { recursive: true })` (on Linux in Node 20 a JavaScript walk with one `fs.watch` per file and
 * folder), `@parcel/watcher` (native, one inotify watch per folder), and `per-folder`: src/source/folder-watcher.ts,
 * one non-recursive `fs.watch` per folder, what the service uses.
 *
 * Each candidate runs in its own Node process on its own copy of the tree (same seed) and reports: time until armed,
 * RSS, heap and external memory the watcher added, the peak RSS of the process, the latency from a finished write to
 * its event, what a burst of 1,000 concurrent writes gave (paths seen, duplicate events, time to the last event), and
 * the deploy cases of the Git-delivery issue. A case holds when the changed paths reported, applied the way the
 * content loader applies them (`loadChanged`: re-read each path, a path ending in `/` drops that folder), leave a
 * mirror of the tree equal to a fresh read of it, and nothing is reported through a link or under a hidden folder.
 *
 *   npm run bench:watchers -- --lessons 10000 --only chokidar,parcel --out bench/out/watchers
 */
import { spawn } from 'node:child_process';
import { watch as fsWatch, lstatSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import parcel from '@parcel/watcher';
import { watch as chokidarWatch } from 'chokidar';
import { watchFolders } from '../src/source/folder-watcher.js';
import { entryKind, isHiddenPath, listContentTree } from '../src/content/read-tree.js';
import { generateContent } from './generate-content.js';
import { median, mib, round } from './lib/stats.js';

const KINDS = ['chokidar', 'fs-watch', 'parcel', 'per-folder'] as const;
type Kind = (typeof KINDS)[number];

/** A running candidate: reports raw changed paths (relative, `/`-separated, `dir/` for a removed folder). */
interface Candidate {
  close(): Promise<void>;
}
type OnPaths = (paths: string[]) => void;

const toRel = (dir: string, abs: string): string => relative(dir, abs).split(sep).join('/');

/**
 * What a consumer of a watcher that reports bare paths (fs.watch, @parcel/watcher) must do with each one: hidden paths
 * dropped; a folder that appears is walked (its files may predate the watch on it); a path that is gone may have been
 * a folder, so both `rel` and `rel/` are reported.
 */
async function expandBarePath(dir: string, rel: string, report: OnPaths): Promise<void> {
  if (rel === '' || isHiddenPath(rel)) return;
  let kind;
  try {
    kind = entryKind(rel, lstatSync(join(dir, rel)));
  } catch {
    report([rel, `${rel}/`]);
    return;
  }
  if (kind === 'folder') {
    const tree = await listContentTree(join(dir, rel)).catch(() => ({ markdown: [], links: [] }));
    report([...tree.markdown, ...tree.links].map((p) => `${rel}/${p}`));
  } else if (kind !== 'other' && kind !== 'skipped') report([rel]);
}

const candidates: Record<Kind, (dir: string, onPaths: OnPaths) => Promise<Candidate>> = {
  async chokidar(dir, onPaths) {
    // The options src/source/watch.ts gave chokidar before it moved to folder-watcher.ts.
    const watcher = chokidarWatch(dir, {
      ignoreInitial: true,
      atomic: true,
      followSymlinks: false,
      ignored: (path: string, stats) => {
        if (path === dir) return false;
        const rel = toRel(dir, path);
        if (isHiddenPath(rel)) return true;
        return stats !== undefined && entryKind(rel, stats) === 'other';
      },
    });
    const one = (path: string): void => onPaths([toRel(dir, path)]);
    watcher.on('add', one).on('change', one).on('unlink', one);
    watcher.on('unlinkDir', (path: string) => onPaths([`${toRel(dir, path)}/`]));
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    return { close: () => watcher.close() };
  },
  'fs-watch'(dir, onPaths) {
    // Armed when it returns: Node walks the tree synchronously.
    const watcher = fsWatch(dir, { recursive: true }, (_type, filename) => {
      if (filename) void expandBarePath(dir, filename.split(sep).join('/'), onPaths);
    });
    return Promise.resolve({ close: () => Promise.resolve(watcher.close()) });
  },
  async parcel(dir, onPaths) {
    const subscription = await parcel.subscribe(
      dir,
      (error, events) => {
        if (error) throw error;
        for (const event of events) void expandBarePath(dir, toRel(dir, event.path), onPaths);
      },
      { ignore: ['**/.*'] },
    );
    return { close: () => subscription.unsubscribe() };
  },
  'per-folder'(dir, onPaths) {
    // What src/source/watch.ts uses.
    const watch = watchFolders(dir, { onPaths, onError: (error) => console.error(error) });
    return Promise.resolve({ close: () => Promise.resolve(watch.close()) });
  },
};

/** What one candidate measured. */
interface Result {
  kind: Kind;
  readyMs: number;
  rssAddedMiB: number;
  heapAddedMiB: number;
  externalAddedMiB: number;
  rssReadyMiB: number;
  peakRssMiB: number;
  latencyMedianMs: number;
  latencyLost: number;
  burstSeen: number;
  burstEvents: number;
  burstLastEventMs: number;
  cases: Record<string, string>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function processMemory(): { rss: number; peak: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** Path → content (Markdown) or `link`: what the loader would hold. */
type Mirror = Map<string, string>;

async function readMirror(dir: string): Promise<Mirror> {
  const tree = await listContentTree(dir);
  const mirror: Mirror = new Map();
  for (const rel of tree.links) mirror.set(rel, 'link');
  for (const rel of tree.markdown) mirror.set(rel, await readFile(join(dir, rel), 'utf8'));
  return mirror;
}

/** `loadChanged` on the mirror. */
async function applyChanged(dir: string, mirror: Mirror, changed: Iterable<string>): Promise<void> {
  for (const rel of changed) {
    if (rel.endsWith('/')) {
      for (const key of [...mirror.keys()]) if (key.startsWith(rel)) mirror.delete(key);
      continue;
    }
    try {
      const kind = entryKind(rel, lstatSync(join(dir, rel)));
      if (kind === 'link') mirror.set(rel, 'link');
      else if (kind === 'markdown') mirror.set(rel, await readFile(join(dir, rel), 'utf8'));
      else mirror.delete(rel);
    } catch {
      mirror.delete(rel);
    }
  }
}

function differences(a: Mirror, b: Mirror): string[] {
  const out: string[] = [];
  for (const [k, v] of b) if (a.get(k) !== v) out.push(a.has(k) ? `stale ${k}` : `missed ${k}`);
  for (const k of a.keys()) if (!b.has(k)) out.push(`kept ${k}`);
  return out;
}

/** Runs in the child: everything for one candidate on `dir`. */
async function measure(kind: Kind, dir: string, outside: string): Promise<Result> {
  const gc = (globalThis as { gc?: () => void }).gc ?? ((): void => undefined);
  const seen = new Map<string, number>(); // path → events
  const firstAt = new Map<string, number>();
  let events = 0;
  let lastEventAt = 0;
  const onPaths: OnPaths = (paths) => {
    const now = performance.now();
    for (const p of paths) {
      events++;
      seen.set(p, (seen.get(p) ?? 0) + 1);
      if (!firstAt.has(p)) firstAt.set(p, now);
      lastEventAt = now;
    }
  };
  const reset = (): void => {
    seen.clear();
    firstAt.clear();
    events = 0;
  };
  const quiet = async (ms = 400, maxMs = 5_000): Promise<void> => {
    const start = performance.now();
    await sleep(ms);
    while (performance.now() - lastEventAt < ms && performance.now() - start < maxMs) await sleep(50);
  };

  gc();
  gc();
  const base = process.memoryUsage();
  const t0 = performance.now();
  const watcher = await candidates[kind](dir, onPaths);
  const readyMs = performance.now() - t0;
  const { peak } = processMemory();
  await sleep(200);
  gc();
  gc();
  const armed = process.memoryUsage();

  // Latency: one write at a time, to a lesson each.
  const { markdown } = await listContentTree(dir);
  const lessons = markdown.filter((p) => p.startsWith('courses/') && !p.endsWith('index.md'));
  await quiet(200);
  const latencies: number[] = [];
  let lost = 0;
  for (let i = 0; i < 20; i++) {
    const rel = lessons[i * 37]!;
    reset();
    const text = await readFile(join(dir, rel), 'utf8');
    // From the start of the write: the event may arrive before the write's promise settles.
    const wrote = performance.now();
    await writeFile(join(dir, rel), `${text}\nEdited ${i}.\n`);
    const deadline = wrote + 2_000;
    while (!firstAt.has(rel) && performance.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
    if (firstAt.has(rel)) latencies.push(firstAt.get(rel)! - wrote);
    else lost++;
    await sleep(20);
  }

  // Burst: 1,000 lessons rewritten, 50 writes at a time.
  await quiet(300);
  reset();
  const burst = lessons.slice(0, 1_000);
  for (let i = 0; i < burst.length; i += 50) {
    await Promise.all(burst.slice(i, i + 50).map((rel) => writeFile(join(dir, rel), `---\ntitle: Burst ${rel}\nlang: python\n---\n\n## One\n`)));
  }
  const burstDone = performance.now();
  await quiet(500, 10_000);
  const burstSeen = burst.filter((rel) => seen.has(rel)).length;
  const burstEvents = burst.reduce((n, rel) => n + (seen.get(rel) ?? 0), 0);
  const burstLastEventMs = lastEventAt - burstDone;

  // Deploy cases, each judged on the mirror.
  const cases: Record<string, string> = {};
  let mirror = await readMirror(dir);
  const lesson = lessons[500]!;
  const lessonDir = lesson.slice(0, lesson.lastIndexOf('/'));
  const classDir = lessons[700]!.slice(0, lessons[700]!.lastIndexOf('/'));
  const runCase = async (name: string, action: () => Promise<void>, extra?: () => string | undefined): Promise<void> => {
    await quiet(200);
    reset();
    await action();
    await quiet();
    await applyChanged(dir, mirror, seen.keys());
    const fresh = await readMirror(dir);
    const wrong = differences(mirror, fresh);
    const note = extra?.();
    cases[name] =
      wrong.length === 0 && !note
        ? `ok (${events} ev)`
        : `FAIL: ${[...wrong.slice(0, 2), ...(note ? [note] : [])].join('; ')}${wrong.length > 2 ? ` +${wrong.length - 2}` : ''}`;
    mirror = fresh;
  };
  const text = (s: string): string => `---\ntitle: ${s}\nlang: python\n---\n\n## One\n`;
  await runCase('rename-over save', async () => {
    const temp = join(dir, lessonDir, '.swap.md.tmp');
    await writeFile(temp, text('Saved by rename'));
    await rename(temp, join(dir, lesson));
  });
  await runCase('edit after rename-over', () => writeFile(join(dir, lesson), text('Edited after the rename')));
  await runCase('new nested folder + files', async () => {
    await mkdir(join(dir, 'courses/zz-new/a/b'), { recursive: true });
    for (let i = 0; i < 5; i++) await writeFile(join(dir, `courses/zz-new/a/b/l${i}.md`), text(`New ${i}`));
  });
  await runCase('edit in new folder', () => writeFile(join(dir, 'courses/zz-new/a/b/l0.md'), text('New, edited')));
  await runCase('folder moved in', async () => {
    await mkdir(join(outside, 'in/sub'), { recursive: true });
    await writeFile(join(outside, 'in/sub/m.md'), text('Moved in'));
    await rename(join(outside, 'in'), join(dir, 'courses/zz-in'));
  });
  await runCase('edit in moved-in folder', () => writeFile(join(dir, 'courses/zz-in/sub/m.md'), text('Moved in, edited')));
  await runCase('folder renamed', () => rename(join(dir, 'courses/zz-in'), join(dir, 'courses/zz-renamed')));
  await runCase('edit in renamed folder', () => writeFile(join(dir, 'courses/zz-renamed/sub/m.md'), text('Renamed, edited')));
  await runCase('folder removed', () => rm(join(dir, classDir), { recursive: true }));
  await runCase('folder moved out', () => rename(join(dir, 'courses/zz-new'), join(outside, 'gone')));
  await runCase(
    'links reported, not followed',
    async () => {
      await mkdir(join(outside, 'target'), { recursive: true });
      await symlink(join(outside, 'target'), join(dir, 'courses/zz-link'));
      await sleep(300);
      await writeFile(join(outside, 'target/behind.md'), text('Behind a link'));
    },
    () => ([...seen.keys()].some((p) => p.startsWith('courses/zz-link/')) ? 'reported a path through the link' : undefined),
  );
  await runCase('link removed', () => unlink(join(dir, 'courses/zz-link')));
  await runCase(
    'hidden paths ignored',
    async () => {
      await mkdir(join(dir, '.git/objects/ab'), { recursive: true });
      await writeFile(join(dir, '.git/objects/ab/cdef'), 'blob');
      await writeFile(join(dir, lessonDir, '.notes.md'), 'hidden');
    },
    () => ([...seen.keys()].some((p) => isHiddenPath(p)) ? 'reported a hidden path' : undefined),
  );

  await watcher.close();
  return {
    kind,
    readyMs: round(readyMs),
    rssAddedMiB: mib(armed.rss - base.rss),
    heapAddedMiB: mib(armed.heapUsed - base.heapUsed),
    externalAddedMiB: mib(armed.external + armed.arrayBuffers - base.external - base.arrayBuffers),
    rssReadyMiB: mib(armed.rss),
    peakRssMiB: mib(peak),
    latencyMedianMs: latencies.length > 0 ? round(median(latencies), 1) : NaN,
    latencyLost: lost,
    burstSeen,
    burstEvents,
    burstLastEventMs: round(burstLastEventMs),
    cases,
  };
}

/** The comparison as a Markdown table, one column per candidate. */
export function watcherTable(results: Result[]): string {
  const rows: [string, (r: Result) => string][] = [
    ['time until armed, ms', (r) => String(r.readyMs)],
    ['RSS added by the watcher, MiB', (r) => String(r.rssAddedMiB)],
    ['JS heap added, MiB', (r) => String(r.heapAddedMiB)],
    ['external + array buffers added, MiB', (r) => String(r.externalAddedMiB)],
    ['RSS once armed, MiB', (r) => String(r.rssReadyMiB)],
    ['peak RSS of the process, MiB', (r) => String(r.peakRssMiB)],
    ['write start → event, median of 20, ms', (r) => `${r.latencyMedianMs}${r.latencyLost ? ` (${r.latencyLost} lost)` : ''}`],
    ['burst of 1,000 writes: paths seen', (r) => String(r.burstSeen)],
    ['burst: events (duplicates)', (r) => `${r.burstEvents} (${r.burstEvents - r.burstSeen})`],
    ['burst: last event after last write, ms', (r) => String(r.burstLastEventMs)],
  ];
  const caseNames = Object.keys(results[0]?.cases ?? {});
  const lines = [`| | ${results.map((r) => r.kind).join(' | ')} |`, `|---|${results.map(() => '---').join('|')}|`];
  for (const [label, cell] of rows) lines.push(`| ${label} | ${results.map(cell).join(' | ')} |`);
  for (const name of caseNames) lines.push(`| case: ${name} | ${results.map((r) => r.cases[name] ?? '').join(' | ')} |`);
  return lines.join('\n');
}

async function runChild(kind: Kind, lessons: number): Promise<Result> {
  const root = await mkdtemp(join(tmpdir(), `syllabus-watch-${kind}-`));
  try {
    const dir = join(root, 'tree');
    const outside = join(root, 'outside');
    await mkdir(outside);
    await generateContent(dir, { lessons });
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--child', kind, '--dir', dir, '--outside', outside],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    if (code !== 0) throw new Error(`${kind}: child exited ${code}: ${stdout}`);
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as Result;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      child: { type: 'string' },
      dir: { type: 'string' },
      outside: { type: 'string' },
      lessons: { type: 'string', default: '10000' },
      only: { type: 'string' },
      out: { type: 'string' },
    },
  });
  if (values.child) {
    const result = await measure(values.child as Kind, values.dir!, values.outside!);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0); // a watcher's leftover handles must not keep the child alive
  }
  const kinds = values.only ? (values.only.split(',') as Kind[]) : [...KINDS];
  const lessons = Number(values.lessons);
  const results: Result[] = [];
  for (const kind of kinds) {
    process.stderr.write(`${kind}: ${lessons} lessons…\n`);
    results.push(await runChild(kind, lessons));
  }
  const table = `Content watchers on ${lessons} generated lessons (Node ${process.version}, ${new Date().toISOString()})\n\n${watcherTable(results)}\n`;
  process.stdout.write(table);
  if (values.out) {
    await writeFile(`${values.out}.md`, table);
    await writeFile(`${values.out}.json`, `${JSON.stringify(results, null, 2)}\n`);
  }
}
