/** `syllabus roadmap [--json]`: what is planned, by stage (shipped, building, next, exploring), with its items. */
import { getApiJson, hasArray } from '../api.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../errors.js';
import { printable, renderTable, writeJson, type Column } from '../output.js';
import type { Roadmap, RoadmapItem, RoadmapStage } from '../../schemas/types.generated.js';

function isRoadmap(value: unknown): value is Roadmap {
  return hasArray(value, 'stages') && (value as Roadmap).stages.every((s) => hasArray(s, 'items'));
}

type Row = { kind: 'stage'; stage: RoadmapStage } | { kind: 'item'; item: RoadmapItem };

/**
 * One table of every stage's items, so their columns line up across stages, with each stage's heading (label and
 * note, one line) above its items: stage rows are blank in the table, so a long note widens no column, and are
 * then replaced by the heading.
 */
function printRoadmap(ctx: CliContext, roadmap: Roadmap): void {
  const { style } = ctx;
  if (roadmap.stages.length === 0) {
    ctx.stdout.write('The roadmap is empty.\n');
    return;
  }
  const rows = roadmap.stages.flatMap((stage): Row[] => [{ kind: 'stage', stage }, ...stage.items.map((item): Row => ({ kind: 'item', item }))]);
  const item = (r: Row, value: (item: RoadmapItem) => string): string => (r.kind === 'item' ? value(r.item) : '');
  const columns: Column<Row>[] = [
    { heading: 'ID', value: (r) => item(r, (i) => `  ${i.id}`), colour: (t) => style.cyan(t) },
    { heading: 'TITLE', value: (r) => item(r, (i) => i.title) },
    { heading: 'THEME', value: (r) => item(r, (i) => i.theme), colour: (t) => style.dim(t) },
  ];
  const lines = renderTable(rows, columns, style).split('\n');
  rows.forEach((r, i) => {
    if (r.kind === 'stage') lines[i + 1] = style.bold(printable(`${r.stage.label} — ${r.stage.note}`));
  });
  ctx.stdout.write(lines.join('\n'));
}

/**
 * Runs the command.
 * @returns 0; throws CliError (exit 1) when the service fails. `--json` prints the API's body unchanged.
 */
export async function roadmapCommand(ctx: CliContext, options: { json?: boolean }): Promise<number> {
  const roadmap = await getApiJson(ctx, '/v1/roadmap', 'roadmap', isRoadmap);
  if (options.json) writeJson(ctx.stdout, roadmap);
  else printRoadmap(ctx, roadmap);
  return EXIT.ok;
}
