/**
 * Summarises a V8 CPU profile (`node --cpu-prof`): self time per function and per source file or package,
 * so docs/performance.md can say what costs what.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';

interface CallFrame {
  functionName: string;
  url: string;
  /** 0-based. */
  lineNumber: number;
  /** 0-based. */
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
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
  /**
   * Time charged to the nearest function of our own code (`src/`) on the stack, whatever it called (zlib,
   * JSON, a dependency): what costs what in our terms. Samples with no `src/` frame (start-up, GC, idle) are
   * grouped by their self label.
   */
  byOwnCode: ProfileRow[];
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
  const original = sourceMapper();
  for (const node of profile.nodes) node.callFrame = original(node.callFrame);
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
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (node: ProfileNode): string => {
    const { functionName, url, lineNumber } = node.callFrame;
    return `${functionName || '(anonymous)'} — ${fileLabel(url)}${url ? `:${lineNumber + 1}` : ''}`;
  };
  const ownFrame = (id: number): ProfileNode | undefined => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at)!;
      if (/\/src\//.test(node.callFrame.url) && !node.callFrame.url.includes('/node_modules/')) return node;
    }
    return undefined;
  };
  const fn = new Map<string, number>();
  const files = new Map<string, number>();
  const own = new Map<string, number>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    total += us;
    const where = fileLabel(node.callFrame.url);
    const name = label(node);
    fn.set(name, (fn.get(name) ?? 0) + us);
    files.set(where, (files.get(where) ?? 0) + us);
    const mine = ownFrame(id);
    const ownLabel = mine ? label(mine) : `${name} (no src/ frame)`;
    own.set(ownLabel, (own.get(ownLabel) ?? 0) + us);
  }
  const rows = (m: Map<string, number>): ProfileRow[] =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([label, us]) => ({ label, selfMs: Math.round(us / 1000), percent: Math.round((us / total) * 1000) / 10 }));
  return { totalMs: Math.round(total / 1000), byFunction: rows(fn), byFile: rows(files), byOwnCode: rows(own) };
}

/**
 * Maps call frames of a minified bundle (the production `dist/`, with its linked `.map` files) back to the source:
 * its file, line, column and, where the map names it, the function's own name. Frames of scripts without a map are
 * left as they are. Each map is read once.
 */
function sourceMapper(): (frame: CallFrame) => CallFrame {
  const maps = new Map<string, { map: TraceMap; dir: string } | undefined>();
  const mapOf = (url: string) => {
    if (!maps.has(url)) {
      const path = url.startsWith('file://') ? fileURLToPath(url) : url;
      const mapFile = `${path}.map`;
      maps.set(
        url,
        path.endsWith('.js') && existsSync(mapFile) ? { map: new TraceMap(readFileSync(mapFile, 'utf8')), dir: dirname(mapFile) } : undefined,
      );
    }
    return maps.get(url);
  };
  return (frame) => {
    const found = frame.url === '' ? undefined : mapOf(frame.url);
    if (!found) return frame;
    const at = originalPositionFor(found.map, { line: frame.lineNumber + 1, column: frame.columnNumber });
    if (at.source === null || at.line === null) return frame;
    return {
      // Minification renames functions to one to three characters and keeps property names (methods): the map's
      // name at a renamed function's position is its own name; at a method or an anonymous function's, it may be a
      // parameter's.
      functionName: frame.functionName.length > 0 && frame.functionName.length <= 3 && at.name !== null ? at.name : frame.functionName,
      url: `file://${resolve(found.dir, at.source)}`,
      lineNumber: at.line - 1,
      columnNumber: at.column ?? 0,
    };
  };
}
