/** `syllabus version [--json]`: the client, its runtime, and the service's API version when it answers. */
import { apiUrl } from '../config.js';
import { servicePurpose, type CliContext } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import { CLI_VERSION, isNodeSupported } from '../meta.js';
import { printable, writeJson } from '../output.js';
import type { CliVersionOutput } from '../../schemas/types.generated.js';

/** Asks `/v1/health` for the API version. @returns the version, or why it is unknown. */
async function apiVersion(ctx: CliContext): Promise<{ api: string | null; api_error: string | null }> {
  const url = apiUrl(ctx.baseUrl, '/v1/health');
  try {
    const response = await ctx.http.getText(url, servicePurpose(ctx), { cache: false });
    if (response.status !== 200) return { api: null, api_error: `${url.href} answered ${response.status}.` };
    const body = JSON.parse(response.body) as { version?: unknown };
    if (typeof body.version !== 'string') return { api: null, api_error: `${url.href} did not name an API version.` };
    return { api: body.version, api_error: null };
  } catch (error) {
    if (error instanceof CliError) return { api: null, api_error: error.message };
    if (error instanceof SyntaxError) return { api: null, api_error: `${url.href} did not answer with JSON.` };
    throw error;
  }
}

/** Runs the command. @returns the exit code: always 0 (an unreachable service is reported, not an error). */
export async function versionCommand(ctx: CliContext, options: { json?: boolean }): Promise<number> {
  const node = process.versions.node;
  const output: CliVersionOutput = {
    cli: CLI_VERSION,
    node,
    node_supported: isNodeSupported(node),
    platform: process.platform,
    arch: process.arch,
    base_url: ctx.baseUrl.href,
    ...(await apiVersion(ctx)),
  };
  if (options.json) {
    writeJson(ctx.stdout, output);
    return EXIT.ok;
  }
  const { style } = ctx;
  const rows: [string, string][] = [
    ['syllabus-cli', output.cli],
    ['node', `v${output.node} ${output.node_supported ? style.green('(supported)') : style.red('(not supported)')}`],
    ['platform', `${output.platform}-${output.arch}`],
    ['api', output.api !== null ? `${printable(output.api)} at ${output.base_url}` : style.dim(`unknown: ${output.api_error ?? ''}`)],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  ctx.stdout.write(rows.map(([k, v]) => `${style.bold(k.padEnd(width))}  ${v}`).join('\n') + '\n');
  return EXIT.ok;
}
