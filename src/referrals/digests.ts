/**
 * The referral digest file: one SHA-256 hex digest (64 hex digits) of a valid code per line. Blank lines
 * and lines starting with `#` are ignored; surrounding spaces are trimmed; upper-case hex is accepted.
 * Codes themselves never enter the repository or the process's files: only their digests.
 */
import { createHash } from 'node:crypto';

const DIGEST = /^[0-9a-f]{64}$/;

/** Thrown when a digest file has malformed lines; `problems` are `path:line: message`. */
export class DigestFileError extends Error {
  readonly problems: readonly string[];
  constructor(problems: string[]) {
    super(problems.join('\n'));
    this.name = 'DigestFileError';
    this.problems = problems;
  }
}

/**
 * Parses a digest file's text.
 * @param displayPath the path printed in problems.
 * @throws DigestFileError listing every malformed line.
 */
export function parseDigests(text: string, displayPath: string): Set<string> {
  const digests = new Set<string>();
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const digest = line.toLowerCase();
    if (DIGEST.test(digest)) digests.add(digest);
    // The line itself is never repeated: it may be a plaintext code written by mistake.
    else problems.push(`${displayPath}:${i + 1}: not a SHA-256 hex digest (64 hex digits; this line has ${line.length} characters)`);
  });
  if (problems.length > 0) throw new DigestFileError(problems);
  return digests;
}

/** The SHA-256 hex digest of a code's UTF-8 bytes, as stored in the file (`printf %s CODE | sha256sum`). */
export function codeDigest(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('hex');
}
