/**
 * Public APIs only: src/ and scripts/ use no private field or symbol of Node or a dependency, dress nothing up as a
 * Fetch `Response`, and the build replaces no module (the bundle runs the modules the tests run). Each entry: what
 * is forbidden, a line it must catch, and why; add one when a new private name is found.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const FORBIDDEN: readonly { pattern: RegExp; sample: string; why: string }[] = [
  { pattern: /\bpino\.symbols\b/, sample: 'const { asJsonSym } = pino.symbols;', why: "pino's private symbols" },
  { pattern: /\basJsonSym\b/, sample: 'logger[asJsonSym] = build;', why: "pino's private line builder" },
  { pattern: /\blsCacheSym\b/, sample: 'this[lsCacheSym][30]', why: "pino's private line-start cache" },
  { pattern: /\bchindingsSym\b/, sample: 'this[chindingsSym]', why: "pino's private bindings" },
  { pattern: /\bendSym\b/, sample: 'this[endSym]', why: "pino's private line end" },
  { pattern: /\._(?:len|writing|writingBuf|bufs)\b/, sample: 'const n = destination._len;', why: "sonic-boom's private buffer state" },
  { pattern: /\b_contentLength\b/, sample: 'res._contentLength = n;', why: "Node's ServerResponse internals" },
  { pattern: /\b_hasBody\b/, sample: 'res._hasBody = false;', why: "Node's ServerResponse internals" },
  { pattern: /\b_removedContLen\b/, sample: 'res._removedContLen = true;', why: "Node's ServerResponse internals" },
  { pattern: /\buseChunkedEncodingByDefault\b/, sample: 'res.useChunkedEncodingByDefault = false;', why: "Node's ServerResponse internals" },
  { pattern: /\bhttpAllowHalfOpen\b/, sample: 'server.httpAllowHalfOpen = true;', why: "Node's undocumented http.Server switch" },
  {
    pattern: /\bas (?:Server|ServerResponse|IncomingMessage|OutgoingMessage|Socket) & \{/,
    sample: '(server as Server & { httpAllowHalfOpen: boolean })',
    why: "a field Node's typings do not declare",
  },
  { pattern: /as unknown as Response\b/, sample: 'return PLACEHOLDER as unknown as Response;', why: 'a placeholder posing as a Fetch Response' },
  {
    pattern:
      /\._(?:httpMessage|header|headers|headerSent|implicitHeader|storeHeader|send|writeRaw|onPendingData|keepAliveTimeout|last|closed|events|handle|readableState|writableState|parent|pendingData|pendingEncoding|server)\b/,
    sample: 'const res = socket._httpMessage;',
    why: 'a private field of Node',
  },
  { pattern: /\._tokenizer\b/, sample: 'const t = token._tokenizer;', why: "micromark's private tokenizer of a token" },
  { pattern: /\bonResolve\s*\(/, sample: 'build.onResolve({ filter: /x/ }, resolve);', why: 'an esbuild plugin replacing a module' },
  { pattern: /\bonLoad\s*\(/, sample: 'build.onLoad({ filter: /.*/ }, load);', why: 'an esbuild plugin replacing a module' },
];

const ROOT = join(import.meta.dirname, '..');
const SOURCE = /\.(?:[cm]?[jt]s)$/;

/** Every source file under `folder` (relative to the repository), recursively. */
function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => SOURCE.test(name))
    .map((name) => join(folder, name));
}

describe('public APIs only', () => {
  it('src/ and scripts/ hold no private field or symbol of a dependency, and no module replacement', () => {
    const files = [...sourceFiles('src'), ...sourceFiles('scripts')];
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const file of files) {
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const { pattern, why } of FORBIDDEN) if (pattern.test(line)) found.push(`${relative(ROOT, join(ROOT, file))}:${i + 1}: ${why}`);
        });
    }
    expect(found).toEqual([]);
  });

  it.each(FORBIDDEN.map((entry) => [entry.why, entry] as const))('catches %s', (_why, { pattern, sample }) => {
    expect(pattern.test(sample)).toBe(true);
  });
});
