/**
 * Summarises a V8 CPU profile (`node --cpu-prof`): self time per function and per source file or package,
 * so docs/performance.md can say what costs what.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** One row of a summary: a label and its self time. */
export interface ProfileRow {
  label: string;
  selfMs: number;
  /** Share of all sampled time, percent. */
  percent: number;
}

/** Self time by function and by file/package. */
export interface ProfileSummary {
  totalMs: number;
  byFunction: ProfileRow[];
  byFile: ProfileRow[];
}

/** Shortens a script URL: `node_modules/<package>` for dependencies, the repository path for our files. */
export function fileLabel(url: string): string {
  if (url === '') return '(native / V8)';
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = path.slice(nm + '/node_modules/'.length).split('/');
    return `${rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]} (dependency)`;
  }
  if (path.startsWith('node:')) return path;
  const src = path.search(/\/(src|bench)\//);
  return src >= 0 ? path.slice(src + 1).replace(/^bench\/out\/js\//, '') : path;
}

/** Which samples to count, relative to the end of the profile (milliseconds). */
export interface ProfileWindow {
  /** Ignore the last `skipEndMs` (e.g. the shutdown). */
  skipEndMs: number;
  /** Count the `lengthMs` before that (e.g. the load period), ignoring start-up. */
  lengthMs: number;
}

/**
 * Reads a `.cpuprofile` and sums self time (sample intervals) per function and per file, over the whole
 * profile or over a window before its end.
 */
export function summariseProfile(file: string, top = 15, window?: ProfileWindow): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  const to = window ? profile.endTime - window.skipEndMs * 1000 : Infinity;
  const from = window ? to - window.lengthMs * 1000 : -Infinity;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < from || at > to) continue;
    selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  }
  const fn = new Map<string, number>();
  const files = new Map<string, number>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    total += us;
    const where = fileLabel(url);
    const name = `${functionName || '(anonymous)'} — ${where}${url ? `:${lineNumber + 1}` : ''}`;
    fn.set(name, (fn.get(name) ?? 0) + us);
    files.set(where, (files.get(where) ?? 0) + us);
  }
  const rows = (m: Map<string, number>): ProfileRow[] =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([label, us]) => ({ label, selfMs: Math.round(us / 1000), percent: Math.round((us / total) * 1000) / 10 }));
  return { totalMs: Math.round(total / 1000), byFunction: rows(fn), byFile: rows(files) };
}
