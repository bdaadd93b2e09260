/**
 * Which blocks of some functions a call leaves unrun, by V8's precise block coverage. Run in a process of its own
 * (`node --import tsx test/helpers/blocks-never-run.ts <module> <export> <source> <function>…`), so the suite's own
 * coverage is not disturbed: calls the module's export once, then prints a JSON object mapping each named function
 * of the source file to the source text of its blocks that never ran (`["never called"]` when it never ran at all).
 */
import { Session } from 'node:inspector/promises';
import { pathToFileURL } from 'node:url';

const [modulePath, exportName, sourcePath, ...functionNames] = process.argv.slice(2);
if (!modulePath || !exportName || !sourcePath || functionNames.length === 0) {
  throw new Error('usage: blocks-never-run.ts <module> <export> <source> <function>…');
}
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Debugger.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
const module = (await import(pathToFileURL(modulePath).href)) as Record<string, unknown>;
(module[exportName] as () => unknown)();
const { result } = await session.post('Profiler.takePreciseCoverage');
const wanted = new Set(functionNames);
const neverRun: Record<string, string[]> = {};
for (const script of result) {
  if (script.url.split('?')[0] !== pathToFileURL(sourcePath).href) continue;
  const { scriptSource } = await session.post('Debugger.getScriptSource', { scriptId: script.scriptId });
  for (const fn of script.functions) {
    if (!wanted.has(fn.functionName)) continue;
    const [whole, ...blocks] = fn.ranges;
    neverRun[fn.functionName] =
      whole!.count === 0
        ? ['never called']
        : blocks.filter((r) => r.count === 0).map((r) => scriptSource.slice(r.startOffset, r.endOffset).replace(/\s+/g, ' ').slice(0, 120));
  }
}
process.stdout.write(JSON.stringify(neverRun));
