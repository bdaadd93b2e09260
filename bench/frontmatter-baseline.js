// The floor of a content cold start: read every Markdown file of a tree and parse its frontmatter with gray-matter
// alone (its default YAML engine; no schema, no rule, no model, no index, no HTTP). Synchronous reads, as the
// service's loader does. Prints one JSON line {files, bytes, keys, maxRssKiB} and exits: the benchmark times it
// from spawning this process to its exit, as it times the service from spawning it to its first served request.
// Usage: node bench/frontmatter-baseline.js <content-dir>
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import matter from 'gray-matter';

const dir = process.argv[2];
let files = 0;
let bytes = 0;
let keys = 0; // used, so that the parse cannot be optimised away
for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.md') || entry.name.startsWith('.')) continue;
  const text = readFileSync(join(entry.parentPath, entry.name), 'utf8');
  // An options object turns off gray-matter's cache, which would keep every file's text alive.
  keys += Object.keys(matter(text, {}).data).length;
  files++;
  bytes += text.length;
}
process.stdout.write(`${JSON.stringify({ files, bytes, keys, maxRssKiB: process.resourceUsage().maxRSS })}\n`);
