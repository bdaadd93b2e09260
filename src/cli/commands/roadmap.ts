/** `syllabus roadmap [--json]`: what is planned, by stage (shipped, building, next, exploring), with its items. */
import { getApiJson, hasArray } from '../api.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../errors.js';
import { renderTable, writeJson, type Column } from '../output.js';
import type { Roadmap, RoadmapItem, RoadmapStage } from '../../schemas/types.generated.js';

function isRoadmap(value: unknown): value is Roadmap {
  return hasArray(value, 'stages') && (value as Roadmap).stages.every((s) => hasArray(s, 'items'));
}

type Row = { kind: 'stage'; stage: RoadmapStage } | { kind: 'item'; item: RoadmapItem };

function printRoadmap(ctx: CliContext, roadmap: Roadmap): void {
  const { style } = ctx;
  if (roadmap.stages.length === 0) {
    ctx.stdout.write('The roadmap is empty.\n');
    return;
  }
  const rows = roadmap.stages.flatMap((stage): Row[] => [{ kind: 'stage', stage }, ...stage.items.map((item): Row => ({ kind: 'item', item }))]);
  const columns: Column<Row>[] = [
    {
      heading: 'ID',
      value: (r) => (r.kind === 'stage' ? r.stage.key : `  ${r.item.id}`),
      colour: (t, r) => (r.kind === 'stage' ? style.bold(t) : style.cyan(t)),
    },
    {
      heading: 'TITLE',
      value: (r) => (r.kind === 'stage' ? `${r.stage.label} — ${r.stage.note}` : r.item.title),
      colour: (t, r) => (r.kind === 'stage' ? style.bold(t) : t),
    },
    { heading: 'THEME', value: (r) => (r.kind === 'item' ? r.item.theme : ''), colour: (t) => style.dim(t) },
  ];
  ctx.stdout.write(renderTable(rows, columns, style));
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
